"""``resume``: take the lock again and print the report; after a clone
elsewhere, first take the remote's state branch, fetch the checkpoint's
commit, say where HEAD is (``--checkout`` goes there) and restore the
checkpoint's uncommitted work where that loses nothing."""

from __future__ import annotations

from collections.abc import Callable

from vibegit import app
from vibegit.core import credentials, lifecycle, workflows
from vibegit.core.model import Env, State, Status
from vibegit.core.settings import Settings
from vibegit.errors import OK, BadInput, Refused
from vibegit.infra import git, remote, snapshot, store

Say = Callable[[str], None]


def resume(
    lang: str | None,
    checkout: bool = False,
    force: bool = False,
    given: str | None = None,
    workflow: str | None = None,
) -> int:
    """The workflow of this worktree's branch (or ``--workflow``'s), never one picked silently
    among several; ``given`` is the remote to take the state from on a fresh clone."""
    ctx = app.enter()
    app.arrive(ctx, given, app.say)  # a fresh clone: take the remote's (fetching it)
    e = app.facts(ctx)
    loaded = store.read_state(ctx.repo, ctx.settings)
    try:
        target = workflows.choose(loaded.index, e, workflow)
    except Refused as err:  # none here, or several: name them, and how to go to one
        raise Refused(f"{err}; 'vibegit resume --workflow NAME --checkout' also goes to its branch") from None
    current = store.flow(ctx.repo, git.reader(ctx.repo), loaded, target.id) if target else loaded.fresh()
    state = current.state
    lock = state.lock
    if state.workflow.status is Status.RUNNING and lock and (lock.host, lock.worktree) == (e.host, e.worktree):
        app.say("The workflow is already running here; nothing to resume.")
        app.show_report(ctx, state, lang, e.head)
        return OK
    lifecycle.resume(state, e)  # refuse before any file is touched
    snap = next((x.oid for x in current.tree if x.name == store.SNAPSHOT and x.mode == "40000"), None)
    go_to_checkpoint(
        ctx.repo, ctx.settings, state, e, checkout=checkout, force=force, given=given, say=app.say, snapshot_tree=snap
    )
    e = app.facts(ctx)  # --checkout may have moved HEAD
    written = app.record(ctx, lambda s: lifecycle.resume(s, e), e, workflow=current.id or None)
    app.show_report(ctx, written.state, lang, e.head, workflows.others(loaded.index, current.id))
    return OK


def _switch(repo: git.Repo, commit: str, branch: str | None, say: Say) -> None:
    if branch and (branch.startswith("-") or repo.git("check-ref-format", "--branch", branch, check=False).returncode):
        raise BadInput(f"checkpoint.branch {branch[:60]!r} is not a valid branch name")
    args = ["switch", "-q", branch] if branch else ["switch", "-q", "--detach", commit]
    proc = repo.git(*args, check=False)
    if proc.returncode:
        raise Refused(
            f"git {' '.join(args[2:])} refused: {git.reason(proc)} (nothing was restored; the lock was not taken)"
        )
    head = git.head_commit(repo)
    say(f"Switched to {branch or 'a detached HEAD'} at {(head or '')[:12]}.")
    if head != commit:
        say(
            f"Note: {branch} is at {(head or '')[:12]}, not at the checkpoint's commit {commit[:12]} "
            "(it moved on, or the checkpoint's commit was not pushed on it)."
        )


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
    """Before resume takes the lock: the checkpoint's commit, HEAD, the snapshot
    (``snapshot_tree``: the snapshot/ tree stored beside the checkpoint)."""
    lock = state.lock
    if lock is not None and lock.host and lock.host != e.host:
        say(
            f"Taking the workflow over from {lock.host}; 'vibegit sync' (or a git push with vibegit's hooks "
            f"installed) lets {lock.host} know."
        )
    k = state.checkpoint
    if k is None:
        return
    commit = k.commit
    if commit and not git.tree_of(repo, commit):
        name = remote.state_remote(repo, settings, given) if (given or git.remotes(repo)) else None
        if name is None or not remote.fetch_commit(repo, name, commit):
            say(
                f"The checkpoint's commit {commit[:12]} is not in this repository"
                + (f" nor on {name}" if name else "")
                + " (was it pushed?)."
            )
            commit = None
        else:
            say(f"Fetched the checkpoint's commit {commit[:12]} from {name}.")
    if commit and e.head != commit:
        if checkout:
            _switch(repo, commit, k.branch, say)
        else:
            where = f"on {k.branch}" if k.branch else "on a detached HEAD"
            go = f"git switch {k.branch}" if k.branch else f"git switch --detach {commit[:12]}"
            say(
                f"HEAD is at {(e.head or 'nothing')[:12]} ({e.branch or 'detached'}); the checkpoint is at "
                f"{commit[:12]} {where}: 'vibegit resume --checkout' or '{go}' goes there."
            )
    if k.snapshot:
        _restore(repo, settings, state, e, k.snapshot, snapshot_tree, commit, force, say)


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
    if lock is not None and (lock.host, lock.worktree) == (e.host, e.worktree):
        return  # taken in this very working tree: what is here now is newer
    if stored != snap:
        raise BadInput(
            f"checkpoint.snapshot {snap[:12]} is not the snapshot/ tree of {settings.state_branch}; "
            "run 'vibegit doctor'"
        )
    base = git.tree_of(repo, commit)
    p = snapshot.plan(repo, snap, base)
    if p.local and not force:
        raise Refused(
            f"not restoring the checkpoint's uncommitted work: {len(p.local)} file(s) here have changes that differ "
            f"from it: {', '.join(p.local[:20])}{' …' if len(p.local) > 20 else ''}; commit or stash them, or "
            "'vibegit resume --force' saves them in the stash first (nothing was changed)"
        )
    if p.head_moved and not force:
        raise Refused(
            f"not restoring the checkpoint's uncommitted work: HEAD's version of {', '.join(p.head_moved[:20])} "
            "differs from the checkpoint's commit; 'vibegit resume --checkout' goes to the checkpoint first, "
            "'--force' writes the snapshot's version (HEAD's stays in git) (nothing was changed)"
        )
    for note in credentials.withheld(state.checkpoint):
        say(f"Not restored: {note}. Bring that file over yourself, keeping the credential out of git.")
    if p.withheld:
        say(
            f"Not restored: {', '.join(p.withheld)} (vibegit runs commands from there, and never runs what came "
            f"from the state branch); review it with 'git show {snap[:10]}:{p.withheld[0]}' and copy it yourself."
        )
    writes, deletes = list(p.write), list(p.delete)
    if force and p.local:
        where = snapshot.save_local(repo, p.local, f"vibegit resume --force: local versions of {len(p.local)} file(s)")
        say(
            f"Saved your local version of {len(p.local)} file(s) ({', '.join(p.local[:10])}) as stash@{{0}} "
            f"({where[:10]}): 'git stash show -p stash@{{0}}' shows it, 'git stash pop' brings it back."
        )
    for path in (p.local + p.head_moved) if force else []:
        (deletes if path in p.gone else writes).append(path)
    snapshot.apply(repo, snap, sorted(writes), sorted(deletes))
    if writes or deletes:
        say(
            f"Restored the checkpoint's uncommitted work ({snap[:10]}): {len(writes)} file(s) written, "
            f"{len(deletes)} deleted, {p.in_sync} already as in it. They are left unstaged."
        )
    elif p.in_sync:
        say(f"The working tree already holds the checkpoint's uncommitted work ({snap[:10]}).")
