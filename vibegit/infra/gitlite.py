"""What the lock check's quick path (handlers/quicklock.py) needs of the
infrastructure, importing nothing: the environment vibegit runs git in
(which ``git`` shares), a git process on two pipes, and this host's name
(which ``machine`` shares). Everything else starts git through ``git``."""

from __future__ import annotations

import os

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
IN_HOOK = "VIBEGIT_IN_HOOK"  # set while vibegit runs git: its own hooks stay quiet then


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


class Git:
    """A git process with pipes to its stdin and stdout (stderr discarded),
    started with ``posix_spawn``: no ``subprocess`` (and its imports) needed."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        to_child, self._stdin = os.pipe()
        from_child, from_git = os.pipe()
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            actions = [(os.POSIX_SPAWN_DUP2, to_child, 0), (os.POSIX_SPAWN_DUP2, from_git, 1)]
            actions.append((os.POSIX_SPAWN_DUP2, null, 2))
            self._pid = os.posix_spawnp(args[0], args, env, file_actions=actions)
        except BaseException:
            os.close(self._stdin)
            os.close(from_child)
            raise
        finally:
            for fd in (to_child, from_git, null):
                os.close(fd)
        self._out = os.fdopen(from_child, "rb")

    def get(self, name: str, limit: int = 1 << 20) -> tuple[str, bytes] | None:
        """``cat-file --batch``: the type and content of object ``name``, None
        when missing; larger than ``limit`` bytes is a ValueError (the process
        is then of no further use)."""
        if "\n" in name:
            raise ValueError(f"no object name: {name!r:.60}")
        os.write(self._stdin, name.encode("utf-8", "surrogateescape") + b"\n")
        header = self._out.readline().split()
        if len(header) != 3:
            return None  # "<name> missing", "ambiguous": the full check says why
        if int(header[2]) > limit:
            raise ValueError(f"{name}: {header[2].decode()} bytes, more than {limit}")
        data = self._out.read(int(header[2]) + 1)[:-1]
        return header[1].decode(), data

    def output(self) -> bytes:
        os.close(self._stdin)
        self._stdin = -1
        return self._out.read()

    def close(self) -> None:
        if self._stdin >= 0:
            os.close(self._stdin)
        self._out.close()
        os.waitpid(self._pid, 0)
