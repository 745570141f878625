"""Parse and render the state files of SPEC §4.

Parsing is strict and safe: a safe YAML loader with no aliases (no
billion-laughs), no object-constructing tags, bounded sizes, and every error
names the file and line.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Callable, TypeVar

import yaml

from vibegit.core.schema import entry_dict, lock_dict, session_dict
from vibegit.core.text import MAX_TEXT, MEMORY_ID, TASK_ID, bad_char, check_relative_path, is_oid
from vibegit.errors import BadInput
from vibegit.core.model import (
    Checkpoint,
    Context,
    Lock,
    Memory,
    MemoryCategory,
    MemoryEntry,
    Mode,
    ModeType,
    Phase,
    Session,
    State,
    Status,
    Task,
    TaskStatus,
    Workflow,
)

SESSION = "session.yaml"
LOCK = "workflow.lock"
CONTEXT = "active_context.md"
KANBAN = "kanban.md"
CHECKPOINT = "checkpoint.md"
MEMORY = "memory.yaml"
STATE_FILES = (SESSION, LOCK, CONTEXT, KANBAN, CHECKPOINT, MEMORY)

MAX_FILE_BYTES = 1 << 20

E = TypeVar("E")


def decode(data: bytes, name: str) -> str:
    if len(data) > MAX_FILE_BYTES:
        raise BadInput(f"{name}: too large ({len(data)} bytes, at most {MAX_FILE_BYTES})")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise BadInput(f"{name}:{line}: not valid UTF-8") from None
    if "\0" in text:
        raise BadInput(f"{name}:{text[: text.index(chr(0))].count(chr(10)) + 1}: contains a NUL byte")
    return text


# -- YAML ---------------------------------------------------------------------


class _Loader(yaml.SafeLoader):
    """Safe loader without aliases; plain scalars stay strings but for
    null, booleans and integers (so ``step: 4.3`` and timestamps stay text)."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed", mark)
        return super().compose_node(parent, index)


_Loader.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in resolvers if tag.endswith((":null", ":bool", ":int"))]
    for ch, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


class YamlDoc:
    """A parsed YAML mapping that remembers where each key was."""

    def __init__(self, data: bytes, name: str) -> None:
        self.name = name
        text = decode(data, name)
        loader = None
        try:
            loader = _Loader(text)
            self.node = loader.get_single_node()
            value = loader.construct_document(self.node) if self.node is not None else None
        except yaml.YAMLError as err:
            mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
            if mark is not None:
                line = mark.line + 1
            else:  # a ReaderError: an unprintable character at a position
                line = text[: getattr(err, "position", 0)].count("\n") + 1
            problem = getattr(err, "problem", None) or getattr(err, "reason", None) or "unreadable"
            raise BadInput(f"{name}:{line}: invalid YAML: {problem}") from None
        except RecursionError:
            raise BadInput(f"{name}: invalid YAML: nested too deeply") from None
        finally:
            if loader is not None:
                loader.dispose()
        if not isinstance(value, dict):
            raise BadInput(f"{name}:1: expected a mapping of keys, found {type(value).__name__}")
        self.data: dict[str, Any] = value

    def line(self, *path: str) -> int:
        node = self.node
        found = 1
        for key in path:
            if not isinstance(node, yaml.MappingNode):
                break
            for k, v in node.value:
                if k.value == key:
                    found, node = k.start_mark.line + 1, v
                    break
            else:
                break
        return found

    def error(self, path: tuple[str, ...], message: str) -> BadInput:
        return BadInput(f"{self.name}:{self.line(*path)}: {'.'.join(path)}: {message}")

    def section(self, key: str, required: bool = True) -> dict[str, Any]:
        value = self.data.get(key)
        if value is None and not required:
            return {}
        if not isinstance(value, dict):
            raise self.error((key,), "expected a mapping")
        return value

    def str_(self, sec: dict[str, Any], path: tuple[str, ...], *, optional: bool = True) -> str | None:
        value = sec.get(path[-1])
        if value is None:
            if optional:
                return None
            raise self.error(path, "missing")
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise self.error(path, f"expected text, found {type(value).__name__}")
        value = str(value)
        if len(value) > MAX_TEXT * 4:
            raise self.error(path, f"text too long ({len(value)} characters)")
        bad = bad_char(value)  # every text of the state files is one line: it reaches commit trailers
        if bad is not None:
            raise self.error(path, f"holds a control or line-break character ({bad!r})")
        return value

    def int_(self, sec: dict[str, Any], path: tuple[str, ...]) -> int | None:
        value = sec.get(path[-1])
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 10**9:
            raise self.error(path, f"expected a positive whole number, found {value!r:.40}")
        return value

    def bool_(self, sec: dict[str, Any], path: tuple[str, ...], default: bool) -> bool:
        value = sec.get(path[-1], default)
        if not isinstance(value, bool):
            raise self.error(path, f"expected true or false, found {value!r:.40}")
        return value

    def enum(self, sec: dict[str, Any], path: tuple[str, ...], kind: type[E], default: E | None) -> E | None:
        value = sec.get(path[-1])
        if value is None:
            return default
        try:
            return kind(str(value))  # type: ignore[call-arg]
        except ValueError:
            allowed = " ".join(m.value for m in kind)  # type: ignore[attr-defined]
            raise self.error(path, f"{value!r:.40} is not one of: {allowed}") from None

    def str_list(self, sec: dict[str, Any], path: tuple[str, ...]) -> tuple[str, ...]:
        value = sec.get(path[-1]) or []
        if not isinstance(value, list) or not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
            raise self.error(path, "expected a list of text")
        for item in value:
            if bad_char(str(item)) is not None or len(str(item)) > MAX_TEXT * 4:
                raise self.error(path, "an item is too long or holds a control or line-break character")
        return tuple(str(v) for v in value)


def _extra(sec: dict[str, Any], known: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in sec.items() if k not in known}


def _dump(data: dict[str, Any]) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=False, width=1000)


# -- session.yaml -------------------------------------------------------------

_SESSION_KEYS = ("id", "created_at", "updated_at")
_MODE_KEYS = ("type", "workflow_name", "phase", "step")
_WORKFLOW_KEYS = ("started_at", "branch", "current_task", "total_tasks", "completed_tasks", "status")
_CONTEXT_KEYS = ("goal", "last_action", "next_action", "pending_questions")
_CHECKPOINT_KEYS = ("commit", "branch", "snapshot", "file", "line", "line_text", "action", "created_at")
_TOP_KEYS = ("session", "mode", "workflow", "context", "checkpoint")


def parse_session(data: bytes, name: str = SESSION) -> State:
    """``session.yaml`` into a State without tasks, lock or notes."""
    doc = YamlDoc(data, name)
    s, m, w = doc.section("session"), doc.section("mode"), doc.section("workflow", required=False)
    c, k = doc.section("context", required=False), doc.section("checkpoint", required=False)
    session = Session(
        id=doc.str_(s, ("session", "id"), optional=False) or "",
        created_at=doc.str_(s, ("session", "created_at")) or "",
        updated_at=doc.str_(s, ("session", "updated_at")) or "",
        extra=_extra(s, _SESSION_KEYS),
    )
    mode = Mode(
        type=doc.enum(m, ("mode", "type"), ModeType, ModeType.CONVERSATION) or ModeType.CONVERSATION,
        workflow_name=doc.str_(m, ("mode", "workflow_name")),
        phase=doc.enum(m, ("mode", "phase"), Phase, None),
        step=doc.str_(m, ("mode", "step")),
        extra=_extra(m, _MODE_KEYS),
    )
    current = doc.str_(w, ("workflow", "current_task"))
    workflow = Workflow(
        status=doc.enum(w, ("workflow", "status"), Status, Status.INIT) or Status.INIT,
        started_at=doc.str_(w, ("workflow", "started_at")),
        branch=doc.str_(w, ("workflow", "branch")),
        current_task=current,
        extra=_extra(w, _WORKFLOW_KEYS),
    )
    for key in ("total_tasks", "completed_tasks"):  # derived from the kanban, checked for type only
        if key in w and (isinstance(w[key], bool) or not isinstance(w[key], int)):
            raise doc.error(("workflow", key), "expected a whole number")
    context = Context(
        goal=doc.str_(c, ("context", "goal")) or "",
        last_action=doc.str_(c, ("context", "last_action")) or "",
        next_action=doc.str_(c, ("context", "next_action")) or "",
        pending_questions=doc.str_list(c, ("context", "pending_questions")),
        extra=_extra(c, _CONTEXT_KEYS),
    )
    checkpoint = None
    if k:
        path = doc.str_(k, ("checkpoint", "file"))
        if path is not None:
            check_relative_path(path, f"{name}:{doc.line('checkpoint', 'file')}: checkpoint.file")
        for key in ("commit", "snapshot"):
            if k.get(key) is not None and not is_oid(k[key]):
                raise doc.error(("checkpoint", key), f"{str(k[key])!r:.50} is not an object id")
        checkpoint = Checkpoint(
            commit=doc.str_(k, ("checkpoint", "commit")),
            branch=doc.str_(k, ("checkpoint", "branch")),
            snapshot=doc.str_(k, ("checkpoint", "snapshot")),
            file=path,
            line=doc.int_(k, ("checkpoint", "line")),
            line_text=doc.str_(k, ("checkpoint", "line_text")),
            action=doc.str_(k, ("checkpoint", "action")) or "",
            created_at=doc.str_(k, ("checkpoint", "created_at")) or "",
            extra=_extra(k, _CHECKPOINT_KEYS),
        )
    if current is not None and not TASK_ID.match(current):
        raise doc.error(("workflow", "current_task"), f"bad task id {current!r:.40}")
    return State(
        session=session,
        mode=mode,
        workflow=workflow,
        context=context,
        checkpoint=checkpoint,
        extra=_extra(doc.data, _TOP_KEYS),
    )


def render_session(state: State) -> str:
    return "# vibegit session state (SPEC §4); edits are adopted by the next event\n" + _dump(
        session_dict(state)
    )


# -- workflow.lock ------------------------------------------------------------

_LOCK_KEYS = ("locked", "workflow", "locked_at", "reason", "unlock_conditions", "paused", "host", "worktree")


def parse_lock(data: bytes, name: str = LOCK) -> Lock:
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
        extra=_extra(d, _LOCK_KEYS),
    )


def render_lock(lock: Lock) -> str:
    return _dump(lock_dict(lock))


# -- kanban.md ----------------------------------------------------------------

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
_COLUMN_TITLES = {TaskStatus.TODO: "Todo", TaskStatus.DOING: "Doing", TaskStatus.DONE: "Done"}
_BOX = {TaskStatus.TODO: " ", TaskStatus.DOING: "~", TaskStatus.DONE: "x"}
_ITEM = re.compile(r"- \[([ xX~])\] ([^:\s]+): (.+)\Z")


def parse_kanban(data: bytes, name: str = KANBAN) -> tuple[Task, ...]:
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
    lines = ["# Kanban", ""]
    for status, title in _COLUMN_TITLES.items():
        lines.append(f"## {title}")
        lines += [f"- [{_BOX[status]}] {t.id}: {t.title}" for t in tasks if t.status is status]
        lines.append("")
    return "\n".join(lines)


# -- active_context.md --------------------------------------------------------

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


def parse_context(data: bytes, name: str = CONTEXT) -> tuple[str, str]:
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


# -- checkpoint.md (rendered only) --------------------------------------------


def render_checkpoint(state: State) -> str:
    k = state.checkpoint
    if k is None:
        return "# Checkpoint\n\nNo checkpoint yet. Take one with `vibegit checkpoint`.\n"
    where = f"{k.file}:{k.line}" if k.file and k.line else (k.file or "(none)")
    lines = [
        "# Checkpoint",
        "",
        "## Time",
        k.created_at,
        "",
        "## Position",
        f"- Workflow: {state.mode.workflow_name or '(none)'}",
        f"- Phase: {state.mode.phase.value if state.mode.phase else '(none)'}"
        + (f", step {state.mode.step}" if state.mode.step else ""),
        f"- Task: {state.workflow.current_task or '(none)'}",
        f"- File: {where}",
        f"- Commit: {k.commit or '(no commit yet)'} on {k.branch or 'a detached HEAD'}",
        f"- Snapshot of uncommitted work: {k.snapshot or 'none'}",
        "",
        "## Pending work",
        k.action or state.context.next_action or "(not recorded)",
        "",
        "## How to resume",
        "Run `vibegit resume`.",
        "",
    ]
    return "\n".join(lines)


# -- memory.yaml --------------------------------------------------------------

_ENTRY_KEYS = ("id", "category", "text", "created_at", "source", "heading")
_MEMORY_KEYS = ("entries", "learned")
MAX_MEMORY_ENTRIES = 5000


def parse_memory(data: bytes, name: str = MEMORY) -> Memory:
    """``memory.yaml``: a list of entries and the learned docs' blob ids."""
    doc = YamlDoc(data, name)
    raw = doc.data.get("entries") or []
    if not isinstance(raw, list):
        raise doc.error(("entries",), "expected a list of entries")
    if len(raw) > MAX_MEMORY_ENTRIES:
        raise doc.error(("entries",), f"too many entries ({len(raw)}, at most {MAX_MEMORY_ENTRIES})")
    items = doc.node.value if doc.node is not None else []
    seq = next((v for k, v in items if k.value == "entries"), None)

    def line(i: int) -> int:
        if isinstance(seq, yaml.SequenceNode) and i < len(seq.value):
            return seq.value[i].start_mark.line + 1
        return doc.line("entries")

    entries: list[MemoryEntry] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        where = f"{name}:{line(i)}: entries[{i}]"
        if not isinstance(item, dict):
            raise BadInput(f"{where}: expected a mapping with id, category and text")
        values: dict[str, str | None] = {}
        for key in _ENTRY_KEYS:
            value = item.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (str, int))):
                raise BadInput(f"{where}.{key}: expected text, found {type(value).__name__}")
            values[key] = None if value is None else str(value)
        entry_id, text = values["id"] or "", (values["text"] or "").strip()
        if not MEMORY_ID.match(entry_id):
            raise BadInput(f"{where}.id: {entry_id!r:.40} is not an id like M-001")
        if entry_id in seen:
            raise BadInput(f"{where}.id: {entry_id} appears twice")
        seen.add(entry_id)
        try:
            category = MemoryCategory(values["category"] or "")
        except ValueError:
            allowed = " ".join(c.value for c in MemoryCategory)
            raise BadInput(f"{where}.category: {values['category']!r:.40} is not one of: {allowed}") from None
        if not text or len(text) > MAX_TEXT or "\0" in text:
            raise BadInput(f"{where}.text: must be non-empty text of at most {MAX_TEXT} characters")
        source = values["source"]
        if source is not None:
            check_relative_path(source, f"{where}.source")
        entries.append(MemoryEntry(
            id=entry_id,
            category=category,
            text=text,
            created_at=values["created_at"] or "",
            source=source,
            heading=values["heading"],
            extra=_extra(item, _ENTRY_KEYS),
        ))
    learned = doc.data.get("learned") or {}
    if not isinstance(learned, dict) or not all(
        isinstance(k, str) and is_oid(v)
        for k, v in learned.items()
    ):
        raise doc.error(("learned",), "expected a mapping of doc path to blob id")
    for path in learned:
        check_relative_path(path, f"{name}:{doc.line('learned')}: learned")
    return Memory(tuple(entries), dict(learned), _extra(doc.data, _MEMORY_KEYS))


def render_memory(memory: Memory) -> str:
    data: dict[str, Any] = {"entries": [entry_dict(e) for e in memory.entries]}
    if memory.learned:
        data["learned"] = dict(sorted(memory.learned.items()))
    data.update(memory.extra)
    return "# vibegit memory (vibegit memory add/list/remove, vibegit learn); edits are adopted by the next event\n" + _dump(data)


# -- the whole state ----------------------------------------------------------


def render_all(state: State) -> dict[str, str]:
    """Every state file's text; ``workflow.lock`` only while a lock exists."""
    files = {
        SESSION: render_session(state),
        CONTEXT: render_context(state),
        KANBAN: render_kanban(state.tasks),
        CHECKPOINT: render_checkpoint(state),
    }
    if state.lock is not None:
        files[LOCK] = render_lock(state.lock)
    if state.memory:
        files[MEMORY] = render_memory(state.memory)
    return files


def parse_all(files: dict[str, bytes], where: str = "") -> State:
    """A State from the state files; no session.yaml means no state yet.

    ``where`` prefixes file names in errors (``vibegit/state:``)."""
    memory = parse_memory(files[MEMORY], where + MEMORY) if MEMORY in files else Memory()
    if SESSION not in files:
        return State(memory=memory)
    state = parse_session(files[SESSION], where + SESSION)
    tasks = parse_kanban(files[KANBAN], where + KANBAN) if KANBAN in files else ()
    notes = parse_context(files[CONTEXT], where + CONTEXT)[1] if CONTEXT in files else ""
    lock = parse_lock(files[LOCK], where + LOCK) if LOCK in files else None
    return replace(state, tasks=tasks, notes=notes, lock=lock, memory=memory)


Parser = Callable[[bytes, str], object]
PARSERS: dict[str, Parser] = {
    SESSION: parse_session,
    LOCK: parse_lock,
    KANBAN: parse_kanban,
    CONTEXT: parse_context,
    MEMORY: parse_memory,
}
