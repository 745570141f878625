"""``learn``: rules from project docs (the Lifecycle skill's watchDocs).

The watched docs are read from the working tree. A doc whose blob id differs
from the one remembered in ``memory.yaml`` is learned again: its bullet and
numbered items become ``project_knowledge`` entries (with the doc and the
heading above them), replacing what that doc taught before. Items whose text
and heading did not change keep their ids.
"""

from __future__ import annotations

from vibegit import app
from vibegit.core import lifecycle
from vibegit.core.model import MemoryCategory
from vibegit.errors import OK, VibegitError
from vibegit.infra import store, worktree


def learn(quiet: bool = False) -> int:
    """``vibegit learn``; ``quiet`` (phase exits) says nothing when nothing changed."""
    ctx = app.enter()
    state = store.read_state(ctx.repo, ctx.settings).fresh().state
    notices: list[str] = []
    changes = worktree.changed_docs(ctx.repo, state, notices)
    for notice in notices:
        app.warn(notice)
    if not changes:
        if not quiet:
            docs = worktree.watched_docs(ctx.repo)
            present = sum((ctx.repo.toplevel / d).is_file() for d in docs)
            app.say(
                f"Nothing new to learn: {present} of {len(docs)} watched docs present, none changed "
                "since the last learn."
            )
        return OK
    e = app.facts(ctx)
    try:
        written = app.record(ctx, lambda s: lifecycle.learn(s, e, changes), e)
    except lifecycle.NothingNew:
        return OK
    if not quiet:
        knowledge = [x for x in written.state.memory.entries if x.category is MemoryCategory.PROJECT_KNOWLEDGE]
        app.say(f"{len(knowledge)} project notes remembered; see 'vibegit memory list'.")
    return OK


def after_phase() -> None:
    """Phase exits learn too (the skill's onPhaseExit → watchDocs); a failure
    here never undoes the phase change that is already recorded."""
    try:
        learn(quiet=True)
    except (VibegitError, OSError) as err:
        app.warn(f"the phase is recorded, but learning from the docs failed: {err}")
