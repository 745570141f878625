"""The state as plain mappings with the documented keys: ``session.yaml``,
``workflow.lock`` and memory entries. The state files and ``status --json``
are both made from these, so they can never disagree."""

from __future__ import annotations

from vibegit.core.model import Lock, MemoryEntry, PhaseVisit, Question, State

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from typing import Any


def session_dict(state: State) -> dict[str, Any]:
    """The ``session.yaml`` mapping (also the JSON of ``status``)."""
    k = state.checkpoint
    return {
        "session": {
            "id": state.session.id,
            "created_at": state.session.created_at,
            "updated_at": state.session.updated_at,
            **state.session.extra,
        },
        "mode": {
            "type": state.mode.type.value,
            "workflow_name": state.mode.workflow_name,
            "phase": state.mode.phase.value if state.mode.phase else None,
            "step": state.mode.step,
            **state.mode.extra,
        },
        "workflow": {
            "id": state.workflow.id,
            "started_at": state.workflow.started_at,
            "branch": state.workflow.branch,
            "worktree": state.workflow.worktree,
            "current_task": state.workflow.current_task,
            "total_tasks": state.total_tasks,
            "completed_tasks": state.completed_tasks,
            "status": state.workflow.status.value,
            "ended_at": state.workflow.ended_at,
            "error": state.workflow.error,
            "phases": [visit_dict(v) for v in state.workflow.phases],
            "removed_tasks": list(state.workflow.removed_tasks),
            "lessons": list(state.workflow.lessons),
            **state.workflow.extra,
        },
        "context": {
            "goal": state.context.goal,
            "last_action": state.context.last_action,
            "next_action": state.context.next_action,
            "pending_questions": [question_dict(q) for q in state.context.pending_questions],
            "answered_questions": [question_dict(q) for q in state.context.answered_questions],
            "last_question_id": state.context.next_question_id() - 1,
            **state.context.extra,
        },
        "checkpoint": None
        if k is None
        else {
            "commit": k.commit,
            "branch": k.branch,
            "snapshot": k.snapshot,
            "file": k.file,
            "line": k.line,
            "line_text": k.line_text,
            "action": k.action,
            "created_at": k.created_at,
            **k.extra,
        },
        **state.extra,
    }


def lock_dict(lock: Lock) -> dict[str, Any]:
    return {
        "locked": lock.locked,
        "workflow": lock.workflow,
        "locked_at": lock.locked_at,
        "reason": lock.reason,
        "unlock_conditions": list(lock.unlock_conditions),
        "paused": lock.paused,
        "host": lock.host,
        "worktree": lock.worktree,
        **({"machine": lock.machine} if lock.machine else {}),  # a lock written before clones had ids has none
        **lock.extra,
    }


def entry_dict(entry: MemoryEntry) -> dict[str, Any]:
    data: dict[str, Any] = {"id": entry.id, "category": entry.category.value, "text": entry.text}
    if entry.created_at:
        data["created_at"] = entry.created_at
    if entry.source is not None:
        data["source"] = entry.source
    if entry.heading is not None:
        data["heading"] = entry.heading
    return {**data, **entry.extra}


def question_dict(q: Question) -> dict[str, Any]:
    """A question: its id (never given again), text, and its answer once answered."""
    data: dict[str, Any] = {"id": q.id, "question": q.text, "asked_at": q.asked_at}
    if q.answer is not None:
        data |= {"answer": q.answer, "answered_at": q.answered_at}
    return data


def visit_dict(v: PhaseVisit) -> dict[str, Any]:
    return {"phase": v.phase.value, "step": v.step, "at": v.at}
