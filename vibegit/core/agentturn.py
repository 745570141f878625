"""What the agents' hooks answer: whether Stop keeps the agent
going, and each agent's own output shape for context and for continuing.

Pure: the handler (``handlers/agents.py``) gathers the payload and the
state; the shapes are the agents' documented ones (Claude Code and Codex
hooks references, Gemini CLI hooks, Cursor hooks).
"""

from __future__ import annotations

import json
import re
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


def with_runner(text: str, runner: str | None) -> str:
    """``text`` saying how to run vibegit where it is not on the PATH (``runner``: the launcher)."""
    return text if runner is None else f"{text} (Run vibegit as `{clean(runner)}`: it is not on this PATH.)"


def continue_output(p: Payload, reason: str) -> str:
    """The JSON that makes ``p.agent`` go on with ``reason`` (made inert)."""
    reason = clean(reason, one_line=False)
    if p.agent == "cursor":
        out: dict[str, Any] = {"followup_message": reason}
    elif p.claude_context:
        out = {"hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": reason}}
    else:  # Codex, Gemini CLI (AfterAgent), older Claude Code
        out = {"decision": "block", "reason": reason}
    return json.dumps(out, ensure_ascii=False)


def let_stop_output(agent: str) -> str:
    """What lets ``agent`` end its turn: nothing, or an empty object where stdout is always JSON (Cursor, Gemini CLI)."""
    return "{}" if agent in ("cursor", "gemini") else ""


def context_output(agent: str, event: str, text: str) -> str:
    """The session's context in ``agent``'s shape ("" for nothing to say), made inert:
    the JSON's strings before it is made, its escapes would bring back what ``clean`` shows."""
    text = clean(text, one_line=False)
    if agent == "cursor":
        return json.dumps({"additional_context": text} if text else {}, ensure_ascii=False)
    if agent == "gemini":  # stdout must be JSON
        if not text:
            return "{}"
        return json.dumps(
            {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}, ensure_ascii=False
        )
    return text  # Claude Code and Codex: plain stdout is context (the report never starts with '{')


# -- the person's decisions in the agent's own permission prompt ----------------------

DECISIONS = ("complete", "abort", "unlock")
APPROVAL_SECONDS = 600  # from the hook's question to the command it let run
# Claude Code's permission modes in which a person answers "ask" (the others
# hand it to a classifier, deny it, or skip it); a payload without the field
# comes from a version before those modes.
ASKED_MODES = ("default", "acceptEdits", "plan")
# The agents whose permission prompt counts as the person's answer: Claude
# Code (its payload names the permission mode: ASKED_MODES) and Gemini CLI
# (a hook's "ask" forces its confirmation whatever the approval mode, YOLO
# included: scheduler.ts, forcedDecision "ask_user"; headless, it is a no).
# Cursor's "ask" is not shown in its Auto-review run mode (the command just
# runs: Cursor forum topic 173694, Cursor 3.21) and its hook cannot tell the
# mode: there the hook denies, and the person decides in their terminal or
# in the MCP question.
PROMPT_CONFIRMS = ("claude", "gemini")
# Where the command's environment names the agent's session, to bind an approval to it.
SESSION_VARS = {"claude": "CLAUDE_CODE_SESSION_ID"}
_VIBEGIT = re.compile(r"(?<![\w-])vibegit(?![\w-])")
_DECISION = re.compile(r"(?<![\w-])(complete|abort|unlock)(?![\w-])")
_WORKFLOW = re.compile(r"(?<![\w-])(?:--workflow|-w)(?:=|\s+)([\"']?)([^\s\"';&|)]+)\1")


@frozen
class ShellCall:
    """What matters of a hook payload sent before a shell command."""

    agent: str
    command: str
    session: str  # "" when the payload names none
    mode: str  # Claude Code's permission mode ("" when not sent)


def shell_call(agent: str, data: Any) -> ShellCall | None:
    """The shell command in a pre-tool payload (Claude Code PreToolUse on Bash,
    Gemini CLI BeforeTool on run_shell_command, Cursor beforeShellExecution);
    None for anything else."""
    if not isinstance(data, dict):
        return None
    if "cursor_version" in data or data.get("hook_event_name") == "beforeShellExecution":
        agent = "cursor"
        command = data.get("command")
    else:
        tool_input = data.get("tool_input")
        command = tool_input.get("command") if isinstance(tool_input, dict) else None
    if not isinstance(command, str):
        return None
    session = data.get("session_id") or data.get("conversation_id")
    mode = data.get("permission_mode")
    return ShellCall(agent, command, session if isinstance(session, str) else "", mode if isinstance(mode, str) else "")


def decision_in(command: str) -> tuple[str, str | None] | None:
    """(decision, --workflow) when a shell command may run ``vibegit complete|abort|unlock``
    in any form (a path to vibegit, ``python -m vibegit``, behind ``env`` or
    ``;``): both words anywhere in it is enough, a false alarm costs a question."""
    if not _VIBEGIT.search(command):
        return None
    found = _DECISION.search(command, _VIBEGIT.search(command).end()) or _DECISION.search(command)  # type: ignore[union-attr]
    if found is None:
        return None
    workflow = _WORKFLOW.search(command)
    return found.group(1), workflow.group(2) if workflow else None


def approval_holds(token: Any, agent: str, verb: str, workflow: str, session: str, now: float) -> bool:
    """Whether an approval the hook left lets ``verb`` run for ``workflow`` now:
    the same agent, decision and workflow, the same session where both name
    one, and not older than ``APPROVAL_SECONDS``."""
    if not isinstance(token, dict):
        return False
    created = token.get("created")
    if not isinstance(created, (int, float)) or isinstance(created, bool) or not 0 <= now - created <= APPROVAL_SECONDS:
        return False
    if (token.get("agent"), token.get("verb"), token.get("workflow")) != (agent, verb, workflow):
        return False
    theirs = token.get("session")
    return not (session and isinstance(theirs, str) and theirs and theirs != session)


def permission_output(agent: str, decision: str, reason: str, to_agent: str) -> str:
    """``decision`` (ask, deny) before a shell command, in ``agent``'s shape."""
    if agent == "cursor":
        out: dict[str, Any] = {"permission": decision, "user_message": reason, "agent_message": to_agent}
    elif agent == "gemini":
        out = {"decision": decision, "reason": to_agent, "systemMessage": reason}
    else:
        out = {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": decision,
                "permissionDecisionReason": reason if decision == "ask" else to_agent,
            }
        }
    return json.dumps(out, ensure_ascii=False)


def no_opinion(agent: str) -> str:
    """What leaves a shell command to the agent's own rules."""
    return "{}" if agent in ("cursor", "gemini") else ""
