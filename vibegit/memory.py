"""Memory (SPEC §2, §5): rules and facts that outlive a workflow.

Entries live in ``memory.yaml`` on the state branch, with ids like M-001.
The transitions here are pure, like lifecycle.py; the ``cmd_*`` functions
are the ``vibegit memory`` commands.
"""
from __future__ import annotations

import json
import re
from dataclasses import replace

from vibegit import lifecycle, report, store
from vibegit.errors import OK, BadInput, Refused
from vibegit.files import MAX_TEXT, check_text, entry_dict
from vibegit.lifecycle import Env
from vibegit.model import Event, Memory, MemoryCategory, MemoryEntry, State

CATEGORIES = tuple(c.value for c in MemoryCategory)
_NUMBER = re.compile(r"M-(\d+)\Z")


def category(value: str) -> MemoryCategory:
    try:
        return MemoryCategory(value.strip().lower().replace("-", "_"))
    except ValueError:
        raise BadInput(f"category {value!r:.40}: use one of {', '.join(CATEGORIES)}") from None


def next_ids(memory: Memory, count: int = 1) -> list[str]:
    """Fresh ids after the highest M-NNN in use (hand-made ids are skipped)."""
    numbers = [int(m.group(1)) for e in memory.entries if (m := _NUMBER.match(e.id))]
    start = max(numbers, default=0) + 1
    return [f"M-{n:03d}" for n in range(start, start + count)]


def find_same(memory: Memory, cat: MemoryCategory, text: str) -> MemoryEntry | None:
    key = " ".join(text.split()).casefold()
    return next((e for e in memory.entries if e.category is cat and " ".join(e.text.split()).casefold() == key), None)


def add(state: State, env: Env, cat: MemoryCategory, text: str) -> lifecycle.Result:
    text = check_text(text, "memory text", max_len=MAX_TEXT)
    if not text:
        raise BadInput("memory text: must not be empty")
    same = find_same(state.memory, cat, text)
    if same is not None:
        raise Refused(f"already remembered as {same.id}")
    entry = MemoryEntry(next_ids(state.memory)[0], cat, text, created_at=env.now)
    memory = replace(state.memory, entries=(*state.memory.entries, entry))
    return lifecycle.touch(state, env, memory=memory), Event("memory-add", f"{entry.id} {cat.value}: {text}")


def remove(state: State, env: Env, entry_id: str) -> lifecycle.Result:
    entry = next((e for e in state.memory.entries if e.id == entry_id), None)
    if entry is None:
        known = ", ".join(e.id for e in state.memory.entries[:20]) or "none yet"
        raise BadInput(f"unknown memory {entry_id!r:.40} (known: {known}); see 'vibegit memory list'")
    memory = replace(state.memory, entries=tuple(e for e in state.memory.entries if e.id != entry_id))
    summary = f"{entry.id} {entry.category.value}: {entry.text}"
    return lifecycle.touch(state, env, memory=memory), Event("memory-remove", summary)


# -- commands -----------------------------------------------------------------


def cmd_add(category_name: str, text: str) -> int:
    from vibegit import commands

    cat = category(category_name)
    h = commands.here()
    state = store.read_state(h.repo, h.settings).state
    same = find_same(state.memory, cat, check_text(text, "memory text", max_len=MAX_TEXT))
    if same is not None:  # asking twice is not an error, and not a new event
        commands.say(f"Already remembered as {same.id}: {same.text}")
        return OK
    e = commands.env(h)
    commands.record(h, lambda s: add(s, e, cat, text), e)
    return OK


def cmd_remove(entry_id: str) -> int:
    from vibegit import commands

    h = commands.here()
    e = commands.env(h)
    commands.record(h, lambda s: remove(s, e, entry_id.strip()), e)
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
                     f"({', '.join(CATEGORIES)}), or learn from the docs with 'vibegit learn'.")
        return OK
    order = list(MemoryCategory)
    for entry in sorted(entries, key=lambda x: order.index(x.category)):
        where = f"  ({entry.source}{' § ' + entry.heading if entry.heading else ''})" if entry.source else ""
        commands.say(f"{entry.id}  {report.TEXT['en'][entry.category]:<10}  {entry.text}{where}")
    return OK
