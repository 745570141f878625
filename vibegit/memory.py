"""The ``vibegit memory`` commands (SPEC §2, §5): rules and facts that
outlive a workflow, in ``memory.yaml`` on the state branch, ids like M-001."""
from __future__ import annotations

import json

from vibegit.infra import store
from vibegit.core import lifecycle, report
from vibegit.core.model import MemoryCategory
from vibegit.core.schema import entry_dict
from vibegit.core.text import MAX_TEXT, check_text
from vibegit.errors import OK

# -- commands -----------------------------------------------------------------


def cmd_add(category_name: str, text: str) -> int:
    from vibegit import commands

    cat = lifecycle.category(category_name)
    h = commands.here()
    state = store.read_state(h.repo, h.settings).state
    same = lifecycle.remembered_as(state.memory, cat, check_text(text, "memory text", max_len=MAX_TEXT))
    if same is not None:  # asking twice is not an error, and not a new event
        commands.say(f"Already remembered as {same.id}: {same.text}")
        return OK
    e = commands.env(h)
    commands.record(h, lambda s: lifecycle.memory_add(s, e, cat, text), e)
    return OK


def cmd_remove(entry_id: str) -> int:
    from vibegit import commands

    h = commands.here()
    e = commands.env(h)
    commands.record(h, lambda s: lifecycle.memory_remove(s, e, entry_id.strip()), e)
    return OK


def cmd_list(as_json: bool) -> int:
    from vibegit import commands

    h = commands.here()
    state = store.read_state(h.repo, h.settings).state
    entries = state.memory.entries
    if as_json:
        commands.say(json.dumps([entry_dict(e) for e in entries], ensure_ascii=False, indent=2))
        return OK
    if not entries:
        commands.say("Nothing remembered yet. Add with 'vibegit memory add CATEGORY TEXT' "
                     f"({', '.join(lifecycle.CATEGORIES)}), or learn from the docs with 'vibegit learn'.")
        return OK
    order = list(MemoryCategory)
    for entry in sorted(entries, key=lambda x: order.index(x.category)):
        where = f"  ({entry.source}{' § ' + entry.heading if entry.heading else ''})" if entry.source else ""
        commands.say(f"{entry.id}  {report.TEXT['en'][entry.category]:<10}  {entry.text}{where}")
    return OK
