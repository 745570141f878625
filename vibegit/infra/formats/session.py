"""``session.yaml``: session, mode, workflow, context and checkpoint."""

from __future__ import annotations

from vibegit.core import workflows
from vibegit.core.model import Checkpoint, Context, Mode, ModeType, Phase, Session, State, Status, Workflow
from vibegit.core.schema import session_dict
from vibegit.core.text import TASK_ID, check_relative_path, is_oid
from vibegit.infra.formats.yamldoc import YamlDoc, dump, extra

NAME = "session.yaml"

_SESSION_KEYS = ("id", "created_at", "updated_at")
_MODE_KEYS = ("type", "workflow_name", "phase", "step")
_WORKFLOW_KEYS = ("id", "started_at", "branch", "worktree", "current_task", "total_tasks", "completed_tasks", "status")
_CONTEXT_KEYS = ("goal", "last_action", "next_action", "pending_questions")
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
        extra=extra(w, _WORKFLOW_KEYS),
    )
    for key in ("total_tasks", "completed_tasks"):  # derived from the kanban, checked for type only
        if key in w and (isinstance(w[key], bool) or not isinstance(w[key], int)):
            raise doc.error(("workflow", key), "expected a whole number")
    context = Context(
        goal=doc.str_(c, ("context", "goal")) or "",
        last_action=doc.str_(c, ("context", "last_action")) or "",
        next_action=doc.str_(c, ("context", "next_action")) or "",
        pending_questions=doc.str_list(c, ("context", "pending_questions")),
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
    if current is not None and not TASK_ID.match(current):
        raise doc.error(("workflow", "current_task"), f"bad task id {current!r:.40}")
    return State(
        session=session,
        mode=mode,
        workflow=workflow,
        context=context,
        checkpoint=checkpoint,
        extra=extra(doc.data, _TOP_KEYS),
    )


def render_session(state: State) -> str:
    return "# vibegit session state; edits are adopted by the next event\n" + dump(session_dict(state))
