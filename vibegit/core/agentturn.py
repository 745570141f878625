"""What the agents' hooks answer: whether Stop keeps the agent
going, and each agent's own output shape for context and for continuing.

Pure: the handler (``handlers/agents.py``) gathers the payload and the
state; the shapes are the agents' documented ones (Claude Code and Codex
hooks references, Gemini CLI hooks, Cursor hooks).
"""

from __future__ import annotations

import json
from typing import Any

from vibegit.core.model import State, Status
from vibegit.core.records import frozen
from vibegit.core.report import all_done, stop_reason
from vibegit.core.text import clean

CURSOR_LOOP_LIMIT = 1  # follow-ups vibegit itself asks of one Cursor conversation before letting it stop


@frozen
class Payload:
    """What matters of an agent's JSON on stdin."""

    agent: str  # the agent that really sent it (Cursor also runs Claude Code's hooks)
    valid: bool  # a JSON object was read
    looping: bool  # the agent already continues because of a stop hook
    claude_context: bool = False  # Claude Code new enough for Stop's non-error additionalContext
    stopped_by_user: bool = False  # Cursor: the loop ended aborted or in error


def payload(agent: str, data: Any) -> Payload:
    """The facts of a payload, whatever it holds (``data`` None: unparseable)."""
    if not isinstance(data, dict):
        return Payload(agent, False, True)
    if "cursor_version" in data or "loop_count" in data:
        agent = "cursor"
    if agent == "cursor":
        count = data.get("loop_count", 0)
        looping = not isinstance(count, int) or isinstance(count, bool) or count >= CURSOR_LOOP_LIMIT
        return Payload("cursor", True, looping, stopped_by_user=data.get("status") not in (None, "completed"))
    active = data.get("stop_hook_active", False)
    # prompt_id arrived in Claude Code 2.1.196, after Stop's additionalContext (2.1.163)
    return Payload(agent, True, active is not False, claude_context=agent == "claude" and "prompt_id" in data)


def confirm_reason(state: State) -> str:
    name = clean(state.mode.workflow_name or "")
    return (
        f"vibegit: every task of workflow '{name}' is done; only the user's confirmation is left. "
        "Show the user what was done and ask them to confirm completion, then end your turn: they run "
        "`vibegit complete` in their own terminal, or answer the question of the vibegit MCP server's `complete` "
        "tool. You cannot confirm for them (`--yes` and piped answers are refused where an agent runs vibegit)."
    )


def stop_decision(state: State, p: Payload, elsewhere: str | None) -> str | None:
    """Why the agent may not stop yet (what to tell it), or None to let it stop.

    Never for bad input or inside the agent's own loop guard, never for a
    workflow that is not running, runs elsewhere or waits for the user's
    answer; when every task is done, it asks for the user's confirmation."""
    if not p.valid or p.looping or p.stopped_by_user:
        return None
    if state.workflow.status is not Status.RUNNING or elsewhere is not None:
        return None
    if state.context.pending_questions:
        return None
    if all_done(state):
        return confirm_reason(state)
    return stop_reason(state)


def continue_output(p: Payload, reason: str) -> str:
    """The JSON that makes ``p.agent`` go on with ``reason``."""
    if p.agent == "cursor":
        out: dict[str, Any] = {"followup_message": reason}
    elif p.claude_context:
        out = {"hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": reason}}
    else:  # Codex, Gemini CLI (AfterAgent), older Claude Code
        out = {"decision": "block", "reason": reason}
    return json.dumps(out, ensure_ascii=False)


def let_stop_output(agent: str) -> str:
    """What lets ``agent`` end its turn: nothing, or Cursor's empty object."""
    return "{}" if agent == "cursor" else ""


def context_output(agent: str, event: str, text: str) -> str:
    """The session's context in ``agent``'s shape ("" for nothing to say)."""
    if agent == "cursor":
        return json.dumps({"additional_context": text} if text else {}, ensure_ascii=False)
    if agent == "gemini":  # stdout must be JSON
        if not text:
            return "{}"
        return json.dumps(
            {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}, ensure_ascii=False
        )
    return text  # Claude Code and Codex: plain stdout is context (the report never starts with '{')
