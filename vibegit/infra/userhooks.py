"""Lifecycle hook commands (the Lifecycle skill's sixteen hooks, onInit … onLearn, all of them).

Users configure shell commands per hook, locally only:

- git config ``vibegit.hook.<name>`` (``git config vibegit.hook.onTaskComplete "make test"``);
- ``.vibegit/hooks.yaml`` in the checked-out working tree (a hook name maps
  to one command or a list; ``timeout:`` in seconds), once the user trusts
  it (``vibegit trust``, infra/trust.py): it is project content, and an
  untrusted or changed file is skipped with one line saying so.

Git config wins over the file for the same hook. Nothing read from the state
branch is ever executed. A hook runs after its event is recorded, in the
repository's top directory, with the event as JSON on stdin and ``VIBEGIT_*``
environment variables; ``onBeforeComplete`` runs before completion and stops
it when it fails.
"""

from __future__ import annotations

import os
import time

from vibegit.core.messages import t
from vibegit.core.model import State
from vibegit.core.records import field, frozen
from vibegit.core.text import bad_char, clean
from vibegit.errors import BadInput, Refused
from vibegit.infra import fs, git
from vibegit.infra.formats import YamlDoc

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    import subprocess
    from typing import Any

HOOK_NAMES = (
    "onInit",
    "onContextLoad",
    "onMemoryLoad",
    "onPhaseEnter",
    "onPhaseExit",
    "onTaskStart",
    "onTaskComplete",
    "onTodoUpdate",
    "onPause",
    "onResume",
    "onCheckpoint",
    "onBeforeComplete",
    "onComplete",
    "onError",
    "onDocChange",
    "onLearn",
)
_BY_LOWER = {name.lower(): name for name in HOOK_NAMES}

# event name -> the hooks it runs, in order (the moments the Lifecycle skill names)
EVENT_HOOKS: dict[str, tuple[str, ...]] = {
    "start": ("onInit", "onContextLoad", "onMemoryLoad", "onPhaseEnter"),
    "phase": ("onPhaseExit", "onPhaseEnter"),
    "task-add": ("onTodoUpdate",),
    "task-start": ("onTaskStart", "onTodoUpdate"),
    "task-done": ("onTaskComplete", "onTodoUpdate"),
    "pause": ("onPause", "onCheckpoint"),
    "resume": ("onResume", "onContextLoad", "onMemoryLoad"),
    "checkpoint": ("onCheckpoint",),
    "complete": ("onComplete", "onLearn"),
    "fail": ("onError",),
    "learn": ("onDocChange", "onLearn"),
}

# hooks that run once for each item of their event, the item in the payload under this key
EACH = {"onDocChange": "file", "onLearn": "lesson"}

HOOKS_FILE = ".vibegit/hooks.yaml"
MAX_HOOKS_FILE = 64 * 1024
DEFAULT_TIMEOUT = 60.0
MAX_OUTPUT = 64 * 1024
# Set while a hook runs: a hook that calls vibegit does not run hooks again.
RUNNING = "VIBEGIT_HOOK_RUNNING"


@frozen
class Hook:
    name: str
    command: str
    origin: str  # where it was configured, for messages


@frozen
class Hooks:
    commands: dict[str, tuple[Hook, ...]] = field(default_factory=dict)
    timeout: float = DEFAULT_TIMEOUT
    skipped: str = ""  # why the project's hooks file was not loaded ("" when it was, or is absent)

    def __bool__(self) -> bool:
        return bool(self.commands)


@frozen
class Outcome:
    hook: Hook
    code: int | None  # None: timed out or could not start
    output: str
    seconds: float

    @property
    def ok(self) -> bool:
        return self.code == 0

    def describe(self, timeout: float) -> str:
        how = f"timed out after {timeout:g}s" if self.code is None else f"failed with exit {self.code}"
        last = next((line.strip() for line in reversed(self.output.splitlines()) if line.strip()), "")
        return f"{self.hook.name} ({self.hook.command}) {how}" + (f": {last[:200]}" if last else "")


def _timeout(value: object, where: str) -> float:
    try:
        seconds = float(str(value).strip())
    except ValueError:
        raise BadInput(f"{where}: {value!r:.40} is not a number of seconds") from None
    if not 0 < seconds <= 24 * 3600:
        raise BadInput(f"{where}: {seconds:g} must be between 0 and 86400 seconds")
    return seconds


def read_file(repo: git.Repo) -> bytes | None:
    """The project's hooks file, read without following a link; None when there is none."""
    return fs.read(repo.toplevel, HOOKS_FILE, MAX_HOOKS_FILE)


def parse_file(data: bytes) -> tuple[dict[str, tuple[Hook, ...]], float | None]:
    """The hooks file's commands and timeout, validated (exit 2 with file and line)."""
    doc = YamlDoc(data, HOOKS_FILE)
    found: dict[str, tuple[Hook, ...]] = {}
    timeout = None
    for key, value in doc.data.items():
        where = f"{HOOKS_FILE}:{doc.line(str(key))}"
        if key == "timeout":
            timeout = _timeout(value, f"{where}: timeout")
            continue
        name = _BY_LOWER.get(str(key).lower())
        if name is None:
            raise BadInput(f"{where}: unknown hook {key!r:.40}; known: timeout, {', '.join(HOOK_NAMES)}")
        values = value if isinstance(value, list) else [value]
        if not values or not all(isinstance(v, str) and v.strip() for v in values):
            raise BadInput(f"{where}: {name}: expected a command or a list of commands")
        if any(bad_char(v, one_line=False) is not None for v in values):  # what is trusted is what is shown
            raise BadInput(f"{where}: {name}: a command holds a control or bidi-override character")
        found[name] = tuple(Hook(name, v.strip(), where) for v in values)
    return found, timeout


def load(repo: git.Repo, config: dict[str, str]) -> Hooks:
    """The configured hooks; a broken configuration is exit 2 before anything is written."""
    if os.environ.get(RUNNING):
        return Hooks()
    commands: dict[str, tuple[Hook, ...]] = {}
    timeout = None
    skipped = ""
    try:
        data = read_file(repo)
    except BadInput as err:  # a link, or too large: not trusted either way
        data, skipped = None, t("trust.not_run", file=HOOKS_FILE, error=err)
    if data is not None and not _trusted(repo, data):
        skipped = t("trust.skipped", file=HOOKS_FILE)
    elif data is not None:
        commands, timeout = parse_file(data)
    for key, value in config.items():
        if not key.startswith("vibegit.hook."):
            continue
        rest = key[len("vibegit.hook.") :]
        name = _BY_LOWER.get(rest)
        if name is None:
            raise BadInput(f"git config {key}: unknown hook; known: {', '.join(HOOK_NAMES)}")
        if value.strip():
            commands[name] = (Hook(name, value.strip(), f"git config vibegit.hook.{name}"),)
        else:  # an empty value switches off the file's command for this hook
            commands.pop(name, None)
    if "vibegit.hooktimeout" in config:
        timeout = _timeout(config["vibegit.hooktimeout"], "git config vibegit.hookTimeout")
    return Hooks(commands, timeout or DEFAULT_TIMEOUT, skipped)


def _trusted(repo: git.Repo, data: bytes) -> bool:
    from vibegit.infra import trust  # here: only a project with a hooks file asks (hashlib and json at start-up)

    return trust.is_trusted(repo.toplevel, HOOKS_FILE, data)


def payload(
    state: State,
    event: str,
    summary: str,
    task: str | None,
    commit: str | None,
    head: str | None,
    repo: git.Repo,
    previous: State | None = None,
) -> dict[str, Any]:
    """The event as the hook sees it on stdin."""
    phase = state.mode.phase.value if state.mode.phase else None
    before = previous.mode.phase.value if previous is not None and previous.mode.phase else None
    return {
        "event": event,
        "summary": summary,
        "workflow": state.mode.workflow_name,
        "status": state.workflow.status.value,
        "phase": phase,
        "previous_phase": before,
        "step": state.mode.step,
        "task": task or state.workflow.current_task,
        "progress": {"done": state.completed_tasks, "total": state.total_tasks},
        "goal": state.context.goal,
        "next_action": state.context.next_action,
        "commit": commit,
        "head": head,
        "repository": str(repo.toplevel),
    }


def _environment(data: dict[str, Any], hook: str) -> dict[str, str]:
    phase = data["previous_phase"] if hook == "onPhaseExit" else data["phase"]
    env = git.clean_env()
    # A hook's own git commands are the user's: vibegit's hooks check them (a push is scanned).
    env.pop(git.IN_HOOK, None)
    env.update(
        {
            RUNNING: "1",
            "VIBEGIT_HOOK": hook,
            "VIBEGIT_EVENT": data["event"] or "",
            "VIBEGIT_WORKFLOW": data["workflow"] or "",
            "VIBEGIT_PHASE": phase or "",
            "VIBEGIT_TASK": data["task"] or "",
            "VIBEGIT_COMMIT": data["commit"] or "",
            "VIBEGIT_STATUS": data["status"] or "",
            "VIBEGIT_FILE": str(data.get("file") or ""),
            "VIBEGIT_LESSON": str(data.get("lesson") or ""),
        }
    )
    return env


def execute(hook: Hook, data: dict[str, Any], cwd: str, timeout: float) -> Outcome:
    """Run one hook command; it never raises, whatever the command does."""
    import json  # here: only a configured hook needs these
    import subprocess

    started = time.monotonic()
    stdin = json.dumps({"hook": hook.name, **data}, ensure_ascii=False).encode()
    posix = os.name == "posix"
    try:
        proc = subprocess.Popen(
            hook.command,
            shell=True,
            cwd=cwd,
            env=_environment(data, hook.name),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=posix,  # so a timeout can stop the whole command, not just the shell
        )
    except OSError as err:
        return Outcome(hook, None, f"could not start: {err}", 0.0)
    try:
        out, _ = proc.communicate(stdin, timeout=timeout)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        _kill(proc, posix)
        try:
            out, _ = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            out = b""
        code = None
    # Shown on the terminal and recorded in the history: text, never terminal controls.
    text = clean(out[-MAX_OUTPUT:].decode("utf-8", errors="replace"), one_line=False)
    return Outcome(hook, code, text, time.monotonic() - started)


def _kill(proc: subprocess.Popen[bytes], posix: bool) -> None:
    try:
        if posix:
            import signal

            os.killpg(proc.pid, signal.SIGKILL)
        else:  # pragma: no cover - Windows
            proc.kill()
    except OSError:
        pass


def run(
    hooks: Hooks,
    names: tuple[str, ...],
    data: dict[str, Any],
    repo: git.Repo,
    each: dict[str, tuple[str, ...]] | None = None,
) -> list[Outcome]:
    """Run the hooks ``names`` in order; every one runs even when one fails.
    A hook of ``EACH`` runs once for each of its items in ``each`` (the doc
    that changed, the lesson learned), and not at all without one."""
    outcomes = []
    for name in names:
        key = EACH.get(name)
        items: tuple[str | None, ...] = (each or {}).get(name, ()) if key else (None,)
        for item in items:
            sent = data if key is None else {**data, key: item}
            for hook in hooks.commands.get(name, ()):
                outcomes.append(execute(hook, sent, str(repo.toplevel), hooks.timeout))
    return outcomes


def before_complete(hooks: Hooks, data: dict[str, Any], repo: git.Repo, show: Any) -> None:
    """onBeforeComplete: a failure stops completion (exit 1), its output shown."""
    for outcome in run(hooks, ("onBeforeComplete",), data, repo):
        if not outcome.ok:
            show(outcome.output.rstrip("\n")[-4000:])
            raise Refused(
                f"hook {outcome.describe(hooks.timeout)}; the workflow keeps running "
                "(fix it, then 'vibegit complete' again)"
            )
