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
import sys
from collections.abc import Callable

from vibegit.core import messages, workflows
from vibegit.core.messages import t
from vibegit.core.model import Env, Event, State
from vibegit.core.records import field, frozen, mutable, replace
from vibegit.core.settings import Settings, settings
from vibegit.core.text import clean, clean_data
from vibegit.errors import BadInput, Refused
from vibegit.infra import git, hookplace, machine, mirror, output, store
from vibegit.infra.formats import SHARED_FILES, render_all

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start

if TYPE_CHECKING:
    from vibegit.infra import userhooks
    from vibegit.infra.fs import StrPath

# lifecycle, remote, snapshot, userhooks and report are imported where they
# are used: a command that only reads the state pays for none of them.


@frozen
class Context:
    """The repository a command runs in, with its settings."""

    repo: git.Repo
    config: git.Config
    settings: Settings


def open_repo(cwd: StrPath | None = None) -> Context:
    """The repository around ``cwd`` and its settings: a lookup, nothing moves."""
    repo, config = _found(cwd)
    conf = settings(config)
    messages.use(conf.lang)  # the run's language: --lang (forced earlier) wins over vibegit.lang
    if messages.forced():
        conf = replace(conf, lang=messages.forced())
    return Context(repo, config, conf)


@mutable
class _Kept:
    """The repository around a directory, and its config as read when its files had ``stamp``."""

    repo: git.Repo
    files: list[str] | None  # None: not to be told by the files (git.config_files)
    stamp: tuple[object, ...]
    config: git.Config


_kept: dict[str, _Kept] | None = None  # by directory; None: one command in this process


def stay_resident() -> None:
    """This process serves many commands from now on (``vibegit mcp``): the
    repository around a directory is found once, and its config is read
    again only when one of the files it comes from changed (two git processes
    fewer a command; a file's stat is a few microseconds)."""
    global _kept
    _kept = {}


def _found(cwd: StrPath | None) -> tuple[git.Repo, git.Config]:
    kept = _kept
    try:
        here = os.getcwd() if kept is not None and cwd is None else None
    except OSError:
        here = None  # a deleted directory: find_repo says so
    if kept is None or here is None:
        repo = git.find_repo(cwd)
        return repo, git.read_config(repo)
    known = kept.get(here)
    if known is not None and known.files is not None and git.stamp(known.files) == known.stamp:
        return known.repo, known.config.copy()
    repo = known.repo if known is not None else git.find_repo()
    files = git.config_files(repo)
    stamp = git.stamp(files) if files is not None else ()  # before the read: a write meanwhile shows next time
    config = git.read_config(repo)
    kept[here] = _Kept(repo, files, stamp, config)
    return repo, config.copy()


def enter(cwd: StrPath | None = None) -> Context:
    """What a command works in: the repository, arrived at (``arrive``)."""
    ctx = open_repo(cwd)
    arrive(ctx, None, warn, implicit=True)
    problem = hookplace.lock_check_problem(hookplace.place_of(ctx.repo, ctx.config))
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

    if given is None and not git.remote_names(repo):
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
        tip = remote.fetch(repo, conf, name, retry="vibegit resume")
        source = f"{conf.state_branch} on {name}"
    else:
        repo.git("update-ref", remote.remote_ref(name), tip, check=False)
    if tip is None:
        return
    fetched = tip

    def take(head: str | None, cat: git.CatFile) -> tuple[str | None, str, bool]:
        if head is not None:
            return None, "", False  # another process made one meanwhile
        loaded = store.load_commit(repo, cat, fetched, f"{name}'s {conf.state_branch}:")
        store.flows(repo, cat, loaded)  # every workflow read: a broken or hostile state is refused, not taken
        return fetched, f"vibegit: take the state of {name}", True

    if store.publish(repo, conf, take, config=ctx.config):
        say(t("cmd.took_state", source=source, commit=fetched[:10]))
        # The shared knowledge shows here at once; a problem with the mirror is said by the event that follows.
        mirror.refresh(repo, conf, fetched, facts(ctx), lambda _problem: None)


def refuse_vanished(ctx: Context) -> None:
    """With no state branch: refused when this worktree's mirror shows a state
    recorded here (the branch was deleted; ``doctor --repair`` brings it back)."""
    vanished = mirror.last_shown(ctx.repo)
    if vanished:
        raise Refused(t("cmd.state_vanished", branch=ctx.settings.state_branch, commit=vanished[:10]))


def facts(ctx: Context) -> Env:
    """This moment: time, host, worktree, HEAD and branch, fresh random ids."""
    return machine.facts(ctx.repo)


this_host = machine.this_host


def say(text: str, mark: str = "") -> None:
    """One message on stdout (this call's, under the MCP server), made inert
    (``clean``): whatever text of the state, the project or git it holds, a
    person or an agent sees all of it. ``mark``: a sign of vibegit's own
    before it, followed by a space ("✔ "), which ``clean`` would keep as it
    is; printed as it is, an ASCII text after it is cleaned by the quick
    ASCII pattern (compiling the whole one costs half a millisecond)."""
    print(mark + clean(text, one_line=False), file=output.stdout(), flush=True)


def say_json(value: object) -> None:
    """``value`` as indented JSON (--json of status, list, task list, memory), its texts made inert."""
    import json  # here: only --json needs it, and json costs milliseconds at start-up

    say(json.dumps(clean_data(value), ensure_ascii=False, indent=2))


def warn(text: str) -> None:
    print(f"vibegit: {clean(text, one_line=False)}", file=output.stderr(), flush=True)


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


def ready_to_record() -> None:
    """Load now what ``record`` takes beyond a read, for a command that waits
    on git before it records (a checkpoint's snapshot): loaded meanwhile."""
    from vibegit.infra import remote, userhooks  # noqa: F401

    store.ready_to_publish()


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
    locks = remote.remote_locks(ctx.repo, ctx.settings, e, workflow, ctx.config) if workflow else []
    guarded = lifecycle.guarded(transition, e, locks)

    def build(head: str | None, cat: git.CatFile) -> tuple[str, str, Written]:
        if head is None:
            refuse_vanished(ctx)
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
        with git.packed(ctx.repo):  # the event's new objects: one pack
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

    written = store.publish(ctx.repo, ctx.settings, build, show, config=ctx.config)
    for notice in [*said, *written.notices]:
        warn(notice)
    if hooks.skipped and userhooks.EVENT_HOOKS.get(written.event.name):
        warn(hooks.skipped)
    if announce:
        say(
            f"{written.event.name}: {clean(written.event.summary)}  [{ctx.settings.state_branch} {written.commit[:10]}]",
            mark="✔ ",
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


def event(
    rule: Callable[..., tuple[State, Event]], *args: object, workflow: str | None = None, ctx: Context | None = None
) -> Written:
    """Enter the repository (unless ``ctx``: entered already) and record
    ``rule(state, facts, *args)`` on the newest state of the workflow
    ``--workflow`` names, else this worktree's."""
    ctx = ctx or enter()
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
    here: Env | None = None,
) -> None:
    """The report (in ``lang``, else the vibegit.lang setting), with where the
    anchor and snapshot stand now (``snapshot.observe``: ``compare``, and the
    snapshot ``taken`` just now), the other workflows of the repository, and
    who holds it when not ``here`` (``report.render``)."""
    from vibegit.core import report

    observed = None
    if state.checkpoint is not None:  # nothing to observe without one (and no snapshot module to load)
        from vibegit.infra import snapshot

        observed = snapshot.observe(ctx.repo, state, compare, taken)
    say(report.render(state, lang or ctx.settings.lang, head, observed, others, here).rstrip("\n"))


def prompt_approval(ctx: Context, verb: str, state: State) -> str | None:
    """How the record says it when an agent runs ``verb`` and the person
    allowed exactly this in the agent's own permission prompt (the approval
    vibegit's pre-tool hook left, taken now: used once, or lost with a
    refusal); None otherwise."""
    import os
    import time

    from vibegit.core import agentturn, lifecycle
    from vibegit.core.agents import SPECS, marked_agent
    from vibegit.infra import approvals

    environ = dict(os.environ)
    agent = marked_agent(environ)
    if agent is None or not state.workflow.id:
        return None
    session = environ.get(agentturn.SESSION_VARS.get(agent, ""), "")
    if approvals.take(ctx.repo, agent, verb, state.workflow.id, session, time.time()):
        return lifecycle.confirmed_in_prompt(SPECS[agent].label)
    return None


def person_confirms(question: str, yes: bool, declined: str, command: str) -> str:
    """A person's decision (the seeds' 寸止: complete, abort, unlock): how it
    was given, as the record says it, or Refused. In an agent's environment
    neither ``--yes`` nor an answer on stdin counts (the agent could give it):
    the agent is told to ask the user, who runs ``command`` in their own
    terminal or answers the MCP tool's question. Outside any agent ``--yes``
    passes (a person's script), else the question is asked."""
    import os

    from vibegit.core import lifecycle
    from vibegit.core.agents import marker

    agent = marker(dict(os.environ))
    if agent is not None:
        raise Refused(t("person.agent_runs", agent=agent, command=command))
    if yes:
        return lifecycle.CONFIRMED_BY_YES
    on_terminal = sys.stdin is not None and sys.stdin.isatty()
    if not confirm(question):
        raise Refused(declined)
    return lifecycle.CONFIRMED_ON_TERMINAL if on_terminal else lifecycle.CONFIRMED_ON_STDIN


def confirm(question: str) -> bool:
    """Ask on the terminal; end of input is a no."""
    print(f"{question} [y/N] ", end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline() if sys.stdin else ""
    return answer.strip().lower() in ("y", "yes", "是", "确认")
