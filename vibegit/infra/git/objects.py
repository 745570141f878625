"""The object database: read through one ``git cat-file --batch`` per
command and thread (``CatFile``, ``reader``), written straight into the
object store with no process per object (``write_object``, as git-revise
and dulwich do; trees and commits built in memory), and hashed; and the
conversions between objects and working-tree files (filters applied:
``hash_paths``, ``checkout_bytes``), and a three-way merge of texts."""

from __future__ import annotations

import atexit
import os
import time
from _thread import get_ident  # threading's, without its import
from collections.abc import Generator, Iterable, Iterator
from itertools import islice

from vibegit.core.records import NamedTuple
from vibegit.core.text import is_oid
from vibegit.errors import BadInput, GitError
from vibegit.infra.git.process import Identity, Repo, early_for, new_file, run, start, text
from vibegit.infra.gitlite import CAT_FILE, PIPE, grow_pipe

BATCH = 256  # names asked of cat-file at once: two batches' lines fit in a pipe, so asking never blocks
AHEAD_BYTES = 24 << 10  # a batch's lines up to this size are asked while the one before is answered


class TooLarge(BadInput):
    """An object bigger than its reader's bound: its content was skipped, never held whole."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"too large ({size} bytes, at most {limit})")
        self.size = size


KINDS = (b"blob", b"tree", b"commit", b"tag")  # the object types cat-file names in a header


def parse_header(line: bytes, asked: bytes) -> tuple[str, str, int] | None:
    """What ``git cat-file --batch`` answered to the name ``asked``, in one
    header line (as read, its newline included): ``(type, oid, size)`` of the
    object ("<oid> <type> <size>"), or None when the name names none
    ("<asked> missing", "<asked> ambiguous": the name, then one lower-case
    word). Any other line is not its answer to that name, or an answer cut
    short: ValueError. Every reader of the protocol reads its headers here."""
    if line.endswith(b"\n"):
        body = line[:-1]
        oid, _, rest = body.partition(b" ")
        kind, _, size = rest.partition(b" ")
        if kind in KINDS and size.isdigit() and is_oid(oid.decode("ascii", "replace")):
            return kind.decode(), oid.decode(), int(size)
        name, _, word = body.rpartition(b" ")
        if name == asked and word.isalpha() and word.islower():
            return None
    raise ValueError(f"not cat-file's answer to {asked[:60]!r}: {line[:80]!r}")


def _asked(rev: str) -> bytes | None:
    """``rev`` as a line of cat-file's input; None for one no line can ask
    (a newline or a NUL in it, or text that is no path's)."""
    if "\n" in rev or "\0" in rev:
        return None
    try:
        return rev.encode(errors="surrogateescape")  # a path git gave, undecodable bytes and all
    except UnicodeEncodeError:
        return None


class CatFile:
    """One ``git cat-file --batch`` process for every read of an event."""

    def __init__(self, repo: Repo, pipe: int = 0) -> None:
        """``pipe``: the size to ask for git's output pipe (a reader of many
        objects lets git run that far ahead of it; Linux, else ignored)."""
        self._proc = start(CAT_FILE, repo.toplevel, None, early_for(repo), stdin=PIPE, stdout=PIPE)
        if pipe and self._proc.stdout:
            grow_pipe(self._proc.stdout.fileno(), pipe)

    def _header(self, rev: str) -> tuple[str, str, int] | None:
        assert self._proc.stdin
        name = _asked(rev)
        if name is None:
            return None
        self._proc.stdin.write(name + b"\n")
        self._proc.stdin.flush()
        return self._answer(name)

    def _answer(self, name: bytes) -> tuple[str, str, int] | None:
        """The header git answers ``name`` with (``parse_header``); a line that is none is an error."""
        assert self._proc.stdout
        line = self._proc.stdout.readline()
        try:
            return parse_header(line, name)
        except ValueError:
            said = "ended" if not line else f"answered {text(line[:60])!r}"
            raise GitError(f"git cat-file {said} where the header for {text(name[:60])!r} was due") from None

    def get(self, rev: str, limit: int | None = None) -> tuple[str, str, bytes] | None:
        """``(type, oid, content)`` of ``rev``, or None when it is missing;
        ``limit``: a bigger content is skipped, never held, and ``TooLarge`` says so."""
        found = self._header(rev)
        if found is None:
            return None
        assert self._proc.stdout
        if limit is not None and found[2] > limit:
            self._skip(rev, found[2])
            raise TooLarge(found[2], limit)
        data = self._proc.stdout.read(found[2])
        self._proc.stdout.read(1)  # the newline after the content
        return found[0], found[1], data

    def info(self, rev: str) -> tuple[str, str, int] | None:
        """``(type, oid, size)`` of ``rev``, or None when it is missing (its content skipped, never held)."""
        found = self._header(rev)
        if found is not None:
            self._skip(rev, found[2])
        return found

    def _skip(self, rev: str, size: int) -> None:
        """Read past the content being answered, a piece at a time."""
        for _ in self._pieces(rev, [size], 1 << 20):
            pass
        self._read(1)

    def _pieces(self, rev: str, left: list[int], piece: int) -> Iterator[bytes]:
        """The content being answered, ``left[0]`` bytes of it, ``piece`` at a time."""
        while left[0]:
            data = self._read(min(piece, left[0]))
            if not data:
                raise GitError(f"git cat-file ended inside {rev[:12]}")
            left[0] -= len(data)
            yield data

    def _read(self, size: int) -> bytes:
        assert self._proc.stdout
        return self._proc.stdout.read(size)

    def each(
        self, revs: Iterable[str], piece: int = 1 << 20
    ) -> Generator[tuple[str, str, int, Iterator[bytes]] | None, None, None]:
        """Every one of ``revs`` in turn, asked ahead in batches (one round
        trip per batch, not per object): ``(type, oid, size, pieces)``, its
        content read ``piece`` bytes at a time, or None when it is missing.
        What a caller leaves of a content unread is skipped; one that stops
        iterating early closes this reader (its answers are still on the way)."""
        inp = self._proc.stdin
        assert inp
        todo = iter(revs)

        def lines(batch: list[str]) -> bytes:
            return b"".join(name + b"\n" for name in map(_asked, batch) if name is not None)

        def ask(data: bytes) -> int:
            inp.write(data)
            inp.flush()
            return len(data)

        try:
            batch = list(islice(todo, BATCH))
            asked = ask(lines(batch))
            while batch:
                after = list(islice(todo, BATCH))
                data = lines(after)
                ahead = asked <= AHEAD_BYTES and len(data) <= AHEAD_BYTES  # both fit in the pipe: never blocks
                if ahead:  # git answers it while this one is read
                    asked = ask(data)
                for rev in batch:
                    name = _asked(rev)
                    found = self._answer(name) if name is not None else None
                    if found is None:
                        yield None
                        continue
                    if found[2] <= piece:  # one piece: read here, whether the caller takes it or not
                        data = self._read(found[2])
                        if len(data) < found[2]:
                            raise GitError(f"git cat-file ended inside {rev[:12]}")
                        yield found[0], found[1], found[2], iter((data,))
                    else:
                        left = [found[2]]
                        yield found[0], found[1], found[2], self._pieces(rev, left, piece)
                        for _ in self._pieces(rev, left, piece):  # what the caller left unread
                            pass
                    self._read(1)
                if not ahead:
                    asked = ask(data)
                batch = after
        except GeneratorExit:
            if self._proc.stdout:
                self._proc.stdout.close()  # git may be blocked writing what was asked
            self.close()
            raise

    def get_many(self, revs: Iterable[str], limit: int | None = None) -> Iterator[tuple[str, str, bytes] | None]:
        """``get`` of every one of ``revs`` in turn, asked ahead in batches;
        ``limit``: a bigger content is never held, and ``TooLarge`` says so
        (this reader is closed then, its answers still on the way)."""
        answers = self.each(revs)
        try:
            for found in answers:
                if found is not None and limit is not None and found[2] > limit:
                    raise TooLarge(found[2], limit)
                yield None if found is None else (found[0], found[1], b"".join(found[3]))
        finally:
            answers.close()  # now, not when the error's traceback lets go of it: no later read takes its answers

    @property
    def closed(self) -> bool:
        return self._proc.stdin is None or self._proc.stdin.closed

    def close(self) -> None:
        if self._proc.stdout:
            self._proc.stdout.close()  # answers never read (a reader left on an error): git ends, not waits
        if self._proc.stdin:
            self._proc.stdin.close()
        self._proc.wait()

    def __enter__(self) -> CatFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_readers: dict[tuple[int, int, str], CatFile] = {}


def reader(repo: Repo) -> CatFile:
    """This thread's one ``cat-file --batch`` for ``repo``'s worktree. It
    resolves each name when asked, so one serves every read of a command, on
    either side of the store's lock; ``close_readers`` ends them."""
    key = (os.getpid(), get_ident(), str(repo.git_dir))  # a forked child starts its own
    found = _readers.get(key)
    if found is None or found.closed:
        found = _readers[key] = CatFile(repo)
    return found


def close_readers(every_thread: bool = False) -> None:
    """End this thread's readers (all of them at exit)."""
    for key in list(_readers):
        if every_thread or key[:2] == (os.getpid(), get_ident()):
            cat = _readers.pop(key)
            if key[0] == os.getpid():
                cat.close()


atexit.register(close_readers, every_thread=True)


SMALL_OBJECT = 1 << 20  # up to this size a sha1 id is hashed by Python's own module, not OpenSSL's


def _object_id(object_format: str, raw: bytes) -> str:
    """The id of an object (header and content). A state file is small:
    Python's built-in sha1 hashes it, which loads in 0.4 ms where ``hashlib``
    (OpenSSL) takes 3 to 4 ms at start-up; a big content, or sha256, goes to
    ``hashlib`` (about ten times faster per byte)."""
    if object_format == "sha1" and len(raw) <= SMALL_OBJECT:
        try:
            from _sha1 import sha1  # type: ignore[import-not-found]
        except ImportError:  # a Python built without it
            pass
        else:
            return str(sha1(raw).hexdigest())
    import hashlib

    return hashlib.new(object_format, raw).hexdigest()


def blob_id(repo: Repo, data: bytes) -> str:
    """The id ``data`` has as a blob in this repository."""
    return _object_id(repo.object_format, f"blob {len(data)}\0".encode() + data)


def write_object(repo: Repo, kind: str, data: bytes) -> str:
    """Store one loose object and return its id (sha1 or sha256, as the repo)."""
    raw = f"{kind} {len(data)}\0".encode() + data
    oid = _object_id(repo.object_format, raw)
    folder = os.path.join(repo.objects_dir, oid[:2])
    path = os.path.join(folder, oid[2:])
    if os.path.exists(path):
        return oid
    for attempt in range(10):
        # A git gc or repack running meanwhile removes fan-out directories it
        # emptied: make it again. (Removed between mkdir's "exists" and its
        # check that it is a directory, it is a FileExistsError.)
        try:
            _mkdir(folder)
            fd, tmp = new_file(folder, "tmp_obj_")
            break
        except (FileNotFoundError, FileExistsError):
            if attempt == 9:
                raise
    import zlib  # here: a command that only reads (status, the lock check) never loads it

    try:
        with os.fdopen(fd, "wb") as f:
            f.write(zlib.compress(raw, 1))
        os.chmod(tmp, 0o444)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return oid


def _mkdir(path: str) -> None:
    """Make directory ``path`` unless one is there (``Path.mkdir(exist_ok=True)``)."""
    try:
        os.mkdir(path)
    except FileExistsError:
        if not os.path.isdir(path):
            raise


class TreeEntry(NamedTuple):
    mode: str  # "100644", "100755", "120000" or "40000"
    name: str
    oid: str


def write_tree(repo: Repo, entries: Iterable[TreeEntry]) -> str:
    # git orders entries by name, a tree's name compared as if it ended in "/".
    def key(e: TreeEntry) -> bytes:
        return e.name.encode() + (b"/" if e.mode == "40000" else b"")

    body = b"".join(f"{e.mode} {e.name}".encode() + b"\0" + bytes.fromhex(e.oid) for e in sorted(entries, key=key))
    return write_object(repo, "tree", body)


def parse_tree(repo: Repo, data: bytes) -> list[TreeEntry]:
    size = 32 if repo.object_format == "sha256" else 20
    entries: list[TreeEntry] = []
    i = 0
    while i < len(data):
        nul = data.index(b"\0", i)
        mode, _, name = data[i:nul].decode(errors="surrogateescape").partition(" ")
        entries.append(TreeEntry(mode, name, data[nul + 1 : nul + 1 + size].hex()))
        i = nul + 1 + size
    return entries


def git_time() -> str:
    offset = -time.altzone if time.localtime().tm_isdst > 0 else -time.timezone
    sign = "+" if offset >= 0 else "-"
    offset = abs(offset)
    return f"{int(time.time())} {sign}{offset // 3600:02d}{offset % 3600 // 60:02d}"


def write_commit(
    repo: Repo,
    tree: str,
    parents: list[str],
    message: str,
    author: Identity,
    committer: Identity,
) -> str:
    stamp = git_time()
    lines = [f"tree {tree}"]
    lines += [f"parent {p}" for p in parents]
    lines.append(f"author {author.name} <{author.email}> {stamp}")
    lines.append(f"committer {committer.name} <{committer.email}> {stamp}")
    body = "\n".join(lines) + "\n\n" + message.rstrip("\n") + "\n"
    return write_object(repo, "commit", body.encode())


def missing_objects(repo: Repo, rev: str) -> list[str]:
    """Objects ``rev``'s history names that the object store no longer has (a prune that raced a write)."""
    proc = repo.git("rev-list", "--objects", "--missing=print", rev, "--", check=False)
    return [line[1:].split()[0] for line in text(proc.stdout).splitlines() if line.startswith("?")]


def merge_text(base: str, ours: str, theirs: str, there: str = "theirs") -> tuple[str, bool]:
    """Three-way text merge with ``git merge-file``: the text and whether it conflicted."""
    import tempfile  # sync only

    with tempfile.TemporaryDirectory(prefix="vibegit-merge-") as tmp:
        paths = []
        for name, text in (("ours", ours), ("base", base), ("theirs", theirs)):
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write(text if text.endswith("\n") or not text else text + "\n")
            paths.append(path)
        proc = run(["merge-file", "-p", "-L", "here", "-L", "base", "-L", there, *paths], check=False)
        if proc.returncode < 0 or proc.returncode >= 127:
            raise GitError(f"git merge-file failed: {proc.stderr.decode(errors='replace').strip()}")
        return proc.stdout.decode().rstrip("\n"), proc.returncode > 0


def hash_paths(repo: Repo, paths: list[str]) -> dict[str, str]:
    """The blob id each working-tree file would get from ``git add`` (clean
    filters and line endings applied); paths with a newline are left out."""
    plain = [p for p in paths if "\n" not in p]
    if not plain:
        return {}
    proc = repo.git(
        "hash-object", "--stdin-paths", input="".join(f"{p}\n" for p in plain).encode(errors="surrogateescape")
    )
    return dict(zip(plain, proc.stdout.decode().split(), strict=True))


def checkout_bytes(repo: Repo, wanted: list[tuple[str, str]]) -> list[bytes]:
    """The bytes a checkout would write for each ``(blob id, path)``: smudge
    filters and line endings applied, as ``git checkout`` would (one process;
    one each where a filter changed a size: git 2.39's batch header gives the
    size before the filter, git-lfs's smudge for one)."""
    if not wanted:
        return []
    if any("\n" in path for _, path in wanted):  # the batch protocol is one line each
        return _checkout_each(repo, wanted)
    batch = "".join(f"{oid} {path}\n" for oid, path in wanted).encode(errors="surrogateescape")
    out = repo.git("cat-file", "--batch", "--filters", input=batch).stdout
    found: list[bytes] = []
    at = 0
    for oid, _ in wanted:
        end = out.find(b"\n", at) + 1 or len(out)  # just after the header's newline
        try:
            header = parse_header(out[at:end], oid.encode())  # the name before the path: "<oid> missing"
        except ValueError:
            return _checkout_each(repo, wanted)  # the sizes do not add up: a filter changed one
        if header is None:
            raise GitError(f"git cat-file --filters: {oid} missing")
        size = header[2]
        if header[1] != oid or out[end + size : end + size + 1] != b"\n":
            return _checkout_each(repo, wanted)
        found.append(out[end : end + size])
        at = end + size + 1
    return found if at == len(out) else _checkout_each(repo, wanted)


def _checkout_each(repo: Repo, wanted: list[tuple[str, str]]) -> list[bytes]:
    return [repo.git("cat-file", "--filters", f"--path={path}", oid).stdout for oid, path in wanted]
