"""The kanban: ``task add``, ``task start``, ``task done``, ``task list``."""

from __future__ import annotations

from vibegit import app
from vibegit.core import lifecycle
from vibegit.core.messages import t
from vibegit.core.text import clean
from vibegit.errors import OK


def add(task_id: str, title: str, workflow: str | None = None) -> int:
    app.event(lifecycle.task_add, task_id, title, workflow=workflow)
    return OK


def start(task_id: str, workflow: str | None = None) -> int:
    app.event(lifecycle.task_start, task_id, workflow=workflow)
    return OK


def done(task_id: str, workflow: str | None = None) -> int:
    written = app.event(lifecycle.task_done, task_id, workflow=workflow)
    st = written.state
    app.say(t("cmd.tasks_done", done=st.completed_tasks, total=st.total_tasks))
    return OK


def list_(as_json: bool, workflow: str | None = None) -> int:
    from vibegit.core import report  # a read's: not every event's import

    ctx = app.enter()
    state = app.state_of(ctx, app.facts(ctx), workflow)
    if as_json:
        app.say_json(report.as_json(state)["tasks"])
        return OK
    if not state.tasks:
        app.say(t("cmd.no_tasks"))
    for task in state.tasks:
        app.say(f"{report.ICON[task.status]} {task.id}  {t('task.' + task.status.value):<5}  {clean(task.title)}")
    return OK
