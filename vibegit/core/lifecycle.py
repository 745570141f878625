"""Every state transition (SPEC §5): data in, data out.

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

import re
from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

from vibegit.core import workflows
from vibegit.core.learn import DocChange
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
    Result,
    State,
    Status,
    Task,
    TaskStatus,
    Workflow,
)
from vibegit.core.text import MAX_TEXT, check_task_id, check_text
from vibegit.errors import OK, BadInput, Refused, VibegitError

UNLOCK_CONDITIONS = (
    "all tasks done and the user confirmed (vibegit complete)",
    "the user paused (vibegit pause)",
    "the user unlocked (vibegit unlock) or aborted (vibegit abort)",
)


def touch(state: State, env: Env, **changes: object) -> State:
    session = state.session
    if not session.id:
        session = replace(session, id=env.new_session_id, created_at=env.now)
    return replace(state, session=replace(session, updated_at=env.now), **changes)  # type: ignore[arg-type]


def _describe(state: State) -> str:
    status = state.workflow.status
    if status is Status.INIT:
        return "no workflow has been started"
    return f"workflow {state.mode.workflow_name!r} is {status.value}"


def require(state: State, allowed: tuple[Status, ...], command: str) -> None:
    status = state.workflow.status
    if status in allowed:
        return
    hint = {
        Status.PAUSED: "run 'vibegit resume' first",
        Status.RUNNING: "finish it with 'vibegit complete', or 'vibegit pause' / 'vibegit abort'",
    }.get(status, "run 'vibegit start WORKFLOW --goal TEXT' first")
    raise Refused(f"cannot {command}: {_describe(state)}; {hint}")


def _lock(state: State, env: Env, workflow: str, *, paused: bool = False) -> Lock:
    return Lock(
        locked=not paused,
        workflow=workflow,
        locked_at=env.now,
        reason="workflow paused; resume with 'vibegit resume'"
        if paused
        else "workflow running; finish it before switching",
        unlock_conditions=UNLOCK_CONDITIONS,
        paused=paused,
        host=env.host,
        worktree=env.worktree,
        extra=state.lock.extra if state.lock else {},
    )


def init(state: State, env: Env) -> Result:
    return touch(state, env), Event("init", "state branch created")


def start(state: State, env: Env, workflow: str, goal: str) -> Result:
    name = check_text(workflow, "workflow name", max_len=100)
    if not name or any(c.isspace() for c in name):
        raise BadInput(f"workflow name {workflow!r:.40}: use one word like vibe-code")
    goal = check_text(goal, "--goal")
    if not goal:
        raise BadInput("--goal: must not be empty")
    if state.workflow.status in ACTIVE:
        raise Refused(
            f"cannot start {name!r}: {_describe(state)}; finish it with 'vibegit complete' "
            "or end it with 'vibegit abort' first"
        )
    new = touch(
        state,
        env,
        mode=Mode(ModeType.WORKFLOW, name, Phase.R1, "1.1"),
        workflow=Workflow(
            Status.RUNNING, env.now, env.branch, None, id=workflows.new_id(name, env.nonce), worktree=env.worktree
        ),
        context=replace(state.context, goal=goal, last_action="", next_action="", pending_questions=()),
        checkpoint=None,
        tasks=(),
        notes="",
    )
    new = replace(new, lock=_lock(new, env, name))
    return new, Event("start", f"{name}: {goal}")


def phase(state: State, env: Env, to: Phase, step: str | None) -> Result:
    require(state, (Status.RUNNING,), f"change phase to {to.value}")
    if step is not None:
        step = check_text(step, "--step", max_len=40)
    before = state.mode.phase
    new = touch(state, env, mode=replace(state.mode, phase=to, step=step))
    summary = f"{before.value if before else '-'} -> {to.value}" + (f" step {step}" if step else "")
    return new, Event("phase", summary)


def _task_or_error(state: State, task_id: str) -> Task:
    task = state.task(task_id)
    if task is None:
        known = ", ".join(t.id for t in state.tasks) or "none yet"
        raise BadInput(f"unknown task {task_id!r:.70} (known: {known}); add it with 'vibegit task add'")
    return task


def _set_task(state: State, task: Task) -> tuple[Task, ...]:
    return tuple(task if t.id == task.id else t for t in state.tasks)


def task_add(state: State, env: Env, task_id: str, title: str) -> Result:
    check_task_id(task_id)
    title = check_text(title, "task title", max_len=500)
    if not title:
        raise BadInput("task title: must not be empty")
    require(state, (Status.RUNNING,), f"add task {task_id}")
    if state.task(task_id):
        raise BadInput(f"task {task_id} already exists; pick another id")
    new = touch(state, env, tasks=(*state.tasks, Task(task_id, title)))
    return new, Event("task-add", f"{task_id}: {title}", task=task_id)


def _open_task(state: State, task_id: str, doing: str) -> Task:
    """Task ``task_id`` of the running workflow, not done yet."""
    check_task_id(task_id)
    require(state, (Status.RUNNING,), f"{doing} task {task_id}")
    task = _task_or_error(state, task_id)
    if task.status is TaskStatus.DONE:
        raise Refused(f"task {task_id} is already done")
    return task


def task_start(state: State, env: Env, task_id: str) -> Result:
    task = _open_task(state, task_id, "start")
    new = touch(
        state,
        env,
        tasks=_set_task(state, replace(task, status=TaskStatus.DOING)),
        workflow=replace(state.workflow, current_task=task_id),
    )
    return new, Event("task-start", f"{task_id}: {task.title}", task=task_id)


def task_done(state: State, env: Env, task_id: str) -> Result:
    task = _open_task(state, task_id, "finish")
    tasks = _set_task(state, replace(task, status=TaskStatus.DONE))
    current = state.workflow.current_task
    if current == task_id:
        current = next((t.id for t in tasks if t.status is TaskStatus.DOING), None)
    new = touch(
        state,
        env,
        tasks=tasks,
        workflow=replace(state.workflow, current_task=current),
        context=replace(state.context, last_action=f"finished {task_id}: {task.title}"),
    )
    return new, Event("task-done", f"{task_id}: {task.title}", task=task_id)


def context(
    state: State,
    env: Env,
    last: str | None,
    next_: str | None,
    question: str | None,
    answer: int | None,
) -> Result:
    require(state, ACTIVE, "update the context")
    ctx = state.context
    questions = list(ctx.pending_questions)
    if answer is not None:
        if not 1 <= answer <= len(questions):
            have = f"1..{len(questions)}" if questions else "none are open"
            raise BadInput(f"--answer {answer}: no such open question ({have})")
        questions.pop(answer - 1)
    if question is not None:
        questions.append(check_text(question, "--question"))
    ctx = replace(
        ctx,
        last_action=check_text(last, "--last") if last is not None else ctx.last_action,
        next_action=check_text(next_, "--next") if next_ is not None else ctx.next_action,
        pending_questions=tuple(questions),
    )
    changed = [name for name, v in (("last", last), ("next", next_), ("question", question)) if v is not None]
    if answer is not None:
        changed.append(f"answered #{answer}")
    if not changed:
        raise BadInput("context: give at least one of --last, --next, --question, --answer")
    return touch(state, env, context=ctx), Event("context", ", ".join(changed))


def _checkpoint(state: State, env: Env, point: Checkpoint) -> State:
    point = replace(
        point, action=check_text(point.action, "--action"), commit=env.head, branch=env.branch, created_at=env.now
    )
    return touch(state, env, checkpoint=point)


def checkpoint(state: State, env: Env, point: Checkpoint) -> Result:
    require(state, ACTIVE, "take a checkpoint")
    where = f" at {point.file}:{point.line}" if point.file else ""
    return _checkpoint(state, env, point), Event("checkpoint", f"{(env.head or 'no commit')[:12]}{where}")


def pause(state: State, env: Env, point: Checkpoint) -> Result:
    require(state, (Status.RUNNING,), "pause")
    name = state.mode.workflow_name or ""
    new = _checkpoint(state, env, point)
    new = replace(
        new,
        mode=replace(new.mode, type=ModeType.PAUSED),
        workflow=replace(new.workflow, status=Status.PAUSED),
        lock=_lock(new, env, name, paused=True),
    )
    return new, Event("pause", f"{name} paused at {(env.head or 'no commit')[:12]}")


def resume(state: State, env: Env) -> Result:
    """Take the lock again: after a pause, or from another host/worktree."""
    status = state.workflow.status
    name = state.mode.workflow_name or ""
    if status is Status.RUNNING:
        lock = state.lock
        if lock and (lock.host, lock.worktree) == (env.host, env.worktree):
            raise Refused(f"workflow {name!r} is already running here; nothing to resume")
        summary = f"{name} taken over from {lock.host if lock else '?'}:{lock.worktree if lock else '?'}"
    else:
        require(state, (Status.PAUSED,), "resume")
        summary = f"{name} resumed"
    new = touch(
        state,
        env,
        mode=replace(state.mode, type=ModeType.WORKFLOW),
        workflow=replace(state.workflow, status=Status.RUNNING),
    )
    return replace(new, lock=_lock(new, env, name)), Event("resume", summary)


CONFIRMED_BY_CLIENT = "confirmed by the user through the client"  # MCP elicitation, accepted


def complete(state: State, env: Env, skipped_confirmation: bool, confirmed_by: str | None = None) -> Result:
    check_can_complete(state)
    how = confirmed_by or ("confirmation skipped with --yes" if skipped_confirmation else "confirmed on the terminal")
    new = _end(state, env, Status.COMPLETED)
    return new, Event("complete", f"{state.mode.workflow_name} completed", details=(f"Vibegit-Confirmation: {how}",))


def check_can_complete(state: State) -> None:
    """The rules before a human is even asked: running, every task done, no open question."""
    require(state, (Status.RUNNING,), "complete")
    open_tasks = [t.id for t in state.tasks if t.status is not TaskStatus.DONE]
    if open_tasks:
        raise Refused(f"cannot complete: tasks not done: {', '.join(open_tasks)} (vibegit task done ID)")
    if state.context.pending_questions:
        raise Refused(
            f"cannot complete: {len(state.context.pending_questions)} open question(s); "
            "answer them with 'vibegit context --answer N'"
        )


def _end(state: State, env: Env, status: Status) -> State:
    return touch(
        state,
        env,
        mode=replace(state.mode, type=ModeType.CONVERSATION),
        workflow=replace(state.workflow, status=status),
        lock=None,
    )


def abort(state: State, env: Env, confirmed_by: str | None = None) -> Result:
    require(state, ACTIVE, "abort")
    details = (f"Vibegit-Confirmation: {confirmed_by}",) if confirmed_by else ()
    return _end(state, env, Status.ABORTED), Event(
        "abort", f"{state.mode.workflow_name} aborted; progress kept", details=details
    )


def unlock(state: State, env: Env, reason: str | None, confirmed_by: str | None = None) -> Result:
    require(state, ACTIVE, "unlock")
    why = check_text(reason or "unlocked by the user", "--reason")
    new = _end(state, env, Status.ABORTED)
    new = replace(new, context=replace(new.context, last_action=f"unlocked: {why}"))
    details = (f"Vibegit-Confirmation: {confirmed_by}",) if confirmed_by else ()
    return new, Event("unlock", f"{state.mode.workflow_name} unlocked: {why}", details=details)


def fail(state: State, env: Env, message: str) -> Result:
    require(state, ACTIVE, "record a failure")
    message = check_text(message, "failure message")
    if not message:
        raise BadInput("fail: the message must not be empty")
    new = _end(state, env, Status.FAILED)
    new = replace(new, context=replace(new.context, last_action=f"failed: {message}"))
    return new, Event("fail", f"{state.mode.workflow_name} failed: {message}")


def rewrite_checkpoint(state: State, env: Env, mapping: dict[str, str], command: str) -> Result:
    """After ``git commit --amend`` or a rebase: the checkpoint follows its commit.

    ``mapping`` is old commit -> new commit, as git's post-rewrite hook gives it."""
    require(state, ACTIVE, "move the checkpoint")
    point = state.checkpoint
    if point is None or point.commit not in mapping:
        raise Refused("the checkpoint names no rewritten commit; nothing to move")
    old, new = point.commit, mapping[point.commit]
    moved = touch(state, env, checkpoint=replace(point, commit=new))
    return moved, Event("rewrite", f"checkpoint {old[:12]} -> {new[:12]} after {command}")


# -- memory ---------------------------------------------------------------------

CATEGORIES = tuple(c.value for c in MemoryCategory)
_MEMORY_NUMBER = re.compile(r"M-(\d+)\Z")


def category(value: str) -> MemoryCategory:
    try:
        return MemoryCategory(value.strip().lower().replace("-", "_"))
    except ValueError:
        raise BadInput(f"category {value!r:.40}: use one of {', '.join(CATEGORIES)}") from None


def next_memory_ids(memory: Memory, count: int = 1) -> list[str]:
    """Fresh ids after the highest M-NNN in use (hand-made ids are skipped)."""
    numbers = [int(m.group(1)) for e in memory.entries if (m := _MEMORY_NUMBER.match(e.id))]
    start = max(numbers, default=0) + 1
    return [f"M-{n:03d}" for n in range(start, start + count)]


def remembered_as(memory: Memory, cat: MemoryCategory, text: str) -> MemoryEntry | None:
    """The entry that already says ``text`` (spacing and case aside), if any."""
    key = " ".join(text.split()).casefold()
    return next((e for e in memory.entries if e.category is cat and " ".join(e.text.split()).casefold() == key), None)


def memory_add(state: State, env: Env, cat: MemoryCategory, text: str) -> Result:
    text = check_text(text, "memory text", max_len=MAX_TEXT)
    if not text:
        raise BadInput("memory text: must not be empty")
    same = remembered_as(state.memory, cat, text)
    if same is not None:
        raise Refused(f"already remembered as {same.id}")
    entry = MemoryEntry(next_memory_ids(state.memory)[0], cat, text, created_at=env.now)
    memory = replace(state.memory, entries=(*state.memory.entries, entry))
    return touch(state, env, memory=memory), Event("memory-add", f"{entry.id} {cat.value}: {text}")


def memory_remove(state: State, env: Env, entry_id: str) -> Result:
    entry = next((e for e in state.memory.entries if e.id == entry_id), None)
    if entry is None:
        known = ", ".join(e.id for e in state.memory.entries[:20]) or "none yet"
        raise BadInput(f"unknown memory {entry_id!r:.40} (known: {known}); see 'vibegit memory list'")
    memory = replace(state.memory, entries=tuple(e for e in state.memory.entries if e.id != entry_id))
    summary = f"{entry.id} {entry.category.value}: {entry.text}"
    return touch(state, env, memory=memory), Event("memory-remove", summary)


class NothingNew(VibegitError):
    """Raised inside the transaction when another process learned it first."""

    code = OK


def learn(state: State, env: Env, changes: tuple[DocChange, ...]) -> Result:
    """Replace each changed doc's entries; unchanged items keep their ids."""
    memory = state.memory
    learned = dict(memory.learned)
    entries = list(memory.entries)
    parts: list[str] = []
    for change in changes:
        if learned.get(change.path) == change.oid:
            continue
        old = {(e.heading, e.text): e for e in entries if e.source == change.path}
        entries = [e for e in entries if e.source != change.path]
        fresh = [i for i in dict.fromkeys(change.items) if (i.heading, i.text) not in old]
        ids = iter(next_memory_ids(replace(memory, entries=tuple(entries) + tuple(old.values())), len(fresh)))
        kept = 0
        for item in dict.fromkeys(change.items):
            prior = old.get((item.heading, item.text))
            if prior is not None:
                entries.append(prior)
                kept += 1
            else:
                entries.append(
                    MemoryEntry(
                        next(ids),
                        MemoryCategory.PROJECT_KNOWLEDGE,
                        item.text,
                        created_at=env.now,
                        source=change.path,
                        heading=item.heading,
                    )
                )
        if change.oid is None:
            learned.pop(change.path, None)
            parts.append(f"{change.path} gone (-{len(old)})")
        else:
            learned[change.path] = change.oid
            parts.append(f"{change.path} +{len(fresh)} -{len(old) - kept}")
    if not parts:
        raise NothingNew("nothing new to learn")
    new_memory = replace(memory, entries=tuple(entries), learned=learned)
    return touch(state, env, memory=new_memory), Event("learn", "; ".join(parts))


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
        details=(f"Vibegit-Commit: {commit or 'unknown'}", f"Vibegit-Blocked-Because: {' '.join(why.split())[:200]}"),
    )


def merged(state: State, remote: str, decisions: list[str]) -> Result:
    """The merge commit's event: the merged state, and every decision in a trailer."""
    return state, Event(
        "merge",
        f"{remote} into here ({len(decisions)} decision(s))",
        details=tuple(f"Vibegit-Decision: {d}" for d in decisions),
    )


def repaired(state: State, good: str, problem: str) -> Result:
    """``doctor --repair``: the newest good state again, as a new event."""
    return state, Event(
        "repair", f"back to the state of {good[:10]} ({problem[:80]})", details=(f"Vibegit-Repaired-From: {good}",)
    )


def redacted(state: State, values: int, withheld: list[str], places: tuple[str, ...]) -> Result:
    """``sync --redact``: what was taken out, on top of the rewritten events."""
    summary = f"{values} value(s) that looked like credentials replaced in the state"
    if withheld:
        summary += f", {len(withheld)} file(s) left out of the snapshot"
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


def taken_over(state: State, env: Env, remote_locks: list[RemoteLock]) -> str | None:
    """Why an event here is refused because the workflow now runs on another
    host, by the local state (after a sync) or a fetched copy (after a fetch)."""
    if state.workflow.status is not Status.RUNNING:
        return None
    name = state.mode.workflow_name
    lock = state.lock
    if lock and lock.locked and lock.host and lock.host != env.host:
        return (
            f"workflow {name!r} was taken over on {lock.host}:{lock.worktree} at {lock.locked_at}; "
            "this event was not recorded. 'vibegit resume' takes it back here "
            "(after 'vibegit sync', so nothing done there is lost)"
        )
    for ref, other, holds_ours, behind_ours in remote_locks:
        if not (other.locked and other.host and other.host != env.host and other.workflow == name):
            continue
        # Taken over when that copy already holds everything here, or, when both
        # moved, when its lock is the newer one.
        if holds_ours or (not behind_ours and (lock is None or other.locked_at > lock.locked_at)):
            return (
                f"workflow {name!r} was taken over on {other.host}:{other.worktree} at {other.locked_at} "
                f"(seen on {ref}); this event was not recorded. 'vibegit sync' brings that state "
                "here, then 'vibegit resume' takes it back"
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
            return [f"workflow {name!r} is running but workflow.lock is {'missing' if lock is None else 'not locked'}"]
    elif status is Status.PAUSED:
        if lock is None or lock.locked or not lock.paused:
            missing = "missing" if lock is None else "not locked: false, paused: true"
            return [f"workflow {name!r} is paused but workflow.lock is {missing}"]
    elif lock is not None and lock.locked:
        return [f"workflow.lock is held but the workflow is {status.value}"]
    if lock is not None and name and lock.workflow != name:
        return [f"workflow.lock names {lock.workflow!r}, session.yaml {name!r}"]
    return []
