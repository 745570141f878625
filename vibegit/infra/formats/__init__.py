"""The state files, one module each: parse (strict, safe, errors
with file and line) and render. Here: their names and the whole state."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from vibegit.core.model import Memory, State
from vibegit.infra.formats import checkpoint, context, index, kanban, lock, memory, session
from vibegit.infra.formats.checkpoint import render_checkpoint
from vibegit.infra.formats.context import derived_context_differs, parse_context, render_context
from vibegit.infra.formats.index import parse_index, render_index
from vibegit.infra.formats.kanban import parse_kanban, render_kanban
from vibegit.infra.formats.lock import parse_lock, render_lock
from vibegit.infra.formats.memory import parse_memory, render_memory
from vibegit.infra.formats.session import parse_session, render_session
from vibegit.infra.formats.yamldoc import MAX_FILE_BYTES, YamlDoc

SESSION = session.NAME
LOCK = lock.NAME
CONTEXT = context.NAME
KANBAN = kanban.NAME
CHECKPOINT = checkpoint.NAME
MEMORY = memory.NAME
STATE_FILES = (SESSION, LOCK, CONTEXT, KANBAN, CHECKPOINT, MEMORY)

__all__ = [
    "MAX_FILE_BYTES",
    "YamlDoc",
    "derived_context_differs",
    "index",
    "parse_context",
    "parse_index",
    "parse_kanban",
    "parse_lock",
    "parse_memory",
    "parse_session",
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
