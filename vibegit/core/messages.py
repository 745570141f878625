"""Every message vibegit shows, in English and in Chinese as the skills write it.

One catalogue, ``key -> (English, Chinese)``; ``t(key, **params)`` renders
a message in the language of this run. The language is chosen once a command
knows it (``use``): ``--lang``, else ``git config vibegit.lang``, else
English. Templates are ``str.format`` strings; both languages of a key take
the same parameters (a test renders every message in both).

The Chinese follows the skill documents' words: 工作流, 阶段, 任务, 断点,
暂停, 恢复, 锁, 寸止确认, 会话, 记忆.
"""

from __future__ import annotations

from contextvars import ContextVar

LANGS = ("en", "zh")
PHASE_TITLES = {"R1": "Research", "I": "Innovate", "P": "Plan", "E": "Execute", "R2": "Review"}  # in both languages

_process = {"lang": "en", "forced": ""}
# The run's language: the process's, or (``own``) one MCP tool call's, which
# runs beside others in the same process and must not switch theirs.
_run: ContextVar[dict[str, str]] = ContextVar("vibegit_language", default=_process)


def use(lang: str, *, force: bool = False) -> None:
    """This run's language; a forced one (``--lang``) wins over any later ``use``."""
    if lang not in LANGS:
        return
    run = _run.get()
    if force:
        run["forced"] = lang
    run["lang"] = run["forced"] or lang


def reset() -> None:
    """English, nothing forced: a new run (tests run many in one process)."""
    _run.get().update(lang="en", forced="")


def own() -> None:
    """A language of this context's own from now on, English until ``use``d:
    one MCP tool call is a run of its own (its thread has a copy of the context)."""
    _run.set({"lang": "en", "forced": ""})


def lang() -> str:
    return _run.get()["lang"]


def forced() -> str:
    """The language ``--lang`` forced, or ""."""
    return _run.get()["forced"]


def template(key: str, lang: str | None = None) -> str:
    """Message ``key``'s template in ``lang`` (default: this run's), its parameters unfilled."""
    en, zh = MESSAGES[key]
    return zh if (lang or _run.get()["lang"]) == "zh" else en


def t(key: str, /, lang: str | None = None, **params: object) -> str:
    """Message ``key`` in ``lang`` (default: this run's), with ``params`` filled in."""
    return template(key, lang).format(**params)


MESSAGES: dict[str, tuple[str, str]] = {
    # -- the recovery report (the Session Manager skill's 恢复时的汇报格式) --
    "report.recovery": ("## 🔄 Session recovery", "## 🔄 会话恢复"),
    "report.paused": ("## ⏸️ Workflow paused", "## ⏸️ 工作流已暂停"),
    "report.state": ("### Current state", "### 当前状态"),
    "report.progress_head": ("### Last progress", "### 上次进展"),
    "report.next": ("### Next step", "### 下一步"),
    "report.checkpoint": ("### Checkpoint", "### 断点位置"),
    "report.workflow": ("Workflow", "工作流"),
    "report.phase": ("Phase", "阶段"),
    "report.step": ("{phase}, step {step}", "{phase}，步骤 {step}"),
    "report.progress": ("Progress", "进度"),
    "report.goal": ("Goal", "目标"),
    "report.lock": ("Lock", "锁"),
    "report.elsewhere": ("Also running", "其他工作流"),
    "report.tasks_done": ("{done}/{total} tasks done ({pct}%)", "{done}/{total} 任务完成 ({pct}%)"),
    "report.in_progress": ("(in progress)", "(进行中)"),
    "report.no_tasks": (
        "- (no tasks yet; add them with `vibegit task add ID TITLE`)",
        "- (暂无任务；用 `vibegit task add ID TITLE` 添加)",
    ),
    "report.continue_task": ("Continue {id}: {title}", "继续执行 {id}: {title}"),
    "report.start_task": ("Start {id}: {title}", "开始 {id}: {title}"),
    "report.all_done": (
        "All tasks are done: review, then `vibegit complete`",
        "所有任务已完成：复查后执行 `vibegit complete`",
    ),
    "report.confirm_agent": (
        "All tasks are done: show the user the result and ask them to confirm completion (they run "
        "`vibegit complete` in their own terminal, or answer the MCP `complete` tool's question)",
        "所有任务已完成：向用户展示结果并请其确认完成（寸止）：由用户在自己的终端中执行 `vibegit complete`，"
        "或回答 MCP `complete` 工具的提问",
    ),
    "report.answer_first": (
        "All tasks are done; answer the open questions with the user first (`vibegit context --answer N`)",
        "所有任务已完成；请先与用户解决待解决问题（`vibegit context --answer N`）",
    ),
    "report.plan_tasks": (
        "Plan the work and add its tasks: `vibegit task add T-001 TITLE` (a workflow completes with tasks)",
        "规划工作并添加任务：`vibegit task add T-001 TITLE`（工作流需有任务才能完成）",
    ),
    "report.questions": ("Open questions (answer before completing):", "待解决问题（完成前需回答）："),
    "report.file": ("File", "文件"),
    "report.commit": ("Commit", "提交"),
    "report.snapshot": ("Snapshot", "快照"),
    "report.action": ("Doing", "进度"),
    "report.no_checkpoint": (
        "- (no checkpoint yet: `vibegit checkpoint --file PATH --line N`)",
        "- (尚无断点：`vibegit checkpoint --file PATH --line N`)",
    ),
    "report.head_here": ("HEAD is here", "HEAD 在此"),
    "report.head_elsewhere": (
        "HEAD is at {head}, not here: `{go}` to go back",
        "HEAD 在 {head}，不在此处：用 `{go}` 返回",
    ),
    "report.none": ("none", "无"),
    "report.detached": ("detached", "分离 HEAD"),
    "report.snap_same": ("matches the working tree", "与工作区一致"),
    "report.snap_differs": ("differs from the working tree", "与工作区不同"),
    "report.snap_unchecked": (
        "not compared with the working tree ({files} files: 'vibegit status --compare')",
        "未与工作区比较（{files} 个文件：'vibegit status --compare'）",
    ),
    "report.line_moved": ("the line is now at {line}", "该行现在位于第 {line} 行"),
    "report.line_similar": ("the line was edited; closest match at {line}", "该行已被修改；最接近的是第 {line} 行"),
    "report.line_gone": ("the line is gone from the file", "该行已不在文件中"),
    "report.file_gone": ("the file is gone from the working tree", "该文件已不在工作区"),
    "report.locked_by": ("held by {host}:{worktree}", "由 {host}:{worktree} 持有"),
    "report.paused_lock": ("released (paused)", "已释放（暂停）"),
    "report.choices": (
        "**Continue?** Reply `continue`, `details` or `pause`",
        "**是否继续？** 回复 `继续` 或 `查看详情` 或 `暂停`",
    ),
    "report.held_elsewhere": (
        "**Held by** {holder} since {at}: `vibegit resume` takes it over here · details: `vibegit list`",
        "**持有者** {holder}（自 {at}）：`vibegit resume` 在此接管 · 详情：`vibegit list`",
    ),
    "report.resume_how": (
        "**Resume with** `vibegit resume` · details: `vibegit status` · end it: `vibegit abort`",
        "**恢复方式** `vibegit resume` · 详情: `vibegit status` · 放弃: `vibegit abort`",
    ),
    "report.last_action": ("Last action", "上次操作"),
    "report.memory": ("### 🧠 Remembered rules", "### 🧠 记忆规则"),
    "report.more_knowledge": (
        "- … and {n} more project notes: `vibegit memory list`",
        "- … 另有 {n} 条项目知识：`vibegit memory list`",
    ),
    "memory.forbidden_action": ("🚫 Never", "🚫 禁止"),
    "memory.user_preference": ("Preference", "偏好"),
    "memory.code_pattern": ("Pattern", "代码模式"),
    "memory.project_knowledge": ("Project", "项目知识"),
    # -- the state files' own words --
    "session_yaml.header": (
        "# vibegit session state; edits are adopted by the next event",
        "# vibegit 会话状态 - 每次操作都会更新；手动修改在下一个事件时被采纳",
    ),
    "memory_yaml.header": (
        "# vibegit memory (vibegit memory add/list/remove, vibegit learn); edits are adopted by the next event",
        "# vibegit 记忆（vibegit memory add/list/remove、vibegit learn）；手动修改在下一个事件时被采纳",
    ),
    "kanban.title": ("Kanban", "看板"),
    "kanban.todo": ("Todo", "待办"),
    "kanban.doing": ("Doing", "进行中"),
    "kanban.done": ("Done", "已完成"),
    "task.todo": ("todo", "待办"),
    "task.doing": ("doing", "进行中"),
    "task.done": ("done", "已完成"),
    "context.title": ("Active context", "当前上下文"),
    "context.none": ("(none)", "(无)"),
    "context.goal_one_line": ("{name}: the Goal section must be one line", "{name}：目标部分只能有一行"),
    "context.control": (
        "{name}: the {what} section holds a control character ({bad})",
        "{name}：{what} 部分含有控制字符 ({bad})",
    ),
    "checkpoint_md.none": (
        "# Checkpoint\n\nNo checkpoint yet. Take one with `vibegit checkpoint`.",
        "# 断点信息\n\n尚无断点。用 `vibegit checkpoint` 保存一个。",
    ),
    "checkpoint_md.title": ("# Checkpoint", "# 断点信息"),
    "checkpoint_md.time": ("## Time", "## 断点时间"),
    "checkpoint_md.position": ("## Position", "## 当前位置"),
    "checkpoint_md.workflow": ("- Workflow: {name}", "- 工作流: {name}"),
    "checkpoint_md.phase": ("- Phase: {phase}", "- 阶段: {phase}"),
    "checkpoint_md.task": ("- Task: {task}", "- 任务: {task}"),
    "checkpoint_md.file": ("- File: {where}", "- 文件: {where}"),
    "checkpoint_md.commit": ("- Commit: {commit} on {branch}", "- 提交: {commit}（{branch}）"),
    "checkpoint_md.no_commit": ("(no commit yet)", "(尚无提交)"),
    "checkpoint_md.detached": ("a detached HEAD", "分离的 HEAD"),
    "checkpoint_md.snapshot": ("- Snapshot of uncommitted work: {snapshot}", "- 未提交工作的快照: {snapshot}"),
    "checkpoint_md.pending": ("## Pending work", "## 待继续工作"),
    "checkpoint_md.not_recorded": ("(not recorded)", "(未记录)"),
    "checkpoint_md.resume": ("## How to resume", "## 恢复指令"),
    "checkpoint_md.resume_how": ("Run `vibegit resume`.", "使用 `vibegit resume` 继续（/vibe-resume）。"),
    # -- statuses --
    "status.init": ("init", "未开始"),
    "status.running": ("running", "进行中"),
    "status.paused": ("paused", "已暂停"),
    "status.completed": ("completed", "已完成"),
    "status.aborted": ("aborted", "已放弃"),
    "status.failed": ("failed", "已失败"),
    # -- what a command was refused doing (lifecycle.cannot's {command}) --
    "do.abort": ("abort", "放弃"),
    "do.add_task": ("add task {id}", "添加任务 {id}"),
    "do.checkpoint": ("take a checkpoint", "保存断点"),
    "do.complete": ("complete", "完成"),
    "do.context": ("update the context", "更新上下文"),
    "do.fail": ("record a failure", "记录失败"),
    "do.move_checkpoint": ("move the checkpoint", "移动断点"),
    "do.pause": ("pause", "暂停"),
    "do.phase": ("change phase to {phase}", "切换到阶段 {phase}"),
    "do.resume": ("resume", "恢复"),
    "do.unlock": ("unlock", "解锁"),
    "do.start_task": ("start task {id}", "开始任务 {id}"),
    "do.finish_task": ("finish task {id}", "完成任务 {id}"),
    # -- a checkpoint's position and snapshot, refused (infra/worktree.py, infra/snapshot.py) --
    "checkpoint.line_needs_file": ("--line needs --file", "--line 需与 --file 一起使用"),
    "checkpoint.outside": (
        "--file {file}: is outside the repository {top}",
        "--file {file}：在仓库 {top} 之外",
    ),
    "checkpoint.no_file": (
        "--file {file}: no such file in the working tree",
        "--file {file}：工作区中没有这个文件",
    ),
    "checkpoint.no_line": ("--line {line}: {rel} has {n} line(s)", "--line {line}：{rel} 只有 {n} 行"),
    "checkpoint.snapshot_failed": (
        "could not snapshot the working tree ({error}); use --no-snapshot to skip it",
        "无法为工作区做快照（{error}）；可用 --no-snapshot 跳过",
    ),
    "checkpoint.too_large": (
        "{path}: {size} MiB is too large to carry in a snapshot (at most {most} MiB a file); add it to "
        ".gitignore, or use --no-snapshot",
        "{path}：{size} MiB 太大，无法放入快照（每个文件最多 {most} MiB）；请把它加入 .gitignore，或用 --no-snapshot",
    ),
    "what.failure": ("failure message", "失败信息"),
    "what.memory_text": ("memory text", "记忆内容"),
    "what.task_title": ("task title", "任务标题"),
    "what.workflow_name": ("workflow name", "工作流名称"),
    # -- the events' summaries (the state branch's commit subjects) --
    "event.init": ("state branch created", "状态分支已创建"),
    "event.step": (" step {step}", " 步骤 {step}"),
    "event.last": ("last", "上次操作"),
    "event.next": ("next", "下一步"),
    "event.answered": ("answered #{n}", "已回答 #{n}"),
    "event.asked": ("question #{n}", "问题 #{n}"),
    "event.at": (" at {where}", " 位于 {where}"),
    "event.no_commit": ("no commit", "尚无提交"),
    "event.paused": ("{name} paused at {head}", "{name} 暂停于 {head}"),
    "event.taken_over": ("{name} taken over from {host}:{worktree}", "{name} 从 {host}:{worktree} 接管"),
    "event.resumed": ("{name} resumed", "{name} 已恢复"),
    "event.completed": ("{name} completed", "{name} 已完成"),
    "event.aborted": ("{name} aborted; progress kept", "{name} 已放弃；进度保留"),
    "event.unlocked": ("{name} unlocked: {why}", "{name} 已解锁：{why}"),
    "event.failed": ("{name} failed: {message}", "{name} 失败：{message}"),
    "event.rewrite": ("checkpoint {old} -> {new} after {command}", "断点 {old} -> {new}（{command} 之后）"),
    "event.merged": ("{remote} into here ({n} decision(s))", "合并 {remote}（{n} 项决定）"),
    "event.repaired": ("back to the state of {good} ({problem})", "回到 {good} 的状态（{problem}）"),
    "event.redacted": (
        "{n} value(s) that looked like credentials replaced in the state",
        "状态中 {n} 个疑似凭据的值已替换",
    ),
    "event.withheld": (", {n} file(s) left out of the snapshot", "，{n} 个文件未放入快照"),
    # -- the lifecycle's rules --
    "lifecycle.no_workflow": ("no workflow has been started", "尚未开始任何工作流"),
    "lifecycle.workflow_is": ("workflow {name!r} is {status}", "工作流 {name!r} {status}"),
    "lifecycle.cannot": ("cannot {command}: {state}; {hint}", "无法{command}：{state}；{hint}"),
    "lifecycle.hint_paused": ("run 'vibegit resume' first", "请先执行 'vibegit resume'"),
    "lifecycle.hint_running": (
        "finish it with 'vibegit complete', or 'vibegit pause' / 'vibegit abort'",
        "用 'vibegit complete' 完成它，或 'vibegit pause' / 'vibegit abort'",
    ),
    "lifecycle.hint_start": (
        "run 'vibegit start WORKFLOW --goal TEXT' first",
        "请先执行 'vibegit start WORKFLOW --goal TEXT'",
    ),
    "lifecycle.name_one_word": (
        "workflow name {name!r:.40}: use one word like vibe-code",
        "工作流名称 {name!r:.40}：请用一个词，如 vibe-code",
    ),
    "lifecycle.empty": ("{what}: must not be empty", "{what}：不能为空"),
    "lifecycle.start_running": (
        "cannot start {name!r}: {state}; finish it with 'vibegit complete' or end it with 'vibegit abort' first",
        "无法开始 {name!r}：{state}；请先用 'vibegit complete' 完成或用 'vibegit abort' 放弃",
    ),
    "lifecycle.none_yet": ("none yet", "暂无"),
    "lifecycle.unknown_task": (
        "unknown task {id!r:.70} (known: {known}); add it with 'vibegit task add ID TITLE'",
        "未知任务 {id!r:.70}（已有：{known}）；用 'vibegit task add ID TITLE' 添加",
    ),
    "lifecycle.task_exists": ("task {id} already exists; pick another id", "任务 {id} 已存在；请换一个编号"),
    "lifecycle.task_removed": (
        "task {id} was removed; its id is never given again: pick another id",
        "任务 {id} 已被移除，其编号不再使用：请换一个编号",
    ),
    "lifecycle.task_done_already": ("task {id} is already done", "任务 {id} 已完成"),
    "lifecycle.finished": ("finished {id}: {title}", "已完成 {id}: {title}"),
    "lifecycle.reply_needs_answer": (
        "--reply: give it with --answer N (the question it answers)",
        "--reply：需与 --answer N 一起使用（它回答的问题）",
    ),
    "lifecycle.none_open": ("none are open", "没有待解决问题"),
    "lifecycle.no_question": (
        "--answer {n}: no such open question (open: {have})",
        "--answer {n}：没有这个待解决问题（待解决：{have}）",
    ),
    "lifecycle.context_nothing": (
        "context: give at least one of --last, --next, --question, --answer",
        "context：请至少给出 --last、--next、--question、--answer 之一",
    ),
    "lifecycle.running_here": (
        "workflow {name!r} is already running here; nothing to resume",
        "工作流 {name!r} 已在此处运行；无需恢复",
    ),
    "lifecycle.tasks_open": (
        "cannot complete: tasks not done: {tasks} (vibegit task done ID)",
        "无法完成：任务未完成：{tasks}（vibegit task done ID）",
    ),
    "lifecycle.questions_open": (
        "cannot complete: {n} open question(s) ({ids}); answer them with 'vibegit context --answer N --reply TEXT'",
        "无法完成：{n} 个待解决问题（{ids}）；用 'vibegit context --answer N --reply TEXT' 回答",
    ),
    "lifecycle.no_tasks": (
        "cannot complete {name!r}: it has no task; add and finish tasks, or confirm with 'vibegit complete --no-tasks'",
        "无法完成 {name!r}：没有任何任务；请添加并完成任务，或用 'vibegit complete --no-tasks' 确认",
    ),
    "lifecycle.unlocked_by_user": ("unlocked by the user", "用户已解锁"),
    "lifecycle.unlocked": ("unlocked: {why}", "已解锁：{why}"),
    "lifecycle.failed": ("failed: {message}", "失败：{message}"),
    "lifecycle.no_rewritten_commit": (
        "the checkpoint names no rewritten commit; nothing to move",
        "断点不指向被改写的提交；无需移动",
    ),
    "lifecycle.category": ("category {value!r:.40}: use one of {known}", "类别 {value!r:.40}：请用 {known} 之一"),
    "lifecycle.already_remembered": ("already remembered as {id}", "已记为 {id}"),
    "lifecycle.unknown_memory": (
        "unknown memory {id!r:.40} (known: {known}); see 'vibegit memory list'",
        "未知记忆 {id!r:.40}（已有：{known}）；见 'vibegit memory list'",
    ),
    "lifecycle.taken_over": (
        "workflow {name!r} was taken over on {host}:{worktree} at {at}; this event was not recorded. "
        "'vibegit resume' takes it back here (after 'vibegit sync', so nothing done there is lost)",
        "工作流 {name!r} 已于 {at} 在 {host}:{worktree} 被接管；此事件未记录。"
        "'vibegit resume' 可在此处取回（先执行 'vibegit sync'，那边的工作不会丢失）",
    ),
    "lifecycle.taken_over_there": (
        "workflow {name!r} was taken over on {host}:{worktree} at {at} (seen on {ref}); this event was not "
        "recorded. 'vibegit sync' brings that state here, then 'vibegit resume' takes it back",
        "工作流 {name!r} 已于 {at} 在 {host}:{worktree} 被接管（见 {ref}）；此事件未记录。"
        "'vibegit sync' 取回那边的状态，然后 'vibegit resume' 在此处取回",
    ),
    "lifecycle.newer": (
        "workflow {name!r} moved on at {remote}: {n} event(s) this copy does not have, the last at {at}; {how}",
        "工作流 {name!r} 在 {remote} 上已有进展：{n} 个此副本没有的事件，最近一个在 {at}；{how}",
    ),
    "lifecycle.newer_held": ("{status} on {holder}", "在 {holder} 上{status}"),
    # -- workflow.lock --
    "lock.reason_running": ("workflow running; finish it before switching", "工作流进行中；切换前请先完成"),
    "lock.reason_paused": ("workflow paused; resume with 'vibegit resume'", "工作流已暂停；用 'vibegit resume' 恢复"),
    "lock.when_complete": (
        "all tasks done and the user confirmed (vibegit complete)",
        "所有任务完成且用户确认（vibegit complete）",
    ),
    "lock.when_paused": ("the user paused (vibegit pause)", "用户暂停（vibegit pause）"),
    "lock.when_unlocked": (
        "the user unlocked (vibegit unlock) or aborted (vibegit abort)",
        "用户解锁（vibegit unlock）或放弃（vibegit abort）",
    ),
    "lock.missing": ("missing", "缺失"),
    "lock.not_locked": ("not locked", "未锁定"),
    "lock.not_paused": ("not locked: false, paused: true", "不是 locked: false, paused: true"),
    "lock.problem_running": (
        "workflow {name!r} is running but workflow.lock is {how}",
        "工作流 {name!r} 正在运行，但 workflow.lock {how}",
    ),
    "lock.problem_paused": (
        "workflow {name!r} is paused but workflow.lock is {how}",
        "工作流 {name!r} 已暂停，但 workflow.lock {how}",
    ),
    "lock.problem_held": (
        "workflow.lock is held but the workflow is {status}",
        "workflow.lock 被持有，但工作流状态为 {status}",
    ),
    "lock.problem_names": (
        "workflow.lock names {lock!r}, session.yaml {session!r}",
        "workflow.lock 为 {lock!r}，session.yaml 为 {session!r}",
    ),
    # -- learn --
    "learn.off": (
        "Learning is off (git config vibegit.learn is empty or false).",
        "学习已关闭（git config vibegit.learn 为空或 false）。",
    ),
    "learn.nothing": (
        "Nothing new to learn: {present} of {total} watched docs present, none changed since the last learn.",
        "没有新知识：{total} 个监视文档中有 {present} 个存在，自上次学习后均未变化。",
    ),
    "learn.nothing_new": ("nothing new to learn", "没有新知识"),
    "learn.more": ("  … and {n} more", "  … 另有 {n} 条"),
    "learn.see_list": ("See them all: 'vibegit memory list'.", "全部记忆：'vibegit memory list'。"),
    "learn.after_phase_failed": (
        "the phase is recorded, but learning from the docs failed: {error}",
        "阶段已记录，但从文档学习失败：{error}",
    ),
    "learn.outside": ("{doc}: resolves outside the repository; not learned", "{doc}：指向仓库之外；未学习"),
    "learn.too_large": ("{doc}: too large to learn from ({size} bytes)", "{doc}：太大，无法学习（{size} 字节）"),
    "learn.setting": ("git config vibegit.learn: {doc}", "git config vibegit.learn 中的 {doc}"),
    "context.open_question": ("  open question {n}: {text}", "  待解决问题 {n}：{text}"),
    # -- the completion report (the Lifecycle skill's 完成报告) --
    "completion.title": ("## ✅ Workflow completed: {name}", "## ✅ 工作流完成报告：{name}"),
    "completion.goal": ("### Goal", "### 目标"),
    "completion.tasks": ("### Tasks ({done}/{total} done)", "### 任务（{done}/{total} 完成）"),
    "completion.no_tasks": ("- (none: completed with --no-tasks)", "- (无：以 --no-tasks 完成)"),
    "completion.duration": ("### Duration", "### 耗时"),
    "completion.phases": ("### Phases", "### 阶段"),
    "completion.decisions": ("### Decisions", "### 决策"),
    "completion.learned": ("### Learned (remembered in memory)", "### 沉淀到记忆"),
    "completion.none": ("- (none)", "- (无)"),
    # -- workflow commands --
    "workflow.confirm_complete": (
        "Complete workflow {name!r} ({done}/{total} tasks done)?",
        "完成工作流 {name!r}（{done}/{total} 任务完成）？",
    ),
    "workflow.complete_not_confirmed": (
        "completion not confirmed; the workflow keeps running",
        "未确认完成；工作流继续运行",
    ),
    "workflow.completed": ("Lock released. Back to conversation mode.", "锁已释放。回到对话模式。"),
    "workflow.confirm_abort": (
        "Abort workflow {name!r}? Progress is kept, the workflow ends.",
        "放弃工作流 {name!r}？进度保留，工作流结束。",
    ),
    "workflow.abort_not_confirmed": ("abort not confirmed; nothing changed", "未确认放弃；没有任何改变"),
    "workflow.confirm_unlock": (
        "Unlock workflow {name!r}? The lock is released and the workflow ends; its history is kept.",
        "解锁工作流 {name!r}？锁被释放，工作流结束；历史保留。",
    ),
    "workflow.unlock_not_confirmed": ("unlock not confirmed; nothing changed", "未确认解锁；没有任何改变"),
    "person.agent_runs": (
        "not asking: {agent} is set, so an agent runs this command and could answer for the user; only the user "
        "decides this: ask them to run '{command}' in their own terminal, or to confirm through the vibegit MCP "
        "tool's question (nothing changed)",
        "不询问：已设置 {agent}，说明是智能体在执行此命令，它可能替用户回答；这只能由用户决定："
        "请让用户在自己的终端中执行 '{command}'，或在 vibegit MCP 工具的提问中确认（没有任何改变）",
    ),
    "approval.ask_complete": (
        "vibegit: only you decide this. Allow to complete workflow '{name}' (vibegit records that you confirmed it "
        "in {label}'s permission prompt); deny to keep it running.",
        "vibegit：这只能由你决定。允许则完成工作流 '{name}'（vibegit 记录为你在 {label} 的权限提示中确认）；"
        "拒绝则继续运行。",
    ),
    "approval.ask_abort": (
        "vibegit: only you decide this. Allow to abort workflow '{name}' (its progress is kept; vibegit records "
        "that you confirmed it in {label}'s permission prompt); deny to keep it.",
        "vibegit：这只能由你决定。允许则放弃工作流 '{name}'（进度保留；vibegit 记录为你在 {label} 的权限提示中确认）；"
        "拒绝则保留它。",
    ),
    "approval.ask_unlock": (
        "vibegit: only you decide this. Allow to release the lock of workflow '{name}', ending it (vibegit records "
        "that you confirmed it in {label}'s permission prompt); deny to keep it.",
        "vibegit：这只能由你决定。允许则释放工作流 '{name}' 的锁并结束它（vibegit 记录为你在 {label} 的权限提示中确认）；"
        "拒绝则保留它。",
    ),
    "approval.asked": (
        "vibegit asked the user in {label}'s permission prompt; if they denied it, do not try another way: "
        "ask them what to do.",
        "vibegit 已在 {label} 的权限提示中询问用户；若用户拒绝，不要换别的方式执行：问用户该怎么做。",
    ),
    "approval.not_in_prompt": (
        "vibegit: only the user decides this, and {label} may run a command without asking anyone (its "
        "auto-approving modes); ask the user to run '{command}' in their own terminal, or to confirm through "
        "the vibegit MCP tool's question",
        "vibegit：这只能由用户决定，而 {label} 可能不询问任何人就执行命令（其自动批准模式）；请让用户在自己的终端中执行 "
        "'{command}'，或在 vibegit MCP 工具的提问中确认",
    ),
    "approval.nobody_asked": (
        "vibegit: only the user decides this, and in permission mode {mode} nobody would be asked; ask the user to "
        "run '{command}' in their own terminal, or to confirm through the vibegit MCP tool's question",
        "vibegit：这只能由用户决定，而在权限模式 {mode} 下不会询问任何人；请让用户在自己的终端中执行 '{command}'，"
        "或在 vibegit MCP 工具的提问中确认",
    ),
    # -- status --
    "status.failed_line": ("❌ Workflow {name!r} failed at {at}: {error}", "❌ 工作流 {name!r} 于 {at} 失败：{error}"),
    "status.last_here": (" (last here: {name!r}, {status})", "（此处上一个：{name!r}，{status}）"),
    "status.newer": (
        "⚠ {newer} (as last fetched): 'vibegit sync' brings it here",
        "⚠ {newer}（据上次获取）：'vibegit sync' 可把它带到此处",
    ),
    "status.none_active": (
        "No workflow is active here{last}. Start one with 'vibegit start WORKFLOW --goal TEXT'.",
        "此处没有进行中的工作流{last}。用 'vibegit start WORKFLOW --goal TEXT' 开始一个。",
    ),
    "event.adopted": ("{name} ({status}) adopted from {source}", "{name}（{status}）从 {source} 导入"),
    # -- commands --
    "cmd.already_set_up": (
        "vibegit is already set up here ({branch} at {head}).",
        "vibegit 已在此处设置（{branch} 位于 {head}）。",
    ),
    "cmd.init_next": (
        "Next: 'vibegit start WORKFLOW --goal TEXT'; 'vibegit install' adds the git hooks.",
        "下一步：'vibegit start WORKFLOW --goal TEXT'；'vibegit install' 安装 git 钩子。",
    ),
    "cmd.nothing_to_adopt": (
        "nothing to adopt: {mirror}/ holds no session.yaml or workflow.lock that vibegit did not write itself",
        "没有可导入的内容：{mirror}/ 中没有非 vibegit 写入的 session.yaml 或 workflow.lock",
    ),
    "cmd.adopted": (
        "Adopted {name!r} as {id} ({status}, {done}/{total} tasks) from {source}/; its history starts here.",
        "已从 {source}/ 导入 {name!r}，编号 {id}（{status}，{done}/{total} 任务）；其历史从此开始。",
    ),
    "cmd.rewrote_tracked": (
        "Rewrote {n} file(s) git tracks in {source}/ in vibegit's format ({names}): 'git diff -- {source}' shows "
        "the changes. The state lives on {branch} now; 'git rm -r --cached {source}' stops tracking the copies.",
        "已按 vibegit 格式重写 {source}/ 中 {n} 个被 git 跟踪的文件（{names}）：'git diff -- {source}' 显示改动。"
        "状态现在保存在 {branch}；'git rm -r --cached {source}' 可停止跟踪这些副本。",
    ),
    "cmd.on_branch": ("branch {branch}", "分支 {branch}"),
    "cmd.on_detached": ("this detached HEAD ({worktree})", "此分离的 HEAD（{worktree}）"),
    "cmd.started": (
        "Lock taken for {name!r} ({id}) on {where}; phase R1. Add tasks with 'vibegit task add ID TITLE'.",
        "已为 {name!r}（{id}）在{where}上锁；阶段 R1。用 'vibegit task add ID TITLE' 添加任务。",
    ),
    "cmd.bad_phase": ("phase {phase!r:.20}: use one of R1 I P E R2", "阶段 {phase!r:.20}：请用 R1 I P E R2 之一"),
    "cmd.unlocked": (
        "Lock released; the workflow is ended (its history is kept). 'vibegit pause' keeps one resumable.",
        "锁已释放；工作流已结束（历史保留）。'vibegit pause' 可保留为可恢复。",
    ),
    "cmd.tasks_done": ("{done}/{total} tasks done.", "{done}/{total} 任务完成。"),
    "cmd.no_tasks": ("No tasks.", "暂无任务。"),
    "cmd.already_remembered": ("Already remembered as {id}: {text}", "已记为 {id}：{text}"),
    "cmd.nothing_remembered": (
        "Nothing remembered yet. Add with 'vibegit memory add CATEGORY TEXT' ({categories}), or learn from the "
        "docs with 'vibegit learn'.",
        "尚无记忆。用 'vibegit memory add CATEGORY TEXT'（{categories}）添加，或用 'vibegit learn' 从文档学习。",
    ),
    "cmd.adopt_hint": ("{what}: 'vibegit adopt' imports it.", "{what}：'vibegit adopt' 可导入。"),
    "cmd.running_elsewhere": ("Running elsewhere: {others}", "其他地方运行中：{others}"),
    "cmd.no_workflows": (
        "No workflows yet. Start one with 'vibegit start WORKFLOW --goal TEXT'.",
        "尚无工作流。用 'vibegit start WORKFLOW --goal TEXT' 开始一个。",
    ),
    "cmd.this_worktree": ("* this worktree's workflow", "* 此工作区的工作流"),
    "cmd.held_elsewhere_here": (
        "~ the workflow of this worktree's branch, running in another clone ('vibegit resume' takes it over here)",
        "~ 此工作区分支的工作流，正在另一个克隆中运行（'vibegit resume' 可在此接管）",
    ),
    "cmd.no_events": ("No events yet.", "尚无事件。"),
    "cmd.running_here": ("The workflow is already running here; nothing to resume.", "工作流已在此处运行；无需恢复。"),
    "cmd.took_over": (
        "Took the workflow over from {holder}; 'vibegit sync' (or a git push with vibegit's hooks installed) "
        "lets that clone know.",
        "已从 {holder} 接管工作流；'vibegit sync'（或装有 vibegit 钩子的 git push）会通知那个克隆。",
    ),
    "cmd.hooks_missing": (
        "vibegit's git hooks are not all installed here, so the lock does not block commits yet; run 'vibegit "
        "install' (hooks already there are kept and chained)",
        "此处未完整安装 vibegit 的 git 钩子，锁还不能阻止提交；请执行 'vibegit install'（已有的钩子会保留并串联）",
    ),
    "cmd.installing_hooks": (
        "This clone had no git hooks: installing vibegit's, so the lock is enforced here too.",
        "此克隆没有 git 钩子：正在安装 vibegit 的钩子，锁在此处同样生效。",
    ),
    "cmd.hooks_failed": (
        "the git hooks could not be installed ({error}); run 'vibegit install' so the lock blocks commits",
        "无法安装 git 钩子（{error}）；请执行 'vibegit install'，让锁能阻止提交",
    ),
    "cmd.fetched_commit": (
        "Fetched the checkpoint's commit {commit} from {remote}.",
        "已从 {remote} 获取断点提交 {commit}。",
    ),
    "cmd.head_elsewhere": (
        "HEAD is at {head} ({branch}); the checkpoint is at {commit} {where}: 'vibegit resume --checkout' or "
        "'{go}' goes there.",
        "HEAD 在 {head}（{branch}）；断点在 {commit} {where}：'vibegit resume --checkout' 或 '{go}' 可前往。",
    ),
    "cmd.restored": (
        "Restored the checkpoint's uncommitted work ({snap}): {written} path(s) written, {deleted} deleted, "
        "{same} already as in it. They are left unstaged.",
        "已恢复断点的未提交工作（{snap}）：写入 {written} 个路径，删除 {deleted} 个，{same} 个已一致。均未暂存。",
    ),
    "cmd.already_restored": (
        "The working tree already holds the checkpoint's uncommitted work ({snap}).",
        "工作区已包含断点的未提交工作（{snap}）。",
    ),
    "cmd.state_vanished": (
        "{branch} is missing, but the mirror shows state {commit} recorded here: 'vibegit doctor --repair' brings "
        "the branch back (nothing was recorded; a new history would hide the old one)",
        "{branch} 不见了，但镜像显示此处记录过状态 {commit}：'vibegit doctor --repair' 可找回该分支"
        "（未记录任何内容；新的历史会掩盖旧的）",
    ),
    "cmd.took_state": (
        "Took the workflow state from {source} ({commit}).",
        "已从 {source} 取得工作流状态（{commit}）。",
    ),
    # -- which workflow a command acts on (core/workflows.py) --
    "where.branch": ("on {branch}", "位于 {branch}"),
    "where.detached": ("on a detached HEAD", "位于分离的 HEAD"),
    "where.detached_in": ("on a detached HEAD in {worktree}", "位于 {worktree} 中分离的 HEAD"),
    "where.this_detached": ("on this detached HEAD ({worktree})", "位于此分离的 HEAD（{worktree}）"),
    "workflows.label": ("{name} ({id}, {status} {where}{held})", "{name}（编号 {id}，{status}，{where}{held}）"),
    "workflows.held_by": (", held by {host}", "，由 {host} 持有"),
    "workflows.more": ("; … {n} more", "；… 另有 {n} 个"),
    "workflows.and_more": (" and {n} more", " 等另外 {n} 个"),
    "workflows.several_named": (
        "--workflow {given!r:.60}: several are named so; pass an id: {named}",
        "--workflow {given!r:.60}：有多个同名工作流；请给出编号：{named}",
    ),
    "workflows.no_such": (
        "--workflow {given!r:.60}: no such workflow (known: {known})",
        "--workflow {given!r:.60}：没有这个工作流（已有：{known}）",
    ),
    "workflows.several_here": (
        "several workflows run {here}: {several}; pass --workflow NAME",
        "此处（{here}）有多个工作流在运行：{several}；请用 --workflow NAME 指定",
    ),
    "workflows.none_here": (
        "no workflow runs {here} (elsewhere: {elsewhere}); start one here with 'vibegit start WORKFLOW --goal "
        "TEXT', or pass --workflow NAME",
        "此处（{here}）没有工作流在运行（其他地方：{elsewhere}）；用 'vibegit start WORKFLOW --goal TEXT' 在此开始一个，"
        "或用 --workflow NAME 指定",
    ),
    # -- resume: is this copy current --
    "resume.stale": (
        "not resumed: {newer}. 'vibegit sync' catches up (then 'vibegit resume'); 'vibegit resume --force' "
        "takes it over here at once, with its uncommitted work (anything of yours in the way is saved first)",
        "未恢复：{newer}。'vibegit sync' 可同步到最新（然后 'vibegit resume'）；'vibegit resume --force' "
        "立即在此接管，并带来它的未提交工作（挡路的内容会先备份）",
    ),
    "resume.offline": (
        "could not reach {remote} ({reason}); comparing with what was fetched from it before",
        "无法连接 {remote}（{reason}）；改为与之前从它获取的副本比较",
    ),
    "resume.no_remote": (
        "not compared with a remote ({reason}); resuming on this copy",
        "未与远程比较（{reason}）；基于此副本恢复",
    ),
    "resume.restore_here": (
        "The workflow already runs here; --force restores its checkpoint's uncommitted work.",
        "工作流已在此处运行；--force 恢复其断点的未提交工作。",
    ),
    # -- resume: going to the checkpoint --
    "resume.choose": (
        "{error}; 'vibegit resume --workflow NAME --checkout' also goes to its branch",
        "{error}；'vibegit resume --workflow NAME --checkout' 也会切换到它的分支",
    ),
    "resume.bad_branch": (
        "checkpoint.branch {branch} is not a valid branch name",
        "checkpoint.branch {branch} 不是有效的分支名",
    ),
    "resume.switch_refused": (
        "git switch {target} refused: {reason}{which} (nothing was restored; the lock was not taken)",
        "git switch {target} 被拒绝：{reason}{which}（未恢复任何内容；未上锁）",
    ),
    "resume.other_branch": (
        "The workflow belongs to {branch}; HEAD is on {here}: 'vibegit resume --checkout' or '{go}' goes there.",
        "该工作流属于 {branch}；HEAD 在 {here}：'vibegit resume --checkout' 或 '{go}' 可前往。",
    ),
    "resume.switched": ("Switched to {where} at {head}.", "已切换到 {where}（{head}）。"),
    "resume.switched_elsewhere": (
        "Note: {branch} is at {head}, not at the checkpoint's commit {commit} (it moved on, or the checkpoint's "
        "commit was not pushed on it).",
        "注意：{branch} 位于 {head}，不在断点提交 {commit}（它已前进，或断点提交未推送到它上面）。",
    ),
    "resume.commit_missing": (
        "The checkpoint's commit {commit} is not in this repository (was it pushed?).",
        "断点提交 {commit} 不在此仓库中（是否已推送？）。",
    ),
    "resume.commit_missing_there": (
        "The checkpoint's commit {commit} is not in this repository nor on {remote} (was it pushed?).",
        "断点提交 {commit} 既不在此仓库中，也不在 {remote} 上（是否已推送？）。",
    ),
    "resume.bad_snapshot": (
        "checkpoint.snapshot {snap} is not the snapshot/ tree of {branch}; run 'vibegit doctor'",
        "checkpoint.snapshot {snap} 不是 {branch} 的 snapshot/ 树；请执行 'vibegit doctor'",
    ),
    "resume.behind": ("{path} (behind {where})", "{path}（被 {where} 挡住）"),
    "resume.local_work": (
        "not restoring the checkpoint's uncommitted work: {n} path(s) here hold something of yours that it would "
        "replace: {paths}; commit, stash or move them, or 'vibegit resume --force' saves them in a backup first "
        "(nothing was changed)",
        "不恢复断点的未提交工作：此处 {n} 个路径有你的内容，恢复会覆盖它们：{paths}；请提交、暂存（stash）或移走，"
        "或用 'vibegit resume --force' 先备份（未做任何改动）",
    ),
    "resume.head_moved": (
        "not restoring the checkpoint's uncommitted work: HEAD's version of {paths} differs from the checkpoint's "
        "commit; 'vibegit resume --checkout' goes to the checkpoint first, '--force' writes the snapshot's version "
        "(HEAD's stays in git) (nothing was changed)",
        "不恢复断点的未提交工作：HEAD 中 {paths} 的版本与断点提交不同；'vibegit resume --checkout' 先前往断点，"
        "'--force' 写入快照的版本（HEAD 的版本仍在 git 中）（未做任何改动）",
    ),
    "resume.credential_withheld": (
        "Not restored: {note}. Bring that file over yourself, keeping the credential out of git.",
        "未恢复：{note}。请自行拷贝该文件，不要让凭据进入 git。",
    ),
    "resume.withheld": (
        "Not restored (never restored from the state branch): {paths}; review with 'git show {snap}:{first}' and "
        "copy what you want yourself.",
        "未恢复（从不从状态分支恢复）：{paths}；用 'git show {snap}:{first}' 查看，自行拷贝需要的内容。",
    ),
    "resume.configuration": (
        "Withheld: configuration (it runs commands or steers an agent) where the snapshot's version differs from "
        "the checkpoint commit's; nothing of it was written:\n{paths}\n"
        "  See the difference: {diff}\n"
        "  Take it (a person's decision, in your own terminal; refused where an agent runs it): {take}",
        "已扣留：配置（它会运行命令或引导智能体），快照中的版本与断点提交中的不同；未写入任何内容：\n{paths}\n"
        "  查看差异：{diff}\n"
        "  采用它（由人决定，在你自己的终端中执行；智能体执行时会被拒绝）：{take}",
    ),
    "resume.config_new": ("  {path} (new)", "  {path}（新增）"),
    "resume.config_changed": ("  {path} (changed)", "  {path}（已修改）"),
    "resume.config_deleted": ("  {path} (deleted)", "  {path}（已删除）"),
    "take.nothing": (
        "the checkpoint of {workflow} has no snapshot to take configuration from",
        "{workflow} 的断点没有可采用配置的快照",
    ),
    "take.not_withheld": (
        "{path}: not configuration that resume withholds from the checkpoint's snapshot{known}",
        "{path}：不是 resume 从断点快照中扣留的配置{known}",
    ),
    "take.known": (" (withheld now: {paths})", "（当前扣留：{paths}）"),
    "take.none_known": (" (none is withheld now)", "（当前没有扣留的内容）"),
    "take.confirm": (
        "Write the snapshot's version of {n} path(s): {paths}? It runs commands or steers an agent; what stands "
        "there now is saved first.",
        "写入快照中 {n} 个路径的版本：{paths}？它会运行命令或引导智能体；当前内容会先备份。",
    ),
    "take.not_confirmed": ("not taken; nothing changed", "未采用；没有任何改变"),
    "take.taken": (
        "Took the snapshot's version of {n} path(s): {paths} ({written} written, {deleted} deleted).",
        "已采用快照中 {n} 个路径的版本：{paths}（写入 {written} 个，删除 {deleted} 个）。",
    ),
    "take.no_difference": ("No difference for {paths}.", "{paths} 没有差异。"),
    "resume.nested": (
        "Not restored (vibegit never writes into or over a nested repository): {paths}.",
        "未恢复（vibegit 从不写入或覆盖嵌套仓库）：{paths}。",
    ),
    "resume.nested_one": ("{path} (repository {repo})", "{path}（仓库 {repo}）"),
    "resume.saved": (
        "Saved what stood in the way ({n} path(s): {paths}) in {backup}; '{restore}' puts it back.",
        "已将挡路的内容（{n} 个路径：{paths}）保存到 {backup}；'{restore}' 可放回。",
    ),
    # -- trust / untrust --
    "trust.no_file": ("No {rel} in {top}; nothing to trust.", "{top} 中没有 {rel}；无需信任。"),
    "trust.runs": (
        "{rel} in {top} (sha256 {digest}) runs these commands at vibegit's lifecycle events:",
        "{top} 中的 {rel}（sha256 {digest}）会在 vibegit 的生命周期事件中运行这些命令：",
    ),
    "trust.no_commands": ("  (no commands)", "  (没有命令)"),
    "trust.overridden": (
        "  (git config vibegit.hook.* replaces {names}: those lines do not run)",
        "  (git config vibegit.hook.* 替换了 {names}：这些行不会运行)",
    ),
    "trust.timeout": ("  timeout: {timeout}s", "  超时：{timeout}s"),
    "trust.already": ("Already trusted; nothing changed.", "已信任；没有任何改变。"),
    "trust.trusted": (
        "Trusted: these commands may run here (recorded in {where}). Any change to {rel} needs 'vibegit trust' "
        "again; 'vibegit untrust' takes it back.",
        "已信任：这些命令可以在此运行（记录于 {where}）。{rel} 的任何改动都需要再次执行 'vibegit trust'；"
        "'vibegit untrust' 可撤销。",
    ),
    "trust.yes_needs_consent": (
        "trust --yes needs {consent}=yes in the environment (a person's script sets it; an agent limited to "
        "vibegit commands cannot); or run 'vibegit trust' in a terminal and answer; nothing recorded",
        "trust --yes 需要环境中有 {consent}=yes（由人的脚本设置；只能执行 vibegit 命令的智能体无法设置）；"
        "或在终端中执行 'vibegit trust' 并回答；未记录任何内容",
    ),
    "trust.agent_runs": (
        "not asking: {agent} is set, so an agent runs this command and could answer for you; run 'vibegit trust' "
        "in your own terminal (nothing recorded)",
        "不询问：已设置 {agent}，说明是智能体在执行此命令，它可能替你回答；请在你自己的终端中执行 'vibegit trust'"
        "（未记录任何内容）",
    ),
    "trust.no_terminal": (
        "not asking: no terminal to answer on; run 'vibegit trust' in a terminal, or '{consent}=yes vibegit trust "
        "--yes' in a script of yours (nothing recorded)",
        "不询问：没有可回答的终端；请在终端中执行 'vibegit trust'，或在你自己的脚本中执行 "
        "'{consent}=yes vibegit trust --yes'（未记录任何内容）",
    ),
    "trust.confirm": (
        "Trust these commands to run in this repository?",
        "信任这些命令在此仓库中运行？",
    ),
    "trust.not_trusted": (
        "not trusted; nothing recorded (the commands stay skipped)",
        "未信任；未记录任何内容（这些命令仍会被跳过）",
    ),
    "trust.forgot": (
        "Forgot {n} trusted version(s) of {rel} here; its commands are skipped again.",
        "已忘记此处 {rel} 的 {n} 个已信任版本；其命令将再次被跳过。",
    ),
    "trust.skipped": (
        "{file}: not trusted: run 'vibegit trust' after reading it (its commands were skipped)",
        "{file}：未信任：阅读后执行 'vibegit trust'（其命令已跳过）",
    ),
    "trust.not_run": ("{file}: not run: {error}", "{file}：未运行：{error}"),
    "trust.nothing_to_forget": (
        "Nothing to forget: no version of {rel} is trusted here.",
        "无需忘记：此处没有已信任的 {rel} 版本。",
    ),
    # -- the secret scan (secrets check / allow, sync, the pre-push hook) --
    "secrets.finding": (
        "{where}: looks like a {kind} ({what}); fingerprint {fingerprint}",
        "{where}：疑似 {kind}（{what}）；指纹 {fingerprint}",
    ),
    "secrets.more": (
        "… and {n} more ('vibegit secrets check' lists them all)",
        "… 另有 {n} 处（'vibegit secrets check' 列出全部）",
    ),
    "secrets.refusal": (
        "not pushing {branch}: {n} value(s) in what it would publish look like credentials:",
        "不推送 {branch}：其将发布的内容中有 {n} 个值疑似凭据：",
    ),
    "secrets.found": (
        "{n} value(s) in what {branch} would publish look like credentials (its next push refuses them):",
        "{branch} 将发布的内容中有 {n} 个值疑似凭据（下次推送会拒绝它们）：",
    ),
    "secrets.nothing_pushed": ("Nothing was pushed. ", "未推送任何内容。"),  # before secrets.refusal_how
    "secrets.refusal_how": (
        "'vibegit sync --redact' takes them out of what is not pushed yet (a flagged file is "
        "left out of the snapshot, a value in the state's text is replaced; your files are not touched); if one is "
        "not a credential, 'vibegit secrets allow FINGERPRINT' lets it through (recorded in {file}: commit that "
        "file so your team's pushes let it through too)",
        "'vibegit sync --redact' 会从尚未推送的内容中去掉它们（被标记的文件不放入快照，状态文本中的值被替换；"
        "你的文件不受影响）；如果某个值不是凭据，'vibegit secrets allow FINGERPRINT' 可放行它"
        "（记录于 {file}：提交该文件，团队的推送也会放行它）",
    ),
    "secrets.none": (
        "Nothing in what {branch} would publish looks like a credential.",
        "{branch} 将发布的内容中没有疑似凭据的值。",
    ),
    "secrets.already_allowed": ("{fingerprint} is already allowed in {file}.", "{fingerprint} 已在 {file} 中放行。"),
    "secrets.allowed": (
        "Allowed {fingerprint} in {file}: the secret scan lets that value through from now on. Commit {file} so "
        "that your team's pushes let it through too.",
        "已在 {file} 中放行 {fingerprint}：从现在起密钥扫描放行该值。请提交 {file}，团队的推送也会放行它。",
    ),
    "secrets.not_fingerprint": (
        "{value!r} is not a fingerprint (20 hex digits, as a refusal prints them)",
        "{value!r} 不是指纹（20 位十六进制数字，与拒绝信息中打印的一样）",
    ),
    "secrets.symlink": (
        "{path} is a symbolic link; not writing through it",
        "{path} 是符号链接；不通过它写入",
    ),
    "sync.redact_left": (
        "could not take every credential out ({where}: {kind}); nothing was changed. Remove it by hand, or "
        "'vibegit secrets allow FINGERPRINT' if it is not one:",
        "无法去掉所有凭据（{where}：{kind}）；未做任何改动。请手动删除，如果它不是凭据，用 'vibegit secrets allow FINGERPRINT'：",
    ),
    "sync.left_out": ("Left out of the snapshot: {note}.", "未放入快照：{note}。"),
    "sync.redacted": (
        "Redacted the events not pushed yet: {values} value(s) replaced in the state's text, {files} file(s) left "
        "out of the snapshot (rewritten, plus event {commit}); your files are not touched. The unredacted copies "
        "stay only in this repository's reflog of {branch}.",
        "已清除尚未推送的事件：状态文本中替换了 {values} 个值，{files} 个文件未放入快照（已改写，另加事件 {commit}）；"
        "你的文件不受影响。未清除的副本只保留在此仓库 {branch} 的 reflog 中。",
    ),
    # -- doctor --
    "doctor.checked_out": (
        "✘ {branch} is checked out in {where}: vibegit refuses every event while it is (each would move that "
        "worktree's HEAD); switch that worktree to another branch ('git switch -' there)",
        "✘ {branch} 已在 {where} 中检出：检出期间 vibegit 拒绝所有事件（每个事件都会移动那个工作区的 HEAD）；"
        "请把那个工作区切换到别的分支（在那里执行 'git switch -'）",
    ),
    "doctor.installing_hooks": ("Installing vibegit's hooks again:", "重新安装 vibegit 的钩子："),
    "doctor.still": ("✘ still: {problem}", "✘ 仍然：{problem}"),
    "doctor.updating_agents": (
        "Updating vibegit's entries for {names} ({scope}):",
        "更新 {names} 中 vibegit 的条目（{scope}）：",
    ),
    "doctor.restored_objects": (
        "Restored {n} missing object(s) of {branch} from the mirror's files.",
        "已从镜像文件恢复 {branch} 缺失的 {n} 个对象。",
    ),
    "doctor.missing_objects": (
        "{n} object(s) of {branch}'s history are missing from the object store (a 'git gc --prune' that raced an "
        "event?): {oids}",
        "{branch} 历史中的 {n} 个对象不在对象库中（'git gc --prune' 与某个事件同时运行？）：{oids}",
    ),
    "doctor.removed_lock": (
        "Removed {lock}, which a git process that was stopped had left (it blocked every event).",
        "已删除 {lock}，它是被中止的 git 进程留下的（它阻止了所有事件）。",
    ),
    "doctor.lock_blocks": (
        "✘ {lock} blocks every event (a git process that was stopped leaves it behind)",
        "✘ {lock} 阻止所有事件（被中止的 git 进程会留下它）",
    ),
    "doctor.lock_young": (
        "It is only seconds old: a git process may still be running; run it again in a moment.",
        "它才几秒钟：可能仍有 git 进程在运行；请稍后再执行一次。",
    ),
    "doctor.lock_repair": (
        "Run 'vibegit doctor --repair' to remove it (it checks that no git process holds it).",
        "执行 'vibegit doctor --repair' 删除它（会先确认没有 git 进程持有它）。",
    ),
    "doctor.no_branch": ("No {branch} here yet; nothing to check.", "此处还没有 {branch}；无需检查。"),
    "doctor.branch_missing": (
        "✘ {branch} is missing (deleted?); {source} still has it at {commit}",
        "✘ {branch} 不见了（被删除？）；{source} 中仍有它，位于 {commit}",
    ),
    "doctor.bring_back": (
        "Run 'vibegit doctor --repair{remote}' to bring it back (no event is lost).",
        "执行 'vibegit doctor --repair{remote}' 找回它（不会丢失任何事件）。",
    ),
    "doctor.no_copy": (
        "✘ {remote} has no copy of {branch} here, or none that reads: fetch it first ('git fetch {remote}')",
        "✘ 此处没有 {remote} 的 {branch} 副本，或副本无法读取：先获取它（'git fetch {remote}'）",
    ),
    "doctor.only_elsewhere": (
        "✘ {branch} is missing, and only another remote has a copy ({remotes}): a fork's upstream is someone "
        "else's state; if it is yours, 'vibegit doctor --repair --remote NAME' takes it",
        "✘ {branch} 不见了，只有其他远程仓库有副本（{remotes}）：fork 的 upstream 是别人的状态；"
        "如果它是你的，执行 'vibegit doctor --repair --remote NAME' 取回它",
    ),
    "doctor.recovered": (
        "Recovered: {branch} is back at {commit}, from {source}.",
        "已找回：{branch} 回到 {commit}，来自 {source}。",
    ),
    "doctor.not_commit": ("{ref} points to a {what}, not a commit", "{ref} 指向 {what}，不是提交"),
    "doctor.missing_object": ("missing object", "缺失的对象"),
    "doctor.mirror": ("✘ mirror: {problem}", "✘ 镜像：{problem}"),
    "doctor.healthy": (
        "✔ {branch} is healthy ({n} event(s), tip {tip}); the mirror parses.",
        "✔ {branch} 状态良好（{n} 个事件，最新 {tip}）；镜像可以解析。",
    ),
    "doctor.repair_how": (
        "Run 'vibegit doctor --repair' to go back to the newest good state (a new event; nothing is deleted).",
        "执行 'vibegit doctor --repair' 回到最新的良好状态（作为一个新事件；不删除任何内容）。",
    ),
    "doctor.repaired_without_snapshots": (
        "Repaired: every event of {branch} kept without the snapshot(s) a prune lost, then new event {commit}; the "
        "old history stays in the reflog ({tip}).",
        "已修复：保留 {branch} 的每个事件，去掉被清理丢失的快照，然后新增事件 {commit}；旧历史保留在 reflog 中（{tip}）。",
    ),
    "doctor.no_good_state": (
        "No good state found in the history or reflog of {branch}; nothing changed.",
        "在 {branch} 的历史和 reflog 中都没有找到良好状态；没有任何改变。",
    ),
    "doctor.repaired": (
        "Repaired: {branch} now holds the state of {good} as new event {commit}.",
        "已修复：{branch} 现在以新事件 {commit} 保存 {good} 的状态。",
    ),
    "doctor.repaired_on_top": (
        "Repaired: {branch} now holds the state of {good} as new event {commit} on top of {tip} (the bad commits "
        "stay in history).",
        "已修复：{branch} 现在以 {tip} 之上的新事件 {commit} 保存 {good} 的状态（有问题的提交留在历史中）。",
    ),
    "doctor.moved_aside": (
        "Moved the broken {name} of the mirror aside to {aside}.",
        "已将镜像中损坏的 {name} 移到 {aside}。",
    ),
    # -- install --
    "install.needs_agent": ("{option} goes with --agent NAME", "{option} 需与 --agent NAME 一起使用"),
    "install.not_installed": ("{agent} ({scope}): not installed ({where})", "{agent}（{scope}）：未安装（{where}）"),
    "install.status": ("{agent} ({scope}): {status}", "{agent}（{scope}）：已安装；{status}"),
    "install.update_how": ("  run '{command}' to bring it up to date", "  执行 '{command}' 更新到最新"),
    "install.hooks_in": ("hooks in {where}: {hooks}", "{where} 中的钩子：{hooks}"),
    "install.commands": ("/vibe-* commands {current}/{total} current", "/vibe-* 命令 {current}/{total} 为最新"),
    "install.launcher_ok": (
        "the agents' hooks start vibegit through {where} with {python}",
        "智能体的钩子通过 {where} 用 {python} 启动 vibegit",
    ),
    "install.launcher_missing": (
        "the launcher {where} is missing, so the agents' hooks do nothing; '{again}' writes it again",
        "启动器 {where} 不存在，智能体的钩子什么也不做；'{again}' 会重新写入",
    ),
    "install.launcher_foreign": (
        "{where} is not vibegit's launcher, so the agents' hooks do nothing; move it away, then '{again}'",
        "{where} 不是 vibegit 的启动器，智能体的钩子什么也不做；请移走它，然后 '{again}'",
    ),
    "install.launcher_outdated": (
        "the launcher {where} is not as install writes it (edited, or older); '{again}' writes it again",
        "启动器 {where} 与安装写入的不同（被修改或较旧）；'{again}' 会重新写入",
    ),
    "install.launcher_no_vibegit": (
        "the launcher {where} starts {python}, which cannot import vibegit: the hooks do nothing; '{again}' "
        "writes it again",
        "启动器 {where} 启动的 {python} 无法导入 vibegit：钩子什么也不做；'{again}' 会重新写入",
    ),
    "install.commands_yours": ("{names} yours (left alone)", "{names} 是你自己的（保持不动）"),
    "install.block": ("protocol block {state}", "协议块 {state}"),
    "install.server": ("MCP server {state}", "MCP 服务器 {state}"),
    "install.not_registered": ("not registered", "未注册"),
    "install.hooks_run": (
        "Hooks in {directory} run vibegit {version} with {python}. Undo with 'vibegit uninstall'.",
        "{directory} 中的钩子用 {python} 运行 vibegit {version}。用 'vibegit uninstall' 撤销。",
    ),
    "install.on_path": ("'vibegit' on PATH", "PATH 中的 'vibegit'"),
    "install.hook_same": ("{name}: already installed, unchanged", "{name}：已安装，未改变"),
    "install.hook_updated": ("{name}: updated", "{name}：已更新"),
    "install.hook_installed": ("{name}: installed", "{name}：已安装"),
    "install.hook_mode": (
        "{name}: its mode was {mode}, git skips a hook it cannot run: set back to {want}",
        "{name}：权限为 {mode}，git 会跳过无法执行的钩子：已恢复为 {want}",
    ),
    # -- do vibegit's git hooks still run? (every command says it of the lock check; doctor of all) --
    "hooks.lock_check": ("vibegit's lock check ({name})", "vibegit 的锁检查（{name}）"),
    "hooks.hook": ("vibegit's {name} hook", "vibegit 的 {name} 钩子"),
    "hooks.someone": ("someone else", "其他程序"),
    "hooks.not_executable": (
        "{what} does not run: {path} is not executable, so git skips it; run 'vibegit install' to mend it",
        "{what}没有运行：{path} 不可执行，git 会跳过它；请执行 'vibegit install' 修复",
    ),
    "hooks.missing": (
        "{what} does not run: {path} is missing; run 'vibegit install' to put it back",
        "{what}没有运行：{path} 不存在；请执行 'vibegit install' 放回",
    ),
    "hooks.moved": (
        "{what} does not run: core.hooksPath now points to {hooks}; run 'vibegit install' to put it there",
        "{what}没有运行：core.hooksPath 现在指向 {hooks}；请执行 'vibegit install' 装到那里",
    ),
    "hooks.foreign": (
        "{what} does not run: {path} is {who}'s now; run 'vibegit install' to chain it (that hook keeps running)",
        "{what}没有运行：{path} 现在属于{who}；请执行 'vibegit install' 串联（那个钩子照常运行）",
    ),
    "hooks.manager": (
        "{what} does not run: {who} runs {name} and does not call vibegit's; 'vibegit install' prints the line "
        "to add to {who}'s configuration",
        "{what}没有运行：{name} 由 {who} 运行，它没有调用 vibegit 的钩子；'vibegit install' 会打印需要加入 {who} 配置的那一行",
    ),
    "hooks.lefthook_old": (
        "{what} does not run: lefthook moved it to {old}, which it never runs; 'vibegit install' prints the "
        "lines to add to lefthook-local.yml",
        "{what}没有运行：lefthook 把它移到了 {old}，却从不运行它；'vibegit install' 会打印需要加入 lefthook-local.yml 的几行",
    ),
    "hooks.lfs": (
        "git-lfs is configured but no hook runs its pre-push (LFS files would not be pushed): run "
        "'git lfs update --force && vibegit install' (git-lfs writes its hooks, vibegit chains them)",
        "已配置 git-lfs，但没有钩子运行它的 pre-push（LFS 文件不会被推送）：请执行 "
        "'git lfs update --force && vibegit install'（git-lfs 写入它的钩子，vibegit 串联它们）",
    ),
    "hooks.outdated": (
        "{name}: {path} is not what this vibegit installs (another version or interpreter wrote it, or it was "
        "edited); run 'vibegit install' to update it",
        "{name}：{path} 与当前 vibegit 安装的不同（由其他版本或解释器写入，或被手动修改）；请执行 'vibegit install' 更新",
    ),
    # -- mcp: asking the user through the client (寸止) --
    "mcp.needs_sdk": (
        "vibegit mcp needs the MCP SDK: pip install 'vibegit-state[mcp]'",
        "vibegit mcp 需要 MCP SDK：pip install 'vibegit-state[mcp]'",
    ),
    "mcp.ask_complete": (
        "Mark the workflow {name!r} ({id}) complete ({done}/{total} tasks done)?",
        "将工作流 {name!r}（{id}）标记为完成（{done}/{total} 任务完成）？",
    ),
    "mcp.ask_abort": (
        "Abort the workflow {name!r} ({id})? Its progress is kept; the workflow ends.",
        "放弃工作流 {name!r}（{id}）？进度保留，工作流结束。",
    ),
    "mcp.ask_unlock": (
        "Release the lock of the workflow {name!r} ({id}) at once, ending it?",
        "立即释放工作流 {name!r}（{id}）的锁并结束它？",
    ),
    "mcp.cannot_ask": (
        "this client cannot ask the user (no MCP elicitation): ask the user to confirm in a terminal with "
        "'vibegit {command}'; nothing was recorded",
        "此客户端无法询问用户（不支持 MCP elicitation）：请用户在终端中用 'vibegit {command}' 确认；未记录任何内容",
    ),
    "mcp.declined": (
        "the user declined: nothing was recorded; the workflow goes on as it was",
        "用户拒绝了：未记录任何内容；工作流照旧继续",
    ),
    "mcp.cancelled": (
        "the user cancelled: nothing was recorded; the workflow goes on as it was",
        "用户取消了：未记录任何内容；工作流照旧继续",
    ),
    "mcp.no_answer": (
        "the client answered 'accept' without the user's answer ({error}): nothing was recorded; ask again",
        "客户端回答了 'accept'，却没有用户的答复（{error}）：未记录任何内容；请再问一次",
    ),
    "mcp.changed": (
        "the user confirmed {name!r} ({id}), but this call now names {now}: nothing was done; ask again",
        "用户确认的是 {name!r}（{id}），但此调用现在指向 {now}：未做任何事；请再问一次",
    ),
    "mcp.changed_none": ("no workflow", "没有工作流"),
    "mcp.ended": (
        "the user confirmed {name!r} ({id}), but it is {status} now (it changed while the user was asked): "
        "nothing was done",
        "用户确认的是 {name!r}（{id}），但它现在{status}（询问期间发生了变化）：未做任何事",
    ),
    # -- the pre-commit hook --
    "block.phase": ("phase {phase} ({long})", "阶段 {phase}（{long}）"),
    "block.no_phase": ("no phase", "无阶段"),
    "block.step": (", step {step}", "，步骤 {step}"),
    "block.task": ("task {id}: {title}", "任务 {id}: {title}"),
    "block.no_task": ("no current task", "无当前任务"),
    "block.detached": ("a detached HEAD", "分离的 HEAD"),
    "block.this_detached": ("this detached HEAD", "此分离的 HEAD"),
    "block.other_branches": (
        "commits on {here} are blocked while workflow {name!r} runs on {there} in this worktree "
        "(vibegit.blockCommits=other-branches)",
        "工作流 {name!r} 在此工作区的 {there} 上运行时，{here} 上的提交被阻止（vibegit.blockCommits=other-branches）",
    ),
    "block.always": (
        "workflow {name!r} holds the lock of {branch} (vibegit.blockCommits=always)",
        "工作流 {name!r} 持有 {branch} 的锁（vibegit.blockCommits=always）",
    ),
    "block.blocked": ("vibegit: commit blocked: {why}.", "vibegit: 提交被阻止：{why}。"),
    "block.unblock": (
        "vibegit: unblock with {fix}; or let this one through: the same git command again with {allow}=1 in "
        "front{recorded}.",
        "vibegit: 用 {fix} 解除；或放行这一次：在同一条 git 命令前加上 {allow}=1 再执行{recorded}。",
    ),
    "block.recorded": (" (recorded as an allowed-commit event)", "（记录为 allowed-commit 事件）"),
    "block.fix_running": (
        "'vibegit pause{flag}', 'vibegit unlock{flag}' or 'vibegit abort{flag}'",
        "'vibegit pause{flag}'、'vibegit unlock{flag}' 或 'vibegit abort{flag}'",
    ),
    "block.fix_done": (
        "'vibegit complete{flag}', 'vibegit pause{flag}', 'vibegit unlock{flag}' or 'vibegit abort{flag}'",
        "'vibegit complete{flag}'、'vibegit pause{flag}'、'vibegit unlock{flag}' 或 'vibegit abort{flag}'",
    ),
    "block.fix_setting": (
        "'git config --unset vibegit.stateBranch' (or set it to a branch name)",
        "'git config --unset vibegit.stateBranch'（或把它设为一个分支名）",
    ),
    "block.fix_vanished": (
        "{repair} (it brings the branch back from the reflog, a remote or the mirror)",
        "{repair}（它会从 reflog、远程或镜像找回该分支）",
    ),
    "block.unreadable": ("the state on {branch} cannot be read ({error})", "{branch} 上的状态无法读取（{error}）"),
    "block.not_commit": (
        "{ref} points to an object that is missing or not a commit",
        "{ref} 指向的对象缺失或不是提交",
    ),
    "block.flow_unreadable": (
        "workflow {name!r} {where} cannot be read ({error})",
        "工作流 {name!r}（{where}）无法读取（{error}）",
    ),
    "block.mirror_unreadable": (
        "{branch} is missing and the mirror's lock cannot be read ({error})",
        "{branch} 不存在，且镜像中的锁无法读取（{error}）",
    ),
    "block.vanished": (
        "{branch} is gone, but the mirror ({mirror}) shows workflow {name!r} holding the lock",
        "{branch} 已不存在，但镜像（{mirror}）显示工作流 {name!r} 持有锁",
    ),
    "block.message_kept": (
        "vibegit: your commit message is kept in commit {commit}: once unblocked, '{command}' commits with it "
        "(or, to let it through now, '{allow}=1 {command}').",
        "vibegit: 你的提交信息保存在提交 {commit} 中：解除后执行 '{command}' 即用它提交（或现在就放行：'{allow}=1 {command}'）。",
    ),
    "block.rebase": (
        "vibegit: the rebase stopped here: 'git rebase --abort' goes back to where you were.",
        "vibegit: 变基在此停下：'git rebase --abort' 回到原来的位置。",
    ),
    "block.allowed": (
        "vibegit: {allow}=1: commit let through although {why}",
        "vibegit: {allow}=1：提交已放行，尽管{why}",
    ),
    "block.allowed_recorded": (
        "vibegit: {allow}=1: commit let through while workflow {name!r} holds the lock; recorded as event "
        "{commit} (vibegit log)",
        "vibegit: {allow}=1：工作流 {name!r} 持有锁时放行了提交；已记录为事件 {commit}（vibegit log）",
    ),
    "block.allowed_unrecorded": (
        "vibegit: {allow}=1: commit let through; it could not be recorded: {error}",
        "vibegit: {allow}=1：提交已放行；但无法记录：{error}",
    ),
    "block.failed": (
        "vibegit: commit blocked: the lock check failed: {reason}.",
        "vibegit: 提交被阻止：锁检查失败：{reason}。",
    ),
    "block.failed_how": (
        "vibegit: run 'vibegit doctor' to see what is wrong; or let this one through: the same git command again "
        "with {allow}=1 in front.",
        "vibegit: 执行 'vibegit doctor' 查看问题；或放行这一次：在同一条 git 命令前加上 {allow}=1 再执行。",
    ),
    "block.failed_allowed": (
        "vibegit: the lock check failed ({reason}); {allow}=1: git goes on",
        "vibegit: 锁检查失败（{reason}）；{allow}=1：git 继续",
    ),
    "cmd.start_clash": (
        "cannot start a workflow here: {label} runs {where}; finish it with 'vibegit complete', or 'vibegit pause' "
        "/ 'vibegit abort' first",
        "无法在此开始工作流：{label} 正在{where}运行；请先用 'vibegit complete' 完成，或 'vibegit pause' / 'vibegit abort'",
    ),
    # -- the agents' report (an agent's session starts with it) --
    "agent.elsewhere": (
        "⚠️ This workflow runs elsewhere: {where}. This session records nothing and must not work on it; take it "
        "over only if the user asks: `vibegit sync`, then `vibegit resume`.",
        "⚠️ 此工作流在别处运行：{where}。本会话不记录任何事件，也不要继续它；只有用户要求时才接管：`vibegit sync` 然后 `vibegit resume`。",
    ),
    "agent.current": ("Current task", "当前任务"),
    "agent.next": ("Next step", "下一步"),
    "agent.checkpoint": ("Checkpoint", "断点"),
    "agent.never": ("Never", "禁止"),
    "agent.questions": (
        "Open questions (ask the user; record the answer with `vibegit context --answer N --reply TEXT`)",
        "待解决问题（询问用户；用 `vibegit context --answer N --reply TEXT` 记录回答）",
    ),
    "agent.questions_elsewhere": ("Open questions", "待解决问题"),
    "agent.short": (
        "Record progress with the vibegit MCP server's tools (`status` shows the whole state).",
        "用 vibegit MCP 服务器的工具记录进展（`status` 显示完整状态）。",
    ),
    "agent.record": (
        "Record progress: `vibegit task start|done ID`, `vibegit context --last ... --next ...`, "
        "`vibegit checkpoint --file PATH --line N`; stopping: `vibegit pause --action ...`; all done: ask the user "
        "to confirm (they run `vibegit complete` themselves, or answer the MCP `complete` tool's question).",
        "记录进展：`vibegit task start|done ID`、`vibegit context --last ... --next ...`、"
        "`vibegit checkpoint --file PATH --line N`；中途停止：`vibegit pause --action ...`；全部完成：请用户确认（寸止）："
        "由用户自己执行 `vibegit complete`，或回答 MCP `complete` 工具的提问。",
    ),
    "agent.runner": (
        "`vibegit` is not on this PATH: run it as {runner}.",
        "此 PATH 中没有 `vibegit`：请用 {runner} 运行。",
    ),
    "agent.paused": (
        "Paused: ask the user whether to continue (`vibegit resume`).",
        "已暂停：询问用户是否继续（`vibegit resume`）。",
    ),
    "agent.tasks": ("Tasks", "任务"),
    "agent.more": ("+ {n} more: `vibegit task list`", "+ 另有 {n} 项：`vibegit task list`"),
    "agent.rules_more": (
        "+ {n} more remembered rules: `vibegit memory list`",
        "+ 另有 {n} 条记忆规则：`vibegit memory list`",
    ),
    # -- the mirror --
    "mirror.adopted": ("adopted your edit of {rel}", "已采纳你对 {rel} 的修改"),
    "mirror.by_command": (
        "{rel}: {field} is changed by '{command}', not by hand; set it back to {value}",
        "{rel}：{field} 由 '{command}' 修改，不能手动修改；请改回 {value}",
    ),
    "mirror.first_not_adopted": (
        "not adopted, but saved before the mirror is written: {error}",
        "未采纳，但在写入镜像前已保存：{error}",
    ),
    "mirror.saved_first": (
        "{mirror}/ held files vibegit never wrote ({names}): saved in {backup} before writing it; '{restore}' puts "
        "them back, and the next event adopts what validates",
        "{mirror}/ 中有 vibegit 从未写入的文件（{names}）：写入前已保存到 {backup}；'{restore}' 可放回，"
        "下一个事件会采纳其中有效的内容",
    ),
    "mirror.lock_deleted": (
        "{rel} was deleted by hand; the lock stays (release it with vibegit pause, unlock or complete)",
        "{rel} 被手动删除；锁仍然保留（用 vibegit pause、unlock 或 complete 释放）",
    ),
    "mirror.other_workflow": (
        "your edit of {rel} is for workflow {shown}, not {current}",
        "你对 {rel} 的修改属于工作流 {shown}，不是 {current}",
    ),
    "mirror.conflict": (
        "your edit of {rel} conflicts with a newer state from elsewhere",
        "你对 {rel} 的修改与别处更新的状态冲突",
    ),
    "mirror.kept_beside": ("{why}; kept as {name} beside it", "{why}；已另存为旁边的 {name}"),
    "mirror.goal_notes_only": (
        "{rel}: only Goal and Notes are adopted (the rest is generated)",
        "{rel}：只采纳目标和笔记（其余为生成内容）",
    ),
    "mirror.lock_by_hand": (
        "{rel} was written by hand but no workflow holds a lock (use vibegit start or resume)",
        "{rel} 是手写的，但没有工作流持有锁（请用 vibegit start 或 resume）",
    ),
    "mirror.edit_checkpoint": ("edit its checkpoint: section instead", "请改为编辑其中的 checkpoint: 部分"),
    "mirror.is_completion": ("it is the completion report", "它是完成报告"),
    "mirror.generated": ("{rel} is generated from session.yaml ({how})", "{rel} 由 session.yaml 生成（{how}）"),
    "mirror.not_updated": (
        "the event is recorded, but the mirror {mirror} was not updated: {error}",
        "事件已记录，但镜像 {mirror} 未更新：{error}",
    ),
    "mirror.foreign": ("{mirror}/ holds an earlier skill set-up's {what}", "{mirror}/ 中有早先技能设置的{what}"),
    "mirror.foreign_workflow": ("workflow {name!r} ({status})", "工作流 {name!r}（{status}）"),
    "mirror.foreign_files": ("state files", "状态文件"),
    "mirror.foreign_locked": (", workflow.lock locked", "，workflow.lock 已锁定"),
    "mirror.foreign_tracked": ("; {n} of its files are tracked by git", "；其中 {n} 个文件被 git 跟踪"),
    "mirror.refused": (
        "{what}; 'vibegit adopt' imports it as a vibegit workflow (or move {mirror}/ away first); nothing was written",
        "{what}；'vibegit adopt' 可将其导入为 vibegit 工作流（或先移走 {mirror}/）；未写入任何内容",
    ),
    "mirror.rewrote": (
        "{what}; {branch} holds the workflows already, so this event rewrote them in vibegit's format "
        "('git diff -- {mirror}' shows it; 'git rm -r --cached {mirror}' stops tracking the copies)",
        "{what}；{branch} 已保存工作流，因此此事件按 vibegit 格式重写了它们"
        "（'git diff -- {mirror}' 显示改动；'git rm -r --cached {mirror}' 停止跟踪这些副本）",
    ),
    "mirror.left_foreign": (
        "{mirror}/ holds state files vibegit did not write; it is left as it is until the next event, which says "
        "what it rewrites.",
        "{mirror}/ 中有非 vibegit 写入的状态文件；在下一个事件前保持原样，该事件会说明它重写了什么。",
    ),
    "mirror.left_unwritten": (
        "{mirror}/ holds state files vibegit never wrote; it is left as it is until the next event, which adopts "
        "what validates and saves the rest first.",
        "{mirror}/ 中有 vibegit 从未写入的状态文件；在下一个事件前保持原样，该事件会采纳有效的内容，并先保存其余内容。",
    ),
    "mirror.has_edits": (
        "{mirror}/{name} has edits of yours; the mirror is left as it is until the next event adopts them.",
        "{mirror}/{name} 有你的修改；镜像保持原样，直到下一个事件采纳它们。",
    ),
    # -- sync --
    "sync.none_there": ("{remote} has no {branch} yet.", "{remote} 上还没有 {branch}。"),
    "sync.took": ("Took {branch} from {remote} ({commit}).", "已从 {remote} 取得 {branch}（{commit}）。"),
    "sync.fast_forward": (
        "Fast-forwarded {branch} by {n} event(s) from {remote}.",
        "已从 {remote} 快进 {branch}，共 {n} 个事件。",
    ),
    "sync.merged": (
        "Merged: {mine} event(s) here and {other} on {remote} had diverged; both histories are kept (merge "
        "{commit}). Decided:",
        "已合并：此处 {mine} 个事件与 {remote} 上 {other} 个事件分叉；两边的历史都保留（合并 {commit}）。决定：",
    ),
    "sync.no_conflict": ("nothing conflicted", "没有冲突"),
    "sync.nothing_to_redact": ("Nothing to redact.", "没有需要清除的内容。"),
    "sync.nothing": (
        "No workflow state here nor on {remote}; nothing to sync.",
        "此处和 {remote} 上都没有工作流状态；无需同步。",
    ),
    "sync.up_to_date": ("{branch} is up to date with {remote} ({commit}).", "{branch} 与 {remote} 一致（{commit}）。"),
    "sync.pushed": ("Pushed {branch} to {remote} ({commit}).", "已将 {branch} 推送到 {remote}（{commit}）。"),
    "remote.unavailable": (
        "git {verb} {remote} failed: {said}; check the remote's URL ('git remote -v') and your access to it, "
        "then run '{retry}' again",
        "git {verb} {remote} 失败：{said}；请检查远程仓库地址（'git remote -v'）和你的访问权限，然后再次执行 '{retry}'",
    ),
    "remote.interrupted": (
        "git {verb} {remote} failed: {said}: the transfer broke off (the remote was busy, or the connection "
        "dropped); nothing is lost here: run '{retry}' again",
        "git {verb} {remote} 失败：{said}：传输中断（远程仓库正忙，或连接断开）；此处没有丢失任何内容："
        "请再次执行 '{retry}'",
    ),
    "sync.interrupted": ("The transfer with {remote} broke off; trying again.", "与 {remote} 的传输中断；重新尝试。"),
    "sync.remote_refused": (
        "{remote} refused {branch}: {why}; a rule or hook on the server, and nothing is lost here: ask whoever "
        "runs {remote}, or sync elsewhere with 'vibegit sync --remote NAME'",
        "{remote} 拒绝了 {branch}：{why}；这是服务器上的规则或钩子，此处没有丢失任何内容：请联系 {remote} 的管理者，"
        "或用 'vibegit sync --remote NAME' 同步到别处",
    ),
    "sync.moved_on": ("{remote} moved on while syncing; fetching again.", "同步期间 {remote} 有更新；重新获取。"),
    "sync.kept_moving": (
        "{remote}'s {branch} kept moving: other pushes came first in all {tries} tries over {seconds} s; nothing "
        "is lost ({branch} here holds every event): run 'vibegit sync' again (git config vibegit.syncTimeout "
        "SECONDS waits longer)",
        "{remote} 的 {branch} 一直在变：{seconds} 秒内 {tries} 次尝试都被其他推送抢先；没有丢失任何内容（此处的 {branch} "
        "保留了每个事件）：请再次执行 'vibegit sync'（git config vibegit.syncTimeout 秒数 可以等更久）",
    ),
}
