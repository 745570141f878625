"""The state branch: read the state at its tip, and the one writer of its ref.

Every move of the state ref goes through ``publish``: under a file lock in
the git common dir (shared by all worktrees), it reads the tip, lets the
caller build the commit the ref should point to, and moves the ref with a
compare-and-swap ``update-ref``; when another writer won the race the caller
builds again on the newer tip. Events, sync, doctor and a fresh clone's
arrival all publish this way.
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from vibegit.core import workflows
from vibegit.core.model import Env, Event, Memory, State, Status
from vibegit.core.records import NamedTuple, frozen, replace
from vibegit.core.settings import Settings
from vibegit.core.text import clean
from vibegit.core.workflows import Summary
from vibegit.errors import BadInput, GitError, Refused, VibegitError
from vibegit.infra import git, hookplace
from vibegit.infra.formats import (
    CHECKPOINT,
    COMPLETION,
    CONTEXT,
    KANBAN,
    LOCK,
    MAX_FILE_BYTES,
    SESSION,
    SHARED_FILES,
    STATE_FILES,
    index,
    parse_all,
    parse_index,
    parse_session,
    parse_shared,
    render_all,
    render_index,
)

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from typing import Any, TypeVar

LOCK_TIMEOUT = 60.0
MAX_RETRIES = 50
FORMAT = 2  # the layout written here; 1 is vibegit 0.1's one-workflow layout, upgraded by the next event
FORMAT_FILE = "format"
INDEX_FILE = index.NAME
WORKFLOWS = "workflows"  # workflows/<id>/: the seed's files of one workflow, and its snapshot/
BRANCHES = "branches"  # branches/<key>: ids of the active workflows bound to a branch (the hooks' fast path)
SNAPSHOT = "snapshot"  # the tree entry of a workflow that holds the snapshot of uncommitted work
WORKFLOW_FILES = (SESSION, LOCK, CONTEXT, KANBAN, CHECKPOINT, COMPLETION)
# An older vibegit reads session.yaml at the root: this one tells it, in its own error line, to upgrade.
TOMBSTONE = (
    "# vibegit state format 2: each workflow is in workflows/<id>/; see index.yaml and the README\n"
    "session: {id: format-2}\n"
    "mode: {type: 'upgrade vibegit (state v2)'}\n"
)

if TYPE_CHECKING:
    K = TypeVar("K")
    T = TypeVar("T")


@frozen
class Flow:
    """One workflow's part of the state branch (or none yet: ``id`` empty)."""

    id: str
    tree: tuple[git.TreeEntry, ...]  # its directory's entries (the snapshot among them)
    files: dict[str, bytes]  # its state files and the shared memory.yaml, as the mirror shows them
    state: State  # with the shared memory


@frozen
class Loaded:
    """The state branch at one commit: the workflows' index and what they share."""

    head: str | None  # None before the first event
    tree: tuple[git.TreeEntry, ...]  # the root's entries
    memory: Memory
    shared: dict[str, bytes]  # the shared files as they are: memory.yaml, conventions.md, decisions.md
    index: tuple[Summary, ...]
    version: int
    where: str  # how errors name it: "vibegit/state:"
    legacy: Flow | None = None  # the one workflow of a format-1 state, until the next event upgrades it

    def fresh(self) -> Flow:
        """No workflow: the shared memory only (a new workflow starts from it)."""
        return Flow("", (), dict(self.shared), State(memory=self.memory))


_trees: dict[str, tuple[git.TreeEntry, ...]] = {}  # by id (or commit id + "^{tree}"): a tree never changes


def _entries(repo: git.Repo, cat: git.CatFile, rev: str) -> tuple[git.TreeEntry, ...]:
    """The entries of tree ``rev``, read once a process for an object id
    (sync reads the same workflow directories on every side it looks at)."""
    entries = _trees.get(rev)
    if entries is not None:
        return entries
    found = cat.get(rev)
    if found is None or found[0] != "tree":
        raise GitError(f"{rev}: tree missing from the object store; run 'vibegit doctor'")
    return _keep(rev, tuple(git.parse_tree(repo, found[2])))


def _keep(rev: str, entries: tuple[git.TreeEntry, ...]) -> tuple[git.TreeEntry, ...]:
    if git.is_oid(rev.removesuffix("^{tree}")):
        _cache(_trees, 4096, rev, entries)
    return entries


def _cache(cache: dict[K, T], size: int, key: K, value: T) -> T:
    """``value`` kept in ``cache`` under ``key``, the oldest entry making room
    once it holds ``size`` (the caches of what never changes: by object id)."""
    if len(cache) >= size:
        try:
            cache.pop(next(iter(cache)))
        except (RuntimeError, StopIteration, KeyError):  # another thread (vibegit mcp) changed it meanwhile
            pass
    cache[key] = value
    return value


def read_trees(repo: git.Repo, cat: git.CatFile, oids: list[str]) -> dict[str, tuple[git.TreeEntry, ...]]:
    """The entries of each of the trees ``oids`` (one that is missing, or not
    a tree, left out), those not read before asked of ``cat`` in one batch:
    many workflows' directories cost one round trip, not one each."""
    found = {oid: _trees[oid] for oid in oids if oid in _trees}
    wanted = [oid for oid in dict.fromkeys(oids) if oid not in found]
    for oid, got in zip(wanted, cat.get_many(wanted), strict=True):
        if got is not None and got[0] == "tree":
            found[oid] = _keep(oid, tuple(git.parse_tree(repo, got[2])))
    return found


def _blobs(
    cat: git.CatFile, entries: tuple[git.TreeEntry, ...], names: tuple[str, ...], where: str = ""
) -> dict[str, bytes]:
    """The state files ``names`` of a tree, asked of git at once (one round
    trip, not one a file), each bounded before it is read (a hostile 200 MB
    file is refused unread, as the parser would refuse it read)."""
    wanted = [entry for entry in entries if entry.name in names and entry.mode.startswith("100")]
    files: dict[str, bytes] = {}
    try:
        for entry, blob in zip(wanted, cat.get_many((e.oid for e in wanted), MAX_FILE_BYTES), strict=True):
            if blob is None:  # pruned: read as absent, a missing workflow.lock would pass for no lock
                raise GitError(
                    f"{entry.name} ({entry.oid[:12]}) is missing from the object store; run 'vibegit doctor --repair'"
                )
            files[entry.name] = blob[2]
    except git.TooLarge as err:  # the file after the ones read
        raise BadInput(f"{where}{wanted[len(files)].name}: {err}") from None
    return files


def legacy_id(state: State) -> str:
    """The id a format-1 workflow gets: the same on every machine that upgrades it."""
    import hashlib  # here: rare, and costly at start-up

    seed = f"{state.session.id}|{state.workflow.started_at}|{state.mode.workflow_name}".encode()
    return workflows.new_id(state.mode.workflow_name or "workflow", hashlib.sha1(seed).hexdigest()[:6])


_parsed: dict[
    tuple[str, str], Any
] = {}  # by object id: what was parsed once need not be again (a command reads a tip often)


def _remember(key: tuple[str, str], value: T) -> T:
    _cache(_parsed, 256, key, value)
    return value


def load_commit(repo: git.Repo, cat: git.CatFile, commit: str, where: str) -> Loaded:
    """The state branch at ``commit`` (``where`` prefixes file names in errors;
    a commit read before under another name is not parsed again)."""
    found: Loaded | None = _parsed.get((commit, where))
    if found is not None:
        return found
    read: Loaded | None = _parsed.get((commit, "\0"))  # (no name holds a NUL)
    loaded = replace(read, where=where) if read is not None else _load_commit(repo, cat, commit, where)
    _remember((commit, "\0"), loaded)
    return _remember((commit, where), loaded)


def load_base(repo: git.Repo, cat: git.CatFile, commit: str, where: str) -> Loaded:
    """``load_commit`` for a merge's base, whose index no merge reads: the
    index is neither read nor parsed (``index`` empty) unless the commit was
    loaded whole before."""
    read: Loaded | None = _parsed.get((commit, "\0"))
    if read is not None:
        return replace(read, where=where)
    return _load_commit(repo, cat, commit, where, listed=False)


def _load_commit(repo: git.Repo, cat: git.CatFile, commit: str, where: str, listed: bool = True) -> Loaded:
    tree = _entries(repo, cat, f"{commit}^{{tree}}")
    names = (FORMAT_FILE, *SHARED_FILES, *((INDEX_FILE,) if listed else ()), *WORKFLOW_FILES)
    root = _blobs(cat, tree, names, where)
    shared = {name: data for name, data in root.items() if name in SHARED_FILES}
    memory = parse_shared(shared, where)
    if FORMAT_FILE not in root:
        return _legacy(commit, tree, root, memory, shared, where)
    version = root[FORMAT_FILE].decode(errors="replace").strip()
    if version != str(FORMAT):
        raise BadInput(
            f"{where}{FORMAT_FILE}: state format {version[:20]!r} is not {FORMAT}: upgrade vibegit to read it"
        )
    index = parse_index(root[INDEX_FILE], where + INDEX_FILE) if INDEX_FILE in root else ()
    return Loaded(commit, tree, memory, shared, index, FORMAT, where)


def _legacy(
    commit: str,
    tree: tuple[git.TreeEntry, ...],
    root: dict[str, bytes],
    memory: Memory,
    shared: dict[str, bytes],
    where: str,
) -> Loaded:
    """vibegit 0.1's layout: one workflow's files at the root (read as they are; the next event upgrades)."""
    state = parse_all(root, where)
    if SESSION not in root or state.workflow.status is Status.INIT:
        return Loaded(commit, tree, memory, shared, (), 1, where)
    workflow_id = state.workflow.id or legacy_id(state)
    state = replace(state, workflow=replace(state.workflow, id=workflow_id))
    files = {name: data for name, data in root.items() if name in (*WORKFLOW_FILES, *SHARED_FILES)}
    flow = Flow(workflow_id, tuple(e for e in tree if e.name in (*WORKFLOW_FILES, SNAPSHOT)), files, state)
    return Loaded(commit, tree, memory, shared, (workflows.summarize(state),), 1, where, flow)


_commits: dict[str, bool] = {}  # ids the state ref was seen to name, each a commit (an object's type never changes)


def load(repo: git.Repo, cat: git.CatFile, settings: Settings, head: str | None = "") -> Loaded:
    """The state branch at its tip (``head``: the tip as ``publish`` read it)."""
    where = f"{settings.state_branch}:"
    if head and head in _commits:  # (publish reads the tip a command has read already: no second question)
        return load_commit(repo, cat, head, where)
    found = cat.info(settings.state_ref if head == "" else head) if head is not None else None
    if found is None:
        return Loaded(None, (), Memory(), {}, (), FORMAT, where)
    if found[0] != "commit":
        raise BadInput(f"{settings.state_ref} points to a {found[0]}, not a commit; run 'vibegit doctor'")
    _cache(_commits, 4096, found[1], True)
    return load_commit(repo, cat, found[1], where)


class SnapshotAt(NamedTuple):
    """A snapshot of uncommitted work inside a state commit."""

    path: str  # where its tree hangs in the state commit's tree
    tree: str
    base: str | None  # the commit it was taken on (checkpoint.commit); None when unknown


def snapshots(repo: git.Repo, cat: git.CatFile, commit: str) -> list[SnapshotAt]:
    """The snapshots a state commit holds, each with the commit it was taken
    on: the one place that knows where they hang (the secret scan and
    ``sync --redact`` find them here). An unreadable session.yaml gives no
    base, so everything in the snapshot counts as new."""
    root = _entries(repo, cat, f"{commit}^{{tree}}")
    places: list[tuple[str, tuple[git.TreeEntry, ...]]] = [("", root)]  # format 1: at the root
    entry = next((e for e in root if e.name == WORKFLOWS and e.mode == "40000"), None)
    if entry is not None:
        subs = [e for e in _entries(repo, cat, entry.oid) if e.mode == "40000"]
        read = read_trees(repo, cat, [e.oid for e in subs])
        places += [(f"{WORKFLOWS}/{e.name}/", read.get(e.oid) or _entries(repo, cat, e.oid)) for e in subs]
    held = [
        (prefix, tree, snap)
        for prefix, tree in places
        for snap in tree
        if snap.name == SNAPSHOT and snap.mode == "40000"
    ]
    bases = _checkpoint_commits(cat, [tree for _, tree, _ in held])
    return [SnapshotAt(prefix + SNAPSHOT, snap.oid, base) for (prefix, _, snap), base in zip(held, bases, strict=True)]


_bases: dict[str, str | None] = {}  # session.yaml's id -> its checkpoint's commit: each session parsed once


def _checkpoint_commits(cat: git.CatFile, trees: list[tuple[git.TreeEntry, ...]]) -> list[str | None]:
    """The checkpoint's commit the session.yaml in each of ``trees`` names
    (None: none, or unreadable: everything in the snapshot counts as new),
    the sessions not parsed before read in one batch."""
    sessions = [next((e.oid for e in tree if e.name == SESSION and e.mode.startswith("100")), None) for tree in trees]
    known = {oid: _bases[oid] for oid in sessions if oid is not None and oid in _bases}
    wanted = [oid for oid in dict.fromkeys(sessions) if oid is not None and oid not in known]
    for oid, found in zip(wanted, cat.each(wanted), strict=True):
        if found is None:  # pruned: as _blobs says it
            raise GitError(f"{SESSION} ({oid[:12]}) is missing from the object store; run 'vibegit doctor --repair'")
        kind, _, size, pieces = found
        try:  # one over the state files' bound is never read (each() skips what is left unread)
            k = parse_session(b"".join(pieces)).checkpoint if kind == "blob" and size <= MAX_FILE_BYTES else None
        except BadInput:
            k = None
        known[oid] = _cache(_bases, 4096, oid, k.commit if k is not None else None)
    return [known[oid] if oid is not None else None for oid in sessions]


def read_state(repo: git.Repo, settings: Settings) -> Loaded:
    return load(repo, git.reader(repo), settings)


def flow(repo: git.Repo, cat: git.CatFile, loaded: Loaded, workflow_id: str) -> Flow:
    """Workflow ``workflow_id`` of ``loaded``, with the shared memory."""
    if loaded.legacy is not None and loaded.legacy.id == workflow_id:
        return loaded.legacy
    where = f"{loaded.where}{WORKFLOWS}/{workflow_id}/"
    entry = next((e for e in loaded.tree if e.name == WORKFLOWS and e.mode == "40000"), None)
    sub = next((e for e in _entries(repo, cat, entry.oid) if e.name == workflow_id), None) if entry else None
    if sub is None or sub.mode != "40000":
        raise BadInput(f"{where}: no such workflow on the state branch (index.yaml names it); run 'vibegit doctor'")
    cached = _parsed.get((sub.oid, where))
    if cached is None:
        tree = _entries(repo, cat, sub.oid)
        files = _blobs(cat, tree, WORKFLOW_FILES, where)
        state = parse_all(files, where)
        if state.workflow.id != workflow_id:
            raise BadInput(f"{where}session.yaml: workflow.id {state.workflow.id!r:.60} is not the directory's name")
        cached = _remember((sub.oid, where), Flow(workflow_id, tree, files, state))
    files = {**cached.files, **loaded.shared}
    return Flow(workflow_id, cached.tree, files, replace(cached.state, memory=loaded.memory))


def write_tree(
    repo: git.Repo,
    cat: git.CatFile,
    loaded: Loaded,
    old: Flow | None,
    state: State,
    trees: dict[str, str | None] | None = None,
    rendered: dict[str, str] | None = None,
) -> tuple[str, tuple[Summary, ...]]:
    """The root tree after an event, and the index it holds: ``state``'s
    workflow written to ``workflows/<id>/`` (``old``: its part before; None:
    the event changed the shared memory only), the shared memory at the root
    (``rendered``: ``render_all(state)``, when the caller has it already)."""
    files = dict(rendered) if rendered is not None else render_all(state)
    shared = {name: files.pop(name) for name in SHARED_FILES if name in files}
    changed: dict[str, str] = {}
    listed = loaded.index
    if old is not None:
        changed[state.workflow.id] = workflow_tree(repo, old.tree, files, trees)
        listed = (*(s for s in listed if s.id != state.workflow.id), workflows.summarize(state))
    return assemble(repo, cat, loaded, changed, listed, shared), listed


KNOWN = (FORMAT_FILE, SESSION, *SHARED_FILES, INDEX_FILE, BRANCHES, WORKFLOWS)  # the root's own entries


def assemble(
    repo: git.Repo,
    cat: git.CatFile,
    loaded: Loaded,
    changed: dict[str, str],
    listed: tuple[Summary, ...],
    shared: dict[str, str],
    extra: list[git.TreeEntry] | None = None,
) -> str:
    """A root tree: ``loaded``'s, with the workflow directories ``changed``
    (id -> tree), the index ``listed`` and its branches/, the shared files;
    ``extra`` replaces the root's other entries. A format-1 state comes out
    upgraded (its workflow moved in as it was), its history kept."""
    if loaded.version == FORMAT:
        root = {e.name: e for e in loaded.tree}
    else:  # format 1: what is not the workflow's stays at the root; the workflow moves in as it is
        root = {e.name: e for e in loaded.tree if e.name not in (*WORKFLOW_FILES, SNAPSHOT)}
        legacy = loaded.legacy
        if legacy is not None and legacy.id not in changed:
            changed = {legacy.id: git.write_tree(repo, legacy.tree), **changed}
    if extra is not None:
        root = {name: e for name, e in root.items() if name in KNOWN} | {e.name: e for e in extra}
    if changed:
        parent = root.get(WORKFLOWS) if loaded.version == FORMAT else None
        dirs = {e.name: e for e in (_entries(repo, cat, parent.oid) if parent is not None else ())}
        dirs.update({name: git.TreeEntry("40000", name, oid) for name, oid in changed.items()})
        root[WORKFLOWS] = git.TreeEntry("40000", WORKFLOWS, git.write_tree(repo, dirs.values()))
    root[FORMAT_FILE] = _blob(repo, FORMAT_FILE, f"{FORMAT}\n", root.get(FORMAT_FILE))
    root[SESSION] = _blob(repo, SESSION, TOMBSTONE, root.get(SESSION))
    root[INDEX_FILE] = _blob(repo, INDEX_FILE, render_index(listed), root.get(INDEX_FILE))
    for name in SHARED_FILES:
        if name in shared:
            root[name] = _blob(repo, name, shared[name], root.get(name))
        else:
            root.pop(name, None)
    bound = workflows.bound_keys(listed)
    if bound:
        was = root.get(BRANCHES)
        have = {e.name: e for e in _entries(repo, cat, was.oid)} if was is not None and was.mode == "40000" else {}
        branches = [_blob(repo, key, "".join(f"{i}\n" for i in ids), have.get(key)) for key, ids in bound.items()]
        root[BRANCHES] = git.TreeEntry("40000", BRANCHES, git.write_tree(repo, branches))
    else:
        root.pop(BRANCHES, None)
    return git.write_tree(repo, root.values())


def rewritten(
    repo: git.Repo,
    cat: git.CatFile,
    loaded: Loaded,
    fix: Callable[[State], State],
    snapshots: dict[str, str],
    drop: set[str],
) -> str:
    """``loaded``'s root tree with every workflow's state and the shared
    memory passed through ``fix``, snapshot trees replaced as ``snapshots``
    maps them (old id -> new) and the other blobs ``drop`` names left out;
    the index follows the fixed states (how ``sync --redact`` rewrites a
    commit it has not pushed; a format-1 commit comes out upgraded)."""
    changed: dict[str, str] = {}
    listed: list[Summary] = []
    for f in flows(repo, cat, loaded):
        state = fix(replace(f.state, memory=Memory()))
        files = {name: text for name, text in render_all(state).items() if name not in SHARED_FILES}
        snap = next((e for e in f.tree if e.name == SNAPSHOT and e.mode == "40000"), None)
        trees: dict[str, str | None] = {SNAPSHOT: snapshots[snap.oid]} if snap and snap.oid in snapshots else {}
        changed[f.id] = workflow_tree(repo, tuple(e for e in f.tree if e.oid not in drop), files, trees)
        listed.append(workflows.summarize(state))
    shared = {}
    if loaded.shared:
        shared = {k: v for k, v in render_all(fix(State(memory=loaded.memory))).items() if k in SHARED_FILES}
    extra = [e for e in loaded.tree if e.name not in (*KNOWN, *WORKFLOW_FILES, SNAPSHOT) and e.oid not in drop]
    return assemble(repo, cat, loaded, changed, tuple(listed), shared, extra)


def _blob(repo: git.Repo, name: str, text: str, was: git.TreeEntry | None = None) -> git.TreeEntry:
    """The entry of file ``name`` holding ``text``: ``was`` (its entry in the
    tree before) when that holds the same, else a new blob (a commit with 100
    workflows rewrites its branches/ and root files, most of them as they were)."""
    data = text.encode()
    if was is not None and was.mode == "100644" and was.name == name and was.oid == git.blob_id(repo, data):
        return was
    return git.TreeEntry("100644", name, git.write_object(repo, "blob", data))


def workflow_tree(
    repo: git.Repo, old: tuple[git.TreeEntry, ...], files: dict[str, str], trees: dict[str, str | None] | None
) -> str:
    """A workflow's directory: its state files replaced (workflow.lock dropped when absent);
    ``trees`` sets (tree id) or drops (None) subtrees such as ``snapshot``."""
    trees = trees or {}
    entries = [e for e in old if e.name not in STATE_FILES and e.name not in trees]
    entries += [git.TreeEntry("40000", name, oid) for name, oid in trees.items() if oid]
    entries += [_blob(repo, name, text) for name, text in files.items() if name in WORKFLOW_FILES]
    return git.write_tree(repo, entries)


def message(event: Event, state: State, env: Env) -> str:
    """The commit message: a subject and one trailer a line (no text can add a line)."""
    summary = " ".join(clean(event.summary).split())
    if len(summary) > 72:
        summary = summary[:71] + "…"
    trailers = [f"Vibegit-Event: {event.name}"]
    if state.mode.workflow_name:
        trailers.append(f"Vibegit-Workflow: {state.mode.workflow_name}")
    if state.workflow.id:
        trailers.append(f"Vibegit-Workflow-Id: {state.workflow.id}")
    if state.mode.phase:
        trailers.append(f"Vibegit-Phase: {state.mode.phase.value}")
    if event.task:
        trailers.append(f"Vibegit-Task: {event.task}")
    trailers.append(f"Vibegit-Head: {env.head or 'none'}")
    trailers += event.details
    return f"vibegit: {event.name} {summary}\n\n" + "\n".join(clean(t) for t in trailers) + "\n"


def commit(
    repo: git.Repo, config: dict[str, str], env: Env, tree: str, parents: list[str], event: Event, state: State
) -> str:
    """One state commit: the event's message and trailers, the user's identity (or the fallback)."""
    return git.write_commit(
        repo, tree, parents, message(event, state, env), git.identity(config, "AUTHOR"), git.identity(config)
    )


def lock_path(repo: git.Repo) -> str:
    return os.path.join(repo.common_dir, "vibegit.lock")


@contextmanager
def locked(repo: git.Repo) -> Iterator[None]:
    """The store's file lock, shared by all worktrees; every writer of the state branch holds it.

    On POSIX it is flock(2) on the lock file, taken as filelock takes it
    there (the kernel frees it when the process dies), without filelock's
    import (a tenth of an event's time). Without fcntl (not POSIX) it is
    filelock's lock; on a file system without flock (an NFS without its lock
    daemon) filelock's soft lock, a file of its own, which a process killed
    while holding it leaves behind: the timeout's message names it."""
    path = lock_path(repo)
    held = GitError(f"another vibegit process holds {path} for over {LOCK_TIMEOUT:.0f}s")
    fd = _flock(path, held)
    if fd is not None:
        try:
            yield
        finally:
            os.close(fd)  # and with it the lock
        return
    from filelock import FileLock, SoftFileLock, Timeout  # not on the read-only hook path

    if path in _FLOCK_UNSUPPORTED:
        soft = f"{path}.soft"
        held = GitError(
            f"another vibegit process holds {soft} for over {LOCK_TIMEOUT:.0f}s (this file system has no flock); "
            f"if no vibegit runs, delete {soft}"
        )
        lock: FileLock | SoftFileLock = SoftFileLock(soft, timeout=LOCK_TIMEOUT)
    else:
        lock = FileLock(path, timeout=LOCK_TIMEOUT)
    try:
        lock.acquire()
    except Timeout:
        raise held from None
    try:
        yield
    finally:
        lock.release()


def ready_to_publish() -> None:
    """Load now what ``publish`` takes beyond a read (the lock's module, git's
    object writers), for a command that waits on git before it publishes."""
    try:
        import fcntl  # noqa: F401
    except ImportError:
        pass
    git.ready_to_write()


_FLOCK_UNSUPPORTED: list[str] = []  # lock files whose file system refused flock in this process


def _flock(path: str, held: GitError) -> int | None:
    """The lock file's descriptor, flock(2)ed (``held`` after LOCK_TIMEOUT);
    None where there is no flock (not POSIX, or a file system without it)."""
    try:
        import fcntl
    except ImportError:
        return None
    fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
    deadline = time.monotonic() + LOCK_TIMEOUT
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise held from None
                time.sleep(0.05)
    except OSError as err:
        os.close(fd)
        if err.errno in (errno.ENOSYS, errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOTSUP):
            _FLOCK_UNSUPPORTED.append(path)
            return None  # filelock's soft lock's turn (its FileLock is flock here too)
        raise
    except BaseException:  # the timeout, an interrupt
        os.close(fd)
        raise


if TYPE_CHECKING:
    Build = Callable[[str | None, git.CatFile], tuple[str | None, str, T]]


def publish(
    repo: git.Repo,
    settings: Settings,
    build: Build[T],
    published: Callable[[T], None] | None = None,
    *,
    config: dict[str, str],
) -> T:
    """The one writer of the state ref.

    ``build(tip, cat)`` gets the ref's current value (any object id, or None)
    and returns ``(new, reason, result)``: the commit the ref should point to
    (``new == tip`` or None: leave it), the reflog message, and what
    ``publish`` returns. A lost compare-and-swap builds again on the newer
    tip. ``published(result)`` runs once the ref moved, still under the lock
    (the mirror is written there, so it never shows an older state).
    ``config``: the settings the command read, which say where git looks for
    hooks: git's reference-transaction hook is left out where it would only
    let this ref through (``hookplace.state_moves_unhooked``)."""
    hooked = not hookplace.state_moves_unhooked(hookplace.place_of(repo, config))
    cat = git.reader(repo)  # started before the lock is taken: it resolves names when asked
    holders = git.checked_out(repo, settings.state_ref)
    if holders:  # moving it would change that worktree's HEAD under its files and index
        raise Refused(
            f"{settings.state_branch} is checked out in {', '.join(holders)}; vibegit records nothing while it is "
            f"(each event would move that worktree's HEAD): switch that worktree to another branch "
            f"('git switch -' there), then run the command again"
        )
    with locked(repo):
        for _ in range(MAX_RETRIES):
            found = cat.info(settings.state_ref)
            tip = found[1] if found is not None else None
            new, reason, result = build(tip, cat)
            if new is None or new == tip:
                return result
            failed = git.update_ref(repo, settings.state_ref, new, tip, reason, hooked)
            if failed is None:
                if published is not None:
                    published(result)
                _pack_now_and_then(repo)
                return result
            if git.resolve(repo, settings.state_ref) == tip:
                raise _cannot_move(repo, settings, failed)
            # Another writer (a fetch, a sync, another machine's push) moved
            # the branch: build again on top of it.
    raise GitError(f"could not update {settings.state_ref} after {MAX_RETRIES} tries")


PACK_EVERY = 16  # state commits between two repackings (an event writes a small pack)


def _pack_now_and_then(repo: git.Repo) -> None:
    """Every ``PACK_EVERY`` moves of the state ref (counted in a file beside
    the lock, under it), repack in the background: an event writes its
    objects (a commit, three trees, its changed files) as one small pack
    of its own (``git.packed``), and ``--geometric`` rolls small packs into
    bigger ones, so their number stays logarithmic and the versions of a
    state file become deltas of each other (git 2.32 and later; an older
    git leaves the small packs, as it left loose objects before). It packs
    what else is loose too (snapshots, the project's own objects)."""
    counter = os.path.join(repo.common_dir, "vibegit.unpacked")
    try:
        fd = os.open(counter, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        try:
            os.write(fd, b".")
            count = os.fstat(fd).st_size
        finally:
            os.close(fd)
        if count >= PACK_EVERY:
            os.unlink(counter)
            git.detach(repo, "repack", "-d", "-q", "--geometric=2")
    except OSError:
        pass


def _cannot_move(repo: git.Repo, settings: Settings, why: str) -> VibegitError:
    lock = git.ref_lock(repo, settings.state_ref)
    if os.path.exists(lock):
        return Refused(
            f"{settings.state_ref} is locked by {lock} (a git process that was killed leaves it behind); "
            "nothing was recorded: 'vibegit doctor --repair' removes it once no git process runs here"
        )
    return GitError(f"could not update {settings.state_ref}: {why}")


HISTORY_FIELDS = ("commit", "date", "author", "subject")  # what git says of an event, never a trailer


def history(repo: git.Repo, settings: Settings, count: int, workflow_id: str | None = None) -> list[dict[str, str]]:
    """The newest ``count`` events (of one workflow, or all), read from commit subjects and trailers."""
    if git.resolve(repo, settings.state_ref) is None:
        return []
    # Separators no message can hold (a state commit is anyone's who can push): unguessable, fresh each time.
    nonce = os.urandom(8).hex()
    fmt = f"%x1f{nonce}".join(("%H", "%cI", "%an", "%s", "%(trailers:only,unfold)")) + f"%x1e{nonce}"
    only = ["--fixed-strings", f"--grep=Vibegit-Workflow-Id: {workflow_id}"] if workflow_id else []
    raw = repo.out("log", f"-n{count}", f"--format={fmt}", *only, settings.state_ref, "--")
    entries: list[dict[str, str]] = []
    for record in raw.split(f"\x1e{nonce}"):
        if not record.strip():
            continue
        commit_id, date, author, subject, trailer_text = record.strip("\n").split(f"\x1f{nonce}")
        entry = {"commit": commit_id, "date": date, "author": author, "subject": subject}
        for line in trailer_text.splitlines():
            key, sep, value = line.partition(": ")
            name = key[len("Vibegit-") :].lower()
            if sep and key.startswith("Vibegit-") and name not in HISTORY_FIELDS:
                entry[name] = value  # a trailer never stands for the commit's own id, date, author or subject
        # Anyone who can push writes these: shown as text, never as terminal controls.
        entries.append({k: v if k == "commit" else clean(v) for k, v in entry.items()})
    return entries


# -- what doctor checks ----------------------------------------------------------


def flows(repo: git.Repo, cat: git.CatFile, loaded: Loaded) -> list[Flow]:
    """Every workflow of ``loaded``, read from workflows/ (not from the index)."""
    if loaded.version != FORMAT:
        return [loaded.legacy] if loaded.legacy is not None else []
    entry = next((e for e in loaded.tree if e.name == WORKFLOWS and e.mode == "40000"), None)
    names = [e.name for e in _entries(repo, cat, entry.oid)] if entry is not None else []
    return [flow(repo, cat, loaded, workflows.check_id(name, f"{loaded.where}{WORKFLOWS}/")) for name in names]


def dirs(repo: git.Repo, cat: git.CatFile, loaded: Loaded) -> dict[str, str]:
    """Each workflow's id and the id of its directory's tree (two workflows
    are the same on two sides when these are): ``flows`` without reading
    or parsing one of them."""
    if loaded.version != FORMAT:
        legacy = loaded.legacy
        return {legacy.id: git.write_tree(repo, legacy.tree)} if legacy is not None else {}
    entry = next((e for e in loaded.tree if e.name == WORKFLOWS and e.mode == "40000"), None)
    found = {}
    for e in _entries(repo, cat, entry.oid) if entry is not None else ():
        workflow_id = workflows.check_id(e.name, f"{loaded.where}{WORKFLOWS}/")
        if e.mode != "40000":
            flow(repo, cat, loaded, workflow_id)  # its error
        found[workflow_id] = e.oid
    return found


def commit_problems(repo: git.Repo, cat: git.CatFile, settings: Settings, commit_id: str) -> list[str]:
    """What is wrong with one state commit (empty: good)."""
    from vibegit.core import lifecycle

    where = f"{settings.state_branch}@{commit_id[:10]}:"
    try:
        loaded = load_commit(repo, cat, commit_id, where)
        found = flows(repo, cat, loaded)
    except (BadInput, GitError) as err:
        return [str(err)]
    problems: list[str] = []
    for f in found:
        problems += [f"{f.id}: {problem}" for problem in lifecycle.lock_problems(f.state)]
        k = f.state.checkpoint
        if k is not None and k.snapshot:
            entry = next((e for e in f.tree if e.name == SNAPSHOT), None)
            present = cat.get(k.snapshot) if git.is_oid(k.snapshot) else None
            if entry is None or entry.mode != "40000" or entry.oid != k.snapshot:
                problems.append(f"{f.id}: checkpoint.snapshot {k.snapshot[:12]} is not the snapshot/ tree beside it")
            elif present is None or present[0] != "tree":
                problems.append(f"{f.id}: snapshot tree {k.snapshot[:12]} is missing from the object store")
    if loaded.version == FORMAT and sorted(loaded.index, key=lambda s: s.id) != sorted(
        (workflows.summarize(f.state) for f in found), key=lambda s: s.id
    ):
        problems.append(f"{where}{INDEX_FILE} does not list the workflows of {WORKFLOWS}/ as they are")
    return problems


def orphan_problems(repo: git.Repo, settings: Settings, tip: str) -> list[str]:
    total = git.count(repo, tip)
    own = git.count(repo, tip, "--not", f"--exclude={settings.state_branch}", "--branches", "--tags")
    if total != own:
        return [
            f"{settings.state_branch} is not an orphan: {total - own} commit(s) of your branches "
            "are in its history (only 'git' can untangle that; doctor --repair does not rewrite history)"
        ]
    return []
