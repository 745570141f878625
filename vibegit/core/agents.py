"""The four agents as vibegit installs into them: which files, in
which scope, and the exact entries, commands and instructions it writes.

Every hook entry runs one launcher through ``sh -c`` with a minimal PATH in
mind: the interpreter that ran ``vibegit install`` (baked in for the user's
own files; in the committed project files it is looked up in the
repository's local git config, ``vibegit.python``, so teammates share one
file), else ``vibegit`` on PATH, else it exits 0 and prints nothing, so a
teammate without vibegit is not disturbed. vibegit's entries are recognised
by the whole shape of that command, never by a word inside it.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from vibegit.core.records import frozen
from vibegit.errors import BadInput

AGENTS = ("claude", "codex", "cursor", "gemini")
SCOPES = ("project", "local", "user")
TAG = "vibegit-agent-hook"  # $0 of the launcher: the marker of vibegit's commands
SERVER = "vibegit"  # the MCP server's name in every agent's config
# What the agents set in the environment of the commands they run: a command
# that sees one runs for an agent, which could answer a question meant for the
# person (the one list every such check reads), and the agent that sets it
# (None: a convention several agents share). Where each comes from:
# - CLAUDECODE=1: Claude Code, in every Bash tool command, hook and status line
#   (its env-vars reference); its IDE extensions set it in the editor's
#   terminal too, so a person there is sent to another terminal.
# - CODEX_THREAD_ID: Codex, in every shell tool command, whatever the sandbox
#   (codex-rs/protocol/src/shell_environment.rs, populate_env step 6);
#   CODEX_SANDBOX=seatbelt only under macOS Seatbelt and
#   CODEX_SANDBOX_NETWORK_DISABLED=1 only with the network off (codex-rs/core
#   spawn), so neither alone marks Codex.
# - CURSOR_AGENT=1: Cursor's agent terminal (cursor.com/docs/agent/terminal).
# - GEMINI_CLI=1: Gemini CLI's shell tool
#   (packages/core/src/services/shellExecutionService.ts).
# - AGENT, AI_AGENT, VSCODE_AGENT: the shared conventions (Goose and Amp set
#   AGENT, Claude Code AI_AGENT, VS Code VSCODE_AGENT for its agent's commands).
MARKER_AGENTS: dict[str, str | None] = {
    "CLAUDECODE": "claude",
    "CODEX_THREAD_ID": "codex",
    "CODEX_SANDBOX": "codex",
    "CODEX_SANDBOX_NETWORK_DISABLED": "codex",
    "CURSOR_AGENT": "cursor",
    "GEMINI_CLI": "gemini",
    "AGENT": None,
    "AI_AGENT": None,
    "VSCODE_AGENT": None,
}
MARKERS = tuple(MARKER_AGENTS)


def marker(environ: dict[str, str]) -> str | None:
    """The first agent marker set in ``environ`` (None: no agent runs this command)."""
    return next((name for name in MARKERS if environ.get(name)), None)


def marked_agent(environ: dict[str, str]) -> str | None:
    """Which of the four agents runs this command, by its own marker (None: none of them, or not known)."""
    return next((MARKER_AGENTS[name] for name in MARKERS if environ.get(name) and MARKER_AGENTS[name]), None)


# POSIX sh, no single quote inside (it travels in one), read by every
# agent's shell (sh, bash, a login zsh or fish for Codex).
LAUNCHER = (
    'p=$1; shift; [ "$p" = - ] && p=$(git -C "${VIBEGIT_WORKDIR:-.}" config --get vibegit.python 2>/dev/null); '
    'if [ -n "$p" ] && [ -x "$p" ]; then exec "$p" -c "import sys,importlib.util as u;'
    'u.find_spec(sys.argv[1]) or sys.exit();from vibegit.main import main;sys.exit(main(sys.argv[2:]))" vibegit "$@"; fi; '
    'command -v vibegit >/dev/null 2>&1 && exec vibegit "$@"; exit 0'
)
_OURS = re.compile(
    r"sh -c '[^']*' " + TAG + r" (?:-|'[^']*'|[^\s'\"\\]+) hook (?P<handler>[a-z-]+) --agent (?P<agent>[a-z]+)"
    r"|vibegit hook (?P<old>session-start|stop) --agent (?P<old_agent>[a-z]+)"  # before the launcher
)
_SAFE_PATH = re.compile(r"/[^\x00-\x1f\x7f'\\\"`$]*")


def python_arg(python: str | None) -> str:
    """The launcher's first argument: ``-`` (look in git config), or the interpreter's quoted path."""
    if python is None:
        return "-"
    if not _SAFE_PATH.fullmatch(python):
        raise BadInput(
            f"{python[:80]!r}: an interpreter path every agent's shell can take must be absolute, without quotes, '$' or '\\'"
        )
    return shlex.quote(python)


def command(python: str | None, *args: str) -> str:
    """The shell command an agent runs: the launcher, then ``vibegit ARGS``."""
    return f"sh -c '{LAUNCHER}' {TAG} {python_arg(python)} {' '.join(args)}"


def argv(python: str | None, *args: str) -> list[str]:
    """The same as an argument vector (an MCP server's command and args)."""
    return ["sh", "-c", LAUNCHER, TAG, "-" if python is None else python, *args]


def ours(handler: object) -> tuple[str, str] | None:
    """(vibegit hook name, agent) when ``handler`` is one of vibegit's hook
    entries, by the exact shape of its command; else None."""
    if not isinstance(handler, dict) or not isinstance(handler.get("command"), str):
        return None
    match = _OURS.fullmatch(handler["command"])
    if match is None:
        return None
    if match.group("old"):
        return match.group("old"), match.group("old_agent")
    return match.group("handler"), match.group("agent")


def is_our_server(entry: object) -> bool:
    """Whether an MCP server entry is the one vibegit writes."""
    if not isinstance(entry, dict):
        return False
    args = entry.get("args")
    return entry.get("command") == "sh" and isinstance(args, list) and len(args) >= 4 and args[2] == TAG


@frozen
class Hook:
    event: str  # the agent's own event name
    handler: str  # ``vibegit hook NAME``
    matcher: str | None = None


@frozen
class Agent:
    name: str
    label: str
    hooks: tuple[Hook, ...]
    settings: dict[str, str]  # scope -> the settings file (project and local: under the top directory; user: home)
    instructions: dict[str, str]  # scope -> the markdown file with vibegit's block
    commands: dict[str, str]  # scope -> the directory of custom commands
    command_ext: str  # "md" or "toml"
    mcp: dict[str, str]  # scope -> the file that registers MCP servers
    comments: bool = False  # its settings may hold // and /* */ comments
    note: str = ""

    def entry(self, hook: Hook, python: str | None) -> dict[str, Any]:
        """One hook group (Cursor: one flat entry) in the agent's own shape."""
        run = command(python, "hook", hook.handler, "--agent", self.name)
        if self.name == "cursor":
            return {"command": run, "timeout": 30}
        if self.name == "gemini":  # timeouts in milliseconds; the name keys its trust and /hooks
            handler = {
                "name": f"vibegit-{hook.handler}",
                "type": "command",
                "command": run,
                "timeout": 30000,
                "description": f"vibegit: {DESCRIBE[hook.handler]}",
            }
            return {**({"matcher": hook.matcher} if hook.matcher else {}), "hooks": [handler]}
        group: dict[str, Any] = {"matcher": hook.matcher} if hook.matcher else {}
        return {**group, "hooks": [{"type": "command", "command": run, "timeout": 30}]}

    def server(self, python: str | None) -> dict[str, Any]:
        """vibegit's MCP server entry in this agent's JSON config."""
        cmd = argv(python, "mcp")
        entry: dict[str, Any] = {"command": cmd[0], "args": cmd[1:]}
        if self.name == "cursor":  # Cursor may start servers elsewhere; it expands this to the workspace
            entry["env"] = {"VIBEGIT_WORKDIR": "${workspaceFolder}"}
        if self.name == "gemini":
            entry["timeout"] = 30000
        return entry

    def scopes(self) -> tuple[str, ...]:
        return tuple(s for s in SCOPES if s in self.settings)


DESCRIBE = {
    "session-start": "the workflow report at session start",
    "stop": "keep the agent on a running workflow",
    "pre-compact": "note a compaction, so the report comes back after it",
    "prompt": "the workflow report again after a compaction",
}

SPECS = {
    "claude": Agent(
        "claude",
        "Claude Code",
        (Hook("SessionStart", "session-start", "startup|resume|clear|compact|fork"), Hook("Stop", "stop")),
        {"project": ".claude/settings.json", "local": ".claude/settings.local.json", "user": ".claude/settings.json"},
        {"project": "CLAUDE.md", "local": "CLAUDE.local.md", "user": ".claude/CLAUDE.md"},
        {"project": ".claude/commands", "user": ".claude/commands"},
        "md",
        {"project": ".mcp.json"},
    ),
    "codex": Agent(
        "codex",
        "Codex",
        (Hook("SessionStart", "session-start", "startup|resume|clear|compact"), Hook("Stop", "stop")),
        {"project": ".codex/hooks.json", "user": ".codex/hooks.json"},
        {"project": "AGENTS.md", "user": ".codex/AGENTS.md"},
        {},
        "",
        {"project": ".codex/config.toml", "user": ".codex/config.toml"},
        note="Codex runs project hooks once you trust them (it asks on the next start, or /hooks)",
    ),
    "cursor": Agent(
        "cursor",
        "Cursor",
        (Hook("sessionStart", "session-start"), Hook("stop", "stop")),
        {"project": ".cursor/hooks.json", "user": ".cursor/hooks.json"},
        {"project": "AGENTS.md"},
        {"project": ".cursor/commands", "user": ".cursor/commands"},
        "md",
        {"project": ".cursor/mcp.json", "user": ".cursor/mcp.json"},
        note="Cursor runs project hooks in a trusted workspace (Cursor 1.7 or newer)",
    ),
    "gemini": Agent(
        "gemini",
        "Gemini CLI",
        (
            Hook("SessionStart", "session-start"),
            Hook("AfterAgent", "stop"),
            Hook("PreCompress", "pre-compact"),
            Hook("BeforeAgent", "prompt"),
        ),
        {"project": ".gemini/settings.json", "user": ".gemini/settings.json"},
        {"project": "GEMINI.md", "user": ".gemini/GEMINI.md"},
        {"project": ".gemini/commands", "user": ".gemini/commands"},
        "toml",
        {"project": ".gemini/settings.json", "user": ".gemini/settings.json"},
        comments=True,
        note="Gemini CLI runs project hooks in a trusted folder (hooks are on by default since 0.27)",
    ),
}


def spec(name: str) -> Agent:
    found = SPECS.get(name.strip().lower())
    if found is None:
        raise BadInput(f"--agent {name!r:.30}: use one of {', '.join(AGENTS)}")
    return found


def check_scope(agent: Agent, scope: str) -> None:
    if scope not in SCOPES:
        raise BadInput(f"--scope {scope!r:.30}: use one of {', '.join(SCOPES)}")
    if scope not in agent.settings:
        raise BadInput(f"--scope {scope}: {agent.label} has no such scope (it has {', '.join(agent.scopes())})")


# -- custom commands: the seed's /vibe-* commands ------------------------------------

MARK = "managed by vibegit"  # in every command file vibegit writes


@frozen
class SlashCommand:
    name: str
    description: str
    prompt: str  # {args} stands for what the user typed after the command
    user_only: bool = False  # only the user may run it (Claude: never the model on its own)


SLASH_COMMANDS = (
    SlashCommand(
        "vibe-state",
        "Show the vibegit workflow state (the recovery report)",
        "Run `vibegit status` in the terminal and show me the recovery report it prints: the workflow of this "
        "worktree's branch (`vibegit list` shows the others). Then wait for my answer.",
    ),
    SlashCommand(
        "vibe-pause",
        "Pause the vibegit workflow here, with a checkpoint",
        'Pause the workflow: run `vibegit pause --action "<one line: what you were in the middle of>"` '
        "(it records a checkpoint and releases the lock), show me its output, and stop working on the workflow. {args}",
    ),
    SlashCommand(
        "vibe-resume",
        "Resume the vibegit workflow of this worktree",
        "Resume the workflow: run `vibegit resume`, read the report it prints, and continue from its next step, "
        "obeying the remembered rules. {args}",
    ),
    SlashCommand(
        "vibe-checkpoint",
        "Record a vibegit checkpoint (file:line and what you are doing)",
        'Record a checkpoint: run `vibegit checkpoint --file PATH --line N --action "<what you are doing>"` with '
        "the file and line you are working on, and show me its output. {args}",
    ),
    SlashCommand(
        "vibe-abort",
        "Abort the vibegit workflow (its progress is kept)",
        "I want to abort the workflow. If the vibegit MCP server's `abort` tool is available, call it (it asks me "
        "to confirm); otherwise tell me to run `vibegit abort` in my own terminal. Then go back to plain "
        "conversation. {args}",
        user_only=True,
    ),
    SlashCommand(
        "vibe-unlock",
        "Release the vibegit workflow lock at once, ending the workflow",
        "I want to release the workflow lock. If the vibegit MCP server's `unlock` tool is available, call it "
        "(it asks me to confirm); otherwise tell me to run `vibegit unlock` in my own terminal. Then go back to "
        "plain conversation. {args}",
        user_only=True,
    ),
)


def command_file(agent: Agent, cmd: SlashCommand) -> str:
    """The file that makes ``/NAME`` a custom command of ``agent``."""
    if agent.command_ext == "toml":  # Gemini CLI: {{args}} is what the user typed
        prompt = cmd.prompt.replace("{args}", "{{args}}").strip()
        return (
            f"# {MARK}: 'vibegit uninstall --agent {agent.name}' removes this file\n"
            f"description = {_toml_string(cmd.description)}\n"
            f'prompt = """\n{prompt}\n"""\n'
        )
    if agent.name == "claude":  # front matter, $ARGUMENTS; the user-only ones the model never runs by itself
        prompt = cmd.prompt.replace("{args}", "$ARGUMENTS").strip()
        lines = ["---", f"# {MARK}: 'vibegit uninstall --agent claude' removes this file"]
        lines += [f"description: {cmd.description}", "allowed-tools: Bash(vibegit *)"]
        if cmd.user_only:
            lines.append("disable-model-invocation: true")
        return "\n".join([*lines, "---", "", prompt, ""])
    prompt = cmd.prompt.replace(" {args}", "").strip()  # Cursor: what the user typed follows the prompt
    return f"<!-- {MARK}: 'vibegit uninstall --agent {agent.name}' removes this file -->\n{prompt}\n"


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def is_our_command(data: bytes) -> bool:
    return MARK.encode() in data[:300]


# -- the managed block in AGENTS.md / CLAUDE.md / GEMINI.md, and in Codex's config.toml

BEGIN = "<!-- vibegit:begin (managed by 'vibegit install --agent'; 'vibegit uninstall --agent' removes it) -->"
END = "<!-- vibegit:end -->"
TOML_BEGIN = "# vibegit:begin (managed by 'vibegit install --agent codex --mcp'; uninstall removes it)"
TOML_END = "# vibegit:end"


def block(body: str, begin: str = BEGIN, end: str = END) -> str:
    return f"{begin}\n{body.rstrip()}\n{end}\n"


def find_block(text: str, begin: str = BEGIN, end: str = END) -> tuple[int, int] | None:
    """Where the managed block stands (from its first line to after its last), if it does."""
    start = _line_at(text, begin)
    if start is None:
        return None
    stop = _line_at(text, end, start)
    if stop is None:
        return None
    after = text.find("\n", stop)
    return start, len(text) if after < 0 else after + 1


def _line_at(text: str, line: str, start: int = 0) -> int | None:
    at = start
    while True:
        at = text.find(line, at)
        if at < 0:
            return None
        if (at == 0 or text[at - 1] == "\n") and text[at + len(line) : at + len(line) + 1] in ("", "\n", "\r"):
            return at
        at += 1


def with_block(text: str, body: str, begin: str = BEGIN, end: str = END) -> str:
    """``text`` with the block holding ``body``: replaced where it stands, else appended after a blank line."""
    new = block(body, begin, end)
    found = find_block(text, begin, end)
    if found is not None:
        return text[: found[0]] + new + text[found[1] :]
    if not text:
        return new
    return text + ("\n" if text.endswith("\n") else "\n\n") + new


def without_block(text: str, begin: str = BEGIN, end: str = END) -> str | None:
    """``text`` without the block (and the blank line install put before it); None when there is none."""
    found = find_block(text, begin, end)
    if found is None:
        return None
    start, stop = found
    if text[:start].endswith("\n\n"):
        start -= 1
    return text[:start] + text[stop:]


def codex_server_block(python: str | None) -> str:
    """The ``[mcp_servers.vibegit]`` table of Codex's config.toml."""
    cmd = argv(python, "mcp")
    args = ", ".join(_toml_string(a) for a in cmd[1:])
    return f'[mcp_servers.{SERVER}]\ncommand = "{cmd[0]}"\nargs = [{args}]\nstartup_timeout_sec = 30\n'


FOREIGN_TOML_SERVER = re.compile(r'^\s*\[\s*mcp_servers\s*\.\s*"?' + SERVER + r'"?\s*\]', re.M)
