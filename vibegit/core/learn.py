"""What a project doc teaches (the Lifecycle skill's learnFromDoc): its rules,
and only its rules.

The skill learns conventions, decisions and forbidden actions. So:

- ``conventions.md`` and ``decisions.md`` (the skill's own knowledge docs,
  kept in the mirror folder and on the state branch) are rules throughout:
  every bullet or numbered item counts;
- in any other doc (a README, CONTRIBUTING.md …), an item counts when it
  stands under a heading that names rules (Conventions, Rules, Guidelines,
  Decisions, Forbidden, Don't, Never, Style, Policy …; 约定, 规范, 规则,
  准则, 决策, 禁止, 不要 …, at any level above it), between the markers
  ``<!-- vibegit:rules -->`` and ``<!-- /vibegit:rules -->``, or when it
  begins with ``Rule:``, ``Convention:``, ``Decision:``, ``Forbidden:``
  (规则：, 约定：, 决策：, 禁止：). A feature list or release steps teach nothing.

An item is a ``forbidden_action`` when its heading names forbidden things
or it begins with Never, Don't, Do not, Must not, Forbidden (禁止, 不要,
不得, 严禁); any other rule is ``project_knowledge``.
"""

from __future__ import annotations

import re

from vibegit.core.model import MemoryCategory
from vibegit.core.records import frozen
from vibegit.core.settings import KNOWLEDGE_DOCS
from vibegit.core.text import LazyPattern, clean

OTHER_DEFAULT_DOCS = ("README.md", "CONTRIBUTING.md")
MAX_ITEMS_PER_DOC = 200
MAX_ITEM_CHARS = 500
OFF = ("", "false", "off", "no", "0", "none")
ON = ("true", "on", "yes", "1")

_HEADING = LazyPattern(r"(#{1,6})\s+(.*?)\s*#*\s*\Z")
_ITEM = LazyPattern(r"(\s*)(?:[-*+]|\d{1,3}[.)])\s+(.*)\Z")
_FENCE = LazyPattern(r"\s*(```|~~~)")
_TOC_LINK = LazyPattern(r"\[[^\]]*\]\(#[^)]*\)\Z")  # a table of contents, not a rule
_CHECKBOX = LazyPattern(r"\[[ xX]\]\s+")
_RULES_ON = LazyPattern(r"<!--\s*vibegit:rules\s*-->", re.I)
_RULES_OFF = LazyPattern(r"<!--\s*/vibegit:rules\s*-->", re.I)

_RULE_WORDS = (
    r"conventions?|rules?|guidelines?|decisions?|policy|policies|principles?|standards?|style|"
    r"forbidden|prohibited|never|don'?ts?|do not|must not|best practices?|"
    r"约定|规范|规则|准则|原则|决策|决定|禁止|不要|不得|严禁|注意事项"
)
_RULE_HEADING = LazyPattern(rf"(?<![\w-])(?:{_RULE_WORDS})(?![\w-])", re.I)
_FORBIDDEN_HEADING = LazyPattern(
    r"(?<![\w-])(?:forbidden|prohibited|never|don'?ts?|do not|must not|禁止|不要|不得|严禁)(?![\w-])", re.I
)
_MARKER = LazyPattern(r"(?:rule|convention|decision|forbidden|规则|约定|决策|禁止)\s*[:：]", re.I)
_FORBIDDEN_ITEM = LazyPattern(r"(?:never|don'?t|do not|must not|forbidden\s*[:：]|禁止|不要|不得|严禁)", re.I)


@frozen
class Item:
    heading: str | None
    text: str
    category: MemoryCategory = MemoryCategory.PROJECT_KNOWLEDGE


@frozen
class DocChange:
    path: str
    oid: str  # the blob id of the doc learned from
    items: tuple[Item, ...]


def watched(values: list[str] | None, mirror_dir: str) -> tuple[str, ...] | None:
    """The docs ``git config vibegit.learn`` names (each value may be a
    comma-separated list): None when learning is switched off ("" or false),
    the defaults when it is unset (``values`` None) or true."""
    if values is None:
        return default_docs(mirror_dir)
    words = [v.strip() for v in values]
    if all(w.lower() in OFF for w in words):
        return None
    if all(w.lower() in ON for w in words):
        return default_docs(mirror_dir)
    paths = [p.strip() for w in words if w.lower() not in ON + OFF for p in w.split(",")]
    return tuple(dict.fromkeys(p for p in paths if p)) or None


def default_docs(mirror_dir: str) -> tuple[str, ...]:
    return (*(f"{mirror_dir}/{name}" for name in KNOWLEDGE_DOCS), *OTHER_DEFAULT_DOCS)


def is_knowledge_doc(path: str) -> bool:
    """One of the skill's own knowledge docs: every item of it is a rule."""
    return path.rsplit("/", 1)[-1] in KNOWLEDGE_DOCS


def extract(text: str, every_item: bool = False) -> tuple[Item, ...]:
    """The rules of a doc: its bullet and numbered items that are rules (all of
    them with ``every_item``), each with the nearest heading above it.

    Fenced code and HTML comments are skipped; an indented line that is not
    an item continues the item above it."""
    items: list[Item] = []
    headings: list[tuple[int, str]] = []  # the heading chain above: (level, text)
    in_fence = in_comment = marked = False
    current: list[str] | None = None

    def flush() -> None:
        nonlocal current
        if current:
            joined = " ".join(" ".join(current).split())
            joined = _CHECKBOX.sub("", joined, count=1) if _CHECKBOX.match(joined) else joined
            if joined and not _TOC_LINK.match(joined):
                item = _rule(joined, headings, every_item or marked)
                if item is not None:
                    items.append(item)
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
        if _RULES_ON.fullmatch(stripped) or _RULES_OFF.fullmatch(stripped):
            flush()
            marked = _RULES_ON.fullmatch(stripped) is not None
            continue
        if stripped.startswith("<!--"):
            flush()
            in_comment = "-->" not in stripped
            continue
        head = _HEADING.match(stripped) if not line.startswith((" ", "\t")) else None
        if head:
            flush()
            level = len(head.group(1))
            headings = [h for h in headings if h[0] < level]
            if head.group(2).strip():
                headings.append((level, head.group(2).strip()))
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


def _rule(text: str, headings: list[tuple[int, str]], every_item: bool) -> Item | None:
    """``text`` as a rule under ``headings``, or None when it is not one."""
    if len(text) > MAX_ITEM_CHARS:
        text = text[: MAX_ITEM_CHARS - 1] + "…"
    titles = [h for _, h in headings]
    ruled = any(_RULE_HEADING.search(h) for h in titles)
    if not (every_item or ruled or _MARKER.match(text)):
        return None
    forbidden = any(_FORBIDDEN_HEADING.search(h) for h in titles) or _FORBIDDEN_ITEM.match(text) is not None
    category = MemoryCategory.FORBIDDEN_ACTION if forbidden else MemoryCategory.PROJECT_KNOWLEDGE
    return Item(titles[-1] if titles else None, text, category)
