"""The four agents as vibegit installs into them: which files, in
which scope, and the exact entries, commands and instructions it writes.

Every hook entry runs vibegit's launcher (below) through ``sh -c`` with a
minimal PATH in mind; without one it exits 0 and prints nothing, so a
teammate without vibegit is not disturbed by the committed settings.
vibegit's entries are recognised by the whole shape of that command, never
by a word inside it.
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


# How vibegit starts a Python of its own (this launcher, the git hooks'
# shims/boot.py, probes): -E ignores the PYTHON* settings, and the current
# directory that -c puts first on sys.path goes, so a vibegit/ folder there
# (a project's, or .git/vibegit/ where git runs a receiving repository's
# hooks) is never imported instead of the package. Not -I: it also drops
# the user's site-packages, where 'pip install --user' puts vibegit.
ISOLATED = "-E"
UNSHADOW = "import sys;sys.path[:] = [x for x in sys.path if x]"


def python_argv(python: str, code: str, *args: str) -> list[str]:
    """``python -c CODE ARGS``, isolated (``ISOLATED``, ``UNSHADOW``)."""
    return [python, ISOLATED, "-c", f"{UNSHADOW};{code}", *args]


def marked_agent(environ: dict[str, str]) -> str | None:
    """Which of the four agents runs this command, by its own marker (None: none of them, or not known)."""
    return next((MARKER_AGENTS[name] for name in MARKERS if environ.get(name) and MARKER_AGENTS[name]), None)


# Every hook entry and MCP server entry runs one launcher: a small POSIX sh
# file install writes where git keeps its own files (``LAUNCHER_REL`` under
# the common git directory, never committed; for ``--scope user`` also one
# in vibegit's state directory), which starts the vibegit installed with the
# interpreter that ran install. The entries only find it: with no launcher
# (a teammate without vibegit, a directory outside any repository) they
# exit 0 and print nothing. Their body has no single quote (it travels in
# one) and no backslash (Codex may hand it to fish), and is the same in
# every entry, so a committed settings file stays short enough to review.
LAUNCHER_REL = "vibegit/bin/vibegit"
_FIND = 'cd "${VIBEGIT_WORKDIR:-.}" && d=$(git rev-parse --git-common-dir 2>/dev/null) && f=$d/' + LAUNCHER_REL
_FIND += ' && [ -x "$f" ]'
FIND_LAUNCHER = _FIND + ' && exec "$f" "$@"; exit 0'
FIND_LAUNCHER_OR = "h=$1; shift; " + _FIND + ' || f=$h; [ -x "$f" ] && exec "$f" "$@"; exit 0'  # then the user's
_OURS = re.compile(
    r"sh -c '[^']*' " + TAG + r" (?:(?:-|'[^']*'|/[^\s'\"\\]*) )?hook (?P<handler>[a-z-]+) --agent (?P<agent>[a-z]+)"
    r"(?P<mcp> --mcp)?"
    r"|vibegit hook (?P<old>session-start|stop) --agent (?P<old_agent>[a-z]+)"  # before the launcher
)
_SAFE_PATH = re.compile(r"/[^\x00-\x1f\x7f'\\\"`$]*")


def shell_path(path: str) -> str:
    """``path`` as one word of an entry's command, in every agent's shell."""
    if not _SAFE_PATH.fullmatch(path):
        raise BadInput(
            f"{path[:80]!r}: a path every agent's shell can take must be absolute, without quotes, '$' or '\\'"
        )
    return shlex.quote(path)


def command(user_launcher: str | None, *args: str) -> str:
    """The shell command an agent runs: find the launcher, then ``vibegit ARGS``;
    ``user_launcher`` (``--scope user``) where the repository has none."""
    if user_launcher is None:
        return f"sh -c '{FIND_LAUNCHER}' {TAG} {' '.join(args)}"
    return f"sh -c '{FIND_LAUNCHER_OR}' {TAG} {shell_path(user_launcher)} {' '.join(args)}"


def argv(user_launcher: str | None, *args: str) -> list[str]:
    """The same as an argument vector (an MCP server's command and args)."""
    if user_launcher is None:
        return ["sh", "-c", FIND_LAUNCHER, TAG, *args]
    return ["sh", "-c", FIND_LAUNCHER_OR, TAG, user_launcher, *args]


def launcher(python: str) -> str:
    """The launcher file: ``python`` (the interpreter install ran with) starts
    vibegit, with no ``PYTHON*`` variable (``-E``) and nothing of the current
    directory on ``sys.path`` (a project folder named vibegit cannot stand in
    for it). An interpreter gone or without vibegit: a hook exits 0 and says
    nothing (doctor reports it); a command says so. Two hooks that run
    before every prompt or shell command start Python only when there is
    something to do (tests/test_agents.py holds them equal to the Python)."""
    return f"""#!/bin/sh
# {MARK}: 'vibegit install --agent' writes it, 'vibegit uninstall --agent' removes it.
# The agents' hooks and commands start vibegit through it, whatever their PATH.
p={shlex.quote(python)}
run() {{
  [ -x "$p" ] && exec "$p" {ISOLATED} -c '{UNSHADOW}
try:
    from vibegit.main import main
except ImportError:
    sys.exit(0 if sys.argv[1:2] == ["hook"] else "vibegit: " + sys.executable + " has no vibegit now; run "
             "vibegit install --agent NAME again with the Python that has it")
sys.exit(main(sys.argv[1:]))' "$@"
  [ "$1" = hook ] && exit 0
  echo "vibegit: $p is gone; run 'vibegit install --agent NAME' again with the Python that has vibegit" >&2
  exit 127
}}
case "$1 $2" in
"hook prompt")  # before every prompt (Gemini CLI): only after a compression is there a report to give
  g=$(git -C "${{GEMINI_PROJECT_DIR:-.}}" rev-parse --absolute-git-dir 2>/dev/null) &&
    [ -e "$g/vibegit/compacted-$4" ] || {{ echo '{{}}'; exit 0; }} ;;
"hook pre-tool")  # before every shell command: only one naming vibegit and a decision can be the person's
  i=$(cat)
  case $i in *vibegit*) case $i in *complete*|*abort*|*unlock*) printf '%s\n' "$i" | run "$@"; exit ;; esac ;; esac
  case $4 in cursor|gemini) echo '{{}}' ;; esac
  exit 0 ;;
esac
run "$@"
"""


def launcher_python(text: str) -> str | None:
    """The interpreter a launcher file starts (None: not a launcher of vibegit's)."""
    if MARK not in text[:200]:
        return None
    for line in text.splitlines():
        if line.startswith("p="):
            words = shlex.split(line[2:])
            return words[0] if len(words) == 1 else None
    return None


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


def is_short(handler: object) -> bool:
    """Whether vibegit's session-start entry asks for the short report (the MCP server has the how-to)."""
    match = (
        _OURS.fullmatch(handler["command"])
        if isinstance(handler, dict) and isinstance(handler.get("command"), str)
        else None
    )
    return bool(match and match.group("mcp"))


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
    command_ext: str  # "md", "toml", or "skill" (a directory with SKILL.md)
    mcp: dict[str, str]  # scope -> the file that registers MCP servers
    comments: bool = False  # its settings may hold // and /* */ comments
    note: str = ""

    def entry(self, hook: Hook, user_launcher: str | None, mcp: bool = False) -> dict[str, Any]:
        """One hook group (Cursor: one flat entry) in the agent's own shape;
        with ``mcp`` the session starts with the short report."""
        short = ("--mcp",) if mcp and hook.handler == "session-start" else ()
        run = command(user_launcher, "hook", hook.handler, "--agent", self.name, *short)
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

    def server(self, user_launcher: str | None) -> dict[str, Any]:
        """vibegit's MCP server entry in this agent's JSON config."""
        cmd = argv(user_launcher, "mcp")
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
    "pre-tool": "ask the user before vibegit complete, abort or unlock",
}

SPECS = {
    "claude": Agent(
        "claude",
        "Claude Code",
        (
            Hook("SessionStart", "session-start", "startup|resume|clear|compact|fork"),
            Hook("Stop", "stop"),
            Hook("PreToolUse", "pre-tool", "Bash"),
        ),
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
        {"project": ".agents/skills", "user": ".agents/skills"},
        "skill",
        {"project": ".codex/config.toml", "user": ".codex/config.toml"},
    ),
    "cursor": Agent(
        "cursor",
        "Cursor",
        (Hook("sessionStart", "session-start"), Hook("stop", "stop"), Hook("beforeShellExecution", "pre-tool")),
        {"project": ".cursor/hooks.json", "user": ".cursor/hooks.json"},
        {"project": "AGENTS.md"},
        {"project": ".cursor/commands", "user": ".cursor/commands"},
        "md",
        {"project": ".cursor/mcp.json", "user": ".cursor/mcp.json"},
    ),
    "gemini": Agent(
        "gemini",
        "Gemini CLI",
        (
            Hook("SessionStart", "session-start"),
            Hook("AfterAgent", "stop"),
            Hook("PreCompress", "pre-compact"),
            Hook("BeforeAgent", "prompt"),
            Hook("BeforeTool", "pre-tool", "run_shell_command"),
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
    user_only: bool = False  # only the user may run it (Claude: never the model on its own; no Codex skill)
    runs: tuple[str, ...] = ()  # the vibegit commands it runs: Claude Code pre-approves exactly these
    hint: str = ""  # what the user types after it


# Where `vibegit` is not on the agent's PATH (a desktop app), the launcher the hooks use.
LAUNCHER_HINT = (
    'Where `vibegit` is not found, run it as `"$(git rev-parse --git-common-dir)/vibegit/bin/vibegit"` '
    "(the launcher the hooks use)."
)
_WORK = (
    "Then work through it as the workflow protocol (in AGENTS.md, CLAUDE.md or GEMINI.md) says: the phases "
    'R1, I, P, E, R2 (`vibegit phase P` as you move on), the plan as tasks (`vibegit task add T-001 "..."`), '
    "each task started and done (`vibegit task start T-001`, `vibegit task done T-001`), progress and checkpoints "
    "recorded as you go, remembered rules obeyed. When every task is done, show me the result and ask me to "
    "confirm completion: only I decide it."
)
_RECORDING = ("start", "phase", "task", "context", "checkpoint", "status", "memory")

SLASH_COMMANDS = (
    SlashCommand(
        "vibe-code",
        "Start a vibegit workflow (vibe-code) with these words as its goal",
        'Start a workflow for my goal below: run `vibegit start vibe-code --goal "<my goal, word for word>"` '
        "(if it refuses because a workflow already runs here, show me its message and ask what to do). "
        + _WORK
        + "\n\nMy goal: {args}",
        runs=_RECORDING,
        hint="GOAL",
    ),
    SlashCommand(
        "vibe-start",
        "Start a vibegit workflow: its name, then its goal",
        "Start a workflow: the first word below is its name, the rest its goal; run "
        '`vibegit start NAME --goal "<the goal, word for word>"` (if it refuses, show me its message and ask what '
        "to do). " + _WORK + "\n\nName and goal: {args}",
        runs=_RECORDING,
        hint="NAME GOAL",
    ),
    SlashCommand(
        "vibe-state",
        "Show the vibegit workflow state (the recovery report)",
        "Run `vibegit status` in the terminal and show me the recovery report it prints: the workflow of this "
        "worktree's branch (`vibegit list` shows the others). Then wait for my answer.",
        runs=("status", "list"),
    ),
    SlashCommand(
        "vibe-pause",
        "Pause the vibegit workflow here, with a checkpoint",
        'Pause the workflow: run `vibegit pause --action "<one line: what you were in the middle of>"` '
        "(it records a checkpoint and releases the lock), show me its output, and stop working on the workflow. {args}",
        runs=("pause",),
    ),
    SlashCommand(
        "vibe-resume",
        "Resume the vibegit workflow of this worktree",
        "Resume the workflow: run `vibegit resume`, read the report it prints, and continue from its next step, "
        "obeying the remembered rules. {args}",
        runs=("resume",),
    ),
    SlashCommand(
        "vibe-checkpoint",
        "Record a vibegit checkpoint (file:line and what you are doing)",
        'Record a checkpoint: run `vibegit checkpoint --file PATH --line N --action "<what you are doing>"` with '
        "the file and line you are working on, and show me its output. {args}",
        runs=("checkpoint",),
    ),
    SlashCommand(
        "vibe-abort",
        "Abort the vibegit workflow (its progress is kept)",
        "I want to abort the workflow. If the vibegit MCP server's `abort` tool is available, call it (it asks me "
        "to confirm); otherwise run `vibegit abort` (your permission prompt asks me) or, if your permission prompt "
        "cannot ask me, tell me to run `vibegit abort` in my own terminal. Then go back to plain conversation. {args}",
        user_only=True,
    ),
    SlashCommand(
        "vibe-unlock",
        "Release the vibegit workflow lock at once, ending the workflow",
        "I want to release the workflow lock. If the vibegit MCP server's `unlock` tool is available, call it "
        "(it asks me to confirm); otherwise run `vibegit unlock` (your permission prompt asks me) or, if your "
        "permission prompt cannot ask me, tell me to run `vibegit unlock` in my own terminal. Then go back to "
        "plain conversation. {args}",
        user_only=True,
    ),
)


def commands_for(agent: Agent) -> tuple[SlashCommand, ...]:
    """The seed's commands ``agent`` gets (Codex skills: not the user-only ones, a model may start a skill)."""
    if agent.command_ext == "skill":
        return tuple(c for c in SLASH_COMMANDS if not c.user_only)
    return SLASH_COMMANDS


def command_path(agent: Agent, scope: str, cmd: SlashCommand) -> str:
    """Where ``cmd`` goes for ``agent`` in ``scope`` (Codex: a skill's directory)."""
    folder = agent.commands[scope]
    if agent.command_ext == "skill":
        return f"{folder}/{cmd.name}/SKILL.md"
    return f"{folder}/{cmd.name}.{agent.command_ext}"


def command_file(agent: Agent, cmd: SlashCommand) -> str:
    """The file that makes ``/NAME`` a custom command of ``agent`` (Codex: the skill ``$NAME``)."""
    prompt = f"{cmd.prompt}\n\n{LAUNCHER_HINT}"
    if agent.command_ext == "toml":  # Gemini CLI: {{args}} is what the user typed
        prompt = prompt.replace("{args}", "{{args}}").strip()
        return (
            f"# {MARK}: 'vibegit uninstall --agent {agent.name}' removes this file\n"
            f"description = {_toml_string(cmd.description)}\n"
            f'prompt = """\n{prompt}\n"""\n'
        )
    if agent.command_ext == "skill":  # Codex: what the user wrote after $NAME is in the same message
        body = prompt.replace(" {args}", "").replace("{args}", f"(what I wrote after ${cmd.name})").strip()
        lines = ["---", f"name: {cmd.name}", f"# {MARK}: 'vibegit uninstall --agent codex' removes this skill"]
        return "\n".join([*lines, f"description: {cmd.description}", "---", "", body, ""])
    if agent.name == "claude":  # front matter, $ARGUMENTS; the user-only ones the model never runs by itself
        prompt = prompt.replace("{args}", "$ARGUMENTS").strip()
        lines = ["---", f"# {MARK}: 'vibegit uninstall --agent claude' removes this file"]
        lines.append(f"description: {cmd.description}")
        if cmd.hint:
            lines.append(f"argument-hint: {cmd.hint}")
        if cmd.runs:
            allowed = (f"Bash(vibegit {verb})" + f", Bash(vibegit {verb} *)" for verb in cmd.runs)
            lines.append(f"allowed-tools: {', '.join(allowed)}")
        if cmd.user_only:
            lines.append("disable-model-invocation: true")
        return "\n".join([*lines, "---", "", prompt, ""])
    prompt = prompt.replace(" {args}", "").replace("{args}", "(what I typed after the command)").strip()
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


def codex_server_block(user_launcher: str | None) -> str:
    """The ``[mcp_servers.vibegit]`` table of Codex's config.toml."""
    cmd = argv(user_launcher, "mcp")
    args = ", ".join(_toml_string(a) for a in cmd[1:])
    return f'[mcp_servers.{SERVER}]\ncommand = "{cmd[0]}"\nargs = [{args}]\nstartup_timeout_sec = 30\n'
