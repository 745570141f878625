"""Agent session hooks: the settings files each agent reads, and the JSON each
agent really sends on stdin to the installed command.

The fixtures are the documented payloads: Claude Code's hooks reference
(SessionStart, Stop), Codex's generated schemas (codex-rs/hooks/schema),
Cursor's hooks docs (sessionStart), Gemini CLI's hooks reference.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import VG, git, start_workflow, subjects, vg_proc
from vibegit.infra import agentfiles


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


def installed_command(repo: Path, agent: str, event: str) -> str:
    data = json.loads((repo / agentfiles.SPECS[agent].settings).read_text())
    for group in data["hooks"][event]:
        for handler in group.get("hooks", [group]):
            if "vibegit hook" in handler["command"]:
                return str(handler["command"])
    raise AssertionError(f"no vibegit {event} hook for {agent}")


def run_installed(repo: Path, command: str, payload: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    """What the agent does: the settings' command, through a shell, JSON on stdin."""
    return subprocess.run(
        command,
        shell=True,
        cwd=repo,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=dict(os.environ),
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


def test_install_keeps_other_settings_and_uninstall_restores_the_file(repo: Path, vg: VG) -> None:
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(EXISTING_CLAUDE_SETTINGS)
    lines: list[str] = []
    assert agent_hooks(vg, "install", ["claude"], lines.append) == 0
    data = json.loads(settings.read_text())
    assert data["permissions"] == json.loads(EXISTING_CLAUDE_SETTINGS)["permissions"]
    assert data["model"] == "opus"
    assert data["hooks"]["PostToolUse"] == json.loads(EXISTING_CLAUDE_SETTINGS)["hooks"]["PostToolUse"]
    starts = data["hooks"]["SessionStart"]
    assert starts[0]["hooks"][0]["command"] == "echo hello"
    assert starts[1]["matcher"] == "startup|resume|clear|compact"
    assert starts[1]["hooks"][0] == {
        "type": "command",
        "command": "vibegit hook session-start --agent claude",
        "timeout": 30,
    }
    assert data["hooks"]["Stop"][0]["hooks"][0]["command"] == "vibegit hook stop --agent claude"
    assert settings.read_text().startswith('{\n    "permissions"')  # the file's own indent

    before = settings.read_bytes()
    lines.clear()
    assert agent_hooks(vg, "install", ["claude"], lines.append) == 0  # recognised as ours: nothing doubled
    assert settings.read_bytes() == before
    assert "already installed" in lines[0]

    assert agent_hooks(vg, "uninstall", ["claude"], lines.append) == 0
    assert settings.read_text() == EXISTING_CLAUDE_SETTINGS


def test_uninstall_after_other_edits_removes_only_ours(repo: Path, vg: VG) -> None:
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(EXISTING_CLAUDE_SETTINGS)
    agent_hooks(vg, "install", ["claude"], lambda _: None)
    data = json.loads(settings.read_text())
    data["env"] = {"FOO": "1"}  # the user (or Claude Code) changed the file meanwhile
    data["hooks"]["Stop"][0]["hooks"].append({"type": "command", "command": "say done"})
    settings.write_text(json.dumps(data, indent=2))
    agent_hooks(vg, "uninstall", ["claude"], lambda _: None)
    after = json.loads(settings.read_text())
    expected = json.loads(EXISTING_CLAUDE_SETTINGS)
    expected["env"] = {"FOO": "1"}
    expected["hooks"]["Stop"] = [{"hooks": [{"type": "command", "command": "say done"}]}]
    assert after == expected


def test_install_creates_and_uninstall_removes_every_agents_file(repo: Path, vg: VG) -> None:
    lines: list[str] = []
    assert agent_hooks(vg, "install", ["claude", "codex", "cursor", "gemini"], lines.append) == 0
    claude = json.loads((repo / ".claude/settings.json").read_text())
    codex = json.loads((repo / ".codex/hooks.json").read_text())
    assert json.loads(json.dumps(codex).replace("--agent codex", "--agent claude")) == claude  # one shape
    assert set(codex["hooks"]) == {"SessionStart", "Stop"}
    cursor = json.loads((repo / ".cursor/hooks.json").read_text())
    assert cursor == {
        "version": 1,
        "hooks": {"sessionStart": [{"command": "vibegit hook session-start --agent cursor"}]},
    }
    gemini = json.loads((repo / ".gemini/settings.json").read_text())
    handler = gemini["hooks"]["SessionStart"][0]["hooks"][0]
    assert handler["command"] == "vibegit hook session-start --agent gemini" and handler["timeout"] == 30000
    assert any("trust" in line for line in lines) and any("Enable Hooks" in line for line in lines)

    assert agent_hooks(vg, "uninstall", ["claude", "codex", "cursor", "gemini"], lines.append) == 0
    for d in (".claude", ".codex", ".cursor", ".gemini"):
        assert not (repo / d).exists()
    assert git(repo, "status", "--porcelain") == ""


def test_gemini_and_cursor_settings_keep_their_own_keys(repo: Path, vg: VG) -> None:
    gemini = repo / ".gemini" / "settings.json"
    gemini.parent.mkdir()
    original = {
        "theme": "GitHub",
        "hooks": {
            "disabled": ["secret-scanner"],
            "BeforeTool": [
                {"matcher": "write_file", "hooks": [{"name": "lint", "type": "command", "command": "./lint.sh"}]}
            ],
        },
    }
    gemini.write_text(json.dumps(original, indent=2) + "\n")
    cursor = repo / ".cursor" / "hooks.json"
    cursor.parent.mkdir()
    cursor.write_text('{"version": 1, "hooks": {"afterFileEdit": [{"command": "./format.sh"}]}}\n')
    agent_hooks(vg, "install", ["gemini", "cursor"], lambda _: None)
    assert json.loads(gemini.read_text())["hooks"]["disabled"] == ["secret-scanner"]
    assert json.loads(cursor.read_text())["hooks"]["afterFileEdit"] == [{"command": "./format.sh"}]
    agent_hooks(vg, "uninstall", ["gemini", "cursor"], lambda _: None)
    assert json.loads(gemini.read_text()) == original
    assert cursor.read_text() == '{"version": 1, "hooks": {"afterFileEdit": [{"command": "./format.sh"}]}}\n'


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


def test_stop_blocks_while_running_and_lets_go_when_it_must(repo: Path, vg: VG) -> None:
    agent_hooks(vg, "install", ["claude", "codex"], lambda _: None)
    for agent, stop in (("claude", claude_stop), ("codex", codex_stop)):
        command = installed_command(repo, agent, "Stop")
        idle = run_installed(repo, command, stop(repo))
        assert (idle.returncode, idle.stdout) == (0, "")  # no workflow: may stop
    running(vg)
    for agent, stop in (("claude", claude_stop), ("codex", codex_stop)):
        command = installed_command(repo, agent, "Stop")
        blocked = run_installed(repo, command, stop(repo))
        assert blocked.returncode == 0, blocked.stderr
        decision = json.loads(blocked.stdout)
        assert decision["decision"] == "block"
        assert "T-002: Login API" in decision["reason"] and "Next step: Continue T-002" in decision["reason"]
        again = run_installed(repo, command, stop(repo, active=True))
        assert (again.returncode, again.stdout) == (0, "")  # stop_hook_active: never loop

    command = installed_command(repo, "claude", "Stop")
    assert vg("context", "--question", "JWT or sessions?").code == 0
    assert run_installed(repo, command, claude_stop(repo)).stdout == ""  # waiting for the user
    assert vg("context", "--answer", "1").code == 0
    assert vg("pause").code == 0
    assert run_installed(repo, command, claude_stop(repo)).stdout == ""  # paused
    assert vg("resume").code == 0
    assert json.loads(run_installed(repo, command, claude_stop(repo)).stdout)["decision"] == "block"
    assert vg("task", "done", "T-002").code == 0
    assert vg("complete", "--yes").code == 0
    assert run_installed(repo, command, claude_stop(repo)).stdout == ""  # complete


def test_stop_does_not_block_an_agent_in_another_worktree(repo: Path, vg: VG, tmp_path: Path) -> None:
    running(vg)
    other = tmp_path / "other"
    git(repo, "worktree", "add", "-q", str(other), "-b", "side")
    result = vg("hook", "stop", "--agent", "claude", input=json.dumps(claude_stop(other)), cwd=other)
    assert (result.code, result.out) == (0, "")


def test_agent_hooks_never_crash_the_agent(repo: Path, vg: VG, tmp_path: Path) -> None:
    for junk in ("", "not json", "[1, 2]", '{"cwd": 12, "session_id": ["x"]}', '{"stop_hook_active": "maybe"}'):
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
    assert en.code == 0 and "vibegit task done" in en.out and "vibegit complete --yes" in en.out
    zh = vg("agent-instructions", "--lang", "zh")
    assert zh.code == 0 and "工作流状态" in zh.out and "寸止" in zh.out
    assert vg("agent-instructions", "--lang", "fr").code == 2


def test_cli_install_and_uninstall_agents(repo: Path, vg: VG) -> None:
    hooks = repo / ".git" / "hooks"
    before = sorted(p.name for p in hooks.iterdir())
    result = vg("install", "--agent", "claude", "--agent", "gemini")
    assert result.code == 0, result.err
    assert "✔ Claude Code: SessionStart and Stop hooks in .claude/settings.json" in result.out
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
