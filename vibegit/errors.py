"""The one error family: each known error is one line and an exit code;
anything else is logged with versions to a file the user is pointed to."""

from __future__ import annotations

import os
import sys
import time

from vibegit import __version__

OK = 0
REFUSED = 1  # refused by the rules: illegal transition, commit blocked, declined
BAD_INPUT = 2  # bad input or usage, with the file, line or argument at fault; or the environment (a remote)
UNEXPECTED = 3  # anything else: one line plus a log path


class VibegitError(Exception):
    """A known failure; ``str(err)`` is the one line shown to the user."""

    code = BAD_INPUT


class BadInput(VibegitError):
    code = BAD_INPUT


class Refused(VibegitError):
    code = REFUSED


class Unavailable(VibegitError):
    """The environment failed, not vibegit: a remote that cannot be reached,
    is not a repository, or refuses these credentials (git's own line said)."""

    code = BAD_INPUT


class Interrupted(Unavailable):
    """A transfer with a remote broke off (a remote busy packing while
    others push, a dropped connection): sync tries again, then says so."""


class GitError(VibegitError):
    """A git command failed where it should not have."""

    code = UNEXPECTED


def log_path() -> str:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "vibegit", "error.log")


def log_unexpected(argv: list[str]) -> str:
    """Append the current exception's traceback to the error log; the log's path, to show."""
    import traceback  # only when something went wrong

    path = log_path()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)  # never through a link
        with os.fdopen(os.open(path, flags, 0o600), "a") as f:
            f.write(
                f"--- {time.strftime('%Y-%m-%dT%H:%M:%S')} vibegit {__version__} "
                f"python {sys.version.split()[0]} argv {argv!r}\n"
            )
            f.write(traceback.format_exc())
        return path
    except OSError:
        return "(could not write a log)"
