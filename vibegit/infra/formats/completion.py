"""``completion.md``: the completion report of a completed workflow (the
Lifecycle skill's 完成报告), rendered from session.yaml and the kanban only,
in the language of the run that wrote it; never read back."""

from __future__ import annotations

from vibegit.core import messages
from vibegit.core.model import State

NAME = "completion.md"


def render_completion(state: State) -> str:
    from vibegit.core.report import completion  # only a completed workflow's: not every event's import

    return completion(state, messages.lang())
