"""What a project doc teaches (the Lifecycle skill's learnFromDoc): its
bullet and numbered items, each with the heading above it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from vibegit.core.text import clean

DEFAULT_DOCS = (
    "project_document/.ai_state/conventions.md",
    "project_document/.ai_state/decisions.md",
    "README.md",
    "CONTRIBUTING.md",
)
MAX_ITEMS_PER_DOC = 200
MAX_ITEM_CHARS = 500

_HEADING = re.compile(r"(#{1,6})\s+(.*?)\s*#*\s*\Z")
_ITEM = re.compile(r"(\s*)(?:[-*+]|\d{1,3}[.)])\s+(.*)\Z")
_FENCE = re.compile(r"\s*(```|~~~)")
_TOC_LINK = re.compile(r"\[[^\]]*\]\(#[^)]*\)\Z")  # a table of contents, not a rule
_CHECKBOX = re.compile(r"\[[ xX]\]\s+")


@dataclass(frozen=True)
class Item:
    heading: str | None
    text: str


@dataclass(frozen=True)
class DocChange:
    path: str
    oid: str | None  # None: the doc is gone, forget what it taught
    items: tuple[Item, ...]


def extract(text: str) -> tuple[Item, ...]:
    """Bullet and numbered items with the nearest heading above them.

    Fenced code and HTML comments are skipped; an indented line that is not
    an item continues the item above it."""
    items: list[Item] = []
    heading: str | None = None
    in_fence = in_comment = False
    current: list[str] | None = None

    def flush() -> None:
        nonlocal current
        if current:
            joined = " ".join(" ".join(current).split())
            joined = _CHECKBOX.sub("", joined, count=1) if _CHECKBOX.match(joined) else joined
            if joined and not _TOC_LINK.match(joined):
                if len(joined) > MAX_ITEM_CHARS:
                    joined = joined[: MAX_ITEM_CHARS - 1] + "…"
                items.append(Item(heading, joined))
        current = None

    for line in clean(text, one_line=False).split("\n"):  # a project's docs: hostile text, made inert
        if in_comment:
            in_comment = "-->" not in line
            continue
        if _FENCE.match(line):
            flush()
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        stripped = line.strip()
        if stripped.startswith("<!--"):
            flush()
            in_comment = "-->" not in stripped
            continue
        head = _HEADING.match(stripped) if not line.startswith((" ", "\t")) else None
        if head:
            flush()
            heading = head.group(2).strip() or None
            continue
        item = _ITEM.match(line)
        if item and item.group(2).strip():
            flush()
            current = [item.group(2).strip()]
            continue
        if current is not None and stripped and line[:1] in (" ", "\t"):
            current.append(stripped)
            continue
        flush()
    flush()
    return tuple(items[:MAX_ITEMS_PER_DOC])
