"""The state files, one module each: parse (strict, safe, errors
with file and line) and render. Here: their names and the whole state."""

from __future__ import annotations

from collections.abc import Callable

from vibegit.core.model import Memory, State, Status
from vibegit.core.records import replace
from vibegit.infra.formats import checkpoint, completion, context, index, kanban, knowledge, lock, memory, session
from vibegit.infra.formats.checkpoint import render_checkpoint
from vibegit.infra.formats.completion import render_completion
from vibegit.infra.formats.context import derived_context_differs, parse_context, render_context
from vibegit.infra.formats.index import parse_index, render_index
from vibegit.infra.formats.kanban import parse_kanban, render_kanban
from vibegit.infra.formats.knowledge import parse_doc
from vibegit.infra.formats.lock import parse_lock, render_lock
from vibegit.infra.formats.memory import parse_memory, render_memory
from vibegit.infra.formats.session import parse_session, render_session
from vibegit.infra.formats.yamldoc import MAX_FILE_BYTES, YamlDoc

SESSION = session.NAME
LOCK = lock.NAME
CONTEXT = context.NAME
KANBAN = kanban.NAME
CHECKPOINT = checkpoint.NAME
COMPLETION = completion.NAME
MEMORY = memory.NAME
KNOWLEDGE = knowledge.NAMES
SHARED_FILES = (MEMORY, *KNOWLEDGE)  # what all workflows share, at the root of the state tree
STATE_FILES = (SESSION, LOCK, CONTEXT, KANBAN, CHECKPOINT, COMPLETION, *SHARED_FILES)

__all__ = [
    "MAX_FILE_BYTES",
    "YamlDoc",
    "derived_context_differs",
    "index",
    "parse_context",
    "parse_doc",
    "parse_index",
    "parse_kanban",
    "parse_lock",
    "parse_memory",
    "parse_session",
    "parse_shared",
    "render_checkpoint",
    "render_context",
    "render_index",
    "render_kanban",
    "render_lock",
    "render_memory",
    "render_session",
]


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
    if state.workflow.status is Status.COMPLETED:
        files[COMPLETION] = render_completion(state)
    return files | render_shared(state.memory)


def render_shared(memory: Memory) -> dict[str, str]:
    """What all workflows share: ``memory.yaml`` and the knowledge docs (none when empty)."""
    files = {name: text for name, text in sorted(memory.docs.items()) if name in KNOWLEDGE}
    if memory.entries or memory.learned or memory.last_id or memory.extra:
        files[MEMORY] = render_memory(memory)
    return files


def parse_all(files: dict[str, bytes], where: str = "") -> State:
    """A State from the state files; no session.yaml means no state yet.

    ``where`` prefixes file names in errors (``vibegit/state:``)."""
    memory = parse_shared(files, where)
    if SESSION not in files:
        return State(memory=memory)
    state = parse_session(files[SESSION], where + SESSION)
    tasks = parse_kanban(files[KANBAN], where + KANBAN) if KANBAN in files else ()
    notes = parse_context(files[CONTEXT], where + CONTEXT)[1] if CONTEXT in files else ""
    lock = parse_lock(files[LOCK], where + LOCK) if LOCK in files else None
    return replace(state, tasks=tasks, notes=notes, lock=lock, memory=memory)


def parse_shared(files: dict[str, bytes], where: str = "") -> Memory:
    """The memory and the knowledge docs among ``files`` (by their mirror names)."""
    memory = parse_memory(files[MEMORY], where + MEMORY) if MEMORY in files else Memory()
    docs = {name: parse_doc(files[name], where + name) for name in KNOWLEDGE if name in files}
    return replace(memory, docs=docs) if docs else memory


Parser = Callable[[bytes, str], object]
PARSERS: dict[str, Parser] = {
    SESSION: parse_session,
    LOCK: parse_lock,
    KANBAN: parse_kanban,
    CONTEXT: parse_context,
    MEMORY: parse_memory,
    **dict.fromkeys(KNOWLEDGE, parse_doc),
}
