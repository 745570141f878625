"""Across machines (SPEC §9): sync, a fresh clone's arrival, and resume's
restoring of the checkpoint.

- ``cmd_sync``: fetch the remote's state branch, then fast-forward, or merge
  when both sides moved (a merge commit with both parents; rules in
  core/merge.py), refuse when the new content holds credentials
  (``--redact`` rewrites them away), push fast-forward only, and retry when
  the remote moved meanwhile.
- ``ensure_local_state`` / ``arrive``: ``vibegit resume`` on a fresh clone
  takes the remote's state, fetches the checkpoint's commit, says where HEAD
  is (``--checkout`` goes there) and restores the snapshot where that loses
  nothing.
"""
from __future__ import annotations

from typing import Callable

from vibegit.core import lifecycle, merge
from vibegit.core.model import Env, State
from vibegit.core.settings import Settings
from vibegit.errors import OK, BadInput, Refused
from vibegit.infra import git, mirror, remote, secretscan, snapshot, store
from vibegit.infra.formats import STATE_FILES, render_all

TRIES = 3
Say = Callable[[str], None]


def ensure_local_state(repo: git.Repo, settings: Settings, given: str | None, say: Say,
                       implicit: bool = False) -> None:
    """No local state branch: take the remote's (fetching it if the clone did not bring it).

    ``implicit`` (any command on a fresh clone): only a copy the clone already
    fetched is taken, so the first event here continues that history instead
    of starting a second one; no network, and no error when the remote is
    ambiguous."""
    if git.commit_of(repo, settings.state_ref):
        return
    if given is None and not git.remotes(repo):
        return
    if implicit and not repo.out("for-each-ref", "--count=1", "--format=%(refname)",
                                 f"refs/remotes/*/{settings.state_branch}"):
        return  # nothing fetched to continue from (and no GitPython import to learn so)
    try:
        name = remote.default_remote(repo, given)
    except BadInput:
        if implicit:
            return
        raise
    tracking = f"refs/remotes/{name}/{settings.state_branch}"
    tip = git.commit_of(repo, tracking)
    source = tracking
    if tip is None:
        if implicit:
            return
        tip = remote.fetch(repo, settings, name)
        source = f"{settings.state_branch} on {name}"
    else:
        repo.git("update-ref", remote.remote_ref(repo, name), tip, check=False)
    if tip is None:
        return
    fetched = tip

    def take(head: str | None, cat: git.CatFile) -> tuple[str | None, str, bool]:
        if head is not None:
            return None, "", False  # another process made one meanwhile
        # refuse a broken state before adopting it
        store.load_commit(repo, cat, fetched, f"{name}'s {settings.state_branch}:")
        return fetched, f"vibegit: take the state of {name}", True

    if store.publish(repo, settings, take):
        say(f"Took the workflow state from {source} ({fetched[:10]}).")


def _switch(repo: git.Repo, commit: str, branch: str | None, say: Say) -> None:
    if branch and (branch.startswith("-") or repo.git("check-ref-format", "--branch", branch, check=False).returncode):
        raise BadInput(f"checkpoint.branch {branch[:60]!r} is not a valid branch name")
    args = ["switch", "-q", branch] if branch else ["switch", "-q", "--detach", commit]
    proc = repo.git(*args, check=False)
    if proc.returncode:
        raise Refused(f"git {' '.join(args[2:])} refused: {git.reason(proc)} "
                      "(nothing was restored; the lock was not taken)")
    head = git.head_commit(repo)
    say(f"Switched to {branch or 'a detached HEAD'} at {(head or '')[:12]}.")
    if head != commit:
        say(f"Note: {branch} is at {(head or '')[:12]}, not at the checkpoint's commit {commit[:12]} "
            "(it moved on, or the checkpoint's commit was not pushed on it).")


def arrive(
    repo: git.Repo,
    settings: Settings,
    state: State,
    e: Env,
    *,
    checkout: bool,
    force: bool,
    given: str | None,
    say: Say,
) -> None:
    """Before resume takes the lock: the checkpoint's commit, HEAD, the snapshot."""
    lock = state.lock
    if lock is not None and lock.host and lock.host != e.host:
        say(f"Taking the workflow over from {lock.host}; 'vibegit sync' (or a git push with vibegit's hooks "
            f"installed) lets {lock.host} know.")
    k = state.checkpoint
    if k is None:
        return
    commit = k.commit
    if commit and not git.tree_of(repo, commit):
        name = remote.default_remote(repo, given) if (given or git.remotes(repo)) else None
        if name is None or not remote.fetch_commit(repo, name, commit):
            say(f"The checkpoint's commit {commit[:12]} is not in this repository"
                + (f" nor on {name}" if name else "") + " (was it pushed?).")
            commit = None
        else:
            say(f"Fetched the checkpoint's commit {commit[:12]} from {name}.")
    if commit and e.head != commit:
        if checkout:
            _switch(repo, commit, k.branch, say)
        else:
            where = f"on {k.branch}" if k.branch else "on a detached HEAD"
            go = f"git switch {k.branch}" if k.branch else f"git switch --detach {commit[:12]}"
            say(f"HEAD is at {(e.head or 'nothing')[:12]} ({e.branch or 'detached'}); the checkpoint is at "
                f"{commit[:12]} {where}: 'vibegit resume --checkout' or '{go}' goes there.")
    if k.snapshot:
        _restore(repo, settings, state, e, k.snapshot, commit, force, say)


def _restore(repo: git.Repo, settings: Settings, state: State, e: Env, snap: str, commit: str | None,
             force: bool, say: Say) -> None:
    lock = state.lock
    if lock is not None and (lock.host, lock.worktree) == (e.host, e.worktree):
        return  # taken in this very working tree: what is here now is newer
    tip = git.commit_of(repo, settings.state_ref)
    if git.resolve(repo, f"{tip}:{store.SNAPSHOT}") != snap:
        raise BadInput(f"checkpoint.snapshot {snap[:12]} is not the snapshot/ tree of {settings.state_branch}; "
                       "run 'vibegit doctor'")
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
    if p.withheld:
        say(f"Not restored: {', '.join(p.withheld)} (vibegit runs commands from there, and never runs what came "
            f"from the state branch); review it with 'git show {snap[:10]}:{p.withheld[0]}' and copy it yourself.")
    writes, deletes = list(p.write), list(p.delete)
    if force and p.local:
        where = snapshot.save_local(repo, p.local, f"vibegit resume --force: local versions of {len(p.local)} file(s)")
        say(f"Saved your local version of {len(p.local)} file(s) ({', '.join(p.local[:10])}) as stash@{{0}} "
            f"({where[:10]}): 'git stash show -p stash@{{0}}' shows it, 'git stash pop' brings it back.")
    for path in (p.local + p.head_moved) if force else []:
        (deletes if path in p.gone else writes).append(path)
    snapshot.apply(repo, snap, sorted(writes), sorted(deletes))
    if writes or deletes:
        say(f"Restored the checkpoint's uncommitted work ({snap[:10]}): {len(writes)} file(s) written, "
            f"{len(deletes)} deleted, {p.in_sync} already as in it. They are left unstaged.")
    elif p.in_sync:
        say(f"The working tree already holds the checkpoint's uncommitted work ({snap[:10]}).")


def _merge(repo: git.Repo, settings: Settings, config: dict[str, str], e: Env, cat: git.CatFile,
           ours: str, theirs: str, name: str) -> tuple[str, list[str]]:
    """A merge commit of the two tips: both histories kept, the state merged (core/merge.py)."""
    base = git.merge_base(repo, ours, theirs)
    o = store.load_commit(repo, cat, ours, f"{settings.state_branch}:")
    t = store.load_commit(repo, cat, theirs, f"{name}'s {settings.state_branch}:")
    b = store.load_commit(repo, cat, base, f"{settings.state_branch} (merge base):") if base else None
    merged, decisions = merge.merge(b.state if b else None, o.state, t.state, here="here", there=name, now=e.now,
                                    merge_text=lambda bt, ot, tt: git.merge_text(bt, ot, tt, name))
    if not base:
        decisions.insert(0, "the two histories share no event (both started on their own); joined here")
    theirs_newer = t.state.session.updated_at > o.state.session.updated_at
    skip = set(STATE_FILES) | {store.SNAPSHOT}  # the rest of the tree: merged file by file

    def others(side: store.Loaded | None) -> dict[str, git.TreeEntry]:
        return {x.name: x for x in side.tree if x.name not in skip} if side else {}

    entries = merge.merge_files(others(b), others(o), others(t), theirs_newer, name, decisions)
    # The snapshot follows the checkpoint that won (it names its tree).
    snap = merged.checkpoint.snapshot if merged.checkpoint is not None else None
    found = cat.get(snap) if snap and git.is_oid(snap) else None
    snap_tree = found[1] if found is not None and found[0] == "tree" else None
    tree = store.build_tree(repo, tuple(entries), render_all(merged), {store.SNAPSHOT: snap_tree})
    merged, event = lifecycle.merged(merged, name, decisions)
    return store.commit(repo, config, e, tree, [ours, theirs], event, merged), decisions


def integrate(repo: git.Repo, settings: Settings, config: dict[str, str], e: Env, theirs: str | None,
              name: str, say: Say) -> str | None:
    """Bring the fetched tip into the local branch; the new local tip."""
    if theirs is None:
        say(f"{name} has no {settings.state_branch} yet.")
        return git.commit_of(repo, settings.state_ref)
    news: list[str] = []

    def build(ours: str | None, cat: git.CatFile) -> tuple[str | None, str, str | None]:
        news.clear()
        if ours is None:
            store.load_commit(repo, cat, theirs, f"{name}'s {settings.state_branch}:")
            news.append(f"Took {settings.state_branch} from {name} ({theirs[:10]}).")
            return theirs, f"vibegit: take the state of {name}", theirs
        if ours == theirs or git.is_ancestor(repo, theirs, ours):
            return None, "", ours
        if git.is_ancestor(repo, ours, theirs):
            store.load_commit(repo, cat, theirs, f"{name}'s {settings.state_branch}:")
            count = git.count(repo, f"{ours}..{theirs}")
            news.append(f"Fast-forwarded {settings.state_branch} by {count} event(s) from {name}.")
            return theirs, f"vibegit: fast-forward to {name}", theirs
        commit, decisions = _merge(repo, settings, config, e, cat, ours, theirs, name)
        mine, other = git.count(repo, f"{theirs}..{ours}"), git.count(repo, f"{ours}..{theirs}")
        news.append(f"Merged: {mine} event(s) here and {other} on {name} had diverged; both histories are kept "
                    f"(merge {commit[:10]}). Decided:")
        news.extend(f"  - {d}" for d in decisions or ["nothing conflicted"])
        return commit, f"vibegit: merge {name}", commit

    tip = store.publish(repo, settings, build)
    for line in news:
        say(line)
    if news and tip is not None:
        with git.CatFile(repo) as cat:
            mirror.show(repo, settings, cat, tip, say)
    return tip


def redact(repo: git.Repo, settings: Settings, config: dict[str, str], e: Env, say: Say) -> bool:
    """Rewrite the commits not pushed yet without credentials, plus a ``redact`` event."""
    done: list[tuple[int, int]] = []

    def build(tip: str | None, cat: git.CatFile) -> tuple[str | None, str, str | None]:
        done.clear()
        findings = secretscan.scan(repo, settings, tip) if tip else []
        if not findings or tip is None:
            return None, "", None
        new_tip, count = secretscan.rewrite(repo, settings, tip)
        loaded = store.load_commit(repo, cat, new_tip, f"{settings.state_branch}:")
        state, event = lifecycle.redacted(loaded.state, count, tuple(secretscan.iter_lines(findings)))
        tree = git.resolve(repo, f"{new_tip}^{{tree}}") or ""
        done.append((count, len(findings)))
        return store.commit(repo, config, e, tree, [new_tip], event, state), "vibegit: redact", None

    store.publish(repo, settings, build)
    if not done:
        say("Nothing to redact.")
        return False
    commit = git.commit_of(repo, settings.state_ref) or ""
    with git.CatFile(repo) as cat:
        mirror.rewrite(repo, settings, cat, commit, say)
    count, places = done[0]
    say(f"Redacted {count} value(s) in {places} place(s) of the events not pushed yet "
        f"(rewritten, plus event {commit[:10]}); the unredacted copies stay only in this repository's "
        f"reflog of {settings.state_branch}.")
    return True


def cmd_sync(given: str | None, do_redact: bool) -> int:
    from vibegit import commands

    h = commands.here()
    repo, settings = h.repo, h.settings
    name = remote.default_remote(repo, given)
    for _ in range(TRIES):
        e = commands.env(h)
        theirs = remote.fetch(repo, settings, name)
        tip = integrate(repo, settings, h.config, e, theirs, name, commands.say)
        if tip is None:
            commands.say(f"No workflow state here nor on {name}; nothing to sync.")
            return OK
        if do_redact:
            redact(repo, settings, h.config, e, commands.say)
            do_redact = False
        findings = secretscan.scan(repo, settings)
        if findings:
            raise Refused(secretscan.refusal(findings, settings))
        tip = git.commit_of(repo, settings.state_ref)
        if tip == theirs:
            commands.say(f"{settings.state_branch} is up to date with {name} ({(tip or '')[:10]}).")
            return OK
        if remote.push(repo, settings, name):
            commands.say(f"Pushed {settings.state_branch} to {name} ({(tip or '')[:10]}).")
            return OK
        commands.say(f"{name} moved on while syncing; fetching again.")
    raise Refused(f"{name}'s {settings.state_branch} kept moving; run 'vibegit sync' again")
