"""``session.yaml``: session, mode, workflow, context and checkpoint."""

from __future__ import annotations

from vibegit.core import workflows
from vibegit.core.messages import t
from vibegit.core.model import (
    Checkpoint,
    Context,
    Mode,
    ModeType,
    Phase,
    PhaseVisit,
    Question,
    Session,
    State,
    Status,
    Workflow,
)
from vibegit.core.records import replace
from vibegit.core.schema import session_dict
from vibegit.core.text import check_relative_path, is_oid, is_task_id
from vibegit.infra.formats.yamldoc import YamlDoc, dump, extra

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from typing import Any, TypeVar

NAME = "session.yaml"
if TYPE_CHECKING:
    T = TypeVar("T")

_SESSION_KEYS = ("id", "created_at", "updated_at")
_MODE_KEYS = ("type", "workflow_name", "phase", "step")
_WORKFLOW_KEYS = (
    "id",
    "started_at",
    "branch",
    "worktree",
    "current_task",
    "total_tasks",
    "completed_tasks",
    "status",
    "ended_at",
    "error",
    "phases",
    "removed_tasks",
    "lessons",
)
_CONTEXT_KEYS = ("goal", "last_action", "next_action", "pending_questions", "answered_questions", "last_question_id")
_QUESTION_KEYS = ("id", "question", "asked_at", "answer", "answered_at")
MAX_LIST = 1000  # questions, phases, lessons, removed task ids
_CHECKPOINT_KEYS = ("commit", "branch", "snapshot", "file", "line", "line_text", "action", "created_at")
_TOP_KEYS = ("session", "mode", "workflow", "context", "checkpoint")


def parse_session(data: bytes, name: str = NAME) -> State:
    """``session.yaml`` into a State without tasks, lock or notes."""
    doc = YamlDoc(data, name)
    s, m, w = doc.section("session"), doc.section("mode"), doc.section("workflow", required=False)
    c, k = doc.section("context", required=False), doc.section("checkpoint", required=False)
    session = Session(
        id=doc.str_(s, ("session", "id"), optional=False) or "",
        created_at=doc.str_(s, ("session", "created_at")) or "",
        updated_at=doc.str_(s, ("session", "updated_at")) or "",
        extra=extra(s, _SESSION_KEYS),
    )
    mode = Mode(
        type=doc.enum(m, ("mode", "type"), ModeType, ModeType.CONVERSATION) or ModeType.CONVERSATION,
        workflow_name=doc.str_(m, ("mode", "workflow_name")),
        phase=doc.enum(m, ("mode", "phase"), Phase, None),
        step=doc.str_(m, ("mode", "step")),
        extra=extra(m, _MODE_KEYS),
    )
    current = doc.str_(w, ("workflow", "current_task"))
    workflow_id = doc.str_(w, ("workflow", "id")) or ""
    if workflow_id:
        workflows.check_id(workflow_id, f"{name}:{doc.line('workflow', 'id')}: workflow.id")
    workflow = Workflow(
        status=doc.enum(w, ("workflow", "status"), Status, Status.INIT) or Status.INIT,
        started_at=doc.str_(w, ("workflow", "started_at")),
        branch=doc.str_(w, ("workflow", "branch")),
        current_task=current,
        id=workflow_id,
        worktree=doc.str_(w, ("workflow", "worktree")),
        phases=_phases(doc, w),
        ended_at=doc.str_(w, ("workflow", "ended_at")),
        error=doc.str_(w, ("workflow", "error")) or "",
        removed_tasks=_task_ids(doc, w),
        lessons=_bounded(doc, ("workflow", "lessons"), doc.str_list(w, ("workflow", "lessons"))),
        extra=extra(w, _WORKFLOW_KEYS),
    )
    for key in ("total_tasks", "completed_tasks"):  # derived from the kanban, checked for type only
        if key in w and (isinstance(w[key], bool) or not isinstance(w[key], int)):
            raise doc.error(("workflow", key), "expected a whole number")
    context = Context(
        goal=doc.str_(c, ("context", "goal")) or "",
        last_action=doc.str_(c, ("context", "last_action")) or "",
        next_action=doc.str_(c, ("context", "next_action")) or "",
        pending_questions=_questions(doc, c, "pending_questions", answered=False),
        answered_questions=_questions(doc, c, "answered_questions", answered=True),
        last_question_id=_count(doc, c, ("context", "last_question_id")),
        extra=extra(c, _CONTEXT_KEYS),
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
            extra=extra(k, _CHECKPOINT_KEYS),
        )
    if current is not None and not is_task_id(current):
        raise doc.error(("workflow", "current_task"), f"bad task id {current!r:.40}")
    return State(
        session=session,
        mode=mode,
        workflow=workflow,
        context=number_questions(context),
        checkpoint=checkpoint,
        extra=extra(doc.data, _TOP_KEYS),
    )


def _bounded(doc: YamlDoc, path: tuple[str, ...], items: tuple[T, ...]) -> tuple[T, ...]:
    if len(items) > MAX_LIST:
        raise doc.error(path, f"too many items ({len(items)}, at most {MAX_LIST})")
    return items


def _count(doc: YamlDoc, sec: dict[str, Any], path: tuple[str, ...]) -> int:
    """A whole number >= 0 (0 when absent)."""
    value = sec.get(path[-1])
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 10**9:
        raise doc.error(path, f"expected a whole number, found {value!r:.40}")
    return value


def _questions(doc: YamlDoc, c: dict[str, Any], key: str, *, answered: bool) -> tuple[Question, ...]:
    """Questions with their ids; the skill's plain strings are numbered in order
    (after the ids already given)."""
    path = ("context", key)
    out: list[Question] = []
    for n, raw in enumerate(doc.seq(c, path, MAX_LIST), 1):
        where = (*path[:-1], f"{key}[{n}]")
        if isinstance(raw, (str, int)) and not isinstance(raw, bool) and not answered:
            out.append(Question(0, doc.str_({"q": raw}, (*where, "q")) or ""))
            continue
        if not isinstance(raw, dict):
            raise doc.error(path, f"item {n}: expected text or a mapping with id and question")
        q = Question(
            id=_count(doc, raw, (*where, "id")),
            text=doc.str_(raw, (*where, "question"), optional=False) or "",
            asked_at=doc.str_(raw, (*where, "asked_at")) or "",
            answer=doc.str_(raw, (*where, "answer")) if answered else None,
            answered_at=doc.str_(raw, (*where, "answered_at")) or "",
        )
        if answered and q.answer is None:
            q = replace(q, answer="")
        out.append(q)
    return tuple(out)


def number_questions(context: Context) -> Context:
    """Give the open questions without an id (0: written by hand or by the
    skill), or with an id another question holds, the next ids."""
    answered = [q.id for q in context.answered_questions]
    pending = [q.id for q in context.pending_questions]
    ids = answered + pending
    if all(ids) and len(set(ids)) == len(ids):
        return context
    given = max([context.last_question_id, *ids])
    numbered: list[Question] = []
    seen: set[int] = set(answered)
    for q in context.pending_questions:
        if not q.id or q.id in seen:
            given += 1
            q = replace(q, id=given)
        seen.add(q.id)
        numbered.append(q)
    return replace(context, pending_questions=tuple(numbered), last_question_id=given)


def _phases(doc: YamlDoc, w: dict[str, Any]) -> tuple[PhaseVisit, ...]:
    path = ("workflow", "phases")
    out = []
    for n, raw in enumerate(doc.seq(w, path, MAX_LIST), 1):
        where = ("workflow", f"phases[{n}]")
        if not isinstance(raw, dict):
            raise doc.error(path, f"item {n}: expected a mapping with phase, step and at")
        phase = doc.enum(raw, (*where, "phase"), Phase, None)
        if phase is None:
            raise doc.error(path, f"item {n}: phase missing")
        out.append(PhaseVisit(phase, doc.str_(raw, (*where, "step")), doc.str_(raw, (*where, "at")) or ""))
    return tuple(out)


def _task_ids(doc: YamlDoc, w: dict[str, Any]) -> tuple[str, ...]:
    path = ("workflow", "removed_tasks")
    ids = _bounded(doc, path, doc.str_list(w, path))
    bad = next((i for i in ids if not is_task_id(i)), None)
    if bad is not None:
        raise doc.error(path, f"bad task id {bad!r:.40}")
    return ids


def render_session(state: State) -> str:
    return t("session_yaml.header") + "\n" + dump(session_dict(state))
