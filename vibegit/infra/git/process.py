"""Starting git: the one place a git process starts (``start``, through
``gitlite.Child``), for its answer (``run``), its output as it comes
(``fields``), while a block runs (``running``, ``background``) or left to
itself (``detach``); a failure as git's own line (``reason``); and ``Repo``,
the repository a process runs in (``repository.find_repo`` finds it)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from vibegit.core.records import NamedTuple, frozen
from vibegit.errors import GitError
from vibegit.infra.gitlite import DEVNULL, PIPE, Child, take_early

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from typing import BinaryIO


class Done(NamedTuple):
    """A git process that ended: what ``subprocess.run`` returns, by the same names."""

    args: list[str]
    returncode: int
    stdout: bytes
    stderr: bytes


def start(
    args: list[str], cwd: Path | None, env: dict[str, str] | None = None, early: str | None = None, **how: object
) -> Child:
    """``git ARGS`` started in ``cwd``: every git process vibegit runs starts
    here (``-C``: a spawned process has no other way); ``how``: its stdin, stdout, stderr (``gitlite.Child``). ``early``:
    the directory where the same command, started early, is as good (the one
    the repository was found from: ``gitlite.start_early``). No git on PATH
    is one line that says so."""
    if early is not None and env is None:
        child = take_early(args, early)
        if child is not None:
            return child
    line = ["git", "-C", str(cwd), *args] if cwd is not None else ["git", *args]
    try:
        return Child(line, env, **how)  # type: ignore[arg-type]
    except FileNotFoundError:
        raise GitError("git was not found: install git, or put it on PATH") from None


def run(
    args: list[str],
    *,
    cwd: Path | None = None,
    input: bytes | None = None,
    check: bool = True,
    env: dict[str, str] | None = None,
    early: str | None = None,
) -> Done:
    """Run ``git ARGS``; with ``check``, a failure becomes one readable line
    (``early``: as ``start``)."""
    child = start(args, cwd, env, early, stdin=None if input is None else PIPE, stdout=PIPE, stderr=PIPE)
    out, err = child.communicate(input or b"")
    proc = Done(args, child.wait(), out, err)
    if check and proc.returncode != 0:
        raise GitError(f"git {' '.join(args[:3])} failed: {reason(proc)}")
    return proc


def fields(
    repo: Repo, *args: str, piece: int = 1 << 16, sep: bytes = b"\0", input: bytes | None = None
) -> Iterator[list[bytes]]:
    """The NUL-separated fields of ``git ARGS``'s output (``-z``; or lines,
    ``sep``), read as they come, in lists of those complete in each read: a
    long output is never held whole. ``input``: its standard input, for a
    command that reads all of it before it answers (``rev-list --stdin``).
    A failure is a GitError."""
    proc = start(list(args), repo.toplevel, stdin=None if input is None else PIPE, stdout=PIPE, stderr=PIPE)
    assert proc.stdout and proc.stderr
    if proc.stdin is not None:
        try:
            proc.stdin.write(input or b"")
        except BrokenPipeError:
            pass  # git stopped reading: its exit code and stderr say why
        finally:
            try:
                proc.stdin.close()
            except BrokenPipeError:
                pass
    rest = b""
    try:
        while data := proc.stdout.read(piece):
            *done, rest = (rest + data).split(sep)
            if done:
                yield done
        said = proc.stderr.read()
    finally:
        proc.stdout.close()
        code = proc.wait()
        proc.stderr.close()
    if code:
        raise GitError(f"git {' '.join(args[:3])} failed: {reason(Done(list(args), code, b'', said))}")
    if rest:
        yield [rest]


def reason(proc: Done) -> str:
    """Git's own words for a failure: its fatal/error line, else its last line."""
    lines = [line.strip() for line in proc.stderr.decode(errors="replace").splitlines() if line.strip()]
    said = [line for line in lines if line.startswith(("fatal:", "error:"))]
    return (said or lines or [f"exit {proc.returncode}"])[-1]


def text(data: bytes) -> str:
    """git's output as text; bytes that are not UTF-8 (paths may hold any) kept as surrogates."""
    return data.decode("utf-8", "surrogateescape")


def out(args: list[str], *, cwd: Path | None = None) -> str:
    return text(run(args, cwd=cwd).stdout).strip()


@frozen
class Repo:
    toplevel: Path
    git_dir: Path
    common_dir: Path
    objects_dir: Path
    object_format: str

    @property
    def null_oid(self) -> str:
        return "0" * (64 if self.object_format == "sha256" else 40)

    def git(self, *args: str, check: bool = True, input: bytes | None = None) -> Done:
        return run(list(args), cwd=self.toplevel, check=check, input=input)

    def out(self, *args: str) -> str:
        return text(self.git(*args).stdout).strip()


def new_file(directory: Path, prefix: str) -> tuple[int, Path]:
    """A new file of this process's own in ``directory`` (open for reading and
    writing, mode 600), named ``prefix`` and random letters: ``tempfile.mkstemp``'s
    way, without its import (``random``, ``shutil``, ``hashlib``: milliseconds at start-up)."""
    for _ in range(10):
        path = directory / f"{prefix}{os.urandom(6).hex()}"
        try:
            return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(f"no free file name {prefix}… in {directory}")


def scratch_file(directory: Path) -> BinaryIO:
    """A new file in ``directory`` with no name: gone when closed, whatever happens."""
    fd, path = new_file(directory, "vibegit-scratch-")
    os.unlink(path)  # POSIX: the open file stays until closed
    return os.fdopen(fd, "w+b")


@contextmanager
def running(
    repo: Repo, args: list[str], *, env: dict[str, str] | None = None, timeout: float | None = None
) -> Iterator[Callable[[], Done]]:
    """Run ``git ARGS`` while the block runs, its output going to scratch
    files in the git directory (a full pipe would stop it halfway); the block
    gets a function that waits for it and returns it ended, whatever its exit
    code. ``timeout``: seconds from its start, after which it is ended with
    what it started (a session of its own: a transport's ssh too) and fails
    saying so."""
    with scratch_file(repo.git_dir) as out, scratch_file(repo.git_dir) as err:
        proc = start(args, repo.toplevel, env, stdout=out, stderr=err, new_session=timeout is not None)
        deadline = time.monotonic() + timeout if timeout is not None else None

        def result() -> Done:
            late = deadline is not None and not _ended_by(proc, deadline)
            if late:
                proc.kill(group=True)
            code = proc.wait()
            out.seek(0)
            err.seek(0)
            said = err.read() + (f"\nfatal: no answer in {timeout:g} s\n".encode() if late else b"")
            return Done(args, code, out.read(), said)

        try:
            yield result
        finally:
            if deadline is not None and not proc.done():
                proc.kill(group=True)  # the block ended early (an error, ^C): not left running
            proc.wait()  # never left running


def _ended_by(proc: Child, deadline: float) -> bool:
    """Whether ``proc`` ends before ``deadline`` (time.monotonic), looking now and then."""
    pause = 0.001
    while not proc.done():
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        time.sleep(min(pause, left))
        pause = min(pause * 2, 0.05)
    return True


@contextmanager
def background(repo: Repo, args: list[str], *, env: dict[str, str] | None = None) -> Iterator[Callable[[], bytes]]:
    """``running``, for a command that must succeed: the block's function
    returns its output (a failure: one readable line)."""
    with running(repo, args, env=env) as ended:

        def result() -> bytes:
            done = ended()
            if done.returncode:
                raise GitError(f"git {' '.join(args[:3])} failed: {reason(done)}")
            return done.stdout

        yield result


_detached: list[Child] = []  # reaped when they end (a long-running process, the MCP server, leaves no zombies)


def detach(repo: Repo, *args: str) -> None:
    """Start ``git ARGS`` in the background, in a session of its own, and
    never wait for it (housekeeping that may fail without harm)."""
    _detached[:] = [child for child in _detached if not child.done()]
    try:
        _detached.append(
            start(list(args), repo.toplevel, stdin=DEVNULL, stdout=DEVNULL, stderr=DEVNULL, new_session=True)
        )
    except (OSError, GitError):
        pass
