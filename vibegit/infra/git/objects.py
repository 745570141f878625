"""The object database: read through one ``git cat-file --batch`` per
command and thread (``CatFile``, ``reader``), written straight into the
object store with no process per object (``write_object``, as git-revise
and dulwich do; trees and commits built in memory; an event's objects as
one pack, ``packed``), and hashed; and the
conversions between objects and working-tree files (filters applied:
``hash_paths``, ``checkout_bytes``), and a three-way merge of texts."""

from __future__ import annotations

import atexit
import os
import sys
import time
from _thread import get_ident  # threading's, without its import
from collections.abc import Generator, Iterable, Iterator
from contextlib import contextmanager
from itertools import islice

from vibegit.core.records import NamedTuple
from vibegit.core.text import is_oid
from vibegit.errors import BadInput, GitError
from vibegit.infra.git.process import Done, Identity, Repo, early_for, new_file, reason, run, start, text
from vibegit.infra.gitlite import CAT_FILE, PIPE, grow_pipe

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, BinaryIO

BATCH = 256  # names asked of cat-file at once: two batches' lines fit in a pipe, so asking never blocks
AHEAD_BYTES = 24 << 10  # a batch's lines up to this size are asked while the one before is answered


class TooLarge(BadInput):
    """An object bigger than its reader's bound: its content was skipped, never held whole."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"too large ({size} bytes, at most {limit})")
        self.size = size


KINDS = {kind: kind.decode() for kind in (b"blob", b"tree", b"commit", b"tag")}  # the types cat-file names


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
        if kind in KINDS and size.isdigit() and is_oid(found := oid.decode("ascii", "replace")):
            return KINDS[kind], found, int(size)
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


def _pieces(out: BinaryIO, rev: str, left: list[int], piece: int) -> Iterator[bytes]:
    """The content cat-file is answering on ``out``, ``left[0]`` bytes of it, ``piece`` at a time."""
    while left[0]:
        data = out.read(min(piece, left[0]))
        if not data:
            raise GitError(f"git cat-file ended inside {rev[:12]}")
        left[0] -= len(data)
        yield data


Answer = tuple[str, str, int, Iterator[bytes]]  # (type, oid, size, the content's pieces)


def _whole(out: BinaryIO, rev: str, size: int) -> bytes:
    """A content of ``size`` bytes read from ``out`` in one piece (the answer
    to ``rev``), and past the newline after it."""
    content = out.read(size)
    if len(content) < size or not out.read(1):
        raise GitError(f"git cat-file ended inside {rev[:12]}")
    return content


def _streamed(out: BinaryIO, rev: str, found: tuple[str, str, int], piece: int) -> Iterator[Answer]:
    """The answer whose header was ``found`` (to ``rev``), its content read
    ``piece`` bytes at a time as the caller takes it (what it leaves unread
    is skipped), and past the newline after it."""
    left = [found[2]]
    yield found[0], found[1], found[2], _pieces(out, rev, left, piece)
    for _ in _pieces(out, rev, left, piece):  # what the caller left unread
        pass
    if not out.read(1):
        raise GitError(f"git cat-file ended inside {rev[:12]}")


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
        assert self._proc.stdout
        return _pieces(self._proc.stdout, rev, left, piece)

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
        inp, out = self._proc.stdin, self._proc.stdout
        assert inp and out
        todo = iter(revs)

        def named(batch: list[str]) -> tuple[list[bytes | None], bytes]:
            """Each of ``batch`` as cat-file is asked it (``_asked``), and those lines."""
            names = [_asked(rev) for rev in batch]
            return names, b"".join(name + b"\n" for name in names if name is not None)

        def ask(data: bytes) -> int:
            inp.write(data)
            inp.flush()
            return len(data)

        try:
            batch = list(islice(todo, BATCH))
            names, data = named(batch)
            asked = ask(data)
            while batch:
                after = list(islice(todo, BATCH))
                next_names, data = named(after)
                ahead = asked <= AHEAD_BYTES and len(data) <= AHEAD_BYTES  # both fit in the pipe: never blocks
                if ahead:  # git answers it while this one is read
                    asked = ask(data)
                for rev, name in zip(batch, names, strict=True):
                    found = self._answer(name) if name is not None else None
                    if found is None:
                        yield None
                    elif found[2] <= piece:  # one piece: read here, whether the caller takes it or not
                        yield found[0], found[1], found[2], iter((_whole(out, rev, found[2]),))
                    else:
                        yield from _streamed(out, rev, found, piece)
                if not ahead:
                    asked = ask(data)
                batch, names = after, next_names
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

    def close(self, wait: bool = True) -> None:
        """End it: its pipes closed (git ends), and, with ``wait``, its end awaited."""
        if self._proc.stdout:
            self._proc.stdout.close()  # answers never read (a reader left on an error): git ends, not waits
        if self._proc.stdin:
            self._proc.stdin.close()
        if wait:
            self._proc.wait()

    def __enter__(self) -> CatFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def listing(
    repo: Repo, args: list[str], input: bytes, piece: int = 1 << 20, pipe: int = 0
) -> Generator[tuple[str, Answer | None], None, None]:
    """Every line of ``git rev-list --no-object-names ARGS`` (``input``: its
    standard input, read whole before it lists), each read by a ``cat-file
    --batch`` that takes rev-list's output straight from it, so no name
    passes through this process: ``(name, answer)`` in rev-list's order, the
    content's pieces as ``CatFile.each`` gives them (what a caller leaves
    unread is skipped), the answer None where cat-file has none (an edge,
    "-<id>"; an object missing here stops rev-list). ``pipe``: as
    ``CatFile``'s. Either process failing is a GitError once the listing
    ends; a caller that stops iterating early ends both."""
    feed, fed = os.pipe()
    with os.fdopen(fed, "wb") as into, os.fdopen(feed, "rb") as out_of:
        lister = start(["rev-list", "--no-object-names", *args], repo.toplevel, stdin=PIPE, stdout=into, stderr=PIPE)
        try:
            cat = start(CAT_FILE, repo.toplevel, stdin=out_of, stdout=PIPE)
        except BaseException:
            lister.kill()
            lister.wait()
            raise
    assert lister.stdin and lister.stderr and cat.stdout
    if pipe:
        grow_pipe(cat.stdout.fileno(), pipe)
    out, ended = cat.stdout, False
    try:
        try:
            lister.stdin.write(input)
        except BrokenPipeError:
            pass  # rev-list stopped reading: its exit code and stderr say why
        finally:
            try:
                lister.stdin.close()
            except BrokenPipeError:
                pass
        while line := out.readline():
            # What cat-file was asked where it has no answer ("-<id> missing"): an edge, the one
            # name rev-list gives that names no object (an id names one, or rev-list fails).
            edge = line[: line.find(b" ")] if line[:1] == b"-" else b""
            try:
                found = parse_header(line, edge)
            except ValueError:
                raise GitError(f"git cat-file answered {text(line[:60])!r} to a listing") from None
            if found is None:
                yield text(edge), None
                continue
            if found[2] <= piece:  # one piece: read here, whether the caller takes it or not
                yield found[1], (found[0], found[1], found[2], iter((_whole(out, found[1], found[2]),)))
            else:
                for answer in _streamed(out, found[1], found, piece):
                    yield found[1], answer
        ended = True
    finally:
        if not ended:
            for proc in (lister, cat):
                proc.kill()
        out.close()
        said = lister.stderr.read()
        lister.stderr.close()
        codes = lister.wait(), cat.wait()
    if codes[0]:
        raise GitError(f"git rev-list failed: {reason(Done(['rev-list'], codes[0], b'', said))}")
    if codes[1]:
        raise GitError(f"git cat-file ended with {codes[1]} inside a listing")


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


def close_readers(every_thread: bool = False, wait: bool = True) -> None:
    """End this thread's readers (all of them at exit); ``wait``: for their
    ends too (a process that ends at once leaves its children to end alone)."""
    for key in list(_readers):
        if every_thread or key[:2] == (os.getpid(), get_ident()):
            cat = _readers.pop(key)
            if key[0] == os.getpid():
                cat.close(wait)


atexit.register(close_readers, every_thread=True)


BUILT_IN_BYTES = 256 << 10  # what Python's own hash modules take in a process before hashlib is loaded
_built_in_took = [0]  # bytes they hashed in this process


def ready_to_write() -> None:
    """Load now what writing objects takes (zlib, the built-in sha1), for a
    command that waits on git before its first write (a checkpoint, while
    git stages the working tree)."""
    import zlib  # noqa: F401

    digest("sha1", b"")  # its first use loads the hash


def digest(algorithm: str, data: bytes) -> bytes:
    """The ``algorithm`` hash of ``data``: sha1 or sha256 (an object
    format's), blake2b (the scan's record). ``hashlib`` loads OpenSSL: 2 to 4
    ms, and 3.6 MB a process keeps. blake2b is the interpreter's own, as fast;
    its sha1 and sha256 are five to ten times slower than OpenSSL's: the first
    ``BUILT_IN_BYTES`` a process hashes go to them (an event's few small
    objects), the rest, or all once ``hashlib`` is loaded, to ``hashlib``."""
    own = algorithm == "blake2b"
    took = _built_in_took[0] + (0 if own else len(data))
    new = _built_in(algorithm) if own or (took <= BUILT_IN_BYTES and "hashlib" not in sys.modules) else None
    if new is not None:
        _built_in_took[0] = took
        return bytes(new(data).digest())
    import hashlib

    return hashlib.new(algorithm, data).digest()


def _built_in(algorithm: str) -> Callable[[bytes], Any] | None:
    """The interpreter's own hash ``algorithm`` (sha1; sha256: ``_sha2`` since
    Python 3.12, ``_sha256`` before; blake2b), None without it."""
    try:
        if algorithm == "blake2b":
            from _blake2 import blake2b

            return blake2b
        if algorithm == "sha1":
            from _sha1 import sha1  # type: ignore[import-not-found]

            return sha1  # type: ignore[no-any-return]
        if algorithm == "sha256":
            try:
                from _sha2 import sha256  # type: ignore[import-not-found]
            except ImportError:
                from _sha256 import sha256  # type: ignore[import-not-found]
            return sha256  # type: ignore[no-any-return]
    except ImportError:  # a Python built without them
        pass
    return None


def _object_id(object_format: str, raw: bytes) -> str:
    """The id of an object (header and content)."""
    return digest(object_format, raw).hex()


def blob_id(repo: Repo, data: bytes) -> str:
    """The id ``data`` has as a blob in this repository."""
    return _object_id(repo.object_format, f"blob {len(data)}\0".encode() + data)


# The objects a ``packed`` block holds back, by process and thread: id -> (type, content).
_packing: dict[tuple[int, int], dict[str, tuple[str, bytes]]] = {}


def write_object(repo: Repo, kind: str, data: bytes) -> str:
    """Store one object and return its id (sha1 or sha256, as the repo):
    a loose object, or one of the pack a ``packed`` block writes."""
    raw = f"{kind} {len(data)}\0".encode() + data
    oid = _object_id(repo.object_format, raw)
    path = os.path.join(repo.objects_dir, oid[:2], oid[2:])
    if os.path.exists(path):
        return oid
    held = _packing.get((os.getpid(), get_ident())) if _packing else None
    if held is not None:
        held[oid] = (kind, data)
    else:
        _write_loose(repo, oid, raw)
    return oid


def _write_loose(repo: Repo, oid: str, raw: bytes) -> None:
    import zlib  # here: a command that only reads (status, the lock check) never loads it

    _place(os.path.join(repo.objects_dir, oid[:2]), "tmp_obj_", zlib.compress(raw, 1), oid[2:])


def _place(folder: str, prefix: str, data: bytes, name: str) -> None:
    """``data`` as the read-only file ``folder/name``, whole or not at all (a
    scratch file, then a rename), ``folder`` made when missing."""
    for attempt in range(10):
        try:  # read-only from the start, as git makes them (its mode less the umask)
            fd, tmp = new_file(folder, prefix, 0o444)
            break
        except FileNotFoundError:
            # No fan-out directory yet, or a git gc or repack running meanwhile
            # removed it (it removes those it emptied): make it. (Removed between
            # mkdir's "exists" and its check that it is a directory, it is a
            # FileExistsError.)
            if attempt == 9:
                raise
            try:
                _mkdir(folder)
            except FileExistsError:
                pass
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        os.replace(tmp, os.path.join(folder, name))
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


@contextmanager
def packed(repo: Repo) -> Iterator[None]:
    """The objects ``write_object`` stores in this block (in this thread) go
    into one pack, written when the block ends, not a file each: an event's
    half-dozen new objects cost two new files (the pack and its index), not
    up to a dozen (a loose object each, and its fan-out directory, which
    every packing removes once empty); creating a file is the dearest thing
    an event does. Nothing may read them before the block ends; when it
    raises, none is written. A block inside another is the outer one's."""
    key = (os.getpid(), get_ident())
    if key in _packing:
        yield
        return
    held: dict[str, tuple[str, bytes]] = {}
    _packing[key] = held
    try:
        yield
    finally:
        del _packing[key]
    _write_pack(repo, held)


_PACK_TYPES = {"commit": 1, "tree": 2, "blob": 3, "tag": 4}


def _write_pack(repo: Repo, objects: dict[str, tuple[str, bytes]]) -> None:
    """``objects`` as one new pack (version 2, no deltas) and its index
    (version 2), the pack first: git takes a pack once its index is there."""
    if not objects:
        return
    import zlib

    parts = [b"PACK" + (2).to_bytes(4, "big") + len(objects).to_bytes(4, "big")]
    offset = len(parts[0])
    rows: list[tuple[bytes, int, int]] = []  # id, CRC-32 of the entry, where it starts
    for oid, (kind, data) in objects.items():
        size = len(data)
        head = bytearray()
        byte = _PACK_TYPES[kind] << 4 | size & 0x0F
        size >>= 4
        while size:
            head.append(byte | 0x80)
            byte = size & 0x7F
            size >>= 7
        head.append(byte)
        entry = bytes(head) + zlib.compress(data, 1)
        rows.append((bytes.fromhex(oid), zlib.crc32(entry), offset))
        parts.append(entry)
        offset += len(entry)
    if offset >= 1 << 31:  # past what an index's plain offsets hold: a loose object each
        for oid, (kind, data) in objects.items():
            _write_loose(repo, oid, f"{kind} {len(data)}\0".encode() + data)
        return
    pack = b"".join(parts)
    checksum = digest(repo.object_format, pack)
    rows.sort()
    counts = [0] * 256
    for raw, _, _ in rows:
        counts[raw[0]] += 1
    fanout, total = [], 0
    for n in counts:
        total += n
        fanout.append(total.to_bytes(4, "big"))
    index = b"".join(
        [
            b"\377tOc" + (2).to_bytes(4, "big"),
            *fanout,
            *(raw for raw, _, _ in rows),
            *(crc.to_bytes(4, "big") for _, crc, _ in rows),
            *(at.to_bytes(4, "big") for _, _, at in rows),
            checksum,
        ]
    )
    folder, name = os.path.join(repo.objects_dir, "pack"), f"pack-{checksum.hex()}"
    _place(folder, "tmp_pack_", pack + checksum, f"{name}.pack")
    _place(folder, "tmp_idx_", index + digest(repo.object_format, index), f"{name}.idx")


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
