"""The secret scan's rules on two cores: once a scan has read ``PARALLEL``
bytes, one forked worker takes pieces of the rule work (groups of small
blobs, windows of a streamed one) while this process reads git's answers
and scans the other pieces; each piece's hits land in the place the caller
gave for it, so the findings are the single-process scan's, in its order.

Below ``PARALLEL`` (pushes, hooks), or where ``os.fork`` is missing or
threads run, every piece is scanned here and nothing is started. The worker
runs the very functions this process runs (``run_group``, ``run_window``),
gets its pieces as bytes through a pipe and answers each in turn through
another; it ends with ``os._exit`` (no atexit handlers, no buffers of ours
flushed) and ignores Ctrl-C, which reaches this process: it kills and reaps
the worker on the way out. A worker that dies, fails or answers what cannot
be read fails the scan (``Refused``: nothing is taken as clean), one line.
No multiprocessing: its import alone costs more than a small scan.
"""

from __future__ import annotations

import gc
import os
import select
import struct
import sys
from collections import deque

from vibegit.core import credentials
from vibegit.errors import Refused
from vibegit.infra.gitlite import grow_pipe

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from typing import NoReturn

PARALLEL = 4 << 20  # bytes read before a worker pays for itself (about 40 ms of rules; docs/performance.md)
QUEUE = 1 << 20  # bytes the worker has not answered yet before this process scans a piece itself
PIPE = 1 << 20  # the worker's input pipe (Linux; else the default): the queue waits there, not here
_KINDS = frozenset(rule.kind for rule in credentials.RULES)
_U32 = struct.Struct("<I")
_WINDOW = struct.Struct("<QII")  # first line, safe, size of the text in bytes
_HIT = struct.Struct("<QQQHI")  # line, start, end, size of the kind, size of the value

Hits = list[credentials.Hit]


def run_group(blobs: list[bytes]) -> list[Hits]:
    """The hits in each of a group of small blobs (decoded as ``decode_stream`` would)."""
    return credentials.find_each([credentials.decode(b) for b in blobs])


def run_window(text: str, line: int, safe: int) -> list[Hits]:
    return [credentials.find_window(text, line, safe)]


class ScanFailed(Refused):
    """The worker did not scan what it was given: nothing it had is clean."""


class Split:
    """Pieces of rule work, each scanned here or by the worker. ``group`` and
    ``window`` put each piece's hits into the list given for it, a window's
    placed in the whole text; ``finish`` waits for the worker's last answers.
    Use as a context manager: leaving it, however, leaves no process behind."""

    def __init__(self) -> None:
        self._read = 0  # bytes of the pieces so far
        self._pid = 0
        self._tried = False  # one fork a scan at most
        self._jobs = -1  # our end of the worker's input
        self._results = -1  # our end of its answers
        self._out: deque[memoryview] = deque()  # bytes on their way to the worker
        self._waiting: deque[tuple[int, list[tuple[Hits, int]]]] = deque()  # (size, [(hits, offset)]) per piece sent
        self._queued = 0  # bytes of the pieces not answered yet
        self._answers = bytearray()
        self._sent = 0  # pieces sent to the worker
        self.answered = 0  # of those, answered (in the order sent)

    def __enter__(self) -> Split:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the pieces ----------------------------------------------------------------------

    def group(self, blobs: list[tuple[Hits, bytes]]) -> int:
        """A group of small blobs, each with the list its hits go to; its
        hits are all there once ``answered`` reaches the number returned (0:
        scanned here, there now)."""
        size = sum(len(data) for _, data in blobs)
        if self._to_worker(size):
            head = b"G" + _U32.pack(len(blobs)) + struct.pack(f"<{len(blobs)}I", *(len(d) for _, d in blobs))
            self._send(size, [(hits, 0) for hits, _ in blobs], [head, *(data for _, data in blobs)])
            return self._sent
        for (hits, _), found in zip(blobs, run_group([data for _, data in blobs]), strict=True):
            hits.extend(found)
        return 0

    def window(self, w: credentials.Window, parts: list[Hits]) -> None:
        """A window of a streamed blob: its hits, placed in the whole text, are appended to ``parts`` as one list."""
        hits: Hits = []
        parts.append(hits)  # here, in order, whenever they come
        if self._to_worker(len(w.text)):
            data = w.text.encode("utf-8", "surrogatepass")
            self._send(len(w.text), [(hits, w.offset)], [b"W" + _WINDOW.pack(w.line, w.safe, len(data)), data])
            return
        hits.extend(_placed(run_window(w.text, w.line, w.safe)[0], w.offset))

    def finish(self) -> None:
        """Wait for every answer of the worker and for its end; ``ScanFailed`` when it did not scan all it had."""
        if not self._pid:
            return
        try:
            while self._out:
                self._pump(block=True)
            os.close(self._jobs)
            self._jobs = -1
            while True:
                data = os.read(self._results, 1 << 16)
                if not data:
                    break
                self._answers += data
                self._take()
        except OSError as err:
            self._fail(f"lost its pipe ({err.strerror})")
        status = self._reap()
        if status:
            self._fail(_ended(status))
        if self._waiting or self._answers:
            self._fail("ended before answering all it had")

    def close(self) -> None:
        """End the worker if it still runs (an error or Ctrl-C on the way), reap it, close our pipes."""
        for fd in (self._jobs, self._results):
            if fd >= 0:
                os.close(fd)
        self._jobs = self._results = -1
        if self._pid:
            try:
                os.kill(self._pid, 9)  # SIGKILL, the same number everywhere (signal's import: 1 ms)
            except ProcessLookupError:
                pass
            self._reap()

    def _reap(self) -> int:
        """Wait for the worker's end: its wait status (0 when it is not ours to wait for: SIGCHLD ignored)."""
        pid, self._pid = self._pid, 0
        try:
            return os.waitpid(pid, 0)[1]
        except ChildProcessError:
            return 0

    # -- the worker, seen from here ----------------------------------------------------------

    def _to_worker(self, size: int) -> bool:
        self._read += size
        if not self._pid and (self._read < PARALLEL or self._tried or not _can_fork() or not self._start()):
            return False
        self._pump(block=False)
        return self._queued < QUEUE

    def _start(self) -> bool:
        """Fork the worker; False when the system gives no pipe or process (then every piece is scanned here)."""
        self._tried = True
        made: list[int] = []
        try:
            made += os.pipe()
            made += os.pipe()
        except OSError:
            for fd in made:
                os.close(fd)
            return False
        jobs, self._jobs, self._results, answers = made
        grow_pipe(self._jobs, PIPE)  # where refused, the default pipe: the queue then waits in _out
        gc.freeze()  # the worker's collections leave our objects alone (and their pages shared)
        try:
            pid = os.fork()
        except OSError:
            gc.unfreeze()
            self.close()
            os.close(jobs)
            os.close(answers)
            return False
        if pid == 0:  # the worker: never returns
            code = 1
            try:
                import signal  # the worker's own: the parent never needs the module

                signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
                _close_all_but(jobs, answers)
                _serve(jobs, answers)
                code = 0
            except BaseException as err:
                try:
                    _write(answers, _error(err))
                except BaseException:
                    pass
            finally:
                os._exit(code)
        self._pid = pid
        gc.unfreeze()
        os.close(jobs)
        os.close(answers)
        os.set_blocking(self._jobs, False)
        return True

    def _send(self, size: int, places: list[tuple[Hits, int]], parts: list[bytes]) -> None:
        self._waiting.append((size, places))
        self._sent += 1
        self._queued += size
        self._out.extend(memoryview(p) for p in parts if p)
        self._pump(block=False)

    def _pump(self, block: bool) -> None:
        """Write what fits to the worker and take its answers; ``block``: wait until one of them moves."""
        try:
            readable, writable, _ = select.select(
                [self._results], [self._jobs] if self._out else [], [], None if block else 0
            )
            if readable:
                data = os.read(self._results, 1 << 16)
                if not data:
                    self._fail(self._gone())
                self._answers += data
                self._take()
            while writable and self._out:
                part = self._out[0]
                try:
                    n = os.write(self._jobs, part)
                except BlockingIOError:
                    break
                if n == len(part):
                    self._out.popleft()
                else:
                    self._out[0] = part[n:]
        except BrokenPipeError:
            self._fail(self._gone())
        except OSError as err:
            self._fail(f"lost its pipe ({err.strerror})")

    def _take(self) -> None:
        """Every whole answer received so far, each to its piece's lists, in the order sent."""
        answers = self._answers
        at = 0
        while len(answers) - at >= 5:
            (size,) = _U32.unpack_from(answers, at + 1)
            if len(answers) - at - 5 < size:
                break
            tag, body = answers[at : at + 1], bytes(answers[at + 5 : at + 5 + size])
            at += 5 + size
            if tag == b"E":
                self._fail("failed: " + " ".join(body.decode("utf-8", "replace").split())[:300])  # one line
            if tag != b"R" or not self._waiting:
                self._fail("answered what was not asked")
            piece_size, places = self._waiting.popleft()
            try:
                found = _decode_hits(body, len(places))
            except (ValueError, struct.error, UnicodeDecodeError):
                self._fail("sent an answer that could not be read")
            for (hits, offset), more in zip(places, found, strict=True):
                hits.extend(_placed(more, offset))
            self._queued -= piece_size
            self.answered += 1
        del answers[:at]

    def _gone(self) -> str:
        """Why the worker stopped answering: the error it said, if it said one before its end, or how it ended."""
        try:
            while data := os.read(self._results, 1 << 16):  # up to its end: an error it sent is in there
                self._answers += data
        except OSError:
            pass
        self._take()
        status = self._reap()
        return _ended(status) if status else "ended before answering all it had"

    def _fail(self, why: str) -> NoReturn:
        self.close()
        raise ScanFailed(
            f"the secret scan could not finish: its second process {why}; nothing was taken as clean (run it again)"
        )


def _can_fork() -> bool:
    if not hasattr(os, "fork"):
        return False
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1  # a fork copies one thread of many: not here


def _ended(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"was killed by signal {os.WTERMSIG(status)}"
    return f"ended with code {os.waitstatus_to_exitcode(status)}"


def _placed(hits: Hits, offset: int) -> Hits:
    if not offset:
        return hits
    return [h._replace(start=h.start + offset, end=h.end + offset) for h in hits]


# -- the worker ------------------------------------------------------------------------------


def _serve(jobs: int, answers: int) -> None:
    """Scan each piece read from ``jobs`` and answer it on ``answers``, until the input ends."""
    with os.fdopen(jobs, "rb", buffering=1 << 16) as inp:

        def exactly(n: int) -> bytes:
            data = inp.read(n)
            if len(data) != n:
                raise EOFError("its input ended inside a piece")
            return data

        while tag := inp.read(1):
            if tag == b"G":
                (count,) = _U32.unpack(exactly(4))
                sizes = struct.unpack(f"<{count}I", exactly(4 * count))
                found = run_group([exactly(n) for n in sizes])
            elif tag == b"W":
                line, safe, size = _WINDOW.unpack(exactly(_WINDOW.size))
                found = run_window(exactly(size).decode("utf-8", "surrogatepass"), line, safe)
            else:
                raise ValueError(f"a piece of an unknown kind {tag!r}")
            _write(answers, _encode_hits(found))


def _close_all_but(*keep: int) -> None:
    """Close every descriptor the worker inherited but ``keep`` and 0-2: an
    end of git's pipes held here would keep git (and a parent waiting for it
    on its way out of an error) waiting for an end only the worker could give."""
    try:
        inherited = [int(name) for name in os.listdir("/proc/self/fd")]  # Linux: only those open
    except (OSError, ValueError):  # elsewhere: every number up to the limit, around ``keep``
        inherited = []
        top = max(os.sysconf("SC_OPEN_MAX"), *keep) + 1
        for lo, hi in zip((2, *sorted(keep)), (*sorted(keep), top), strict=True):
            os.closerange(lo + 1, hi)
    for fd in inherited:
        if fd > 2 and fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass  # the directory listing's own


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _encode_hits(found: list[Hits]) -> bytes:
    parts = []
    for hits in found:
        parts.append(_U32.pack(len(hits)))
        for h in hits:
            kind, value = h.kind.encode(), h.value.encode("utf-8", "surrogatepass")
            parts += [_HIT.pack(h.line, h.start, h.end, len(kind), len(value)), kind, value]
    body = b"".join(parts)
    return b"R" + _U32.pack(len(body)) + body


def _error(err: BaseException) -> bytes:
    body = f"{type(err).__name__}: {err}".encode("utf-8", "replace")[:1000]
    return b"E" + _U32.pack(len(body)) + body


def _decode_hits(body: bytes, count: int) -> list[Hits]:
    """The hit lists of one answer; ValueError when it is not ``count`` well-formed lists and nothing else."""
    out: list[Hits] = []
    at = 0
    for _ in range(count):
        (n,) = _U32.unpack_from(body, at)
        at += 4
        hits: Hits = []
        for _ in range(n):
            line, start, end, kind_size, value_size = _HIT.unpack_from(body, at)
            at += _HIT.size
            kind = body[at : at + kind_size].decode()
            value = body[at + kind_size : at + kind_size + value_size].decode("utf-8", "surrogatepass")
            at += kind_size + value_size
            if at > len(body) or kind not in _KINDS or end - start != len(value) or line < 1:
                raise ValueError("not a hit")
            hits.append(credentials.Hit(line, kind, start, end, value))
        out.append(hits)
    if at != len(body):
        raise ValueError("more than was asked")
    return out
