"""``workflow.lock``: present while a workflow runs (``locked: true``) or is paused."""

from __future__ import annotations

from vibegit.core.model import Lock, is_machine_id
from vibegit.core.schema import lock_dict
from vibegit.infra.formats.yamldoc import YamlDoc, dump, extra

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from typing import Any

NAME = "workflow.lock"

_LOCK_KEYS = ("locked", "workflow", "locked_at", "reason", "unlock_conditions", "paused", "host", "worktree", "machine")


def parse_lock(data: bytes, name: str = NAME) -> Lock:
    doc = YamlDoc(data, name)
    d = doc.data
    return Lock(
        locked=doc.bool_(d, ("locked",), True),
        workflow=doc.str_(d, ("workflow",), optional=False) or "",
        locked_at=doc.str_(d, ("locked_at",)) or "",
        reason=doc.str_(d, ("reason",)) or "",
        unlock_conditions=doc.str_list(d, ("unlock_conditions",)),
        paused=doc.bool_(d, ("paused",), False),
        host=doc.str_(d, ("host",)) or "",
        worktree=doc.str_(d, ("worktree",)) or "",
        machine=machine_id(doc, d, ("machine",)),
        extra=extra(d, _LOCK_KEYS),
    )


def machine_id(doc: YamlDoc, sec: dict[str, Any], path: tuple[str, ...]) -> str:
    """A holder's machine id as a state file records it ("" for none)."""
    value = doc.str_(sec, path) or ""
    if value and (not isinstance(sec.get(path[-1]), str) or not is_machine_id(value)):
        raise doc.error(path, f"not a machine id ({value[:40]!r}: 16 to 64 hex digits)")
    return value


def render_lock(lock: Lock) -> str:
    return dump(lock_dict(lock))
