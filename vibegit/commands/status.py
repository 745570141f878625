"""``status`` (the recovery report, or JSON) and ``log`` (the newest events)."""

from __future__ import annotations

from vibegit import app
from vibegit.core import report, workflows
from vibegit.core.messages import t
from vibegit.core.model import Status
from vibegit.core.text import clean
from vibegit.errors import OK, BadInput
from vibegit.infra import git, mirror, remote, store


def status(as_json: bool, lang: str | None, workflow: str | None = None, compare: bool = False) -> int:
    """This worktree's workflow (or ``--workflow``'s): the report, or JSON; one line names the others.
    The snapshot is compared with the working tree in a small tree, or with ``compare``."""
    ctx = app.enter()
    e = app.facts(ctx)
    loaded = store.read_state(ctx.repo, ctx.settings)
    if loaded.head is None:
        app.refuse_vanished(ctx)  # the branch was deleted: said as every command says it
    if workflow is not None:
        target: workflows.Summary | None = workflows.find(loaded.index, workflow)
    else:
        several = workflows.ambiguous_here(loaded.index, e)
        if several:
            workflows.choose(loaded.index, e, None)  # names them and asks for --workflow
        target = workflows.shown_here(loaded.index, e)
    state = store.flow(ctx.repo, git.reader(ctx.repo), loaded, target.id).state if target else loaded.fresh().state
    rest = workflows.others(loaded.index, target.id if target else None)
    active = target is not None and report.is_active(state)
    news = remote.newer(ctx.repo, ctx.settings, target.id, config=ctx.config) if target and active else None
    if as_json:
        app.say_json({**report.as_json(state, rest), "newer": news.as_dict() if news else None})
        return OK
    if not report.is_active(state):
        found = mirror.foreign(ctx.repo, ctx.settings)
        if found is not None and not loaded.index:
            app.say(t("cmd.adopt_hint", what=found.describe(ctx.settings)))
        name = state.mode.workflow_name
        w = state.workflow
        if w.status is Status.FAILED:
            app.say(t("status.failed_line", name=name, at=w.ended_at or "?", error=clean(w.error or "?")))
        last = t("status.last_here", name=name, status=t(f"status.{w.status.value}")) if name else ""
        app.say(t("status.none_active", last=last))
        if rest:
            app.say(t("cmd.running_elsewhere", others=workflows.others_line(rest)))
        return OK
    if news is not None:  # from the copy fetched before: no network here
        app.say(t("status.newer", newer=news.where(state.mode.workflow_name or state.workflow.id)))
    app.show_report(ctx, state, lang, e.head, rest, compare=compare or None, here=e)
    return OK


def list_(as_json: bool) -> int:
    """Every workflow of the repository, with its status, branch, holder, phase, progress and last event."""
    ctx = app.enter()
    listed = sorted(store.read_state(ctx.repo, ctx.settings).index, key=lambda s: s.updated_at, reverse=True)
    if as_json:
        app.say_json([s.as_dict() for s in listed])
        return OK
    if not listed:
        app.say(t("cmd.no_workflows"))
        return OK
    e = app.facts(ctx)
    here = workflows.shown_here(tuple(listed), e)
    # bound to this branch but running in another clone (a teammate's): not this worktree's to work on
    theirs = here is not None and here.status is Status.RUNNING and bool(here.host) and not here.held_here(e)
    rows = [("", "ID", "NAME", "STATUS", "WHERE", "PHASE", "TASKS", "HELD BY", "LAST EVENT")]
    for s in listed:
        phase = f"{s.phase.value}{'/' + s.step if s.step else ''}" if s.phase else "-"
        held = f"{s.host}:{s.holder}" if s.host else "-"
        mark = ("~" if theirs else "*") if here is not None and s.id == here.id else ""
        rows.append((mark, s.id, s.name, s.status.value, s.where(), phase, f"{s.done}/{s.total}", held, s.updated_at))
    shown = [[clean(v) for v in row] for row in rows]
    widths = [max(width(row[i]) for row in shown) for i in range(len(rows[0]))]
    for row in shown:
        app.say("  ".join(v + " " * (w - width(v)) for v, w in zip(row, widths, strict=True)).rstrip())
    if here is not None:
        app.say(t("cmd.held_elsewhere_here" if theirs else "cmd.this_worktree"))
    return OK


def width(text: str) -> int:
    """The columns ``text`` takes on a terminal: East Asian wide and full-width
    characters two, combining marks none, the rest one."""
    if text.isascii():
        return len(text)
    import unicodedata  # only for text beyond ASCII (a Chinese WHERE column, a workflow's name)

    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text
    )


def log(count: int, as_json: bool, workflow: str | None = None, every: bool = False) -> int:
    """The newest events of this worktree's workflow (``--workflow``'s; ``--all``: every event)."""
    if count < 1:
        raise BadInput(f"-n {count}: must be at least 1")
    ctx = app.enter()
    target = (
        None if every else workflows.choose(store.read_state(ctx.repo, ctx.settings).index, app.facts(ctx), workflow)
    )
    entries = store.history(ctx.repo, ctx.settings, count, target.id if target else None)
    if as_json:
        app.say_json(entries)
        return OK
    if not entries:
        app.say(t("cmd.no_events"))
    for entry in entries:
        app.say(f"{entry['commit'][:10]}  {entry['date']}  {entry['subject']}")
    return OK
