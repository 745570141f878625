"""The repository: found from a directory (``find_repo``, one ``rev-parse``),
and what vibegit reads of its configuration (``read_config``, one ``git
config``; the files it comes from, ``config_files``; the identity that signs
the state's commits)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from vibegit.core.records import NamedTuple
from vibegit.errors import BadInput
from vibegit.infra.git.process import Done, Repo, run, text
from vibegit.infra.gitlite import FIND_REPO, READ_CONFIG

FALLBACK_NAME = "vibegit"  # the identity where none is set (fresh CI)
FALLBACK_EMAIL = "vibegit@localhost"


def rev_parse(options: list[list[str]], cwd: Path | None = None, early: str | None = None) -> tuple[list[str], Done]:
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


def find_repo(cwd: Path | None = None) -> Repo:
    """The repository around ``cwd``; a clear error outside one."""
    here = None
    if cwd is None:
        try:
            here = os.getcwd()
        except FileNotFoundError:
            raise BadInput("the current directory no longer exists (deleted or moved): cd into a repository") from None
    lines, proc = rev_parse([list(group) for group in FIND_REPO], cwd, early=here)
    where = cwd if cwd is not None else Path(str(here))  # what paths git gives are relative to
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
        toplevel=Path(top),
        git_dir=Path(git_dir),
        common_dir=(where / common).resolve(),
        objects_dir=(where / objects).resolve(),
        object_format=fmt,
    )
    if here is not None:
        _found_here[:] = [(repo, here)]
    return repo


_found_here: list[tuple[Repo, str]] = []  # the repository last found from this process's directory, and that directory


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
    proc = run(READ_CONFIG, cwd=repo.toplevel, check=False, early=early_for(repo))
    config = Config()
    for item in proc.stdout.decode(errors="replace").split("\0"):
        if item:
            key, _, value = item.partition("\n")
            section, dot, rest = key.partition(".")
            middle, _, name = rest.rpartition(".")
            config.add(f"{section.lower()}{dot}{middle}{'.' if middle else ''}{name.lower()}", value)
    return config


def config_files(repo: Repo) -> list[Path] | None:
    """Every file ``repo``'s config can come from, for a long-running process
    to tell by their ``stamp`` that the config it read is still current: the
    files git names as the origins of its settings now, and the ones it reads
    when they exist (the repository's own, the worktree's, the user's, the
    system's). None when that cannot be told from files alone: an include
    (its file may not exist yet, and includeIf may hang on the branch)."""
    proc = run(["config", "-z", "--list", "--show-origin", "--name-only"], cwd=repo.toplevel, check=False)
    listed = proc.stdout.split(b"\0")
    files = {repo.common_dir / "config", repo.git_dir / "config.worktree"}
    for origin, name in zip(listed[0::2], listed[1::2], strict=False):
        if name.lower().startswith((b"include.", b"includeif.")):
            return None
        if origin.startswith(b"file:"):
            files.add(repo.toplevel / text(origin[5:]))  # relative to where git ran
    home = Path(os.environ.get("HOME") or os.path.expanduser("~"))
    xdg = os.environ.get("XDG_CONFIG_HOME") or str(home / ".config")
    given = os.environ.get("GIT_CONFIG_GLOBAL")
    files.update([Path(given)] if given else [home / ".gitconfig", Path(xdg) / "git" / "config"])
    if os.environ.get("GIT_CONFIG_NOSYSTEM", "").lower() not in ("1", "true", "yes", "on"):
        files.add(Path(os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"))
    return sorted(files)


def stamp(paths: Iterable[Path]) -> tuple[tuple[int, int, int, int] | None, ...]:
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
