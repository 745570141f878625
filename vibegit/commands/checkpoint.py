"""``checkpoint`` and ``pause``: pin the commit, file:line and a snapshot of uncommitted work."""

from __future__ import annotations

from vibegit import app
from vibegit.core import lifecycle
from vibegit.core.model import Checkpoint, State
from vibegit.core.records import replace
from vibegit.errors import OK
from vibegit.infra import snapshot, store, worktree


def _snapshot(ctx: app.Context, point: Checkpoint, skip: bool) -> tuple[Checkpoint, dict[str, str | None]]:
    """The checkpoint with its snapshot of uncommitted work (none when clean or
    skipped); what recording it takes loads while git stages the working tree."""
    app.ready_to_record()
    tree = None if skip else snapshot.take(ctx.repo)
    return replace(point, snapshot=tree), {store.SNAPSHOT: tree}


def checkpoint(
    file: str | None, line: int | None, action: str | None, no_snapshot: bool = False, workflow: str | None = None
) -> int:
    ctx = app.enter()
    point = worktree.anchor(ctx.repo.toplevel, file, line, action)
    e = app.facts(ctx)
    target = app.state_of(ctx, e, workflow).workflow.id or None  # read while git stages the working tree
    point, trees = _snapshot(ctx, point, no_snapshot)
    app.record(ctx, lambda s: lifecycle.checkpoint(s, e, point), e, trees, workflow=target)
    return OK


def _keep_position(state: State, point: Checkpoint) -> Checkpoint:
    """Pause without --file keeps the last checkpoint's file:line."""
    old = state.checkpoint
    if point.file or old is None:
        return point
    return replace(point, file=old.file, line=old.line, line_text=old.line_text, action=point.action or old.action)


def pause(action: str | None, lang: str | None, no_snapshot: bool = False, workflow: str | None = None) -> int:
    ctx = app.enter()
    e = app.facts(ctx)
    target = app.state_of(ctx, e, workflow).workflow.id or None  # read while git stages the working tree
    point, trees = _snapshot(ctx, worktree.anchor(ctx.repo.toplevel, None, None, action), no_snapshot)
    rule = lambda s: lifecycle.pause(s, e, _keep_position(s, point))  # noqa: E731
    written = app.record(ctx, rule, e, trees, workflow=target)
    app.show_report(ctx, written.state, lang, e.head, taken=trees[store.SNAPSHOT])  # no second scan
    return OK
