"""The recovery report and the agents' stop reason (core/report.py), without git."""

from __future__ import annotations

from vibegit.core import lifecycle, report
from vibegit.core.model import Checkpoint, Env, MemoryCategory, Phase, Question, State
from vibegit.core.records import replace

ENV = Env(now="2025-01-12T10:00:00Z", host="laptop", worktree="/w", head="a" * 40, branch="main", new_session_id="s1")


def workflow() -> State:
    state, _ = lifecycle.start(State(), ENV, "vibe-code", "Implement auth")
    for task_id, title in (("T-001", "Data model"), ("T-002", "Login API")):
        state, _ = lifecycle.task_add(state, ENV, task_id, title)
    state, _ = lifecycle.task_done(state, ENV, "T-001")
    state, _ = lifecycle.task_start(state, ENV, "T-002")
    state, _ = lifecycle.phase(state, ENV, Phase.E, "4.3")
    state, _ = lifecycle.checkpoint(state, ENV, Checkpoint(file="src/auth.py", line=45, action="login skeleton"))
    state, _ = lifecycle.memory_add(state, ENV, MemoryCategory.FORBIDDEN_ACTION, "Never force-push main")
    return state


def test_the_report_has_the_skills_sections_in_order() -> None:
    text = report.render(workflow(), "en", "a" * 40, report.Observed("moved", 47, None))
    heads = [line for line in text.splitlines() if line.startswith("#")]
    assert heads == [
        "## 🔄 Session recovery",
        "### Current state",
        "### Last progress",
        "### Next step",
        "### Checkpoint",
        "### 🧠 Remembered rules",
    ]
    assert "- **Progress**: 1/2 tasks done (50%)" in text and "- **Phase**: Execute (E), step 4.3" in text
    assert "- ✅ T-001: Data model" in text and "- 🔄 T-002: Login API (in progress)" in text
    assert "Continue T-002: Login API" in text and "`src/auth.py:45` · the line is now at 47" in text
    assert "HEAD is here" in text and "**🚫 Never** Never force-push main" in text
    assert text.rstrip().endswith("**Continue?** Reply `continue`, `details` or `pause`")


def test_the_report_in_chinese_and_when_paused() -> None:
    state, _ = lifecycle.pause(workflow(), ENV, Checkpoint(action="stop"))
    text = report.render(state, "zh", "b" * 40)
    assert text.startswith("## ⏸️ 工作流已暂停") and "### 断点位置" in text and "`vibegit resume`" in text
    assert "用 `git switch main` 返回" in text


def test_a_checkpoint_on_a_detached_head_says_switch_detach() -> None:
    state, _ = lifecycle.checkpoint(workflow(), replace(ENV, branch=None), Checkpoint(action="x"))
    text = report.render(state, "en", "b" * 40)
    assert f"`git switch --detach {'a' * 12}` to go back" in text


def test_next_step_and_is_active() -> None:
    state = workflow()
    assert report.next_step(replace(state, context=replace(state.context, next_action="verify hash")), "en") == (
        "verify hash"
    )
    done, _ = lifecycle.task_done(state, ENV, "T-002")
    assert report.next_step(done, "en").startswith("All tasks are done")
    said, _ = lifecycle.context(done, ENV, None, "Write the login handler", None, None)
    assert "ask them to confirm completion" in report.next_step(said, "en", agent=True)  # not the stale "next"
    asked, _ = lifecycle.context(said, ENV, None, None, "Sessions or JWT?", None)
    assert "answer the open questions" in report.next_step(asked, "en", agent=True)
    empty, _ = lifecycle.start(State(), ENV, "vibe-code", "g")
    assert "vibegit task add" in report.next_step(empty, "en") and "All tasks" not in report.next_step(empty, "en")
    assert report.is_active(state) and not report.is_active(State())


def test_json_is_session_yaml_plus_lock_and_tasks() -> None:
    data = report.as_json(workflow())
    assert set(data) == {"schema", "workflow_id", "session", "mode", "workflow", "context", "checkpoint", "lock"} | {
        "tasks",
        "others",
    }
    assert data["schema"] == report.SCHEMA == 2 and data["workflow_id"] == data["workflow"]["id"]
    assert data["workflow"]["completed_tasks"] == 1 and data["tasks"][1] == {
        "id": "T-002",
        "title": "Login API",
        "status": "doing",
    }


def test_learned_notes_are_bounded_in_the_report() -> None:
    state = workflow()
    for i in range(report.MAX_KNOWLEDGE_SHOWN + 3):
        state, _ = lifecycle.memory_add(state, ENV, MemoryCategory.PROJECT_KNOWLEDGE, f"note {i}")
    assert "… and 3 more project notes" in report.render(state)


def test_an_answered_question_remembered_at_completion_is_listed_as_learned() -> None:
    state = workflow()
    state, _ = lifecycle.context(state, ENV, None, None, "Which database?", None)
    state, _ = lifecycle.context(state, ENV, None, None, None, 1, "Postgres")
    state, _ = lifecycle.task_done(state, ENV, "T-002")
    done, event = lifecycle.complete(state, ENV, lifecycle.CONFIRMED_BY_YES, lessons=("Hash with argon2",))
    text = report.completion(done)
    learned = text.split("### Learned (remembered in memory)\n")[1].splitlines()
    assert learned == ["- Hash with argon2", "- Which database? → Postgres"]  # what memory got, never "(none)"
    assert event.lessons == ("Hash with argon2", "Which database? → Postgres")


def test_the_stop_reason_names_the_task_and_the_next_step() -> None:
    reason = report.stop_reason(workflow())
    assert "workflow 'vibe-code' is still running (phase E step 4.3, 1/2 tasks done)" in reason
    assert "Current task: T-002: Login API" in reason and "Next step: Continue T-002" in reason


def test_a_value_cannot_forge_a_section_or_reach_the_terminal_as_a_control() -> None:
    state = workflow()
    state = replace(
        state,
        context=replace(
            state.context, next_action="### Checkpoint", pending_questions=(Question(1, "\x1b]0;owned\x07 ok?"),)
        ),
        checkpoint=replace(state.checkpoint, file="a` · HEAD is here `b", action="- ✅ T-009: forged"),
    )
    text = report.render(state, "en", "a" * 40)
    heads = [line for line in text.splitlines() if line.startswith("#")]
    assert heads.count("### Checkpoint") == 1 and "\\### Checkpoint" in text
    assert "\x1b" not in text and "\x07" not in text and "1. ]0;owned ok?" in text
    assert "``a` · HEAD is here `b:45``" in text
    assert not any(line.startswith("- ✅ T-009") for line in text.splitlines())
    assert "\x1b" not in report.stop_reason(state)


def big_workflow(tasks: int = 80, rules: int = 15) -> State:
    state, _ = lifecycle.start(State(), ENV, "vibe-code", "Port the billing service " * 3)
    for i in range(1, tasks + 1):
        state, _ = lifecycle.task_add(state, ENV, f"T-{i:03}", f"Port module number {i} of the billing service")
    for i in range(1, min(tasks, 7)):
        state, _ = lifecycle.task_done(state, ENV, f"T-{i:03}")
    state, _ = lifecycle.task_start(state, ENV, f"T-{min(tasks, 7):03}")
    state, _ = lifecycle.checkpoint(state, ENV, Checkpoint(file="src/billing.py", line=120, action="rates table"))
    for i in range(rules):
        state, _ = lifecycle.memory_add(state, ENV, MemoryCategory.FORBIDDEN_ACTION, f"Never touch legacy file {i}")
    for i in range(30):
        state, _ = lifecycle.memory_add(state, ENV, MemoryCategory.CODE_PATTERN, f"Use the repository pattern {i}")
    return state


def test_the_agents_report_fits_every_budget_with_the_important_part_first() -> None:
    state = big_workflow()
    full = report.render(state, "en", "a" * 40)
    assert len(full) > 6000  # the human report of this state is long
    text = report.for_agent(state, "en", report.Observed("moved", 131, None))
    assert len(text.split()) <= report.AGENT_MAX_WORDS and len(text.encode()) <= report.AGENT_MAX_BYTES
    assert len(text) < 10_000 and not text.lstrip().startswith("{")
    order = [
        "**Workflow**: vibe-code",
        "**Current task**: T-007",
        "**Next step**: Continue T-007",
        "`src/billing.py:120` · the line is now at 131 · rates table",
        "🚫 **Never**: Never touch legacy file 0",
        "🚫 **Never**: Never touch legacy file 14",
        "Record progress:",
        "### 🧠 Remembered rules",  # the rules before the kanban, each counted where they stop
        "more remembered rules: `vibegit memory list`",
        "### Tasks",
    ]
    at = [text.index(part) for part in order]
    assert at == sorted(at)
    more = [line for line in text.splitlines() if line.startswith("+ ") and "vibegit task list" in line]
    assert len(more) == 1 and int(more[0].split()[1]) > 0  # the rest of the kanban, counted
    fewer = report.for_agent(big_workflow(rules=2), "en")
    assert fewer.index("Use the repository pattern 29") < fewer.index("- 🔄 T-007") < fewer.index("vibegit task list")
    zh = report.for_agent(state, "zh")
    assert len(zh.encode()) <= report.AGENT_MAX_BYTES and "寸止" in zh


def test_the_agents_report_holds_its_budget_for_huge_values_and_says_where_it_runs() -> None:
    state = big_workflow(tasks=3, rules=0)
    state = replace(
        state,
        context=replace(
            state.context,
            next_action="x " * 5000,
            pending_questions=tuple(Question(n, "q " * 900) for n in range(1, 10)),
        ),
    )
    text = report.for_agent(state, "en", elsewhere="desktop:/home/u/app (locked at 2025-01-12T10:00:00Z)")
    assert report.fits(text) and text.splitlines()[2].startswith("⚠️ This workflow runs elsewhere: desktop:/home/u/app")
    assert "**Next step**" in text
    assert "Record progress" not in text and "--answer" not in text  # "must not work on it": no how-to record


def test_the_short_report_leaves_the_how_to_to_the_mcp_tools() -> None:
    state = big_workflow(tasks=12, rules=2)
    short = report.for_agent(state, "en", short=True)
    assert "**Next step**: Continue T-007" in short and "🚫 **Never**: Never touch legacy file 1" in short
    assert "`vibegit task start" not in short and "### Tasks" not in short and "MCP server's tools" in short
    assert len(short.split()) < len(report.for_agent(state, "en").split()) / 2


def test_stop_decisions() -> None:
    from vibegit.core import agentturn

    running = workflow()
    claude = agentturn.payload("claude", {"stop_hook_active": False})
    assert "Keep going" in (agentturn.stop_decision(running, claude, None) or "")
    assert agentturn.stop_decision(running, agentturn.payload("claude", {"stop_hook_active": True}), None) is None
    assert agentturn.stop_decision(running, agentturn.payload("claude", None), None) is None  # bad input
    assert agentturn.stop_decision(running, claude, "desktop:/w") is None  # runs elsewhere
    asked, _ = lifecycle.context(running, ENV, None, None, "JWT?", None)
    assert agentturn.stop_decision(asked, claude, None) is None  # waits for the user
    done, _ = lifecycle.task_done(running, ENV, "T-002")
    assert "ask them to confirm completion" in (agentturn.stop_decision(done, claude, None) or "")
    cursor = agentturn.payload("claude", {"cursor_version": "3.7.21", "loop_count": 0, "status": "completed"})
    assert cursor.agent == "cursor" and agentturn.stop_decision(running, cursor, None)
    for later in ({"loop_count": 1, "status": "completed"}, {"loop_count": 0, "status": "aborted"}):
        assert agentturn.stop_decision(running, agentturn.payload("cursor", later), None) is None
    assert agentturn.continue_output(cursor, "r") == '{"followup_message": "r"}'
    new_claude = agentturn.payload("claude", {"stop_hook_active": False, "prompt_id": "p1"})
    assert '"additionalContext": "r"' in agentturn.continue_output(new_claude, "r")
    codex = agentturn.payload("codex", {"stop_hook_active": False, "prompt_id": "p1"})
    assert agentturn.continue_output(codex, "r") == '{"decision": "block", "reason": "r"}'
