"""``index.yaml``: the workflows of the state branch, one line of facts each.

Derived from ``workflows/<id>/``: every event rewrites its own entry, and
``doctor --repair`` rebuilds the whole index from the workflows.
"""

from __future__ import annotations

from vibegit.core import workflows
from vibegit.core.model import Phase, Status
from vibegit.core.workflows import Summary
from vibegit.errors import BadInput
from vibegit.infra.formats.lock import machine_id
from vibegit.infra.formats.yamldoc import YamlDoc, dump

NAME = "index.yaml"
MAX_WORKFLOWS = 10_000


def parse_index(data: bytes, name: str = NAME) -> tuple[Summary, ...]:
    doc = YamlDoc(data, name)
    raw = doc.seq(doc.data, ("workflows",), MAX_WORKFLOWS, "workflows")
    found: list[Summary] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        where = f"{name}: workflows[{i}]"
        if not isinstance(item, dict):
            raise BadInput(f"{where}: expected a mapping")
        path = ("workflows",)
        workflow_id = workflows.check_id(str(doc.str_(item, (*path, "id"), optional=False)), f"{where}.id")
        if workflow_id in seen:
            raise BadInput(f"{where}.id: {workflow_id} appears twice")
        seen.add(workflow_id)
        found.append(
            Summary(
                id=workflow_id,
                name=doc.str_(item, (*path, "name")) or workflow_id,
                status=doc.enum(item, (*path, "status"), Status, Status.INIT) or Status.INIT,
                branch=doc.str_(item, (*path, "branch")),
                worktree=doc.str_(item, (*path, "worktree")) or "",
                host=doc.str_(item, (*path, "host")) or "",
                holder=doc.str_(item, (*path, "holder")) or "",
                machine=machine_id(doc, item, (*path, "machine")),
                phase=doc.enum(item, (*path, "phase"), Phase, None),
                step=doc.str_(item, (*path, "step")),
                done=_count(item.get("done"), f"{where}.done"),
                total=_count(item.get("total"), f"{where}.total"),
                updated_at=doc.str_(item, (*path, "updated_at")) or "",
            )
        )
    return tuple(found)


def _count(value: object, where: str) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadInput(f"{where}: expected a whole number")
    return value


def render_index(index: tuple[Summary, ...]) -> str:
    return (
        "# vibegit: the workflows of this state branch (derived from workflows/; doctor --repair rebuilds it)\n"
        + dump({"workflows": [s.as_dict() for s in index]})
    )
