"""A workflow's life: ``init``, ``start``, ``phase``, ``complete``, ``abort``, ``unlock``, ``fail``."""

from __future__ import annotations

from vibegit import app
from vibegit.core import lifecycle
from vibegit.core.messages import t
from vibegit.core.model import Phase, Result, State
from vibegit.errors import OK, BadInput, Refused
from vibegit.infra import git, mirror, output, store, userhooks


def init() -> int:
    ctx = app.enter()
    loaded = store.read_state(ctx.repo, ctx.settings)
    if loaded.head is not None:
        app.say(t("cmd.already_set_up", branch=ctx.settings.state_branch, head=loaded.head[:10]))
        return OK
    e = app.facts(ctx)
    app.record(ctx, lambda s: lifecycle.init(s, e), e)
    app.say(t("cmd.init_next"))
    return OK


def adopt() -> int:
    """``vibegit adopt``: an earlier skill-based set-up's state files in the
    mirror become a vibegit workflow (one event, bound here, with the lock if
    it was running); the mirror is then written by vibegit, and the files
    git tracks there that this rewrites are named."""
    ctx = app.enter()
    found = mirror.foreign(ctx.repo, ctx.settings)
    if found is None:
        raise Refused(t("cmd.nothing_to_adopt", mirror=ctx.settings.mirror_dir))
    imported = mirror.read_foreign(found, ctx.settings)
    e = app.facts(ctx)
    source = ctx.settings.mirror_dir
    written = app.record(
        ctx, lambda s: lifecycle.adopt(s, e, imported, source, found.tracked), e, new=True, adopting=True
    )
    state = written.state
    app.say(
        t(
            "cmd.adopted",
            name=state.mode.workflow_name,
            id=state.workflow.id,
            status=t(f"status.{state.workflow.status.value}"),
            done=state.completed_tasks,
            total=state.total_tasks,
            source=source,
        )
    )
    if found.tracked:
        names = ", ".join(p.rsplit("/", 1)[-1] for p in found.tracked)
        app.say(
            t(
                "cmd.rewrote_tracked",
                n=len(found.tracked),
                source=source,
                names=names,
                branch=ctx.settings.state_branch,
            )
        )
    from vibegit.commands.learn import learn

    learn(quiet=True, ctx=ctx)  # the set-up's conventions and decisions are rules: learned at once
    from vibegit.core import report

    if report.is_active(state):
        app.show_report(ctx, app.state_of(ctx, e, state.workflow.id), None, e.head)
    return OK


def start(workflow: str, goal: str) -> int:
    ctx = app.enter()
    e = app.facts(ctx)
    written = app.record(ctx, lambda s: lifecycle.start(s, e, workflow, goal), e, new=True)
    where = t("cmd.on_branch", branch=e.branch) if e.branch else t("cmd.on_detached", worktree=e.worktree)
    app.say(t("cmd.started", name=written.state.mode.workflow_name, id=written.state.workflow.id, where=where))
    return OK


def phase(to: str, step: str | None, workflow: str | None = None) -> int:
    try:
        target = Phase(to.upper())
    except ValueError:
        raise BadInput(t("cmd.bad_phase", phase=to)) from None
    ctx = app.enter()
    app.event(lifecycle.phase, target, step, workflow=workflow, ctx=ctx)
    from vibegit.commands.learn import after_phase

    after_phase(ctx)  # the skill's onPhaseExit: learn from changed docs (silent when none changed)
    return OK


def complete(
    yes: bool,
    workflow: str | None = None,
    confirmed_by: str | None = None,
    no_tasks: bool = False,
    lessons: tuple[str, ...] = (),
) -> int:
    """The skill's completion: onBeforeComplete, the human's confirmation (寸止;
    on the terminal, or ``confirmed_by`` the client), then the completion
    report (kept in the state as completion.md, and printed) and what was
    learned recorded into memory."""
    ctx = app.enter()
    e = app.facts(ctx)
    state = app.state_of(ctx, e, workflow)
    allowed = confirmed_by or app.prompt_approval(ctx, "complete", state)  # taken before any refusal: used once

    def rule(s: State, how: str = "") -> Result:
        return lifecycle.complete(s, e, how, lessons=lessons, allow_empty=no_tasks)

    rule(state)  # the rules and the arguments, before anyone is asked
    hooks = userhooks.load(ctx.repo, ctx.config)
    if hooks.commands.get("onBeforeComplete"):
        data = userhooks.payload(state, "complete", "before complete", None, None, git.head_commit(ctx.repo), ctx.repo)
        userhooks.before_complete(hooks, data, ctx.repo, lambda text: print(text, file=output.stderr(), flush=True))
    question = t(
        "workflow.confirm_complete", name=state.mode.workflow_name, done=state.completed_tasks, total=state.total_tasks
    )
    how = allowed or app.person_confirms(
        question, yes, t("workflow.complete_not_confirmed"), _command("complete", state)
    )
    written = app.record(ctx, lambda s: rule(s, how), e, workflow=state.workflow.id)
    from vibegit.core import report

    app.say(report.completion(written.state, ctx.settings.lang).rstrip("\n"))
    app.say(t("workflow.completed"))
    return OK


def abort(yes: bool, workflow: str | None = None, confirmed_by: str | None = None) -> int:
    ctx = app.enter()
    e = app.facts(ctx)
    state = app.state_of(ctx, e, workflow)
    allowed = confirmed_by or app.prompt_approval(ctx, "abort", state)
    lifecycle.abort(state, e, "")  # the rules, before anyone is asked
    question = t("workflow.confirm_abort", name=state.mode.workflow_name)
    how = allowed or app.person_confirms(question, yes, t("workflow.abort_not_confirmed"), _command("abort", state))
    app.record(ctx, lambda s: lifecycle.abort(s, e, how), e, workflow=state.workflow.id)
    return OK


def unlock(yes: bool, reason: str | None, workflow: str | None = None, confirmed_by: str | None = None) -> int:
    ctx = app.enter()
    e = app.facts(ctx)
    state = app.state_of(ctx, e, workflow)
    allowed = confirmed_by or app.prompt_approval(ctx, "unlock", state)
    lifecycle.unlock(state, e, reason, "")  # the rules and the reason, before anyone is asked
    question = t("workflow.confirm_unlock", name=state.mode.workflow_name)
    how = allowed or app.person_confirms(question, yes, t("workflow.unlock_not_confirmed"), _command("unlock", state))
    app.record(ctx, lambda s: lifecycle.unlock(s, e, reason, how), e, workflow=state.workflow.id)
    app.say(t("cmd.unlocked"))
    return OK


def _command(verb: str, state: State) -> str:
    """The command the person runs for ``state``'s workflow, in their own terminal."""
    return f"vibegit {verb} --workflow {state.workflow.id}" if state.workflow.id else f"vibegit {verb}"


def fail(message: str, workflow: str | None = None) -> int:
    app.event(lifecycle.fail, message, workflow=workflow)
    return OK
