"""``status`` (the recovery report, or JSON) and ``log`` (the newest events)."""

from __future__ import annotations

import json

from vibegit import app
from vibegit.core import report
from vibegit.errors import OK, BadInput
from vibegit.infra import git, store


def status(as_json: bool, lang: str | None) -> int:
    ctx = app.enter()
    state = store.read_state(ctx.repo, ctx.settings).state
    if as_json:
        app.say(json.dumps(report.as_json(state), ensure_ascii=False, indent=2))
        return OK
    if not report.is_active(state):
        name = state.mode.workflow_name
        last = f" (last: {name!r}, {state.workflow.status.value})" if name else ""
        app.say(f"No workflow is active{last}. Start one with 'vibegit start WORKFLOW --goal TEXT'.")
        return OK
    app.show_report(ctx, state, lang, git.head_commit(ctx.repo))
    return OK


def log(count: int, as_json: bool) -> int:
    if count < 1:
        raise BadInput(f"-n {count}: must be at least 1")
    ctx = app.enter()
    entries = store.history(ctx.repo, ctx.settings, count)
    if as_json:
        app.say(json.dumps(entries, ensure_ascii=False, indent=2))
        return OK
    if not entries:
        app.say("No events yet.")
    for entry in entries:
        app.say(f"{entry['commit'][:10]}  {entry['date']}  {entry['subject']}")
    return OK
