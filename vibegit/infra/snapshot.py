"""Snapshots of uncommitted work (SPEC §3, §9).

A snapshot is the tree of the working tree as ``git add -A`` would stage it:
staged, unstaged and untracked-but-not-ignored files. It is built through a
temporary index (a copy of the user's, so unchanged files are not hashed
again) and stored under ``snapshot/`` in the state commit, which keeps it
reachable, pushed with the state branch and safe from ``git gc``. The
user's index, working tree and stash are never touched here; ``restore``
writes the working tree only where nothing would be lost.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from vibegit.core.model import State
from vibegit.core.report import Observed
from vibegit.errors import BadInput, GitError, Refused
from vibegit.infra import git
from vibegit.infra.worktree import locate


def _env(index: Path) -> dict[str, str]:
    return git.clean_env(GIT_INDEX_FILE=str(index))


@contextmanager
def temp_index(repo: git.Repo, *, copy: bool) -> Iterator[dict[str, str]]:
    """An environment whose GIT_INDEX_FILE is a scratch index in the git dir
    (where a split index finds its shared part), removed afterwards."""
    fd, name = tempfile.mkstemp(dir=repo.git_dir, prefix="vibegit-index-")
    os.close(fd)
    path = Path(name)
    try:
        user_index = repo.git_dir / "index"
        if copy and user_index.is_file():
            shutil.copyfile(user_index, path)
        else:
            path.unlink()  # git wants no file rather than an empty one
        yield _env(path)
    finally:
        path.unlink(missing_ok=True)
        Path(name + ".lock").unlink(missing_ok=True)


def empty_tree(repo: git.Repo) -> str:
    return git.write_tree(repo, [])


def working_tree(repo: git.Repo) -> str:
    """The tree of the working tree (tracked and untracked, not ignored)."""
    with temp_index(repo, copy=True) as env:
        git.run(["add", "-A"], cwd=repo.toplevel, env=env)
        return git.run(["write-tree"], cwd=repo.toplevel, env=env).stdout.decode().strip()


def take(repo: git.Repo) -> str | None:
    """A snapshot of uncommitted work, or None when the tree equals HEAD's."""
    # HEAD's tree is read while ``git add`` runs: the checkpoint is latency-bound.
    head = git.spawn(repo, "rev-parse", "-q", "--verify", "HEAD^{tree}")
    try:
        tree = working_tree(repo)
    except GitError as err:
        raise GitError(f"could not snapshot the working tree ({err}); use --no-snapshot to skip it") from None
    finally:
        head_tree = head.communicate()[0].decode().strip()
    base = head_tree or empty_tree(repo)
    if tree == base:
        return None
    check_sizes(repo, base, tree)
    return tree


MAX_FILE = 50 << 20  # a snapshot travels with every push of the state branch


def check_sizes(repo: git.Repo, base: str, tree: str) -> None:
    """Refuse a snapshot that would carry a file over MAX_FILE to the remote
    (sized in the working tree it was just built from: no extra git process)."""
    for path, change in diff(repo, base, tree).items():
        if change.new is None or not change.new.mode.startswith("100"):
            continue
        try:
            size = (repo.toplevel / path).lstat().st_size
        except OSError:
            continue
        if size > MAX_FILE:
            raise BadInput(
                f"{path}: {size >> 20} MiB is too large to carry in a snapshot "
                f"(at most {MAX_FILE >> 20} MiB a file); add it to .gitignore, or use --no-snapshot"
            )


def without(repo: git.Repo, snap: str, base: str | None, paths: list[str]) -> str:
    """``snap`` with ``paths`` as in ``base`` (absent where ``base`` lacks
    them): those files are left out of the snapshot, so restoring it
    elsewhere leaves them alone. A scratch index, never the user's."""
    base = base or empty_tree(repo)
    raw = repo.git("ls-tree", "-z", "--full-tree", base, "--", *paths).stdout.decode(errors="surrogateescape")
    back: dict[str, str] = {}
    for item in raw.split("\0"):
        if item:
            meta, _, path = item.partition("\t")
            mode, _, oid = meta.split(" ")
            back[path] = f"{mode} {oid}"
    lines = [f"{back.get(p, '0 ' + repo.null_oid)}\t{p}" for p in paths]
    with temp_index(repo, copy=False) as env:
        git.run(["read-tree", snap], cwd=repo.toplevel, env=env)
        git.run(
            ["update-index", "-z", "--index-info"],
            cwd=repo.toplevel,
            env=env,
            input="\0".join(lines).encode(errors="surrogateescape") + b"\0",
        )
        return git.run(["write-tree"], cwd=repo.toplevel, env=env).stdout.decode().strip()


def head_tree(repo: git.Repo) -> str:
    return git.head_tree(repo) or empty_tree(repo)


def matches(repo: git.Repo, snapshot: str) -> bool:
    return working_tree(repo) == snapshot


# -- restore ------------------------------------------------------------------


class Side(NamedTuple):
    mode: str
    oid: str


class Change(NamedTuple):
    path: str
    old: Side | None  # None: absent on that side
    new: Side | None


def diff(repo: git.Repo, a: str, b: str) -> dict[str, Change]:
    """Paths that differ between trees ``a`` and ``b`` (no rename detection)."""
    raw = repo.git("diff-tree", "-r", "-z", "--no-renames", "--no-ext-diff", a, b).stdout.decode(
        errors="surrogateescape"
    )
    parts = raw.split("\0")
    changes: dict[str, Change] = {}
    i = 0
    while i + 1 < len(parts):
        meta, path = parts[i], parts[i + 1]
        i += 2
        if not meta.startswith(":"):
            continue
        old_mode, new_mode, old_oid, new_oid, _ = meta[1:].split(" ", 4)
        old = None if set(old_oid) == {"0"} else Side(old_mode, old_oid)
        new = None if set(new_oid) == {"0"} else Side(new_mode, new_oid)
        changes[path] = Change(path, old, new)
    return changes


class Plan(NamedTuple):
    write: list[str]  # take the snapshot's version
    delete: list[str]  # the snapshot deleted it; unchanged here
    local: list[str]  # changed here and differently: refuse, or save with --force
    head_moved: list[str]  # HEAD's version differs from the checkpoint's; with --force the snapshot wins
    in_sync: int  # already as in the snapshot
    gone: frozenset[str]  # every path the snapshot deleted
    withheld: list[str]  # commands vibegit would run (.vibegit/): never restored from the state branch


# Project files whose content vibegit executes (lifecycle hooks): a snapshot
# arrives from the state branch, and nothing from there is ever executed.
WITHHELD = ".vibegit/"


def plan(repo: git.Repo, snapshot: str, base: str | None) -> Plan:
    """What restoring ``snapshot`` (taken on top of tree ``base``) would do.

    Only the snapshot's own changes (base → snapshot) are carried over, so a
    HEAD that moved on keeps its other files; each path is written only where
    the working tree still has HEAD's version, which is never a loss.
    """
    base = base or empty_tree(repo)
    head = head_tree(repo)
    work = working_tree(repo)
    wanted = diff(repo, base, snapshot)
    local = diff(repo, head, work)
    moved = diff(repo, base, head) if base != head else {}
    out = Plan([], [], [], [], 0, frozenset(p for p, c in wanted.items() if c.new is None), [])
    for path, change in sorted(wanted.items()):
        if path.startswith(WITHHELD):
            out.withheld.append(path)
            continue
        target = change.new
        here_head = moved[path].new if path in moved else change.old
        here = local[path].new if path in local else here_head
        if here == target:
            out = out._replace(in_sync=out.in_sync + 1)
        elif path in local or (here is None and os.path.lexists(repo.toplevel / path)):
            out.local.append(path)  # a local edit, or an ignored file in the way
        elif path in moved:
            out.head_moved.append(path)
        elif target is None:
            out.delete.append(path)
        else:
            out.write.append(path)
    return out


def save_local(repo: git.Repo, paths: list[str], why: str) -> str:
    """Stash the local versions of ``paths`` (tracked, untracked or ignored)
    and return where they went; the only place vibegit writes the stash."""
    before = git.resolve(repo, "refs/stash")
    specs = [f":(literal){p}" for p in paths]
    repo.git("stash", "push", "--all", "-q", "-m", why, "--", *specs)
    after = git.resolve(repo, "refs/stash")
    if not after or after == before:
        raise GitError("git stash push saved nothing; restore stopped before writing any file")
    return after


def _inside(repo: git.Repo, path: str) -> Path:
    """``path`` in the working tree, refusing links on the way (no escape)."""
    top = repo.toplevel
    full = top / path
    probe = full.parent
    while probe != top:
        if probe.is_symlink():
            raise Refused(f"{path}: a parent directory is a symbolic link; not restoring through it")
        probe = probe.parent
    return full


def apply(repo: git.Repo, snapshot: str, paths: list[str], deletes: list[str]) -> None:
    """Write ``paths`` from the snapshot (with git's filters, as a checkout
    would) and delete ``deletes``; a scratch index, never the user's."""
    for path in deletes:
        full = _inside(repo, path)
        if full.is_symlink() or full.is_file():
            full.unlink()
        parent = full.parent
        while parent != repo.toplevel and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent
    if not paths:
        return
    for path in paths:
        _inside(repo, path)
    with temp_index(repo, copy=False) as env:
        git.run(["read-tree", snapshot], cwd=repo.toplevel, env=env)
        git.run(
            ["checkout-index", "-f", "-q", "-z", "--stdin"],
            cwd=repo.toplevel,
            env=env,
            input="\0".join(paths).encode(errors="surrogateescape") + b"\0",
        )


def observe(repo: git.Repo, state: State, compare: bool = True) -> Observed | None:
    """Where the checkpoint's line is now and, with ``compare``, whether its
    snapshot matches the working tree (that scans the working tree, so the
    git hooks leave it out); None without a checkpoint."""
    k = state.checkpoint
    if k is None:
        return None
    where = locate(repo.toplevel, k.file, k.line, k.line_text)
    same = None
    if k.snapshot and compare:
        try:
            same = matches(repo, k.snapshot)
        except GitError:
            same = None
    return Observed(where.state if where else "", where.line if where else None, same)
