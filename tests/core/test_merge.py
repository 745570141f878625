"""The merge of two diverged states (core/merge.py), without git."""

from __future__ import annotations

from vibegit.core import merge
from vibegit.core.model import Context, Lock, Mode, ModeType, Session, State, Status, Task, TaskStatus, Workflow


def state(
    updated: str,
    tasks: tuple[Task, ...] = (),
    phase_step: str = "1",
    status: Status = Status.RUNNING,
    host: str = "a",
    questions: tuple[str, ...] = (),
) -> State:
    lock = Lock(True, "w", updated, "", (), host=host, worktree="/w") if status is Status.RUNNING else None
    return State(
        session=Session("s", "t0", updated),
        mode=Mode(ModeType.WORKFLOW, "w", None, phase_step),
        workflow=Workflow(status, "t0"),
        context=Context(goal="g", pending_questions=questions),
        lock=lock,
        tasks=tasks,
    )


def text_merge(base: str, ours: str, theirs: str) -> tuple[str, bool]:
    return (theirs if ours == base else ours), False


def test_merge_rules_field_by_field() -> None:
    t1, t2 = Task("T-1", "one"), Task("T-2", "two")
    base = state("t1", (t1,), questions=("q1",))
    ours = state("t3", (t1, t2), phase_step="2", questions=("q1", "q2"))
    theirs = state("t2", (Task("T-1", "one", TaskStatus.DOING),), phase_step="3", questions=())
    merged, decisions = merge.merge(base, ours, theirs, here="here", there="origin", now="t9", merge_text=text_merge)
    assert merged.mode.step == "2"  # both changed: ours is newer
    assert any("mode.step: '2' from here (newer)" in d for d in decisions)
    assert [(t.id, t.status) for t in merged.tasks] == [("T-1", TaskStatus.DOING), ("T-2", TaskStatus.TODO)]
    assert merged.context.pending_questions == ("q2",)  # q1 answered there, q2 asked here
    assert merged.session.updated_at == "t9"


def test_merge_keeps_run_state_whole_and_follows_a_new_workflow() -> None:
    base = state("t1")
    ours = state("t2", status=Status.COMPLETED)
    theirs = state("t3", host="b")
    theirs = State(**{**theirs.__dict__, "context": Context(goal="changed there")})
    merged, decisions = merge.merge(base, ours, theirs, here="here", there="origin", now="t9", merge_text=text_merge)
    assert merged.workflow.status is Status.RUNNING and merged.lock is not None and merged.lock.host == "b"
    assert merged.context.goal == "changed there"
    other = State(**{**state("t4").__dict__, "workflow": Workflow(Status.RUNNING, "t4")})
    merged, decisions = merge.merge(base, ours, other, here="here", there="origin", now="t9", merge_text=text_merge)
    assert merged.workflow.started_at == "t4" and "stays in the history" in decisions[0]


def test_merge_files_newer_side_wins_when_both_changed() -> None:
    decisions: list[str] = []
    out = merge.merge_files({"a": 1, "b": 1}, {"a": 2, "b": 1, "c": 5}, {"a": 3, "b": 0}, True, "origin", decisions)
    assert out == [3, 0, 5] and decisions == ["a: changed on both sides; kept the newer, from origin"]
