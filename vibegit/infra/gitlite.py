"""Processes and the environment git runs in, importing nothing: ``Child``, a
process started with ``posix_spawn``, which ``git`` starts every git process
with; a command's first git processes, started
before its modules load (``start_repo_reads``: ``git`` takes them where they
answer what it asks); the environment vibegit runs git in (which ``git``
shares); and this host's name (which ``machine`` shares)."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from typing import BinaryIO

# Variables git exports to hooks that would point our git calls elsewhere.
# GIT_DIR and GIT_WORK_TREE are not among them: they say which repository a
# hook runs for (a bare-repository dotfiles set-up has no .git to find), so
# they are kept, made absolute (``pin_repo_env``).
HOOK_GIT_VARS = (
    "GIT_INDEX_FILE",
    "GIT_PREFIX",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_QUARANTINE_PATH",
)
IN_HOOK = "VIBEGIT_IN_HOOK"  # set while vibegit runs git: its hooks but the lock check stay quiet then


def this_host() -> str:
    """This machine's name as locks record it; VIBEGIT_HOST names it in tests and containers."""
    named = os.environ.get("VIBEGIT_HOST")
    if named:
        return named
    if hasattr(os, "uname"):  # POSIX: gethostname(2)'s answer, without socket's import
        return os.uname().nodename
    import socket

    return socket.gethostname()


def pin_repo_env() -> None:
    """Make GIT_DIR and GIT_WORK_TREE absolute, as seen from here: git hands
    hooks ``GIT_WORK_TREE=.`` and vibegit runs git from other directories."""
    for var in ("GIT_DIR", "GIT_WORK_TREE"):
        value = os.environ.get(var)
        if value:
            os.environ[var] = os.path.abspath(value)


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without the variables git exports to hooks
    (they would point git at another index or directory), plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in HOOK_GIT_VARS}
    env.update(extra)
    return env


def grow_pipe(fd: int, size: int) -> None:
    """Ask for a pipe of ``size`` bytes, so its writer can run that far ahead
    (Linux's ``F_SETPIPE_SZ``); the default pipe where that is refused or unknown."""
    try:
        import fcntl

        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), size)  # Python 3.10 lacks the name
    except (ImportError, OSError):
        pass  # another system, or over its limit


PIPE, DEVNULL = -1, -2  # what a Child's stdin, stdout or stderr is; None: this process's own

_found: dict[tuple[str, str | None], str] = {}  # (command, $PATH) -> the file posix_spawnp would run


def _program(name: str) -> str:
    """The file ``posix_spawnp`` would run for ``name`` (the first executable
    file of that name on this process's PATH), found once per PATH: spawnp's
    child tries every directory before it with an ``execve`` of its own, and
    the parent waits for them all (a quarter of a millisecond a start with
    git in /usr/bin). ``name`` itself when it has a slash or none is found."""
    if "/" in name:
        return name
    key = (name, os.environ.get("PATH"))
    found = _found.get(key)
    if found is None:
        found = name
        for folder in (key[1] if key[1] is not None else os.defpath).split(os.pathsep):
            path = os.path.join(folder or ".", name)
            if os.access(path, os.X_OK) and not os.path.isdir(path):
                found = path if os.path.isabs(path) else name  # a relative one depends on the directory: spawnp's
                break
        _found[key] = found
    return found


class Child:
    """A process started with ``posix_spawn`` (what ``subprocess`` does, without
    its import: ``signal``, ``threading``, ``selectors``, ``locale``, milliseconds
    at every start). ``stdin``, ``stdout`` and ``stderr`` are each ``PIPE`` (a
    buffered file here), ``DEVNULL``, an open file, or None (this process's
    own). As ``subprocess`` does, the child gets only those three descriptors
    and default handlers for the signals Python ignores (a broken pipe ends it)."""

    def __init__(
        self,
        args: list[str],
        env: dict[str, str] | None = None,
        *,
        stdin: object = None,
        stdout: object = None,
        stderr: object = None,
        new_session: bool = False,
    ) -> None:
        import _signal  # type: ignore[import-not-found]  # built in: the numbers, without the signal module

        self.stdin: BinaryIO | None = None
        self.stdout: BinaryIO | None = None
        self.stderr: BinaryIO | None = None
        ours: list[tuple[str, int, str]] = []  # (attribute, our end, mode) of each pipe
        theirs: list[int] = []  # what the child gets, closed here once it has them
        actions = []
        try:
            for fd, how in ((0, stdin), (1, stdout), (2, stderr)):
                if how is None:
                    continue
                if how == PIPE:
                    read, write = os.pipe()
                    mine, child = (write, read) if fd == 0 else (read, write)
                    ours.append((("stdin", "stdout", "stderr")[fd], mine, "wb" if fd == 0 else "rb"))
                    theirs.append(child)
                elif how == DEVNULL:
                    child = os.open(os.devnull, os.O_RDWR)
                    theirs.append(child)
                else:
                    child = how.fileno()  # type: ignore[attr-defined]
                actions.append((os.POSIX_SPAWN_DUP2, child, fd))
            environ = os.environ if env is None else env
            signals = [getattr(_signal, name) for name in ("SIGPIPE", "SIGXFSZ") if hasattr(_signal, name)]
            program = _program(args[0])
            try:
                if program == args[0]:
                    self.pid = os.posix_spawnp(
                        program, args, environ, file_actions=actions, setsigdef=signals, setsid=new_session
                    )
                else:
                    self.pid = os.posix_spawn(
                        program, args, environ, file_actions=actions, setsigdef=signals, setsid=new_session
                    )
            except OSError:
                if program == args[0]:
                    raise
                _found.clear()  # the file found went away: as spawnp would have it now
                self.pid = os.posix_spawnp(
                    args[0], args, environ, file_actions=actions, setsigdef=signals, setsid=new_session
                )
        except BaseException:
            for _, mine, _ in ours:
                os.close(mine)
            raise
        finally:
            for child in theirs:
                os.close(child)
        for name, mine, mode in ours:
            setattr(self, name, os.fdopen(mine, mode))
        self.returncode: int | None = None

    def wait(self) -> int:
        if self.returncode is None:
            self.returncode = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
        return self.returncode

    def done(self) -> bool:
        """Whether it has ended (reaped, then: no zombie left)."""
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid == 0:
                return False
            self.returncode = os.waitstatus_to_exitcode(status)
        return True

    def kill(self, group: bool = False) -> None:
        """End it (``group``: with every process of its session; it was started with ``new_session``)."""
        if self.returncode is None:
            try:
                (os.killpg if group else os.kill)(self.pid, 9)  # SIGKILL, the same number everywhere
            except ProcessLookupError:
                pass

    def communicate(self, input: bytes = b"") -> tuple[bytes, bytes]:
        """Write ``input`` to its stdin (a pipe, or none), read its stdout and
        stderr (pipes) to their end, wait for it: its output. Both pipes are
        read as they fill, so a long stderr cannot stop it halfway."""
        import select

        poller = select.poll()
        files = {f.fileno(): f for f in (self.stdout, self.stderr) if f is not None}
        read: dict[int, list[bytes]] = {fd: [] for fd in files}
        out, err = (f.fileno() if f is not None else -1 for f in (self.stdout, self.stderr))
        for fd in files:
            poller.register(fd, select.POLLIN)
        todo = memoryview(input)
        if self.stdin is not None:
            self.stdin.flush()
            if todo:
                os.set_blocking(self.stdin.fileno(), False)  # a write takes what fits, never waits
                poller.register(self.stdin.fileno(), select.POLLOUT)
                files[self.stdin.fileno()] = self.stdin
            else:
                self.stdin.close()
        try:
            while files:
                for fd, _ in poller.poll():
                    if fd in read:
                        data = os.read(fd, 1 << 16)
                        if data:
                            read[fd].append(data)
                            continue
                    else:
                        try:
                            todo = todo[os.write(fd, todo) :]
                        except BrokenPipeError:
                            todo = todo[:0]  # it stopped reading: the rest goes nowhere, as with subprocess
                        if todo:
                            continue
                    poller.unregister(fd)
                    files.pop(fd).close()
        except BaseException:
            self.kill()
            raise
        finally:
            for f in files.values():
                f.close()
            self.wait()
        return b"".join(read.get(out, [])), b"".join(read.get(err, []))


# The first git commands of a command in a repository: ``git.find_repo``'s
# (one value per group), ``git.read_config``'s and ``git.reader``'s.
FIND_REPO = (
    ("--show-object-format",),
    ("--absolute-git-dir",),
    ("--git-common-dir",),
    ("--git-path", "objects"),
    ("--show-toplevel",),
)
READ_CONFIG = [
    "config",
    "-z",
    "--get-regexp",
    r"^(vibegit|user)\.|^branch\..*\.remote$|^remote\..*\.url$|^core\.hookspath$|^filter\.lfs\.(process|clean)$",
]
CAT_FILE = ["cat-file", "--batch"]

_early: dict[tuple[str, ...], tuple[str, dict[str, str], Child]] = {}


def start_early(*commands: tuple[list[str], dict[str, object]]) -> None:
    """Start each ``git ARGS`` of ``commands`` (``(args, how)``, ``how`` as
    ``Child`` takes it) now, in this directory and environment, for whoever
    asks for the same later (``take_early``): a command's first git processes
    run while its modules load. Nothing started is an error (no git: the
    command says so when it runs it)."""
    try:
        here = os.getcwd()
    except OSError:
        return  # a deleted directory: the command says so
    env = dict(os.environ)  # as it is now: one copy serves every process started here
    for args, how in commands:
        try:
            child = Child(["git", *args], **how)  # type: ignore[arg-type]
        except OSError:
            return
        replaced = _early.pop(tuple(args), None)
        if replaced is not None:  # started before and never taken
            _end(replaced[2])
        _early[tuple(args)] = (here, env, child)


def start_repo_reads(find: bool = True, reads: bool = True) -> None:
    """Start the first git commands of a command in the repository around this
    directory early: ``find`` it (``FIND_REPO``), and its ``reads``
    (``READ_CONFIG``, ``CAT_FILE``). A checkpoint finds the repository, starts
    its snapshot's git add -A, then the reads (``snapshot.begun``)."""
    commands: list[tuple[list[str], dict[str, object]]] = []
    if find:
        commands.append((["rev-parse", *(o for group in FIND_REPO for o in group)], {"stdout": PIPE, "stderr": PIPE}))
    if reads:
        commands.append((READ_CONFIG, {"stdout": PIPE, "stderr": PIPE}))
        commands.append((CAT_FILE, {"stdin": PIPE, "stdout": PIPE, "stderr": DEVNULL}))  # outside a repository: silent
    start_early(*commands)


def take_early(args: list[str], where: str | None) -> Child | None:
    """The early process of ``git ARGS`` (``start_early``), when it was started
    in ``where`` with this same environment (whatever it said); None, and it
    is ended, when not."""
    found = _early.pop(tuple(args), None)
    if found is None:
        return None
    started_in, env, child = found
    if started_in == where and env == os.environ:
        return child
    _end(child)
    return None


def end_early() -> None:
    """End the early processes nobody took (a command that stopped first)."""
    while _early:
        _end(_early.popitem()[1][2])


def _end(child: Child) -> None:
    child.kill()
    for f in (child.stdin, child.stdout, child.stderr):
        if f is not None:
            f.close()
    child.wait()
