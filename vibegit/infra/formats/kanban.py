"""``kanban.md``: three columns of tasks, Todo / Doing / Done (待办 / 进行中 / 已完成)."""

from __future__ import annotations

import re

from vibegit.core.messages import t
from vibegit.core.model import Task, TaskStatus
from vibegit.core.text import MAX_TEXT, TASK_ID, bad_char
from vibegit.errors import BadInput
from vibegit.infra.formats.yamldoc import decode

NAME = "kanban.md"

_COLUMNS = {
    "todo": TaskStatus.TODO,
    "to do": TaskStatus.TODO,
    "待办": TaskStatus.TODO,
    "doing": TaskStatus.DOING,
    "in progress": TaskStatus.DOING,
    "进行中": TaskStatus.DOING,
    "done": TaskStatus.DONE,
    "已完成": TaskStatus.DONE,
}
_COLUMN_KEYS = {TaskStatus.TODO: "kanban.todo", TaskStatus.DOING: "kanban.doing", TaskStatus.DONE: "kanban.done"}
_BOX = {TaskStatus.TODO: " ", TaskStatus.DOING: "~", TaskStatus.DONE: "x"}
_ITEM = re.compile(r"- \[([ xX~])\] ([^:\s]+): (.+)\Z")


def parse_kanban(data: bytes, name: str = NAME) -> tuple[Task, ...]:
    text = decode(data, name)
    column: TaskStatus | None = None
    tasks: list[Task] = []
    seen: set[str] = set()
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if not line or line.startswith("# ") or line.startswith(">") or line.startswith("<!--"):
            continue
        if line.startswith("## "):
            title = line[3:].strip().lower()
            if title not in _COLUMNS:
                raise BadInput(f"{name}:{number}: unknown column {line[3:].strip()!r:.40} (use Todo, Doing, Done)")
            column = _COLUMNS[title]
            continue
        match = _ITEM.match(line)
        if not match:
            raise BadInput(f"{name}:{number}: expected a task line '- [ ] T-001: title', found {line!r:.60}")
        if column is None:
            raise BadInput(f"{name}:{number}: task before any column heading (## Todo / ## Doing / ## Done)")
        task_id, title = match.group(2), match.group(3).strip()
        if not TASK_ID.match(task_id):
            raise BadInput(f"{name}:{number}: bad task id {task_id!r:.40}")
        if task_id in seen:
            raise BadInput(f"{name}:{number}: task {task_id} appears twice")
        if len(title) > MAX_TEXT:
            raise BadInput(f"{name}:{number}: task title too long")
        if bad_char(title) is not None:
            raise BadInput(f"{name}:{number}: task title holds a control character ({bad_char(title)!r})")
        seen.add(task_id)
        tasks.append(Task(task_id, title, column))
    return tuple(tasks)


def render_kanban(tasks: tuple[Task, ...]) -> str:
    """The three columns, headed in this run's language (the parser reads both)."""
    lines = [f"# {t('kanban.title')}", ""]
    for status, key in _COLUMN_KEYS.items():
        lines.append(f"## {t(key)}")
        lines += [f"- [{_BOX[status]}] {t.id}: {t.title}" for t in tasks if t.status is status]
        lines.append("")
    return "\n".join(lines)
