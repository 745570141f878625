"""Property-based tests of the lifecycle rules and the state files.

Any sequence of commands keeps the invariants: the files round-trip, the
counters match the kanban, the lock exists iff a workflow runs or is paused
(and is locked iff running), and an illegal command raises with nothing
changed.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import git, init_repo, vg_here
from vibegit.core import lifecycle
from vibegit.core.model import Checkpoint, Env, Phase, State, Status, TaskStatus
from vibegit.errors import VibegitError
from vibegit.infra.formats import parse_all, render_all

ENV = Env(now="2025-01-12T10:00:00Z", host="h", worktree="/w", head="a" * 40, branch="main", new_session_id="s1")
IDS = st.sampled_from(["T-1", "T-2", "T-3", "bad id", ""])
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)

COMMANDS = st.one_of(
    st.tuples(st.just("start"), st.sampled_from(["vibe-code", "w", "two words"]), TEXT),
    st.tuples(st.just("phase"), st.sampled_from(list(Phase)), st.one_of(st.none(), st.sampled_from(["4.3", "1"]))),
    st.tuples(st.just("task_add"), IDS, TEXT),
    st.tuples(st.just("task_start"), IDS),
    st.tuples(st.just("task_done"), IDS),
    st.tuples(
        st.just("context"),
        st.one_of(st.none(), TEXT),
        st.one_of(st.none(), TEXT),
        st.one_of(st.none(), TEXT),
        st.one_of(st.none(), st.integers(0, 3)),
    ),
    st.tuples(st.just("checkpoint"), TEXT),
    st.tuples(st.just("pause"), TEXT),
    st.tuples(st.just("resume"), st.sampled_from(["h", "other"])),
    st.tuples(st.just("complete"), st.sampled_from([lifecycle.CONFIRMED_ON_TERMINAL, lifecycle.CONFIRMED_BY_YES])),
    st.tuples(st.just("abort")),
    st.tuples(st.just("unlock"), st.one_of(st.none(), TEXT)),
    st.tuples(st.just("fail"), TEXT),
)


def apply(state: State, command: tuple) -> tuple[State, object]:
    name, *args = command
    if name == "checkpoint":
        return lifecycle.checkpoint(state, ENV, Checkpoint(action=args[0]))
    if name == "pause":
        return lifecycle.pause(state, ENV, Checkpoint(action=args[0]))
    if name == "resume":
        from vibegit.core.records import replace

        return lifecycle.resume(state, replace(ENV, host=args[0]))
    if name == "complete":
        return lifecycle.complete(state, ENV, args[0])
    if name == "abort":
        return lifecycle.abort(state, ENV, lifecycle.CONFIRMED_BY_CLIENT)
    if name == "unlock":
        return lifecycle.unlock(state, ENV, args[0], lifecycle.CONFIRMED_ON_TERMINAL)
    return getattr(lifecycle, name)(state, ENV, *args)


def check_invariants(state: State) -> None:
    """Cheap invariants, after every step."""
    status = state.workflow.status
    assert (state.lock is not None) == (status in (Status.RUNNING, Status.PAUSED))
    if state.lock is not None:
        assert state.lock.locked == (status is Status.RUNNING)
        assert state.lock.paused == (status is Status.PAUSED)
    assert len({t.id for t in state.tasks}) == len(state.tasks)


def check_round_trip(state: State) -> None:
    """The files say exactly the state: render, parse, render again."""
    files = render_all(state)
    again = parse_all({name: text.encode() for name, text in files.items()})
    assert render_all(again) == files
    assert again.completed_tasks == sum(t.status is TaskStatus.DONE for t in state.tasks)
    assert again.total_tasks == len(state.tasks)
    assert f"total_tasks: {state.total_tasks}" in files["session.yaml"]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(COMMANDS, max_size=25))
def test_any_sequence_keeps_the_invariants(commands: list[tuple]) -> None:
    state = State()
    for command in commands:
        try:
            new, event = apply(state, command)
        except VibegitError as err:
            assert str(err) and "\n" not in str(err)
            assert err.code in (1, 2)
            continue  # immutable state: refusing leaves it as it was
        assert event.name and "\n" not in event.name
        assert new.session.updated_at == ENV.now
        state = new
        check_invariants(state)
    check_round_trip(state)


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.sampled_from(
            [
                ("task", "add", "T-1", "one"),
                ("task", "done", "T-1"),
                ("task", "done", "T-9"),
                ("task", "start", "T-1"),
                ("pause",),
                ("resume",),
                ("phase", "X"),
                ("complete", "--yes"),
                ("start", "w", "--goal", "again"),
            ]
        ),
        min_size=1,
        max_size=6,
    )
)
def test_refused_commands_write_nothing(tmp_path_factory, commands: list[tuple[str, ...]]) -> None:
    repo = init_repo(tmp_path_factory.mktemp("r") / "repo")
    assert vg_here("start", "w", "--goal", "g", cwd=repo).code == 0
    for args in commands:
        before = git(repo, "rev-parse", "vibegit/state")
        result = vg_here(*args, cwd=repo)
        after = git(repo, "rev-parse", "vibegit/state")
        assert result.code in (0, 1, 2), result.err
        assert "Traceback" not in result.err
        if result.code:
            assert after == before and len(result.err.strip().splitlines()) == 1
        else:  # one event, one commit; resume while running here just reports
            made = int(git(repo, "rev-list", "--count", f"{before}..{after}"))
            assert made == 1 or (args == ("resume",) and made == 0)
