"""The kanban: ``task add``, ``task start``, ``task done``, ``task list``."""

from __future__ import annotations

import json

from vibegit import app
from vibegit.core import lifecycle, report
from vibegit.core.text import clean
from vibegit.errors import OK
from vibegit.infra import store


def add(task_id: str, title: str) -> int:
    app.event(lifecycle.task_add, task_id, title)
    return OK


def start(task_id: str) -> int:
    app.event(lifecycle.task_start, task_id)
    return OK


def done(task_id: str) -> int:
    written = app.event(lifecycle.task_done, task_id)
    st = written.state
    app.say(f"{st.completed_tasks}/{st.total_tasks} tasks done.")
    return OK


def list_(as_json: bool) -> int:
    ctx = app.enter()
    state = store.read_state(ctx.repo, ctx.settings).state
    if as_json:
        app.say(json.dumps(report.as_json(state)["tasks"], ensure_ascii=False, indent=2))
        return OK
    if not state.tasks:
        app.say("No tasks.")
    for task in state.tasks:
        app.say(f"{report.ICON[task.status]} {task.id}  {task.status.value:<5}  {clean(task.title)}")
    return OK
