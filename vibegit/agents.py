"""Agents (SPEC §8b): their session hooks, installed into their own settings.

``vibegit install --agent NAME`` merges vibegit's entries into the agent's
project settings file, keeping every other key and entry; the entries are
recognised by their command (``vibegit hook session-start|stop``), so a
reinstall replaces them and ``uninstall`` removes exactly them. The file's
original bytes are kept in the git dir, so uninstall gives back the very
file that was there when nothing else changed it meanwhile.

The handlers (``vibegit hook session-start`` / ``stop``) read the agent's
JSON on stdin. They import neither typer nor GitPython, and never crash the
agent: on any internal error they print nothing and exit 0 (the error goes
to the log file).
"""
from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vibegit.errors import OK, BadInput
from vibegit.paths import write_atomic

AGENTS = ("claude", "codex", "cursor", "gemini")
OURS = re.compile(r"vibegit\S*\s+hook\s+(session-start|stop)\b")
MAX_INPUT = 1 << 20
MAX_SESSION_ID = 200


@dataclass(frozen=True)
class Agent:
    name: str
    settings: str  # the project settings file, relative to the top directory
    label: str
    note: str = ""  # what the user still has to do, if anything

    def command(self, handler: str) -> str:
        return f"vibegit hook {handler} --agent {self.name}"

    def entries(self) -> dict[str, list[dict[str, Any]]]:
        """vibegit's hook groups, by event, in the agent's own shape."""
        if self.name == "cursor":
            return {"sessionStart": [{"command": self.command("session-start")}]}
        if self.name == "gemini":  # timeouts in milliseconds; stdout must be JSON
            return {"SessionStart": [{"hooks": [{
                "name": "vibegit-session-start", "type": "command",
                "command": self.command("session-start"), "timeout": 30000,
                "description": "vibegit: the workflow recovery report",
            }]}]}
        return {  # Claude Code and Codex share one shape (timeouts in seconds)
            "SessionStart": [{"matcher": "startup|resume|clear|compact", "hooks": [
                {"type": "command", "command": self.command("session-start"), "timeout": 30}]}],
            "Stop": [{"hooks": [{"type": "command", "command": self.command("stop"), "timeout": 30}]}],
        }


SPECS = {
    "claude": Agent("claude", ".claude/settings.json", "Claude Code"),
    "codex": Agent("codex", ".codex/hooks.json", "Codex",
                   "Codex runs project hooks once you trust them (it asks on the next start, or /hooks)"),
    "cursor": Agent("cursor", ".cursor/hooks.json", "Cursor"),
    "gemini": Agent("gemini", ".gemini/settings.json", "Gemini CLI",
                    "Gemini CLI runs hooks when its hooks system is enabled (/settings → Enable Hooks System)"),
}


def spec(name: str) -> Agent:
    found = SPECS.get(name.strip().lower())
    if found is None:
        raise BadInput(f"--agent {name!r:.30}: use one of {', '.join(AGENTS)}")
    return found


# -- settings files -------------------------------------------------------------


def _is_ours(handler: object) -> bool:
    return isinstance(handler, dict) and isinstance(handler.get("command"), str) and bool(OURS.search(handler["command"]))


def strip(data: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """``data`` without vibegit's handlers (and the containers they alone filled)."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data, 0
    removed = 0
    new_hooks: dict[str, Any] = {}
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            new_hooks[event] = groups
            continue
        kept = []
        for group in groups:
            if _is_ours(group):  # Cursor's flat entries
                removed += 1
                continue
            inner = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(inner, list) and any(_is_ours(x) for x in inner):
                rest = [x for x in inner if not _is_ours(x)]
                removed += len(inner) - len(rest)
                if rest:
                    kept.append({**group, "hooks": rest})
                continue
            kept.append(group)
        if kept or not groups:
            new_hooks[event] = kept
    out = dict(data)
    if new_hooks or not removed:
        out["hooks"] = new_hooks
    else:
        del out["hooks"]
    return out, removed


def merge(data: dict[str, Any], agent: Agent) -> dict[str, Any]:
    """``data`` with vibegit's entries (replacing older ones of ours)."""
    out, _ = strip(data)
    hooks = out.get("hooks", {})
    if not isinstance(hooks, dict):
        raise BadInput(f"{agent.settings}: \"hooks\" is not an object; fix it by hand first")
    hooks = dict(hooks)
    for event, groups in agent.entries().items():
        current = hooks.get(event, [])
        if not isinstance(current, list):
            raise BadInput(f"{agent.settings}: hooks.{event} is not a list; fix it by hand first")
        hooks[event] = [*current, *groups]
    if agent.name == "cursor":
        out.setdefault("version", 1)
    out["hooks"] = hooks
    return out


def _read(path: Path, rel: str) -> tuple[bytes | None, dict[str, Any]]:
    if path.is_symlink():
        raise BadInput(f"{rel}: is a symbolic link; vibegit does not write through links")
    if not path.exists():
        return None, {}
    if not path.is_file():
        raise BadInput(f"{rel}: is not a file")
    raw = path.read_bytes()
    if len(raw) > MAX_INPUT:
        raise BadInput(f"{rel}: too large ({len(raw)} bytes)")
    try:
        text = raw.decode("utf-8-sig")
        data = json.loads(text) if text.strip() else {}
    except UnicodeDecodeError:
        raise BadInput(f"{rel}: not valid UTF-8") from None
    except json.JSONDecodeError as err:
        raise BadInput(f"{rel}:{err.lineno}:{err.colno}: invalid JSON: {err.msg}; nothing was changed") from None
    if not isinstance(data, dict):
        raise BadInput(f"{rel}:1: expected a JSON object, found {type(data).__name__}; nothing was changed")
    return raw, data


def _indent(raw: bytes | None) -> int | str:
    for line in (raw or b"").decode("utf-8", errors="replace").splitlines()[1:]:
        if line.strip():
            lead = line[: len(line) - len(line.lstrip())]
            return "\t" if lead.startswith("\t") else (len(lead) or 2)
    return 2


def _dumps(data: dict[str, Any], raw: bytes | None) -> bytes:
    return (json.dumps(data, indent=_indent(raw), ensure_ascii=False) + "\n").encode()



def _backup(git_dir: Path, agent: Agent) -> Path:
    return git_dir / "vibegit" / "agents" / f"{agent.name}.json"


@dataclass(frozen=True)
class Plan:
    agent: Agent
    path: Path
    new: bytes | None  # None: delete the file
    message: str
    backup: dict[str, Any] | None = None  # written on install; removed on uninstall
    remove_dir: bool = False


def plan_install(top: Path, git_dir: Path, agent: Agent) -> Plan | None:
    path = top / agent.settings
    raw, data = _read(path, agent.settings)
    merged = merge(data, agent)
    if raw is not None and merged == data:
        return None
    keep = None
    if not _backup(git_dir, agent).is_file():  # a reinstall keeps the first original
        keep = {"settings": agent.settings, "existed": raw is not None, "dir_existed": path.parent.is_dir(),
                "content": raw.decode("utf-8") if raw is not None else None}
    events = " and ".join(agent.entries())
    plural = "s" if len(agent.entries()) > 1 else ""
    other = "; every other key and hook is kept" if raw else ""
    return Plan(agent, path, _dumps(merged, raw), f"{agent.label}: {events} hook{plural} in {agent.settings}{other}",
                keep)


def plan_uninstall(top: Path, git_dir: Path, agent: Agent) -> Plan | None:
    path = top / agent.settings
    raw, data = _read(path, agent.settings)
    backup_path = _backup(git_dir, agent)
    saved: dict[str, Any] | None = None
    if backup_path.is_file():
        try:
            saved = json.loads(backup_path.read_text())
        except (OSError, ValueError):
            saved = None
    if raw is None:
        return None
    stripped, removed = strip(data)
    if not removed:
        return None
    message = f"{agent.label}: removed vibegit's hooks from {agent.settings}"
    if saved and not saved.get("existed") and stripped in ({}, {"version": 1}, {"hooks": {}}, {"version": 1, "hooks": {}}):
        return Plan(agent, path, None, f"{agent.label}: removed {agent.settings} (vibegit had created it)",
                    remove_dir=not saved.get("dir_existed", True))
    if saved and saved.get("existed") and isinstance(saved.get("content"), str):
        try:
            if json.loads(saved["content"] or "{}") == stripped:
                return Plan(agent, path, saved["content"].encode("utf-8"), message + " (restored as it was)")
        except ValueError:
            pass
    return Plan(agent, path, _dumps(stripped, raw), message)


def apply(plan: Plan, git_dir: Path, installing: bool) -> None:
    backup_path = _backup(git_dir, plan.agent)
    if installing and plan.backup is not None:
        backup_path.parent.mkdir(parents=True, exist_ok=True)
        backup_path.write_text(json.dumps(plan.backup, ensure_ascii=False))
    if plan.new is None:
        plan.path.unlink()
        if plan.remove_dir:
            try:
                plan.path.parent.rmdir()
            except OSError:
                pass
    else:
        plan.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(plan.path, plan.new)
    if not installing:
        backup_path.unlink(missing_ok=True)


Planned = "list[tuple[Agent, Plan | None]]"


def plan_all(names: list[str], installing: bool, cwd: Path | None = None) -> tuple[Any, Planned]:
    """Every file read and checked before any is written: bad input writes nothing."""
    from vibegit import git

    agents = [spec(n) for n in dict.fromkeys(names)]
    repo = git.find_repo(cwd)
    return repo, [(a, (plan_install if installing else plan_uninstall)(repo.toplevel, repo.git_dir, a)) for a in agents]


def carry_out(repo: Any, plans: Planned, installing: bool, say: Any) -> int:
    for agent, plan in plans:
        if plan is None:
            state = "already installed" if installing else "no vibegit hooks to remove"
            say(f"{agent.label}: {state} ({agent.settings})")
            if not installing:
                _backup(repo.git_dir, agent).unlink(missing_ok=True)
            continue
        apply(plan, repo.git_dir, installing)
        say(f"✔ {plan.message}")
        if installing and agent.note:
            say(f"  note: {agent.note}")
    return OK


def cmd_install(hooks: list[str] | None, names: list[str] | None, installing: bool = True) -> int:
    """``vibegit install/uninstall [--hook NAME…] [--agent NAME…]``: with only
    ``--agent``, just the agents' settings; otherwise the git hooks too."""
    from vibegit import install

    planned = plan_all(names, installing) if names else None
    code = OK
    if hooks or not names:
        code = install.install(hooks or None) if installing else install.uninstall(hooks or None)
    if planned is not None and code == OK:
        code = carry_out(*planned, installing, print)
    return code


# -- the handlers ---------------------------------------------------------------


def _log(where: str) -> None:
    """The traceback to the error log (best effort): the agent must never see a crash."""
    from vibegit.main import log_unexpected

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


def _load(data: dict[str, Any]) -> tuple[Any, Any] | None:
    """(Here, Loaded) of the repository the agent works in; None outside one."""
    from vibegit import commands, store
    from vibegit.errors import VibegitError

    try:
        h = commands.here(_workdir(data))
    except VibegitError:
        return None  # not a repository: nothing to say
    return h, store.read_state(h.repo, h.settings)


def _session_id(data: dict[str, Any]) -> str | None:
    value = data.get("session_id") or data.get("conversation_id")
    if not isinstance(value, str):
        return None
    value = value.strip()
    if not value or len(value) > MAX_SESSION_ID or any(ch in value for ch in "\0\r\n"):
        return None
    return value


def _record_session(h: Any, data: dict[str, Any], agent: str) -> None:
    from vibegit import commands, store
    from vibegit.core import lifecycle

    session_id = _session_id(data)
    if session_id is None:
        return
    source = data.get("source") if isinstance(data.get("source"), str) else ""
    e = commands.env(h)
    try:
        written = store.transact(h.repo, h.settings, h.config, e,
                                 lambda s: lifecycle.agent_session(s, e, session_id, agent, str(source)[:20]))
    except lifecycle.Unchanged:
        return
    for notice in written.notices:
        print(f"vibegit: {notice}", file=sys.stderr)


def _report(h: Any, loaded: Any) -> str:
    from vibegit import commands
    from vibegit.core import report

    return report.render(loaded.state, h.settings.lang, commands.head_commit(h.repo))


def session_start(argv: list[str]) -> int:
    """``vibegit hook session-start --agent NAME``: the report becomes the new session's context."""
    agent = _agent_arg(argv)
    text = ""
    try:
        data = read_input()
        found = _load(data)
        if found is not None:
            from vibegit.core.report import is_active

            h, loaded = found
            if is_active(loaded.state):
                text = _report(h, loaded).rstrip("\n")
                try:
                    _record_session(h, data, agent)
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
    from vibegit import commands
    from vibegit.core.model import Status

    if state.workflow.status is not Status.RUNNING:
        return False
    lock = state.lock
    if lock is not None and lock.host and (lock.host, lock.worktree) != (commands.this_host(), str(h.repo.toplevel)):
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
        h, loaded = found
        if must_continue(h, loaded.state):
            print(json.dumps({"decision": "block", "reason": stop_reason(loaded.state)}, ensure_ascii=False))
            sys.stdout.flush()
    except Exception:
        _log(f"stop --agent {agent}")
    return OK


# -- agent-instructions ---------------------------------------------------------

INSTRUCTIONS = {
    "en": """\
## Workflow state (vibegit)

This project keeps the agent's workflow state in git (branch `vibegit/state`),
so it survives compaction, new sessions and other machines. The files in
`project_document/.ai_state/` are a copy; change state with the commands.

- Session start: read the recovery report (the session hook prints it; else
  run `vibegit status`). If a workflow is active, continue it; never fall
  back to plain chat. Paused: ask the user, then `vibegit resume`.
- New multi-step work: `vibegit start vibe-code --goal "..."`, then
  `vibegit task add T-001 "..."` for each step.
- Phases: `vibegit phase R1|I|P|E|R2 [--step 4.3]` when you move on.
- Tasks: `vibegit task start T-001` before, `vibegit task done T-001` after.
- After each meaningful step: `vibegit context --last "..." --next "..."`.
- Before a risky or long step: `vibegit checkpoint --file PATH --line N --action "..."`.
- Need the user: `vibegit context --question "..."`, ask, then stop;
  `vibegit context --answer N` once answered.
- Rules the user states: `vibegit memory add forbidden_action|user_preference|code_pattern "..."`.
  Obey the remembered rules in the report, forbidden actions first.
- Stopping mid-way: `vibegit pause --action "..."`.
- All tasks done: show the result and ask the user to confirm; only after
  they confirm, `vibegit complete --yes`.
- Never edit `workflow.lock` by hand and never commit with `--no-verify` to
  get around the lock.
""",
    "zh": """\
## 工作流状态 (vibegit)

本项目用 git 保存智能体的工作流状态（分支 `vibegit/state`），
上下文压缩、新会话、换机器都不会丢失。`project_document/.ai_state/`
中的文件只是副本；请用命令修改状态。

- 会话开始：阅读恢复报告（会话钩子会输出；否则运行 `vibegit status`）。
  有活动工作流就继续执行，不要退化为普通对话。已暂停：询问用户后 `vibegit resume`。
- 新的多步骤工作：`vibegit start vibe-code --goal "..."`，
  然后为每一步 `vibegit task add T-001 "..."`。
- 阶段：进入下一阶段时 `vibegit phase R1|I|P|E|R2 [--step 4.3]`。
- 任务：开始前 `vibegit task start T-001`，完成后 `vibegit task done T-001`。
- 每个有意义的步骤后：`vibegit context --last "..." --next "..."`。
- 有风险或耗时的步骤前：`vibegit checkpoint --file PATH --line N --action "..."`。
- 需要用户：`vibegit context --question "..."`，提问后停下；
  得到回答后 `vibegit context --answer N`。
- 用户提出的规则：`vibegit memory add forbidden_action|user_preference|code_pattern "..."`。
  遵守报告中的记忆规则，禁止操作优先。
- 中途停止：`vibegit pause --action "..."`。
- 所有任务完成：展示结果并请用户确认（寸止）；用户确认后才 `vibegit complete --yes`。
- 不要手动编辑 `workflow.lock`，也不要用 `--no-verify` 绕过锁提交。
""",
}


def cmd_instructions(lang: str) -> int:
    print(INSTRUCTIONS[lang], end="")
    return OK
