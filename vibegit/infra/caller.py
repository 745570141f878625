"""The ``git push`` a pre-push hook runs under. Git tells a hook nothing of
``--dry-run`` (it runs the hook all the same), so the command line is read
from the process table: the nearest ancestor that is ``git ... push``, from
/proc where there is one, else ``ps``. Through the pre-commit framework the
hook is a few processes further down; an alias git expands by running
``git push ...`` again, which is the process found."""

from __future__ import annotations

import os
import re

MAX_UP = 8  # ancestors looked at
# git's own options before the command; those that take the next word as their value
_GIT_VALUE_OPTIONS = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"})
# push -n, possibly bundled with push's other one-letter flags (-vn, -fnu)
_SHORT_DRY = re.compile(r"-[vqfud46]*n[vqfud46]*")


def _process(pid: int) -> tuple[list[str], int] | None:
    """The arguments and parent of ``pid``."""
    proc = f"/proc/{pid}"
    if os.path.isdir(proc):
        try:
            with open(f"{proc}/cmdline", "rb") as f:
                argv = [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
            with open(f"{proc}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return None
        return argv, parent
    import subprocess  # here: Linux has /proc, and a push's hook does not pay for the import

    try:  # no /proc (macOS, the BSDs): ps, whose arguments are joined by spaces
        out = subprocess.run(
            ["ps", "-o", "ppid=", "-o", "args=", "-p", str(pid)], capture_output=True, text=True, timeout=5
        ).stdout.strip()
        ppid, _, args = out.partition(" ")
        return args.split(), int(ppid)
    except (OSError, ValueError, subprocess.SubprocessError):
        return None


def push_arguments(argv: list[str]) -> list[str] | None:
    """What follows ``push`` in a git command line; None when it is not ``git push``."""
    if not argv or os.path.basename(argv[0]) not in ("git", "git.exe"):
        return None
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        i += 2 if argv[i] in _GIT_VALUE_OPTIONS else 1
    if i >= len(argv) or argv[i] != "push":
        return None
    return argv[i + 1 :]


def is_dry_run(args: list[str]) -> bool:
    for arg in args:
        if arg in ("--", "--end-of-options"):  # what follows is a name (a remote "--dry-run"), a ref
            return False
        if arg.startswith("--dr") and "--dry-run".startswith(arg):  # git takes unique abbreviations
            return True
        if _SHORT_DRY.fullmatch(arg):
            return True
    return False


def push_is_dry_run() -> bool:
    """Whether the ``git push`` this hook runs under was asked for a dry run;
    False when that cannot be told (no ancestor is a ``git push``)."""
    pid = os.getppid()
    for _ in range(MAX_UP):
        if pid <= 1:
            return False
        found = _process(pid)
        if found is None:
            return False
        argv, parent = found
        args = push_arguments(argv)
        if args is not None:
            return is_dry_run(args)
        pid = parent
    return False
