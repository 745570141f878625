"""``kanban.md``: three columns of tasks, Todo / Doing / Done (待办 / 进行中 / 已完成)."""

from __future__ import annotations

from vibegit.core.messages import t
from vibegit.core.model import Task, TaskStatus
from vibegit.core.text import MAX_TEXT, bad_char, is_task_id
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


def task_line(line: str) -> tuple[str, str, str] | None:
    """A task line of the board, ``- [ ] T-001: title``, as its box, id and
    title (the id without ':' or white space, a title of at least one
    character and no line break), or None. String methods: ``re`` costs 2 ms to load."""
    if not line.startswith("- [") or line[4:6] != "] " or line[3:4] not in (" ", "x", "X", "~"):
        return None
    task_id, colon, title = line[6:].partition(": ")
    if not colon or not task_id or not title or "\n" in title or ":" in task_id or any(c.isspace() for c in task_id):
        return None
    return line[3], task_id, title


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
        item = task_line(line)
        if item is None:
            raise BadInput(f"{name}:{number}: expected a task line '- [ ] T-001: title', found {line!r:.60}")
        if column is None:
            raise BadInput(f"{name}:{number}: task before any column heading (## Todo / ## Doing / ## Done)")
        task_id, title = item[1], item[2].strip()
        if not is_task_id(task_id):
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
