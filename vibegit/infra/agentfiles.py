"""The agents' settings files (SPEC §8b): vibegit's session hooks in them.

``vibegit install --agent NAME`` merges vibegit's entries into the agent's
project settings file, keeping every other key and entry; the entries are
recognised by their command (``vibegit hook session-start|stop``), so a
reinstall replaces them and ``uninstall`` removes exactly them. The file's
original bytes are kept in the git dir, so uninstall gives back the very
file that was there when nothing else changed it meanwhile.
"""

from __future__ import annotations

import json
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from vibegit.errors import OK, BadInput
from vibegit.infra import fs, git

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
            return {
                "SessionStart": [
                    {
                        "hooks": [
                            {
                                "name": "vibegit-session-start",
                                "type": "command",
                                "command": self.command("session-start"),
                                "timeout": 30000,
                                "description": "vibegit: the workflow recovery report",
                            }
                        ]
                    }
                ]
            }
        return {  # Claude Code and Codex share one shape (timeouts in seconds)
            "SessionStart": [
                {
                    "matcher": "startup|resume|clear|compact",
                    "hooks": [{"type": "command", "command": self.command("session-start"), "timeout": 30}],
                }
            ],
            "Stop": [{"hooks": [{"type": "command", "command": self.command("stop"), "timeout": 30}]}],
        }


SPECS = {
    "claude": Agent("claude", ".claude/settings.json", "Claude Code"),
    "codex": Agent(
        "codex",
        ".codex/hooks.json",
        "Codex",
        "Codex runs project hooks once you trust them (it asks on the next start, or /hooks)",
    ),
    "cursor": Agent("cursor", ".cursor/hooks.json", "Cursor"),
    "gemini": Agent(
        "gemini",
        ".gemini/settings.json",
        "Gemini CLI",
        "Gemini CLI runs hooks when its hooks system is enabled (/settings → Enable Hooks System)",
    ),
}


def spec(name: str) -> Agent:
    found = SPECS.get(name.strip().lower())
    if found is None:
        raise BadInput(f"--agent {name!r:.30}: use one of {', '.join(AGENTS)}")
    return found


# -- settings files -------------------------------------------------------------


def _is_ours(handler: object) -> bool:
    return (
        isinstance(handler, dict) and isinstance(handler.get("command"), str) and bool(OURS.search(handler["command"]))
    )


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
        raise BadInput(f'{agent.settings}: "hooks" is not an object; fix it by hand first')
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


def _read(top: Path, rel: str) -> tuple[bytes | None, dict[str, Any]]:
    """The settings file (no link followed: a committed ``.claude`` link to a
    directory elsewhere would send the write out of the repository)."""
    found = fs.lstat(top, rel)
    if found is not None and not stat.S_ISREG(found.st_mode) and not stat.S_ISLNK(found.st_mode):
        raise BadInput(f"{rel}: is not a file")
    raw = fs.read(top, rel, MAX_INPUT)
    if raw is None:
        return None, {}
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


def _backup(agent: Agent) -> str:
    """Where, under the git dir, the settings file as it was before install is kept."""
    return f"vibegit/agents/{agent.name}.json"


@dataclass(frozen=True)
class Plan:
    agent: Agent
    top: Path
    new: bytes | None  # None: delete the file
    message: str
    backup: dict[str, Any] | None = None  # written on install; removed on uninstall
    remove_dir: bool = False


def plan_install(top: Path, git_dir: Path, agent: Agent) -> Plan | None:
    raw, data = _read(top, agent.settings)
    merged = merge(data, agent)
    if raw is not None and merged == data:
        return None
    keep = None
    if fs.lstat(git_dir, _backup(agent)) is None:  # a reinstall keeps the first original
        keep = {
            "settings": agent.settings,
            "existed": raw is not None,
            "dir_existed": fs.lstat(top, agent.settings.rsplit("/", 1)[0]) is not None,
            "content": raw.decode("utf-8") if raw is not None else None,
        }
    events = " and ".join(agent.entries())
    plural = "s" if len(agent.entries()) > 1 else ""
    other = "; every other key and hook is kept" if raw else ""
    return Plan(
        agent, top, _dumps(merged, raw), f"{agent.label}: {events} hook{plural} in {agent.settings}{other}", keep
    )


def plan_uninstall(top: Path, git_dir: Path, agent: Agent) -> Plan | None:
    raw, data = _read(top, agent.settings)
    saved: dict[str, Any] | None = None
    try:
        kept = fs.read(git_dir, _backup(agent), MAX_INPUT + 4096)
        saved = json.loads(kept) if kept is not None else None
    except (OSError, ValueError, BadInput):
        saved = None
    if not isinstance(saved, dict):
        saved = None
    if raw is None:
        return None
    stripped, removed = strip(data)
    if not removed:
        return None
    message = f"{agent.label}: removed vibegit's hooks from {agent.settings}"
    if (
        saved
        and not saved.get("existed")
        and stripped in ({}, {"version": 1}, {"hooks": {}}, {"version": 1, "hooks": {}})
    ):
        return Plan(
            agent,
            top,
            None,
            f"{agent.label}: removed {agent.settings} (vibegit had created it)",
            remove_dir=not saved.get("dir_existed", True),
        )
    if saved and saved.get("existed") and isinstance(saved.get("content"), str):
        try:
            if json.loads(saved["content"] or "{}") == stripped:
                return Plan(agent, top, saved["content"].encode("utf-8"), message + " (restored as it was)")
        except ValueError:
            pass
    return Plan(agent, top, _dumps(stripped, raw), message)


def apply(plan: Plan, git_dir: Path, installing: bool) -> None:
    """Write (or remove) the settings file, never through a link."""
    rel = plan.agent.settings
    if installing and plan.backup is not None:
        fs.write(git_dir, _backup(plan.agent), json.dumps(plan.backup, ensure_ascii=False).encode())
    if plan.new is None:
        fs.remove(plan.top, rel)
        if plan.remove_dir:
            fs.remove_empty_dirs(plan.top, rel.rsplit("/", 1)[0])
    else:
        fs.write(plan.top, rel, plan.new)
    if not installing:
        fs.remove(git_dir, _backup(plan.agent))


Planned = list[tuple[Agent, Optional[Plan]]]


def plan_all(names: list[str], installing: bool, cwd: Path | None = None) -> tuple[git.Repo, Planned]:
    """Every file read and checked before any is written: bad input writes nothing."""
    agents = [spec(n) for n in dict.fromkeys(names)]
    repo = git.find_repo(cwd)
    return repo, [(a, (plan_install if installing else plan_uninstall)(repo.toplevel, repo.git_dir, a)) for a in agents]


def carry_out(repo: git.Repo, plans: Planned, installing: bool, say: Callable[[str], None]) -> int:
    for agent, plan in plans:
        if plan is None:
            state = "already installed" if installing else "no vibegit hooks to remove"
            say(f"{agent.label}: {state} ({agent.settings})")
            if not installing:
                fs.remove(repo.git_dir, _backup(agent))
            continue
        apply(plan, repo.git_dir, installing)
        say(f"✔ {plan.message}")
        if installing and agent.note:
            say(f"  note: {agent.note}")
    return OK


def stale(top: Path) -> list[str]:
    """Agents whose settings hold vibegit's entries, but not the ones install writes now."""
    found = []
    for name in AGENTS:
        agent = SPECS[name]
        try:
            raw, data = _read(top, agent.settings)
        except BadInput as err:
            found.append(f"{agent.label}: {err}")
            continue
        if raw is None or not strip(data)[1]:
            continue
        held = data.get("hooks")
        hooks: dict[str, Any] = held if isinstance(held, dict) else {}
        current = all(
            isinstance(hooks.get(event), list) and group in hooks[event]
            for event, groups in agent.entries().items()
            for group in groups
        )
        if not current:
            found.append(
                f"{agent.label}: vibegit's hooks in {agent.settings} are out of date; "
                f"run 'vibegit install --agent {name}'"
            )
    return found
