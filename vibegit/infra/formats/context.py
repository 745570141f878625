"""``active_context.md``: goal, current task, TODO list and free notes; goal and notes are editable by hand."""

from __future__ import annotations

import re

from vibegit.core.model import State, TaskStatus
from vibegit.core.text import bad_char, clean, inert, unescape
from vibegit.errors import BadInput
from vibegit.infra.formats.yamldoc import decode

NAME = "active_context.md"

_EDITABLE = ("Goal", "Notes")
_SECTION = re.compile(r"\\*## ")  # a line of the notes that would start a section, escaped or not


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
    notes = sections.get("Notes", "")
    for what, text, one_line in (("Goal", goal, True), ("Notes", notes, False)):
        bad = bad_char(text.replace("\r", ""), one_line)
        if bad is not None:
            raise BadInput(f"{name}: the {what} section holds a control character ({bad!r})")
    notes = "\n".join(
        line[1:] if _SECTION.match(line) and line.startswith("\\") else line for line in notes.split("\n")
    )
    return unescape(goal), notes


def render_context(state: State) -> str:
    current = state.task(state.workflow.current_task or "")
    lines = [
        "# Active context",
        "",
        "## Goal",
        inert(state.context.goal),
        "",
        "## Current task",
        f"{current.id}: {clean(current.title)} ({current.status.value})" if current else "(none)",
        "",
        "## TODO",
        *[f"- [{'x' if t.status is TaskStatus.DONE else ' '}] {t.id}: {clean(t.title)}" for t in state.tasks],
        "",
        "## Notes",
        # A line of the notes never starts a section of the file (parse_context takes the backslash back).
        "\n".join("\\" + line if _SECTION.match(line) else line for line in state.notes.split("\n")),
        "",
    ]
    return "\n".join(lines)


def derived_context_differs(edited: str, state: State) -> bool:
    """True when a hand edit touched the generated sections of active_context.md."""
    ours, theirs = _sections(render_context(state)), _sections(edited)
    return any(ours.get(k) != theirs.get(k) for k in set(ours) | set(theirs) if k not in _EDITABLE)
