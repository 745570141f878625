"""The working protocol for agents (en, zh): which command at which moment.

``vibegit agent-instructions`` prints it; ``vibegit install --agent NAME``
keeps it as a marked block in the agent's instructions file (AGENTS.md,
CLAUDE.md, GEMINI.md).
"""

from __future__ import annotations

PROTOCOL = {
    "en": """\
## Workflow state (vibegit)

This project keeps the agent's workflow state in git (branch `vibegit/state`),
so it survives compaction, new sessions and other machines. The files in
`project_document/.ai_state/` are a copy; change state with the commands.
Each workflow belongs to the branch it was started on; the commands act on
the one of this worktree's branch. Where `vibegit` is not found, run it as
`"$(git rev-parse --git-common-dir)/vibegit/bin/vibegit"` (the launcher the
hooks use).

- Session start: read the recovery report (the session hook prints it; else
  run `vibegit status`). If a workflow is active, continue it; never
  fall back to plain chat. Paused: ask the user, then `vibegit resume`. It
  runs elsewhere: say so, and take it over only when the user asks.
- New multi-step work (the user's /vibe-code GOAL, or /vibe-start NAME GOAL):
  `vibegit start vibe-code --goal "..."`, then `vibegit task add T-001 "..."`
  for each step.
- Phases: `vibegit phase R1|I|P|E|R2 [--step 4.3]` when you move on.
- Tasks: `vibegit task start T-001` before, `vibegit task done T-001` after.
- After each meaningful step: `vibegit context --last "..." --next "..."`.
- Before a risky or long step: `vibegit checkpoint --file PATH --line N --action "..."`.
- Need the user: `vibegit context --question "..."`, ask, then stop;
  `vibegit context --answer N --reply "..."` once answered (the answer is kept).
- Rules the user states: `vibegit memory add forbidden_action|user_preference|code_pattern "..."`.
  Obey the remembered rules in the report, forbidden actions first.
- Stopping mid-way: `vibegit pause --action "..."`.
- All tasks done: show the result and ask the user to confirm. Only they
  decide: in their own terminal (`vibegit complete`), in the question of the
  vibegit MCP server's `complete` tool, or in your permission prompt when you
  run `vibegit complete` (vibegit makes Claude Code and Gemini CLI ask
  them). Never answer for them, never try another way after a no.
- The user's commands: /vibe-code, /vibe-start, /vibe-state, /vibe-pause,
  /vibe-resume, /vibe-checkpoint; /vibe-abort and /vibe-unlock only when the
  user types them.
- Never edit `workflow.lock` by hand and never commit with `--no-verify` to
  get around the lock.
""",
    "zh": """\
## 工作流状态 (vibegit)

本项目用 git 保存智能体的工作流状态（分支 `vibegit/state`），
上下文压缩、新会话、换机器都不会丢失。`project_document/.ai_state/`
中的文件只是副本；请用命令修改状态。每个工作流属于启动它的分支；
命令作用于当前工作树分支上的工作流。找不到 `vibegit` 时，用
`"$(git rev-parse --git-common-dir)/vibegit/bin/vibegit"` 运行（钩子使用的启动器）。

- 会话开始：阅读恢复报告（会话钩子会输出；否则运行 `vibegit status`）。
  有活动工作流就继续执行，不要退化为普通对话。已暂停：询问用户后 `vibegit resume`。
  在别处运行：说明情况，只有用户要求时才接管。
- 新的多步骤工作（用户的 /vibe-code 目标，或 /vibe-start 名称 目标）：
  `vibegit start vibe-code --goal "..."`，然后为每一步 `vibegit task add T-001 "..."`。
- 阶段：进入下一阶段时 `vibegit phase R1|I|P|E|R2 [--step 4.3]`。
- 任务：开始前 `vibegit task start T-001`，完成后 `vibegit task done T-001`。
- 每个有意义的步骤后：`vibegit context --last "..." --next "..."`。
- 有风险或耗时的步骤前：`vibegit checkpoint --file PATH --line N --action "..."`。
- 需要用户：`vibegit context --question "..."`，提问后停下；
  得到回答后 `vibegit context --answer N --reply "..."`（回答会被保留）。
- 用户提出的规则：`vibegit memory add forbidden_action|user_preference|code_pattern "..."`。
  遵守报告中的记忆规则，禁止操作优先。
- 中途停止：`vibegit pause --action "..."`。
- 所有任务完成：展示结果并请用户确认（寸止）。只有用户能决定：在自己的终端中
  （`vibegit complete`）、在 vibegit MCP 服务器 `complete` 工具的提问中，或在你执行
  `vibegit complete` 时的权限提示中（vibegit 让 Claude Code 和 Gemini CLI 询问用户）。
  不要替用户回答，被拒绝后也不要换别的方式。
- 用户的命令：/vibe-code、/vibe-start、/vibe-state、/vibe-pause、/vibe-resume、
  /vibe-checkpoint；/vibe-abort 和 /vibe-unlock 只在用户亲自输入时执行。
- 不要手动编辑 `workflow.lock`，也不要用 `--no-verify` 绕过锁提交。
""",
}


def protocol(lang: str) -> str:
    return PROTOCOL.get(lang, PROTOCOL["en"])
