"""A workflow's life: ``init``, ``start``, ``phase``, ``complete``, ``abort``, ``unlock``, ``fail``."""

from __future__ import annotations

import sys

from vibegit import app
from vibegit.core import lifecycle
from vibegit.core.model import ACTIVE, Phase
from vibegit.errors import OK, BadInput, Refused
from vibegit.infra import git, store, userhooks


def init() -> int:
    ctx = app.enter()
    loaded = store.read_state(ctx.repo, ctx.settings)
    if loaded.head is not None:
        app.say(f"vibegit is already set up here ({ctx.settings.state_branch} at {loaded.head[:10]}).")
        return OK
    e = app.facts(ctx)
    app.record(ctx, lambda s: lifecycle.init(s, e), e)
    app.say("Next: 'vibegit start WORKFLOW --goal TEXT'; 'vibegit install' adds the git hooks.")
    return OK


def start(workflow: str, goal: str) -> int:
    ctx = app.enter()
    e = app.facts(ctx)
    written = app.record(ctx, lambda s: lifecycle.start(s, e, workflow, goal), e, new=True)
    where = f"branch {e.branch}" if e.branch else f"this detached HEAD ({e.worktree})"
    app.say(
        f"Lock taken for {written.state.mode.workflow_name!r} ({written.state.workflow.id}) on {where}; phase R1. "
        "Add tasks with 'vibegit task add ID TITLE'."
    )
    return OK


def phase(to: str, step: str | None, workflow: str | None = None) -> int:
    try:
        target = Phase(to.upper())
    except ValueError:
        raise BadInput(f"phase {to!r:.20}: use one of R1 I P E R2") from None
    app.event(lifecycle.phase, target, step, workflow=workflow)
    from vibegit.commands.learn import after_phase

    after_phase()  # the skill's onPhaseExit: learn from changed docs (silent when none changed)
    return OK


def complete(yes: bool, workflow: str | None = None, confirmed_by: str | None = None) -> int:
    ctx = app.enter()
    e = app.facts(ctx)
    state = app.state_of(ctx, e, workflow)
    lifecycle.check_can_complete(state)
    hooks = userhooks.load(ctx.repo, ctx.config)
    if hooks.commands.get("onBeforeComplete"):
        data = userhooks.payload(state, "complete", "before complete", None, None, git.head_commit(ctx.repo), ctx.repo)
        userhooks.before_complete(hooks, data, ctx.repo, lambda text: print(text, file=sys.stderr, flush=True))
    if (
        not yes
        and not confirmed_by
        and not app.confirm(
            f"Complete workflow {state.mode.workflow_name!r} ({state.completed_tasks}/{state.total_tasks} tasks done)?"
        )
    ):
        raise Refused("completion not confirmed; the workflow keeps running (use --yes to skip the question)")
    rule = lambda s: lifecycle.complete(s, e, skipped_confirmation=yes, confirmed_by=confirmed_by)  # noqa: E731
    app.record(ctx, rule, e, workflow=state.workflow.id)
    app.say("Lock released. Back to conversation mode.")
    return OK


def abort(yes: bool, workflow: str | None = None, confirmed_by: str | None = None) -> int:
    ctx = app.enter()
    e = app.facts(ctx)
    state = app.state_of(ctx, e, workflow)
    lifecycle.require(state, ACTIVE, "abort")
    if (
        not yes
        and not confirmed_by
        and not app.confirm(f"Abort workflow {state.mode.workflow_name!r}? Progress is kept, the workflow ends.")
    ):
        raise Refused("abort not confirmed; nothing changed")
    app.record(ctx, lambda s: lifecycle.abort(s, e, confirmed_by), e, workflow=state.workflow.id)
    return OK


def unlock(reason: str | None, workflow: str | None = None, confirmed_by: str | None = None) -> int:
    app.event(lifecycle.unlock, reason, confirmed_by, workflow=workflow)
    app.say("Lock released; the workflow is ended (its history is kept). 'vibegit pause' keeps one resumable.")
    return OK


def fail(message: str, workflow: str | None = None) -> int:
    app.event(lifecycle.fail, message, workflow=workflow)
    return OK
