"""``checkpoint.md``: the checkpoint, readable; rendered from session.yaml only."""

from __future__ import annotations

from vibegit.core.model import State
from vibegit.core.text import clean, inert

NAME = "checkpoint.md"


def render_checkpoint(state: State) -> str:
    k = state.checkpoint
    if k is None:
        return "# Checkpoint\n\nNo checkpoint yet. Take one with `vibegit checkpoint`.\n"
    where = clean(f"{k.file}:{k.line}" if k.file and k.line else (k.file or "(none)"))
    lines = [
        "# Checkpoint",
        "",
        "## Time",
        inert(k.created_at),
        "",
        "## Position",
        f"- Workflow: {clean(state.mode.workflow_name or '(none)')}",
        f"- Phase: {state.mode.phase.value if state.mode.phase else '(none)'}"
        + (f", step {clean(state.mode.step)}" if state.mode.step else ""),
        f"- Task: {state.workflow.current_task or '(none)'}",
        f"- File: {where}",
        f"- Commit: {clean(k.commit or '(no commit yet)')} on {clean(k.branch or 'a detached HEAD')}",
        f"- Snapshot of uncommitted work: {clean(k.snapshot or 'none')}",
        "",
        "## Pending work",
        inert(k.action or state.context.next_action or "(not recorded)"),
        "",
        "## How to resume",
        "Run `vibegit resume`.",
        "",
    ]
    return "\n".join(lines)
