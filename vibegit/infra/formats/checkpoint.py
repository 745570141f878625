"""``checkpoint.md``: the checkpoint, readable (the Session Manager skill's 断点信息);
rendered from session.yaml only, in the language of the run that wrote it."""

from __future__ import annotations

from vibegit.core.messages import t
from vibegit.core.model import State
from vibegit.core.text import clean, inert

NAME = "checkpoint.md"


def render_checkpoint(state: State) -> str:
    k = state.checkpoint
    if k is None:
        return t("checkpoint_md.none") + "\n"
    none = t("context.none")
    where = clean(f"{k.file}:{k.line}" if k.file and k.line else (k.file or none))
    phase = state.mode.phase.value if state.mode.phase else none
    if state.mode.step:
        phase = t("report.step", phase=phase, step=clean(state.mode.step))
    lines = [
        t("checkpoint_md.title"),
        "",
        t("checkpoint_md.time"),
        inert(k.created_at),
        "",
        t("checkpoint_md.position"),
        t("checkpoint_md.workflow", name=clean(state.mode.workflow_name or none)),
        t("checkpoint_md.phase", phase=phase),
        t("checkpoint_md.task", task=state.workflow.current_task or none),
        t("checkpoint_md.file", where=where),
        t(
            "checkpoint_md.commit",
            commit=clean(k.commit or t("checkpoint_md.no_commit")),
            branch=clean(k.branch or t("checkpoint_md.detached")),
        ),
        t("checkpoint_md.snapshot", snapshot=clean(k.snapshot or t("report.none"))),
        "",
        t("checkpoint_md.pending"),
        inert(k.action or state.context.next_action or t("checkpoint_md.not_recorded")),
        "",
        t("checkpoint_md.resume"),
        t("checkpoint_md.resume_how"),
        "",
    ]
    return "\n".join(lines)
