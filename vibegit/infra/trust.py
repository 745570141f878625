"""The user's trust in a project's hook commands.

``.vibegit/hooks.yaml`` is project content: whoever wrote the clone, the
branch just checked out or the pull request under review wrote it. Its
commands run only once the user has read them and said so with ``vibegit
trust``. The trust is recorded outside the working tree and the state
branch (as direnv and mise do), one small file per repository path, file
path and SHA-256 of the file's bytes, under ``$XDG_DATA_HOME/vibegit/trust/``
(``~/.local/share/vibegit/trust/`` without it). Any change to the file (an
edit, a checkout of another branch, a pull) needs trust again. Git config
hooks are the user's own and need none.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat

from vibegit.errors import BadInput
from vibegit.infra import fs

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from typing import Any

DIR = "vibegit/trust"


def data_home() -> str:
    """The user's data directory (followed as it is: it is theirs, not a project's)."""
    return os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")


def _place(top: str, rel: str) -> str:
    return hashlib.sha256(f"{top}\0{rel}".encode(errors="surrogateescape")).hexdigest()[:32]


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def entry(top: str, rel: str, data: bytes) -> str:
    """The trust store's name for these bytes at this path of this repository."""
    return f"{DIR}/{_place(top, rel)}-{digest(data)}"


def is_trusted(top: str, rel: str, data: bytes) -> bool:
    try:
        found = fs.lstat(data_home(), entry(top, rel, data))
    except BadInput:  # a link in the store: trust nothing from it
        return False
    return found is not None and stat.S_ISREG(found.st_mode)


def record(top: str, rel: str, data: bytes, when: str, commands: dict[str, Any]) -> str:
    """Trust these bytes; the entry's path (it says what was trusted, for the user to read)."""
    name = entry(top, rel, data)
    body = {
        "repository": top,
        "file": rel,
        "sha256": digest(data),
        "trusted_at": when,
        "commands": commands,
    }
    os.makedirs(data_home(), exist_ok=True)  # the user's directory; below it, no link is followed
    fs.write(data_home(), name, (json.dumps(body, ensure_ascii=False, indent=2) + "\n").encode(), 0o600)
    return os.path.join(data_home(), name)


def forget(top: str, rel: str) -> int:
    """Forget every trusted version of ``rel`` in this repository; how many there were."""
    prefix = f"{_place(top, rel)}-"
    removed = 0
    try:
        with fs.opendir(data_home(), DIR) as d:
            names = [n for n in d.listdir() if n.startswith(prefix)]
    except (FileNotFoundError, NotADirectoryError):
        return 0
    for name in names:
        removed += fs.remove(data_home(), f"{DIR}/{name}")
    return removed
