"""The one error family: each known error is one line and an exit code."""
from __future__ import annotations

OK = 0
REFUSED = 1  # refused by the rules: illegal transition, commit blocked, declined
BAD_INPUT = 2  # bad input or usage, with the file, line or argument at fault
UNEXPECTED = 3  # anything else: one line plus a log path


class VibegitError(Exception):
    """A known failure; ``str(err)`` is the one line shown to the user."""

    code = BAD_INPUT


class BadInput(VibegitError):
    code = BAD_INPUT


class Refused(VibegitError):
    code = REFUSED


class GitError(VibegitError):
    """A git command failed where it should not have."""

    code = UNEXPECTED
