"""``learn``: rules from project docs (the Lifecycle skill's watchDocs).

The watched docs are ``git config vibegit.learn`` (off when "" or false).
``conventions.md`` and ``decisions.md`` of the mirror folder are state: read
from the state branch (the mirror's edits adopted into it first), so every
machine learns the same. The other docs are read from the working tree. A
doc whose blob id differs from the one remembered in ``memory.yaml`` is
learned again: its rules (core/learn.py says which items are) replace what
it taught before; rules that did not change keep their ids. What was taken
is shown.
"""

from __future__ import annotations

import os

from vibegit import app
from vibegit.core import lifecycle
from vibegit.core.messages import t
from vibegit.core.model import MemoryEntry, Result, State
from vibegit.core.text import clean
from vibegit.errors import OK, VibegitError
from vibegit.infra import mirror, store, worktree

MAX_SHOWN = 20


def learn(quiet: bool = False, ctx: app.Context | None = None) -> int:
    """``vibegit learn``; ``quiet`` (phase exits) says nothing when nothing
    changed; ``ctx``: the repository the command that learns entered already."""
    ctx = ctx or app.enter()
    mirror_dir = ctx.settings.mirror_dir
    docs = worktree.learn_setting(ctx.config, mirror_dir)
    if docs is None:
        if not quiet:
            app.say(t("learn.off"))
        return OK
    state = store.read_state(ctx.repo, ctx.settings).fresh().state
    notices: list[str] = []
    tracked = worktree.changed_docs(ctx.repo, state, docs, mirror_dir, notices)
    for notice in notices:
        app.warn(notice)
    seen = mirror.knowledge_on_disk(ctx.repo, ctx.settings, state)  # the mirror's docs, as the event will adopt them
    if not tracked and not worktree.knowledge_changes(ctx.repo, seen, docs, mirror_dir):
        if not quiet:
            present = sum(os.path.isfile(os.path.join(ctx.repo.toplevel, d)) for d in docs)
            app.say(t("learn.nothing", present=present, total=len(docs)))
        return OK
    e = app.facts(ctx)

    def rule(s: State) -> Result:
        changes = tracked + worktree.knowledge_changes(ctx.repo, s, docs, mirror_dir)
        return lifecycle.learn(s, e, changes)

    try:
        written = app.record(ctx, rule, e)
    except lifecycle.NothingNew:
        return OK
    before = {x.id for x in written.previous.memory.entries}
    taken = [x for x in written.state.memory.entries if x.source in written.event.docs and x.id not in before]
    show_taken(taken)
    return OK


def show_taken(taken: list[MemoryEntry]) -> None:
    """Each rule just learned, with its kind and where it came from (the first ones)."""
    from vibegit.core import report  # only when something was learned: not every phase change's import

    for entry in taken[:MAX_SHOWN]:
        app.say(f"  + {entry.id} {report.category_label(entry.category)}: {clean(entry.text)}{report.origin(entry)}")
    if len(taken) > MAX_SHOWN:
        app.say(t("learn.more", n=len(taken) - MAX_SHOWN))
    app.say(t("learn.see_list"))


def after_phase(ctx: app.Context) -> None:
    """Phase exits learn too (the skill's onPhaseExit → watchDocs); a failure
    here never undoes the phase change that is already recorded."""
    try:
        learn(quiet=True, ctx=ctx)
    except (VibegitError, OSError) as err:
        app.warn(t("learn.after_phase_failed", error=err))
