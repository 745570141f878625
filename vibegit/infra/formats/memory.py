"""``memory.yaml``: remembered rules and facts, the blob ids of the docs
learned from, and the highest id ever given (ids are never reused)."""

from __future__ import annotations

from vibegit.core.messages import t
from vibegit.core.model import Memory, MemoryCategory, MemoryEntry
from vibegit.core.schema import entry_dict
from vibegit.core.text import MAX_TEXT, bad_char, check_relative_path, is_memory_id, is_oid
from vibegit.errors import BadInput
from vibegit.infra.formats.yamldoc import YamlDoc, dump, extra

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from typing import Any

NAME = "memory.yaml"

_ENTRY_KEYS = ("id", "category", "text", "created_at", "source", "heading")
_MEMORY_KEYS = ("entries", "learned", "last_id")
MAX_MEMORY_ENTRIES = 5000


def parse_memory(data: bytes, name: str = NAME) -> Memory:
    """``memory.yaml``: a list of entries and the learned docs' blob ids."""
    doc = YamlDoc(data, name)
    raw = doc.seq(doc.data, ("entries",), MAX_MEMORY_ENTRIES, "entries")
    entries: list[MemoryEntry] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        where = f"{name}:{doc.line('entries', i)}: entries[{i}]"
        if not isinstance(item, dict):
            raise BadInput(f"{where}: expected a mapping with id, category and text")
        values: dict[str, str | None] = {}
        for key in _ENTRY_KEYS:
            value = item.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (str, int))):
                raise BadInput(f"{where}.{key}: expected text, found {type(value).__name__}")
            values[key] = None if value is None else str(value)
        entry_id, text = values["id"] or "", (values["text"] or "").strip()
        if not is_memory_id(entry_id):
            raise BadInput(f"{where}.id: {entry_id!r:.40} is not an id like M-001")
        if entry_id in seen:
            raise BadInput(f"{where}.id: {entry_id} appears twice")
        seen.add(entry_id)
        try:
            category = MemoryCategory(values["category"] or "")
        except ValueError:
            allowed = " ".join(c.value for c in MemoryCategory)
            raise BadInput(f"{where}.category: {values['category']!r:.40} is not one of: {allowed}") from None
        if not text or len(text) > MAX_TEXT:
            raise BadInput(f"{where}.text: must be non-empty text of at most {MAX_TEXT} characters")
        for key in ("text", "heading", "created_at"):
            bad = bad_char(values[key] or "")
            if bad is not None:
                raise BadInput(f"{where}.{key}: holds a control or line-break character ({bad!r})")
        source = values["source"]
        if source is not None:
            check_relative_path(source, f"{where}.source")
        entries.append(
            MemoryEntry(
                id=entry_id,
                category=category,
                text=text,
                created_at=values["created_at"] or "",
                source=source,
                heading=values["heading"],
                extra=extra(item, _ENTRY_KEYS),
            )
        )
    learned = doc.data.get("learned") or {}
    if not isinstance(learned, dict) or not all(isinstance(k, str) and is_oid(v) for k, v in learned.items()):
        raise doc.error(("learned",), "expected a mapping of doc path to blob id")
    for path in learned:
        check_relative_path(path, f"{name}:{doc.line('learned')}: learned")
    last_id = doc.data.get("last_id") or 0
    if isinstance(last_id, bool) or not isinstance(last_id, int) or not 0 <= last_id < 10**9:
        raise doc.error(("last_id",), "expected a whole number (the highest M-NNN ever given)")
    return Memory(tuple(entries), dict(learned), last_id, extra=extra(doc.data, _MEMORY_KEYS))


def render_memory(memory: Memory) -> str:
    data: dict[str, Any] = {"entries": [entry_dict(e) for e in memory.entries]}
    if memory.learned:
        data["learned"] = dict(sorted(memory.learned.items()))
    if memory.last_id:
        data["last_id"] = memory.last_id
    data.update(memory.extra)
    return t("memory_yaml.header") + "\n" + dump(data)
