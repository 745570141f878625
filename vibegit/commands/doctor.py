"""``vibegit doctor``: check the state branch and the set-up around it;
``--repair`` fixes what it can, as new events, and names the rest.

The state branch: no git process left its ref locked (``--repair`` removes
such a lock once it is older than any live git process would hold it); the
branch exists (deleted: it comes back from its reflog, a remote's copy or
the commit the mirror shows); it is not checked out (events are refused
then); its objects are all there (a blob pruned by a racing gc comes back
from the mirror); its state files parse; the history is an orphan; the lock
agrees with the status; a checkpoint's snapshot tree is in the commit; the
mirror's files parse. ``--repair`` records a NEW event holding the newest
good state (history, then the reflog, newest first) on top of the tip:
nothing is deleted. A broken mirror file is moved aside.

The set-up: vibegit's hooks still run where git looks for them (another
tool may have moved, replaced or made them not executable) and are what
this vibegit installs (``--repair`` installs them again, mending every
difference of text or mode, and prints what a hook manager's configuration
needs), git-lfs's hooks still run, the agents' settings hold vibegit's
current entries.

Each check is a function of the repository and the loaded state, so it can
run once per workflow.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable

from vibegit import app
from vibegit.core import agents as agent_specs
from vibegit.core import lifecycle
from vibegit.core.messages import t
from vibegit.core.model import State
from vibegit.core.records import replace
from vibegit.core.settings import Settings
from vibegit.errors import OK, REFUSED, BadInput, GitError
from vibegit.infra import agentfiles, git, hookfiles, hookplace, mirror, remote, store

MAX_CANDIDATES = 5000
STALE_LOCK_SECONDS = 2.0  # git holds a ref lock for milliseconds; older, under our lock, it was left behind


def doctor(repair: bool, named: str | None = None) -> int:
    """``named``: the remote whose copy brings a deleted state branch back, in place of this repository's own."""
    ctx = app.open_repo()
    say = app.say
    if named is not None:
        remote.state_remote(ctx.repo, ctx.settings, given=named)  # a remote that exists, or one line
    setup_ok = _setup(ctx, repair, say)
    holders = git.checked_out(ctx.repo, ctx.settings.state_ref)
    if holders:
        say(t("doctor.checked_out", branch=ctx.settings.state_branch, where=", ".join(holders)))
        return REFUSED
    state_code = _state_branch(ctx, repair, say, named)
    return OK if setup_ok and state_code == OK else REFUSED


# -- the set-up ------------------------------------------------------------------------


def setup_problems(ctx: app.Context) -> tuple[list[str], list[str]]:
    """What is wrong around the state: vibegit's hooks, git-lfs's hooks (the
    agents' side is ``agentfiles.health``, said with the state branch)."""
    where = hookplace.place_of(ctx.repo, ctx.config)
    hooks = hookplace.hook_problems(where) + hookfiles.outdated(where)
    lfs = "filter.lfs.process" in ctx.config or "filter.lfs.clean" in ctx.config
    lfs_problem = hookfiles.lfs_problem(where, lfs and bool(hookplace.installed(where)))
    return hooks, [lfs_problem] if lfs_problem else []


def _setup(ctx: app.Context, repair: bool, say: Callable[[str], None]) -> bool:
    hooks, lfs = setup_problems(ctx)
    for problem in hooks + lfs:
        say(f"✘ {problem}")
    if not repair:
        return not (hooks or lfs)
    where = hookplace.place_of(ctx.repo, ctx.config)
    if hooks:
        say(t("doctor.installing_hooks"))
        hookfiles.install(hookplace.installed(where), cwd=ctx.repo.toplevel)
    _update_agents(ctx, say)
    left, lfs = setup_problems(app.open_repo(ctx.repo.toplevel))
    for problem in left + lfs:
        say(t("doctor.still", problem=problem))
    return not (left or lfs)


def _update_agents(ctx: app.Context, say: Callable[[str], None]) -> None:
    """Bring vibegit's entries up to date in each agent's files that hold outdated ones."""
    for scope in agent_specs.SCOPES:
        stale = []
        for agent in agent_specs.SPECS.values():
            if scope not in agent.settings:
                continue
            try:
                status = agentfiles.check(ctx.repo, agent, scope, ctx.settings.lang)
            except BadInput:
                continue  # health names it; a file that does not parse is fixed by hand
            if status.installed and not status.current(mcp=status.server not in ("", "missing")):
                stale.append((agent.name, status.server not in ("", "missing")))
        for mcp in (False, True):
            names = [name for name, has_mcp in stale if has_mcp == mcp]
            if names:
                say(t("doctor.updating_agents", names=", ".join(names), scope=scope))
                files, report = agentfiles.plan_install(ctx.repo, names, scope, mcp, ctx.settings.lang)
                for line in report.lines + agentfiles.carry_out(files, True):
                    say(line)


# -- the state branch ----------------------------------------------------------------------


def recoverable(
    repo: git.Repo, cat: git.CatFile, settings: Settings, named: str | None = None
) -> tuple[str, str] | None:
    """The newest good state commit that outlived a deleted branch, and where it was found:
    the branch's reflog, the copy of the remote the state belongs to (``vibegit.remote``;
    a fork's upstream is a stranger's state), or the commit the mirror shows. ``named``: the
    copy of that remote only, which the user chose."""
    found: dict[str, str] = {}
    if named is None:
        tip = git.reflog_tip(repo, settings.state_ref)
        if tip:
            found.setdefault(tip, "its reflog")
    for ref in _copies(repo, settings, named or _own_remote(repo, settings)):
        oid = git.commit_at(repo, ref)
        if oid:
            found.setdefault(oid, ref)
    shown = mirror.last_shown(repo) if named is None else None
    if shown:
        found.setdefault(shown, f"the mirror ({settings.mirror_dir})")
    good = []
    for oid, source in found.items():
        commit = git.commit_of(repo, oid)
        if commit and not store.commit_problems(repo, cat, settings, commit):
            good.append((int(repo.out("log", "-1", "--format=%ct", commit)), commit, source))
    if not good:
        return None
    _, commit, source = max(good)
    return commit, source


def _own_remote(repo: git.Repo, settings: Settings) -> str | None:
    """The remote the state belongs to, None when none is configured or it is unclear."""
    try:
        return remote.state_remote(repo, settings)
    except BadInput:
        return None


def _copies(repo: git.Repo, settings: Settings, name: str | None) -> tuple[str, ...]:
    """The refs that may hold remote ``name``'s copy of the state branch: vibegit's own fetch, git's."""
    if name is None:
        return ()
    return (remote.remote_ref(name), f"refs/remotes/{name}/{settings.state_branch}")


def _strangers(repo: git.Repo, settings: Settings) -> list[str]:
    """The other remotes whose copy of the state branch is here (never taken unless named)."""
    own = _own_remote(repo, settings)
    names = git.remote_config(repo).urls
    return [n for n in names if n != own and any(git.commit_at(repo, ref) for ref in _copies(repo, settings, n))]


def restore_from_mirror(repo: git.Repo, settings: Settings, missing: list[str]) -> int:
    """Write back the missing blobs of state files whose bytes the mirror still holds; how many."""
    wanted = set(missing)
    restored = 0
    for data in mirror.saved(repo, settings):
        if git.blob_id(repo, data) in wanted:
            git.write_object(repo, "blob", data)
            restored += 1
    return restored


def _state_branch(ctx: app.Context, repair: bool, say: Callable[[str], None], named: str | None) -> int:
    repo, settings = ctx.repo, ctx.settings
    said: list[str] = []
    problems: list[str] = []
    broken_mirror = mirror.problems(repo, settings)
    tip_now = git.resolve(repo, settings.state_ref)
    missing = git.missing_objects(repo, tip_now) if tip_now else []
    if missing:
        restored = restore_from_mirror(repo, settings, missing) if repair else 0
        if restored:
            say(t("doctor.restored_objects", n=restored, branch=settings.state_branch))
            missing = git.missing_objects(repo, tip_now or "")
    if missing:
        oids = ", ".join(m[:10] for m in missing[:5])
        problems_missing = [t("doctor.missing_objects", n=len(missing), branch=settings.state_branch, oids=oids)]
    else:
        problems_missing = []

    def build(head: str | None, cat: git.CatFile) -> tuple[str | None, str, int | None]:
        """Check the tip; with --repair, the repair. The result: an exit code, or None to go on."""
        said.clear()
        problems.clear()
        lock = git.ref_lock(repo, settings.state_ref)
        if os.path.exists(lock):
            if repair and time.time() - os.stat(lock).st_mtime >= STALE_LOCK_SECONDS:
                os.unlink(lock)
                said.append(t("doctor.removed_lock", lock=lock))
            else:
                said.append(t("doctor.lock_blocks", lock=lock))
                said.append(t("doctor.lock_young" if repair else "doctor.lock_repair"))
                return None, "", REFUSED
        found = cat.info(head) if head else None
        tip = head if found is not None and found[0] == "commit" else None
        if head is None:
            back = recoverable(repo, cat, settings, named)
            if back is None and named is not None:
                said.append(t("doctor.no_copy", remote=named, branch=settings.state_branch))
                return None, "", REFUSED
            if back is None:
                others = _strangers(repo, settings)
                if others:
                    said.append(t("doctor.only_elsewhere", branch=settings.state_branch, remotes=", ".join(others)))
                    return None, "", REFUSED
                said.append(t("doctor.no_branch", branch=settings.state_branch))
                return None, "", OK
            commit, source = back
            branch = settings.state_branch
            said.append(t("doctor.branch_missing", branch=branch, source=source, commit=commit[:10]))
            if not repair:
                said.append(t("doctor.bring_back", remote=f" --remote {named}" if named else ""))
                return None, "", REFUSED
            said.append(t("doctor.recovered", branch=branch, commit=commit[:10], source=source))
            return commit, f"vibegit: recover from {source}", None
        if tip is None:
            what = found[0] if found else t("doctor.missing_object")
            problems.append(t("doctor.not_commit", ref=settings.state_ref, what=what))
        else:
            problems.extend(problems_missing)
            problems.extend(store.commit_problems(repo, cat, settings, tip))
            problems.extend(store.orphan_problems(repo, settings, tip))
        said.extend(f"✘ {problem}" for problem in problems)
        said.extend(t("doctor.mirror", problem=problem) for _, problem in broken_mirror)
        if not problems and not broken_mirror:
            count = git.count(repo, tip) if tip else 0
            said.append(t("doctor.healthy", branch=settings.state_branch, n=count, tip=(tip or "")[:10]))
            return None, "", OK
        if not repair:
            said.append(t("doctor.repair_how"))
            return None, "", REFUSED
        if not problems or all("not an orphan" in p for p in problems):
            return None, "", None  # the branch stays; only the mirror is mended
        if tip is not None and problems_missing:
            rebuilt = _without_snapshot(ctx, cat, tip, problems[0])
            if rebuilt is not None:
                said.append(
                    t(
                        "doctor.repaired_without_snapshots",
                        branch=settings.state_branch,
                        commit=rebuilt[:10],
                        tip=tip[:10],
                    )
                )
                return rebuilt, "vibegit: repair", None
        known = git.known_commits(repo, tip, settings.state_ref, MAX_CANDIDATES)
        good = next(
            (
                c
                for c in sorted(known, key=lambda c: -known[c])
                if c != tip and not store.commit_problems(repo, cat, settings, c) and not _misses(repo, c, missing)
            ),
            None,
        )
        if good is None:
            said.append(t("doctor.no_good_state", branch=settings.state_branch))
            return None, "", REFUSED
        loaded = store.load_commit(repo, cat, good, "")
        state, event = lifecycle.repaired(loaded.fresh().state, good, problems[0])
        tree = git.resolve(repo, f"{good}^{{tree}}") or ""
        commit = store.commit(repo, ctx.config, app.facts(ctx), tree, [tip] if tip else [good], event, state)
        key, on = ("doctor.repaired_on_top", tip[:10]) if tip else ("doctor.repaired", "")
        said.append(t(key, branch=settings.state_branch, good=good[:10], commit=commit[:10], tip=on))
        return commit, "vibegit: repair", None

    try:
        code = store.publish(repo, settings, build, config=ctx.config)
    except GitError as err:
        say(f"✘ {err}")
        return REFUSED
    for line in said:
        say(line)
    agent_lines, agents_bad = agentfiles.health(repo, settings.lang)
    for line in agent_lines:
        say(line)
    if code is not None:
        return REFUSED if agents_bad else code
    for rel, _ in broken_mirror:
        aside = mirror.set_aside(repo, rel)
        if aside is not None:
            say(t("doctor.moved_aside", name=rel.rsplit("/", 1)[-1], aside=aside.rsplit("/", 1)[-1]))
    tip = git.commit_of(repo, settings.state_ref)
    if tip:
        mirror.refresh(repo, settings, tip, app.facts(ctx), say, force=True)
    return REFUSED if agents_bad or any("not an orphan" in p for p in problems) else OK


def _misses(repo: git.Repo, commit: str, missing: list[str]) -> bool:
    """``commit``'s own tree names one of the missing objects."""
    if not missing:
        return False
    return bool(git.missing_objects(repo, f"{commit}^{{tree}}"))


def _without_snapshot(ctx: app.Context, cat: git.CatFile, tip: str, problem: str) -> str | None:
    """The history again with every lost snapshot dropped (each event kept: same
    message, author and order; a checkpoint that pinned one keeps its commit and
    position), then a repair event on top; None when more than snapshots was lost."""
    repo = ctx.repo
    lost: dict[str, bool] = {}
    mapped: dict[str, str] = {}
    try:
        for commit in repo.out("rev-list", "--topo-order", "--reverse", tip).split():
            found = cat.get(commit)
            if found is None:
                return None
            head, _, body = found[2].partition(b"\n\n")
            lines = head.split(b"\n")
            tree = lines[0].split()[1].decode()
            here = {at.tree for at in store.snapshots(repo, cat, commit)}
            for oid in here - lost.keys():
                lost[oid] = cat.get(oid) is None or bool(git.missing_objects(repo, oid))
            gone = {oid for oid in here if lost[oid]}
            if gone:
                loaded = store.load_commit(repo, cat, commit, "")
                tree = store.rewritten(repo, cat, loaded, functools.partial(_unpinned, gone=gone), {}, gone)
            out = [b"tree " + tree.encode()]
            for line in lines[1:]:
                if line.startswith(b"parent "):
                    parent = line.split()[1].decode()
                    line = b"parent " + mapped.get(parent, parent).encode()
                out.append(line)
            raw = b"\n".join(out) + b"\n\n" + body
            mapped[commit] = git.write_object(repo, "commit", raw) if raw != found[2] else commit
        new_tip = mapped.get(tip, tip)
        if git.missing_objects(repo, new_tip):
            return None
        loaded = store.load_commit(repo, cat, new_tip, "")
    except (BadInput, GitError):
        return None
    state, event = lifecycle.repaired(loaded.fresh().state, tip, problem)
    tree = git.resolve(repo, f"{new_tip}^{{tree}}") or ""
    return store.commit(repo, ctx.config, app.facts(ctx), tree, [new_tip], event, state)


def _unpinned(state: State, gone: set[str]) -> State:
    """``state`` without a checkpoint snapshot that is lost."""
    point = state.checkpoint
    if point is None or point.snapshot not in gone:
        return state
    return replace(state, checkpoint=replace(point, snapshot=None))
