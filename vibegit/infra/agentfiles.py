"""The agents' files: vibegit's hooks in their settings, its
``/vibe-*`` commands, its block in AGENTS.md / CLAUDE.md / GEMINI.md and its
MCP server in their config; install, check, uninstall.

Every file is read and every change planned before anything is written, so
bad input writes nothing. Files are written through ``infra/fs.py``: never
through a link, below the repository's top (``--scope project|local``) or
the home directory (``--scope user``). The first install keeps each file's
bytes (under the git dir; for the home's files in vibegit's state
directory); uninstall gives them back when nothing else changed the file,
and removes a file (and the directories) install created.
"""

from __future__ import annotations

import base64
import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

from vibegit.core import agents, agentsettings, jsonc
from vibegit.core.agents import Agent, spec
from vibegit.core.protocol import protocol
from vibegit.core.records import field, frozen, mutable
from vibegit.errors import BadInput
from vibegit.infra import fs, git

MAX_INPUT = 1 << 20


@frozen
class Place:
    """A file an agent reads, below the repository's top or the home directory."""

    root: Path
    rel: str
    user: bool = False

    def show(self) -> str:
        return f"~/{self.rel}" if self.user else self.rel


@mutable
class Edit:
    place: Place
    before: bytes | None
    after: bytes | None  # None: the file goes
    kind: str = "text"  # json (an agent's settings), text (a managed block), command (a whole file of ours)
    comments: bool = False


def home() -> Path:
    return Path(os.path.expanduser("~"))


def state_dir() -> Path:
    """vibegit's own directory for what it keeps of the home's files."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "vibegit"


class Files:
    """The files one install or uninstall touches: each read once, changed in
    memory, written together at the end."""

    def __init__(self, repo: git.Repo, scope: str) -> None:
        self.repo, self.scope = repo, scope
        self.edits: dict[tuple[Path, str], Edit] = {}
        self.launcher: tuple[Place, bytes] | None = None  # install writes it (when it differs)

    def place(self, rel: str) -> Place:
        return Place(home(), rel, True) if self.scope == "user" else Place(Path(self.repo.toplevel), rel)

    def edit(self, place: Place, kind: str = "text", comments: bool = False) -> Edit:
        key = (place.root, place.rel)
        if key not in self.edits:
            found = fs.lstat(place.root, place.rel)  # a link on the way is refused here
            if found is not None and not stat.S_ISREG(found.st_mode):
                what = "a symbolic link" if stat.S_ISLNK(found.st_mode) else "not a regular file"
                raise BadInput(f"{place.show()}: is {what}; vibegit never writes through links or over other files")
            data = fs.read(place.root, place.rel, MAX_INPUT)
            self.edits[key] = Edit(place, data, data, kind, comments)
        return self.edits[key]

    def text(self, place: Place, kind: str = "text", comments: bool = False) -> str | None:
        data = self.edit(place, kind, comments).after
        if data is None:
            return None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise BadInput(f"{place.show()}: not valid UTF-8; nothing was changed") from None

    def set(self, place: Place, text: str | None) -> None:
        self.edits[(place.root, place.rel)].after = None if text is None else text.encode()

    def changed(self) -> list[Edit]:
        return [e for e in self.edits.values() if e.after != e.before]

    def backup_at(self, place: Place) -> tuple[Path, str]:
        key = place.rel.replace("%", "%25").replace("/", "%2F")
        if place.user:
            return state_dir(), f"agents/{key}.json"
        return Path(self.repo.git_dir), f"vibegit/agents/{key}.json"

    def saved(self, place: Place) -> dict[str, Any] | None:
        root, rel = self.backup_at(place)
        try:
            raw = fs.read(root, rel, 4 * MAX_INPUT) if root.is_dir() else None
            saved = json.loads(raw) if raw is not None else None
        except (OSError, ValueError, BadInput):
            return None
        return saved if isinstance(saved, dict) else None


# -- install -----------------------------------------------------------------------------


@mutable
class Report:
    """What install or uninstall did, agent by agent."""

    lines: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _agents(names: list[str], scope: str) -> list[Agent]:
    found = [spec(n) for n in dict.fromkeys(names)]
    for agent in found:
        agents.check_scope(agent, scope)
    return found


def user_launcher(scope: str) -> str | None:
    """The launcher the entries fall back on: the user's own, for ``--scope user`` only."""
    return str(user_launcher_place().root / user_launcher_place().rel) if scope == "user" else None


def plan_install(repo: git.Repo, names: list[str], scope: str, mcp: bool, lang: str) -> tuple[Files, Report]:
    files, report = Files(repo, scope), Report()
    python = user_launcher(scope)
    for agent in _agents(names, scope):
        done: list[str] = []
        settings = files.place(agent.settings[scope])
        short = (mcp and scope in agent.mcp) or _server_registered(files, agent, scope)
        entries = [(h, agent.entry(h, python, short)) for h in agent.hooks]
        server_here = mcp and agent.mcp.get(scope) == agent.settings[scope]
        before = files.text(settings, "json", agent.comments)
        after = agentsettings.install(
            before, agent, settings.show(), entries, agent.server(python) if server_here else None
        )
        if after != before:
            files.set(settings, after)
            events = _and(list(dict.fromkeys(h.event for h in agent.hooks)))
            done.append(f"{events} hooks{' and the MCP server' if server_here else ''} in {settings.show()}")
        if mcp and not server_here:
            done += _install_server(files, agent, scope, python, report)
        done += _install_commands(files, agent, scope, report)
        done += _install_block(files, agent, scope, lang, report)
        if files.launcher is None:
            _plan_launcher(files)
        if done:
            report.lines += [f"✔ {agent.label}: {what}" for what in done]
            if agent.note:
                report.notes.append(f"  note: {agent.note}")
        report.notes += [f"  {line}" for line in warnings(repo, agent, scope)]
        if not done:
            report.lines.append(f"{agent.label}: already installed ({settings.show()}), unchanged")
    return files, report


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _server_registered(files: Files, agent: Agent, scope: str) -> bool:
    """Whether vibegit's MCP server is in the agent's config of ``scope`` (as it stands, before this change)."""
    if scope not in agent.mcp:
        return False
    place = files.place(agent.mcp[scope])
    if place.rel.endswith(".toml"):
        return agents.find_block(files.text(place) or "", agents.TOML_BEGIN, agents.TOML_END) is not None
    text = files.text(place, "json", agent.comments)
    return (
        bool(text and text.strip()) and agentsettings.status(text, agent, place.show(), [], {}).get("mcp") != "missing"
    )


def _install_server(files: Files, agent: Agent, scope: str, python: str | None, report: Report) -> list[str]:
    if scope not in agent.mcp:
        report.notes.append(
            f"  note: {agent.label} keeps {scope} MCP servers in its own config: "
            f"'claude mcp add --scope {scope} {agents.SERVER} -- vibegit mcp' registers it"
        )
        return []
    place = files.place(agent.mcp[scope])
    if place.rel.endswith(".toml"):
        before = files.text(place)
        text = before or ""
        outside = agents.without_block(text, agents.TOML_BEGIN, agents.TOML_END)
        servers = parse_toml(text if outside is None else outside, place.show()).get("mcp_servers")
        if isinstance(servers, dict) and agents.SERVER in servers:
            raise BadInput(f"{place.show()}: [mcp_servers.{agents.SERVER}] is there and not vibegit's; rename it first")
        after = agents.with_block(text, agents.codex_server_block(python), agents.TOML_BEGIN, agents.TOML_END)
    else:
        before = files.text(place, "json", agent.comments)
        after = agentsettings.install(before, agent, place.show(), [], agent.server(python))
    if after == before:
        return []
    files.set(place, after)
    return [f"MCP server '{agents.SERVER}' in {place.show()}"]


def _install_commands(files: Files, agent: Agent, scope: str, report: Report) -> list[str]:
    folder = agent.commands.get(scope)
    if folder is None:
        return []
    written = []
    for cmd in agents.commands_for(agent):
        place = files.place(agents.command_path(agent, scope, cmd))
        before = files.edit(place, "command").before
        if before is not None and not agents.is_our_command(before):
            report.notes.append(f"  note: {place.show()} is not vibegit's; left alone (/{cmd.name} stays yours)")
            continue
        text = agents.command_file(agent, cmd)
        if files.text(place, "command") != text:
            files.set(place, text)
            written.append(f"/{cmd.name}")
    return [f"{_and(written)} in {folder}/"] if written else []


def _instructions(files: Files, rel: str) -> tuple[Place | None, str]:
    """Where the block goes for the instructions file ``rel``: the file, or the
    file a link there points to inside the same root (a committed ``CLAUDE.md
    -> AGENTS.md``); None, and why, for a link that leads anywhere else."""
    place = files.place(rel)
    found = fs.lstat(place.root, place.rel)  # a link on the way is refused here
    if found is None or not stat.S_ISLNK(found.st_mode):
        return place, ""
    target = os.readlink(place.root / place.rel)
    joined = os.path.normpath(os.path.join(os.path.dirname(rel), target))
    inside = fs.relative(Path(target), place.root) if os.path.isabs(target) else joined
    if inside and not inside.startswith(".."):
        there = fs.lstat(place.root, inside)
        if there is not None and stat.S_ISREG(there.st_mode):
            return files.place(inside), ""
    return (
        None,
        f"  note: {place.show()} links to {target!r:.80}, not to a file here; the protocol block is not written through it ('vibegit agent-instructions' prints it)",
    )


def _install_block(files: Files, agent: Agent, scope: str, lang: str, report: Report) -> list[str]:
    rel = agent.instructions.get(scope)
    if rel is None:
        return []
    place, why = _instructions(files, rel)
    if place is None:
        if why not in report.notes:
            report.notes.append(why)
        return []
    before = files.text(place)
    after = agents.with_block(before or "", protocol(lang))
    if after == before:
        return []
    files.set(place, after)
    return [f"the working protocol in {place.show()} (a marked block)"]


# -- uninstall ---------------------------------------------------------------------------


def plan_uninstall(repo: git.Repo, names: list[str], scope: str) -> tuple[Files, Report]:
    files, report = Files(repo, scope), Report()
    leaving = _agents(names, scope)
    for agent in leaving:
        done: list[str] = []
        settings = files.place(agent.settings[scope])
        before = files.text(settings, "json", agent.comments)
        if before is not None and before.strip():
            after, removed = agentsettings.strip(before, agent, settings.show())
            if removed:
                files.set(settings, after)
                done.append(f"removed vibegit's hooks from {settings.show()}")
        mcp = agent.mcp.get(scope)
        if mcp is not None and mcp != agent.settings[scope]:
            done += _uninstall_server(files, agent, files.place(mcp))
        folder = agent.commands.get(scope)
        removed_commands = 0
        for cmd in agents.commands_for(agent) if folder else ():
            place = files.place(agents.command_path(agent, scope, cmd))
            data = files.edit(place, "command").before
            if data is not None and agents.is_our_command(data):
                files.set(place, None)
                removed_commands += 1
        if removed_commands:
            done.append(f"removed the /vibe-* commands from {folder}/")
        rel = agent.instructions.get(scope)
        md = _instructions(files, rel)[0] if rel is not None else None
        if md is not None and not _shared_and_kept(files, agent, scope, md.rel, leaving):
            text = files.text(md)
            stripped = agents.without_block(text) if text is not None else None
            if stripped is not None:
                files.set(md, stripped)
                done.append(f"removed vibegit's block from {md.show()}")
        report.lines += [f"✔ {agent.label}: {what}" for what in done] or [
            f"{agent.label}: nothing of vibegit's to remove ({settings.show()})"
        ]
    return files, report


def _uninstall_server(files: Files, agent: Agent, place: Place) -> list[str]:
    if place.rel.endswith(".toml"):
        text = files.text(place)
        stripped = agents.without_block(text, agents.TOML_BEGIN, agents.TOML_END) if text is not None else None
        if stripped is None:
            return []
        files.set(place, stripped)
    else:
        text = files.text(place, "json", agent.comments)
        if text is None or not text.strip():
            return []
        stripped, removed = agentsettings.strip(text, agent, place.show())
        if not removed:
            return []
        files.set(place, stripped)
    return [f"removed the MCP server from {place.show()}"]


def _shared_and_kept(files: Files, agent: Agent, scope: str, rel: str, leaving: list[Agent]) -> bool:
    """Another agent reads the same instructions file and keeps vibegit's hooks (AGENTS.md: Codex and Cursor)."""
    for other in agents.SPECS.values():
        theirs = other.instructions.get(scope)
        where = _instructions(files, theirs)[0] if theirs is not None else None
        if other in leaving or where is None or where.rel != rel or scope not in other.settings:
            continue
        text = files.text(files.place(other.settings[scope]), "json", other.comments)
        if text and agentsettings.strip(text, other, other.settings[scope], server=False)[1]:
            return True
    return False


# -- writing, with the originals kept ------------------------------------------------------


def carry_out(files: Files, installing: bool) -> list[str]:
    """Write every planned change; on uninstall a file comes back as install
    found it when nothing else changed it. What happened to each file, in lines."""
    said: list[str] = []
    changed = files.changed()
    if files.scope == "user" and changed:
        state_dir().mkdir(parents=True, exist_ok=True)
    missing = {id(edit): _missing_dirs(edit.place) for edit in changed} if installing else {}
    leftover: dict[Path, set[str]] = {}
    for edit in changed:
        place = edit.place
        broot, brel = files.backup_at(place)
        saved = files.saved(place)
        if installing:
            if saved is None:
                original = {
                    "file": place.show(),
                    "existed": edit.before is not None,
                    "content": base64.b64encode(edit.before or b"").decode(),
                    "created": missing[id(edit)],
                }
                fs.write(broot, brel, json.dumps(original).encode())
            _write(place, edit.after)
            continue
        after = _as_found(edit, saved)
        _write(place, after)
        if after is None and saved is not None and not saved.get("existed"):
            leftover.setdefault(place.root, set()).update(d for d in saved.get("created", []) if isinstance(d, str))
            if edit.kind != "command":
                said.append(f"  {place.show()}: removed (vibegit had created it)")
        elif saved is not None and after is not None and after == _original(saved):
            said.append(f"  {place.show()}: back as it was before install")
        fs.remove(broot, brel)
    for root, dirs in leftover.items():
        for d in sorted(dirs, key=len, reverse=True):
            fs.remove_empty_dirs(root, d)
    return said


def _write(place: Place, data: bytes | None) -> None:
    if data is None:
        fs.remove(place.root, place.rel)
    else:
        fs.write(place.root, place.rel, data)


def _original(saved: dict[str, Any]) -> bytes | None:
    if not saved.get("existed"):
        return None
    try:
        return base64.b64decode(str(saved.get("content", "")), validate=True)
    except ValueError:
        return None


def _as_found(edit: Edit, saved: dict[str, Any] | None) -> bytes | None:
    """What uninstall writes: the original bytes when what is left equals
    them, nothing when install created a file that is now empty of others'
    content, else what is left."""
    after = edit.after
    if after is None or saved is None:
        return after
    original = _original(saved)
    if edit.kind == "json":
        left = _value(after, edit.comments)
        if original is None:
            return None if left in ({}, {"version": 1}) else after
        settled = agentsettings.settled
        return original if settled(_value(original, edit.comments)) == settled(left) else after
    if original is None:
        return None if not after.strip() else after
    return original if after.rstrip(b"\n") == original.rstrip(b"\n") else after


def _value(data: bytes, comments: bool) -> Any:
    from vibegit.core import jsonc

    try:
        return jsonc.parse(data.decode("utf-8"), comments).value if data.strip() else {}
    except (ValueError, UnicodeDecodeError):
        return object()  # equal to nothing


def _missing_dirs(place: Place) -> list[str]:
    """The directories on the way to ``place`` that do not exist yet (install makes them)."""
    names = fs.parts(place.rel)[:-1]
    missing = []
    for i in range(len(names), 0, -1):
        rel = "/".join(names[:i])
        if fs.lstat(place.root, rel) is not None:
            break
        missing.append(rel)
    return missing


# -- the launcher the entries start vibegit through ------------------------------------------

OLD_PYTHON_KEY = "vibegit.python"  # where the launcher of before looked the interpreter up


def launcher_place(repo: git.Repo, scope: str) -> Place:
    """The repository's launcher (under the common git directory: every worktree's), or the user's."""
    return user_launcher_place() if scope == "user" else Place(Path(repo.common_dir), agents.LAUNCHER_REL)


def user_launcher_place() -> Place:
    return Place(state_dir(), "bin/vibegit", True)


def _shown(repo: git.Repo, place: Place) -> str:
    path = place.root / place.rel
    if place.user:
        rel = fs.relative(path, home())
        return f"~/{rel}" if rel else str(path)
    return fs.relative(path, repo.toplevel) or str(path)


def _plan_launcher(files: Files) -> None:
    """The launcher install writes for ``files``' scope: it starts this interpreter.
    A file there that is not vibegit's is refused before anything is written."""
    place = launcher_place(files.repo, files.scope)
    found = fs.lstat(place.root, place.rel)
    if found is not None:
        data = fs.read(place.root, place.rel, MAX_INPUT) if stat.S_ISREG(found.st_mode) else None
        if data is None or agents.launcher_python(data.decode("utf-8", errors="replace")) is None:
            raise BadInput(f"{_shown(files.repo, place)}: is not vibegit's launcher; move it away first")
    files.launcher = (place, agents.launcher(sys.executable).encode())


def write_launcher(files: Files) -> list[str]:
    """Install: the launcher as planned, executable; and the older git config setting gone."""
    said = []
    if files.launcher is not None:
        place, want = files.launcher
        found = fs.lstat(place.root, place.rel)
        current = found is not None and found.st_mode & 0o111 and fs.read(place.root, place.rel, MAX_INPUT) == want
        if not current:
            fs.write(place.root, place.rel, want, mode=0o755)
            said.append(
                f"✔ the launcher {_shown(files.repo, place)}: the agents' hooks and commands start vibegit "
                f"with {sys.executable} through it"
            )
    if git.config_values(files.repo, OLD_PYTHON_KEY):
        files.repo.git("config", "--unset-all", OLD_PYTHON_KEY, check=False)
        said.append(f"  git config --unset {OLD_PYTHON_KEY} (the launcher replaces it)")
    return said


def drop_launcher(repo: git.Repo, scope: str) -> list[str]:
    """Uninstall: the launcher goes once no entry of its scopes is left (the
    repository's serves project and local, the user's serves user)."""
    still = (
        installed_anywhere(repo, "user")
        if scope == "user"
        else any(installed_anywhere(repo, s) for s in ("project", "local"))
    )
    said = []
    place = launcher_place(repo, scope)
    if not still and fs.lstat(place.root, place.rel) is not None:
        data = fs.read(place.root, place.rel, MAX_INPUT) or b""
        if agents.launcher_python(data.decode("utf-8", errors="replace")) is not None:
            fs.remove(place.root, place.rel)
            fs.remove_empty_dirs(place.root, place.rel.rsplit("/", 1)[0])
            said.append(f"  {_shown(repo, place)}: removed (no agent's entry uses it now)")
    if scope != "user" and not still and git.config_values(repo, OLD_PYTHON_KEY):
        repo.git("config", "--unset-all", OLD_PYTHON_KEY, check=False)
        said.append(f"  git config --unset {OLD_PYTHON_KEY}")
    return said


def has_own_hooks(repo: git.Repo, name: str) -> bool:
    """Whether vibegit's hooks are in ``name``'s own settings (project or user scope)."""
    agent = agents.SPECS[name]
    for scope in ("project", "user"):
        files = Files(repo, scope)
        try:
            text = files.text(files.place(agent.settings[scope]), "json", agent.comments)
            if text and agentsettings.strip(text, agent, agent.settings[scope], server=False)[1]:
                return True
        except BadInput:
            continue
    return False


def installed_anywhere(repo: git.Repo, scope: str) -> bool:
    files = Files(repo, scope)
    for agent in agents.SPECS.values():
        if scope not in agent.settings:
            continue
        try:
            text = files.text(files.place(agent.settings[scope]), "json", agent.comments)
            if text and agentsettings.strip(text, agent, agent.settings[scope])[1]:
                return True
        except BadInput:
            continue
    return False


# -- check -------------------------------------------------------------------------------------


@mutable
class Status:
    agent: Agent
    scope: str
    hooks: dict[str, str]  # event -> current | outdated | missing
    commands: tuple[int, int]  # current, of
    block: str  # current | outdated | missing | "" (none in this scope)
    server: str  # current | outdated | missing | "" (none in this scope)
    where: str
    yours: list[str] = field(default_factory=list)  # command files of the same name that are the user's

    @property
    def installed(self) -> bool:
        return any(v != "missing" for v in self.hooks.values())

    def current(self, mcp: bool) -> bool:
        ok = all(v == "current" for v in self.hooks.values()) and self.commands[0] == self.commands[1]
        return ok and self.block in ("current", "") and (not mcp or self.server in ("current", ""))


def check(repo: git.Repo, agent: Agent, scope: str, lang: str) -> Status:
    """What of vibegit's is in the agent's files of ``scope``, and whether it is what install writes now."""
    files, python = Files(repo, scope), user_launcher(scope)
    settings = files.place(agent.settings[scope])
    short = _server_registered(files, agent, scope)
    entries = [(h, agent.entry(h, python, short)) for h in agent.hooks]
    text = files.text(settings, "json", agent.comments)
    server_here = agent.mcp.get(scope) == agent.settings[scope]
    found = agentsettings.status(text, agent, settings.show(), entries, agent.server(python) if server_here else None)
    server = found.pop("mcp", "")
    if scope in agent.mcp and not server_here:
        place = files.place(agent.mcp[scope])
        if place.rel.endswith(".toml"):
            body = agents.find_block(files.text(place) or "", agents.TOML_BEGIN, agents.TOML_END)
            want = agents.block(agents.codex_server_block(python), agents.TOML_BEGIN, agents.TOML_END)
            have = (files.text(place) or "")[body[0] : body[1]] if body else None
            server = "missing" if have is None else "current" if have == want else "outdated"
        else:
            mcp_text = files.text(place, "json", agent.comments)
            server = agentsettings.status(mcp_text, agent, place.show(), [], agent.server(python)).get("mcp", "missing")
    current = total = 0
    folder = agent.commands.get(scope)
    yours = []
    for cmd in agents.commands_for(agent) if folder else ():
        place = files.place(agents.command_path(agent, scope, cmd))
        data = files.edit(place, "command").before
        if data is not None and not agents.is_our_command(data):
            yours.append(f"/{cmd.name}")  # the user's own: left alone, not vibegit's to bring up to date
            continue
        total += 1
        current += files.text(place, "command") == agents.command_file(agent, cmd)
    block = ""
    place_md = _instructions(files, agent.instructions[scope])[0] if scope in agent.instructions else None
    if place_md is not None:
        md = files.text(place_md) or ""
        span = agents.find_block(md)
        block = (
            "missing"
            if span is None
            else "current"
            if md[span[0] : span[1]] == agents.block(protocol(lang))
            else "outdated"
        )
    return Status(agent, scope, found, (current, total), block, server, settings.show(), yours)


# -- doctor: the agent side ------------------------------------------------------------------


def health(repo: git.Repo, lang: str) -> tuple[list[str], bool]:
    """What ``doctor`` says of the agents vibegit is installed into: ✔ lines,
    ✘ problems (the second value: any) and ⚠ what only the agent can fix."""
    lines: list[str] = []
    bad = False
    scopes: dict[str, None] = {}  # the launchers in use: the repository's, the user's
    for scope in agents.SCOPES:
        for agent in agents.SPECS.values():
            if scope not in agent.settings:
                continue
            try:
                status = check(repo, agent, scope, lang)
            except BadInput as err:
                lines.append(f"✘ {agent.label} ({scope}): {err}")
                bad = True
                continue
            if not status.installed:
                continue
            scopes.setdefault("user" if scope == "user" else "project", None)
            where = "" if scope == "project" else f" --scope {scope}"
            if status.current(mcp=False):
                lines.append(f"✔ {agent.label} ({scope}): vibegit's hooks, commands and protocol are current")
            else:
                lines.append(
                    f"✘ {agent.label} ({scope}): vibegit's entries are missing or outdated; "
                    f"'vibegit install --agent {agent.name}{where}' brings them up to date"
                )
                bad = True
            said = warnings(repo, agent, scope)
            lines += said
            bad = bad or any(line.startswith("✘") for line in said)
    for scope in scopes:
        ok, line = launcher(repo, scope)
        lines.append(line)
        bad = bad or not ok
    return lines, bad


def launcher(repo: git.Repo, scope: str) -> tuple[bool, str]:
    """Whether the launcher of ``scope``'s entries starts vibegit: there,
    vibegit's, as install writes it, and its interpreter imports vibegit."""
    from vibegit.core.messages import t

    place = launcher_place(repo, scope)
    shown = _shown(repo, place)
    again = "vibegit install --agent NAME" + ("" if scope == "project" else f" --scope {scope}")
    try:
        found = fs.lstat(place.root, place.rel)
        data = fs.read(place.root, place.rel, MAX_INPUT) if found is not None and stat.S_ISREG(found.st_mode) else None
    except BadInput as err:
        return False, f"✘ {shown}: {err}"
    text = (data or b"").decode("utf-8", errors="replace")
    python = agents.launcher_python(text) if found is not None else None
    if found is None:
        why = t("install.launcher_missing", where=shown, again=again)
    elif python is None:
        why = t("install.launcher_foreign", where=shown, again=again)
    elif text != agents.launcher(python) or not found.st_mode & 0o111:
        why = t("install.launcher_outdated", where=shown, again=again)
    elif not _imports_vibegit(python):
        why = t("install.launcher_no_vibegit", where=shown, python=python, again=again)
    else:
        return True, "✔ " + t("install.launcher_ok", where=shown, python=python)
    return False, f"✘ {why}"


def _imports_vibegit(python: str) -> bool:
    """Whether ``python`` imports vibegit as the launcher runs it (no PYTHON*, not from the current directory)."""
    import subprocess  # here: doctor and --check only

    if not os.path.isabs(python) or not os.access(python, os.X_OK):
        return False
    try:
        probe = subprocess.run(
            agents.python_argv(python, "import vibegit.main"),
            capture_output=True,
            timeout=30,
            stdin=subprocess.DEVNULL,
            cwd=os.path.abspath(os.sep),
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return probe.returncode == 0


def parse_toml(text: str, where: str) -> dict[str, Any]:
    """TOML's tables; bad TOML is bad input naming the file and line (tomllib; tomli on Python 3.10)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

    try:
        tables: dict[str, Any] = tomllib.loads(text)
        return tables
    except tomllib.TOMLDecodeError as err:
        raise BadInput(f"{where}: not valid TOML: {err}") from None


def read_toml(root: Path, rel: str) -> dict[str, Any] | None:
    """A TOML file's tables (None: no such file)."""
    raw = fs.read(root, rel, MAX_INPUT)
    if raw is None:
        return None
    try:
        return parse_toml(raw.decode("utf-8"), rel)
    except UnicodeDecodeError:
        raise BadInput(f"{rel}: not valid UTF-8") from None


def _json_value(root: Path, rel: str, comments: bool) -> Any:
    try:
        raw = fs.read(root, rel, MAX_INPUT)
        return jsonc.parse(raw.decode("utf-8"), comments=comments).value if raw and raw.strip() else None
    except (BadInput, ValueError, UnicodeDecodeError):
        return None


def warnings(repo: git.Repo, agent: Agent, scope: str) -> list[str]:
    """What keeps the agent from running vibegit's hooks (✘: a switch that
    turns them off, named with its file) and what it asks of the user first
    (⚠: Codex's project trust and review, Cursor's version)."""
    places = [(Path(repo.toplevel), rel, rel) for s, rel in agent.settings.items() if s != "user"]
    places.append((home(), agent.settings["user"], f"~/{agent.settings['user']}"))
    out: list[str] = []
    if agent.name == "claude":
        places += [(Path(p).parent, Path(p).name, p) for p in CLAUDE_MANAGED]
        for root, rel, shown in places:
            value = _json_value(root, rel, False)
            if isinstance(value, dict) and value.get("disableAllHooks") is True:
                out.append(f"✘ Claude Code: every hook is turned off in {shown} (disableAllHooks: true)")
    elif agent.name == "gemini":
        for root, rel, shown in places:
            value = _json_value(root, rel, True)
            conf = value.get("hooksConfig") if isinstance(value, dict) else None
            if isinstance(conf, dict) and conf.get("enabled") is False:
                out.append(f"✘ Gemini CLI: hooks are turned off in {shown} (hooksConfig.enabled: false)")
    elif agent.name == "codex":
        out += _codex_warnings(repo, scope)
    elif agent.name == "cursor":
        out.append("⚠ Cursor: runs these hooks from 1.7 on, in a trusted workspace (Settings → Hooks shows them)")
    return out


CLAUDE_MANAGED = (
    "/etc/claude-code/managed-settings.json",
    "/Library/Application Support/ClaudeCode/managed-settings.json",
)


def _codex_warnings(repo: git.Repo, scope: str) -> list[str]:
    out = []
    configs = [(Path(repo.toplevel), ".codex", ".codex"), (home(), ".codex", "~/.codex")]
    user: dict[str, Any] = {}
    for root, folder, shown in configs:
        try:
            data = read_toml(root, f"{folder}/config.toml") or {}
        except BadInput as err:
            out.append(f"✘ Codex: {shown}/config.toml: {err}")
            continue
        if root == home():
            user = data
        features = data.get("features")
        for key in ("hooks", "codex_hooks"):
            if isinstance(features, dict) and features.get(key) is False:
                out.append(f"✘ Codex: hooks are turned off in {shown}/config.toml ([features] {key} = false)")
        hooks = _json_value(root, f"{folder}/hooks.json", False)
        if isinstance(data.get("hooks"), dict) and data["hooks"] and isinstance(hooks, dict) and hooks.get("hooks"):
            out.append(
                f"⚠ Codex: hooks stand in both {shown}/hooks.json and a [hooks] table in {shown}/config.toml; "
                "keep them in one place (vibegit's are in hooks.json)"
            )
    if scope == "project":
        projects = user.get("projects")
        entries = projects if isinstance(projects, dict) else {}
        mine = entries.get(repo.toplevel) or entries.get(os.path.realpath(repo.toplevel))
        if not (isinstance(mine, dict) and mine.get("trust_level") == "trusted"):
            out.append(
                "⚠ Codex: this project is not trusted in ~/.codex/config.toml, so Codex skips .codex/hooks.json; "
                "start Codex here and trust it, then review the hooks in /hooks"
            )
        else:
            out.append("⚠ Codex: review vibegit's hooks once in /hooks (Codex runs a changed hook only then)")
    return out
