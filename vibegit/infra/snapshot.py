"""Snapshots of uncommitted work.

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
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from vibegit.core.records import NamedTuple
from vibegit.core.text import shown
from vibegit.errors import BadInput, GitError, Refused, VibegitError
from vibegit.infra import fs, git

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from typing import BinaryIO

    from vibegit.core.model import State
    from vibegit.core.report import Observed

# The state model, the report, the working tree's lines and the messages
# (1.5 ms) load where they are used: a checkpoint begins its snapshot before
# them (``begun``).


def _env(index: str) -> dict[str, str]:
    return git.clean_env(GIT_INDEX_FILE=index)


@contextmanager
def temp_index(repo: git.Repo, *, copy: bool) -> Iterator[dict[str, str]]:
    """An environment whose GIT_INDEX_FILE is a scratch index in the git dir
    (where a split index finds its shared part), removed afterwards."""
    fd, path = git.new_file(repo.git_dir, "vibegit-index-")
    try:
        with os.fdopen(fd, "wb") as scratch:
            user_index = os.path.join(repo.git_dir, "index")
            if copy and os.path.isfile(user_index):
                _copy_with_mtime(user_index, scratch)
            else:
                os.unlink(path)  # git wants no file rather than an empty one
        yield _env(path)
    finally:
        for left in (path, path + ".lock"):
            try:
                os.unlink(left)
            except FileNotFoundError:
                pass


def _copy_with_mtime(source: str, target: BinaryIO) -> None:
    """``source``'s bytes into ``target``, and its times (as ``shutil.copy2``):
    git tells a racily clean entry (a file changed in the second it was
    staged) by the index's mtime, and would miss the change."""
    with open(source, "rb") as data:
        while piece := data.read(1 << 20):
            target.write(piece)
        target.flush()
        found = os.fstat(data.fileno())
    os.utime(target.fileno(), ns=(found.st_atime_ns, found.st_mtime_ns))


def empty_tree(repo: git.Repo) -> str:
    return git.write_tree(repo, [])


def working_tree(repo: git.Repo) -> str:
    """The tree of the working tree (tracked and untracked, not ignored)."""
    with temp_index(repo, copy=True) as env:
        git.run(["add", "-A"], cwd=repo.toplevel, env=env)
        return git.run(["write-tree"], cwd=repo.toplevel, env=env).stdout.decode().strip()


def take(repo: git.Repo) -> str | None:
    """A snapshot of uncommitted work, or None when the tree equals HEAD's
    (the one ``begun`` began, when it was begun for this repository in this
    same environment)."""
    begun_here = _begun.pop(repo.git_dir, None)
    if begun_here is not None and begun_here[0] == os.environ:
        return begun_here[1]()
    with taking(repo) as finish:
        return finish()


@contextmanager
def taking(repo: git.Repo) -> Iterator[Callable[[], str | None]]:
    """``take``, begun now: git stages the working tree in a scratch index
    while the block runs, and the function the block gets finishes the
    snapshot. A block that ends without asking ends git's work unfinished."""
    with temp_index(repo, copy=True) as env, git.running(repo, ["add", "-A"], env=env, unasked=True) as added:

        def finish() -> str | None:
            base = head_tree(repo)  # asked of the command's cat-file process: no git process of its own
            try:
                done = added()
                if done.returncode:
                    raise GitError(f"git add -A failed: {git.reason(done)}")
                # What differs from HEAD is read from the scratch index, and its sizes checked,
                # while write-tree runs (2 cores, not 1).
                with (
                    git.background(repo, ["write-tree"], env=env) as written,
                    git.background(repo, [*_DIFF_INDEX, base], env=env) as changed,
                ):
                    check_sizes(repo, parse_raw(changed()))
                    tree = written().decode().strip()
            except GitError as err:
                from vibegit.core.messages import t

                raise GitError(t("checkpoint.snapshot_failed", error=err)) from None
            return None if tree == base else tree

        yield finish


# git dir -> the environment a snapshot was begun in (``begun``), and what finishes it (``take``)
_begun: dict[str, tuple[dict[str, str], Callable[[], str | None]]] = {}


@contextmanager
def begun(skip: bool = False) -> Iterator[None]:
    """The snapshot of the repository around this directory, begun now for
    ``take`` in the block to finish: git stages the working tree while the
    command's modules load and it reads the state (checkpoint, pause). The
    repository found here is the command's (``git.found_early``). Nothing is
    begun with ``skip`` or outside a repository (the command says so); a
    block that ends without taking it (a refused command) ends git's work
    and leaves no scratch index."""
    try:
        repo = None if skip else git.find_repo()
    except VibegitError:
        repo = None
    if repo is None:
        yield
        return
    with git.found_early(repo), taking(repo) as finish:
        git.start_repo_reads(find=False)  # the command's first reads, once git add -A runs
        _begun[repo.git_dir] = (dict(os.environ), finish)
        try:
            yield
        finally:
            _begun.pop(repo.git_dir, None)


MAX_FILE = 50 << 20  # a snapshot travels with every push of the state branch


def check_sizes(repo: git.Repo, changes: dict[str, Change]) -> None:
    """Refuse a snapshot that would carry a file over MAX_FILE to the remote
    (sized in the working tree it was just built from: no extra git process)."""
    for path, change in changes.items():
        if change.new is None or not change.new.mode.startswith("100"):
            continue
        try:
            size = os.lstat(os.path.join(repo.toplevel, path)).st_size
        except OSError:
            continue
        if size > MAX_FILE:
            from vibegit.core.messages import t

            raise BadInput(t("checkpoint.too_large", path=path, size=size >> 20, most=MAX_FILE >> 20))


def without(
    repo: git.Repo, snap: str, base: str | None, paths: list[str], keep: Callable[[str, str], bool] | None = None
) -> str:
    """``snap`` with ``paths`` as in ``base`` (absent where ``base`` lacks
    them, or where ``keep(path, blob)`` refuses base's version): those files
    are left out of the snapshot, so restoring it elsewhere leaves them
    alone. A scratch index, never the user's."""
    base = base or empty_tree(repo)
    raw = repo.git("ls-tree", "-z", "--full-tree", base, "--", *paths).stdout.decode(errors="surrogateescape")
    back: dict[str, str] = {}
    for item in raw.split("\0"):
        if item:
            meta, _, path = item.partition("\t")
            mode, _, oid = meta.split(" ")
            if keep is None or keep(path, oid):
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


_DIFF_INDEX = ["diff-index", "--cached", "-r", "-z", "--no-renames", "--no-ext-diff"]


def diff(repo: git.Repo, a: str, b: str) -> dict[str, Change]:
    """Paths that differ between trees ``a`` and ``b`` (no rename detection)."""
    return parse_raw(repo.git("diff-tree", "-r", "-z", "--no-renames", "--no-ext-diff", a, b).stdout)


def parse_raw(out: bytes) -> dict[str, Change]:
    """The changes of git's ``-z`` raw diff output, by path."""
    parts = out.decode(errors="surrogateescape").split("\0")
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
    write: list[str]  # take the snapshot's version: nothing stands there, or HEAD's version (kept in git)
    delete: list[str]  # the snapshot deleted it; here it is HEAD's version
    local: dict[str, str]  # path -> what of the user's stands in its way: refused, or saved first with --force
    head_moved: list[str]  # HEAD's version differs from the checkpoint's; with --force the snapshot wins
    in_sync: int  # already as in the snapshot
    gone: frozenset[str]  # every path the snapshot deleted
    withheld: dict[str, str]  # path -> why it is never restored from the state branch
    nested: dict[str, str]  # path -> the nested repository it would write into or over: never written
    wanted: dict[str, Change]  # the snapshot's own changes, by path
    configuration: dict[str, str]  # path -> what runs it: withheld, as it differs here; a person takes it


def withheld(path: str, mirror_dir: str) -> str | None:
    """Why ``path`` (from a snapshot) is never restored, or None: git's and
    vibegit's own places, compared as a case-insensitive file system would
    see the names (``configfiles.folded``), so no alias of them gets through."""
    from vibegit.core import configfiles  # restoring only: not on status's way to observe

    names = path.split("/")
    if any(n in ("", ".", "..") or "\0" in n for n in names):
        return "not a path inside the working tree"
    folded = [configfiles.folded(n) for n in names]
    if any(n in (".git", "git~1") for n in folded):
        return "git's own directory"
    mirror = [configfiles.folded(n) for n in mirror_dir.split("/")]
    if folded[: len(mirror)] == mirror or mirror[: len(folded)] == folded:
        return "vibegit's mirror of the state"
    return None


def hooks_dirs(repo: git.Repo, config: dict[str, str]) -> tuple[str, ...]:
    """The directory git takes hooks from, from the top of the working tree
    (as set, and with links resolved), when it lies inside it (``core.hooksPath``)."""
    value = config.get("core.hookspath")
    if not value:
        return ()
    hooks = os.path.normpath(os.path.join(repo.toplevel, os.path.expanduser(value)))
    found = [fs.relative(hooks, repo.toplevel), fs.relative(os.path.realpath(hooks), os.path.realpath(repo.toplevel))]
    return tuple(dict.fromkeys(f for f in found if f and f != "."))


class _Disk(NamedTuple):
    kind: str  # missing, file, link, dir, repo, other
    mode: int = 0
    target: str = ""  # a link's


def _look(top: str, path: str) -> _Disk:
    try:
        found = fs.lstat(top, path)
    except BadInput:  # behind a link: what stands in the way is its parent (_Here.blocked)
        return _Disk("missing")
    if found is None:
        return _Disk("missing")
    if stat.S_ISLNK(found.st_mode):
        return _Disk("link", found.st_mode, os.readlink(os.path.join(top, path)))
    if stat.S_ISREG(found.st_mode):
        return _Disk("file", found.st_mode)
    if stat.S_ISDIR(found.st_mode):
        return _Disk("repo" if fs.lstat(top, f"{path}/.git") is not None else "dir", found.st_mode)
    return _Disk("other", found.st_mode)


class _Here:
    """The working tree as it stands, looked at once per path: no link followed."""

    def __init__(self, repo: git.Repo) -> None:
        self.repo, self.top = repo, repo.toplevel
        self.seen: dict[str, _Disk] = {}

    def at(self, path: str) -> _Disk:
        if path not in self.seen:
            self.seen[path] = _look(self.top, path)
        return self.seen[path]

    def blocked(self, path: str) -> tuple[str, _Disk] | None:
        """The first parent of ``path`` that is not a plain directory (a file, a link, a repository)."""
        names = path.split("/")
        for i in range(1, len(names)):
            parent = "/".join(names[:i])
            disk = self.at(parent)
            if disk.kind == "missing":
                return None
            if disk.kind != "dir":
                return parent, disk
        return None

    def versions(self, paths: list[str]) -> dict[str, Side]:
        """How git would record what stands at each path (regular files and links)."""
        files = [p for p in paths if self.at(p).kind == "file"]
        ids = git.hash_paths(self.repo, files)
        out: dict[str, Side] = {}
        for path in paths:
            disk = self.at(path)
            if disk.kind == "link":
                out[path] = Side("120000", git.blob_id(self.repo, disk.target.encode(errors="surrogateescape")))
            elif disk.kind == "file":
                oid = ids.get(path) or git.blob_id(self.repo, fs.read(self.top, path, 1 << 62) or b"")
                out[path] = Side("100755" if disk.mode & 0o111 else "100644", oid)
        return out


def _same(a: Side | None, b: Side | None) -> bool:
    """The same content (the exec bit aside: changing it loses nothing)."""
    if a is None or b is None:
        return a is b
    return a.oid == b.oid and (a.mode == "120000") == (b.mode == "120000")


def plan(repo: git.Repo, snapshot: str, base: str | None, mirror_dir: str, hooks: tuple[str, ...] = ()) -> Plan:
    """What restoring ``snapshot`` (taken on top of tree ``base``) would do.

    Only the snapshot's own changes (base → snapshot) are carried over, so a
    HEAD that moved on keeps its other files. What stands in the working
    tree is looked at directly (ignored files, directories and links too):
    a path is written only where nothing stands or HEAD's version does,
    which is never a loss; anything else of the user's in the way is named.
    Configuration (``configfiles``; ``hooks``: the hooks directory git uses)
    the restore would change is withheld, whatever stands there.
    """
    base = base or empty_tree(repo)
    head = head_tree(repo)
    wanted = diff(repo, base, snapshot)
    moved = diff(repo, base, head) if base != head else {}
    gone = frozenset(p for p, c in wanted.items() if c.new is None)
    out = Plan([], [], {}, [], 0, gone, {}, {}, wanted, {})
    here = _Here(repo)
    todo: list[str] = []
    for path, change in sorted(wanted.items()):
        why = withheld(path, mirror_dir)
        if why is None and "160000" in (change.new.mode if change.new else "", change.old.mode if change.old else ""):
            why = "a submodule: its own repository"
        if why is not None:
            out.withheld[path] = why
            continue
        block = here.blocked(path)
        if block is not None and block[1].kind == "repo":
            out.nested[path] = block[0]
        elif block is None and here.at(path).kind == "repo":
            out.nested[path] = path
        else:
            todo.append(path)
    versions = here.versions(todo + sorted({b[0] for p in todo if (b := here.blocked(p)) is not None}))
    dirs: list[str] = []
    for path in todo:
        change = wanted[path]
        target = change.new
        expected = moved[path].new if path in moved else change.old  # HEAD's version
        block = here.blocked(path)
        disk = here.at(path)
        if block is not None:
            parent = block[0]
            head_there = moved[parent].new if parent in moved else (wanted[parent].old if parent in wanted else None)
            if target is None:
                out = out._replace(in_sync=out.in_sync + 1)  # already absent: a file stands where its directory was
            elif parent in out.gone and head_there is not None and _same(versions.get(parent), head_there):
                out.write.append(path)  # the snapshot deletes what is in the way (HEAD's version, in git) first
            else:
                out.local[path] = parent
        elif disk.kind == "dir":
            if target is None:
                out.local[path] = path  # the snapshot deleted a file; a directory of yours stands there
            else:
                dirs.append(path)  # free once everything in it is deleted (decided below)
        elif disk.kind == "other":
            out.local[path] = path
        elif _same(versions.get(path), target):  # missing where the snapshot deleted it, too
            if target is not None and versions[path].mode != target.mode:
                out.write.append(path)  # only the exec bit differs
            else:
                out = out._replace(in_sync=out.in_sync + 1)
        elif _same(versions.get(path), expected):  # HEAD's version stands there (or nothing, as in HEAD)
            if path in moved:
                out.head_moved.append(path)
            elif target is None:
                out.delete.append(path)
            else:
                out.write.append(path)
        else:
            out.local[path] = path  # changed here (deleted here, too)
    from vibegit.core import configfiles

    for path in [*out.write, *out.delete, *out.head_moved, *out.local, *dirs]:  # what would change
        why = configfiles.why(path, hooks)
        if why is not None:
            out.configuration[path] = why
    if out.configuration:
        held = out.configuration
        out.write[:] = [p for p in out.write if p not in held]
        out.delete[:] = [p for p in out.delete if p not in held]
        out.head_moved[:] = [p for p in out.head_moved if p not in held]
        dirs = [p for p in dirs if p not in held]
        for path in held:
            out.local.pop(path, None)
    deleting = set(out.delete)
    for path in dirs:
        inside = fs.inventory(repo.toplevel, path, digest=False)
        if all(what == "dir" or p in deleting for p, what in inside.items()):
            out.write.append(path)  # it holds only what the snapshot deletes
        else:
            out.local[path] = path
    for path, obstacle in list(out.local.items()):  # a repository deeper inside is never removed either
        found = fs.lstat(repo.toplevel, obstacle)
        if found is not None and stat.S_ISDIR(found.st_mode):
            inside = fs.inventory(repo.toplevel, obstacle, digest=False)
            repos = [p for p in inside if p.rsplit("/", 1)[-1] == ".git"]
            if repos:
                del out.local[path]
                out.nested[path] = repos[0].rsplit("/", 1)[0]
    return out


def in_the_way(repo: git.Repo, p: Plan) -> list[str]:
    """What of the user's ``--force`` saves and removes: the outermost of what stands in the way."""
    found = sorted({where for where in p.local.values() if fs.lstat(repo.toplevel, where) is not None})
    return _outermost(found)


def _outermost(found: list[str]) -> list[str]:
    return [w for w in found if not any(w.startswith(o + "/") for o in found)]


def standing(repo: git.Repo, paths: list[str]) -> list[str]:
    """What stands at ``paths``, or in their way (a file or link where a
    parent directory should be): the outermost of each, to save first."""
    here = _Here(repo)
    found: set[str] = set()
    for path in paths:
        block = here.blocked(path)
        if block is not None:
            found.add(block[0])
        elif here.at(path).kind != "missing":
            found.add(path)
    return _outermost(sorted(found))


def put_back(repo: git.Repo, backup: str) -> str:
    """The one command that copies a backup (``save``) back into the working tree."""
    import shlex

    return f"cp -a {shlex.quote(backup)}/. {shlex.quote(repo.toplevel)}/"


def save(repo: git.Repo, paths: list[str], stamp: str) -> str:
    """Copy ``paths`` (files, links, directories: whatever stands there) to a
    new backup directory under the git dir, check the copy, and return it.
    Nothing is written to the working tree until this returned."""
    top = repo.toplevel
    where = f"vibegit/backups/{stamp}-{os.urandom(3).hex()}"
    with fs.opendir(repo.common_dir, where, create=True):
        pass
    backup = os.path.join(repo.common_dir, where)
    for path in paths:
        try:
            fs.copy(top, path, backup)
            same = fs.inventory(top, path) == fs.inventory(backup, path)
        except OSError as err:
            raise Refused(
                f"could not back up {shown(path)} in {backup} ({err.strerror or err}); "
                "nothing in the working tree was changed"
            ) from None
        if not same:
            raise Refused(
                f"the backup of {shown(path)} in {backup} does not match it; nothing in the working tree was changed"
            )
    return backup


def apply(repo: git.Repo, p: Plan, snapshot: str, writes: list[str], deletes: list[str], remove: list[str]) -> None:
    """Remove ``remove`` (what stood in the way, saved by the caller), delete
    ``deletes``, then write ``writes`` from the snapshot with git's filters,
    as a checkout would; every write goes through infra/fs.py, so no link on
    the way is ever followed. A scratch index is never needed: the user's is untouched."""
    top = repo.toplevel
    for path in remove:
        fs.remove_tree(top, path)
    for path in deletes:
        fs.remove(top, path)
        if "/" in path:
            fs.remove_empty_dirs(top, path.rsplit("/", 1)[0])
    changes = [p.wanted[path] for path in writes]
    for change in changes:  # what stands there is HEAD's version, or saved: make room
        found = fs.lstat(top, change.path)
        if found is None:
            continue
        if stat.S_ISDIR(found.st_mode):
            fs.remove_empty_dirs(top, change.path)
        elif change.new is not None and (stat.S_ISLNK(found.st_mode) or change.new.mode == "120000"):
            fs.remove(top, change.path)
    umask = os.umask(0)
    os.umask(umask)
    files = [c for c in changes if c.new is not None]
    for change, data in zip(
        files, git.checkout_bytes(repo, [(c.new.oid, c.path) for c in files if c.new]), strict=True
    ):
        assert change.new is not None
        if change.new.mode == "120000":
            fs.symlink(top, change.path, data.decode(errors="surrogateescape"))
        else:
            fs.write(top, change.path, data, (0o777 if change.new.mode == "100755" else 0o666) & ~umask)


COMPARE_LIMIT = 5_000  # index entries: above, the report compares the working tree only when asked


def tracked_files(repo: git.Repo) -> int | None:
    """How many entries the index holds, from its 12-byte header (None when
    unreadable or not an index): the cheap measure of what a comparison scans."""
    try:
        with open(os.path.join(repo.git_dir, "index"), "rb") as f:
            head = f.read(12)
    except FileNotFoundError:
        return 0
    except OSError:
        return None
    if len(head) < 12 or head[:4] != b"DIRC":
        return None
    return int.from_bytes(head[8:12], "big")


def observe(repo: git.Repo, state: State, compare: bool | None = None, taken: str | None = None) -> Observed | None:
    """Where the checkpoint's line is now and whether its snapshot matches
    the working tree; None without a checkpoint.

    Comparing scans the whole working tree (``git add -A`` on a scratch
    index), so it runs when ``compare`` asks for it, or, with ``compare``
    None, when the index holds at most COMPARE_LIMIT entries (the git hooks
    pass False). ``taken`` is a snapshot this command just took of the
    working tree: a checkpoint whose snapshot it is matches without a scan."""
    from vibegit.core.report import Observed
    from vibegit.infra.worktree import locate

    k = state.checkpoint
    if k is None:
        return None
    where = locate(repo.toplevel, k.file, k.line, k.line_text)
    same, skipped = None, 0
    if k.snapshot and taken is not None and k.snapshot == taken:
        same = True
    elif k.snapshot and compare is not False:
        files = tracked_files(repo) if compare is None else 0
        if files is not None and files > COMPARE_LIMIT:
            skipped = files
        else:
            try:
                same = matches(repo, k.snapshot)
            except GitError:
                same = None
    return Observed(where.state if where else "", where.line if where else None, same, skipped)
