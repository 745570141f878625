"""The agents' hooks: ``vibegit hook session-start`` prints the
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
from typing import Any, NamedTuple

from vibegit.core.text import bad_char, clean
from vibegit.errors import OK, VibegitError

MAX_INPUT = 1 << 20  # an agent's payload, at most (a transcript is never sent inline)
MAX_SESSION_ID = 200


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


def read_input() -> Any:
    """The agent's JSON on stdin; None when there is none (a terminal, empty
    input) or it is not JSON: no agent sent it, so no hook acts on it."""
    stdin = sys.stdin
    if stdin is None or stdin.isatty():
        return None
    raw = stdin.buffer.read(MAX_INPUT) if hasattr(stdin, "buffer") else stdin.read(MAX_INPUT).encode()
    try:
        return json.loads(raw.decode("utf-8", errors="replace")) if raw.strip() else None
    except ValueError:
        return None


def _workdir(data: Any) -> str:
    data = data if isinstance(data, dict) else {}
    candidates = [data.get("cwd")]
    roots = data.get("workspace_roots")  # Cursor sends the workspace, not a cwd
    if isinstance(roots, list) and roots:
        candidates.append(roots[0])
    for var in ("CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR"):
        candidates.append(os.environ.get(var))
    for c in candidates:
        if isinstance(c, str) and c and os.path.isdir(c):
            return c
    return os.getcwd()


class Found(NamedTuple):
    ctx: Any  # app.Context
    state: Any  # this worktree's workflow
    others: list[Any]
    elsewhere: str | None  # where the workflow runs when not here (another host or worktree)


def _load(data: Any) -> Found | None:
    """This worktree's active workflow in the repository the agent works in,
    and whether it runs here; None outside one, or with no workflow here."""
    from vibegit import app
    from vibegit.core import report, workflows
    from vibegit.infra import git, store

    try:
        h = app.enter(_workdir(data))
    except VibegitError:
        return None  # not a repository: nothing to say
    loaded = store.read_state(h.repo, h.settings)
    e = app.facts(h)
    mine = workflows.bound_here(loaded.index, e)
    if mine is None:
        return None
    state = store.flow(h.repo, git.reader(h.repo), loaded, mine.id).state
    if not report.is_active(state):
        return None
    return Found(h, state, workflows.others(loaded.index, mine.id), _elsewhere(h, state, e))


def _elsewhere(h: Any, state: Any, e: Any) -> str | None:
    """The same guard as events: taken over in another clone (here or in a
    fetched copy), or held by another worktree; None when this worktree holds it."""
    from vibegit.core import lifecycle
    from vibegit.infra import remote

    lock = state.lock
    if lock is not None and lock.elsewhere(e):
        return f"{lock.holder} (locked at {lock.locked_at})"
    try:
        locks = remote.remote_locks(h.repo, h.settings, e, state.workflow.id, h.config)
    except VibegitError:
        locks = []
    why = lifecycle.taken_over(state, e, locks)
    if why is None:
        return None
    newest = next((r.lock for r in locks if r.lock.elsewhere(e, clone_only=True)), None)
    return f"{newest.holder} (locked at {newest.locked_at})" if newest else why


def _session_id(data: dict[str, Any]) -> str | None:
    value = data.get("session_id") or data.get("conversation_id")
    if not isinstance(value, str):
        return None
    value = value.strip()
    if not value or len(value) > MAX_SESSION_ID or bad_char(value) is not None:
        return None
    return value


def _record_session(found: Found, data: dict[str, Any], agent: str) -> None:
    from vibegit import app
    from vibegit.core import lifecycle

    session_id = _session_id(data)
    if session_id is None:
        return
    source = clean(data["source"]) if isinstance(data.get("source"), str) else ""
    e = app.facts(found.ctx)
    try:  # notices go to stderr; stdout is the agent's context
        app.record(
            found.ctx,
            lambda s: lifecycle.agent_session(s, e, session_id, agent, str(source)[:20]),
            e,
            workflow=found.state.workflow.id,
            announce=False,
            run_hooks=False,
        )
    except lifecycle.Unchanged:
        return


def _cursor_runs_its_own(argv: list[str], agent: str, data: Any) -> bool:
    """Cursor also runs Claude Code's hooks: where it has vibegit's own, Claude
    Code's stay silent for it (one report a session, one question a command)."""
    if agent != "cursor" or _agent_arg(argv) == "cursor" or not isinstance(data, dict):
        return False
    from vibegit import app
    from vibegit.infra import agentfiles

    try:
        return agentfiles.has_own_hooks(app.enter(_workdir(data)).repo, "cursor")
    except VibegitError:
        return False


def _runner(found: Found) -> str | None:
    """The launcher to name where ``vibegit`` is not on the agent's PATH (a desktop app's); None where it is."""
    from vibegit.core.agents import LAUNCHER_REL
    from vibegit.infra import fs

    path = os.environ.get("PATH", "")
    if any(os.access(os.path.join(d or ".", "vibegit"), os.X_OK) for d in path.split(os.pathsep)):
        return None
    if fs.lstat(found.ctx.repo.common_dir, LAUNCHER_REL) is None:
        return None
    return os.path.join(found.ctx.repo.common_dir, LAUNCHER_REL)


def _report(found: Found, short: bool = False) -> str:
    from vibegit.core import report
    from vibegit.infra import snapshot

    try:
        observed = snapshot.observe(found.ctx.repo, found.state, compare=False)  # the line as it stands now
    except Exception:
        observed = None
    lang = found.ctx.settings.lang
    text = report.for_agent(found.state, lang, observed, found.others, found.elsewhere, short, _runner(found))
    return text.rstrip("\n")


def _emit(text: str) -> None:
    if text:
        print(text)
    sys.stdout.flush()


def session_start(argv: list[str]) -> int:
    """``vibegit hook session-start --agent NAME [--mcp]``: the report becomes
    the new session's context; with ``--mcp`` (the MCP server is installed:
    its tools carry the how-to) the short one, except after a compaction. A
    session on a machine or worktree that does not hold the workflow records
    nothing and is told where it runs."""
    from vibegit.core import agentturn

    agent = _agent_arg(argv)
    text = ""
    try:
        data = read_input()
        agent = agentturn.payload(agent, data).agent
        found = _load(data) if data is not None and not _cursor_runs_its_own(argv, agent, data) else None
        if found is not None:
            text = _report(found, short="--mcp" in argv and data.get("source") != "compact")
            if found.elsewhere is None:
                try:
                    _record_session(found, data, agent)
                except VibegitError:
                    pass  # refused by the rules (taken over meanwhile): nothing to record here
                except Exception:
                    _log(f"session-start --agent {agent}: recording the session id")
    except Exception:
        _log(f"session-start --agent {agent}")
        text = ""
    _emit(agentturn.context_output(agent, "SessionStart", text))
    return OK


def stop(argv: list[str]) -> int:
    """``vibegit hook stop --agent NAME`` (Claude Code and Codex Stop, Gemini
    CLI AfterAgent, Cursor stop): "never end without the user's confirmation",
    for the session that drives this worktree's workflow only."""
    from vibegit.core import agentturn

    agent = _agent_arg(argv)
    out = ""
    try:
        data = read_input()
        p = agentturn.payload(agent, data)
        agent = p.agent
        quiet = not p.valid or p.looping or _cursor_runs_its_own(argv, agent, data)  # bad input, the loop guard
        found = None if quiet else _load(data)
        if found is not None:
            from vibegit.infra import approvals

            approvals.clear(found.ctx.repo, agent)  # the turn ends: what the person allowed has run
        reason = agentturn.stop_decision(found.state, p, found.elsewhere) if found is not None else None
        if reason is not None and found is not None:
            reason = agentturn.with_runner(reason, _runner(found))
        if reason is not None:
            out = agentturn.continue_output(p, reason)
    except Exception:
        _log(f"stop --agent {agent}")
        out = ""
    _emit(out or agentturn.let_stop_output(agent))
    return OK


def pre_compact(argv: list[str]) -> int:
    """``vibegit hook pre-compact`` (Gemini CLI PreCompress): the context is about
    to be compacted; the next prompt gets the report again (``prompt``)."""
    agent = _agent_arg(argv)
    try:
        data = read_input()
        found = _load(data) if data is not None else None
        if found is not None:
            from vibegit.infra import fs

            fs.write(found.ctx.repo.git_dir, f"vibegit/compacted-{agent}", b"")
    except Exception:
        _log(f"pre-compact --agent {agent}")
    _emit("{}")
    return OK


def _take_marker(data: Any, agent: str) -> bool:
    """Whether pre-compact left its marker here (it goes)."""
    from vibegit import app
    from vibegit.infra import fs

    try:
        git_dir = app.enter(_workdir(data)).repo.git_dir
    except VibegitError:
        return False
    return fs.lstat(git_dir, f"vibegit/compacted-{agent}") is not None and fs.remove(
        git_dir, f"vibegit/compacted-{agent}"
    )


def prompt(argv: list[str]) -> int:
    """``vibegit hook prompt`` (Gemini CLI BeforeAgent): after a compaction, the
    report once more, since Gemini starts no session then."""
    from vibegit.core import agentturn

    agent = _agent_arg(argv)
    text = ""
    try:
        data = read_input()
        if data is not None and _take_marker(data, agent):  # every prompt: the state is read only after a compression
            found = _load(data)
            text = _report(found) if found is not None else ""
    except Exception:
        _log(f"prompt --agent {agent}")
        text = ""
    _emit(agentturn.context_output(agent, "BeforeAgent", text))
    return OK


def pre_tool(argv: list[str]) -> int:
    """``vibegit hook pre-tool --agent NAME`` (Claude Code PreToolUse on Bash,
    Gemini CLI BeforeTool on run_shell_command, Cursor beforeShellExecution):
    before a shell command that may run ``vibegit complete|abort|unlock``, the
    agent asks the person, and the approval it leaves lets that one command
    record "confirmed in <agent>'s permission prompt". Where the agent would
    not ask a person (Claude Code's auto, dontAsk and bypassPermissions
    modes), or cannot tell a hook whether it will (Cursor, Gemini CLI:
    ``agentturn.PROMPT_CONFIRMS``), the command is refused with how the
    user decides instead."""
    from vibegit.core import agentturn

    agent = _agent_arg(argv)
    out = ""
    try:
        data = read_input()
        call = agentturn.shell_call(agent, data)
        agent = call.agent if call is not None else agent
        decision = agentturn.decision_in(call.command) if call is not None else None
        if decision is not None and _cursor_runs_its_own(argv, agent, data):
            decision = None
        if call is not None and decision is not None:
            out = _ask_person(call, decision, data)
    except Exception:
        _log(f"pre-tool --agent {agent}")
        out = ""
    _emit(out or agentturn.no_opinion(agent))
    return OK


def _ask_person(call: Any, decision: tuple[str, str | None], data: Any) -> str:
    """The agent's question to the person (and the approval it leaves), or a refusal; "" to stay out of it."""
    import time

    from vibegit import app
    from vibegit.core import agentturn, workflows
    from vibegit.core.agents import SPECS
    from vibegit.core.messages import t
    from vibegit.infra import approvals, store

    verb, given = decision
    try:
        h = app.enter(_workdir(data))
        e = app.facts(h)
        target = workflows.choose(store.read_state(h.repo, h.settings).index, e, given)
    except VibegitError:
        return ""  # no repository, no such workflow: the command itself says so
    if target is None or not target.active:
        return ""
    label, name = SPECS[call.agent].label, clean(target.name)
    command = f"vibegit {verb} --workflow {target.id}"
    if call.agent not in agentturn.PROMPT_CONFIRMS:
        why = t("approval.not_in_prompt", label=label, command=command)
        return agentturn.permission_output(call.agent, "deny", why, why)
    if call.mode and call.mode not in agentturn.ASKED_MODES:
        why = t("approval.nobody_asked", mode=clean(call.mode)[:30], command=command)
        return agentturn.permission_output(call.agent, "deny", why, why)
    approvals.leave(h.repo, call.agent, verb, target.id, call.session, time.time())
    question = t(f"approval.ask_{verb}", name=name, label=label)
    return agentturn.permission_output(call.agent, "ask", question, t("approval.asked", label=label))


# -- agent-instructions ---------------------------------------------------------
