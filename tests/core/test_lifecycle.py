"""Every transition of core/lifecycle.py, with nothing but Python: no git,
no files. Each rule: what it changes, the event it records, what it refuses."""

from __future__ import annotations

import pytest

from vibegit.core import lifecycle
from vibegit.core.learn import DocChange, Item
from vibegit.core.model import (
    Checkpoint,
    Env,
    Event,
    Lock,
    MemoryCategory,
    ModeType,
    Phase,
    State,
    Status,
    TaskStatus,
)
from vibegit.core.records import replace
from vibegit.errors import BadInput, Refused

ENV = Env(now="2025-01-12T10:00:00Z", host="laptop", worktree="/w", head="a" * 40, branch="main", new_session_id="s1")
LATER = replace(ENV, now="2025-01-12T11:00:00Z")


def running(*tasks: str) -> State:
    state, _ = lifecycle.start(State(), ENV, "vibe-code", "Implement auth")
    for i, title in enumerate(tasks, 1):
        state, _ = lifecycle.task_add(state, ENV, f"T-{i:03d}", title)
    return state


def test_start_takes_the_lock_in_phase_r1() -> None:
    state, event = lifecycle.start(State(), ENV, "vibe-code", "Implement auth")
    assert (state.workflow.status, state.mode.type, state.mode.phase) == (Status.RUNNING, ModeType.WORKFLOW, Phase.R1)
    assert state.lock is not None and state.lock.locked and (state.lock.host, state.lock.worktree) == ("laptop", "/w")
    assert state.session.id == "s1" and state.session.created_at == ENV.now
    assert state.workflow.branch == "main" and event == Event("start", "vibe-code: Implement auth")


@pytest.mark.parametrize(
    ("name", "goal", "words"),
    [("two words", "g", "one word"), ("w", "", "--goal"), ("w", "a\nb", "one line"), ("w\x1b[2J", "g", "control")],
)
def test_start_refuses_bad_names_and_goals(name: str, goal: str, words: str) -> None:
    with pytest.raises(BadInput, match=words):
        lifecycle.start(State(), ENV, name, goal)


def test_start_while_one_runs_is_refused_and_names_the_way_out() -> None:
    with pytest.raises(Refused, match="vibegit abort"):
        lifecycle.start(running(), ENV, "other", "g")


def test_phase_task_and_counters() -> None:
    state = running("Data model", "Login API")
    state, event = lifecycle.phase(state, ENV, Phase.E, "4.3")
    assert (state.mode.phase, state.mode.step, event.summary) == (Phase.E, "4.3", "R1 -> E step 4.3")
    state, _ = lifecycle.task_start(state, ENV, "T-002")
    assert state.workflow.current_task == "T-002" and state.task("T-002").status is TaskStatus.DOING
    state, event = lifecycle.task_done(state, LATER, "T-002")
    assert (state.completed_tasks, state.total_tasks, state.workflow.current_task) == (1, 2, None)
    assert state.context.last_action == "finished T-002: Login API" and event.task == "T-002"
    assert state.session.updated_at == LATER.now


def test_task_rules() -> None:
    state = running("Data model")
    with pytest.raises(BadInput, match="already exists"):
        lifecycle.task_add(state, ENV, "T-001", "again")
    with pytest.raises(BadInput, match="unknown task 'T-9'"):
        lifecycle.task_done(state, ENV, "T-9")
    with pytest.raises(BadInput, match="task id"):
        lifecycle.task_add(state, ENV, "bad id", "x")
    done, _ = lifecycle.task_done(state, ENV, "T-001")
    with pytest.raises(Refused, match="already done"):
        lifecycle.task_done(done, ENV, "T-001")
    with pytest.raises(Refused, match="no workflow has been started"):
        lifecycle.task_add(State(), ENV, "T-001", "x")


def test_context_questions_and_answers() -> None:
    state, _ = lifecycle.context(running(), ENV, "did a", "do b", "which db?", None)
    assert (state.context.last_action, state.context.next_action) == ("did a", "do b")
    assert [(q.id, q.text) for q in state.context.pending_questions] == [(1, "which db?")]
    state, _ = lifecycle.context(state, ENV, None, None, "which port?", None)
    with pytest.raises(BadInput, match="no such open question"):
        lifecycle.context(state, ENV, None, None, None, 3)
    with pytest.raises(BadInput, match="--reply"):
        lifecycle.context(state, ENV, None, None, None, None, "pg")
    state, event = lifecycle.context(state, ENV, None, None, None, 1, "postgres")
    assert event.summary == "answered #1"
    assert [(q.id, q.text) for q in state.context.pending_questions] == [(2, "which port?")]  # not renumbered
    assert [(q.id, q.text, q.answer) for q in state.context.answered_questions] == [(1, "which db?", "postgres")]
    state, _ = lifecycle.context(state, ENV, None, None, None, 2, "5432")
    state, event = lifecycle.context(state, ENV, None, None, "a third?", None)
    assert event.summary == "question #3"  # ids are never given again
    with pytest.raises(BadInput, match="at least one"):
        lifecycle.context(state, ENV, None, None, None, None)


def test_checkpoint_pins_head_and_branch() -> None:
    state, event = lifecycle.checkpoint(running(), ENV, Checkpoint(file="src/a.py", line=3, action="login"))
    k = state.checkpoint
    assert k is not None and (k.commit, k.branch, k.file, k.line, k.created_at) == (
        "a" * 40,
        "main",
        "src/a.py",
        3,
        ENV.now,
    )
    assert event.summary == f"{'a' * 12} at src/a.py:3"


def test_pause_and_resume_move_the_lock() -> None:
    paused, _ = lifecycle.pause(running(), ENV, Checkpoint(action="stop here"))
    assert paused.workflow.status is Status.PAUSED and paused.mode.type is ModeType.PAUSED
    assert paused.lock is not None and not paused.lock.locked and paused.lock.paused
    with pytest.raises(Refused, match="vibegit resume"):
        lifecycle.phase(paused, ENV, Phase.P, None)
    resumed, event = lifecycle.resume(paused, replace(ENV, host="desktop"))
    assert resumed.workflow.status is Status.RUNNING and resumed.lock is not None and resumed.lock.host == "desktop"
    assert event.summary == "vibe-code resumed"


def test_resume_of_a_running_workflow_is_a_takeover_or_nothing() -> None:
    state = running()
    with pytest.raises(Refused, match="already running here"):
        lifecycle.resume(state, ENV)
    taken, event = lifecycle.resume(state, replace(ENV, host="desktop", worktree="/d"))
    assert event.summary == "vibe-code taken over from laptop:/w" and taken.lock.host == "desktop"


def test_complete_needs_every_task_done_and_no_open_question() -> None:
    state = running("one")
    with pytest.raises(Refused, match="tasks not done: T-001"):
        lifecycle.complete(state, ENV, lifecycle.CONFIRMED_ON_TERMINAL)
    state, _ = lifecycle.task_done(state, ENV, "T-001")
    asking, _ = lifecycle.context(state, ENV, None, None, "ok?", None)
    with pytest.raises(Refused, match="open question"):
        lifecycle.complete(asking, ENV, lifecycle.CONFIRMED_BY_YES)
    done, event = lifecycle.complete(state, ENV, lifecycle.CONFIRMED_BY_YES)
    assert done.workflow.status is Status.COMPLETED and done.lock is None and done.mode.type is ModeType.CONVERSATION
    assert event.details == ("Vibegit-Confirmation: confirmation skipped with --yes (no agent)",)


@pytest.mark.parametrize(
    ("rule", "args", "status", "last"),
    [
        (lifecycle.abort, (lifecycle.CONFIRMED_ON_TERMINAL,), Status.ABORTED, ""),
        (
            lifecycle.unlock,
            ("done for today", lifecycle.CONFIRMED_ON_TERMINAL),
            Status.ABORTED,
            "unlocked: done for today",
        ),
        (lifecycle.fail, ("tests broke",), Status.FAILED, "failed: tests broke"),
    ],
)
def test_endings_release_the_lock_and_keep_progress(rule, args, status, last) -> None:
    state = running("kept")
    ended, _ = rule(state, ENV, *args)
    assert ended.workflow.status is status and ended.lock is None and ended.tasks == state.tasks
    assert ended.context.last_action == last
    with pytest.raises(Refused):
        rule(ended, ENV, *args)


def test_rewrite_moves_the_checkpoint_to_the_new_commit() -> None:
    state, _ = lifecycle.checkpoint(running(), ENV, Checkpoint())
    moved, event = lifecycle.rewrite_checkpoint(state, ENV, {"a" * 40: "b" * 40}, "amend")
    assert moved.checkpoint.commit == "b" * 40 and event.name == "rewrite"
    with pytest.raises(Refused, match="nothing to move"):
        lifecycle.rewrite_checkpoint(state, ENV, {"c" * 40: "d" * 40}, "rebase")


def test_memory_add_remove_and_ids() -> None:
    state, event = lifecycle.memory_add(State(), ENV, MemoryCategory.FORBIDDEN_ACTION, "Never force-push main")
    assert [e.id for e in state.memory.entries] == ["M-001"] and event.name == "memory-add"
    with pytest.raises(Refused, match="already remembered as M-001"):
        lifecycle.memory_add(state, ENV, MemoryCategory.FORBIDDEN_ACTION, "never  FORCE-push main")
    state, _ = lifecycle.memory_add(state, ENV, MemoryCategory.USER_PREFERENCE, "Answer in Chinese")
    state, event = lifecycle.memory_remove(state, ENV, "M-001")
    assert [e.id for e in state.memory.entries] == ["M-002"] and event.name == "memory-remove"
    with pytest.raises(BadInput, match="unknown memory"):
        lifecycle.memory_remove(state, ENV, "M-001")
    assert lifecycle.category("Forbidden-Action") is MemoryCategory.FORBIDDEN_ACTION
    with pytest.raises(BadInput, match="use one of"):
        lifecycle.category("rules")


def test_learn_replaces_what_a_doc_taught_and_keeps_unchanged_ids() -> None:
    first = DocChange("README.md", "1" * 40, (Item("Rules", "Never log passwords"), Item("Rules", "Use UTC")))
    state, event = lifecycle.learn(State(), ENV, (first,))
    assert [(e.id, e.text) for e in state.memory.entries] == [("M-001", "Never log passwords"), ("M-002", "Use UTC")]
    assert state.memory.learned == {"README.md": "1" * 40} and event.summary == "README.md +2 -0"
    second = DocChange("README.md", "2" * 40, (Item("Rules", "Use UTC"), Item("Rules", "Tabs, not spaces")))
    state, event = lifecycle.learn(state, ENV, (second,))
    assert [(e.id, e.text) for e in state.memory.entries] == [("M-002", "Use UTC"), ("M-003", "Tabs, not spaces")]
    assert event.summary == "README.md +1 -1"
    assert event.docs == ("README.md",) and event.lessons == ("Tabs, not spaces",)
    with pytest.raises(lifecycle.NothingNew):
        lifecycle.learn(state, ENV, (second,))
    third = DocChange("README.md", "3" * 40, (Item("Rules", "Use UTC"), Item("Rules", "Log in JSON")))
    state, _ = lifecycle.learn(state, ENV, (third,))
    assert [e.id for e in state.memory.entries] == ["M-002", "M-004"]  # M-003 was given once: never again


def test_agent_session_records_only_a_new_session() -> None:
    state = running()
    new, event = lifecycle.agent_session(state, ENV, "abc", "claude", "compact")
    assert new.session.id == "abc" and event.summary == "claude session abc (compact)"
    assert "Vibegit-Previous-Session: s1" in event.details
    with pytest.raises(lifecycle.Unchanged):
        lifecycle.agent_session(new, ENV, "abc", "claude", "")


def test_events_other_parts_record() -> None:
    state = running()
    after = Event("task-done", "T-001: x", task="T-001")
    new, event = lifecycle.hook_failed(
        state, LATER, "onTaskComplete (make) failed", "onTaskComplete", None, after, "c1"
    )
    assert new.session.updated_at == LATER.now and event.task == "T-001"
    assert event.details == (
        "Vibegit-Hook: onTaskComplete",
        "Vibegit-Hook-Exit: timeout",
        "Vibegit-Hook-For: task-done c1",
    )
    assert lifecycle.merged(state, "origin", ["a", "b"])[1].details == ("Vibegit-Decision: a", "Vibegit-Decision: b")
    assert lifecycle.repaired(state, "f" * 40, "bad")[1].details == (f"Vibegit-Repaired-From: {'f' * 40}",)
    assert (
        lifecycle.redacted(state, 3, [], ("x",))[1].summary
        == "3 value(s) that looked like credentials replaced in the state"
    )
    _, left_out = lifecycle.redacted(state, 0, ["a.env: why"], ())
    assert left_out.summary.endswith("1 file(s) left out of the snapshot")


def test_the_takeover_guard() -> None:
    here = running()
    elsewhere = replace(here.lock, host="desktop", worktree="/d", locked_at="2025-01-12T12:00:00Z")
    remote = [lifecycle.RemoteLock("refs/remotes/origin/vibegit/state", elsewhere, holds_ours=True, behind_ours=False)]
    guarded = lifecycle.guarded(lambda s: lifecycle.task_add(s, ENV, "T-9", "x"), ENV, remote)
    with pytest.raises(Refused, match="taken over on desktop:/d"):
        guarded(here)
    back = lifecycle.guarded(lambda s: lifecycle.resume(s, ENV), ENV, remote)
    with pytest.raises(Refused):  # resume here is "already running here": the takeover is the news
        back(here)
    aborting = lifecycle.guarded(lambda s: lifecycle.abort(s, ENV, lifecycle.CONFIRMED_BY_CLIENT), ENV, remote)
    assert aborting(here)[1].name == "abort"  # ending it still goes
    older = [remote[0]._replace(holds_ours=False, lock=replace(elsewhere, locked_at="2000-01-01T00:00:00Z"))]
    assert lifecycle.taken_over(here, ENV, older) is None  # both moved, ours is newer
    locally = replace(here, lock=replace(here.lock, host="desktop"))
    assert "taken over on desktop" in (lifecycle.taken_over(locally, ENV, []) or "")


A = "a" * 32  # two clones' machine ids
B = "b" * 32


def test_a_holder_is_one_clone_and_its_worktree_not_a_host_name() -> None:
    """model.held_here: the one rule every comparison of holders asks."""
    laptop = replace(ENV, machine=A)
    held = replace(running().lock, machine=A, host="laptop", worktree="/w")
    assert held.held_here(laptop) and not held.elsewhere(laptop)
    assert held.held_here(replace(laptop, host="renamed"))  # the host name is a label
    twin = replace(laptop, machine=B)  # a second clone on one host, or a machine of the same name, same path
    assert not held.held_here(twin) and held.elsewhere(twin) and held.elsewhere(twin, clone_only=True)
    other_tree = replace(laptop, worktree="/w2")  # a linked worktree of the same clone
    assert not held.held_here(other_tree) and held.held_here(other_tree, clone_only=True)
    old = replace(held, machine="")  # written before clones had ids: host and worktree decide
    assert old.held_here(twin) and not old.held_here(replace(twin, host="desktop"))
    nobody = replace(held, machine="", host="")
    assert not nobody.held_here(laptop) and not nobody.elsewhere(laptop)  # names no holder: no takeover either
    assert not replace(held, locked=False).elsewhere(twin)  # a paused lock holds nothing


def test_the_takeover_guard_compares_clones() -> None:
    here = running()
    mine = replace(here, lock=replace(here.lock, machine=A))
    laptop = replace(ENV, machine=A)
    assert lifecycle.taken_over(mine, laptop, []) is None
    assert lifecycle.taken_over(mine, replace(laptop, worktree="/linked"), []) is None  # one clone, one state branch
    why = lifecycle.taken_over(mine, replace(laptop, machine=B), [])  # same host name, another clone
    assert why is not None and "taken over on laptop:/w" in why
    with pytest.raises(Refused, match="already running here"):
        lifecycle.resume(mine, laptop)
    taken, event = lifecycle.resume(mine, replace(laptop, machine=B, worktree="/b"))
    assert taken.lock is not None and taken.lock.machine == B and event.name == "resume"


@pytest.mark.parametrize(
    ("status", "lock", "problem"),
    [
        (Status.RUNNING, None, "running but workflow.lock is missing"),
        (Status.PAUSED, Lock(True, "vibe-code", "", "", ()), "paused but workflow.lock is not locked: false"),
        (Status.COMPLETED, Lock(True, "vibe-code", "", "", ()), "held but the workflow is completed"),
        (Status.RUNNING, Lock(True, "other", "", "", ()), "names 'other'"),
    ],
)
def test_lock_problems(status: Status, lock: Lock | None, problem: str) -> None:
    state = replace(running(), lock=lock)
    state = replace(state, workflow=replace(state.workflow, status=status))
    assert problem in lifecycle.lock_problems(state)[0]
    assert lifecycle.lock_problems(running()) == []
