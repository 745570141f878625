"""Property: whatever each side did after the states diverged, a merge keeps
every task, memory entry and open question either side added (two added
under one id both stay, one renumbered), whichever side merges."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from vibegit.core import lifecycle, merge
from vibegit.core.model import Env, MemoryCategory, State
from vibegit.core.records import replace
from vibegit.errors import VibegitError

HERE = Env(now="2025-01-12T10:00:00Z", host="h", worktree="/a", head="a" * 40, branch="main", new_session_id="s")
THERE = replace(HERE, worktree="/b")

# (kind, id): the text is made unique per side and step when applied
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("task"), st.sampled_from(["T-1", "T-2", "T-3", "T-4"])),
        st.tuples(st.just("start"), st.sampled_from(["T-1", "T-2", "T-3", "T-4"])),
        st.tuples(st.just("done"), st.sampled_from(["T-1", "T-2", "T-3", "T-4"])),
        st.tuples(st.just("memory"), st.sampled_from(list(MemoryCategory))),
        st.tuples(st.just("question"), st.none()),
    ),
    max_size=8,
)


def started() -> State:
    state, _ = lifecycle.start(State(), HERE, "vibe-code", "goal")
    state, _ = lifecycle.task_add(state, HERE, "T-1", "base one")
    state, _ = lifecycle.memory_add(state, HERE, MemoryCategory.PROJECT_KNOWLEDGE, "base fact")
    state, _ = lifecycle.context(state, HERE, None, None, "base question", None)
    return state


def play(state: State, env: Env, side: str, ops: list[tuple[str, object]], minutes: int) -> tuple[State, set[str]]:
    """``ops`` applied (a refused one is skipped); the texts each accepted one added."""
    added: set[str] = set()
    for step, (kind, arg) in enumerate(ops):
        e = replace(env, now=f"2025-01-12T10:{minutes + step:02d}:00Z")
        text = f"{side} {kind} {step}"
        try:
            if kind == "task":
                state, _ = lifecycle.task_add(state, e, str(arg), text)
            elif kind == "start":
                state, _ = lifecycle.task_start(state, e, str(arg))
            elif kind == "done":
                state, _ = lifecycle.task_done(state, e, str(arg))
            elif kind == "memory":
                assert isinstance(arg, MemoryCategory)
                state, _ = lifecycle.memory_add(state, e, arg, text)
            else:
                state, _ = lifecycle.context(state, e, None, None, text, None)
        except VibegitError:
            continue
        if kind in ("task", "memory", "question"):
            added.add(text)
    return state, added


def texts(state: State) -> set[str]:
    return (
        {t.title for t in state.tasks}
        | {m.text for m in state.memory.entries}
        | {q.text for q in state.context.pending_questions}
    )


@settings(max_examples=300, deadline=None)
@given(OPS, OPS, st.booleans())
def test_a_merge_loses_nothing_either_side_added(mine_ops: list, their_ops: list, here_merges: bool) -> None:
    base = started()
    mine, mine_added = play(base, HERE, "here", mine_ops, 1)
    theirs, their_added = play(base, THERE, "there", their_ops, 20)
    ours_side, other_side = (mine, theirs) if here_merges else (theirs, mine)
    workflow, _ = merge.merge(
        replace(base, memory=base.memory),
        ours_side,
        other_side,
        here="here",
        there="origin",
        now="2025-01-12T11:00:00Z",
        merge_text=lambda b, o, t: ((t if o == b else o), False),
    )
    memory, _ = merge.merge_memory(
        base.memory, ours_side.memory, other_side.memory, here="here", there="origin", theirs_newer=not here_merges
    )
    merged = replace(workflow, memory=memory)
    assert texts(base) | mine_added | their_added <= texts(merged)
    assert len({t.id for t in merged.tasks}) == len(merged.tasks)
    assert len({m.id for m in merged.memory.entries}) == len(merged.memory.entries)
