"""The recovery report of the Session Manager skill, in English or with the skill's headings."""

from __future__ import annotations

from vibegit.core.messages import t, template
from vibegit.core.model import Env, MemoryCategory, MemoryEntry, State, Status, TaskStatus
from vibegit.core.records import NamedTuple
from vibegit.core.schema import lock_dict, session_dict
from vibegit.core.text import clean, code, inert
from vibegit.core.workflows import Summary, others_line

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start

if TYPE_CHECKING:
    from datetime import datetime
    from typing import Any

ICON = {TaskStatus.DONE: "✅", TaskStatus.DOING: "🔄", TaskStatus.TODO: "⬜"}
MAX_KNOWLEDGE_SHOWN = 12  # learned notes can be many; the report stays short
# The agents' report: Claude Code cuts hook output at 10,000 characters, Codex
# at about 2,500 tokens (~4 bytes each); 400 words keeps it well inside both.
AGENT_MAX_WORDS = 400
AGENT_MAX_BYTES = 8000
AGENT_TEXT_CAP = 300  # one value from the state, at most


SCHEMA = 2  # status --json: 1 had no "schema", "workflow_id" or "others"


def as_json(state: State, others: list[Summary] | None = None) -> dict[str, Any]:
    """The stable shape of ``status --json``: session.yaml's keys, lock and
    tasks, the schema's version, and the other workflows of the repository."""
    data: dict[str, Any] = {"schema": SCHEMA, "workflow_id": state.workflow.id or None}
    data.update(session_dict(state))
    data["lock"] = lock_dict(state.lock) if state.lock else None
    data["tasks"] = [{"id": t.id, "title": t.title, "status": t.status.value} for t in state.tasks]
    data["others"] = [s.as_dict() for s in others or ()]
    return data


def is_active(state: State) -> bool:
    """The startup check: a report is due when a workflow runs or is paused."""
    return state.workflow.status in (Status.RUNNING, Status.PAUSED) or (state.lock is not None and state.lock.locked)


class Observed(NamedTuple):
    """What the working tree says about the checkpoint now (the caller looks)."""

    line_state: str = ""  # anchors.Where.state: same, moved, similar, gone, no-file, unknown
    line: int | None = None
    snapshot_matches: bool | None = None
    not_compared: int = 0  # files in the index when the comparison was left out for their number


def render(
    state: State,
    lang: str = "en",
    head: str | None = None,
    observed: Observed | None = None,
    others: list[Summary] | None = None,
    here: Env | None = None,
) -> str:
    """The report. Every value from the state is shown inert (``core/text.py``):
    cleaned of control characters, a value that starts a line cannot start a
    heading or list item, a path in backticks cannot close them. ``here``:
    where it is shown; a workflow another clone or worktree holds ends with
    how to take it over, not the offer to continue."""
    paused = state.workflow.status is Status.PAUSED

    def say(key: str, **params: object) -> str:
        return t(f"report.{key}", lang, **params)

    done, total = state.completed_tasks, state.total_tasks
    pct = round(100 * done / total) if total else 0
    mode = state.mode
    phase = f"{mode.phase.long_name} ({mode.phase.value})" if mode.phase else "-"
    if mode.step:
        phase = say("step", phase=phase, step=clean(mode.step))
    lines = [say("paused") if paused else say("recovery"), "", say("state")]
    lines.append(f"- **{say('workflow')}**: {clean(mode.workflow_name or '')}")
    lines.append(f"- **{say('phase')}**: {phase}")
    lines.append(f"- **{say('progress')}**: " + say("tasks_done", done=done, total=total, pct=pct))
    if state.context.goal:
        lines.append(f"- **{say('goal')}**: {clean(state.context.goal)}")
    if state.lock:
        held = (
            say("paused_lock")
            if not state.lock.locked
            else say("locked_by", host=clean(state.lock.host or "?"), worktree=clean(state.lock.worktree or "?"))
        )
        lines.append(f"- **{say('lock')}**: {held}")
    if others:
        lines.append(f"- **{say('elsewhere')}**: {clean(others_line(others))}")

    lines += ["", say("progress_head")]
    if state.tasks:
        order = (TaskStatus.DONE, TaskStatus.DOING, TaskStatus.TODO)
        for task in sorted(state.tasks, key=lambda x: order.index(x.status)):
            doing = f" {say('in_progress')}" if task.status is TaskStatus.DOING else ""
            lines.append(f"- {ICON[task.status]} {task.id}: {clean(task.title)}{doing}")
    else:
        lines.append(say("no_tasks"))
    if state.context.last_action:
        lines.append(f"- {say('last_action')}: {clean(state.context.last_action)}")

    lines += ["", say("next"), inert(next_step(state, lang))]
    if state.context.pending_questions:
        lines.append(say("questions"))
        lines += [f"{q.id}. {clean(q.text)}" for q in state.context.pending_questions]

    lines += ["", say("checkpoint")]
    k = state.checkpoint
    if k is None:
        lines.append(say("no_checkpoint"))
    else:
        if k.file:
            now = _anchor_now(observed, lang)
            lines.append(
                f"- {say('file')}: {code(k.file + (':' + str(k.line) if k.line else ''))}"
                + (f" · {now}" if now else "")
            )
        if k.commit:
            where = ""
            if head is not None:
                where = " · " + (
                    say("head_here")
                    if head == k.commit
                    else say("head_elsewhere", head=head[:12], go=switch_command(k.branch, k.commit))
                )
            lines.append(f"- {say('commit')}: {clean(k.commit[:12])} ({clean(k.branch or say('detached'))}){where}")
        match = ""
        if k.snapshot and observed is not None and observed.snapshot_matches is not None:
            match = " · " + (say("snap_same") if observed.snapshot_matches else say("snap_differs"))
        elif k.snapshot and observed is not None and observed.not_compared:
            match = " · " + say("snap_unchecked", files=f"{observed.not_compared:,}")
        lines.append(f"- {say('snapshot')}: {clean(k.snapshot[:12]) if k.snapshot else say('none')}{match}")
        if k.action:
            lines.append(f"- {say('action')}: {clean(k.action)}")
    lines += remembered(state, lang)
    lock = state.lock
    if paused:
        ending = say("resume_how")
    elif here is not None and lock is not None and lock.elsewhere(here):
        ending = say("held_elsewhere", holder=clean(lock.holder), at=clean(lock.locked_at or "?"))
    else:
        ending = say("choices")
    lines += ["", "---", "", ending]
    return "\n".join(lines) + "\n"


def switch_command(branch: str | None, commit: str) -> str:
    """The git command that goes back to a checkpoint: its branch, or its commit on a detached HEAD."""
    return f"git switch {clean(branch)}" if branch else f"git switch --detach {clean(commit[:12])}"


def remembered(state: State, lang: str) -> list[str]:
    """The report's memory section: forbidden actions first, learned notes bounded."""
    entries = state.memory.entries
    if not entries:
        return []
    order = list(MemoryCategory)
    lines = ["", t("report.memory", lang)]
    shown = 0
    hidden = 0
    for entry in sorted(entries, key=lambda e: order.index(e.category)):
        if entry.category is MemoryCategory.PROJECT_KNOWLEDGE:
            if shown >= MAX_KNOWLEDGE_SHOWN:
                hidden += 1
                continue
            shown += 1
        lines.append(f"- **{category_label(entry.category, lang)}** {clean(entry.text)}{origin(entry)}")
    if hidden:
        lines.append(t("report.more_knowledge", lang, n=hidden))
    return lines


def category_label(category: MemoryCategory, lang: str | None = None) -> str:
    return t(f"memory.{category.value}", lang)


def origin(entry: MemoryEntry) -> str:
    """Where a learned entry came from, shown after its text (nothing for the others)."""
    if not entry.source:
        return ""
    return f" ({clean(entry.source)}{' § ' + clean(entry.heading) if entry.heading else ''})"


def _anchor_now(observed: Observed | None, lang: str) -> str:
    if observed is None:
        return ""
    key = {"moved": "line_moved", "similar": "line_similar", "gone": "line_gone", "no-file": "file_gone"}
    found = key.get(observed.line_state)
    return t(f"report.{found}", lang, line=observed.line) if found else ""


def all_done(state: State) -> bool:
    """Every task done, and there is at least one (what ``complete`` needs of the tasks)."""
    return bool(state.tasks) and all(x.status is TaskStatus.DONE for x in state.tasks)


def next_step(state: State, lang: str, agent: bool = False) -> str:
    """What comes next. With every task done that is the person's confirmation
    (for ``agent``: asking for it), whatever "next" was recorded before; with
    no task yet, planning them (``complete`` refuses a workflow without)."""
    if all_done(state):
        if state.context.pending_questions:
            return t("report.answer_first", lang)
        return t("report.confirm_agent" if agent else "report.all_done", lang)
    if state.context.next_action:
        return clean(state.context.next_action)
    current = state.task(state.workflow.current_task or "")
    if current and current.status is not TaskStatus.DONE:
        return t("report.continue_task", lang, id=current.id, title=clean(current.title))
    todo = next((x for x in state.tasks if x.status is not TaskStatus.DONE), None)
    if todo:
        return t("report.start_task", lang, id=todo.id, title=clean(todo.title))
    return t("report.plan_tasks", lang)


def stop_reason(state: State) -> str:
    """Why an agent may not end its turn yet, and what to do instead."""
    name = clean(state.mode.workflow_name or "")
    phase = state.mode.phase.value if state.mode.phase else "-"
    step = f" step {clean(state.mode.step)}" if state.mode.step else ""
    current = state.task(state.workflow.current_task or "")
    task = f" Current task: {current.id}: {clean(current.title)}." if current else ""
    return (
        f"vibegit: workflow '{name}' is still running (phase {phase}{step}, "
        f"{state.completed_tasks}/{state.total_tasks} tasks done).{task} "
        f"Next step: {next_step(state, 'en', agent=True)}. Keep going. Before ending your turn: "
        "record progress with `vibegit context --last ... --next ...`; if you need the user, "
        "record the question with `vibegit context --question ...` and ask it; to stop here, "
        "`vibegit pause --action ...`; when every task is done, ask the user to confirm completion "
        "(they run `vibegit complete` themselves, or answer the MCP `complete` tool's question)."
    )


def duration(start: str | None, end: str | None) -> str:
    """``end - start`` as 1d 2h 3m (two ISO 8601 UTC times); "" when either is missing or unreadable."""
    try:
        seconds = int((_time(end) - _time(start)).total_seconds())
    except (TypeError, ValueError):
        return ""
    if seconds < 0:
        return ""
    days, rest = divmod(seconds, 86400)
    parts = [f"{days}d"] if days else []
    parts += [f"{rest // 3600}h"] if rest // 3600 or days else []
    parts.append(f"{rest % 3600 // 60}m")
    return " ".join(parts)


def _time(value: str | None) -> datetime:
    if not value:
        raise ValueError("no time")
    from datetime import datetime  # here: only the completion report counts time

    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def completion(state: State, lang: str = "en") -> str:
    """The Lifecycle skill's completion report (生成完成报告): goal, tasks,
    duration, phases, decisions (the answered questions) and what was learned.
    Every value is shown inert, as in the recovery report."""

    def say(key: str, **params: object) -> str:
        return t(f"completion.{key}", lang, **params)

    w = state.workflow
    lines = [say("title", name=clean(state.mode.workflow_name or "")), "", say("goal"), inert(state.context.goal), ""]
    lines.append(say("tasks", done=state.completed_tasks, total=state.total_tasks))
    lines += [f"- {ICON[x.status]} {x.id}: {clean(x.title)}" for x in state.tasks] or [say("no_tasks")]
    took = duration(w.started_at, w.ended_at)
    lines += [
        "",
        say("duration"),
        f"- {clean(w.started_at or '?')} → {clean(w.ended_at or '?')}" + (f" ({took})" if took else ""),
    ]
    lines += ["", say("phases")]
    lines += [
        f"- {v.phase.value}" + (f" {clean(v.step)}" if v.step else "") + f" · {clean(v.at)}" for v in w.phases
    ] or [say("none")]
    lines += ["", say("decisions")]
    answered = state.context.answered_questions
    lines += [f"- {q.id}. {clean(q.text)} → {clean(q.answer or '')}" for q in answered] or [say("none")]
    lines += ["", say("learned")]
    lines += [f"- {clean(x)}" for x in w.lessons] or [say("none")]
    return "\n".join(lines) + "\n"


def _short(text: str) -> str:
    text = clean(text)
    return text if len(text) <= AGENT_TEXT_CAP else text[: AGENT_TEXT_CAP - 1] + "…"


def fits(text: str) -> bool:
    return len(text.split()) <= AGENT_MAX_WORDS and len(text.encode()) <= AGENT_MAX_BYTES


def for_agent(
    state: State,
    lang: str = "en",
    observed: Observed | None = None,
    others: list[Summary] | None = None,
    elsewhere: str | None = None,
    short: bool = False,
    runner: str | None = None,
) -> str:
    """The report an agent's session starts with: what a fresh agent needs
    first (workflow, phase, current task, next step, the checkpoint as the
    working tree stands now, forbidden actions, open questions, how to
    record), then the other remembered rules and the kanban as far as the
    budget (``AGENT_MAX_WORDS``, ``AGENT_MAX_BYTES``) goes, the remainder
    counted. ``short``: only the first part, without how to record (the MCP
    server's tools carry that). A session that does not hold the workflow
    (``elsewhere``) is not told how to record. ``runner``: the launcher to
    run vibegit with, where it is not on the agent's PATH."""

    def say(key: str, **params: object) -> str:
        return t(f"report.{key}", lang, **params)

    def agent(key: str, **params: object) -> str:
        return t(f"agent.{key}", lang, **params)

    mode = state.mode
    phase = f"{mode.phase.long_name} ({mode.phase.value})" if mode.phase else "-"
    if mode.step:
        phase = say("step", phase=phase, step=_short(mode.step))
    done, total = state.completed_tasks, state.total_tasks
    lines = [say("paused") if state.workflow.status is Status.PAUSED else say("recovery"), ""]
    if elsewhere:
        lines += [inert(agent("elsewhere", where=_short(elsewhere))), ""]
    lines.append(f"- **{say('workflow')}**: {_short(mode.workflow_name or '')} · **{say('phase')}**: {phase}")
    pct = round(100 * done / total) if total else 0
    lines.append(f"- **{say('progress')}**: " + say("tasks_done", done=done, total=total, pct=pct))
    if state.context.goal:
        lines.append(f"- **{say('goal')}**: {_short(state.context.goal)}")
    current = state.task(state.workflow.current_task or "")
    if current is not None and current.status is not TaskStatus.DONE:
        lines.append(f"- **{agent('current')}**: {current.id}: {_short(current.title)}")
    lines.append(f"- **{agent('next')}**: {_short(next_step(state, lang, agent=True))}")
    k = state.checkpoint
    if k is not None and (k.file or k.action):
        where = code(k.file + (":" + str(k.line) if k.line else "")) if k.file else ""
        now = _anchor_now(observed, lang)
        parts = [p for p in (where, now, _short(k.action) if k.action else "") if p]
        lines.append(f"- **{agent('checkpoint')}**: {' · '.join(parts)}")
    if state.workflow.status is Status.PAUSED:
        lines.append(f"- {agent('paused')}")
    rules = [e for e in state.memory.entries if e.category is MemoryCategory.FORBIDDEN_ACTION]
    lines += [f"- 🚫 **{agent('never')}**: {_short(e.text)}" for e in rules]
    if state.context.pending_questions:
        lines += ["", agent("questions_elsewhere" if elsewhere else "questions") + ":"]
        lines += [f"{q.id}. {_short(q.text)}" for q in state.context.pending_questions]
    if short:
        lines += ["", agent("short")]
    elif not elsewhere:
        lines += ["", agent("record")]
        if runner:
            lines.append(agent("runner", runner=code(runner)))
    if others:
        lines.append(f"- {say('elsewhere')}: {_short(others_line(others))}")
    text = "\n".join(lines)
    if short:
        return _bounded(text) + "\n"
    # the rest while it fits: the remembered rules, then the kanban in order of use
    kept = [e for e in state.memory.entries if e.category is not MemoryCategory.FORBIDDEN_ACTION]
    order_m = list(MemoryCategory)
    notes = [
        f"- **{category_label(e.category, lang)}** {_short(e.text)}"
        for e in sorted(kept, key=lambda e: order_m.index(e.category))
    ]
    order = (TaskStatus.DOING, TaskStatus.TODO, TaskStatus.DONE)
    tasks = sorted(state.tasks, key=lambda x: order.index(x.status))
    rest = [f"- {ICON[x.status]} {x.id}: {_short(x.title)}" for x in tasks]
    more, heading = template("agent.more", lang), f"\n\n### {agent('tasks')}"
    room = f"{heading}\n{more.format(n=len(rest))}" if rest else ""  # the kanban is at least counted
    text = _fill(text, "\n\n" + say("memory"), notes, template("agent.rules_more", lang), room)
    text = _fill(text, heading, rest, more)
    return _bounded(text) + "\n"


def _fill(text: str, heading: str, items: list[str], more: str, room: str = "") -> str:
    """``text`` with ``heading`` and as many ``items`` as fit, and how many did
    not, leaving ``room`` for what follows."""
    if not items:
        return text
    shown: list[str] = []
    for i, item in enumerate(items):
        left = len(items) - i - 1
        tail = [more.format(n=left)] if left else []
        candidate = "\n".join([text + heading, *shown, item, *tail])
        if not fits(candidate + room):
            note = more.format(n=len(items) - len(shown))
            out = "\n".join([text + heading, *shown, note])
            return out if fits(out + room) else text
        shown.append(item)
    return "\n".join([text + heading, *shown])


def _bounded(text: str) -> str:
    """The budget holds even for a state of huge values: whole lines cut from the end."""
    lines = text.split("\n")
    while len(lines) > 1 and not fits("\n".join(lines)):
        lines.pop()
    return "\n".join(lines)
