"""``active_context.md``: goal, current task, TODO list and free notes; goal and notes are editable by hand.

Its headings are in the language of the run that wrote it (English or Chinese);
the parser reads both."""

from __future__ import annotations

from vibegit.core import messages
from vibegit.core.messages import t
from vibegit.core.model import State, TaskStatus
from vibegit.core.text import bad_char, clean, inert, unescape
from vibegit.errors import BadInput
from vibegit.infra.formats.yamldoc import decode

NAME = "active_context.md"

# Section headings by what they hold, in both languages.
_HEADINGS = {
    "goal": ("Goal", "目标"),
    "current": ("Current task", "当前任务"),
    "todo": ("TODO", "待办事项"),
    "notes": ("Notes", "笔记"),
}
_EDITABLE = (*_HEADINGS["goal"], *_HEADINGS["notes"])


def _starts_section(line: str) -> bool:
    """A line of the notes that would start a section, escaped (``\\## ``) or not."""
    return line.lstrip("\\").startswith("## ")


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
    goal = _section(sections, "goal")
    if "\n" in goal:
        raise BadInput(t("context.goal_one_line", name=name))
    notes = _section(sections, "notes")
    for what, text, one_line in (("Goal", goal, True), ("Notes", notes, False)):
        bad = bad_char(text.replace("\r", ""), one_line)
        if bad is not None:
            raise BadInput(t("context.control", name=name, what=what, bad=repr(bad)))
    notes = "\n".join(
        line[1:] if _starts_section(line) and line.startswith("\\") else line for line in notes.split("\n")
    )
    return unescape(goal), notes


def _section(sections: dict[str, str], what: str) -> str:
    return next((sections[h] for h in _HEADINGS[what] if h in sections), "")


def written_in(text: str) -> str:
    """The language a rendered ``active_context.md`` was written in."""
    return "zh" if f"## {_HEADINGS['goal'][1]}" in text.split("\n") else "en"


def render_context(state: State, lang: str | None = None) -> str:
    lang = lang or messages.lang()
    zh = lang == "zh"
    current = state.task(state.workflow.current_task or "")
    head = {what: names[1] if zh else names[0] for what, names in _HEADINGS.items()}
    status = t(f"task.{current.status.value}", lang) if current else ""
    lines = [
        f"# {t('context.title', lang)}",
        "",
        f"## {head['goal']}",
        inert(state.context.goal),
        "",
        f"## {head['current']}",
        f"{current.id}: {clean(current.title)} ({status})" if current else t("context.none", lang),
        "",
        f"## {head['todo']}",
        *[f"- [{'x' if x.status is TaskStatus.DONE else ' '}] {x.id}: {clean(x.title)}" for x in state.tasks],
        "",
        f"## {head['notes']}",
        # A line of the notes never starts a section of the file (parse_context takes the backslash back).
        "\n".join("\\" + line if _starts_section(line) else line for line in state.notes.split("\n")),
        "",
    ]
    return "\n".join(lines)


def derived_context_differs(edited: str, state: State) -> bool:
    """True when a hand edit touched the generated sections of active_context.md."""
    ours, theirs = _sections(render_context(state, written_in(edited))), _sections(edited)
    return any(ours.get(k) != theirs.get(k) for k in set(ours) | set(theirs) if k not in _EDITABLE)
