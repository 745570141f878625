"""``context``: the last and next action, and open questions."""

from __future__ import annotations

from vibegit import app
from vibegit.core import lifecycle
from vibegit.core.messages import t
from vibegit.core.text import clean
from vibegit.errors import OK


def context(
    last: str | None,
    next_: str | None,
    question: str | None,
    answer: int | None,
    workflow: str | None = None,
    reply: str | None = None,
) -> int:
    written = app.event(lifecycle.context, last, next_, question, answer, reply, workflow=workflow)
    for q in written.state.context.pending_questions:
        app.say(t("context.open_question", n=q.id, text=clean(q.text)))
    return OK
