"""The recovery report of SPEC §7, in English or with the skill's headings."""

from __future__ import annotations

from typing import Any, NamedTuple

from vibegit.core.model import MemoryCategory, MemoryEntry, State, Status, TaskStatus
from vibegit.core.schema import lock_dict, session_dict
from vibegit.core.text import clean, code, inert
from vibegit.core.workflows import Summary, others_line

TEXT = {
    "en": {
        "recovery": "## 🔄 Session recovery",
        "paused": "## ⏸️ Workflow paused",
        "state": "### Current state",
        "progress_head": "### Last progress",
        "next": "### Next step",
        "checkpoint": "### Checkpoint",
        "workflow": "Workflow",
        "phase": "Phase",
        "progress": "Progress",
        "goal": "Goal",
        "lock": "Lock",
        "elsewhere": "Also running",
        "tasks_done": "{done}/{total} tasks done ({pct}%)",
        "in_progress": "(in progress)",
        "no_tasks": "- (no tasks yet; add them with `vibegit task add ID TITLE`)",
        "continue_task": "Continue {id}: {title}",
        "start_task": "Start {id}: {title}",
        "all_done": "All tasks are done: review, then `vibegit complete`",
        "questions": "Open questions (answer before completing):",
        "file": "File",
        "commit": "Commit",
        "snapshot": "Snapshot",
        "action": "Doing",
        "no_checkpoint": "- (no checkpoint yet: `vibegit checkpoint --file PATH --line N`)",
        "head_here": "HEAD is here",
        "head_elsewhere": "HEAD is at {head}, not here: `git switch {branch}` to go back",
        "none": "none",
        "snap_same": "matches the working tree",
        "snap_differs": "differs from the working tree",
        "line_moved": "the line is now at {line}",
        "line_similar": "the line was edited; closest match at {line}",
        "line_gone": "the line is gone from the file",
        "file_gone": "the file is gone from the working tree",
        "locked_by": "held by {host}:{worktree}",
        "paused_lock": "released (paused)",
        "choices": "**Continue?** Reply `continue`, `details` or `pause`",
        "resume_how": "**Resume with** `vibegit resume` · details: `vibegit status` · end it: `vibegit abort`",
        "last_action": "Last action",
        "memory": "### 🧠 Remembered rules",
        "more_knowledge": "- … and {n} more project notes: `vibegit memory list`",
        MemoryCategory.FORBIDDEN_ACTION: "🚫 Never",
        MemoryCategory.USER_PREFERENCE: "Preference",
        MemoryCategory.CODE_PATTERN: "Pattern",
        MemoryCategory.PROJECT_KNOWLEDGE: "Project",
    },
    "zh": {
        "recovery": "## 🔄 会话恢复",
        "paused": "## ⏸️ 工作流已暂停",
        "state": "### 当前状态",
        "progress_head": "### 上次进展",
        "next": "### 下一步",
        "checkpoint": "### 断点位置",
        "workflow": "工作流",
        "phase": "阶段",
        "progress": "进度",
        "goal": "目标",
        "lock": "锁",
        "elsewhere": "其他工作流",
        "tasks_done": "{done}/{total} 任务完成 ({pct}%)",
        "in_progress": "(进行中)",
        "no_tasks": "- (暂无任务；用 `vibegit task add ID TITLE` 添加)",
        "continue_task": "继续执行 {id}: {title}",
        "start_task": "开始 {id}: {title}",
        "all_done": "所有任务已完成：复查后执行 `vibegit complete`",
        "questions": "待解决问题（完成前需回答）：",
        "file": "文件",
        "commit": "提交",
        "snapshot": "快照",
        "action": "进度",
        "no_checkpoint": "- (尚无断点：`vibegit checkpoint --file PATH --line N`)",
        "head_here": "HEAD 在此",
        "head_elsewhere": "HEAD 在 {head}，不在此处：用 `git switch {branch}` 返回",
        "none": "无",
        "snap_same": "与工作区一致",
        "snap_differs": "与工作区不同",
        "line_moved": "该行现在位于第 {line} 行",
        "line_similar": "该行已被修改；最接近的是第 {line} 行",
        "line_gone": "该行已不在文件中",
        "file_gone": "该文件已不在工作区",
        "locked_by": "由 {host}:{worktree} 持有",
        "paused_lock": "已释放（暂停）",
        "choices": "**是否继续？** 回复 `继续` 或 `查看详情` 或 `暂停`",
        "resume_how": "**恢复方式** `vibegit resume` · 详情: `vibegit status` · 放弃: `vibegit abort`",
        "last_action": "上次操作",
        "memory": "### 🧠 记忆规则",
        "more_knowledge": "- … 另有 {n} 条项目知识：`vibegit memory list`",
        MemoryCategory.FORBIDDEN_ACTION: "🚫 禁止",
        MemoryCategory.USER_PREFERENCE: "偏好",
        MemoryCategory.CODE_PATTERN: "代码模式",
        MemoryCategory.PROJECT_KNOWLEDGE: "项目知识",
    },
}
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


def render(
    state: State,
    lang: str = "en",
    head: str | None = None,
    observed: Observed | None = None,
    others: list[Summary] | None = None,
) -> str:
    """The report. Every value from the state is shown inert (``core/text.py``):
    cleaned of control characters, a value that starts a line cannot start a
    heading or list item, a path in backticks cannot close them."""
    t = TEXT[lang]
    paused = state.workflow.status is Status.PAUSED
    done, total = state.completed_tasks, state.total_tasks
    pct = round(100 * done / total) if total else 0
    mode = state.mode
    phase = f"{mode.phase.long_name} ({mode.phase.value})" if mode.phase else "-"
    if mode.step:
        phase += f", step {clean(mode.step)}" if lang == "en" else f"，步骤 {clean(mode.step)}"
    lines = [t["paused"] if paused else t["recovery"], "", t["state"]]
    lines.append(f"- **{t['workflow']}**: {clean(mode.workflow_name or '')}")
    lines.append(f"- **{t['phase']}**: {phase}")
    lines.append(f"- **{t['progress']}**: " + t["tasks_done"].format(done=done, total=total, pct=pct))
    if state.context.goal:
        lines.append(f"- **{t['goal']}**: {clean(state.context.goal)}")
    if state.lock:
        held = (
            t["paused_lock"]
            if not state.lock.locked
            else t["locked_by"].format(host=clean(state.lock.host or "?"), worktree=clean(state.lock.worktree or "?"))
        )
        lines.append(f"- **{t['lock']}**: {held}")
    if others:
        lines.append(f"- **{t['elsewhere']}**: {clean(others_line(others))}")

    lines += ["", t["progress_head"]]
    if state.tasks:
        order = (TaskStatus.DONE, TaskStatus.DOING, TaskStatus.TODO)
        for task in sorted(state.tasks, key=lambda x: order.index(x.status)):
            doing = f" {t['in_progress']}" if task.status is TaskStatus.DOING else ""
            lines.append(f"- {ICON[task.status]} {task.id}: {clean(task.title)}{doing}")
    else:
        lines.append(t["no_tasks"])
    if state.context.last_action:
        lines.append(f"- {t['last_action']}: {clean(state.context.last_action)}")

    lines += ["", t["next"], inert(next_step(state, lang))]
    if state.context.pending_questions:
        lines.append(t["questions"])
        lines += [f"{i}. {clean(q)}" for i, q in enumerate(state.context.pending_questions, 1)]

    lines += ["", t["checkpoint"]]
    k = state.checkpoint
    if k is None:
        lines.append(t["no_checkpoint"])
    else:
        if k.file:
            now = _anchor_now(observed, lang)
            lines.append(
                f"- {t['file']}: {code(k.file + (':' + str(k.line) if k.line else ''))}" + (f" · {now}" if now else "")
            )
        if k.commit:
            where = ""
            if head is not None:
                where = " · " + (
                    t["head_here"]
                    if head == k.commit
                    else t["head_elsewhere"].format(head=head[:12], branch=clean(k.branch or k.commit[:12]))
                )
            lines.append(f"- {t['commit']}: {clean(k.commit[:12])} ({clean(k.branch or 'detached')}){where}")
        match = ""
        if k.snapshot and observed is not None and observed.snapshot_matches is not None:
            match = " · " + (t["snap_same"] if observed.snapshot_matches else t["snap_differs"])
        lines.append(f"- {t['snapshot']}: {clean(k.snapshot[:12]) if k.snapshot else t['none']}{match}")
        if k.action:
            lines.append(f"- {t['action']}: {clean(k.action)}")
    lines += remembered(state, lang)
    lines += ["", "---", "", t["resume_how"] if paused else t["choices"]]
    return "\n".join(lines) + "\n"


def remembered(state: State, lang: str) -> list[str]:
    """The report's memory section: forbidden actions first, learned notes bounded."""
    t = TEXT[lang]
    entries = state.memory.entries
    if not entries:
        return []
    order = list(MemoryCategory)
    lines = ["", t["memory"]]
    shown = 0
    hidden = 0
    for entry in sorted(entries, key=lambda e: order.index(e.category)):
        if entry.category is MemoryCategory.PROJECT_KNOWLEDGE:
            if shown >= MAX_KNOWLEDGE_SHOWN:
                hidden += 1
                continue
            shown += 1
        lines.append(f"- **{t[entry.category]}** {clean(entry.text)}{origin(entry)}")
    if hidden:
        lines.append(t["more_knowledge"].format(n=hidden))
    return lines


def origin(entry: MemoryEntry) -> str:
    """Where a learned entry came from, shown after its text (nothing for the others)."""
    if not entry.source:
        return ""
    return f" ({clean(entry.source)}{' § ' + clean(entry.heading) if entry.heading else ''})"


def _anchor_now(observed: Observed | None, lang: str) -> str:
    t = TEXT[lang]
    if observed is None:
        return ""
    return {
        "moved": t["line_moved"].format(line=observed.line),
        "similar": t["line_similar"].format(line=observed.line),
        "gone": t["line_gone"],
        "no-file": t["file_gone"],
    }.get(observed.line_state, "")


def next_step(state: State, lang: str) -> str:
    t = TEXT[lang]
    if state.context.next_action:
        return clean(state.context.next_action)
    current = state.task(state.workflow.current_task or "")
    if current and current.status is not TaskStatus.DONE:
        return t["continue_task"].format(id=current.id, title=clean(current.title))
    todo = next((x for x in state.tasks if x.status is not TaskStatus.DONE), None)
    if todo:
        return t["start_task"].format(id=todo.id, title=clean(todo.title))
    return t["all_done"]


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
        f"Next step: {next_step(state, 'en')}. Keep going. Before ending your turn: "
        "record progress with `vibegit context --last ... --next ...`; if you need the user, "
        "record the question with `vibegit context --question ...` and ask it; to stop here, "
        "`vibegit pause --action ...`; when every task is done and the user confirmed, `vibegit complete --yes`."
    )


AGENT = {
    "en": {
        "elsewhere": "⚠️ This workflow runs elsewhere: {where}. This session records nothing and must not work on it; "
        "take it over only if the user asks: `vibegit sync`, then `vibegit resume`.",
        "current": "Current task",
        "next": "Next step",
        "checkpoint": "Checkpoint",
        "never": "Never",
        "questions": "Open questions (ask the user; answer with `vibegit context --answer N`)",
        "record": "Record progress: `vibegit task start|done ID`, `vibegit context --last ... --next ...`, "
        "`vibegit checkpoint --file PATH --line N`; stopping: `vibegit pause --action ...`; all done: ask the user "
        "to confirm, then `vibegit complete --yes`.",
        "paused": "Paused: ask the user whether to continue (`vibegit resume`).",
        "tasks": "Tasks",
        "more": "+ {n} more: `vibegit task list`",
        "rules_more": "+ {n} more remembered rules: `vibegit memory list`",
    },
    "zh": {
        "elsewhere": "⚠️ 此工作流在别处运行：{where}。本会话不记录任何事件，也不要继续它；"
        "只有用户要求时才接管：`vibegit sync` 然后 `vibegit resume`。",
        "current": "当前任务",
        "next": "下一步",
        "checkpoint": "断点",
        "never": "禁止",
        "questions": "待解决问题（询问用户；用 `vibegit context --answer N` 记录回答）",
        "record": "记录进展：`vibegit task start|done ID`、`vibegit context --last ... --next ...`、"
        "`vibegit checkpoint --file PATH --line N`；中途停止：`vibegit pause --action ...`；全部完成：请用户确认（寸止）后 "
        "`vibegit complete --yes`。",
        "paused": "已暂停：询问用户是否继续（`vibegit resume`）。",
        "tasks": "任务",
        "more": "+ 另有 {n} 项：`vibegit task list`",
        "rules_more": "+ 另有 {n} 条记忆规则：`vibegit memory list`",
    },
}


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
) -> str:
    """The report an agent's session starts with: what a fresh agent needs
    first (workflow, phase, current task, next step, the checkpoint as the
    working tree stands now, forbidden actions, open questions, how to
    record), then the rest of the kanban and memory as far as the budget
    (``AGENT_MAX_WORDS``, ``AGENT_MAX_BYTES``) goes, the remainder counted."""
    t, a = TEXT[lang], AGENT[lang]
    mode = state.mode
    phase = f"{mode.phase.long_name} ({mode.phase.value})" if mode.phase else "-"
    if mode.step:
        phase += f", step {_short(mode.step)}"
    done, total = state.completed_tasks, state.total_tasks
    lines = [t["paused"] if state.workflow.status is Status.PAUSED else t["recovery"], ""]
    if elsewhere:
        lines += [inert(a["elsewhere"].format(where=_short(elsewhere))), ""]
    lines.append(f"- **{t['workflow']}**: {_short(mode.workflow_name or '')} · **{t['phase']}**: {phase}")
    lines.append(
        f"- **{t['progress']}**: "
        + t["tasks_done"].format(done=done, total=total, pct=round(100 * done / total) if total else 0)
    )
    if state.context.goal:
        lines.append(f"- **{t['goal']}**: {_short(state.context.goal)}")
    current = state.task(state.workflow.current_task or "")
    if current is not None and current.status is not TaskStatus.DONE:
        lines.append(f"- **{a['current']}**: {current.id}: {_short(current.title)}")
    lines.append(f"- **{a['next']}**: {_short(next_step(state, lang))}")
    k = state.checkpoint
    if k is not None and (k.file or k.action):
        where = code(k.file + (":" + str(k.line) if k.line else "")) if k.file else ""
        now = _anchor_now(observed, lang)
        parts = [p for p in (where, now, _short(k.action) if k.action else "") if p]
        lines.append(f"- **{a['checkpoint']}**: {' · '.join(parts)}")
    if state.workflow.status is Status.PAUSED:
        lines.append(f"- {a['paused']}")
    rules = [e for e in state.memory.entries if e.category is MemoryCategory.FORBIDDEN_ACTION]
    lines += [f"- 🚫 **{a['never']}**: {_short(e.text)}" for e in rules]
    if state.context.pending_questions:
        lines += ["", a["questions"] + ":"]
        lines += [f"{i}. {_short(q)}" for i, q in enumerate(state.context.pending_questions, 1)]
    lines += ["", a["record"]]
    if others:
        lines.append(f"- {t['elsewhere']}: {_short(others_line(others))}")
    text = "\n".join(lines)
    # the rest, in order of use, while it fits
    order = (TaskStatus.DOING, TaskStatus.TODO, TaskStatus.DONE)
    tasks = sorted(state.tasks, key=lambda x: order.index(x.status))
    rest = [f"- {ICON[x.status]} {x.id}: {_short(x.title)}" for x in tasks]
    text = _fill(text, f"\n\n### {a['tasks']}", rest, a["more"])
    kept = [e for e in state.memory.entries if e.category is not MemoryCategory.FORBIDDEN_ACTION]
    order_m = list(MemoryCategory)
    notes = [f"- **{t[e.category]}** {_short(e.text)}" for e in sorted(kept, key=lambda e: order_m.index(e.category))]
    text = _fill(text, "\n\n" + t["memory"], notes, a["rules_more"])
    return _bounded(text) + "\n"


def _fill(text: str, heading: str, items: list[str], more: str) -> str:
    """``text`` with ``heading`` and as many ``items`` as fit, and how many did not."""
    if not items:
        return text
    shown: list[str] = []
    for i, item in enumerate(items):
        left = len(items) - i - 1
        tail = [more.format(n=left)] if left else []
        candidate = "\n".join([text + heading, *shown, item, *tail])
        if not fits(candidate):
            note = more.format(n=len(items) - len(shown))
            out = "\n".join([text + heading, *shown, note]) if shown else text + "\n" + note
            return out if fits(out) else text
        shown.append(item)
    return "\n".join([text + heading, *shown])


def _bounded(text: str) -> str:
    """The budget holds even for a state of huge values: whole lines cut from the end."""
    lines = text.split("\n")
    while len(lines) > 1 and not fits("\n".join(lines)):
        lines.pop()
    return "\n".join(lines)
