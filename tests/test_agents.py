"""Agent session hooks: the settings files each agent reads, and the JSON each
agent really sends on stdin to the installed command.

The fixtures are the documented payloads: Claude Code's hooks reference
(SessionStart, Stop), Codex's generated schemas (codex-rs/hooks/schema),
Cursor's hooks docs (sessionStart), Gemini CLI's hooks reference.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import (
    VG,
    Machines,
    another_clone,
    clone,
    git,
    remote_with_laptop,
    start_workflow,
    subjects,
    vg_proc,
)
from vibegit.core import agents, agentturn, jsonc


def claude_session_start(cwd: Path, source: str = "startup") -> dict[str, Any]:
    return {
        "session_id": "5f1c3a2e-8d4b-4e9a-9c1f-2b7d6e0a4c3b",
        "transcript_path": "/home/u/.claude/projects/-repo/5f1c3a2e-8d4b-4e9a-9c1f-2b7d6e0a4c3b.jsonl",
        "cwd": str(cwd),
        "hook_event_name": "SessionStart",
        "source": source,
        "model": "claude-sonnet-4-5-20250929",
    }


def claude_stop(cwd: Path, active: bool = False) -> dict[str, Any]:
    return {
        "session_id": "5f1c3a2e-8d4b-4e9a-9c1f-2b7d6e0a4c3b",
        "transcript_path": "/home/u/.claude/projects/-repo/5f1c3a2e-8d4b-4e9a-9c1f-2b7d6e0a4c3b.jsonl",
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": "Stop",
        "stop_hook_active": active,
        "last_assistant_message": "I've finished the data model. Here's a summary...",
    }


def codex_session_start(cwd: Path, source: str = "startup") -> dict[str, Any]:
    return {
        "session_id": "019a3c5e-7b21-7d40-9e8f-0c1d2e3f4a5b",
        "transcript_path": "/home/u/.codex/sessions/2025/11/29/rollout-2025-11-29T10-00-00-019a3c5e.jsonl",
        "cwd": str(cwd),
        "hook_event_name": "SessionStart",
        "model": "gpt-5.1-codex",
        "permission_mode": "default",
        "source": source,
    }


def codex_stop(cwd: Path, active: bool = False) -> dict[str, Any]:
    return {
        "session_id": "019a3c5e-7b21-7d40-9e8f-0c1d2e3f4a5b",
        "turn_id": "7",
        "transcript_path": None,
        "cwd": str(cwd),
        "hook_event_name": "Stop",
        "model": "gpt-5.1-codex",
        "permission_mode": "default",
        "stop_hook_active": active,
        "last_assistant_message": "Done.",
    }


def cursor_session_start(cwd: Path) -> dict[str, Any]:
    return {  # Cursor sends the workspace roots, no cwd
        "conversation_id": "c3f1d9b2-55aa-4b8e-9d0c-7e6f5a4b3c2d",
        "generation_id": "a1b2c3d4-0000-4000-8000-123456789abc",
        "model": "claude-4.5-sonnet",
        "hook_event_name": "sessionStart",
        "cursor_version": "2.0.77",
        "workspace_roots": [str(cwd)],
        "user_email": None,
        "transcript_path": None,
        "session_id": "c3f1d9b2-55aa-4b8e-9d0c-7e6f5a4b3c2d",
        "is_background_agent": False,
        "composer_mode": "agent",
    }


def gemini_session_start(cwd: Path, source: str = "startup") -> dict[str, Any]:
    return {
        "session_id": "8e0b6a44-1c2d-4e3f-a5b6-c7d8e9f0a1b2",
        "transcript_path": "/home/u/.gemini/tmp/abc/chats/session-2025-11-29T10-00-8e0b6a44.json",
        "cwd": str(cwd),
        "hook_event_name": "SessionStart",
        "timestamp": "2025-11-29T10:00:00.000Z",
        "source": source,
    }


def cursor_stop(cwd: Path, loop_count: int = 0, status: str = "completed") -> dict[str, Any]:
    return {
        "conversation_id": "c3f1d9b2-55aa-4b8e-9d0c-7e6f5a4b3c2d",
        "generation_id": "g-7",
        "model": "claude-4.5-sonnet",
        "hook_event_name": "stop",
        "cursor_version": "3.7.21",
        "workspace_roots": [str(cwd)],
        "user_email": None,
        "transcript_path": None,
        "status": status,
        "loop_count": loop_count,
    }


def gemini_event(cwd: Path, event: str, **extra: Any) -> dict[str, Any]:
    return {
        "session_id": "8e0b6a44-1c2d-4e3f-a5b6-c7d8e9f0a1b2",
        "transcript_path": "/home/u/.gemini/tmp/abc/chats/session-2025-11-29T10-00-8e0b6a44.json",
        "cwd": str(cwd),
        "hook_event_name": event,
        "timestamp": "2025-11-29T10:00:00.000Z",
        **extra,
    }


def gemini_after_agent(cwd: Path, active: bool = False) -> dict[str, Any]:
    return gemini_event(cwd, "AfterAgent", prompt="go on", prompt_response="Done.", stop_hook_active=active)


STOP: dict[str, tuple[str, Callable[[Path], dict[str, Any]]]] = {  # agent -> (its event, its payload)
    "claude": ("Stop", claude_stop),
    "codex": ("Stop", codex_stop),
    "cursor": ("stop", cursor_stop),
    "gemini": ("AfterAgent", gemini_after_agent),
}


def continued(agent: str, out: str) -> str | None:
    """The text that makes the agent go on, from the hook's stdout; None when it may stop."""
    if not out.strip():
        return None
    data = json.loads(out)
    if agent == "cursor":
        return data.get("followup_message")
    if "hookSpecificOutput" in data:
        return str(data["hookSpecificOutput"]["additionalContext"])
    if not data:
        return None  # Gemini CLI's "{}"
    assert data["decision"] == "block"
    return str(data["reason"])


SESSION_START = {
    "claude": claude_session_start,
    "codex": codex_session_start,
    "cursor": lambda cwd, source="startup": cursor_session_start(cwd),
    "gemini": gemini_session_start,
}

EXISTING_CLAUDE_SETTINGS = """{
    "permissions": {
        "allow": ["Bash(npm run test:*)", "Read(~/.zshrc)"],
        "deny": ["Read(./.env)"]
    },
    "hooks": {
        "PostToolUse": [
            {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "npx prettier --write ."}]}
        ],
        "SessionStart": [
            {"matcher": "startup", "hooks": [{"type": "command", "command": "echo hello"}]}
        ]
    },
    "model": "opus"
}
"""


@pytest.fixture(autouse=True)
def in_repo(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo)  # install/uninstall work on the repository around the cwd


def installed_command(repo: Path, agent: str, event: str, scope: str = "project") -> str:
    spec = agents.SPECS[agent]
    data = jsonc.parse((repo / spec.settings[scope]).read_text(), comments=spec.comments).value
    for group in data["hooks"][event]:
        for handler in group.get("hooks", [group]):
            if agents.ours(handler):
                return str(handler["command"])
    raise AssertionError(f"no vibegit {event} hook for {agent}")


MINIMAL_PATH = "/usr/bin:/bin"  # what an agent started from a desktop launcher gives its hooks: no venv


def run_installed(
    repo: Path, command: str, payload: dict[str, Any] | str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """What the agent does: the settings' command, through ``sh -c``, JSON on
    stdin, with a minimal PATH (vibegit's venv is not on it)."""
    return subprocess.run(
        ["sh", "-c", command],
        cwd=repo,
        input=payload if isinstance(payload, str) else json.dumps(payload),
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": MINIMAL_PATH, **(env or {})},
        timeout=60,
    )


def agent_hooks(vg: VG, command: str, names: list[str], say: Callable[[str], object]) -> int:
    """``vibegit install|uninstall --agent NAME…`` as a user runs it; its lines go to ``say``."""
    result = vg(command, *[arg for name in names for arg in ("--agent", name)])
    for line in (result.out + result.err).splitlines():
        say(line)
    return result.code


def running(vg: VG) -> None:
    start_workflow(vg, then=(("task", "start", "T-001"), ("task", "done", "T-001"), ("task", "start", "T-002")))


# -- settings files -------------------------------------------------------------

# Realistic files each agent's docs show, none with a "hooks" key (the common case).
REALISTIC = {
    ".claude/settings.json": """{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {
    "allow": ["Bash(npm run lint)", "Bash(npm run test *)"],
    "deny": ["Read(./.env)", "Read(./.env.*)"]
  }
}
""",
    ".codex/hooks.json": "{}\n",
    ".codex/config.toml": """model = "gpt-5.4"
approval_policy = "on-request"
sandbox_mode = "workspace-write"
""",
    ".cursor/hooks.json": '{"version": 1}\n',
    ".gemini/settings.json": """// Gemini .gemini/settings.json; comments are legal
{
  // editor preferences
  "general": { "vimMode": true, "preferredEditor": "code" },
  "ui": { "theme": "GitHub", "hideBanner": true, "hideTips": false }
}
""",
    "AGENTS.md": "# Agents\n\nRun `make test` before you push.\n",
}
ALL = ["claude", "codex", "cursor", "gemini"]


def write_realistic(repo: Path) -> None:
    for rel, text in REALISTIC.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "agents' settings")


def test_install_into_realistic_files_of_all_four_agents_and_back(repo: Path, vg: VG) -> None:
    write_realistic(repo)
    args = [arg for name in ALL for arg in ("--agent", name)]
    result = vg("install", *args, "--mcp")
    assert result.code == 0, result.err
    for agent in ALL:  # every agent got its hooks, although no file had "hooks"
        spec = agents.SPECS[agent]
        data = jsonc.parse((repo / spec.settings["project"]).read_text(), comments=spec.comments).value
        assert set(data["hooks"]) == {h.event for h in spec.hooks}, agent
    gemini = (repo / ".gemini/settings.json").read_text()
    assert "// editor preferences" in gemini and gemini.startswith("// Gemini")  # comments kept
    assert json.loads((repo / ".claude/settings.json").read_text())["permissions"]["deny"] == [
        "Read(./.env)",
        "Read(./.env.*)",
    ]
    claude = json.loads((repo / ".claude/settings.json").read_text())["hooks"]
    assert claude["SessionStart"][0]["matcher"] == "startup|resume|clear|compact|fork"
    cursor_hooks = set(json.loads((repo / ".cursor/hooks.json").read_text())["hooks"])
    assert cursor_hooks == {"sessionStart", "stop", "beforeShellExecution"}
    assert set(jsonc.parse(gemini, comments=True).value["hooks"]) >= {"SessionStart", "AfterAgent"}
    # the seed's commands, in each agent's own form
    assert "disable-model-invocation: true" in (repo / ".claude/commands/vibe-abort.md").read_text()
    assert 'prompt = """' in (repo / ".gemini/commands/vibe-pause.toml").read_text()
    assert (repo / ".cursor/commands/vibe-state.md").read_text().count("vibegit status") == 1
    names = {p.stem for p in (repo / ".claude/commands").iterdir()}
    seeds = {"vibe-pause", "vibe-resume", "vibe-state", "vibe-checkpoint", "vibe-code", "vibe-start"}
    assert names == seeds | {"vibe-abort", "vibe-unlock"}
    assert {p.parent.name for p in (repo / ".agents/skills").glob("*/SKILL.md")} == seeds  # Codex: $vibe-code GOAL
    code = (repo / ".claude/commands/vibe-code.md").read_text()
    assert "argument-hint: GOAL" in code and "Bash(vibegit start *)" in code and "complete" not in code.split("---")[1]
    agents_md = (repo / "AGENTS.md").read_text()
    assert agents_md.startswith(REALISTIC["AGENTS.md"]) and agents.BEGIN in agents_md and agents.END in agents_md
    for mcp in (".mcp.json", ".cursor/mcp.json"):
        assert agents.is_our_server(json.loads((repo / mcp).read_text())["mcpServers"]["vibegit"])
    assert "[mcp_servers.vibegit]" in (repo / ".codex/config.toml").read_text()
    launcher = repo / ".git" / agents.LAUNCHER_REL
    assert os.access(launcher, os.X_OK) and agents.launcher_python(launcher.read_text()) == sys.executable
    assert max(len(installed_command(repo, a, h.event)) for a in ALL for h in agents.SPECS[a].hooks) < 250

    again = vg("install", *args, "--mcp")
    assert again.code == 0 and all("already installed" in line for line in again.out.splitlines()[:4])
    check = vg("install", "--check", "--mcp")
    assert check.code == 0 and "Gemini CLI (project): hooks in .gemini/settings.json: SessionStart current" in check.out

    assert vg("uninstall", *args).code == 0
    for rel, text in REALISTIC.items():
        assert (repo / rel).read_text() == text, rel  # byte for byte
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""  # every file vibegit made is gone
    assert not launcher.exists() and not launcher.parent.exists()


def test_install_keeps_other_settings_and_uninstall_restores_the_file(repo: Path, vg: VG) -> None:
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(EXISTING_CLAUDE_SETTINGS)
    lines: list[str] = []
    assert agent_hooks(vg, "install", ["claude"], lines.append) == 0
    data = json.loads(settings.read_text())
    assert data["permissions"] == json.loads(EXISTING_CLAUDE_SETTINGS)["permissions"]
    assert data["hooks"]["PostToolUse"] == json.loads(EXISTING_CLAUDE_SETTINGS)["hooks"]["PostToolUse"]
    starts = data["hooks"]["SessionStart"]
    assert starts[0]["hooks"][0]["command"] == "echo hello" and len(starts) == 2
    assert agents.ours(starts[1]["hooks"][0]) == ("session-start", "claude")
    assert settings.read_text().startswith('{\n    "permissions"')  # the file's own indent

    before = settings.read_bytes()
    lines.clear()
    assert agent_hooks(vg, "install", ["claude"], lines.append) == 0  # recognised as ours: nothing doubled
    assert settings.read_bytes() == before
    assert "already installed" in lines[0]

    assert agent_hooks(vg, "uninstall", ["claude"], lines.append) == 0
    assert settings.read_text() == EXISTING_CLAUDE_SETTINGS


def test_uninstall_removes_only_vibegits_exact_entries(repo: Path, vg: VG) -> None:
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(EXISTING_CLAUDE_SETTINGS)
    agent_hooks(vg, "install", ["claude"], lambda _: None)
    data = json.loads(settings.read_text())
    data["env"] = {"FOO": "1"}  # the user (or Claude Code) changed the file meanwhile
    mine = {"type": "command", "command": "vibegit status --brief; echo vibegit hook stop --agent claude"}
    data["hooks"]["Stop"][0]["hooks"].append(mine)  # merely mentions vibegit: the user's
    settings.write_text(json.dumps(data, indent=2))
    agent_hooks(vg, "uninstall", ["claude"], lambda _: None)
    after = json.loads(settings.read_text())
    expected = json.loads(EXISTING_CLAUDE_SETTINGS)
    expected["env"] = {"FOO": "1"}
    expected["hooks"]["Stop"] = [{"hooks": [mine]}]
    assert after == expected


def test_scopes_check_and_links(repo: Path, vg: VG, tmp_path: Path) -> None:
    assert vg("install", "--agent", "claude", "--scope", "local").code == 0
    local = json.loads((repo / ".claude/settings.local.json").read_text())
    command = local["hooks"]["Stop"][0]["hooks"][0]["command"]
    assert command == agents.command(None, "hook", "stop", "--agent", "claude")  # the repository's launcher
    assert not (repo / ".claude/settings.json").exists() and "vibegit:begin" in (repo / "CLAUDE.local.md").read_text()
    assert vg("install", "--agent", "codex", "--scope", "local").code == 2  # Codex has no local scope
    home = Path(os.environ["HOME"])
    assert vg("install", "--agent", "gemini", "--scope", "user").code == 0
    handler = json.loads((home / ".gemini/settings.json").read_text())["hooks"]["AfterAgent"][0]["hooks"][0]
    user_launcher = Path(os.environ["XDG_STATE_HOME"]) / "vibegit/bin/vibegit"
    assert agents.ours(handler) and str(user_launcher) in handler["command"] and os.access(user_launcher, os.X_OK)
    assert vg("uninstall", "--agent", "gemini", "--scope", "user").code == 0
    assert not (home / ".gemini").exists() and not user_launcher.exists()

    assert vg("install", "--agent", "cursor").code == 0
    path = repo / ".cursor/hooks.json"
    data = json.loads(path.read_text())
    data["hooks"]["stop"][0]["timeout"] = 5  # edited by hand
    path.write_text(json.dumps(data))
    check = vg("install", "--check", "--agent", "cursor")
    assert check.code == 1 and "stop outdated" in check.out and "vibegit install --agent cursor" in check.out
    assert vg("install", "--check", "--agent", "codex").code == 1  # not installed

    outside = tmp_path / "elsewhere.json"
    outside.write_text("{}")
    (repo / ".codex").mkdir()
    (repo / ".codex/hooks.json").symlink_to(outside)
    linked = vg("install", "--agent", "codex")
    assert linked.code == 2 and "symbolic link" in linked.err and outside.read_text() == "{}"


def test_bad_settings_file_writes_nothing(repo: Path, vg: VG) -> None:
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_text('{\n  "hooks": {\n    "Stop": [,]\n  }\n}\n')
    bad = vg("install", "--agent", "codex", "--agent", "claude")
    assert bad.code == 2 and ".claude/settings.json:3:" in bad.err
    assert not (repo / ".codex").exists()  # checked before anything was written
    unknown = vg("install", "--agent", "vscode")
    assert unknown.code == 2 and "use one of claude, codex, cursor, gemini" in unknown.err
    (repo / ".claude" / "settings.json").write_text("[1, 2]")
    wrong = vg("install", "--agent", "claude")
    assert wrong.code == 2 and "expected a JSON object" in wrong.err
    (repo / ".claude" / "settings.json").write_text("// no comments here\n{}")
    assert vg("install", "--agent", "claude").code == 2  # Claude's settings are strict JSON


def test_the_hook_command_runs_with_a_minimal_path_and_is_silent_for_a_teammate(repo: Path, vg: VG) -> None:
    assert vg("install", "--agent", "claude").code == 0
    running(vg)
    command = installed_command(repo, "claude", "SessionStart")
    result = run_installed(repo, command, claude_session_start(repo))
    assert result.returncode == 0 and "vibe-code" in result.stdout, result.stderr  # no vibegit on PATH
    (repo / "lib").mkdir()
    stop = installed_command(repo, "claude", "Stop")
    deeper = subprocess.run(  # the agent's cwd in a subdirectory: the same launcher
        ["sh", "-c", stop], cwd=repo / "lib", input=json.dumps(claude_stop(repo)), capture_output=True, text=True
    )
    assert json.loads(deeper.stdout)["decision"] == "block", deeper.stderr
    launcher = repo / ".git" / agents.LAUNCHER_REL
    text = launcher.read_text()
    launcher.unlink()  # a teammate's clone: no vibegit at all
    for payload in (claude_session_start(repo), claude_stop(repo)):
        quiet = run_installed(repo, command, payload)
        assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")
    bare = repo.parent / "python-without-vibegit"  # a Python that cannot import vibegit
    bare.write_text(f'#!/bin/sh\nexec {sys.executable} -I -S "$@"\n')
    bare.chmod(0o755)
    for python in (str(bare), "/nonexistent/python3"):
        launcher.write_text(text.replace(shlex.quote(sys.executable), shlex.quote(python)))
        launcher.chmod(0o755)
        quiet = run_installed(repo, command, claude_stop(repo))
        assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")
        told = subprocess.run([str(launcher), "status"], cwd=repo, capture_output=True, text=True)
        assert told.returncode != 0 and "vibegit install --agent NAME" in told.stderr  # a command says why


def test_the_launcher_is_isolated_from_the_project_and_pythons_variables(repo: Path, vg: VG, tmp_path: Path) -> None:
    assert vg("install", "--agent", "claude").code == 0
    running(vg)
    for where in (repo / "vibegit", tmp_path / "elsewhere" / "vibegit"):  # a project folder named vibegit
        where.mkdir(parents=True)
        (where / "__init__.py").write_text("raise SystemExit('shadowed')\n")
        (where / "main.py").write_text("raise SystemExit('shadowed')\n")
    command = installed_command(repo, "claude", "Stop")
    env = {"PYTHONPATH": str(tmp_path / "elsewhere"), "PYTHONSTARTUP": "/nonexistent", "PYTHONHOME": ""}
    result = run_installed(repo, command, claude_stop(repo), env)
    assert json.loads(result.stdout)["decision"] == "block" and "shadowed" not in result.stderr, result.stderr


def test_the_hook_command_never_imports_a_vibegit_folder_of_the_project(repo: Path, vg: VG) -> None:
    assert vg("install", "--agent", "claude").code == 0
    running(vg)
    marker = repo.parent / "SHADOWED"
    for rel in ("vibegit/__init__.py", "vibegit/main.py"):  # a project's own folder of that name (vibegit's, for one)
        (repo / rel).parent.mkdir(exist_ok=True)
        (repo / rel).write_text(f"open({str(marker)!r}, 'w').close()\ndef main(argv=None):\n    return 0\n")
    command = installed_command(repo, "claude", "SessionStart")
    for env in (None, {"PYTHONPATH": "."}):
        result = run_installed(repo, command, claude_session_start(repo), env)
        assert result.returncode == 0 and "vibe-code" in result.stdout, result.stderr
    assert not marker.exists()


# -- the installed commands, fed what each agent sends ----------------------------


@pytest.mark.parametrize("agent", ["claude", "codex", "cursor", "gemini"])
def test_session_start_prints_the_report_only_while_a_workflow_is_active(repo: Path, vg: VG, agent: str) -> None:
    agent_hooks(vg, "install", [agent], lambda _: None)
    event = "sessionStart" if agent == "cursor" else "SessionStart"
    command = installed_command(repo, agent, event)
    quiet = run_installed(repo, command, SESSION_START[agent](repo))
    assert quiet.returncode == 0 and quiet.stderr == ""
    assert quiet.stdout.strip() in ("", "{}")
    assert subjects(repo) == []  # no workflow state: no event

    running(vg)
    for source in ("startup", "compact"):
        result = run_installed(repo, command, SESSION_START[agent](repo, source))
        assert result.returncode == 0, result.stderr
        if agent == "gemini":
            out = json.loads(result.stdout)["hookSpecificOutput"]
            assert out["hookEventName"] == "SessionStart"
            text = out["additionalContext"]
        elif agent == "cursor":
            text = json.loads(result.stdout)["additional_context"]
        else:
            text = result.stdout
        assert "## 🔄 Session recovery" in text and "vibe-code" in text
        assert "🔄 T-002: Login API" in text and "Continue T-002: Login API" in text
    lines = subjects(repo)
    assert sum(s.startswith("vibegit: agent-session") for s in lines) == 1  # recorded once, when it changed
    status = json.loads(vg("status", "--json").out)
    assert status["session"]["id"] == SESSION_START[agent](repo)["session_id"]


def test_session_start_reports_a_paused_workflow(repo: Path, vg: VG) -> None:
    running(vg)
    assert vg("pause", "--action", "writing the handler").code == 0
    result = vg("hook", "session-start", "--agent", "claude", input=json.dumps(claude_session_start(repo, "resume")))
    assert result.code == 0
    assert "## ⏸️ Workflow paused" in result.out and "vibegit resume" in result.out


@pytest.mark.parametrize("agent", ALL)
def test_stop_in_every_state(repo: Path, vg: VG, agent: str) -> None:
    assert vg("install", "--agent", agent).code == 0
    event, payload = STOP[agent]
    command = installed_command(repo, agent, event)

    def answer(data: dict[str, Any] | str = "", **env: str) -> str | None:
        result = run_installed(repo, command, data or payload(repo), env)
        assert result.returncode == 0 and result.stderr == "", result.stderr
        return continued(agent, result.stdout)

    assert answer() is None  # no workflow: may stop
    assert vg("start", "vibe-code", "--goal", "Implement user auth").code == 0
    planning = answer()  # no task yet: plan them; never "all done"
    assert planning and "vibegit task add" in planning and "All tasks" not in planning
    assert vg("abort", "--yes").code == 0
    running(vg)
    empty = run_installed(repo, command, "")  # no payload at all: no agent sent it, never block
    assert (empty.returncode, continued(agent, empty.stdout)) == (0, None)
    reason = answer()
    assert reason and "T-002: Login API" in reason and "Next step: Continue T-002" in reason
    guard = cursor_stop(repo, loop_count=1) if agent == "cursor" else {**payload(repo), "stop_hook_active": True}
    assert answer(guard) is None  # the agent's loop guard: never loop
    assert answer("not json {") is None  # bad input: never block
    with another_clone(repo):
        assert answer() is None  # the workflow's lock is another clone's
    assert answer(VIBEGIT_HOST="renamed")  # this clone under another host name: its lock still
    assert vg("context", "--question", "JWT or sessions?").code == 0
    assert answer() is None  # waiting for the user's answer
    assert vg("context", "--answer", "1").code == 0
    assert vg("pause").code == 0
    assert answer() is None  # paused
    assert vg("resume").code == 0
    assert answer()
    assert vg("task", "done", "T-002").code == 0
    confirm = answer()
    assert confirm and "only the user's confirmation is left" in confirm and "Keep going" not in confirm
    assert vg("complete", "--yes").code == 0
    assert answer() is None  # complete


def test_claude_stop_uses_the_non_error_channel_when_claude_code_has_it(repo: Path, vg: VG) -> None:
    running(vg)
    newer = claude_stop(repo) | {"prompt_id": "0b5e0b7c-1f6a-4c1e-9d2b-6a1f0e3c2d4b", "session_crons": []}
    out = json.loads(vg("hook", "stop", "--agent", "claude", input=json.dumps(newer)).out)
    assert (
        out["hookSpecificOutput"]["hookEventName"] == "Stop"
        and "T-002" in out["hookSpecificOutput"]["additionalContext"]
    )
    # Cursor runs Claude Code's hooks too: it gets Cursor's answer and Cursor's loop guard
    from_cursor = vg("hook", "stop", "--agent", "claude", input=json.dumps(cursor_stop(repo)))
    assert "followup_message" in json.loads(from_cursor.out)
    let_stop = "{}\n"  # Cursor's shape for "you may stop"
    assert vg("hook", "stop", "--agent", "claude", input=json.dumps(cursor_stop(repo, 3))).out == let_stop
    assert vg("hook", "stop", "--agent", "cursor", input=json.dumps(cursor_stop(repo, 0, "aborted"))).out == let_stop
    assert vg("hook", "stop", "--agent", "cursor", input="").out == let_stop


def test_session_start_on_a_machine_that_does_not_hold_the_workflow(repo: Path, vg: VG) -> None:
    running(vg)
    before = subjects(repo)
    for source in ("startup", "fork"):
        with another_clone(repo):
            result = vg_proc(
                "hook",
                "session-start",
                "--agent",
                "claude",
                cwd=repo,
                input=json.dumps(claude_session_start(repo, source)),
            )
        assert result.code == 0 and "This workflow runs elsewhere:" in result.out, result.err
        assert "`vibegit sync`, then `vibegit resume`" in result.out
    assert subjects(repo) == before  # nothing recorded


def test_session_start_shows_the_checkpoints_line_as_it_stands_now(repo: Path, vg: VG) -> None:
    running(vg)
    (repo / "app.py").write_text("a = 1\nb = 2\ndef login():\n    pass\n")
    git(repo, "add", "app.py")
    git(repo, "commit", "-qm", "app")
    assert vg("checkpoint", "--file", "app.py", "--line", "3", "--action", "login").code == 0
    (repo / "app.py").write_text("import os\n\na = 1\nb = 2\ndef login():\n    pass\n")
    out = vg("hook", "session-start", "--agent", "codex", input=json.dumps(codex_session_start(repo))).out
    assert "`app.py:3` · the line is now at 5 · login" in out


def test_gemini_gets_the_report_again_after_a_compression(repo: Path, vg: VG) -> None:
    assert vg("install", "--agent", "gemini").code == 0
    running(vg)
    before_agent = installed_command(repo, "gemini", "BeforeAgent")
    prompt = gemini_event(repo, "BeforeAgent", prompt="continue")
    assert json.loads(run_installed(repo, before_agent, prompt).stdout) == {}  # nothing new: no report
    compress = run_installed(
        repo, installed_command(repo, "gemini", "PreCompress"), gemini_event(repo, "PreCompress", trigger="auto")
    )
    assert compress.returncode == 0 and json.loads(compress.stdout) == {}
    out = json.loads(run_installed(repo, before_agent, prompt).stdout)["hookSpecificOutput"]
    assert out["hookEventName"] == "BeforeAgent" and "Continue T-002" in out["additionalContext"]
    assert json.loads(run_installed(repo, before_agent, prompt).stdout) == {}  # once


def test_stop_does_not_block_an_agent_in_another_worktree(repo: Path, vg: VG, tmp_path: Path) -> None:
    running(vg)
    other = tmp_path / "other"
    git(repo, "worktree", "add", "-q", str(other), "-b", "side")
    result = vg("hook", "stop", "--agent", "claude", input=json.dumps(claude_stop(other)), cwd=other)
    assert (result.code, result.out) == (0, "")


def test_agent_hooks_never_crash_the_agent(repo: Path, vg: VG, tmp_path: Path) -> None:
    for junk in ("", "  \n", "not json", "[1, 2]", '{"cwd": 12, "session_id": ["x"]}', '{"stop_hook_active": "maybe"}'):
        for name in ("session-start", "stop"):
            result = vg("hook", name, "--agent", "claude", input=junk)
            assert (result.code, result.out) == (0, ""), (name, junk)
    outside = tmp_path / "not-a-repo"
    outside.mkdir()
    result = vg(
        "hook", "session-start", "--agent", "gemini", input=json.dumps(gemini_session_start(outside)), cwd=outside
    )
    assert (result.code, result.out.strip()) == (0, "{}")

    running(vg)  # a corrupt state file on the branch: no traceback, nothing on stdout, exit 0
    git(
        repo,
        "branch",
        "-f",
        "vibegit/state",
        git(
            repo,
            "commit-tree",
            git(
                repo,
                "mktree",
                input=f"100644 blob {git(repo, 'hash-object', '-w', '--stdin', input='session: [')}\tsession.yaml\n",
            ),
            "-m",
            "corrupt",
        ),
    )
    for name, payload in (("session-start", claude_session_start(repo)), ("stop", claude_stop(repo))):
        proc = vg_proc("hook", name, "--agent", "claude", cwd=repo, input=json.dumps(payload))
        assert (proc.code, proc.out) == (0, ""), proc.err
        assert "Traceback" not in proc.err


def test_a_long_or_odd_session_id_is_not_recorded(repo: Path, vg: VG) -> None:
    running(vg)
    before = len(subjects(repo))
    payload = claude_session_start(repo) | {"session_id": "x" * 500}
    assert vg("hook", "session-start", "--agent", "claude", input=json.dumps(payload)).code == 0
    assert len(subjects(repo)) == before


def test_agent_instructions(vg: VG) -> None:
    en = vg("agent-instructions")
    assert en.code == 0 and "vibegit task done" in en.out and "in their own terminal (`vibegit complete`)" in en.out
    zh = vg("agent-instructions", "--lang", "zh")
    assert zh.code == 0 and "工作流状态" in zh.out and "寸止" in zh.out
    assert vg("agent-instructions", "--lang", "fr").code == 2


def test_cli_install_and_uninstall_agents(repo: Path, vg: VG) -> None:
    hooks = repo / ".git" / "hooks"
    before = sorted(p.name for p in hooks.iterdir())
    result = vg("install", "--agent", "claude", "--agent", "gemini")
    assert result.code == 0, result.err
    assert "✔ Claude Code: SessionStart, Stop and PreToolUse hooks in .claude/settings.json" in result.out
    assert (repo / ".gemini" / "settings.json").is_file()
    assert sorted(p.name for p in hooks.iterdir()) == before  # only --agent: the git hooks are left alone
    assert vg("install", "--agent", "claude").out.startswith("Claude Code: already installed")
    result = vg("uninstall", "--agent", "claude", "--agent", "gemini")
    assert result.code == 0
    assert not (repo / ".claude").exists() and not (repo / ".gemini").exists()


def test_cli_bad_agent_input_writes_nothing(repo: Path, vg: VG) -> None:
    hooks = repo / ".git" / "hooks"
    before = sorted(p.name for p in hooks.iterdir())
    result = vg("install", "--hook", "pre-commit", "--agent", "vscode")
    assert result.code == 2 and "use one of claude, codex, cursor, gemini" in result.err
    (repo / ".cursor").mkdir()
    (repo / ".cursor" / "hooks.json").write_text('{"version": 1, "hooks": ')
    result = vg("install", "--hook", "pre-commit", "--agent", "cursor")
    assert result.code == 2 and ".cursor/hooks.json:1:" in result.err
    assert sorted(p.name for p in hooks.iterdir()) == before  # the git hook was not installed either
    result = vg("install", "--hook", "pre-commit", "--agent", "claude")
    assert result.code == 0 and (hooks / "pre-commit").is_file() and (repo / ".claude" / "settings.json").is_file()


def test_stop_blocks_when_the_host_is_named_by_vibegit_host(
    repo: Path, vg: VG, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Containers name the machine with VIBEGIT_HOST: the lock recorded under
    that name is this machine's, so Stop must still keep the agent going."""
    monkeypatch.setenv("VIBEGIT_HOST", "container-7")
    agent_hooks(vg, "install", ["claude"], lambda _: None)
    running(vg)
    command = installed_command(repo, "claude", "Stop")
    blocked = run_installed(repo, command, claude_stop(repo))
    assert json.loads(blocked.stdout)["decision"] == "block", blocked.stderr


def test_doctor_checks_the_agent_side(repo: Path, vg: VG) -> None:
    assert vg("install", "--agent", "codex", "--agent", "gemini").code == 0
    home = Path(os.environ["HOME"])
    (home / ".codex").mkdir()
    (home / ".codex/config.toml").write_text('model = "gpt-5.4"\n[features]\nhooks = false\n')
    (home / ".gemini").mkdir()
    (home / ".gemini/settings.json").write_text('{\n  // mine\n  "hooksConfig": {"enabled": false}\n}\n')
    result = vg("doctor")
    assert result.code == 1, result.out  # hooks that never run are a problem, named with their switch
    assert "✔ Codex (project): vibegit's hooks, commands and protocol are current" in result.out
    assert "✘ Codex: hooks are turned off" in result.out and "⚠ Codex: this project is not trusted" in result.out
    assert "✘ Gemini CLI: hooks are turned off in ~/.gemini/settings.json" in result.out
    assert f"✔ the agents' hooks start vibegit through .git/vibegit/bin/vibegit with {sys.executable}" in result.out
    (home / ".codex/config.toml").write_text(f'[projects."{repo}"]\ntrust_level = "trusted"\n')
    assert "this project is not trusted" not in vg("doctor").out

    path = repo / ".codex/hooks.json"
    path.write_text(path.read_text().replace('"timeout": 30', '"timeout": 5'))
    launcher = repo / ".git" / agents.LAUNCHER_REL
    launcher.write_text(agents.launcher("/nonexistent/python3"))
    result = vg("doctor")
    assert result.code == 1
    assert "✘ Codex (project): vibegit's entries are missing or outdated" in result.out
    assert "✘ the launcher .git/vibegit/bin/vibegit starts /nonexistent/python3, which cannot import" in result.out


def test_after_a_takeover_on_another_machine_the_hooks_step_aside(tmp_path: Path, m: Machines) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "Implement user auth")
    m.ok("laptop", laptop, "task", "add", "T-001", "Data model")
    m.ok("laptop", laptop, "task", "start", "T-001")
    m.ok("laptop", laptop, "sync")
    stop = json.dumps(claude_stop(laptop))
    assert json.loads(m("laptop", laptop, "hook", "stop", "--agent", "claude", input=stop).out)["decision"] == "block"
    desktop = clone(remote, tmp_path / "desktop")
    m.ok("desktop", desktop, "resume")  # the desktop takes it over
    m.ok("desktop", desktop, "sync")
    git(laptop, "fetch", "-q", "origin")  # the laptop has only fetched: its own state still says it holds it
    before = subjects(laptop)
    assert m("laptop", laptop, "hook", "stop", "--agent", "claude", input=stop).out == ""
    start = m(
        "laptop", laptop, "hook", "session-start", "--agent", "claude", input=json.dumps(claude_session_start(laptop))
    )
    assert start.code == 0 and "This workflow runs elsewhere: desktop:" in start.out
    assert subjects(laptop) == before  # nothing recorded on the machine that lost it
    m.ok("laptop", laptop, "sync")
    assert m("laptop", laptop, "hook", "stop", "--agent", "claude", input=stop).out == ""


def context_of(agent: str, out: str) -> str:
    """The context the agent takes from a session-start hook's stdout."""
    if agent == "gemini":
        data = json.loads(out)
        return str(data["hookSpecificOutput"]["additionalContext"]) if data else ""
    if agent == "cursor":
        return str(json.loads(out).get("additional_context", ""))
    assert not out.lstrip().startswith("{")  # Codex would take it for JSON
    return out


@pytest.mark.parametrize("agent", ALL)
def test_session_start_in_every_state(repo: Path, vg: VG, agent: str) -> None:
    assert vg("install", "--agent", agent).code == 0
    command = installed_command(repo, agent, "sessionStart" if agent == "cursor" else "SessionStart")
    payload = SESSION_START[agent](repo)

    def context(data: dict[str, Any] | str = "", **env: str) -> str:
        result = run_installed(repo, command, data or payload, env)
        assert result.returncode == 0 and result.stderr == "", result.stderr
        return context_of(agent, result.stdout)

    assert context() == ""  # no workflow
    running(vg)
    assert "Continue T-002: Login API" in context()
    assert context("{not json") == ""  # bad input: nothing, no crash
    before = subjects(repo)
    with another_clone(repo):
        elsewhere = context()
    assert "This workflow runs elsewhere:" in elsewhere and subjects(repo) == before
    assert vg("task", "done", "T-002").code == 0
    assert "All tasks are done" in context()
    assert vg("pause").code == 0
    assert "## ⏸️ Workflow paused" in context()
    assert vg("resume").code == 0 and vg("complete", "--yes").code == 0
    assert context() == ""  # ended: nothing to say


def test_cursor_running_claudes_hooks_gets_cursors_shape(repo: Path, vg: VG) -> None:
    running(vg)
    out = vg("hook", "session-start", "--agent", "claude", input=json.dumps(cursor_session_start(repo))).out
    assert "Continue T-002" in json.loads(out)["additional_context"]
    assert "cursor session" in subjects(repo)[0]


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_with_the_mcp_server_the_session_starts_short_and_a_compaction_gets_it_all(
    repo: Path, vg: VG, agent: str
) -> None:
    assert vg("install", "--agent", agent, "--mcp").code == 0
    running(vg)
    command = installed_command(repo, agent, "SessionStart")
    assert command.endswith("--mcp")
    short = run_installed(repo, command, SESSION_START[agent](repo, "startup")).stdout
    full = run_installed(repo, command, SESSION_START[agent](repo, "compact")).stdout
    assert "Continue T-002" in short and "MCP server's tools" in short and "`vibegit task start" not in short
    assert "`vibegit task start" in full and "### Tasks" in full
    assert vg("install", "--check", "--agent", agent).code == 0  # the short entry is the current one
    assert vg("install", "--agent", agent).out.startswith(f"{agents.SPECS[agent].label}: already installed")


# -- the person's decision in the agent's own permission prompt -----------------------


def claude_pre_tool(cwd: Path, command: str, mode: str = "default") -> dict[str, Any]:
    return {
        "session_id": "5f1c3a2e-8d4b-4e9a-9c1f-2b7d6e0a4c3b",
        "transcript_path": "/home/u/.claude/projects/-repo/5f1c3a2e-8d4b-4e9a-9c1f-2b7d6e0a4c3b.jsonl",
        "cwd": str(cwd),
        "permission_mode": mode,
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Complete the workflow", "timeout": 120000},
        "tool_use_id": "toolu_01ABC123",
    }


def gemini_before_tool(cwd: Path, command: str) -> dict[str, Any]:
    return gemini_event(
        cwd,
        "BeforeTool",
        tool_name="run_shell_command",
        tool_input={"command": command, "description": "Complete the workflow", "dir_path": str(cwd)},
    )


def cursor_before_shell(cwd: Path, command: str) -> dict[str, Any]:
    return {
        "conversation_id": "c3f1d9b2-55aa-4b8e-9d0c-7e6f5a4b3c2d",
        "generation_id": "g-9",
        "model": "claude-4.5-sonnet",
        "hook_event_name": "beforeShellExecution",
        "cursor_version": "2.0.77",
        "workspace_roots": [str(cwd)],
        "user_email": None,
        "transcript_path": None,
        "command": command,
        "cwd": str(cwd),
    }


PRE_TOOL = {  # agent -> (its event, its payload, the variable its shell sets)
    "claude": ("PreToolUse", claude_pre_tool, "CLAUDECODE"),
    "gemini": ("BeforeTool", gemini_before_tool, "GEMINI_CLI"),
    "cursor": ("beforeShellExecution", cursor_before_shell, "CURSOR_AGENT"),
}


def permission(agent: str, out: str) -> str | None:
    """The decision a pre-tool hook's stdout gives (None: none, the agent's own rules apply)."""
    data = json.loads(out) if out.strip() else {}
    if agent == "cursor":
        return data.get("permission")
    if agent == "gemini":
        return data.get("decision")
    return data.get("hookSpecificOutput", {}).get("permissionDecision")


def confirmation(repo: Path) -> str:
    body = git(repo, "log", "-1", "--format=%B", "vibegit/state")
    return next(line for line in body.splitlines() if line.startswith("Vibegit-Confirmation:"))


@pytest.mark.parametrize("agent", [a for a in PRE_TOOL if a not in agentturn.PROMPT_CONFIRMS])
def test_where_a_prompt_may_be_approved_by_nobody_the_hook_denies(
    repo: Path, vg: VG, agent: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cursor's Auto-review and Gemini CLI's YOLO mode run a command without
    asking anyone, and their hooks cannot tell: the hook denies the decision
    and names the two ways a person takes it; no approval is left."""
    assert vg("install", "--agent", agent).code == 0
    event, payload, marker = PRE_TOOL[agent]
    running(vg)
    assert vg("task", "done", "T-002").code == 0
    out = run_installed(repo, installed_command(repo, agent, event), payload(repo, "vibegit complete")).stdout
    assert permission(agent, out) == "deny" and "own terminal" in out and "MCP" in out
    assert not (repo / ".git/vibegit/approvals").exists()
    monkeypatch.setenv(marker, "1")
    assert vg("complete").code == 1  # in the agent's shell it is still the person's decision


@pytest.mark.parametrize("agent", list(agentturn.PROMPT_CONFIRMS))
def test_the_agent_asks_the_person_and_their_yes_is_recorded(
    repo: Path, vg: VG, agent: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert vg("install", "--agent", agent).code == 0
    event, payload, marker = PRE_TOOL[agent]
    command = installed_command(repo, agent, event)

    def ask(shell: str) -> str | None:
        result = run_installed(repo, command, payload(repo, shell))
        assert result.returncode == 0 and result.stderr == "", result.stderr
        return permission(agent, result.stdout)

    assert ask("vibegit complete") is None  # no workflow: nothing to decide
    running(vg)
    assert vg("task", "done", "T-002").code == 0
    for ordinary in ("ls -la", "vibegit status", "git log --grep complete", "echo vibegit"):
        assert ask(ordinary) is None, ordinary
    assert not (repo / ".git/vibegit/approvals").exists()
    assert ask("vibegit complete") == "ask"
    monkeypatch.setenv(marker, "1")
    done = vg("complete")  # the person allowed it: the command runs, in the agent's shell
    assert done.code == 0, done.err
    label = agents.SPECS[agent].label
    assert confirmation(repo) == f"Vibegit-Confirmation: confirmed by the user in {label}'s permission prompt" + (
        " (asked by vibegit's hook)"
    )


@pytest.mark.parametrize(
    "form",
    [
        "python3 -m vibegit abort",
        '"$(git rev-parse --git-common-dir)/vibegit/bin/vibegit" abort',
        "env -u CLAUDECODE vibegit abort --yes",
        "cd src && vibegit abort -w vibe-code",
    ],
)
def test_every_form_of_the_command_is_asked_about(repo: Path, vg: VG, form: str) -> None:
    assert vg("install", "--agent", "claude").code == 0
    running(vg)
    out = run_installed(repo, installed_command(repo, "claude", "PreToolUse"), claude_pre_tool(repo, form)).stdout
    assert permission("claude", out) == "ask"


def test_an_approval_is_used_once_bound_and_short_lived(repo: Path, vg: VG, monkeypatch: pytest.MonkeyPatch) -> None:
    assert vg("install", "--agent", "claude").code == 0
    running(vg)
    pre_tool = installed_command(repo, "claude", "PreToolUse")
    approvals = repo / ".git/vibegit/approvals"

    def asked(shell: str, **extra: Any) -> None:
        out = run_installed(repo, pre_tool, claude_pre_tool(repo, shell) | extra).stdout
        assert permission("claude", out) == "ask"

    monkeypatch.setenv("CLAUDECODE", "1")
    asked("vibegit abort")
    refused = vg("unlock", "--reason", "x")  # another decision than the one asked
    assert refused.code == 1 and "ask them to run 'vibegit unlock" in refused.err
    asked("vibegit abort")
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", "another-session")  # another session's shell
    assert vg("abort").code == 1
    monkeypatch.delenv("CLAUDE_CODE_SESSION_ID")
    assert vg("abort").code == 1  # the refusal above took it: used once, or lost
    asked("vibegit abort")
    token = approvals / "claude.abort.json"
    data = json.loads(token.read_text())
    token.write_text(json.dumps(data | {"created": data["created"] - 601}))  # answered too late
    assert vg("abort").code == 1
    asked("vibegit abort")
    stop = run_installed(repo, installed_command(repo, "claude", "Stop"), claude_stop(repo))
    assert stop.returncode == 0 and not token.exists()  # the turn ended: what was allowed has run
    assert vg("abort").code == 1
    monkeypatch.setenv("CODEX_THREAD_ID", "019a")  # Claude's approval is not Codex's
    monkeypatch.delenv("CLAUDECODE")
    asked("vibegit abort")
    assert vg("abort").code == 1
    monkeypatch.setenv("CLAUDECODE", "1")
    monkeypatch.delenv("CODEX_THREAD_ID")
    asked("vibegit abort", session_id="s-1")
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", "s-1")
    assert vg("abort").code == 0
    assert "in Claude Code's permission prompt" in confirmation(repo)


@pytest.mark.parametrize("mode", ["auto", "dontAsk", "bypassPermissions"])
def test_where_nobody_would_be_asked_the_command_is_refused(repo: Path, vg: VG, mode: str) -> None:
    assert vg("install", "--agent", "claude").code == 0
    running(vg)
    pre_tool = installed_command(repo, "claude", "PreToolUse")
    out = json.loads(run_installed(repo, pre_tool, claude_pre_tool(repo, "vibegit abort", mode)).stdout)
    decided = out["hookSpecificOutput"]
    assert decided["permissionDecision"] == "deny" and "their own terminal" in decided["permissionDecisionReason"]
    assert not (repo / ".git/vibegit/approvals").exists()


@pytest.mark.parametrize("agent", list(PRE_TOOL))
def test_the_launchers_quick_answers_are_the_pythons(repo: Path, vg: VG, agent: str) -> None:
    """The launcher answers two hooks without Python when there is nothing to
    do; what it says must be what the Python says."""
    assert vg("install", "--agent", agent).code == 0
    running(vg)
    event, payload, _ = PRE_TOOL[agent]
    command = installed_command(repo, agent, event)
    for shell in ("ls", "echo vibegit", "vibegit status", "git log -- complete", 'printf "%s\\\\n" done', ""):
        data = json.dumps(payload(repo, shell))
        quick = run_installed(repo, command, data).stdout
        slow = vg("hook", "pre-tool", "--agent", agent, input=data).out
        assert quick == slow, shell
    if agent == "gemini":
        prompt = installed_command(repo, "gemini", "BeforeAgent")
        data = json.dumps(gemini_event(repo, "BeforeAgent", prompt="go on"))
        assert run_installed(repo, prompt, data).stdout == vg("hook", "prompt", "--agent", "gemini", input=data).out


def test_cursor_with_both_installed_gets_one_report_and_one_question(repo: Path, vg: VG) -> None:
    assert vg("install", "--agent", "claude", "--agent", "cursor").code == 0
    running(vg)
    starts = [
        run_installed(repo, installed_command(repo, a, e), cursor_session_start(repo)).stdout
        for a, e in (("cursor", "sessionStart"), ("claude", "SessionStart"))
    ]
    assert "Continue T-002" in starts[0] and json.loads(starts[1]) == {}  # Claude Code's hook, run by Cursor: silent
    stops = [
        continued("cursor", run_installed(repo, installed_command(repo, a, e), cursor_stop(repo)).stdout)
        for a, e in (("cursor", "stop"), ("claude", "Stop"))
    ]
    assert stops[0] and stops[1] is None
    asks = [
        permission("cursor", run_installed(repo, installed_command(repo, a, e), cursor_before_shell(repo, c)).stdout)
        for a, e, c in (("cursor", "beforeShellExecution", "vibegit abort"), ("claude", "PreToolUse", "vibegit abort"))
    ]
    assert asks == ["deny", None]  # Cursor's prompt may be approved by nobody: the person decides elsewhere


def test_a_command_file_of_the_users_own_is_left_alone_and_never_fails_the_checks(repo: Path, vg: VG) -> None:
    mine = repo / ".claude/commands/vibe-state.md"
    mine.parent.mkdir(parents=True)
    mine.write_text("Show me `git status` and the open PRs.\n")
    installed = vg("install", "--agent", "claude")
    assert installed.code == 0 and installed.out.count("vibe-state.md is not vibegit's") == 1
    assert mine.read_text() == "Show me `git status` and the open PRs.\n"
    check = vg("install", "--check", "--agent", "claude")
    assert check.code == 0 and "/vibe-state yours (left alone)" in check.out, check.out
    assert vg("doctor").code == 0
    assert vg("uninstall", "--agent", "claude").code == 0 and mine.read_text().startswith("Show me")


@pytest.mark.parametrize("agent", list(PRE_TOOL))
def test_the_seed_lifecycle_from_vibe_code_to_the_persons_yes(
    repo: Path, vg: VG, agent: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What /vibe-code makes the agent do, in the agent's shell, with every
    installed hook fed what the agent sends, until the person says yes."""
    assert vg("install", "--agent", agent).code == 0
    spec = agents.SPECS[agent]
    start = next(c for c in agents.SLASH_COMMANDS if c.name == "vibe-code")
    assert "vibegit start vibe-code --goal" in agents.command_file(spec, start)
    event, pre_tool, marker = PRE_TOOL[agent]
    stop_event, stop_payload = STOP[agent]
    monkeypatch.setenv(marker, "1")

    def stop() -> str | None:
        return continued(
            agent, run_installed(repo, installed_command(repo, agent, stop_event), stop_payload(repo)).stdout
        )

    assert vg("start", "vibe-code", "--goal", "Implement user auth").code == 0
    assert "vibegit task add" in (stop() or "")  # no plan yet: make one
    for step in (("task", "add", "T-001", "Data model"), ("task", "add", "T-002", "Login API"), ("phase", "E")):
        assert vg(*step).code == 0
    for task in ("T-001", "T-002"):
        assert vg("task", "start", task).code == 0
        assert f"{task}" in (stop() or "")
        assert vg("task", "done", task).code == 0
    assert vg("phase", "R2").code == 0
    asking = stop()
    assert asking and "ask them to confirm completion" in asking
    refused = vg("complete", "--yes")  # the agent cannot say yes itself
    assert refused.code == 1 and "ask them to run 'vibegit complete" in refused.err
    command = installed_command(repo, agent, event)
    out = run_installed(repo, command, pre_tool(repo, "vibegit complete")).stdout
    if agent in agentturn.PROMPT_CONFIRMS:
        assert permission(agent, out) == "ask"  # the agent's own prompt asks the person
        assert vg("complete").code == 0  # they allowed it
        assert f"{spec.label}'s permission prompt" in confirmation(repo)
    else:
        assert permission(agent, out) == "deny"  # its prompt may be approved by nobody
        monkeypatch.delenv(marker)
        assert vg("complete", input="y\n").code == 0  # the person, in their own terminal
        assert "no agent" in confirmation(repo)
    assert stop() is None


@pytest.mark.parametrize(
    "rel, text",
    [
        (".cursor/hooks.json", "{}\n"),
        (".cursor/hooks.json", '{"hooks": {}}\n'),
        (".claude/settings.json", '{\n  "hooks": {}\n}\n'),
        (".claude/settings.json", '{"hooks": {"Stop": []}, "model": "opus"}\n'),
        (".gemini/settings.json", '// mine\n{"hooks": {}, "hooksConfig": {"enabled": true}}\n'),
        (".codex/hooks.json", '{"hooks": {}}'),
    ],
)
def test_uninstall_gives_back_the_exact_bytes_of_files_with_empty_keys(repo: Path, vg: VG, rel: str, text: str) -> None:
    agent = {"cursor": "cursor", "claude": "claude", "gemini": "gemini", "codex": "codex"}[rel.split("/")[0][1:]]
    (repo / rel).parent.mkdir(parents=True, exist_ok=True)
    (repo / rel).write_text(text)
    assert vg("install", "--agent", agent).code == 0
    if agent == "cursor":
        assert json.loads((repo / rel).read_text())["version"] == 1  # Cursor reads no hooks.json without it
    assert vg("uninstall", "--agent", agent).code == 0
    assert (repo / rel).read_text() == text


def test_install_check_and_doctor_name_every_switch_that_turns_the_hooks_off(repo: Path, vg: VG) -> None:
    home = Path(os.environ["HOME"])
    assert vg("install", "--agent", "claude", "--agent", "codex", "--agent", "gemini").code == 0
    assert vg("install", "--check").code == 0
    local = repo / ".claude/settings.local.json"
    local.write_text('{"disableAllHooks": true}\n')
    (home / ".codex").mkdir()
    (home / ".codex/config.toml").write_text('model = "gpt-5.4"\n\n[features]\ncodex_hooks = false\n')
    (repo / ".codex/config.toml").write_text('[hooks]\nStop = [{ hooks = [{ type = "command", command = "true" }] }]\n')
    (repo / ".gemini/settings.json").write_text(
        (repo / ".gemini/settings.json").read_text().replace("{", '{"hooksConfig": {"enabled": false},', 1)
    )
    expected = [
        "✘ Claude Code: every hook is turned off in .claude/settings.local.json (disableAllHooks: true)",
        "✘ Codex: hooks are turned off in ~/.codex/config.toml ([features] codex_hooks = false)",
        "⚠ Codex: hooks stand in both .codex/hooks.json and a [hooks] table in .codex/config.toml",
        "✘ Gemini CLI: hooks are turned off in .gemini/settings.json (hooksConfig.enabled: false)",
    ]
    again = ("install", "--agent", "claude", "--agent", "codex", "--agent", "gemini")
    for result in (vg("install", "--check"), vg("doctor"), vg(*again)):
        for line in expected:
            assert line in result.out, (line, result.out)
    assert vg("install", "--check").code == 1 and vg("doctor").code == 1
    (home / ".codex/config.toml").write_text("model = \n")  # not TOML: named, never a traceback
    broken = vg("doctor")
    assert "✘ Codex: ~/.codex/config.toml: .codex/config.toml: not valid TOML" in broken.out, broken.out


def test_a_committed_claude_md_link_to_agents_md_gets_the_block_in_agents_md(
    repo: Path, vg: VG, tmp_path: Path
) -> None:
    (repo / "AGENTS.md").write_text(REALISTIC["AGENTS.md"])
    (repo / "CLAUDE.md").symlink_to("AGENTS.md")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "one instructions file for every agent")
    assert vg("install", "--agent", "claude", "--agent", "codex").code == 0
    assert (repo / "CLAUDE.md").is_symlink() and (repo / "AGENTS.md").read_text().count(agents.BEGIN) == 1
    assert vg("install", "--check").code == 0
    assert vg("uninstall", "--agent", "claude").code == 0
    assert agents.BEGIN in (repo / "AGENTS.md").read_text()  # Codex still reads it
    assert vg("uninstall", "--agent", "codex").code == 0
    assert (repo / "AGENTS.md").read_text() == REALISTIC["AGENTS.md"] and (repo / "CLAUDE.md").is_symlink()

    outside = tmp_path / "notes.md"
    outside.write_text("mine\n")
    (repo / "CLAUDE.md").unlink()
    (repo / "CLAUDE.md").symlink_to(outside)
    result = vg("install", "--agent", "claude")
    assert result.code == 0 and "the protocol block is not written through it" in result.out
    assert outside.read_text() == "mine\n" and (repo / ".claude/settings.json").is_file()  # hooks either way


PAYLOADS: dict[str, Callable[[Path], dict[str, Any]]] = {  # "agent event" -> its documented payload
    "claude SessionStart": claude_session_start,
    "claude Stop": claude_stop,
    "claude PreToolUse": lambda cwd: claude_pre_tool(cwd, "vibegit complete"),
    "codex SessionStart": codex_session_start,
    "codex Stop": codex_stop,
    "cursor sessionStart": cursor_session_start,
    "cursor stop": cursor_stop,
    "cursor beforeShellExecution": lambda cwd: cursor_before_shell(cwd, "vibegit complete"),
    "gemini SessionStart": gemini_session_start,
    "gemini AfterAgent": gemini_after_agent,
    "gemini PreCompress": lambda cwd: gemini_event(cwd, "PreCompress", trigger="auto"),
    "gemini BeforeAgent": lambda cwd: gemini_event(cwd, "BeforeAgent", prompt="go on"),
    "gemini BeforeTool": lambda cwd: gemini_before_tool(cwd, "vibegit complete"),
}
STATES = ("none", "planning", "running", "question", "all done", "paused", "elsewhere", "completed")


def into_state(vg: VG, state: str) -> None:
    if state == "none":
        return
    if state == "planning":
        assert vg("start", "vibe-code", "--goal", "Implement user auth").code == 0
        return
    running(vg)
    steps = {
        "question": [("context", "--question", "JWT or sessions?")],
        "all done": [("task", "done", "T-002")],
        "paused": [("pause", "--action", "the handler")],
        "completed": [("task", "done", "T-002"), ("complete", "--yes")],
    }
    for step in steps.get(state, []):
        assert vg(*step).code == 0, step


@pytest.mark.slow
@pytest.mark.parametrize("agent", ALL)
def test_every_installed_hook_in_every_state_answers_in_the_agents_shape(repo: Path, vg: VG, agent: str) -> None:
    """Every hook install writes, fed the agent's documented payload, in every
    workflow state: exit 0, nothing on stderr, stdout in the shape the agent
    reads (Gemini and Cursor: JSON always; Claude Code and Codex: context as
    plain text, decisions as JSON), and the decision the state calls for."""
    assert vg("install", "--agent", agent).code == 0
    spec = agents.SPECS[agent]
    for state in STATES:
        into_state(vg, state)
        env = {"VIBEGIT_HOST": "desktop"} if state == "elsewhere" else {}
        for hook in spec.hooks:
            payload = PAYLOADS[f"{agent} {hook.event}"](repo)
            with another_clone(repo) if state == "elsewhere" else contextlib.nullcontext():  # another holder
                result = run_installed(repo, installed_command(repo, agent, hook.event), payload, env)
            where = f"{agent} {hook.event} in state {state}"
            assert result.returncode == 0 and result.stderr == "", (where, result.stderr)
            out = result.stdout
            if agent in ("gemini", "cursor") or hook.handler in ("stop", "pre-tool"):
                assert isinstance(json.loads(out) if out.strip() else {}, dict), where
                assert agent in ("claude", "codex") or out.strip(), where  # Gemini and Cursor always get JSON
            else:
                assert not out.lstrip().startswith("{"), where  # plain context
            if hook.handler == "stop":
                keeps_going = continued(agent, out) is not None
                assert keeps_going == (state in ("planning", "running", "all done")), where
            if hook.handler == "pre-tool":
                answer = "ask" if agent in agentturn.PROMPT_CONFIRMS else "deny"
                asked = permission(agent, out) == answer
                assert asked == (state not in ("none", "completed")), where
            if hook.handler == "session-start":
                text = context_of(agent, out)
                assert bool(text) == (state not in ("none", "completed")), where
        run_installed(repo, installed_command(repo, agent, STOP[agent][0]), STOP[agent][1](repo))  # clears approvals
        if state not in ("none", "completed"):
            assert vg("abort", "--yes").code == 0  # the next state starts its own workflow
