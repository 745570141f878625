"""Property tests of the state files' parsers for what the skills' steps
added: questions with ids and answers, the phases entered, the failure, the
removed task ids, memory's last id, the knowledge docs, the headings in
either language, and what learn takes from a doc."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from vibegit.core import messages
from vibegit.core.learn import extract
from vibegit.core.model import (
    Context,
    Memory,
    MemoryCategory,
    Phase,
    PhaseVisit,
    Question,
    State,
    Status,
    Task,
    TaskStatus,
    Workflow,
)
from vibegit.core.records import replace
from vibegit.core.text import bad_char, hidden_char
from vibegit.errors import BadInput
from vibegit.infra.formats import parse_all, parse_kanban, parse_memory, parse_session, render_all, render_kanban
from vibegit.infra.formats.context import parse_context, render_context

TEXT = (  # what the commands take (check_text): no invisible character either (those are shown as escapes)
    st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=30)
    .map(str.strip)
    .filter(lambda text: bool(text) and hidden_char(text) is None)
)
TIME = st.sampled_from(["", "2025-01-12T10:00:00Z", "2025-01-12T11:30:00Z"])


@st.composite
def states(draw: st.DrawFn) -> State:
    pending_texts = draw(st.lists(TEXT, max_size=4))
    answered_texts = draw(
        st.lists(st.tuples(TEXT, st.text(max_size=20).filter(lambda x: x == x.strip() and x.isprintable())), max_size=4)
    )
    ids = iter(range(1, 100))
    answered = tuple(Question(next(ids), q, draw(TIME), a, draw(TIME)) for q, a in answered_texts)
    pending = tuple(Question(next(ids), q, draw(TIME)) for q in pending_texts)
    gap = draw(st.integers(0, 3))
    context = Context(
        goal=draw(TEXT),
        pending_questions=pending,
        answered_questions=answered,
        last_question_id=len(pending) + len(answered) + gap,
    )
    phases = tuple(
        PhaseVisit(p, draw(st.sampled_from([None, "1.1", "4.3"])), draw(TIME))
        for p in draw(st.lists(st.sampled_from(list(Phase)), max_size=5))
    )
    workflow = Workflow(
        status=draw(st.sampled_from([Status.COMPLETED, Status.FAILED, Status.ABORTED])),
        started_at="2025-01-12T10:00:00Z",
        id="w-abcdef",
        phases=phases,
        ended_at=draw(st.sampled_from([None, "2025-01-12T12:00:00Z"])),
        error=draw(st.sampled_from(["", "broke"])),
        removed_tasks=tuple(draw(st.lists(st.sampled_from(["T-001", "T-002", "T-009"]), unique=True, max_size=3))),
        lessons=tuple(draw(st.lists(TEXT, max_size=3))),
    )
    tasks = tuple(Task(f"T-{i:03d}", t, TaskStatus.DONE) for i, t in enumerate(draw(st.lists(TEXT, max_size=3)), 1))
    state = State(workflow=workflow, context=context, tasks=tasks)
    return replace(state, mode=replace(state.mode, workflow_name="w"), memory=Memory(last_id=draw(st.integers(0, 50))))


def reparse(state: State, lang: str) -> State:
    messages.use(lang, force=False)
    try:
        files = {name: text.encode() for name, text in render_all(state).items()}
    finally:
        messages.reset()
    return parse_all(files)


@settings(max_examples=150, deadline=None)
@given(states(), st.sampled_from(["en", "zh"]))
def test_render_then_parse_keeps_questions_phases_failure_and_ids(state: State, lang: str) -> None:
    back = reparse(state, lang)
    assert back.context.pending_questions == state.context.pending_questions
    assert back.context.answered_questions == state.context.answered_questions
    assert back.context.next_question_id() == state.context.next_question_id()
    assert back.workflow.phases == state.workflow.phases
    assert (back.workflow.error, back.workflow.ended_at) == (state.workflow.error, state.workflow.ended_at)
    assert back.workflow.removed_tasks == state.workflow.removed_tasks
    assert back.workflow.lessons == state.workflow.lessons
    assert back.memory.last_id == state.memory.last_id
    assert back.tasks == state.tasks


@settings(max_examples=150, deadline=None)
@given(st.lists(TEXT, min_size=1, max_size=5))
def test_the_skills_plain_questions_are_numbered_in_order(questions: list[str]) -> None:
    import yaml

    data = {"session": {"id": "s"}, "mode": {"type": "workflow"}, "context": {"pending_questions": questions}}
    state = parse_session(yaml.safe_dump(data, allow_unicode=True).encode())
    assert [(q.id, q.text) for q in state.context.pending_questions] == list(enumerate(questions, 1))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_in_session_yaml_give_a_clear_error_or_a_state(data: bytes) -> None:
    try:
        parse_session(data)
    except BadInput as err:
        assert str(err).startswith("session.yaml")


@settings(max_examples=200, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "pending_questions": st.lists(
                st.one_of(
                    TEXT,
                    st.integers(),
                    st.dictionaries(
                        st.sampled_from(["id", "question", "answer"]), st.one_of(TEXT, st.integers(-2, 5), st.none())
                    ),
                )
            ),
            "answered_questions": st.lists(
                st.dictionaries(
                    st.sampled_from(["id", "question", "answer", "asked_at"]),
                    st.one_of(TEXT, st.integers(-2, 5), st.booleans()),
                )
            ),
            "last_question_id": st.one_of(st.integers(-5, 5), TEXT, st.booleans()),
        },
    )
)
def test_any_questions_give_a_clear_error_or_ids_that_are_unique(context: dict) -> None:
    import yaml

    data = {"session": {"id": "s"}, "mode": {"type": "workflow"}, "context": context}
    try:
        state = parse_session(yaml.safe_dump(data, allow_unicode=True).encode())
    except BadInput as err:
        assert str(err).startswith("session.yaml:")
        return
    pending = [q.id for q in state.context.pending_questions]
    assert len(set(pending)) == len(pending) and all(i > 0 for i in pending)
    assert state.context.next_question_id() > max(pending, default=0)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_as_last_id_give_a_clear_error_or_a_memory(data: bytes) -> None:
    try:
        memory = parse_memory(b"entries: []\nlast_id: " + data)
    except BadInput as err:
        assert str(err).startswith("memory.yaml")
    else:
        assert memory.last_id >= 0


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(list(TaskStatus)), TEXT.filter(lambda t: ":" not in t)), max_size=5),
    st.sampled_from(["en", "zh"]),
)
def test_the_kanban_reads_back_in_either_language(items: list[tuple[TaskStatus, str]], lang: str) -> None:
    tasks = tuple(Task(f"T-{i:03d}", title, status) for i, (status, title) in enumerate(items, 1))
    messages.use(lang)
    try:
        text = render_kanban(tasks)
    finally:
        messages.reset()
    order = {s: n for n, s in enumerate((TaskStatus.TODO, TaskStatus.DOING, TaskStatus.DONE))}
    assert parse_kanban(text.encode()) == tuple(sorted(tasks, key=lambda t: order[t.status]))


@settings(max_examples=150, deadline=None)
@given(TEXT, st.text(max_size=60), st.sampled_from(["en", "zh"]))
def test_active_context_goal_and_notes_read_back_in_either_language(goal: str, notes: str, lang: str) -> None:
    notes = "\n".join(line for line in notes.replace("\r", "").split("\n") if line.isprintable()).strip()
    state = replace(State(), context=Context(goal=goal), notes=notes)
    text = render_context(state, lang)
    assert parse_context(text.encode()) == (goal, notes)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400), st.booleans())
def test_learn_takes_items_only_and_never_a_control_character(text: str, every: bool) -> None:
    items = extract(text, every_item=every)
    for item in items:
        # no control, line-breaking or bidi-override character (an unassigned code point is inert)
        assert item.text and item.text == item.text.strip() and bad_char(item.text) is None and len(item.text) <= 500
        assert item.category in (MemoryCategory.PROJECT_KNOWLEDGE, MemoryCategory.FORBIDDEN_ACTION)
    assert len(extract(text)) <= len(extract(text, every_item=True))


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.binary(min_size=20, max_size=64).map(bytes.hex),  # an id, as vibegit makes them (or longer, shorter)
        st.text(max_size=70),
        st.integers(),
        st.booleans(),
        st.lists(st.integers(), max_size=2),
    )
)
def test_any_machine_in_a_lock_gives_a_clear_error_or_an_id_that_reads_back(value: object) -> None:
    """workflow.lock's ``machine`` (who holds it) comes from the state branch: anyone could have pushed it."""
    import yaml

    from vibegit.infra.formats import parse_lock, render_lock

    data = {"locked": True, "workflow": "w", "host": "h", "worktree": "/w", "machine": value}
    try:
        lock = parse_lock(yaml.safe_dump(data).encode())
    except BadInput as err:
        assert str(err).startswith("workflow.lock") and "machine" in str(err) and "\n" not in str(err)
        return
    assert lock.machine in ("", value) and (not lock.machine or 16 <= len(lock.machine) <= 64)
    assert parse_lock(render_lock(lock).encode()) == lock
