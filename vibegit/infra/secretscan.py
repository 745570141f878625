"""Secrets stay home: scan exactly what a push of the state branch
would publish that is new, and take it out again (``sync --redact``).

What is new: every object a push would make reachable on the remote that
the remote's refs known here do not reach (``Theirs``), whatever commit it
comes from, listed by git (``rev-list --objects``): the blobs of the
snapshots (the whole working tree: a commit of the user's never pushed is
new there) and of the state's own text, the names in each new tree, and
the commit messages (a scan of many commits reads the names from git's
diff of them, the trees only where a name may be a credential: _diffed).
What the remote has is never scanned, so committed
test keys and fixtures pushed with the user's branch are never flagged.
A push that sends state commits under another name gets the same scan
(``carrying_state``).

Files are decoded (UTF-8, UTF-16
and UTF-32 with or without a BOM; binary read as latin-1) and scanned as a
stream, whatever their size; an object that cannot be read is refused,
never skipped. Values whose fingerprint is in ``.vibegit/secrets-allow``
pass. Rules: core/credentials.py. Light imports only: the pre-push hook
calls ``carrying_state`` and ``check`` (the state model, store, is
imported by redaction only).
"""

from __future__ import annotations

import os
import re
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence

from vibegit.core import credentials
from vibegit.core.messages import t
from vibegit.core.records import NamedTuple
from vibegit.core.settings import Settings
from vibegit.errors import BadInput, GitError
from vibegit.infra import git, scanned, scansplit

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start

if TYPE_CHECKING:
    from pathlib import Path

    from vibegit.core.model import State

ALLOW_FILE = ".vibegit/secrets-allow"
MAX_ALLOW_BYTES = 1 << 20


class Finding(NamedTuple):
    path: str  # a working-tree path (snapshot), a file of the state tree, or "" for a commit message
    line: int
    kind: str
    fingerprint: str
    source: str  # "snapshot", "state" or "message"
    oid: str  # the blob or commit holding it
    snapshot: str = ""  # the snapshot tree, for a file of a snapshot
    entry: str = ""  # a name that looks like one: the path it ends (``path`` shows it redacted)

    def where(self, settings: Settings) -> str:
        at = " (its name)" if self.entry else f":{self.line}"
        if self.source == "snapshot":
            return f"{self.path}{at}"
        if self.source == "state":
            return f"{settings.state_branch}:{self.path}{at}"
        return f"commit {self.oid[:10]} message:{self.line}"

    @property
    def what(self) -> str:
        return {
            "snapshot": "uncommitted work in a checkpoint's snapshot",
            "state": "the workflow's state",
            "message": "a state commit's message",
        }[self.source]


# -- the allowlist ----------------------------------------------------------------


def allowlist(repo: git.Repo) -> frozenset[str]:
    """The fingerprints in ``.vibegit/secrets-allow`` of the working tree
    (project content: it travels with the team's commits). A link or an
    oversized file allows nothing."""
    path = os.path.join(repo.toplevel, ALLOW_FILE)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return frozenset()
    with os.fdopen(fd, "rb") as f:
        data = f.read(MAX_ALLOW_BYTES + 1)
    if len(data) > MAX_ALLOW_BYTES:
        return frozenset()
    found = set()
    for line in data.decode("utf-8", errors="replace").splitlines():
        word = line.split("#", 1)[0].strip().lower()
        if credentials.FINGERPRINT.match(word):
            found.add(word)
    return frozenset(found)


def allow(repo: git.Repo, fingerprint: str, note: str) -> bool:
    """Add ``fingerprint`` to the allowlist file; False when it is there already."""
    fp = fingerprint.strip().lower()
    if not credentials.FINGERPRINT.match(fp):
        raise BadInput(t("secrets.not_fingerprint", value=fingerprint[:40]))
    if fp in allowlist(repo):
        return False
    from pathlib import Path  # here: a scan never writes the allowlist

    path = Path(repo.toplevel) / ALLOW_FILE
    for probe in (path.parent, path):
        if probe.is_symlink():
            raise BadInput(t("secrets.symlink", path=probe.relative_to(repo.toplevel)))
    path.parent.mkdir(exist_ok=True)
    new = not path.exists()
    with path.open("a", encoding="utf-8") as f:
        if new:
            f.write("# Values vibegit's secret scan lets through, by fingerprint (never the value).\n")
            f.write("# Added with 'vibegit secrets allow FINGERPRINT'; commit this file to share it.\n")
        f.write(f"{fp}  # {' '.join(note.split())[:200]}\n" if note.strip() else f"{fp}\n")
    return True


# -- what a push would publish that is new ---------------------------------------------


class Blob(NamedTuple):
    """An object a push would make reachable on the remote for the first time
    (a blob, or a tree: its entries' names are scanned)."""

    oid: str
    path: str  # in its snapshot (a snapshot's own root: ""), else in the state tree
    source: str  # "snapshot" or "state"
    snapshot: str = ""  # the snapshot tree it is in


class Scope(NamedTuple):
    commits: list[str]  # commits the remote does not have, oldest first
    blobs: list[Blob]  # the blobs and trees in them the remote does not have, each once
    snapshots: list[str]  # the snapshot trees among them
    roots: dict[str, None]  # where snapshots hang in the state tree ("workflows/<id>/snapshot")


class Theirs(NamedTuple):
    """What a remote is known here to have, as git is told it: the refs of
    ``remote`` (its remote-tracking refs, ``refs/remotes/REMOTE/*``, and
    vibegit's copy of its state branch, ``refs/vibegit/remote/REMOTE``, as
    last fetched or pushed) and ``commits`` (what it has, or is given by the
    same push); the trees of all of them count as theirs whole."""

    remote: str = ""  # a remote's name; "": none (a URL, or no remote)
    commits: tuple[str, ...] = ()

    def args(self) -> list[str]:
        """Arguments after ``--stdin`` (the refs; a copy never fetched is ignored: ``--ignore-missing``)."""
        if not self.remote or any(c in self.remote for c in "*?[\\"):  # a ref name holds none of these
            return ["--ignore-missing"]
        return ["--ignore-missing", "--not", f"--remotes={self.remote}", f"{git.REMOTE_NS}{self.remote}"]

    def stdin(self, *wanted: str) -> bytes:
        """``wanted``, then what is theirs, one a line, for ``--stdin``."""
        lines = [*wanted, *(f"^{oid}" for oid in self.commits if git.is_oid(oid))]
        return "".join(f"{line}\n" for line in lines).encode()

    def plus(self, commits: Sequence[str]) -> Theirs:
        return self._replace(commits=(*self.commits, *commits))

    def tips(self, repo: git.Repo) -> list[str]:
        """The commits the refs name, and ``commits``: what ``args`` stands for, as ids."""
        found = list(self.commits)
        if self.remote and len(self.args()) > 1:
            tracking, copy = f"refs/remotes/{self.remote}/", f"{git.REMOTE_NS}{self.remote}"
            raw = repo.out("for-each-ref", "--format=%(objectname) %(refname)", tracking.rstrip("/"), copy)
            for oid, _, ref in (line.partition(" ") for line in raw.splitlines()):
                if ref == copy or ref.startswith(tracking):
                    found.append(oid)
        return [oid for oid in dict.fromkeys(found) if git.is_oid(oid)]


def theirs(repo: git.Repo, settings: Settings, remote: str | None, cleared: Sequence[str] = ()) -> Theirs:
    """What ``remote`` has (None: the state's remote, when it can be told), plus ``cleared``."""
    return Theirs(state_remote(repo, settings) or "" if remote is None else remote, tuple(cleared))


def state_remote(repo: git.Repo, settings: Settings) -> str | None:
    """The remote the state branch is pushed to, None when that cannot be told (then nothing is taken as theirs)."""
    from vibegit.infra import remote

    try:
        return remote.state_remote(repo, settings)
    except BadInput:
        return None


def _is_snapshot_root(path: str) -> bool:
    """Where store.snapshots finds a snapshot: ``snapshot`` at the root, or ``workflows/<id>/snapshot``."""
    return path == "snapshot" or (path.startswith("workflows/") and path.count("/") == 2 and path.endswith("/snapshot"))


def _listing(repo: git.Repo, cat: git.CatFile, tip: str, have: Theirs) -> Iterator[tuple[str, bytes | None]]:
    """What pushing ``tip`` would make reachable on a remote that has
    ``have``, whatever the commits hold, as git lists it (``rev-list
    --objects``), each object once, read as it comes: the commits first
    (oldest first, path None), then each tree and blob with the path git met
    it at (cut at a newline, if any). The tip is looked for first (a
    listing ignores what is missing)."""
    _tip_here(cat, tip)
    listed = _listed(have, "--topo-order", "--reverse")
    return _lines(git.fields(repo, "rev-list", *listed, sep=b"\n", input=have.stdin(tip)))


def _listed(have: Theirs, *order: str) -> list[str]:
    """rev-list's arguments for what pushing the tip on its standard input
    would make reachable; ``order``: its options of order (none: as git
    walks, the first line at once, where an order waits for the whole walk)."""
    return [
        "--objects",
        "--objects-edge-aggressive",  # the trees of all that is theirs, not only of the history's edges
        *order,
        "--stdin",
        *have.args(),  # what is missing is ignored: a commit of theirs not here (the tip is looked for first)
    ]


def _tip_here(cat: git.CatFile, tip: str) -> None:
    if cat.get(tip) is None:
        raise GitError(f"commit {tip[:12]} is missing; run 'vibegit doctor'")


def _lines(listed: Iterator[list[bytes]]) -> Iterator[tuple[str, bytes | None]]:
    for group in listed:
        for line in group:
            oid, space, path = line.partition(b" ")
            if oid and not oid.startswith(b"-"):  # "-<id>": an edge, a commit of theirs
                yield oid.decode(), path if space else None


def new_content(repo: git.Repo, cat: git.CatFile, tip: str, have: Theirs) -> Scope:
    """``_listing`` whole, each object placed: in a snapshot (by where git
    first met it), else in the state's own files."""
    commits: list[str] = []
    blobs: list[Blob] = []
    snapshots: list[str] = []
    roots: dict[str, None] = {}
    root, snap = "", ""  # the snapshot being listed: its path and tree
    paths: dict[bytes, str] = {}  # the same paths recur in every commit: one string each
    for oid, raw in _listing(repo, cat, tip, have):
        if raw is None:
            commits.append(oid)
            continue
        path = paths.get(raw)
        if path is None:
            path = paths[raw] = raw.decode(errors="surrogateescape")
        if _is_snapshot_root(path):
            root, snap = path + "/", oid
            snapshots.append(snap)
            roots[path] = None
            blobs.append(Blob(snap, "", "snapshot", snap))
        elif root and path.startswith(root):
            blobs.append(Blob(oid, path[len(root) :], "snapshot", snap))
        else:
            blobs.append(Blob(oid, path, "state"))
    return Scope(commits, blobs, snapshots, roots)


SMALL = 1 << 18  # a text up to this size is scanned with others (read in one piece); bigger ones alone
GROUP = 1 << 18  # bytes scanned at once
PIPE = 1 << 20  # cat-file's output pipe: git reads and inflates that far ahead while the rules run


class _Names:
    """The names of trees' entries, scanned many at once (a name a line),
    each distinct name once: the trees whose names are all clean go to
    ``clean``, the others into ``flagged`` with their names' hits, and the
    ones that are no tree (no entry read) into ``unreadable``. A group of
    trees is read in one look (rev-list read each whole when it listed it:
    their contents end to end are a run of entries), each alone only when
    that does not hold or a name has hits."""

    def __init__(self, clean: Callable[[list[str]], None]) -> None:
        self.clean = clean
        self.flagged: dict[str, list[tuple[str, list[credentials.Hit]]]] = {}  # tree: (name, hits) of each
        self.unreadable: list[str] = []
        self._known: dict[bytes, list[credentials.Hit]] = {}  # every name scanned: its hits (most: none)
        self._bad: set[bytes] = set()  # the names with hits
        self._trees: list[tuple[str, bytes]] = []  # (tree, its content), waiting
        self._size = 0

    def add(self, tree: str, data: bytes) -> None:
        self._trees.append((tree, data))
        self._size += len(data)
        if self._size > GROUP or len(self._trees) >= scanned.LINE:
            self.flush()

    def flush(self) -> None:
        if not self._trees:
            return
        width = len(self._trees[0][0]) // 2  # an id's bytes
        whole = b"".join(data for _, data in self._trees)
        entries = _tree_entry(width).findall(whole)  # "<mode> <name>" of each
        each: dict[str, list[bytes]] | None = None  # the names of each tree, once read alone
        if sum(map(len, entries)) + (width + 1) * len(entries) == len(whole):
            names = dict.fromkeys(entry.partition(b" ")[2] for entry in dict.fromkeys(entries))
        else:  # not one run of entries: each tree alone
            read = {tree: _names(data, width) for tree, data in self._trees}
            self.unreadable += [tree for tree, found in read.items() if found is None]
            each = {tree: found for tree, found in read.items() if found is not None}
            names = dict.fromkeys(name for found in each.values() for name in found)
        self._scan([name for name in names if name not in self._known])
        trees = [tree for tree, _ in self._trees if each is None or tree in each]
        if not self._bad:  # most scans: every name clean
            self.clean(trees)
        else:
            if each is None:
                each = {tree: _names(data, width) or [] for tree, data in self._trees}
            clean = []
            for tree in trees:
                hits = [(n.decode(errors="surrogateescape"), self._known[n]) for n in each[tree] if n in self._bad]
                if hits:
                    self.flagged[tree] = hits
                else:
                    clean.append(tree)
            self.clean(clean)
        self._trees, self._size = [], 0

    def look(self, raw: list[bytes]) -> bool:
        """Whether one of ``raw``, scanned as a name is, has hits (each remembered as a name's)."""
        self._scan([name for name in dict.fromkeys(raw) if name not in self._known])
        return any(name in self._bad for name in raw)

    def _scan(self, raw: list[bytes]) -> None:
        """Scan the names not met before, a name a line; those with hits go to ``_bad``."""
        new = [name.decode(errors="surrogateescape") for name in raw]
        starts, at = [], 0
        for name in new:
            starts.append(at)
            at += len(name) + 1
        none: list[credentials.Hit] = []
        self._known.update(dict.fromkeys(raw, none))
        if new:
            for h in credentials.find("\n".join(n.replace("\n", " ") for n in new)):  # a name is one line
                first = starts[h.line - 1]
                hit = h._replace(line=0, start=h.start - first, end=h.end - first)
                self._known[raw[h.line - 1]] = [*self._known[raw[h.line - 1]], hit]
                self._bad.add(raw[h.line - 1])


LFS_POINTER = b"version https://git-lfs.github.com/spec/v1\n"  # a git-lfs pointer's first line (its spec)
_LFS_OID = re.compile(rb"^oid sha256:([0-9a-f]{64})$", re.M)


class LfsStore:
    """Where git-lfs keeps the content its pointers name, here: what its own
    pre-push hook uploads when a push sends a pointer (the state's push
    included: a snapshot of an LFS-tracked file holds its pointer). Asked of
    ``git lfs env`` the first time a pointer is met; without git-lfs, its
    default place (``<git common dir>/lfs/objects``)."""

    def __init__(self, repo: git.Repo) -> None:
        self.repo = repo
        self._dir: Path | None = None

    def content(self, pointer: bytes) -> Path | None:
        """The file of the content ``pointer`` names; None when it is not a
        pointer, or the content is not here (nothing git-lfs could upload)."""
        found = _LFS_OID.search(pointer) if pointer.startswith(LFS_POINTER) and len(pointer) < 1024 else None
        if found is None:
            return None
        oid = found.group(1).decode()
        path = self.media() / oid[:2] / oid[2:4] / oid
        return path if os.path.lexists(path) else None

    def media(self) -> Path:
        if self._dir is None:
            from pathlib import Path  # here: only once a git-lfs pointer is met

            proc = self.repo.git("lfs", "env", check=False)
            lines = git.text(proc.stdout).splitlines() if not proc.returncode else []
            where = next((line.partition("=")[2] for line in lines if line.startswith("LocalMediaDir=")), "")
            self._dir = Path(where) if os.path.isabs(where) else Path(self.repo.common_dir) / "lfs" / "objects"
        return self._dir


def _lfs_pieces(path: Path) -> Iterator[bytes]:
    """The content of a git-lfs object, a MiB at a time (a link is not followed)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as f:
        while piece := f.read(1 << 20):
            yield piece


def _scan_blobs(
    answers: Iterable[tuple[str, git.Answer | None]],
    names: _Names | None = None,
    clean: Callable[[list[str]], None] | None = None,
    lfs: LfsStore | None = None,
) -> dict[str, list[credentials.Hit] | None]:
    """The hits in each blob that has some (None: it could not be read as one; a
    clean blob is not in the answer, and goes to ``clean``, a group at a
    time), ``answers`` being what cat-file answered for each id, as they
    come (from a git process still listing them); a big one is streamed a
    window at a time, small ones are scanned in groups of about ``GROUP``
    bytes. On a big scan a second process takes some of those pieces
    (scansplit): the same hits, in the same order. A group's blobs are
    forgotten once its hits are in (memory: a first sync reads tens of
    thousands). A commit's message is scanned as a blob is. With ``names``,
    a tree is read too: its entries' names go there. With ``lfs``, the
    content a git-lfs pointer names is scanned too, streamed, its hits the
    pointer's (an unreadable one: None)."""
    scanned: dict[str, list[credentials.Hit] | None] = {}
    streamed: list[tuple[str, list[list[credentials.Hit]]]] = []  # a blob's hits window by window
    group: list[tuple[list[credentials.Hit], bytes]] = []
    members: list[tuple[str, list[credentials.Hit]]] = []  # the group's blobs: (oid, its hits)
    settling: deque[tuple[int, list[tuple[str, list[credentials.Hit]]]]] = deque()  # (ticket, members) per group
    pointers: set[str] = set()  # git-lfs pointers whose content is scanned too: clean only when both are
    size = 0

    with scansplit.Split() as split:

        def settle(every: bool = False) -> None:
            """Keep the hits of each group whose hits are all in."""
            while settling and (every or settling[0][0] <= split.answered):
                settled = settling.popleft()[1]
                scanned.update((oid, hits) for oid, hits in settled if hits)
                if clean is not None:
                    clean([oid for oid, hits in settled if not hits and oid not in pointers])

        for oid, found in answers:
            if found is not None and found[0] == "tree" and names is not None:
                names.add(oid, b"".join(found[3]))
                continue
            if found is not None and found[0] == "commit":  # its message is text too, scanned as a blob's
                message = b"".join(found[3]).partition(b"\n\n")[2]
                found = (found[0], oid, len(message), iter((message,)))
            elif found is None or found[0] not in ("blob", "tag"):  # an annotated tag's message is text too
                scanned[oid] = None
                continue
            if found[2] > SMALL:
                streamed.append((oid, []))
                for window in credentials.windows(credentials.decode_stream(found[3])):
                    split.window(window, streamed[-1][1])
                continue
            data = b"".join(found[3])  # one piece: decoded as decode_stream would
            if group and size + len(data) > GROUP:
                settling.append((split.group(group), members))
                settle()
                group, members, size = [], [], 0
            hits: list[credentials.Hit] = []
            group.append((hits, data))
            members.append((oid, hits))
            size += len(data) + 1
            pointer = lfs is not None and found[0] != "commit" and data.startswith(LFS_POINTER)
            content = lfs.content(data) if lfs is not None and pointer else None
            if content is not None:
                pointers.add(oid)
                streamed.append((oid, []))
                try:
                    for window in credentials.windows(credentials.decode_stream(_lfs_pieces(content))):
                        split.window(window, streamed[-1][1])
                except OSError:
                    scanned[oid] = None  # git-lfs could not upload it either; never taken as clean
        if group:
            settling.append((split.group(group), members))
        split.finish()
        settle(every=True)
    for oid, parts in streamed:
        if oid in scanned and scanned[oid] is None:
            continue  # unreadable
        if any(parts):
            scanned[oid] = [*(scanned.get(oid) or []), *(hit for part in parts for hit in part)]
        elif clean is not None and oid not in scanned:
            clean([oid])
    if names is not None:
        names.flush()
        scanned.update(dict.fromkeys(names.unreadable))  # (None: no tree could be read in it)
    return scanned


_ENTRIES: dict[int, re.Pattern[bytes]] = {}


def _tree_entry(width: int) -> re.Pattern[bytes]:
    """A tree entry, its mode and name captured as one (``width``: the bytes of an object id)."""
    pattern = _ENTRIES.get(width)
    if pattern is None:
        pattern = _ENTRIES[width] = re.compile(rb"([0-7]{5,6} [^\0]*)\0[\s\S]{%d}" % width)
    return pattern


def _names(data: bytes, width: int) -> list[bytes] | None:
    """The names of a tree's entries (``width``: the bytes of an object id);
    None when it is not a tree (git read it whole when it listed it)."""
    found = [entry.partition(b" ")[2] for entry in _tree_entry(width).findall(data)]
    return found if found or not data else None


def _entries(cat: git.CatFile, tree: str) -> list[tuple[str, str, bool]]:
    """(name, oid, a tree) of each entry of ``tree`` (none when it cannot be read)."""
    found = cat.get(tree)
    if found is None or found[0] != "tree":
        return []
    return _parse_entries(found[2], len(tree) // 2)


def _parse_entries(data: bytes, width: int) -> list[tuple[str, str, bool]]:
    """(name, oid, a tree) of each entry of a tree's content, as far as it can be read."""
    at: int = 0
    out: list[tuple[str, str, bool]] = []
    while at < len(data):
        nul = data.find(b"\0", at)
        if nul < 0 or nul + 1 + width > len(data):
            break
        mode, _, name = data[at:nul].partition(b" ")
        out.append((name.decode(errors="surrogateescape"), data[nul + 1 : nul + 1 + width].hex(), mode == b"40000"))
        at = nul + 1 + width
    return out


def _places(cat: git.CatFile, roots: list[str], new: set[str], wanted: set[str]) -> dict[str, list[tuple[str, str]]]:
    """Where each of ``wanted`` (blobs and trees) stands in the snapshot trees
    ``roots``: (snapshot, path) pairs, every one (a flagged file is left out
    of each snapshot that carries it). Only trees in ``new`` can hold what is
    new: the others are not read."""
    found: dict[str, list[tuple[str, str]]] = {}
    for root in roots:
        todo = [(root, "")]
        while todo:
            tree, prefix = todo.pop()
            if tree in wanted:
                found.setdefault(tree, []).append((root, prefix.rstrip("/")))
            for name, oid, is_tree in _entries(cat, tree):
                if is_tree:
                    if oid in new:
                        todo.append((oid, f"{prefix}{name}/"))
                elif oid in wanted:
                    found.setdefault(oid, []).append((root, prefix + name))
    return found


class _Record:
    """Objects scanned clean, made into the record's lines (scanned.py) as
    they come (a line takes less memory than its ids), written once the scan
    has finished: a scan that fails takes nothing as clean."""

    def __init__(self) -> None:
        self.waiting: list[str] = []
        self.lines: list[bytes] = []

    def __call__(self, oids: list[str]) -> None:
        self.waiting += oids
        if len(self.waiting) >= scanned.LINE:
            self.lines += scanned.lines(self.waiting)
            self.waiting = []

    def write(self, repo: git.Repo) -> None:
        scanned.append(repo, self.lines + scanned.lines(self.waiting))
        self.waiting, self.lines = [], []


def scan(
    repo: git.Repo,
    settings: Settings,
    tip: str | None = None,
    allowed: frozenset[str] | None = None,
    cleared: Sequence[str] = (),
    remote: str | None = None,
) -> list[Finding]:
    """Credentials in what pushing the state branch (or ``tip``) to ``remote``
    (a name; None: the state's remote; "": one known to have nothing but
    ``cleared``) would publish that the remote
    does not have (``Theirs``): every blob and every name in a tree it would
    reach for the first time, and every commit message, whatever commit they
    come from (a snapshot carries the user's files, committed or not, and a
    commit never pushed is new there). ``cleared``: commits taken as the
    remote's: those this very push gives it, or that a scan found nothing to
    refuse in (with what the remote had then, all of which it still has).
    What is read clean is recorded (scanned.py) and never read again."""
    tip = tip or git.resolve(repo, settings.state_ref)
    if not tip:
        return []
    have = theirs(repo, settings, remote, cleared)
    allowed = allowlist(repo) if allowed is None else allowed
    clean = scanned.load(repo)  # what an earlier scan read and found nothing in
    record = _Record()
    names = _Names(record)
    commits: list[str] = []
    with git.CatFile(repo) as cat:  # its own reader, for the tip and the findings' places
        _tip_here(cat, tip)

        def objects() -> Iterator[tuple[str, git.Answer | None]]:
            """What rev-list lists as it walks (newest first), read by a cat-file it feeds (edges left
            out): the commits first, each scanned (its message), recorded or not; after ``MANY``
            of them, the rest as ``_diffed`` lists it."""
            listing = _new(repo, have, tip, clean)
            for oid, found in listing:
                if found is not None and found[0] == "commit":
                    commits.append(oid)
                elif len(commits) >= MANY:  # rev-list shows every commit before any tree or blob: all are in
                    listing.close()
                    yield from _diffed(repo, have, tip, commits, clean, names)
                    return
                yield oid, found

        hits_in = _scan_blobs(objects(), names, record, LfsStore(repo))
        in_messages = {commit: hits_in.pop(commit) or [] for commit in commits if commit in hits_in}
        record.write(repo)
        flagged = {oid: _unallowed(hits, allowed) if hits is not None else None for oid, hits in hits_in.items()}
        flagged = {oid: hits for oid, hits in flagged.items() if hits is None or hits}
        named = {
            tree: [(name, kept) for name, hits in entries if (kept := _unallowed(hits, allowed))]
            for tree, entries in names.flagged.items()
        }
        named = {tree: entries for tree, entries in named.items() if entries}
        findings = _placed(repo, cat, tip, have, flagged, named) if flagged or named else []
    for commit in reversed(commits):  # the oldest first
        for h in _unallowed(in_messages.get(commit, []), allowed):
            findings.append(Finding("", h.line, h.kind, h.fingerprint, "message", commit))
    return findings


_FILTER = "--filter=object:type={}"  # git 2.32 and later
MANY = 256  # new commits from which a scan reads their trees' names from git's diff of them (_diffed)
_DIFF_TREE = ["diff-tree", "--stdin", "-m", "-r", "-t", "-z", "--name-only", "--no-renames", "--root", "--no-commit-id"]


def _diffed(
    repo: git.Repo, have: Theirs, tip: str, commits: list[str], clean: dict[str, None], names: _Names
) -> Iterator[tuple[str, git.Answer | None]]:
    """After ``commits`` (scanned), the rest of what pushing ``tip`` would
    publish, without reading every new tree: the blobs (and a tag given)
    listed alone (rev-list's object:type filter), while ``diff-tree`` lists
    the paths each commit changes (a tree's own path included; against each
    parent; a root's every path); then the trees, only when a name on those
    paths may look like a credential (``_Names.look``; read, they are scanned
    as ever). Exact: each name in a new tree is on a path its commit
    changes, or stands where it stood in its first parent (new: its own
    paths; else the remote's, published). A git without the filter (before
    2.32) fails before it lists: then everything is listed as before."""
    listed = False
    with git.background_fields(
        repo, _DIFF_TREE, input="".join(f"{c}\n" for c in commits).encode(), unasked=True
    ) as paths:
        try:
            for oid, found in _new(repo, have, tip, clean, "blob"):
                listed = True
                if found[0] != "commit":  # the tip, given, is listed whatever its kind
                    yield oid, found
        except GitError:
            if listed:
                raise
            yield from ((oid, found) for oid, found in _new(repo, have, tip, clean) if found[0] != "commit")
            return
        if names.look(_suffixes(paths())):
            yield from ((oid, found) for oid, found in _new(repo, have, tip, clean, "tree") if found[0] == "tree")


def _new(
    repo: git.Repo, have: Theirs, tip: str, clean: dict[str, None], kind: str = ""
) -> Generator[tuple[str, git.Answer], None, None]:
    """What pushing ``tip`` would publish (``kind``: the objects of that kind
    alone, and ``tip``), as rev-list lists it and cat-file reads it: every
    commit, and the rest but what is recorded clean (and the edges, "-<id>":
    commits of theirs)."""
    args = [_FILTER.format(kind), *_listed(have)] if kind else _listed(have)
    for oid, found in git.listing(repo, args, have.stdin(tip), pipe=PIPE):
        if found is not None and (found[0] == "commit" or oid not in clean):
            yield oid, found


def _suffixes(listed: Iterable[list[bytes]]) -> list[bytes]:
    """Each distinct path ``diff-tree -z --name-only`` lists, and each of its
    ends after a slash: a name in a tree is one of them whole, though it
    hold a slash itself (a tree git would not write)."""
    found: dict[bytes, None] = {}
    for path in {path: None for group in listed for path in group}:
        at = 0
        while True:
            found[path[at:]] = None
            at = path.find(b"/", at) + 1
            if not at:
                break
    found.pop(b"", None)
    return list(found)


def _unallowed(hits: list[credentials.Hit], allowed: frozenset[str]) -> list[credentials.Hit]:
    return [h for h in hits if h.fingerprint not in allowed]


def _placed(
    repo: git.Repo,
    cat: git.CatFile,
    tip: str,
    have: Theirs,
    flagged: dict[str, list[credentials.Hit] | None],
    named: dict[str, list[tuple[str, list[credentials.Hit]]]],
) -> list[Finding]:
    """The findings of the objects ``flagged`` (their hits; None: unreadable)
    and of the trees ``named`` (their names that look like credentials),
    placed where git meets them (listed again, whole: rare), a snapshot's in
    every new snapshot that carries it (redaction leaves it out of each)."""
    scope = new_content(repo, cat, tip, have)
    wanted = {b.oid for b in scope.blobs if b.source == "snapshot" and (b.oid in flagged or b.oid in named)}
    places = _places(cat, scope.snapshots, {b.oid for b in scope.blobs}, wanted) if wanted else {}
    findings: list[Finding] = []
    for blob in scope.blobs:
        if blob.oid not in flagged and blob.oid not in named:
            continue
        hits = flagged.get(blob.oid, [])
        if hits is None:
            findings.append(
                Finding(blob.path, 0, "an object that could not be read", "-", blob.source, blob.oid, blob.snapshot)
            )
            continue
        for snap, path in places.get(blob.oid) or [(blob.snapshot, blob.path)]:
            for h in hits:
                findings.append(Finding(path, h.line, h.kind, h.fingerprint, blob.source, blob.oid, snap))
            for name, found in named.get(blob.oid, []):
                entry = f"{path}/{name}" if path else name
                shown = credentials.redact(name, found)  # the value is never printed
                shown = f"{path}/{shown}" if path else shown
                for h in found:
                    findings.append(Finding(shown, 0, h.kind, h.fingerprint, blob.source, blob.oid, snap, entry=entry))
    named_here = [f for f in findings if f.entry]
    if named_here:  # a name in a new tree may stand there in what the remote has: that one is theirs already
        theirs = _published(cat, have.tips(repo), {f.entry: _state_paths(f, scope.roots) for f in named_here})
        findings = [f for f in findings if f.entry not in theirs]
    return findings


def _state_paths(f: Finding, roots: dict[str, None]) -> list[str]:
    """Where a flagged name's path stands in a commit the remote may have: a
    snapshot's in the user's commits and in each snapshot of the state; the
    state's own at its place."""
    if f.source != "snapshot":
        return [f.entry]
    return [f.entry, *(f"{root}/{f.entry}" for root in roots)]


def _published(cat: git.CatFile, tips: list[str], paths: dict[str, list[str]]) -> set[str]:
    """Those of ``paths`` (each with the paths it may stand at) that one of
    ``tips`` holds (asked only when a name was flagged: rare)."""
    asked = [(entry, f"{tip}:{where}") for entry, wheres in paths.items() for where in wheres for tip in tips]
    return {entry for (entry, _), found in zip(asked, cat.each(rev for _, rev in asked), strict=True) if found}


# A state commit's root, as store writes it (format 2) or wrote it (format 1): these names are
# store's own (FORMAT_FILE, SESSION, LOCK; a test holds them equal), not imported: the pre-push hook
# asks here on every push, and the state model costs milliseconds to load.
STATE_ROOT = "session.yaml"
STATE_ROOT_ANY = ("format", "workflow.lock")


def _is_state_root(entries: list[tuple[str, str, bool]]) -> bool:
    names = {name for name, _, is_tree in entries if not is_tree}
    return STATE_ROOT in names and any(name in names for name in STATE_ROOT_ANY)


def carrying_state(repo: git.Repo, cat: git.CatFile, sent: Sequence[str], have: Theirs) -> list[str]:
    """Those of ``sent`` (what a push sends) that are a state commit or
    reach one a remote with ``have`` does not have, whatever their names:
    ``vibegit/state`` under another name, ``vibegit/state~0``, an id, a
    branch that merged it. A state commit is told by its root (a state
    tree), not by the ref it came from. Costs what is new: one ``git
    log`` of the commits the push sends and one look at each one's root."""
    wanted = [oid for oid in dict.fromkeys(sent) if git.is_oid(oid)]
    if not wanted:
        return []
    listed = git.fields(repo, "log", "--format=%H %T %P", "--stdin", *have.args(), sep=b"\n", input=have.stdin(*wanted))
    parents: dict[str, list[str]] = {}
    trees: dict[str, str] = {}
    for group in listed:
        for line in group:
            ids = line.decode().split()
            if len(ids) >= 2:
                trees[ids[0]] = ids[1]
                parents[ids[0]] = ids[2:]
    if not trees:
        return []
    state = {
        commit
        for commit, found in zip(trees, cat.get_many(trees.values()), strict=True)
        if found is not None and found[0] == "tree" and _is_state_root(_parse_entries(found[2], len(commit) // 2))
    }
    if not state:
        return []
    found = []
    for tip in wanted:
        peeled = cat.get(f"{tip}^{{commit}}") if tip not in trees else ("commit", tip, b"")  # a tag: its commit
        todo, seen = [peeled[1]] if peeled is not None else [], set()
        while todo:
            commit = todo.pop()
            if commit in seen or commit not in trees:
                continue
            if commit in state:
                found.append(tip)
                break
            seen.add(commit)
            todo += parents[commit]
    return found


def refusal(findings: list[Finding], settings: Settings, limit: int = 20, pushing: bool = True) -> str:
    """The refusal: each finding's place and fingerprint, and what to do
    (``pushing``: a push was refused; else ``secrets check`` lists them, no push asked)."""
    lines = list(
        dict.fromkeys(
            t("secrets.finding", where=f.where(settings), kind=f.kind, what=f.what, fingerprint=f.fingerprint)
            for f in findings
        )
    )
    shown = len(lines)  # one line per place: a file in several snapshots is listed once
    if shown > limit:
        lines = [*lines[:limit], t("secrets.more", n=shown - limit)]
    head = t("secrets.refusal" if pushing else "secrets.found", branch=settings.state_branch, n=shown)
    how = (t("secrets.nothing_pushed") if pushing else "") + t("secrets.refusal_how", file=ALLOW_FILE)
    return head + "\n  " + "\n  ".join(lines) + "\n" + how


def check(repo: git.Repo, settings: Settings, tip: str, have: Theirs) -> str | None:
    """For the pre-push hook: the refusal text for pushing ``tip`` to a remote
    that has ``have`` (what it is known to have, and the user's own branches
    this push sends it), or None when it may go."""
    findings = scan(repo, settings, tip, cleared=have.commits, remote=have.remote)
    return refusal(findings, settings) if findings else None


# -- redaction: take them out of what was never pushed ----------------------------------


class Redaction(NamedTuple):
    tip: str  # the rewritten tip
    values: int  # values replaced in the state's own text and messages
    withheld: list[str]  # snapshot files left out, with why
    places: list[str]  # trailer lines for the redact event


def _commits(repo: git.Repo, tip: str, have: Theirs) -> list[str]:
    """The commits pushing ``tip`` to a remote that has ``have`` would publish, oldest first."""
    listed = git.fields(
        repo, "rev-list", "--topo-order", "--reverse", "--stdin", *have.args(), sep=b"\n", input=have.stdin(tip)
    )
    return [line.decode() for group in listed for line in group if line]


def _files_under(repo: git.Repo, tree: str, paths: list[str]) -> list[str]:
    """The files of ``tree`` at or under each of ``paths`` (a flagged name may be a directory's)."""
    if not paths:
        return []
    raw = repo.git("ls-tree", "-r", "-z", "--name-only", "--full-tree", tree, "--", *paths).stdout
    return [p for p in raw.decode(errors="surrogateescape").split("\0") if p]


def _had(repo: git.Repo, base: str, paths: list[str], have: Theirs) -> set[str]:
    """The blobs at ``paths`` in the tree ``base`` that a remote with ``have`` already has
    (what a redacted snapshot may put back there)."""
    raw = repo.git("ls-tree", "-z", "--full-tree", base, "--", *paths).stdout.decode(errors="surrogateescape")
    blobs = {item.partition("\t")[0].split(" ")[-1] for item in raw.split("\0") if item}
    if not blobs:
        return set()
    listed = git.fields(
        repo,
        "rev-list",
        "--objects",
        "--no-object-names",
        "--objects-edge-aggressive",  # their commits' trees, though no commit is asked here
        "--stdin",
        *have.args(),
        sep=b"\n",
        input=have.stdin(*blobs),
    )
    return blobs - {line.decode() for group in listed for line in group if line and not line.startswith(b"-")}


def _tree_blobs(repo: git.Repo, cat: git.CatFile, tree: str, prefix: str, skip: set[str]) -> Iterator[tuple[str, str]]:
    """(blob, path) of every file of ``tree`` but those under ``skip`` (redaction: which state files a commit holds)."""
    found = cat.get(tree)
    if found is None or found[0] != "tree":
        raise GitError(f"tree {tree[:12]} is missing; run 'vibegit doctor'")
    for e in git.parse_tree(repo, found[2]):
        path = prefix + e.name
        if path in skip:
            continue
        if e.mode == "40000":
            yield from _tree_blobs(repo, cat, e.oid, path + "/", skip)
        elif e.mode != "160000":
            yield e.oid, path


def _put_back(theirs: set[str], named: set[str]) -> Callable[[str, str], bool]:
    """Whether a redacted snapshot may put back the base's version of a path:
    only what the remote has, never under a flagged name."""

    def keep(path: str, oid: str) -> bool:
        return oid in theirs and path not in named

    return keep


def _withheld_note(findings: list[Finding]) -> str:
    said = ", ".join(f"{f.kind} in its name" if f.entry else f"{f.kind} on line {f.line}" for f in findings[:5])
    return f"{findings[0].path}: looked like a credential ({said}); left out by 'vibegit sync --redact'"


def rewrite(
    repo: git.Repo, settings: Settings, tip: str, findings: list[Finding], remote: str | None = None
) -> Redaction:
    """Copies of the state commits ``remote`` (as ``scan``) does not have
    without ``findings``: a flagged snapshot file (or a file under a flagged
    name) is left out of the snapshot: its version in the checkpoint's commit
    stands there instead when the remote has that version, else nothing, so a
    resume elsewhere leaves that file alone and says why; a value in the
    state's own text is replaced by [REDACTED] field by field, so every state
    file still parses; messages likewise. Same authors, parents mapped. The
    user's files are not touched."""
    from vibegit.core.records import replace
    from vibegit.infra import snapshot, store

    allowed = allowlist(repo)
    by_snap: dict[str, dict[str, list[Finding]]] = {}  # snapshot: path (a flagged name's: its entry): findings
    for f in findings:
        if f.source == "snapshot":
            by_snap.setdefault(f.snapshot, {}).setdefault(f.entry or f.path, []).append(f)
    flagged_state = {f.oid for f in findings if f.source == "state"}
    flagged_messages = {f.oid for f in findings if f.source == "message"}
    have = theirs(repo, settings, remote)
    commits = _commits(repo, tip, have)
    mapped: dict[str, str] = {}
    new_snaps: dict[str, str] = {}
    count = 0
    withheld: dict[str, str] = {}  # the note of each path left out, by the path findings name

    def clean(text: str, values: set[str]) -> str:
        nonlocal count
        hits = [h for h in credentials.find(text) if h.fingerprint not in allowed]
        count += len(hits)
        text = credentials.redact(text, hits)
        for v in values:
            if v in text:
                count += text.count(v)
                text = text.replace(v, credentials.REDACTED)
        return text

    with git.CatFile(repo) as cat:
        values: set[str] = set()
        for oid in flagged_state:
            found = cat.get(oid)
            if found is not None:
                hits = credentials.find(credentials.decode(found[2]))
                values.update(h.value for h in hits if h.fingerprint not in allowed and len(h.value) >= 4)
        for commit in commits:
            found = cat.get(commit)
            if found is None or found[0] != "commit":
                raise GitError(f"commit {commit[:12]} is missing; run 'vibegit doctor'")
            head, _, message = found[2].decode(errors="surrogateescape").partition("\n\n")
            snaps = store.snapshots(repo, cat, commit)
            trees: dict[str, str] = {}
            for s in snaps:
                if s.tree not in by_snap:
                    continue
                if s.tree not in new_snaps:
                    paths = by_snap[s.tree]
                    named = _files_under(repo, s.tree, [p for p, fs in paths.items() if fs[0].entry])
                    files = sorted({*named, *(p for p, fs in paths.items() if not fs[0].entry)})
                    base = git.tree_of(repo, s.base)
                    back = _had(repo, base, [f for f in files if f not in named], have) if base else set()
                    new_snaps[s.tree] = snapshot.without(repo, s.tree, base, files, _put_back(back, set(named)))
                    for path, fs in paths.items():
                        withheld[path] = _withheld_note(fs)
                trees[s.path] = new_snaps[s.tree]
            state_blobs = dict(_tree_blobs(repo, cat, f"{commit}^{{tree}}", "", {s.path for s in snaps}))
            tree = git.resolve(repo, f"{commit}^{{tree}}") or ""
            if trees or flagged_state & set(state_blobs):

                def fix(state: State) -> State:
                    state = credentials.map_text(state, lambda text: clean(text, values))
                    k = state.checkpoint
                    if k is not None and k.snapshot in new_snaps:
                        gone = [withheld[path] for path in by_snap[k.snapshot]]
                        k = credentials.with_withheld(replace(k, snapshot=new_snaps[k.snapshot]), gone)
                        state = replace(state, checkpoint=k)
                    return state

                loaded = store.load_commit(repo, cat, commit, f"{settings.state_branch}@{commit[:10]}:")
                tree = store.rewritten(repo, cat, loaded, fix, new_snaps, flagged_state)
            headers = []
            for h in head.split("\n"):
                key, _, value = h.partition(" ")
                if key == "tree":
                    headers.append(f"tree {tree}")
                elif key == "parent":
                    headers.append(f"parent {mapped.get(value, value)}")
                elif key in ("author", "committer"):
                    headers.append(h)
                # other headers (signatures) no longer hold for the new content
            if commit in flagged_messages:
                message = clean(message, set())
            body = "\n".join(headers) + "\n\n" + message
            mapped[commit] = git.write_object(repo, "commit", body.encode(errors="surrogateescape"))
    places = [f"Vibegit-Redacted: {f.where(settings)} ({f.kind})" for f in findings if f.source != "snapshot"]
    shown = {f.entry or f.path: f.path for f in findings}  # a flagged name is never written out
    places += [f"Vibegit-Withheld: {shown.get(path, path)}" for path in withheld]
    return Redaction(mapped.get(tip, tip), count, list(withheld.values()), places)
