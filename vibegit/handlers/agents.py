"""The agents' hooks (SPEC §8b): ``vibegit hook session-start`` prints the
recovery report into the new session's context; ``vibegit hook stop`` keeps
the agent from ending its turn while this worktree's workflow runs.

They read the agent's JSON on stdin, import neither typer nor GitPython, and
never crash the agent: on any internal error they print nothing and exit 0
(the error goes to the log file).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from vibegit.core.text import bad_char, clean
from vibegit.errors import OK, VibegitError
from vibegit.infra.agentfiles import MAX_INPUT, MAX_SESSION_ID


def _log(where: str) -> None:
    """The traceback to the error log (best effort): the agent must never see a crash."""
    from vibegit.errors import log_unexpected

    log_unexpected(["hook", where])


def _agent_arg(argv: list[str]) -> str:
    for i, arg in enumerate(argv):
        if arg == "--agent" and i + 1 < len(argv):
            return argv[i + 1].lower()
        if arg.startswith("--agent="):
            return arg.split("=", 1)[1].lower()
    rest = [a for a in argv if not a.startswith("-")]
    return rest[0].lower() if rest else "claude"


def read_input() -> dict[str, Any]:
    """The agent's JSON on stdin; anything else counts as no input."""
    stdin = sys.stdin
    if stdin is None or stdin.isatty():
        return {}
    raw = stdin.buffer.read(MAX_INPUT) if hasattr(stdin, "buffer") else stdin.read(MAX_INPUT).encode()
    try:
        data = json.loads(raw.decode("utf-8", errors="replace") or "{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _workdir(data: dict[str, Any]) -> Path:
    candidates = [data.get("cwd")]
    roots = data.get("workspace_roots")  # Cursor sends the workspace, not a cwd
    if isinstance(roots, list) and roots:
        candidates.append(roots[0])
    for var in ("CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR"):
        candidates.append(os.environ.get(var))
    for c in candidates:
        if isinstance(c, str) and c and Path(c).is_dir():
            return Path(c)
    return Path.cwd()


def _load(data: dict[str, Any]) -> tuple[Any, Any, list[Any]] | None:
    """(context, state of this worktree's workflow, the others that run) in the
    repository the agent works in; None outside one, or with no workflow here."""
    from vibegit import app
    from vibegit.core import workflows
    from vibegit.errors import VibegitError
    from vibegit.infra import git, store

    try:
        h = app.enter(_workdir(data))
    except VibegitError:
        return None  # not a repository: nothing to say
    loaded = store.read_state(h.repo, h.settings)
    mine = workflows.bound_here(loaded.index, app.facts(h))
    if mine is None:
        return None
    state = store.flow(h.repo, git.reader(h.repo), loaded, mine.id).state
    return h, state, workflows.others(loaded.index, mine.id)


def _session_id(data: dict[str, Any]) -> str | None:
    value = data.get("session_id") or data.get("conversation_id")
    if not isinstance(value, str):
        return None
    value = value.strip()
    if not value or len(value) > MAX_SESSION_ID or bad_char(value) is not None:
        return None
    return value


def _record_session(h: Any, state: Any, data: dict[str, Any], agent: str) -> None:
    from vibegit import app
    from vibegit.core import lifecycle

    session_id = _session_id(data)
    if session_id is None:
        return
    source = clean(data["source"]) if isinstance(data.get("source"), str) else ""
    e = app.facts(h)
    try:  # notices go to stderr; stdout is the agent's context
        app.record(
            h,
            lambda s: lifecycle.agent_session(s, e, session_id, agent, str(source)[:20]),
            e,
            workflow=state.workflow.id,
            announce=False,
            run_hooks=False,
        )
    except lifecycle.Unchanged:
        return


def _report(h: Any, state: Any, others: list[Any]) -> str:
    from vibegit.core import report
    from vibegit.infra import git

    return report.render(state, h.settings.lang, git.head_commit(h.repo), None, others)


def session_start(argv: list[str]) -> int:
    """``vibegit hook session-start --agent NAME``: the report becomes the new session's context."""
    agent = _agent_arg(argv)
    text = ""
    try:
        data = read_input()
        found = _load(data)
        if found is not None:
            from vibegit.core.report import is_active

            h, state, others = found
            if is_active(state):
                text = _report(h, state, others).rstrip("\n")
                try:
                    _record_session(h, state, data, agent)
                except VibegitError:
                    pass  # refused by the rules (the workflow runs on another host): nothing to record here
                except Exception:
                    _log(f"session-start --agent {agent}: recording the session id")
    except Exception:
        _log(f"session-start --agent {agent}")
        text = ""
    _emit_context(agent, text)
    return OK


def _emit_context(agent: str, text: str) -> None:
    if agent == "gemini":  # stdout must be JSON
        out = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}} if text else {}
        print(json.dumps(out, ensure_ascii=False))
    elif agent == "cursor":
        print(json.dumps({"additional_context": text} if text else {}, ensure_ascii=False))
    elif text:  # Claude Code and Codex: plain stdout is context
        print(text)
    sys.stdout.flush()


def must_continue(h: Any, state: Any) -> bool:
    """Stop blocks only a running workflow held here that is not waiting for the user."""
    from vibegit.core.model import Status
    from vibegit.infra import machine

    if state.workflow.status is not Status.RUNNING:
        return False
    lock = state.lock
    if (
        lock is not None
        and lock.host
        and (lock.host, lock.worktree) != (machine.this_host(), machine.worktree_name(h.repo))
    ):
        return False  # the workflow runs elsewhere; this agent is not the one doing it
    return not state.context.pending_questions


def stop(argv: list[str]) -> int:
    """``vibegit hook stop --agent NAME``: the deterministic "never end without the user's confirmation"."""
    from vibegit.core.report import stop_reason

    agent = _agent_arg(argv)
    try:
        data = read_input()
        if data.get("stop_hook_active") in (True, "true"):
            return OK  # already continuing because of a stop hook: never loop
        found = _load(data)
        if found is None:
            return OK
        h, state, _ = found
        if must_continue(h, state):
            print(json.dumps({"decision": "block", "reason": stop_reason(state)}, ensure_ascii=False))
            sys.stdout.flush()
    except Exception:
        _log(f"stop --agent {agent}")
    return OK


# -- agent-instructions ---------------------------------------------------------
