"""The ``vibegit memory`` commands: rules and facts that
outlive a workflow, in ``memory.yaml`` on the state branch, ids like M-001."""

from __future__ import annotations

from vibegit import app
from vibegit.core import lifecycle, report
from vibegit.core.messages import t
from vibegit.core.model import MemoryCategory
from vibegit.core.schema import entry_dict
from vibegit.core.text import MAX_TEXT, check_text, clean
from vibegit.errors import OK
from vibegit.infra import store


def add(category_name: str, text: str) -> int:
    cat = lifecycle.category(category_name)
    ctx = app.enter()
    memory = store.read_state(ctx.repo, ctx.settings).memory
    same = lifecycle.remembered_as(memory, cat, check_text(text, "memory text", max_len=MAX_TEXT))
    if same is not None:  # asking twice is not an error, and not a new event
        app.say(t("cmd.already_remembered", id=same.id, text=clean(same.text)))
        return OK
    e = app.facts(ctx)
    app.record(ctx, lambda s: lifecycle.memory_add(s, e, cat, text), e)
    return OK


def remove(entry_id: str) -> int:
    ctx = app.enter()
    e = app.facts(ctx)
    app.record(ctx, lambda s: lifecycle.memory_remove(s, e, entry_id.strip()), e)
    return OK


def list_(as_json: bool) -> int:
    ctx = app.enter()
    entries = store.read_state(ctx.repo, ctx.settings).memory.entries
    if as_json:
        app.say_json([entry_dict(e) for e in entries])
        return OK
    if not entries:
        app.say(t("cmd.nothing_remembered", categories=", ".join(lifecycle.CATEGORIES)))
        return OK
    order = list(MemoryCategory)
    for entry in sorted(entries, key=lambda x: order.index(x.category)):
        app.say(f"{entry.id}  {report.category_label(entry.category):<10}  {clean(entry.text)}{report.origin(entry)}")
    return OK
