"""``context``: the last and next action, and open questions."""

from __future__ import annotations

from vibegit import app
from vibegit.core import lifecycle
from vibegit.core.text import clean
from vibegit.errors import OK


def context(
    last: str | None, next_: str | None, question: str | None, answer: int | None, workflow: str | None = None
) -> int:
    written = app.event(lifecycle.context, last, next_, question, answer, workflow=workflow)
    for i, q in enumerate(written.state.context.pending_questions, 1):
        app.say(f"  open question {i}: {clean(q)}")
    return OK
