"""``workflow.lock``: present while a workflow runs (``locked: true``) or is paused."""

from __future__ import annotations

from vibegit.core.model import Lock
from vibegit.core.schema import lock_dict
from vibegit.infra.formats.yamldoc import YamlDoc, dump, extra

NAME = "workflow.lock"

_LOCK_KEYS = ("locked", "workflow", "locked_at", "reason", "unlock_conditions", "paused", "host", "worktree")


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
        extra=extra(d, _LOCK_KEYS),
    )


def render_lock(lock: Lock) -> str:
    return dump(lock_dict(lock))
