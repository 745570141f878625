"""The application context and the one pipeline every event goes through.

A command (or a handler) opens a ``Context``: the repository and its
settings, a lookup that moves nothing. A fresh clone's first command
*arrives* explicitly (``arrive``): it continues the state branch the clone
fetched instead of starting a second history. Every event, whoever triggers
it, is recorded by ``record``: the takeover guard, the store (one commit on
the newest state, the mirror's hand edits adopted), the mirror, then the
user's lifecycle hooks.
"""

from __future__ import annotations

import functools
import os
import secrets
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from vibegit.core import lifecycle, report
from vibegit.core.model import Env, Event, State
from vibegit.core.settings import Settings, settings
from vibegit.core.text import escape_path
from vibegit.errors import BadInput, Refused
from vibegit.infra import git, hookfiles, mirror, remote, snapshot, store, userhooks
from vibegit.infra.formats import render_all


@dataclass(frozen=True)
class Context:
    """The repository a command runs in, with its settings."""

    repo: git.Repo
    config: dict[str, str]
    settings: Settings


def open_repo(cwd: Path | None = None) -> Context:
    """The repository around ``cwd`` and its settings: a lookup, nothing moves."""
    repo = git.find_repo(cwd)
    config = git.read_config(repo)
    return Context(repo, config, settings(config))


def enter(cwd: Path | None = None) -> Context:
    """What a command works in: the repository, arrived at (``arrive``)."""
    ctx = open_repo(cwd)
    arrive(ctx, None, warn, implicit=True)
    problem = hookfiles.lock_check_problem(hookfiles.place_of(ctx.repo, ctx.config))
    if problem:  # said by every command until it is fixed: nothing else would notice
        warn(problem)
    return ctx


def arrive(ctx: Context, given: str | None, say: Callable[[str], None], implicit: bool = False) -> None:
    """A repository with no state branch of its own takes the remote's
    (fetching it if the clone did not bring it); this moves the local ref.

    ``implicit`` (any command on a fresh clone): only a copy the clone already
    fetched is taken, so the first event here continues that history instead
    of starting a second one; no network, and no error when the remote is
    ambiguous."""
    repo, conf = ctx.repo, ctx.settings
    if git.reader(repo).get(conf.state_ref) is not None:
        return
    if given is None and not git.remotes(repo):
        return
    if implicit and not repo.out(
        "for-each-ref", "--count=1", "--format=%(refname)", f"refs/remotes/*/{conf.state_branch}"
    ):
        return  # nothing fetched to continue from (and no GitPython import to learn so)
    try:
        name = remote.default_remote(repo, given)
    except BadInput:
        if implicit:
            return
        raise
    tracking = f"refs/remotes/{name}/{conf.state_branch}"
    tip = git.commit_of(repo, tracking)
    source = tracking
    if tip is None:
        if implicit:
            return
        tip = remote.fetch(repo, conf, name)
        source = f"{conf.state_branch} on {name}"
    else:
        repo.git("update-ref", remote.remote_ref(repo, name), tip, check=False)
    if tip is None:
        return
    fetched = tip

    def take(head: str | None, cat: git.CatFile) -> tuple[str | None, str, bool]:
        if head is not None:
            return None, "", False  # another process made one meanwhile
        store.load_commit(repo, cat, fetched, f"{name}'s {conf.state_branch}:")  # refuse a broken state first
        return fetched, f"vibegit: take the state of {name}", True

    if store.publish(repo, conf, take):
        say(f"Took the workflow state from {source} ({fetched[:10]}).")


def now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def this_host() -> str:
    """This machine's name as locks record it; VIBEGIT_HOST names it in tests and containers."""
    return os.environ.get("VIBEGIT_HOST") or socket.gethostname()


def worktree_name(repo: git.Repo) -> str:
    """This worktree as locks record it: its path, escaped to one printable line
    (a path may hold any byte but NUL and "/"; the state files hold text)."""
    return escape_path(str(repo.toplevel))


def facts(ctx: Context) -> Env:
    """This moment: time, host, worktree, HEAD and branch, a fresh session id."""
    stamp = now()
    return Env(
        now=stamp,
        host=this_host(),
        worktree=worktree_name(ctx.repo),
        head=git.head_commit(ctx.repo),
        branch=git.head_branch(ctx.repo),
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
    ctx: Context,
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
    e = e or facts(ctx)
    hooks = userhooks.load(ctx.repo, ctx.config) if run_hooks else userhooks.Hooks()
    guarded = lifecycle.guarded(transition, e, remote.remote_locks(ctx.repo, ctx.settings, e))

    def build(head: str | None, cat: git.CatFile) -> tuple[str, str, Written]:
        if head is None and mirror.last_shown(ctx.repo):
            raise Refused(
                f"{ctx.settings.state_branch} is missing, but the mirror shows state "
                f"{(mirror.last_shown(ctx.repo) or '')[:10]} recorded here: 'vibegit doctor --repair' brings the "
                "branch back (nothing was recorded; a new history would hide the old one)"
            )
        loaded = store.load(ctx.repo, cat, ctx.settings, head)
        notices: list[str] = []
        state = mirror.adopt(ctx.repo, ctx.settings, cat, loaded, notices)
        new, event = guarded(state)
        files = render_all(new)
        tree = store.build_tree(ctx.repo, loaded.tree, files, trees)
        commit = store.commit(ctx.repo, ctx.config, e, tree, [loaded.head] if loaded.head else [], event, new)
        return commit, f"vibegit: {event.name}", Written(new, event, commit, state, files, notices)

    def show(written: Written) -> None:
        mirror.write(ctx.repo, ctx.settings, written.commit, written.files, written.notices)

    written = store.publish(ctx.repo, ctx.settings, build, show)
    for notice in written.notices:
        warn(notice)
    if announce:
        say(f"✔ {written.event.name}: {written.event.summary}  [{ctx.settings.state_branch} {written.commit[:10]}]")
    if hooks:
        _run_hooks(ctx, hooks, written, e)
    return written


def _run_hooks(ctx: Context, hooks: userhooks.Hooks, written: Written, e: Env) -> None:
    """Run the hooks of the event just recorded. A failing hook is reported in
    one line and recorded as a ``hook-failed`` event; the event itself stays."""
    event = written.event
    names = userhooks.EVENT_HOOKS.get(event.name, ())
    if not any(hooks.commands.get(name) for name in names):
        return
    data = userhooks.payload(
        written.state, event.name, event.summary, event.task, written.commit, e.head, ctx.repo, written.previous
    )
    for outcome in userhooks.run(hooks, names, data, ctx.repo):
        if outcome.ok:
            warn(f"hook {outcome.hook.name} ok ({outcome.hook.command}, {outcome.seconds:.1f}s)")
            continue
        what = outcome.describe(hooks.timeout)
        failed = functools.partial(
            lifecycle.hook_failed,
            env=e,
            what=what,
            hook=outcome.hook.name,
            exit_code=outcome.code,
            after=event,
            commit=written.commit,
        )
        record(ctx, failed, e, announce=False, run_hooks=False)
        warn(f"hook {what}; the {event.name} event is recorded, and so is this failure (vibegit log)")


def event(rule: Callable[..., tuple[State, Event]], *args: object) -> Written:
    """Enter the repository and record ``rule(state, facts, *args)`` on the newest state."""
    ctx = enter()
    e = facts(ctx)
    return record(ctx, lambda s: rule(s, e, *args), e)


def show_report(ctx: Context, state: State, lang: str | None, head: str | None) -> None:
    """The report (in ``lang``, else the vibegit.lang setting), with where the
    anchor and snapshot stand now."""
    observed = snapshot.observe(ctx.repo, state)
    say(report.render(state, lang or ctx.settings.lang, head, observed).rstrip("\n"))


def confirm(question: str) -> bool:
    """Ask on the terminal; end of input is a no."""
    print(f"{question} [y/N] ", end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline() if sys.stdin else ""
    return answer.strip().lower() in ("y", "yes", "是", "确认")
