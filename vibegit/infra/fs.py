"""Files vibegit writes: atomic replacement."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

TEMP = ".vibegit-tmp-"  # the scratch file of a write, beside its target until the rename


def write_atomic(path: Path, data: bytes, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` in one rename, so no reader sees half a
    file; ``mode`` defaults to the old file's, else 0o644."""
    if mode is None:
        mode = path.stat().st_mode & 0o7777 if path.is_file() else 0o644
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}{TEMP}")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def remove_leftovers(path: Path) -> None:
    """The scratch files of writes to ``path`` that a killed process left behind
    (call it where no other writer of ``path`` can be running: under the store's lock)."""
    for stale in path.parent.glob(f".{path.name}{TEMP}*"):
        if stale.is_file() and not stale.is_symlink():
            stale.unlink(missing_ok=True)
