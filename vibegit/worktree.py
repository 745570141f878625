"""Reading the user's working tree: where a checkpoint's file:line is now."""

from __future__ import annotations

from pathlib import Path

from vibegit.core.anchors import Where, relocate

MAX_BYTES = 4 << 20


def locate(top: Path, file: str | None, line: int | None, text: str | None) -> Where | None:
    """The anchor in the working tree under ``top``; None without a file:line."""
    if not file or not line:
        return None
    path = top / file
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_BYTES:
            return Where("no-file") if not path.exists() else Where("unknown", line)
        data = path.read_bytes()
    except OSError:
        return Where("unknown", line)
    return relocate(data.decode("utf-8", errors="replace").splitlines(), line, text)
