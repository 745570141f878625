"""Every state transition: data in, data out.

Each function takes the current State and what happened, and returns the new
State and the Event to record, or raises Refused (illegal transition) /
BadInput (unknown task, bad value). No I/O here: the store writes.

Here are the workflow's lifecycle, its tasks, context and checkpoints, the
memory and what learning adds to it, the agent's session, and the events
that other parts record (a failed user hook, a merge, a repair, a
redaction), plus the rules that guard them: the takeover and the lock's
consistency.
"""

from __future__ import annotations

from collections.abc import Callable

from vibegit.core import workflows
from vibegit.core.messages import t
from vibegit.core.model import (
    ACTIVE,
    Checkpoint,
    Env,
    Event,
    Lock,
    Memory,
    MemoryCategory,
    MemoryEntry,
    Mode,
    ModeType,
    Phase,
    PhaseVisit,
    Question,
    Result,
    State,
    Status,
    Task,
    TaskStatus,
    Workflow,
)
from vibegit.core.records import NamedTuple, replace
from vibegit.core.text import MAX_TEXT, LazyPattern, check_task_id, check_text
from vibegit.errors import OK, BadInput, Refused, VibegitError

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start

if TYPE_CHECKING:
    from vibegit.core.learn import DocChange

MAX_QUESTIONS = 500  # answered questions kept in session.yaml (the decisions of the completion report)
MAX_PHASES = 200  # phase entries kept (the completion report's phases)


def unlock_conditions() -> tuple[str, ...]:
    """The lock's unlock conditions, as workflow.lock records them (in this run's language)."""
    return (t("lock.when_complete"), t("lock.when_paused"), t("lock.when_unlocked"))


def touch(state: State, env: Env, **changes: object) -> State:
    session = state.session
    if not session.id:
        session = replace(session, id=env.new_session_id, created_at=env.now)
    return replace(state, session=replace(session, updated_at=env.now), **changes)  # type: ignore[arg-type]


def _describe(state: State) -> str:
    status = state.workflow.status
    if status is Status.INIT:
        return t("lifecycle.no_workflow")
    return t("lifecycle.workflow_is", name=state.mode.workflow_name, status=t(f"status.{status.value}"))


def require(state: State, allowed: tuple[Status, ...], command: str) -> None:
    status = state.workflow.status
    if status in allowed:
        return
    hint = {Status.PAUSED: "lifecycle.hint_paused", Status.RUNNING: "lifecycle.hint_running"}.get(
        status, "lifecycle.hint_start"
    )
    raise Refused(t("lifecycle.cannot", command=command, state=_describe(state), hint=t(hint)))


def _lock(state: State, env: Env, workflow: str, *, paused: bool = False) -> Lock:
    return Lock(
        locked=not paused,
        workflow=workflow,
        locked_at=env.now,
        reason=t("lock.reason_paused") if paused else t("lock.reason_running"),
        unlock_conditions=unlock_conditions(),
        paused=paused,
        host=env.host,
        worktree=env.worktree,
        machine=env.machine,
        extra=state.lock.extra if state.lock else {},
    )


def init(state: State, env: Env) -> Result:
    return touch(state, env), Event("init", t("event.init"))


def start(state: State, env: Env, workflow: str, goal: str) -> Result:
    name = check_text(workflow, t("what.workflow_name"), max_len=100)
    if not name or any(c.isspace() for c in name):
        raise BadInput(t("lifecycle.name_one_word", name=workflow))
    goal = check_text(goal, "--goal")
    if not goal:
        raise BadInput(t("lifecycle.empty", what="--goal"))
    if state.workflow.status in ACTIVE:
        raise Refused(t("lifecycle.start_running", name=name, state=_describe(state)))
    new = touch(
        state,
        env,
        mode=Mode(ModeType.WORKFLOW, name, Phase.R1, "1.1"),
        workflow=Workflow(
            Status.RUNNING,
            env.now,
            env.branch,
            None,
            id=workflows.new_id(name, env.nonce),
            worktree=env.worktree,
            phases=(PhaseVisit(Phase.R1, "1.1", env.now),),
        ),
        context=replace(
            state.context,
            goal=goal,
            last_action="",
            next_action="",
            pending_questions=(),
            answered_questions=(),
            last_question_id=0,
        ),
        checkpoint=None,
        tasks=(),
        notes="",
    )
    new = replace(new, lock=_lock(new, env, name))
    return new, Event("start", f"{name}: {goal}")


def phase(state: State, env: Env, to: Phase, step: str | None) -> Result:
    require(state, (Status.RUNNING,), t("do.phase", phase=to.value))
    if step is not None:
        step = check_text(step, "--step", max_len=40)
    before = state.mode.phase
    visits = (*state.workflow.phases, PhaseVisit(to, step, env.now))[-MAX_PHASES:]
    new = touch(
        state, env, mode=replace(state.mode, phase=to, step=step), workflow=replace(state.workflow, phases=visits)
    )
    summary = f"{before.value if before else '-'} -> {to.value}" + (t("event.step", step=step) if step else "")
    return new, Event("phase", summary)


def _task_or_error(state: State, task_id: str) -> Task:
    task = state.task(task_id)
    if task is None:
        known = ", ".join(x.id for x in state.tasks) or t("lifecycle.none_yet")
        raise BadInput(t("lifecycle.unknown_task", id=task_id, known=known))
    return task


def _set_task(state: State, task: Task) -> tuple[Task, ...]:
    return tuple(task if x.id == task.id else x for x in state.tasks)


def task_add(state: State, env: Env, task_id: str, title: str) -> Result:
    check_task_id(task_id)
    title = check_text(title, t("what.task_title"), max_len=500)
    if not title:
        raise BadInput(t("lifecycle.empty", what=t("what.task_title")))
    require(state, (Status.RUNNING,), t("do.add_task", id=task_id))
    if state.task(task_id):
        raise BadInput(t("lifecycle.task_exists", id=task_id))
    if task_id in state.workflow.removed_tasks:
        raise BadInput(t("lifecycle.task_removed", id=task_id))
    new = touch(state, env, tasks=(*state.tasks, Task(task_id, title)))
    return new, Event("task-add", f"{task_id}: {title}", task=task_id)


def _open_task(state: State, task_id: str, doing: str) -> Task:
    """Task ``task_id`` of the running workflow, not done yet (``doing``: do.start_task or do.finish_task)."""
    check_task_id(task_id)
    require(state, (Status.RUNNING,), t(doing, id=task_id))
    task = _task_or_error(state, task_id)
    if task.status is TaskStatus.DONE:
        raise Refused(t("lifecycle.task_done_already", id=task_id))
    return task


def task_start(state: State, env: Env, task_id: str) -> Result:
    task = _open_task(state, task_id, "do.start_task")
    new = touch(
        state,
        env,
        tasks=_set_task(state, replace(task, status=TaskStatus.DOING)),
        workflow=replace(state.workflow, current_task=task_id),
    )
    return new, Event("task-start", f"{task_id}: {task.title}", task=task_id)


def task_done(state: State, env: Env, task_id: str) -> Result:
    task = _open_task(state, task_id, "do.finish_task")
    tasks = _set_task(state, replace(task, status=TaskStatus.DONE))
    current = state.workflow.current_task
    if current == task_id:
        current = next((t.id for t in tasks if t.status is TaskStatus.DOING), None)
    new = touch(
        state,
        env,
        tasks=tasks,
        workflow=replace(state.workflow, current_task=current),
        context=replace(state.context, last_action=t("lifecycle.finished", id=task_id, title=task.title)),
    )
    return new, Event("task-done", f"{task_id}: {task.title}", task=task_id)


def context(
    state: State,
    env: Env,
    last: str | None,
    next_: str | None,
    question: str | None,
    answer: int | None,
    reply: str | None = None,
) -> Result:
    """Last and next action; a question asked (its id is never given again), or
    one answered: it moves to the answered questions with its answer."""
    require(state, ACTIVE, t("do.context"))
    ctx = state.context
    pending, answered = list(ctx.pending_questions), list(ctx.answered_questions)
    changed = [t(f"event.{name}") for name, v in (("last", last), ("next", next_)) if v is not None]
    if reply is not None and answer is None:
        raise BadInput(t("lifecycle.reply_needs_answer"))
    last_id = ctx.last_question_id
    if answer is not None:
        found = next((q for q in pending if q.id == answer), None)
        if found is None:
            have = ", ".join(str(q.id) for q in pending) or t("lifecycle.none_open")
            raise BadInput(t("lifecycle.no_question", n=answer, have=have))
        text = check_text(reply, "--reply") if reply is not None else ""
        pending.remove(found)
        answered.append(replace(found, answer=text, answered_at=env.now))
        changed.append(t("event.answered", n=answer))
    if question is not None:
        text = check_text(question, "--question")
        if not text:
            raise BadInput(t("lifecycle.empty", what="--question"))
        last_id = ctx.next_question_id()
        pending.append(Question(last_id, text, asked_at=env.now))
        changed.append(t("event.asked", n=last_id))
    if not changed:
        raise BadInput(t("lifecycle.context_nothing"))
    ctx = replace(
        ctx,
        last_action=check_text(last, "--last") if last is not None else ctx.last_action,
        next_action=check_text(next_, "--next") if next_ is not None else ctx.next_action,
        pending_questions=tuple(pending),
        answered_questions=tuple(answered[-MAX_QUESTIONS:]),
        last_question_id=max(last_id, ctx.last_question_id),
    )
    return touch(state, env, context=ctx), Event("context", ", ".join(changed))


def _checkpoint(state: State, env: Env, point: Checkpoint) -> State:
    point = replace(
        point, action=check_text(point.action, "--action"), commit=env.head, branch=env.branch, created_at=env.now
    )
    return touch(state, env, checkpoint=point)


def keep_position(state: State, point: Checkpoint) -> Checkpoint:
    """A checkpoint or pause without ``--file`` keeps the last checkpoint's
    file:line, and without ``--action`` its action: a plain ``vibegit checkpoint``
    moves the commit and the snapshot, never wipes the position."""
    old = state.checkpoint
    if old is None:
        return point
    if not point.file:
        point = replace(point, file=old.file, line=old.line, line_text=old.line_text)
    return replace(point, action=point.action or old.action)


def _head(env: Env) -> str:
    return (env.head or t("event.no_commit"))[:12]


def checkpoint(state: State, env: Env, point: Checkpoint) -> Result:
    require(state, ACTIVE, t("do.checkpoint"))
    point = keep_position(state, point)
    where = t("event.at", where=f"{point.file}:{point.line}" if point.line else point.file) if point.file else ""
    return _checkpoint(state, env, point), Event("checkpoint", f"{_head(env)}{where}")


def pause(state: State, env: Env, point: Checkpoint) -> Result:
    require(state, (Status.RUNNING,), t("do.pause"))
    name = state.mode.workflow_name or ""
    new = _checkpoint(state, env, keep_position(state, point))
    new = replace(
        new,
        mode=replace(new.mode, type=ModeType.PAUSED),
        workflow=replace(new.workflow, status=Status.PAUSED),
        lock=_lock(new, env, name, paused=True),
    )
    return new, Event("pause", t("event.paused", name=name, head=_head(env)))


def resume(state: State, env: Env) -> Result:
    """Take the lock again: after a pause, or from another clone or worktree."""
    status = state.workflow.status
    name = state.mode.workflow_name or ""
    if status is Status.RUNNING:
        lock = state.lock
        if lock and lock.held_here(env):
            raise Refused(t("lifecycle.running_here", name=name))
        summary = t(
            "event.taken_over", name=name, host=lock.host if lock else "?", worktree=lock.worktree if lock else "?"
        )
    else:
        require(state, (Status.PAUSED,), t("do.resume"))
        summary = t("event.resumed", name=name)
    new = touch(
        state,
        env,
        mode=replace(state.mode, type=ModeType.WORKFLOW),
        workflow=replace(state.workflow, status=Status.RUNNING),
    )
    return replace(new, lock=_lock(new, env, name)), Event("resume", summary)


# How a person's decision (complete, abort, unlock) was given, as the record says it.
CONFIRMED_ON_TERMINAL = "confirmed on the terminal"
CONFIRMED_ON_STDIN = "confirmed on standard input (no terminal, no agent)"
CONFIRMED_BY_YES = "confirmation skipped with --yes (no agent)"
CONFIRMED_BY_CLIENT = "confirmed by the user through the client"  # MCP elicitation, accepted


def confirmed_in_prompt(label: str) -> str:
    """The user allowed the command in ``label``'s permission prompt, which vibegit's hook made ask."""
    return f"confirmed by the user in {label}'s permission prompt (asked by vibegit's hook)"


def _confirmation(how: str) -> str:
    return f"Vibegit-Confirmation: {how}"


def complete(
    state: State,
    env: Env,
    confirmation: str,
    lessons: tuple[str, ...] = (),
    allow_empty: bool = False,
) -> Result:
    """The workflow done: the lock released, the end time and the lessons kept
    (the completion report is made from them), and what was learned recorded
    into memory: each lesson, and each answered question as a decision."""
    check_can_complete(state, allow_empty)
    lessons = tuple(dict.fromkeys(x for x in (check_text(x, "--lesson") for x in lessons) if x))
    learned = tuple(dict.fromkeys([*lessons, *(decision(q) for q in state.context.answered_questions if q.answer)]))
    memory = state.memory
    added: list[str] = []
    for text in learned:
        if remembered_as(memory, MemoryCategory.PROJECT_KNOWLEDGE, text) is not None:
            continue
        entry_id = next_memory_ids(memory)[0]
        entry = MemoryEntry(
            entry_id, MemoryCategory.PROJECT_KNOWLEDGE, text, created_at=env.now, extra={"workflow": state.workflow.id}
        )
        memory = replace(memory, entries=(*memory.entries, entry), last_id=_number(entry_id))
        added.append(text)
    new = _end(state, env, Status.COMPLETED)
    new = replace(new, memory=memory, workflow=replace(new.workflow, lessons=learned))  # the report's "Learned"
    details = [_confirmation(confirmation)]
    if not state.tasks:
        details.append("Vibegit-No-Tasks: confirmed")
    details += [f"Vibegit-Learned: {text}" for text in added[:50]]
    summary = t("event.completed", name=state.mode.workflow_name)
    return new, Event("complete", summary, details=tuple(details), lessons=tuple(added))


def decision(q: Question) -> str:
    """An answered question as the decision memory keeps."""
    return f"{q.text} → {q.answer}"


def check_can_complete(state: State, allow_empty: bool = False) -> None:
    """The rules before a human is even asked: running, every task done, no
    open question, and at least one task (unless ``allow_empty``)."""
    require(state, (Status.RUNNING,), t("do.complete"))
    open_tasks = [x.id for x in state.tasks if x.status is not TaskStatus.DONE]
    if open_tasks:
        raise Refused(t("lifecycle.tasks_open", tasks=", ".join(open_tasks)))
    if state.context.pending_questions:
        ids = ", ".join(str(q.id) for q in state.context.pending_questions)
        raise Refused(t("lifecycle.questions_open", n=len(state.context.pending_questions), ids=ids))
    if not state.tasks and not allow_empty:
        raise Refused(t("lifecycle.no_tasks", name=state.mode.workflow_name))


def _end(state: State, env: Env, status: Status) -> State:
    return touch(
        state,
        env,
        mode=replace(state.mode, type=ModeType.CONVERSATION),
        workflow=replace(state.workflow, status=status, ended_at=env.now),
        lock=None,
    )


def abort(state: State, env: Env, confirmation: str) -> Result:
    """The workflow ended, its progress kept; how it was confirmed is recorded
    (on the terminal, skipped with --yes, or by the client)."""
    require(state, ACTIVE, t("do.abort"))
    details = (_confirmation(confirmation),)
    return _end(state, env, Status.ABORTED), Event(
        "abort", t("event.aborted", name=state.mode.workflow_name), details=details
    )


def unlock(state: State, env: Env, reason: str | None, confirmation: str) -> Result:
    require(state, ACTIVE, t("do.unlock"))
    why = check_text(reason or t("lifecycle.unlocked_by_user"), "--reason")
    new = _end(state, env, Status.ABORTED)
    new = replace(new, context=replace(new.context, last_action=t("lifecycle.unlocked", why=why)))
    details = (_confirmation(confirmation),)
    return new, Event("unlock", t("event.unlocked", name=state.mode.workflow_name, why=why), details=details)


def fail(state: State, env: Env, message: str) -> Result:
    require(state, ACTIVE, t("do.fail"))
    message = check_text(message, t("what.failure"))
    if not message:
        raise BadInput(t("lifecycle.empty", what=t("what.failure")))
    new = _end(state, env, Status.FAILED)
    new = replace(
        new,
        context=replace(new.context, last_action=t("lifecycle.failed", message=message)),
        workflow=replace(new.workflow, error=message),
    )
    return new, Event("fail", t("event.failed", name=state.mode.workflow_name, message=message))


def rewrite_checkpoint(state: State, env: Env, mapping: dict[str, str], command: str) -> Result:
    """After ``git commit --amend`` or a rebase: the checkpoint follows its commit.

    ``mapping`` is old commit -> new commit, as git's post-rewrite hook gives it."""
    require(state, ACTIVE, t("do.move_checkpoint"))
    point = state.checkpoint
    if point is None or point.commit not in mapping:
        raise Refused(t("lifecycle.no_rewritten_commit"))
    old, new = point.commit, mapping[point.commit]
    moved = touch(state, env, checkpoint=replace(point, commit=new))
    return moved, Event("rewrite", t("event.rewrite", old=old[:12], new=new[:12], command=command))


def adopt(state: State, env: Env, found: State, source: str, tracked: tuple[str, ...]) -> Result:
    """A skill-based set-up's state files (``found``, read from ``source``)
    become a workflow of the state branch, bound here: its mode, phase, tasks,
    context and checkpoint as they were; a running or paused one takes the
    lock here (it was the skill's, on no host); its memory entries and
    knowledge docs join the shared ones (an entry already remembered is not
    added twice, new ones get fresh ids)."""
    w = found.workflow
    name = found.mode.workflow_name or (found.lock.workflow if found.lock else "") or "workflow"
    status = (
        w.status if w.status is not Status.INIT else (Status.RUNNING if found.lock and found.lock.locked else w.status)
    )
    if state.workflow.status in ACTIVE:
        raise Refused(t("lifecycle.start_running", name=name, state=_describe(state)))
    memory = state.memory
    for entry in found.memory.entries:
        if remembered_as(memory, entry.category, entry.text) is None:
            fresh = replace(entry, id=next_memory_ids(memory)[0])
            memory = replace(memory, entries=(*memory.entries, fresh), last_id=_number(fresh.id))
    memory = replace(memory, docs={**found.memory.docs, **memory.docs})
    workflow = replace(
        w,
        status=status,
        id=workflows.new_id(name, env.nonce),
        branch=env.branch,
        worktree=env.worktree,
        started_at=w.started_at or env.now,
        phases=w.phases or ((PhaseVisit(found.mode.phase, found.mode.step, env.now),) if found.mode.phase else ()),
    )
    new = touch(
        replace(found, session=replace(found.session, id=found.session.id or env.new_session_id)),
        env,
        mode=replace(found.mode, workflow_name=name),
        workflow=workflow,
        memory=memory,
        lock=None,
    )
    if status in ACTIVE:
        new = replace(new, lock=_lock(new, env, name, paused=status is Status.PAUSED))
    details = (f"Vibegit-Adopted-From: {source}", *(f"Vibegit-Tracked: {path}" for path in tracked[:50]))
    return new, Event(
        "adopt", t("event.adopted", name=name, status=t(f"status.{status.value}"), source=source), details=details
    )


# -- memory ---------------------------------------------------------------------

CATEGORIES = tuple(c.value for c in MemoryCategory)
_MEMORY_NUMBER = LazyPattern(r"M-(\d+)\Z")  # compiled when memory is added to


def category(value: str) -> MemoryCategory:
    try:
        return MemoryCategory(value.strip().lower().replace("-", "_"))
    except ValueError:
        raise BadInput(t("lifecycle.category", value=value, known=", ".join(CATEGORIES))) from None


def _number(entry_id: str) -> int:
    found = _MEMORY_NUMBER.match(entry_id)
    return int(found.group(1)) if found else 0


def next_memory_ids(memory: Memory, count: int = 1) -> list[str]:
    """Fresh ids after the highest M-NNN ever given (``last_id``: a removed
    entry's id is never given again; hand-made ids are skipped)."""
    start = max([memory.last_id, *(_number(e.id) for e in memory.entries)]) + 1
    return [f"M-{n:03d}" for n in range(start, start + count)]


def remembered_as(memory: Memory, cat: MemoryCategory, text: str) -> MemoryEntry | None:
    """The entry that already says ``text`` (spacing and case aside), if any."""
    key = " ".join(text.split()).casefold()
    return next((e for e in memory.entries if e.category is cat and " ".join(e.text.split()).casefold() == key), None)


def memory_add(state: State, env: Env, cat: MemoryCategory, text: str) -> Result:
    text = check_text(text, t("what.memory_text"), max_len=MAX_TEXT)
    if not text:
        raise BadInput(t("lifecycle.empty", what=t("what.memory_text")))
    same = remembered_as(state.memory, cat, text)
    if same is not None:
        raise Refused(t("lifecycle.already_remembered", id=same.id))
    entry = MemoryEntry(next_memory_ids(state.memory)[0], cat, text, created_at=env.now)
    memory = replace(state.memory, entries=(*state.memory.entries, entry), last_id=_number(entry.id))
    return touch(state, env, memory=memory), Event("memory-add", f"{entry.id} {cat.value}: {text}")


def memory_remove(state: State, env: Env, entry_id: str) -> Result:
    entry = next((e for e in state.memory.entries if e.id == entry_id), None)
    if entry is None:
        known = ", ".join(e.id for e in state.memory.entries[:20]) or t("lifecycle.none_yet")
        raise BadInput(t("lifecycle.unknown_memory", id=entry_id, known=known))
    numbers = [_number(e.id) for e in state.memory.entries]
    memory = replace(
        state.memory,
        entries=tuple(e for e in state.memory.entries if e.id != entry_id),
        last_id=max([state.memory.last_id, *numbers]),  # the removed id stays given
    )
    summary = f"{entry.id} {entry.category.value}: {entry.text}"
    return touch(state, env, memory=memory), Event("memory-remove", summary)


class NothingNew(VibegitError):
    """Raised inside the transaction when another process learned it first."""

    code = OK


def learn(state: State, env: Env, changes: tuple[DocChange, ...]) -> Result:
    """Replace each changed doc's rules; unchanged ones keep their ids. A doc
    that is gone is not a change: what it taught stays (it may be on another
    branch, or not on this machine yet)."""
    memory = state.memory
    learned = dict(memory.learned)
    entries = list(memory.entries)
    parts: list[str] = []
    docs: list[str] = []
    lessons: list[str] = []
    for change in changes:
        if learned.get(change.path) == change.oid:
            continue
        old = {(e.heading, e.text): e for e in entries if e.source == change.path}
        entries = [e for e in entries if e.source != change.path]
        items = list(dict.fromkeys(change.items))
        fresh = [i for i in items if (i.heading, i.text) not in old]
        in_use = replace(memory, entries=tuple(entries) + tuple(old.values()))
        ids = iter(next_memory_ids(in_use, len(fresh)))
        kept = 0
        for item in items:
            prior = old.get((item.heading, item.text))
            if prior is not None:
                entries.append(replace(prior, category=item.category))
                kept += 1
                continue
            entries.append(
                MemoryEntry(
                    next(ids), item.category, item.text, created_at=env.now, source=change.path, heading=item.heading
                )
            )
            lessons.append(item.text)
        learned[change.path] = change.oid
        docs.append(change.path)
        parts.append(f"{change.path} +{len(fresh)} -{len(old) - kept}")
    if not parts:
        raise NothingNew(t("learn.nothing_new"))
    last_id = max([memory.last_id, *(_number(e.id) for e in entries)])
    new_memory = replace(memory, entries=tuple(entries), learned=learned, last_id=last_id)
    return touch(state, env, memory=new_memory), Event(
        "learn", "; ".join(parts), docs=tuple(docs), lessons=tuple(lessons)
    )


# -- events other parts record -------------------------------------------------------


class Unchanged(VibegitError):
    """Raised inside the transaction when the event would change nothing: no event."""

    code = OK


def agent_session(state: State, env: Env, session_id: str, agent: str, source: str) -> Result:
    """The ``agent-session`` event: session.id becomes the agent's session id."""
    if state.session.id == session_id:
        raise Unchanged("the agent session is already the recorded one")
    new = touch(replace(state, session=replace(state.session, id=session_id)), env)
    how = f" ({source})" if source else ""
    return new, Event(
        "agent-session",
        f"{agent} session {session_id}{how}",
        details=(f"Vibegit-Agent: {agent}", f"Vibegit-Previous-Session: {state.session.id or 'none'}"),
    )


def hook_failed(
    state: State, env: Env, what: str, hook: str, exit_code: int | None, after: Event, commit: str
) -> Result:
    """A user's lifecycle hook failed after ``after`` was recorded as ``commit``."""
    return touch(state, env), Event(
        "hook-failed",
        what,
        task=after.task,
        details=(
            f"Vibegit-Hook: {hook}",
            f"Vibegit-Hook-Exit: {'timeout' if exit_code is None else exit_code}",
            f"Vibegit-Hook-For: {after.name} {commit}",
        ),
    )


def allowed_commit(state: State, env: Env, commit: str | None, branch: str | None, why: str) -> Result:
    """A commit let through the lock with ``VIBEGIT_ALLOW=1``: recorded, the state unchanged."""
    where = branch or "a detached HEAD"
    what = f"{commit[:12]} on {where}" if commit else f"a commit on {where}"
    return touch(state, env), Event(
        "allowed-commit",
        f"{what} while the lock held (VIBEGIT_ALLOW=1)",
        details=(
            f"Vibegit-Allowed-Commit: {commit or 'unknown'}",
            f"Vibegit-Blocked-Because: {' '.join(why.split())[:200]}",
        ),
    )


def merged(state: State, remote: str, decisions: list[str]) -> Result:
    """The merge commit's event: the merged state, and every decision in a trailer."""
    return state, Event(
        "merge",
        t("event.merged", remote=remote, n=len(decisions)),
        details=tuple(f"Vibegit-Decision: {d}" for d in decisions),
    )


def repaired(state: State, good: str, problem: str) -> Result:
    """``doctor --repair``: the newest good state again, as a new event."""
    return state, Event(
        "repair", t("event.repaired", good=good[:10], problem=problem[:80]), details=(f"Vibegit-Repaired-From: {good}",)
    )


def redacted(state: State, values: int, withheld: list[str], places: tuple[str, ...]) -> Result:
    """``sync --redact``: what was taken out, on top of the rewritten events."""
    summary = t("event.redacted", n=values)
    if withheld:
        summary += t("event.withheld", n=len(withheld))
    return state, Event("redact", summary, details=places[:50])


# -- rules that guard events ---------------------------------------------------------

# Events a machine may still record after its workflow was taken over elsewhere.
AFTER_TAKEOVER = frozenset({"resume", "abort", "unlock", "init", "merge", "repair", "redact"})


class RemoteLock(NamedTuple):
    """The lock of a fetched copy of the state branch, and how it relates to ours."""

    ref: str
    lock: Lock
    holds_ours: bool  # that copy already holds every event of the local branch
    behind_ours: bool  # the local branch already holds every event of that copy


class Newer(NamedTuple):
    """What a fetched copy of the state branch holds of one workflow that the
    local branch does not (``remote.newer``)."""

    remote: str
    ref: str
    tip: str
    events: int  # its events there that are not here
    status: Status
    updated_at: str  # its last event there
    lock: Lock | None

    def where(self, name: str) -> str:
        """One line: how far it moved on and who holds it there."""
        status = t(f"status.{self.status.value}")
        holder = self.lock.holder if self.lock is not None and (self.lock.host or self.lock.worktree) else ""
        how = t("lifecycle.newer_held", status=status, holder=holder) if holder else status
        return t("lifecycle.newer", name=name, remote=self.remote, n=self.events, at=self.updated_at or "?", how=how)

    def as_dict(self) -> dict[str, object]:
        """For ``status --json``."""
        held = self.lock is not None and self.lock.locked
        return {
            "remote": self.remote,
            "ref": self.ref,
            "commit": self.tip,
            "events": self.events,
            "status": self.status.value,
            "last_event": self.updated_at,
            "held_by": {"host": self.lock.host, "worktree": self.lock.worktree} if held and self.lock else None,
        }


def taken_over(state: State, env: Env, remote_locks: list[RemoteLock]) -> str | None:
    """Why an event here is refused because the workflow now runs in another
    clone, by the local state (after a sync) or a fetched copy (after a fetch).
    The worktrees of one clone share its state branch: none of them takes it
    from another by an event."""
    if state.workflow.status is not Status.RUNNING:
        return None
    name = state.mode.workflow_name
    lock = state.lock
    if lock and lock.elsewhere(env, clone_only=True):
        return t("lifecycle.taken_over", name=name, host=lock.host, worktree=lock.worktree, at=lock.locked_at)
    for ref, other, holds_ours, behind_ours in remote_locks:
        if not (other.elsewhere(env, clone_only=True) and other.workflow == name):
            continue
        # Taken over when that copy already holds everything here, or, when both
        # moved, when its lock is the newer one.
        if holds_ours or (not behind_ours and (lock is None or other.locked_at > lock.locked_at)):
            return t(
                "lifecycle.taken_over_there",
                name=name,
                host=other.host,
                worktree=other.worktree,
                at=other.locked_at,
                ref=ref,
            )
    return None


Transition = Callable[[State], Result]


def guarded(transition: Transition, env: Env, remote_locks: list[RemoteLock]) -> Transition:
    """``transition``, refused when the workflow was taken over on another host;
    the events that take it back or end it still go."""

    def guard(state: State) -> Result:
        why = taken_over(state, env, remote_locks)
        if why is None:
            return transition(state)
        try:
            new, event = transition(state)
        except VibegitError:
            raise Refused(why) from None  # the takeover is the news, not the event's own complaint
        if event.name in AFTER_TAKEOVER:
            return new, event
        raise Refused(why)

    return guard


def lock_problems(state: State) -> list[str]:
    """Where ``workflow.lock`` disagrees with the workflow's status."""
    status, lock = state.workflow.status, state.lock
    name = state.mode.workflow_name
    if status is Status.RUNNING:
        if lock is None or not lock.locked or lock.paused:
            how = t("lock.missing") if lock is None else t("lock.not_locked")
            return [t("lock.problem_running", name=name, how=how)]
    elif status is Status.PAUSED:
        if lock is None or lock.locked or not lock.paused:
            how = t("lock.missing") if lock is None else t("lock.not_paused")
            return [t("lock.problem_paused", name=name, how=how)]
    elif lock is not None and lock.locked:
        return [t("lock.problem_held", status=status.value)]
    if lock is not None and name and lock.workflow != name:
        return [t("lock.problem_names", lock=lock.workflow, session=name)]
    return []
