"""Paths that come from state files, settings or arguments: relative to the
repository and inside it (kept apart so settings need no YAML import)."""
from __future__ import annotations

import re

from vibegit.errors import BadInput


def check_relative_path(path: str, what: str) -> str:
    """A path relative to the repository, inside it, outside .git, plain text."""
    parts = path.replace("\\", "/").split("/")
    if not path or path.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", path) or ".." in parts:
        raise BadInput(f"{what}: {path[:80]!r} must be a path relative to the repository, inside it")
    if any(ch in path for ch in "\0\n\r"):
        raise BadInput(f"{what}: path holds a control character")
    if parts[0] == ".git":
        raise BadInput(f"{what}: {path[:80]!r} is inside .git, not the working tree")
    return path
