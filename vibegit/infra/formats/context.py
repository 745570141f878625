"""``active_context.md``: goal, current task, TODO list and free notes; goal and notes are editable by hand."""

from __future__ import annotations

from vibegit.core.model import State, TaskStatus
from vibegit.errors import BadInput
from vibegit.infra.formats.yamldoc import decode

NAME = "active_context.md"

_EDITABLE = ("Goal", "Notes")


def _sections(text: str) -> dict[str, str]:
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.split("\n"):
        line = line.rstrip("\r")
        if line.startswith("## "):
            current = sections.setdefault(line[3:].strip(), [])
        elif current is not None:
            current.append(line)
    return {k: "\n".join(v).strip() for k, v in sections.items()}


def parse_context(data: bytes, name: str = NAME) -> tuple[str, str]:
    """The hand-editable parts of ``active_context.md``: goal and notes."""
    sections = _sections(decode(data, name))
    goal = sections.get("Goal", "")
    if "\n" in goal:
        raise BadInput(f"{name}: the Goal section must be one line")
    return goal, sections.get("Notes", "")


def render_context(state: State) -> str:
    current = state.task(state.workflow.current_task or "")
    lines = [
        "# Active context",
        "",
        "## Goal",
        state.context.goal,
        "",
        "## Current task",
        f"{current.id}: {current.title} ({current.status.value})" if current else "(none)",
        "",
        "## TODO",
        *[f"- [{'x' if t.status is TaskStatus.DONE else ' '}] {t.id}: {t.title}" for t in state.tasks],
        "",
        "## Notes",
        state.notes,
        "",
    ]
    return "\n".join(lines)


def derived_context_differs(edited: str, state: State) -> bool:
    """True when a hand edit touched the generated sections of active_context.md."""
    ours, theirs = _sections(render_context(state)), _sections(edited)
    return any(ours.get(k) != theirs.get(k) for k in set(ours) | set(theirs) if k not in _EDITABLE)
