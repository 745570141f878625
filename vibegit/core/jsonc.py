"""JSON, and JSON with comments (Gemini CLI's settings), read with the place
of every value and edited in place.

An agent's settings file belongs to its user: vibegit adds its entries by
inserting text and takes them out by cutting exactly that text, so every
other byte (comments, key order, indentation, a compact one-line file) stays
as it was. Parsing is strict JSON (the agents read their files with
``JSON.parse`` or serde), plus ``//`` and ``/* */`` comments where the agent
strips them first; duplicate keys are refused, since which one the agent
keeps is not ours to guess.
"""

from __future__ import annotations

import json
import re
from typing import Any

from vibegit.core.records import field, mutable

MAX_DEPTH = 100
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_WORDS = {"true": True, "false": False, "null": None}


class JsoncError(ValueError):
    """Where the text stops being JSON: a message, the line and the column (from 1)."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"{line}:{column}: {message}")
        self.message, self.line, self.column = message, line, column


@mutable
class Node:
    """One value: where it starts and ends, its Python value, and for an
    object its members (key, node), for an array its items."""

    start: int
    end: int
    value: Any
    members: list[tuple[str, int, Node]] = field(default_factory=list)  # key, where the key starts, value
    items: list[Node] = field(default_factory=list)

    @property
    def is_object(self) -> bool:
        return isinstance(self.value, dict)

    @property
    def children(self) -> list[Node]:
        return [n for _, _, n in self.members] if self.is_object else self.items

    def starts(self) -> list[int]:
        """Where each child begins (an object's member at its key)."""
        return [at for _, at, _ in self.members] if self.is_object else [n.start for n in self.items]

    def get(self, key: str) -> Node | None:
        return next((n for k, _, n in self.members if k == key), None)


class _Parser:
    def __init__(self, text: str, comments: bool) -> None:
        self.text, self.comments, self.pos = text, comments, 0

    def fail(self, message: str, pos: int | None = None) -> JsoncError:
        at = self.pos if pos is None else pos
        line = self.text.count("\n", 0, at) + 1
        return JsoncError(message, line, at - (self.text.rfind("\n", 0, at) + 1) + 1)

    def skip(self) -> None:
        text = self.text
        while self.pos < len(text):
            c = text[self.pos]
            if c in " \t\r\n\ufeff":
                self.pos += 1
            elif c == "/" and text.startswith(("//", "/*"), self.pos):
                if not self.comments:
                    raise self.fail("comments are not allowed in this file")
                if text.startswith("//", self.pos):
                    end = text.find("\n", self.pos)
                    self.pos = len(text) if end < 0 else end
                else:
                    end = text.find("*/", self.pos + 2)
                    if end < 0:
                        raise self.fail("unterminated /* comment")
                    self.pos = end + 2
            else:
                return

    def value(self, depth: int) -> Node:
        if depth > MAX_DEPTH:
            raise self.fail(f"nested deeper than {MAX_DEPTH} levels")
        self.skip()
        if self.pos >= len(self.text):
            raise self.fail("unexpected end of the file")
        c, start = self.text[self.pos], self.pos
        if c == "{":
            return self.container(start, depth, "}")
        if c == "[":
            return self.container(start, depth, "]")
        if c == '"':
            return Node(start, self.string_end(), self.decode(start))
        match = _NUMBER.match(self.text, self.pos)
        if match:
            self.pos = match.end()
            return Node(start, self.pos, json.loads(match.group(0)))
        for word, value in _WORDS.items():
            if self.text.startswith(word, self.pos):
                self.pos += len(word)
                return Node(start, self.pos, value)
        raise self.fail(f"unexpected {c!r}")

    def decode(self, start: int) -> str:
        try:
            value: str = json.loads(self.text[start : self.pos])
        except ValueError:
            raise self.fail("a bad escape in a string", start) from None
        return value

    def string_end(self) -> int:
        text, i = self.text, self.pos + 1
        while i < len(text):
            c = text[i]
            if c == '"':
                self.pos = i + 1
                return self.pos
            if c == "\\":
                i += 2
                continue
            if ord(c) < 0x20:
                raise self.fail("a control character inside a string", i)
            i += 1
        raise self.fail("unterminated string")

    def container(self, start: int, depth: int, close: str) -> Node:
        is_object = close == "}"
        node = Node(start, start, {} if is_object else [])
        self.pos += 1
        self.skip()
        if self.text.startswith(close, self.pos):
            self.pos += 1
            node.end = self.pos
            return node
        while True:
            self.skip()
            if is_object:
                if not self.text.startswith('"', self.pos):
                    raise self.fail("expected a key in double quotes")
                key_at = self.pos
                self.string_end()
                key = self.decode(key_at)
                if key in node.value:
                    raise self.fail(f"duplicate key {key!r}", key_at)
                self.skip()
                if not self.text.startswith(":", self.pos):
                    raise self.fail("expected ':' after the key")
                self.pos += 1
                child = self.value(depth + 1)
                node.members.append((key, key_at, child))
                node.value[key] = child.value
            else:
                child = self.value(depth + 1)
                node.items.append(child)
                node.value.append(child.value)
            self.skip()
            if self.text.startswith(",", self.pos):
                self.pos += 1
                self.skip()
                if self.text.startswith(close, self.pos):
                    raise self.fail("a trailing comma")
                continue
            if self.text.startswith(close, self.pos):
                self.pos += 1
                node.end = self.pos
                return node
            raise self.fail(f"expected ',' or {close!r}")


def parse(text: str, comments: bool = False) -> Node:
    """The document's one value, with places; JsoncError names line and column."""
    p = _Parser(text, comments)
    node = p.value(0)
    p.skip()
    if p.pos != len(text):
        raise p.fail("more after the value")
    return node


# -- edits: each returns the new text; parse again before the next one --------------


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def _indent_at(text: str, pos: int) -> str:
    start = _line_start(text, pos)
    line = text[start:pos]
    return line[: len(line) - len(line.lstrip(" \t"))]


def indent_unit(text: str) -> str:
    """The file's own indentation step (two spaces when it has none)."""
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            lead = line[: len(line) - len(stripped)]
            return "\t" if lead.startswith("\t") else lead
    return "  "


def render(value: Any, unit: str, base: str, inline: bool) -> str:
    """``value`` as JSON text placed at indentation ``base``."""
    if inline:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    text = json.dumps(value, ensure_ascii=False, indent=unit if unit != "\t" else "\t")
    return text.replace("\n", "\n" + base)


def _multiline(text: str, node: Node) -> bool:
    return "\n" in text[node.start : node.end]


def add(text: str, container: Node, value: Any, key: str | None = None) -> str:
    """``text`` with ``value`` added last to ``container`` (as member ``key`` of an object)."""
    unit = indent_unit(text)
    children, starts = container.children, container.starts()
    inline = not _multiline(text, container)
    base = _indent_at(text, starts[-1]) if children else _indent_at(text, container.start) + unit
    item = render(value, unit, base, inline)
    if key is not None:
        item = f"{json.dumps(key, ensure_ascii=False)}: {item}"
    if children:
        at = children[-1].end
        return text[:at] + (", " if inline else ",\n" + base) + item + text[at:]
    inner = item if inline else "\n" + base + item + "\n" + _indent_at(text, container.start)
    return text[: container.start + 1] + inner + text[container.end - 1 :]


def remove(text: str, container: Node, index: int) -> str:
    """``text`` without child ``index`` of ``container`` and the comma that
    joined it; comments between other children stay."""
    children, starts = container.children, container.starts()
    start, end = starts[index], children[index].end
    if len(children) == 1:
        if not (text[container.start + 1 : start].strip() or text[end : container.end - 1].strip()):
            return text[: container.start + 1] + text[container.end - 1 :]
        return text[:start] + text[end:]
    if index < len(children) - 1:  # the child and the comma after it, with its line when it had one alone
        line = _line_start(text, start)
        cut = line if not text[line:start].strip() else start
        after = _comma(text, end) + 1
        rest = re.match(r"[ \t]*(?:\r?\n)?", text[after:])
        tail = rest.group(0) if rest else ""
        if cut == line and not tail.endswith("\n"):
            cut = start  # something follows on its line: keep the line's indentation for it
        return text[:cut] + text[after + (len(tail) if tail.endswith("\n") or cut == start else 0) :]
    prev_end = children[index - 1].end
    if re.fullmatch(r"\s*,\s*", text[prev_end:start]):
        return text[:prev_end] + text[end:]
    comma = _comma(text, prev_end)
    return text[:comma] + text[comma + 1 : max(comma + 1, _line_start(text, start))] + text[end:]


def _comma(text: str, pos: int) -> int:
    """Where the comma after ``pos`` stands (comments skipped)."""
    p = _Parser(text, True)
    p.pos = pos
    p.skip()
    return p.pos
