"""Starting git, and the repository it runs in. ``start`` is the one place
a git process starts (through ``gitlite.Child``): for its answer (``run``),
its output as it comes (``fields``), while a block runs (``running``,
``background``) or left to itself (``detach``); a failure reads as git's own
line (``reason``). ``Repo`` is the repository (its paths are strings: pathlib
and what it imports cost milliseconds at every start): found from a directory
(``find_repo``, one ``rev-parse``), its configuration as vibegit reads it
(``read_config``, one ``git config``; the files it comes from,
``config_files``), the identity that signs the state's commits. Those first
processes of a command may be the ones gitlite started early (``early_for``)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager, nullcontext

from vibegit.core.records import NamedTuple, frozen
from vibegit.errors import BadInput, GitError
from vibegit.infra.gitlite import DEVNULL, FIND_REPO, PIPE, READ_CONFIG, Child, take_early

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from typing import BinaryIO

    from vibegit.infra.fs import StrPath


class Done(NamedTuple):
    """A git process that ended: what ``subprocess.run`` returns, by the same names."""

    args: list[str]
    returncode: int
    stdout: bytes
    stderr: bytes


def start(
    args: list[str], cwd: StrPath | None, env: dict[str, str] | None = None, early: str | None = None, **how: object
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
    line = ["git", "-C", os.fspath(cwd), *args] if cwd is not None else ["git", *args]
    try:
        return Child(line, env, **how)  # type: ignore[arg-type]
    except FileNotFoundError:
        raise GitError("git was not found: install git, or put it on PATH") from None


def run(
    args: list[str],
    *,
    cwd: StrPath | None = None,
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
    try:
        rest = yield from _split(proc.stdout.read, sep, piece)
        said = proc.stderr.read()
    finally:
        proc.stdout.close()
        code = proc.wait()
        proc.stderr.close()
    if code:
        raise GitError(f"git {' '.join(args[:3])} failed: {reason(Done(list(args), code, b'', said))}")
    if rest:
        yield [rest]


def _split(read: Callable[[int], bytes], sep: bytes, piece: int = 1 << 16) -> Generator[list[bytes], None, bytes]:
    """The ``sep``-separated fields ``read`` gives, in lists of those complete in each read; returns the last, open."""
    rest = b""
    while data := read(piece):
        *done, rest = (rest + data).split(sep)
        if done:
            yield done
    return rest


def reason(proc: Done) -> str:
    """Git's own words for a failure: its fatal/error line, else its last line."""
    lines = [line.strip() for line in proc.stderr.decode(errors="replace").splitlines() if line.strip()]
    said = [line for line in lines if line.startswith(("fatal:", "error:"))]
    return (said or lines or [f"exit {proc.returncode}"])[-1]


def text(data: bytes) -> str:
    """git's output as text; bytes that are not UTF-8 (paths may hold any) kept as surrogates."""
    return data.decode("utf-8", "surrogateescape")


def out(args: list[str], *, cwd: StrPath | None = None) -> str:
    return text(run(args, cwd=cwd).stdout).strip()


@frozen
class Repo:
    toplevel: str
    git_dir: str
    common_dir: str
    objects_dir: str
    object_format: str

    @property
    def null_oid(self) -> str:
        return "0" * (64 if self.object_format == "sha256" else 40)

    def git(self, *args: str, check: bool = True, input: bytes | None = None) -> Done:
        return run(list(args), cwd=self.toplevel, check=check, input=input)

    def out(self, *args: str) -> str:
        return text(self.git(*args).stdout).strip()


FALLBACK_NAME = "vibegit"  # the identity where none is set (fresh CI)
FALLBACK_EMAIL = "vibegit@localhost"


def rev_parse(options: list[list[str]], cwd: StrPath | None = None, early: str | None = None) -> tuple[list[str], Done]:
    """One value per option group of ``git rev-parse``, asked in one process;
    when a path holds a newline (the lines do not add up), one process each
    (``early``: as ``run``)."""
    proc = run(["rev-parse", *[o for group in options for o in group]], cwd=cwd, check=False, early=early)
    lines = text(proc.stdout).split("\n")  # not splitlines(): a path may hold U+2028 or a form feed
    if proc.returncode == 0 and len(lines) != len(options) + 1:
        lines = []
        for group in options:
            one = run(["rev-parse", *group], cwd=cwd, check=False)
            lines.append(text(one.stdout).removesuffix("\n"))
        return lines, proc
    return lines[: len(options)], proc


def find_repo(cwd: StrPath | None = None) -> Repo:
    """The repository around ``cwd``; a clear error outside one."""
    here = None
    if cwd is None:
        try:
            here = os.getcwd()
        except FileNotFoundError:
            raise BadInput("the current directory no longer exists (deleted or moved): cd into a repository") from None
        known = next((repo for repo, where, env, _config in _known_here if where == here and env == os.environ), None)
        if known is not None:
            return known
    lines, proc = rev_parse([list(group) for group in FIND_REPO], cwd, early=here)
    where = os.fspath(cwd) if cwd is not None else str(here)  # what paths git gives are relative to
    if (proc.returncode != 0 and b"work tree" in proc.stderr) or (proc.returncode == 0 and not lines[4]):
        raise BadInput(f"{where}: vibegit needs a working tree; this is a bare repository or a .git dir")
    if proc.returncode != 0 and b"dubious ownership" in proc.stderr:
        advice = next(
            (x.strip() for x in proc.stderr.decode(errors="replace").splitlines() if "safe.directory" in x), ""
        )
        raise BadInput(
            f"{where}: git refuses this repository: it is owned by another user (git's 'dubious ownership'); "
            f"if you trust it, tell git so: {advice or 'git config --global --add safe.directory PATH'}"
        )
    if proc.returncode != 0:
        raise BadInput(f"{where}: not inside a git repository (run 'git init' or cd into one)")
    fmt, git_dir, common, objects, top = lines[:5]
    repo = Repo(
        toplevel=top,
        git_dir=git_dir,
        common_dir=os.path.realpath(os.path.join(where, common)),
        objects_dir=os.path.realpath(os.path.join(where, objects)),
        object_format=fmt,
    )
    if here is not None:
        _found_here[:] = [(repo, here)]
    return repo


_found_here: list[tuple[Repo, str]] = []  # the repository last found from this process's directory, and that directory


# The repository found from this directory in this environment, and its
# config when that was read too, while a ``found_early`` block runs: found
# before the command's modules loaded.
_known_here: list[tuple[Repo, str, dict[str, str], Config | None]] = []


@contextmanager
def found_early(repo: Repo, config: Config | None = None) -> Iterator[None]:
    """While the block runs, ``find_repo`` from the directory ``repo`` was
    just found from, in the same environment, answers ``repo`` without a git
    process (a checkpoint finds it to begin its snapshot, then the command
    finds it again), and ``read_config(repo)`` answers ``config`` when given
    (sync reads it to begin its fetch). It ends with the block: the next
    command finds and reads its own."""
    here = early_for(repo)
    if here is None:
        yield
        return
    _known_here[:] = [(repo, here, dict(os.environ), config)]
    try:
        yield
    finally:
        _known_here.clear()


def early_for(repo: Repo) -> str | None:
    """Where early git processes serve ``repo``: the directory it was found from."""
    return next((where for found, where in _found_here if found == repo), None)


class Config(dict[str, str]):
    """Settings as ``read_config`` reads them: each key's last value (how git
    reads a single-valued setting), and ``every`` value of a multi-valued one."""

    def __init__(self) -> None:
        super().__init__()
        self._every: dict[str, list[str]] = {}

    def add(self, key: str, value: str) -> None:
        self[key] = value
        self._every.setdefault(key, []).append(value)

    def copy(self) -> Config:
        """One of its own: a caller may change it."""
        other = Config()
        other.update(self)
        other._every = {key: list(values) for key, values in self._every.items()}
        return other

    def every(self, key: str) -> list[str]:
        """Every value of ``key``, in git's order (``git config --get-all``, without a process)."""
        return list(self._every.get(key, ()))


def read_config(repo: Repo) -> Config:
    """Every ``vibegit.*`` and ``user.*`` setting, each branch's remote, each
    remote's URL and the few of git's that vibegit reads (core.hooksPath,
    git-lfs's filter), in one
    process; section and key lower-cased as git does (a branch name keeps its case)."""
    known = next((c for r, _, env, c in _known_here if r == repo and c is not None and env == os.environ), None)
    if known is not None:
        return known.copy()
    proc = run(READ_CONFIG, cwd=repo.toplevel, check=False, early=early_for(repo))
    config = Config()
    for item in proc.stdout.decode(errors="replace").split("\0"):
        if item:
            key, _, value = item.partition("\n")
            section, dot, rest = key.partition(".")
            middle, _, name = rest.rpartition(".")
            config.add(f"{section.lower()}{dot}{middle}{'.' if middle else ''}{name.lower()}", value)
    return config


def config_files(repo: Repo) -> list[str] | None:
    """Every file ``repo``'s config can come from, for a long-running process
    to tell by their ``stamp`` that the config it read is still current: the
    files git names as the origins of its settings now, and the ones it reads
    when they exist (the repository's own, the worktree's, the user's, the
    system's). None when that cannot be told from files alone: an include
    (its file may not exist yet, and includeIf may hang on the branch)."""
    proc = run(["config", "-z", "--list", "--show-origin", "--name-only"], cwd=repo.toplevel, check=False)
    listed = proc.stdout.split(b"\0")
    files = {os.path.join(repo.common_dir, "config"), os.path.join(repo.git_dir, "config.worktree")}
    for origin, name in zip(listed[0::2], listed[1::2], strict=False):
        if name.lower().startswith((b"include.", b"includeif.")):
            return None
        if origin.startswith(b"file:"):
            files.add(os.path.normpath(os.path.join(repo.toplevel, text(origin[5:]))))  # relative to where git ran
    home = os.environ.get("HOME") or os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    given = os.environ.get("GIT_CONFIG_GLOBAL")
    files.update([given] if given else [os.path.join(home, ".gitconfig"), os.path.join(xdg, "git", "config")])
    if os.environ.get("GIT_CONFIG_NOSYSTEM", "").lower() not in ("1", "true", "yes", "on"):
        files.add(os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig")
    return sorted(files)


def stamp(paths: Iterable[str]) -> tuple[tuple[int, int, int, int] | None, ...]:
    """What changes when one of ``paths`` is written, created or removed (inode, size, times)."""
    found: list[tuple[int, int, int, int] | None] = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            found.append(None)
            continue
        found.append((st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
    return tuple(found)


class Identity(NamedTuple):
    name: str
    email: str


def identity(config: dict[str, str], role: str = "COMMITTER") -> Identity:
    """The user's identity where set; a fixed fallback where not (fresh CI)."""
    name = os.environ.get(f"GIT_{role}_NAME") or config.get("user.name") or FALLBACK_NAME
    email = os.environ.get(f"GIT_{role}_EMAIL") or config.get("user.email") or FALLBACK_EMAIL
    return Identity(
        name.replace("<", "").replace(">", "").strip() or FALLBACK_NAME,
        email.replace("<", "").replace(">", "").strip() or FALLBACK_EMAIL,
    )


def config_values(repo: Repo, key: str) -> list[str]:
    """Every value of a multi-valued setting (``git config --get-all``)."""
    proc = repo.git("config", "--get-all", key, check=False)
    return proc.stdout.decode(errors="replace").splitlines()


def new_file(directory: str, prefix: str, mode: int = 0o600) -> tuple[int, str]:
    """A new file of this process's own in ``directory`` (open for reading and
    writing, ``mode`` less the umask), named ``prefix`` and random letters: ``tempfile.mkstemp``'s
    way, without its import (``random``, ``shutil``, ``hashlib``: milliseconds at start-up)."""
    for _ in range(10):
        path = os.path.join(directory, f"{prefix}{os.urandom(6).hex()}")
        try:
            return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode), path
        except FileExistsError:
            continue
    raise FileExistsError(f"no free file name {prefix}… in {directory}")


def scratch_file(directory: str) -> BinaryIO:
    """A new file in ``directory`` with no name: gone when closed, whatever happens."""
    fd, path = new_file(directory, "vibegit-scratch-")
    os.unlink(path)  # POSIX: the open file stays until closed
    return os.fdopen(fd, "w+b")


@contextmanager
def running(
    repo: Repo,
    args: list[str],
    *,
    env: dict[str, str] | None = None,
    timeout: float | None = None,
    unasked: bool = False,
) -> Iterator[Callable[[], Done]]:
    """Run ``git ARGS`` while the block runs, its output going to scratch
    files in the git directory (a full pipe would stop it halfway); the block
    gets a function that waits for it and returns it ended, whatever its exit
    code. ``timeout``: seconds from its start, after which it is ended with
    what it started (a session of its own: a transport's ssh too) and fails
    saying so. ``unasked``: a block that ends without asking for the answer
    (an error, or nobody wants it) ends it rather than waiting for it."""
    with _running(repo, args, env, timeout, unasked, None) as (ended, out):

        def result() -> Done:
            code, said = ended()
            return Done(args, code, out.read(), said)

        yield result


@contextmanager
def _running(
    repo: Repo, args: list[str], env: dict[str, str] | None, timeout: float | None, unasked: bool, input: bytes | None
) -> Iterator[tuple[Callable[[], tuple[int, bytes]], BinaryIO]]:
    """``running``'s process (``input``: its standard input, from a scratch
    file too: never a pipe that waits for this process): a function that
    waits for it (its exit code and what it said on stderr), and its
    output's file, read from its start once it has ended."""
    fed = scratch_file(repo.git_dir) if input is not None else nullcontext()
    with scratch_file(repo.git_dir) as out, scratch_file(repo.git_dir) as err, fed as stdin:
        if stdin is not None and input is not None:
            stdin.write(input)
            stdin.seek(0)
        proc = start(args, repo.toplevel, env, stdin=stdin, stdout=out, stderr=err, new_session=timeout is not None)
        deadline = time.monotonic() + timeout if timeout is not None else None

        asked = []

        def ended() -> tuple[int, bytes]:
            asked.append(True)
            late = deadline is not None and not _ended_by(proc, deadline)
            if late:
                proc.kill(group=True)
            code = proc.wait()
            out.seek(0)
            err.seek(0)
            return code, err.read() + (f"\nfatal: no answer in {timeout:g} s\n".encode() if late else b"")

        try:
            yield ended, out
        finally:
            if deadline is not None and not proc.done():
                proc.kill(group=True)  # the block ended early (an error, ^C): not left running
            elif unasked and not asked:
                proc.kill()  # its work is wanted by nobody
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


@contextmanager
def background_fields(
    repo: Repo, args: list[str], *, input: bytes | None = None, unasked: bool = False, sep: bytes = b"\0"
) -> Iterator[Callable[[], Iterator[list[bytes]]]]:
    """``running``, for a command that must succeed and answers at length:
    the block's function waits for it, then gives its output as ``fields``
    does (in lists of fields, never held whole; a failure: one readable
    line)."""
    with _running(repo, args, None, None, unasked, input) as (ended, out):

        def result() -> Iterator[list[bytes]]:
            code, said = ended()
            if code:
                raise GitError(f"git {' '.join(args[:3])} failed: {reason(Done(args, code, b'', said))}")
            rest = yield from _split(out.read, sep)
            if rest:
                yield [rest]

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
