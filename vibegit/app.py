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
import sys
from collections.abc import Callable
from pathlib import Path

from vibegit.core import messages, workflows
from vibegit.core.messages import t
from vibegit.core.model import Env, Event, State
from vibegit.core.records import field, frozen, mutable, replace
from vibegit.core.settings import Settings, settings
from vibegit.core.text import clean
from vibegit.errors import BadInput, Refused
from vibegit.infra import git, hookfiles, machine, mirror, store
from vibegit.infra.formats import SHARED_FILES, render_all

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start

if TYPE_CHECKING:
    from vibegit.infra import userhooks

# lifecycle, remote, snapshot, userhooks and report are imported where they
# are used: a command that only reads the state pays for none of them.


@frozen
class Context:
    """The repository a command runs in, with its settings."""

    repo: git.Repo
    config: dict[str, str]
    settings: Settings


def open_repo(cwd: Path | None = None) -> Context:
    """The repository around ``cwd`` and its settings: a lookup, nothing moves."""
    repo = git.find_repo(cwd)
    config = git.read_config(repo)
    conf = settings(config)
    messages.use(conf.lang)  # the run's language: --lang (forced earlier) wins over vibegit.lang
    if messages.forced():
        conf = replace(conf, lang=messages.forced())
    return Context(repo, config, conf)


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
    from vibegit.infra import remote

    if given is None and not git.remotes(repo):
        return
    if implicit and not repo.out(
        "for-each-ref", "--count=1", "--format=%(refname)", f"refs/remotes/*/{conf.state_branch}"
    ):
        return  # nothing fetched to continue from (and no GitPython import to learn so)
    try:
        name = remote.state_remote(repo, conf, given)
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
        tip = remote.fetch(repo, conf, name, "vibegit resume")
        source = f"{conf.state_branch} on {name}"
    else:
        repo.git("update-ref", remote.remote_ref(repo, name), tip, check=False)
    if tip is None:
        return
    fetched = tip

    def take(head: str | None, cat: git.CatFile) -> tuple[str | None, str, bool]:
        if head is not None:
            return None, "", False  # another process made one meanwhile
        loaded = store.load_commit(repo, cat, fetched, f"{name}'s {conf.state_branch}:")
        store.flows(repo, cat, loaded)  # every workflow read: a broken or hostile state is refused, not taken
        return fetched, f"vibegit: take the state of {name}", True

    if store.publish(repo, conf, take):
        say(t("cmd.took_state", source=source, commit=fetched[:10]))
        # The shared knowledge shows here at once; a problem with the mirror is said by the event that follows.
        mirror.refresh(repo, conf, fetched, facts(ctx), lambda _problem: None)


def facts(ctx: Context) -> Env:
    """This moment: time, host, worktree, HEAD and branch, fresh random ids."""
    return machine.facts(ctx.repo)


this_host = machine.this_host


def say(text: str) -> None:
    print(text, flush=True)


def say_json(value: object) -> None:
    """``value`` as indented JSON (--json of status, list, task list, memory)."""
    import json  # here: only --json needs it, and json costs milliseconds at start-up

    say(json.dumps(value, ensure_ascii=False, indent=2))


def warn(text: str) -> None:
    print(f"vibegit: {text}", file=sys.stderr, flush=True)


@mutable
class Written:
    """One event as published."""

    state: State
    event: Event
    commit: str
    previous: State  # the state the event applied to (after any retry)
    shown: str  # the workflow this worktree's mirror shows now ("" for none)
    files: dict[str, str]  # the mirror's files
    notices: list[str] = field(default_factory=list)


def record(
    ctx: Context,
    transition: Callable[[State], tuple[State, Event]],
    e: Env | None = None,
    trees: dict[str, str | None] | None = None,
    *,
    workflow: str | None = None,
    new: bool = False,
    announce: bool = True,
    run_hooks: bool = True,
    adopting: bool = False,
) -> Written:
    """The pipeline every event goes through: the takeover guard, the store
    (one commit on the newest state, with the mirror's hand edits adopted),
    the mirror, then the user's lifecycle hooks for it (a broken hook
    configuration stops before anything is written).

    The event is for workflow ``workflow`` (an id), for a ``new`` one bound
    here, or, with neither, for what all workflows share (the memory)."""
    from vibegit.core import lifecycle
    from vibegit.infra import remote, userhooks

    said: list[str] = []  # an earlier set-up's files are imported (adopt), never written over silently
    if not adopting and mirror.foreign(ctx.repo, ctx.settings) is not None:
        listed = store.read_state(ctx.repo, ctx.settings).index
        said = mirror.refuse_foreign(ctx.repo, ctx.settings, has_workflows=bool(listed))
    e = e or facts(ctx)
    hooks = userhooks.load(ctx.repo, ctx.config) if run_hooks else userhooks.Hooks()
    locks = remote.remote_locks(ctx.repo, ctx.settings, e, workflow) if workflow else []
    guarded = lifecycle.guarded(transition, e, locks)

    def build(head: str | None, cat: git.CatFile) -> tuple[str, str, Written]:
        vanished = mirror.last_shown(ctx.repo) if head is None else None
        if vanished:
            raise Refused(
                f"{ctx.settings.state_branch} is missing, but the mirror shows state "
                f"{vanished[:10]} recorded here: 'vibegit doctor --repair' brings the "
                "branch back (nothing was recorded; a new history would hide the old one)"
            )
        loaded = store.load(ctx.repo, cat, ctx.settings, head)
        if new:
            clash = workflows.mine_here(loaded.index, e)
            if clash is not None:
                raise Refused(t("cmd.start_clash", label=clash.label(), where=clash.where()))
        current = store.flow(ctx.repo, cat, loaded, workflow) if workflow else loaded.fresh()
        notices: list[str] = []
        state = mirror.adopt(ctx.repo, ctx.settings, cat, loaded, current, notices)
        after, event = guarded(state)
        target = current if (workflow or new) else None
        files = render_all(after)  # once: the state tree and the mirror show the same text
        tree, listed = store.write_tree(ctx.repo, cat, loaded, target, after, trees, files)
        commit = store.commit(ctx.repo, ctx.config, e, tree, [loaded.head] if loaded.head else [], event, after)
        shown = workflows.shown_here(listed, e)
        if shown is None or target is None or shown.id != after.workflow.id:
            rest = mirror.view(ctx.repo, cat, loaded, shown.id) if shown is not None else {}
            shared = {k: v for k, v in files.items() if k in SHARED_FILES}
            files = {k: v.decode("utf-8", errors="replace") for k, v in rest.items() if k not in SHARED_FILES} | shared
        written = Written(after, event, commit, state, shown.id if shown else "", files, notices)
        return commit, f"vibegit: {event.name}", written

    def show(written: Written) -> None:
        mirror.write(ctx.repo, ctx.settings, written.commit, written.shown, written.files, written.notices)

    written = store.publish(ctx.repo, ctx.settings, build, show)
    for notice in [*said, *written.notices]:
        warn(notice)
    if hooks.skipped and userhooks.EVENT_HOOKS.get(written.event.name):
        warn(hooks.skipped)
    if announce:
        say(
            f"✔ {written.event.name}: {clean(written.event.summary)}  [{ctx.settings.state_branch} {written.commit[:10]}]"
        )
    if hooks:
        _run_hooks(ctx, hooks, written, e)
    return written


def _run_hooks(ctx: Context, hooks: userhooks.Hooks, written: Written, e: Env) -> None:
    """Run the hooks of the event just recorded. A failing hook is reported in
    one line and recorded as a ``hook-failed`` event; the event itself stays."""
    from vibegit.core import lifecycle
    from vibegit.infra import userhooks

    event = written.event
    names = userhooks.EVENT_HOOKS.get(event.name, ())
    if not any(hooks.commands.get(name) for name in names):
        return
    data = userhooks.payload(
        written.state, event.name, event.summary, event.task, written.commit, e.head, ctx.repo, written.previous
    )
    each = {"onDocChange": event.docs, "onLearn": event.lessons}
    for outcome in userhooks.run(hooks, names, data, ctx.repo, each):
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
        record(ctx, failed, e, workflow=written.state.workflow.id or None, announce=False, run_hooks=False)
        warn(f"hook {what}; the {event.name} event is recorded, and so is this failure (vibegit log)")


def current(ctx: Context, e: Env, given: str | None) -> workflows.Summary | None:
    """The workflow a command acts on: ``--workflow``, else the one of this worktree."""
    return workflows.choose(store.read_state(ctx.repo, ctx.settings).index, e, given)


def state_of(ctx: Context, e: Env, given: str | None) -> State:
    """The state of the workflow a command acts on (an empty one, with the
    shared memory, when none was ever started)."""
    loaded = store.read_state(ctx.repo, ctx.settings)
    target = workflows.choose(loaded.index, e, given)
    if target is None:
        return loaded.fresh().state
    return store.flow(ctx.repo, git.reader(ctx.repo), loaded, target.id).state


def event(rule: Callable[..., tuple[State, Event]], *args: object, workflow: str | None = None) -> Written:
    """Enter the repository and record ``rule(state, facts, *args)`` on the
    newest state of the workflow ``--workflow`` names, else this worktree's."""
    ctx = enter()
    e = facts(ctx)
    target = current(ctx, e, workflow)
    return record(ctx, lambda s: rule(s, e, *args), e, workflow=target.id if target else None)


def show_report(
    ctx: Context,
    state: State,
    lang: str | None,
    head: str | None,
    others: list[workflows.Summary] | None = None,
    *,
    compare: bool | None = None,
    taken: str | None = None,
) -> None:
    """The report (in ``lang``, else the vibegit.lang setting), with where the
    anchor and snapshot stand now (``snapshot.observe``: ``compare``, and the
    snapshot ``taken`` just now) and the other workflows of the repository."""
    from vibegit.core import report
    from vibegit.infra import snapshot

    observed = snapshot.observe(ctx.repo, state, compare, taken)
    say(report.render(state, lang or ctx.settings.lang, head, observed, others).rstrip("\n"))


def confirm(question: str) -> bool:
    """Ask on the terminal; end of input is a no."""
    print(f"{question} [y/N] ", end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline() if sys.stdin else ""
    return answer.strip().lower() in ("y", "yes", "是", "确认")
