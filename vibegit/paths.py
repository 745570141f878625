"""Files of the working tree: paths that come from state files, settings or
arguments (relative to the repository, inside it), and atomic writes.
Kept apart so that settings need no YAML import."""
from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

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


def write_atomic(path: Path, data: bytes, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` in one rename, so no reader sees half a
    file; ``mode`` defaults to the old file's, else 0o644."""
    if mode is None:
        mode = path.stat().st_mode & 0o7777 if path.is_file() else 0o644
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
