"""One small function per command: gather facts, apply the rules, report.

Each returns an exit code; the CLI only parses arguments and calls these.
"""
from __future__ import annotations

import json
import os
import secrets
import socket
import sys
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from vibegit.core import lifecycle, report
from vibegit.core.model import ACTIVE, Checkpoint, Env, Event, Phase, State, Status
from vibegit.core.settings import Settings, settings
from vibegit.errors import OK, BadInput, Refused
from vibegit.infra import git, mirror, remote, snapshot, store, userhooks, worktree
from vibegit.infra.formats import render_all


@dataclass(frozen=True)
class Here:
    """The repository a command runs in, with its settings."""

    repo: git.Repo
    config: dict[str, str]
    settings: Settings


def here(cwd: Path | None = None) -> Here:
    """The repository, its settings, and its state branch: on a fresh clone
    that has none yet, the copy the clone fetched is taken first."""
    from vibegit import sync

    repo = git.find_repo(cwd)
    config = git.read_config(repo)
    found = Here(repo, config, settings(config))
    sync.ensure_local_state(repo, found.settings, None, warn, implicit=True)
    return found


def now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def this_host() -> str:
    """This machine's name as locks record it; VIBEGIT_HOST names it in tests and containers."""
    return os.environ.get("VIBEGIT_HOST") or socket.gethostname()


def env(h: Here) -> Env:
    stamp = now()
    return Env(
        now=stamp,
        host=this_host(),
        worktree=str(h.repo.toplevel),
        head=git.head_commit(h.repo),
        branch=git.head_branch(h.repo),
        new_session_id=f"sess_{stamp[:10].replace('-', '')}_{secrets.token_hex(3)}",
    )


def say(text: str) -> None:
    print(text, flush=True)


def warn(text: str) -> None:
    print(f"vibegit: {text}", file=sys.stderr, flush=True)


@dataclass
class Written:
    """One event as published."""

    state: State
    event: Event
    commit: str
    previous: State  # the state the event applied to (after any retry)
    files: dict[str, str]  # the state files, as the mirror shows them
    notices: list[str] = field(default_factory=list)


def record(
    h: Here,
    transition: Callable[[State], tuple[State, Event]],
    e: Env | None = None,
    trees: dict[str, str | None] | None = None,
    *,
    announce: bool = True,
    run_hooks: bool = True,
) -> Written:
    """The pipeline every event goes through: the takeover guard, the store
    (one commit on the newest state, with the mirror's hand edits adopted),
    the mirror, then the user's lifecycle hooks for it (a broken hook
    configuration stops before anything is written)."""
    e = e or env(h)
    hooks = userhooks.load(h.repo, h.config) if run_hooks else userhooks.Hooks()
    guarded = lifecycle.guarded(transition, e, remote.remote_locks(h.repo, h.settings, e))

    def build(head: str | None, cat: git.CatFile) -> tuple[str, str, Written]:
        loaded = store.load(h.repo, cat, h.settings, head)
        notices: list[str] = []
        state = mirror.adopt(h.repo, h.settings, cat, loaded, notices)
        new, event = guarded(state)
        files = render_all(new)
        tree = store.build_tree(h.repo, loaded.tree, files, trees)
        commit = store.commit(h.repo, h.config, e, tree, [loaded.head] if loaded.head else [], event, new)
        return commit, f"vibegit: {event.name}", Written(new, event, commit, state, files, notices)

    def show(written: Written) -> None:
        mirror.write(h.repo, h.settings, written.commit, written.files, written.notices)

    written = store.publish(h.repo, h.settings, build, show)
    for notice in written.notices:
        warn(notice)
    if announce:
        say(f"✔ {written.event.name}: {written.event.summary}  [{h.settings.state_branch} {written.commit[:10]}]")
    if hooks:
        _run_hooks(h, hooks, written, e)
    return written


def _run_hooks(h: Here, hooks: userhooks.Hooks, written: Written, e: Env) -> None:
    """Run the hooks of the event just recorded. A failing hook is reported in
    one line and recorded as a ``hook-failed`` event; the event itself stays."""
    event = written.event
    names = userhooks.EVENT_HOOKS.get(event.name, ())
    if not any(hooks.commands.get(name) for name in names):
        return
    data = userhooks.payload(written.state, event.name, event.summary, event.task, written.commit, e.head, h.repo,
                             written.previous)
    for outcome in userhooks.run(hooks, names, data, h.repo):
        if outcome.ok:
            warn(f"hook {outcome.hook.name} ok ({outcome.hook.command}, {outcome.seconds:.1f}s)")
            continue
        what = outcome.describe(hooks.timeout)
        hook, code = outcome.hook.name, outcome.code
        record(h, lambda s: lifecycle.hook_failed(s, e, what, hook, code, event, written.commit), e,
               announce=False, run_hooks=False)
        warn(f"hook {what}; the {event.name} event is recorded, and so is this failure (vibegit log)")


def event(rule: Callable[..., tuple[State, Event]], *args: object) -> Written:
    """Record ``rule(state, env, *args)`` on the newest state, with this moment's facts."""
    h = here()
    e = env(h)
    return record(h, lambda s: rule(s, e, *args), e)


def _print_report(h: Here, state: State, lang: str | None, head: str | None) -> None:
    """The report (in ``lang``, else the vibegit.lang setting), with where the
    anchor and snapshot stand now."""
    observed = snapshot.observe(h.repo, state)
    say(report.render(state, lang or h.settings.lang, head, observed).rstrip("\n"))


# -- commands -----------------------------------------------------------------


def init() -> int:
    h = here()
    loaded = store.read_state(h.repo, h.settings)
    if loaded.head is not None:
        say(f"vibegit is already set up here ({h.settings.state_branch} at {loaded.head[:10]}).")
        return OK
    e = env(h)
    record(h, lambda s: lifecycle.init(s, e), e)
    say("Next: 'vibegit start WORKFLOW --goal TEXT'; 'vibegit install' adds the git hooks.")
    return OK


def start(workflow: str, goal: str) -> int:
    written = event(lifecycle.start, workflow, goal)
    say(f"Lock taken for {written.state.mode.workflow_name!r}; phase R1. Add tasks with 'vibegit task add ID TITLE'.")
    return OK


def phase(to: str, step: str | None) -> int:
    try:
        target = Phase(to.upper())
    except ValueError:
        raise BadInput(f"phase {to!r:.20}: use one of R1 I P E R2") from None
    event(lifecycle.phase, target, step)
    from vibegit.learn import after_phase

    after_phase()  # the skill's onPhaseExit: learn from changed docs (silent when none changed)
    return OK


def task_add(task_id: str, title: str) -> int:
    event(lifecycle.task_add, task_id, title)
    return OK


def task_start(task_id: str) -> int:
    event(lifecycle.task_start, task_id)
    return OK


def task_done(task_id: str) -> int:
    written = event(lifecycle.task_done, task_id)
    st = written.state
    say(f"{st.completed_tasks}/{st.total_tasks} tasks done.")
    return OK


def task_list(as_json: bool) -> int:
    h = here()
    state = store.read_state(h.repo, h.settings).state
    if as_json:
        say(json.dumps(report.as_json(state)["tasks"], ensure_ascii=False, indent=2))
        return OK
    if not state.tasks:
        say("No tasks.")
    for task in state.tasks:
        say(f"{report.ICON[task.status]} {task.id}  {task.status.value:<5}  {task.title}")
    return OK


def context(last: str | None, next_: str | None, question: str | None, answer: int | None) -> int:
    written = event(lifecycle.context, last, next_, question, answer)
    for i, q in enumerate(written.state.context.pending_questions, 1):
        say(f"  open question {i}: {q}")
    return OK


def _snapshot(h: Here, point: Checkpoint, skip: bool) -> tuple[Checkpoint, dict[str, str | None]]:
    """The checkpoint with its snapshot of uncommitted work (none when clean or skipped)."""
    tree = None if skip else snapshot.take(h.repo)
    return replace(point, snapshot=tree), {store.SNAPSHOT: tree}


def checkpoint(file: str | None, line: int | None, action: str | None, no_snapshot: bool = False) -> int:
    h = here()
    point = worktree.anchor(h.repo.toplevel, file, line, action)
    e = env(h)
    point, trees = _snapshot(h, point, no_snapshot)
    record(h, lambda s: lifecycle.checkpoint(s, e, point), e, trees)
    return OK


def _keep_position(state: State, point: Checkpoint) -> Checkpoint:
    """Pause without --file keeps the last checkpoint's file:line."""
    old = state.checkpoint
    if point.file or old is None:
        return point
    return replace(point, file=old.file, line=old.line, line_text=old.line_text, action=point.action or old.action)


def pause(action: str | None, lang: str | None, no_snapshot: bool = False) -> int:
    h = here()
    e = env(h)
    point, trees = _snapshot(h, worktree.anchor(h.repo.toplevel, None, None, action), no_snapshot)
    written = record(h, lambda s: lifecycle.pause(s, e, _keep_position(s, point)), e, trees)
    _print_report(h, written.state, lang, e.head)
    return OK


def resume(lang: str | None, checkout: bool = False, force: bool = False, given: str | None = None) -> int:
    from vibegit import sync

    h = here()
    sync.ensure_local_state(h.repo, h.settings, given, say)  # a fresh clone: take the remote's
    e = env(h)
    state = store.read_state(h.repo, h.settings).state
    lock = state.lock
    if state.workflow.status is Status.RUNNING and lock and (lock.host, lock.worktree) == (e.host, e.worktree):
        say("The workflow is already running here; nothing to resume.")
        _print_report(h, state, lang, e.head)
        return OK
    lifecycle.resume(state, e)  # refuse before any file is touched
    sync.arrive(h.repo, h.settings, state, e, checkout=checkout, force=force, given=given, say=say)
    e = env(h)  # --checkout may have moved HEAD
    written = record(h, lambda s: lifecycle.resume(s, e), e)
    _print_report(h, written.state, lang, e.head)
    return OK


def status(as_json: bool, lang: str | None) -> int:
    h = here()
    state = store.read_state(h.repo, h.settings).state
    if as_json:
        say(json.dumps(report.as_json(state), ensure_ascii=False, indent=2))
        return OK
    if not report.is_active(state):
        name = state.mode.workflow_name
        last = f" (last: {name!r}, {state.workflow.status.value})" if name else ""
        say(f"No workflow is active{last}. Start one with 'vibegit start WORKFLOW --goal TEXT'.")
        return OK
    _print_report(h, state, lang, git.head_commit(h.repo))
    return OK


def confirm(question: str) -> bool:
    """Ask on the terminal; end of input is a no."""
    print(f"{question} [y/N] ", end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline() if sys.stdin else ""
    return answer.strip().lower() in ("y", "yes", "是", "确认")


def complete(yes: bool) -> int:
    h = here()
    state = store.read_state(h.repo, h.settings).state
    lifecycle.check_can_complete(state)
    hooks = userhooks.load(h.repo, h.config)
    if hooks.commands.get("onBeforeComplete"):
        data = userhooks.payload(state, "complete", "before complete", None, None, git.head_commit(h.repo), h.repo)
        userhooks.before_complete(hooks, data, h.repo, lambda text: print(text, file=sys.stderr, flush=True))
    if not yes and not confirm(
        f"Complete workflow {state.mode.workflow_name!r} ({state.completed_tasks}/{state.total_tasks} tasks done)?"
    ):
        raise Refused("completion not confirmed; the workflow keeps running (use --yes to skip the question)")
    e = env(h)
    record(h, lambda s: lifecycle.complete(s, e, skipped_confirmation=yes), e)
    say("Lock released. Back to conversation mode.")
    return OK


def abort(yes: bool) -> int:
    h = here()
    state = store.read_state(h.repo, h.settings).state
    lifecycle.require(state, ACTIVE, "abort")
    if not yes and not confirm(
        f"Abort workflow {state.mode.workflow_name!r}? Progress is kept, the workflow ends."
    ):
        raise Refused("abort not confirmed; nothing changed")
    e = env(h)
    record(h, lambda s: lifecycle.abort(s, e), e)
    return OK


def unlock(reason: str | None) -> int:
    event(lifecycle.unlock, reason)
    say("Lock released; the workflow is ended (its history is kept). 'vibegit pause' keeps one resumable.")
    return OK


def fail(message: str) -> int:
    event(lifecycle.fail, message)
    return OK


def log(count: int, as_json: bool) -> int:
    if count < 1:
        raise BadInput(f"-n {count}: must be at least 1")
    h = here()
    entries = store.history(h.repo, h.settings, count)
    if as_json:
        say(json.dumps(entries, ensure_ascii=False, indent=2))
        return OK
    if not entries:
        say("No events yet.")
    for entry in entries:
        say(f"{entry['commit'][:10]}  {entry['date']}  {entry['subject']}")
    return OK
