"""Across machines (SPEC §9): the state branch meets its remote copy.

- ``cmd_sync``: fetch the remote's state branch into
  ``refs/vibegit/remote/<remote>`` (the user's remote-tracking refs and
  FETCH_HEAD are left alone), then fast-forward, or merge when both sides
  moved (a merge commit with both parents; rules in merge.py), refuse when
  the new content holds credentials (``--redact`` rewrites them away), push
  fast-forward only, and retry when the remote moved meanwhile.
- ``ensure_local_state`` / ``arrive``: ``vibegit resume`` on a fresh clone
  takes the remote's state, fetches the checkpoint's commit, says where HEAD
  is (``--checkout`` goes there) and restores the snapshot where that loses
  nothing.
- ``remote_locks``: what the takeover rule (``lifecycle.guarded``) needs to
  know of the fetched copies of the state branch.
"""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Callable

from vibegit import git, mirror, snapshot, store
from vibegit.core.settings import Settings
from vibegit.errors import OK, BadInput, GitError, Refused
from vibegit.files import STATE_FILES, parse_all, parse_lock
from vibegit.core.model import Env
from vibegit.core import lifecycle
from vibegit.core.model import Lock, State

TRIES = 3
Say = Callable[[str], None]


def _git_env() -> dict[str, str]:
    return git.clean_env(GIT_TERMINAL_PROMPT="0", **{git.IN_HOOK: "1"})


def _rev(repo: git.Repo, rev: str) -> str | None:
    proc = repo.git("rev-parse", "-q", "--verify", f"{rev}^{{commit}}", check=False)
    return proc.stdout.decode().strip() or None


def _remotes(repo: git.Repo) -> list[str]:
    return repo.out("remote").split()


def default_remote(repo: git.Repo, given: str | None) -> str:
    """``--remote``, else the current branch's upstream remote, else origin (or the only one).

    GitPython reads remotes and upstreams here: sync talks to a remote
    anyway, so its import cost does not matter on this path."""
    import git as gitpython  # GitPython, not vibegit.git

    found = gitpython.Repo(repo.toplevel)
    remotes = [remote.name for remote in found.remotes]
    if given is not None:
        if given not in remotes:
            have = ", ".join(remotes) or "none"
            raise BadInput(f"--remote {given[:60]}: no such remote (configured: {have})")
        return given
    upstream = None if found.head.is_detached else found.active_branch.tracking_branch()
    if upstream is not None and upstream.remote_name in remotes:
        return upstream.remote_name
    if "origin" in remotes:
        return "origin"
    if len(remotes) == 1:
        return remotes[0]
    if not remotes:
        raise BadInput("no git remote is configured; add one with 'git remote add origin URL'")
    raise BadInput(f"several remotes ({', '.join(remotes)}) and none is the upstream or origin: pass --remote NAME")


def remote_ref(repo: git.Repo, remote: str) -> str:
    ref = f"{git.REMOTE_NS}{remote}"
    if repo.git("check-ref-format", ref, check=False).returncode:
        raise BadInput(f"remote name {remote[:60]!r} cannot name a ref")
    return ref


def fetch(repo: git.Repo, settings: Settings, remote: str) -> str | None:
    """The remote's state tip, fetched into refs/vibegit/remote/REMOTE; None when it has none."""
    ref = remote_ref(repo, remote)
    proc = git.run(["fetch", "-q", "--no-tags", "--no-write-fetch-head", "--refmap=", remote, f"+{settings.state_ref}:{ref}"],
                   cwd=repo.toplevel, check=False, env=_git_env())
    if proc.returncode:
        err = proc.stderr.decode(errors="replace").strip()
        if "couldn't find remote ref" in err:
            repo.git("update-ref", "-d", ref, check=False)
            return None
        raise GitError(f"git fetch {remote} failed: {git.reason(proc)}")
    return _rev(repo, ref)


def _is_ancestor(repo: git.Repo, a: str, b: str) -> bool:
    return repo.git("merge-base", "--is-ancestor", a, b, check=False).returncode == 0


def _state_at(repo: git.Repo, cat: git.CatFile, commit: str, where: str) -> tuple[tuple[git.TreeEntry, ...], State]:
    tree, files = store.read_files(repo, cat, commit)
    return tree, parse_all(files, where)


def _show_mirror(repo: git.Repo, settings: Settings, cat: git.CatFile, commit: str, say: Say) -> None:
    """Write ``commit``'s state to the mirror unless it holds hand edits not adopted yet
    (the next event adopts them, or keeps them beside when they conflict)."""
    marker = repo.git_dir / mirror.MARKER
    base = marker.read_text().strip() if marker.is_file() else ""
    try:
        mdir = mirror.directory(repo, settings)
    except BadInput:
        return
    if base and mdir.is_dir() and cat.get(base) is not None:
        files = store.read_files(repo, cat, base)[1]
        for name in STATE_FILES:
            path = mdir / name
            if path.is_file() and not path.is_symlink() and path.read_bytes() != files.get(name):
                say(f"{settings.mirror_dir}/{name} has edits of yours; the mirror is left as it is "
                    "until the next event adopts them.")
                return
    files = store.read_files(repo, cat, commit)[1]
    notices: list[str] = []
    mirror.write(repo, settings, commit, {k: v.decode("utf-8", errors="replace") for k, v in files.items()}, notices)
    for notice in notices:
        say(notice)


# -- resume on a fresh clone ------------------------------------------------------


def ensure_local_state(repo: git.Repo, settings: Settings, remote: str | None, say: Say,
                       implicit: bool = False) -> None:
    """No local state branch: take the remote's (fetching it if the clone did not bring it).

    ``implicit`` (any command on a fresh clone): only a copy the clone already
    fetched is taken, so the first event here continues that history instead
    of starting a second one; no network, and no error when the remote is
    ambiguous."""
    if _rev(repo, settings.state_ref):
        return
    if remote is None and not _remotes(repo):
        return
    if implicit and not repo.out("for-each-ref", "--count=1", "--format=%(refname)",
                                 f"refs/remotes/*/{settings.state_branch}"):
        return  # nothing fetched to continue from (and no GitPython import to learn so)
    try:
        name = default_remote(repo, remote)
    except BadInput:
        if implicit:
            return
        raise
    tracking = f"refs/remotes/{name}/{settings.state_branch}"
    tip = _rev(repo, tracking)
    source = tracking
    if tip is None:
        if implicit:
            return
        tip = fetch(repo, settings, name)
        source = f"{settings.state_branch} on {name}"
    else:
        repo.git("update-ref", remote_ref(repo, name), tip, check=False)
    if tip is None:
        return
    with git.CatFile(repo) as cat:
        _state_at(repo, cat, tip, f"{name}'s {settings.state_branch}:")  # refuse a broken state before adopting it
        if git.update_ref(repo, settings.state_ref, tip, None, f"vibegit: take the state of {name}"):
            say(f"Took the workflow state from {source} ({tip[:10]}).")


def _fetch_commit(repo: git.Repo, remote: str, commit: str) -> bool:
    env = _git_env()
    if not git.is_oid(commit):
        return False
    for args in (["fetch", "-q", "--no-tags", "--no-write-fetch-head", "--end-of-options", remote, commit],
                 ["fetch", "-q", "--end-of-options", remote]):
        git.run(args, cwd=repo.toplevel, check=False, env=env)
        if snapshot.commit_tree(repo, commit):
            return True
    return False


def _switch(repo: git.Repo, commit: str, branch: str | None, say: Say) -> None:
    if branch and (branch.startswith("-") or repo.git("check-ref-format", "--branch", branch, check=False).returncode):
        raise BadInput(f"checkpoint.branch {branch[:60]!r} is not a valid branch name")
    args = ["switch", "-q", branch] if branch else ["switch", "-q", "--detach", commit]
    proc = repo.git(*args, check=False)
    if proc.returncode:
        raise Refused(f"git {' '.join(args[2:])} refused: {git.reason(proc)} "
                      "(nothing was restored; the lock was not taken)")
    head = _rev(repo, "HEAD")
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
    remote: str | None,
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
    if commit and not snapshot.commit_tree(repo, commit):
        name = default_remote(repo, remote) if (remote or _remotes(repo)) else None
        if name is None or not _fetch_commit(repo, name, commit):
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
    tip = _rev(repo, settings.state_ref)
    entry = repo.git("rev-parse", "-q", "--verify", f"{tip}:{snapshot.ENTRY}", check=False).stdout.decode().strip()
    if entry != snap:
        raise BadInput(f"checkpoint.snapshot {snap[:12]} is not the snapshot/ tree of {settings.state_branch}; "
                       "run 'vibegit doctor'")
    base = snapshot.commit_tree(repo, commit)
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


# -- takeover ---------------------------------------------------------------------


def remote_locks(repo: git.Repo, settings: Settings, e: Env) -> list[lifecycle.RemoteLock]:
    """The locks of remote copies of the state branch already fetched that
    another host holds, newest first; no git process when there are none."""
    common = repo.common_dir
    packed = common / "packed-refs"
    if not ((common / "refs" / "remotes").is_dir() or (common / "refs" / "vibegit").is_dir()
            or (packed.is_file() and b" refs/" in packed.read_bytes().replace(b" refs/heads/", b""))):
        return []
    local = _rev(repo, settings.state_ref)
    raw = repo.out("for-each-ref", "--format=%(objectname) %(refname)",
                   f"refs/remotes/*/{settings.state_branch}", git.REMOTE_NS)
    found: list[tuple[str, str, Lock]] = []
    seen: set[str] = set()
    tips = [line.split(" ", 1) for line in raw.splitlines()]
    wanted = [(oid, ref) for oid, ref in tips
              if (ref.startswith(git.REMOTE_NS) or ref.endswith(f"/{settings.state_branch}")) and oid != local]
    if not wanted:
        return []
    with git.CatFile(repo) as cat:
        for oid, ref in wanted:
            if oid in seen:
                continue
            seen.add(oid)
            blob = cat.get(f"{oid}:workflow.lock")
            if blob is None or blob[0] != "blob":
                continue
            try:
                lock = parse_lock(blob[2], f"{ref}:workflow.lock")
            except BadInput:
                continue
            if lock.locked and lock.host and lock.host != e.host:  # only these can refuse an event here
                found.append((ref, oid, lock))
    return [
        lifecycle.RemoteLock(ref, lock, local is None or _is_ancestor(repo, local, tip),
                             local is not None and _is_ancestor(repo, tip, local))
        for ref, tip, lock in sorted(found, key=lambda x: x[2].locked_at, reverse=True)
    ]


# -- sync -------------------------------------------------------------------------


def merge_text(base: str, ours: str, theirs: str, there: str = "theirs") -> tuple[str, bool]:
    """Three-way text merge with ``git merge-file``: the text and whether it conflicted."""
    with tempfile.TemporaryDirectory(prefix="vibegit-merge-") as tmp:
        paths = []
        for name, text in (("ours", ours), ("base", base), ("theirs", theirs)):
            path = Path(tmp) / name
            path.write_text(text if text.endswith("\n") or not text else text + "\n")
            paths.append(str(path))
        proc = git.run(["merge-file", "-p", "-L", "here", "-L", "base", "-L", there, *paths], check=False)
        if proc.returncode < 0 or proc.returncode >= 127:
            raise GitError(f"git merge-file failed: {proc.stderr.decode(errors='replace').strip()}")
        return proc.stdout.decode().rstrip("\n"), proc.returncode > 0


def _merge(repo: git.Repo, settings: Settings, config: dict[str, str], e: Env, cat: git.CatFile,
           ours: str, theirs: str, remote: str) -> tuple[str, list[str]]:
    from vibegit.core import merge

    base = repo.git("merge-base", ours, theirs, check=False).stdout.decode().split()
    o_tree, o_state = _state_at(repo, cat, ours, f"{settings.state_branch}:")
    t_tree, t_state = _state_at(repo, cat, theirs, f"{remote}'s {settings.state_branch}:")
    b_tree, b_state = (_state_at(repo, cat, base[0], f"{settings.state_branch} (merge base):") if base
                       else ((), None))
    merged, decisions = merge.merge(b_state, o_state, t_state, here="here", there=remote, now=e.now,
                                    merge_text=lambda b, o, t: merge_text(b, o, t, remote))
    if not base:
        decisions.insert(0, "the two histories share no event (both started on their own); joined here")
    theirs_newer = t_state.session.updated_at > o_state.session.updated_at
    skip = set(STATE_FILES) | {snapshot.ENTRY}  # the rest of the tree: merged file by file
    entries = merge.merge_files(*({x.name: x for x in tree if x.name not in skip} for tree in (b_tree, o_tree, t_tree)),
                                theirs_newer, remote, decisions)
    # The snapshot follows the checkpoint that won (it names its tree).
    snap = merged.checkpoint.snapshot if merged.checkpoint is not None else None
    found = cat.get(snap) if git.is_oid(snap) else None
    snap_tree = found[1] if found is not None and found[0] == "tree" else None
    from vibegit.files import render_all

    tree = store.build_tree(repo, tuple(entries), render_all(merged), {snapshot.ENTRY: snap_tree})
    merged, event = lifecycle.merged(merged, remote, decisions)
    message = store.message(event, merged, e)
    commit = git.write_commit(repo, tree, [ours, theirs], message, git.identity(config, "AUTHOR"), git.identity(config))
    return commit, decisions


def integrate(repo: git.Repo, settings: Settings, config: dict[str, str], e: Env, theirs: str | None,
              remote: str, say: Say) -> str | None:
    """Bring the fetched tip into the local branch (under the store's lock); the new local tip."""
    with store.locked(repo), git.CatFile(repo) as cat:
        ours = _rev(repo, settings.state_ref)
        if theirs is None:
            say(f"{remote} has no {settings.state_branch} yet.")
            return ours
        if ours is None:
            _state_at(repo, cat, theirs, f"{remote}'s {settings.state_branch}:")
            if not git.update_ref(repo, settings.state_ref, theirs, None, f"vibegit: take the state of {remote}"):
                raise GitError(f"{settings.state_ref} changed during sync; run 'vibegit sync' again")
            say(f"Took {settings.state_branch} from {remote} ({theirs[:10]}).")
            _show_mirror(repo, settings, cat, theirs, say)
            return theirs
        if ours == theirs or _is_ancestor(repo, theirs, ours):
            return ours
        if _is_ancestor(repo, ours, theirs):
            _state_at(repo, cat, theirs, f"{remote}'s {settings.state_branch}:")
            if not git.update_ref(repo, settings.state_ref, theirs, ours, f"vibegit: fast-forward to {remote}"):
                raise GitError(f"{settings.state_ref} changed during sync; run 'vibegit sync' again")
            count = repo.out("rev-list", "--count", f"{ours}..{theirs}")
            say(f"Fast-forwarded {settings.state_branch} by {count} event(s) from {remote}.")
            _show_mirror(repo, settings, cat, theirs, say)
            return theirs
        commit, decisions = _merge(repo, settings, config, e, cat, ours, theirs, remote)
        if not git.update_ref(repo, settings.state_ref, commit, ours, f"vibegit: merge {remote}"):
            raise GitError(f"{settings.state_ref} changed during sync; run 'vibegit sync' again")
        mine = repo.out("rev-list", "--count", f"{theirs}..{ours}")
        other = repo.out("rev-list", "--count", f"{ours}..{theirs}")
        say(f"Merged: {mine} event(s) here and {other} on {remote} had diverged; both histories are kept "
            f"(merge {commit[:10]}). Decided:")
        for d in decisions or ["nothing conflicted"]:
            say(f"  - {d}")
        _show_mirror(repo, settings, cat, commit, say)
        return commit


def redact(repo: git.Repo, settings: Settings, config: dict[str, str], e: Env, say: Say) -> bool:
    """Rewrite the commits not pushed yet without credentials, plus a ``redact`` event."""
    from vibegit import secretscan

    with store.locked(repo):
        tip = _rev(repo, settings.state_ref)
        findings = secretscan.scan(repo, settings, tip) if tip else []
        if not findings or tip is None:
            say("Nothing to redact.")
            return False
        new_tip, count = secretscan.rewrite(repo, settings, tip)
        with git.CatFile(repo) as cat:
            tree, files = store.read_files(repo, cat, new_tip)
            state = parse_all(files, f"{settings.state_branch}:")
            state, event = lifecycle.redacted(state, count, tuple(secretscan.iter_lines(findings)))
            commit = git.write_commit(repo, repo.out("rev-parse", f"{new_tip}^{{tree}}"), [new_tip],
                                      store.message(event, state, e), git.identity(config, "AUTHOR"),
                                      git.identity(config))
            if not git.update_ref(repo, settings.state_ref, commit, tip, "vibegit: redact"):
                raise GitError(f"{settings.state_ref} changed during redaction; run it again")
            notices: list[str] = []
            mirror.write(repo, settings, commit, {k: v.decode("utf-8", errors="replace") for k, v in files.items()},
                         notices)
        say(f"Redacted {count} value(s) in {len(findings)} place(s) of the events not pushed yet "
            f"(rewritten, plus event {commit[:10]}); the unredacted copies stay only in this repository's "
            f"reflog of {settings.state_branch}.")
        return True


def push(repo: git.Repo, settings: Settings, remote: str) -> bool:
    """Push fast-forward only; False when the remote moved on meanwhile."""
    ref = settings.state_ref
    pushed = git.push_ref(repo, ref, remote)
    if pushed.ok:
        tip = _rev(repo, ref)
        if tip:
            repo.git("update-ref", remote_ref(repo, remote), tip, check=False)
        return True
    if "!" in pushed.flags:
        return False
    raise GitError(f"git push {remote} failed: {pushed.detail}")


def cmd_sync(remote: str | None, do_redact: bool) -> int:
    from vibegit import commands, secretscan

    h = commands.here()
    repo, settings = h.repo, h.settings
    name = default_remote(repo, remote)
    for _ in range(TRIES):
        e = commands.env(h)
        theirs = fetch(repo, settings, name)
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
        tip = _rev(repo, settings.state_ref)
        if tip == theirs:
            commands.say(f"{settings.state_branch} is up to date with {name} ({(tip or '')[:10]}).")
            return OK
        if push(repo, settings, name):
            commands.say(f"Pushed {settings.state_branch} to {name} ({(tip or '')[:10]}).")
            return OK
        commands.say(f"{name} moved on while syncing; fetching again.")
    raise Refused(f"{name}'s {settings.state_branch} kept moving; run 'vibegit sync' again")
