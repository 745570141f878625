"""``resume``: take the lock again and print the report; after a clone
elsewhere, first take the remote's state branch, fetch the checkpoint's
commit, say where HEAD is (``--checkout`` goes there) and restore the
checkpoint's uncommitted work where that loses nothing."""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable

from vibegit import app
from vibegit.core import credentials, lifecycle, report, workflows
from vibegit.core.messages import t
from vibegit.core.model import Env, State, Status
from vibegit.core.settings import Settings
from vibegit.core.text import clean, escape_path, shown
from vibegit.errors import OK, BadInput, Refused, VibegitError
from vibegit.infra import git, hookfiles, hookplace, remote, snapshot, store

Say = Callable[[str], None]


LOOK_SECONDS = 10.0  # how long resume waits for the state's remote; then it compares with what was fetched before


def resume(
    lang: str | None,
    checkout: bool = False,
    force: bool = False,
    given: str | None = None,
    workflow: str | None = None,
) -> int:
    """The workflow of this worktree's branch (or ``--workflow``'s), never one picked silently
    among several; ``given`` is the remote to take the state from on a fresh clone. A copy
    of the state that the remote's has moved past is never resumed: ``force`` takes the
    remote's first, then the workflow and its checkpoint's work (whatever is in the way saved)."""
    ctx = app.enter()
    app.arrive(ctx, given, app.say)  # a fresh clone: take the remote's (fetching it)
    looked = _look(ctx, given)
    e = app.facts(ctx)
    loaded = store.read_state(ctx.repo, ctx.settings)
    try:
        target = workflows.choose(loaded.index, e, workflow)
    except Refused as err:  # none here, or several: name them, and how to go to one
        raise Refused(t("resume.choose", error=err)) from None
    news = None
    if target is not None and looked is not None:
        news = remote.newer(ctx.repo, ctx.settings, target.id, looked or None, ctx.config)
    if news is not None and target is not None:
        if not force:
            raise Refused(t("resume.stale", newer=news.where(target.name)))
        from vibegit.commands import sync  # taking over: the remote's state first, as sync takes it

        sync.integrate(ctx.repo, ctx.settings, ctx.config, e, news.tip, news.remote, app.say)
        loaded = store.read_state(ctx.repo, ctx.settings)
    current = store.flow(ctx.repo, git.reader(ctx.repo), loaded, target.id) if target else loaded.fresh()
    state = current.state
    lock = state.lock
    here = state.workflow.status is Status.RUNNING and lock is not None and lock.held_here(e)
    if here and not force:
        app.say(t("cmd.running_here"))
        app.show_report(ctx, state, lang, e.head)
        return OK
    if here:
        app.say(t("resume.restore_here"))
    else:
        lifecycle.resume(state, e)  # refuse before any file is touched
    snap = next((x.oid for x in current.tree if x.name == store.SNAPSHOT and x.mode == "40000"), None)
    go_to_checkpoint(
        ctx.repo, ctx.settings, state, e, checkout=checkout, force=force, given=given, say=app.say, snapshot_tree=snap
    )
    e = app.facts(ctx)  # --checkout may have moved HEAD
    if here:
        app.show_report(ctx, state, lang, e.head)
        return OK
    written = app.record(ctx, lambda s: lifecycle.resume(s, e), e, workflow=current.id or None)
    if lock is not None and (lock.machine or lock.host) and not lock.held_here(e, clone_only=True):
        app.say(t("cmd.took_over", holder=lock.holder))  # said once it happened, never before a refusal
        protect(ctx.repo)
    app.show_report(ctx, written.state, lang, e.head, workflows.others(loaded.index, current.id))
    return OK


def _look(ctx: app.Context, given: str | None) -> str | None:
    """The state's remote, fetched (for at most LOOK_SECONDS): the ref of the
    copy just fetched; "" when it could not be reached (then the copies
    fetched before are compared, and that is said); None without a remote."""
    repo = ctx.repo
    found = git.remote_config(repo, ctx.config)
    if given is None and not found.urls:
        return None
    try:
        name = remote.state_remote(repo, ctx.settings, given, found)
    except BadInput as err:
        if given is not None:
            raise
        app.warn(t("resume.no_remote", reason=err))
        return None
    try:
        remote.fetch(repo, ctx.settings, name, timeout=LOOK_SECONDS, retry="vibegit resume")
    except VibegitError as err:
        app.warn(t("resume.offline", remote=name, reason=err))
        return ""
    return remote.remote_ref(name)


def protect(repo: git.Repo) -> None:
    """The second clone is protected at once: a lock taken over from another
    clone is enforced here only by vibegit's git hooks. None here (a fresh
    clone): they are installed, saying so. Hooks of another tool in their
    place: nothing is touched, and the command to run is said."""
    where = hookfiles.place(repo.toplevel)
    if hookplace.LOCK_HOOK in hookplace.installed(where) and hookplace.lock_check_problem(where) is None:
        return
    if any(os.path.lexists(os.path.join(where.hooks, name)) for name in hookfiles.DEFAULT_HOOKS):
        app.warn(t("cmd.hooks_missing"))
        return
    app.say(t("cmd.installing_hooks"))
    try:
        hookfiles.install(cwd=repo.toplevel)
    except VibegitError as err:  # the resume is recorded; only the protection is missing
        app.warn(t("cmd.hooks_failed", error=err))


def _switch(repo: git.Repo, commit: str | None, branch: str | None, say: Say) -> None:
    if branch and (branch.startswith("-") or repo.git("check-ref-format", "--branch", branch, check=False).returncode):
        raise BadInput(t("resume.bad_branch", branch=shown(branch[:60])))
    # --no-overwrite-ignore: git would otherwise replace ignored files (an .env) the branch tracks.
    args = ["switch", "-q", "--no-overwrite-ignore", branch] if branch else ["switch", "-q", "--detach", commit or ""]
    proc = repo.git(*args, check=False)
    if proc.returncode:
        named = [line.strip() for line in proc.stderr.decode(errors="replace").splitlines() if line.startswith("\t")]
        which = f": {', '.join(shown(n) for n in named[:20])}" if named else ""
        target = clean(branch or "--detach " + (commit or "")[:12])
        raise Refused(t("resume.switch_refused", target=target, reason=clean(git.reason(proc)), which=which))
    head = git.head_commit(repo)
    say(t("resume.switched", where=clean(branch or t("block.detached")), head=(head or "")[:12]))
    if commit and head != commit:
        say(t("resume.switched_elsewhere", branch=clean(branch or ""), head=(head or "")[:12], commit=commit[:12]))


def go_to_checkpoint(
    repo: git.Repo,
    settings: Settings,
    state: State,
    e: Env,
    *,
    checkout: bool,
    force: bool,
    given: str | None,
    say: Say,
    snapshot_tree: str | None = None,
) -> None:
    """Before resume takes the lock: the checkpoint's commit, HEAD (its branch:
    the checkpoint's, else the workflow's), the snapshot (``snapshot_tree``:
    the snapshot/ tree stored beside the checkpoint)."""
    k = state.checkpoint
    branch = k.branch if k is not None else state.workflow.branch
    commit = k.commit if k is not None else None
    if k is not None and commit and not git.tree_of(repo, commit):
        name = remote.state_remote(repo, settings, given) if (given or git.remote_names(repo)) else None
        if name is None or not remote.fetch_commit(repo, name, commit):
            if name:
                say(t("resume.commit_missing_there", commit=commit[:12], remote=name))
            else:
                say(t("resume.commit_missing", commit=commit[:12]))
            commit = None
        else:
            say(t("cmd.fetched_commit", commit=commit[:12], remote=name))
    if (commit and e.head != commit) or (branch and e.branch != branch):
        if checkout:
            _switch(repo, commit, branch, say)
        elif not commit:
            here = clean(e.branch or t("report.detached"))
            say(t("resume.other_branch", branch=clean(branch or ""), here=here, go=report.switch_command(branch, "")))
        else:
            where = t("where.branch", branch=branch) if branch else t("where.detached")
            go = report.switch_command(branch, commit)
            say(
                t(
                    "cmd.head_elsewhere",
                    head=(e.head or t("report.none"))[:12],
                    branch=e.branch or t("report.detached"),
                    commit=commit[:12],
                    where=where,
                    go=go,
                )
            )
    if k is not None and k.snapshot:
        _restore(repo, settings, state, e, k.snapshot, snapshot_tree, commit, force, say)


def _listed(paths: list[str], most: int = 20) -> str:
    return ", ".join(shown(p) for p in paths[:most]) + (" …" if len(paths) > most else "")


def _restore(
    repo: git.Repo,
    settings: Settings,
    state: State,
    e: Env,
    snap: str,
    stored: str | None,
    commit: str | None,
    force: bool,
    say: Say,
) -> None:
    lock = state.lock
    if not force and lock is not None and lock.held_here(e):
        return  # taken in this very working tree: what is here now is newer (--force: the checkpoint's, all the same)
    if stored != snap:
        raise BadInput(t("resume.bad_snapshot", snap=snap[:12], branch=settings.state_branch))
    base = git.tree_of(repo, commit)
    p = snapshot.plan(repo, snap, base, settings.mirror_dir, snapshot.hooks_dirs(repo, git.read_config(repo)))
    if p.local and not force:
        named = [
            path if where == path else t("resume.behind", path=path, where=where)
            for path, where in sorted(p.local.items())
        ]
        raise Refused(t("resume.local_work", n=len(p.local), paths=_listed(named)))
    if p.head_moved and not force:
        raise Refused(t("resume.head_moved", paths=_listed(p.head_moved)))
    for note in credentials.withheld(state.checkpoint):
        say(t("resume.credential_withheld", note=note))
    if p.withheld:
        first = next(iter(p.withheld))
        paths = _listed([f"{path} ({why})" for path, why in p.withheld.items()], 10)
        say(t("resume.withheld", paths=paths, snap=snap[:10], first=shown(first)))
    if p.configuration:
        say(configuration_withheld(p, state.workflow.id))
    if p.nested:
        nested = [t("resume.nested_one", path=path, repo=repo_) for path, repo_ in sorted(p.nested.items())]
        say(t("resume.nested", paths=_listed(nested, 10)))
    writes, deletes = list(p.write), list(p.delete)
    remove: list[str] = []
    if force:
        for path in p.head_moved:
            (deletes if path in p.gone else writes).append(path)
        remove = snapshot.in_the_way(repo, p)
        writes += [path for path in p.local if path not in p.gone]
    if remove:
        backup = snapshot.save(repo, remove, e.now.replace(":", "").replace("-", ""))
        back = snapshot.put_back(repo, backup)
        say(t("resume.saved", n=len(remove), paths=_listed(remove, 10), backup=backup, restore=back))
    snapshot.apply(repo, p, snap, sorted(writes), sorted(deletes), remove)
    if writes or deletes:
        say(t("cmd.restored", snap=snap[:10], written=len(writes), deleted=len(deletes), same=p.in_sync))
    elif p.in_sync:
        say(t("cmd.already_restored", snap=snap[:10]))


def configuration_withheld(p: snapshot.Plan, workflow_id: str) -> str:
    """The configuration a restore withheld: each path, the command that shows
    the difference and the one that takes it (paths as ``escape_path`` writes them)."""
    lines = []
    for path in sorted(p.configuration):
        change = p.wanted[path]
        key = "resume.config_new" if change.old is None else "resume.config_deleted" if change.new is None else None
        lines.append(t(key or "resume.config_changed", path=escape_path(path)))
    args = " ".join(shlex.quote(escape_path(path)) for path in sorted(p.configuration))
    which = f" --workflow {workflow_id}" if workflow_id else ""
    return t(
        "resume.configuration",
        paths="\n".join(lines),
        diff=f"vibegit take --diff{which} {args}",
        take=f"vibegit take{which} {args}",
    )
