"""The YAML vibegit writes, read and written without PyYAML.

PyYAML costs a start-up its share of milliseconds (its Python modules
compile their regular expressions at import, even when libyaml parses), and
every state file vibegit writes is a small block-style mapping of text,
numbers and lists. ``read`` and ``emit`` handle exactly that shape; on
anything else they give up (``Unsure``) and yamldoc asks PyYAML, so their
answers are always PyYAML's (tests/test_plainyaml.py holds them to it on
generated documents and on arbitrary text).
"""

from __future__ import annotations

_BOOL_NULL = {"yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE"}
_BOOL_NULL |= {"on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL"}  # what PyYAML's dumper resolves
_INDICATORS = "#,[]{}&*!|>'\"%@`"  # a plain scalar cannot start with these
MAX_BYTES = 1 << 20  # the state files' bound (yamldoc.MAX_FILE_BYTES)
WIDTH = 900  # longer lines PyYAML folds (its width is 1000 in yamldoc): emit gives up on them


class Unsure(Exception):
    """Not the shape read and emit know: PyYAML decides."""


Keys = tuple[str | int, ...]  # keys and list indexes from the root, e.g. ("entries", 3, "id")


def read(text: str, lines: bool = True) -> tuple[dict[str, object], dict[Keys, int]]:
    """A mapping in the block style ``emit`` writes: keys of lowercase
    letters, digits and "_"; values null, true, false, whole numbers, plain
    or single-quoted one-line text, ``[]``, ``{}``, nested mappings and
    lists. What it returns is what PyYAML reads from the same text (with
    yamldoc's resolvers: null, booleans and integers), and the line of each
    key and list item (for error messages; not kept when ``lines`` is
    false: a read that needs them reads again); anything else is Unsure."""
    reader = _Reader(text, lines)
    if reader.lines[0][0]:
        raise Unsure  # an indented top level: emit never writes one (and the reader's levels start at 0)
    value = reader.mapping(0, reader.lines[0][1], ())
    if reader.i != len(reader.lines):
        raise Unsure
    return value, reader.where


class _Reader:
    def __init__(self, text: str, lines: bool = True) -> None:
        self.lines: list[tuple[int, str, int]] = []  # indent, the rest, line number
        append = self.lines.append
        for number, raw in enumerate(text.split("\n"), 1):
            if not raw or raw[0] == "#":
                continue  # a comment line (vibegit writes one at the top)
            body = raw.lstrip(" ")
            indent = len(raw) - len(body)
            if indent > 40 or not body or body[0] == "#" or not body.isprintable():
                raise Unsure  # a tab, a control or format character, a blank or indented comment line, deep nesting
            append((indent, body, number))
        if not self.lines:
            raise Unsure
        self.i = 0
        self.where: dict[Keys, int] = {}
        self.keep = lines  # the line of each key: a tuple and an entry each, for error messages only

    def node(self, path: Keys) -> object:
        indent, body, _ = self.lines[self.i]
        if body.startswith("- "):
            return self.sequence(indent, path)
        return self.mapping(indent, body, path)

    def mapping(self, indent: int, first: str, path: Keys) -> dict[str, object]:
        """The mapping whose first key is ``first`` (the current line, or a list item's rest)."""
        out: dict[str, object] = {}
        body, lines, i = first, self.lines, self.i
        end, keep, keys, scalars = len(lines), self.keep, _keys, _scalars  # (the memos: looked up here)
        while True:
            key, colon, rest = body.partition(":")
            if not colon or key in out or not (keys.get(key) or _is_key(key)):
                raise Unsure
            if rest and (rest[:1] != " " or rest[1:2] in ("", " ")):
                raise Unsure
            if keep:
                at = (*path, key)
                self.where[at] = lines[i][2]
            else:
                at = path
            i += 1
            if rest:
                value = scalars.get(rest[1:], _UNREAD)
                out[key] = _read_scalar(rest[1:]) if value is _UNREAD else value
            elif i < end and (lines[i][0] > indent or (lines[i][0] == indent and lines[i][1].startswith("- "))):
                self.i = i
                out[key] = self.node(at)
                i = self.i
            else:
                out[key] = None
            if i == end or lines[i][0] != indent or lines[i][1].startswith("-"):
                self.i = i
                return out
            body = lines[i][1]

    def sequence(self, indent: int, path: Keys) -> list[object]:
        out: list[object] = []
        lines = self.lines
        while self.i < len(lines) and lines[self.i][0] == indent and lines[self.i][1].startswith("- "):
            if self.keep:
                at = (*path, len(out))
                self.where[at] = lines[self.i][2]
            else:
                at = path
            item = lines[self.i][1][2:]
            key, colon, rest = item.partition(":")
            if colon and (not rest or rest[:1] == " ") and _is_key(key):
                out.append(self.mapping(indent + 2, item, at))
            else:
                out.append(_read_scalar(item))
                self.i += 1
        return out


_keys: dict[str, bool] = {}  # the answers for keys met before: a state file's few keys recur in every entry


def _is_key(key: str) -> bool:
    """A key as ``emit`` writes it plain: a name, or a path (memory.yaml's learned docs)."""
    known = _keys.get(key)
    if known is not None:
        return known
    if not key or key[0] == "'":
        return False
    try:
        plain = isinstance(_scalar(key), str)
    except Unsure:
        plain = False
    if len(_keys) < 1024:
        _keys[key] = plain
    return plain


# The short values met before and their answers (not [] or {}, which are mutable), read and
# emitted: an index's hosts, paths, phases, statuses and counts recur in every entry.
_scalars: dict[str, object] = {}
_UNREAD = object()  # not in _scalars
_texts: dict[str, str] = {}


def _read_scalar(text: str) -> object:
    """``_scalar``, remembered for texts met before (its answers are immutable)."""
    try:
        return _scalars[text]
    except KeyError:
        pass
    value = _scalar(text)
    if len(_scalars) < 4096 and len(text) <= 128 and not isinstance(value, (list, dict)):
        _scalars[text] = value
    return value


def _scalar(text: str) -> object:
    if not text:
        raise Unsure
    first = text[0]
    if first.isalpha() or first in "/_":  # text, or a word YAML reads (the most met first)
        if text == "null" or text == "true" or text == "false":
            return None if text == "null" else text == "true"
        if text in _BOOL_NULL or ": " in text or " #" in text or text.endswith((":", " ")):
            raise Unsure  # PyYAML's booleans and nulls are these words exactly: "y", "n" or "tRUE" are text
        return text
    if text == "~":
        return None
    if text in ("[]", "{}"):
        return [] if text == "[]" else {}
    if text[:1] == "'":
        inner = text[1:-1]
        if len(text) < 2 or text[-1] != "'" or "'" in inner.replace("''", ""):
            raise Unsure
        return inner.replace("''", "'")
    if text.isascii() and text.isdigit() and (text == "0" or text[0] != "0"):
        return int(text)
    if _is_oid(text):
        return text
    raise Unsure  # a number of another form, an indicator, a space first: PyYAML decides


def emit(data: dict[str, object]) -> str:
    """``data`` as yamldoc's ``yaml.dump`` writes it (block style, indent 2,
    lists not indented under their key, unicode as is), or Unsure."""
    if not isinstance(data, dict) or not data:
        raise Unsure
    lines: list[str] = []
    _emit_mapping(data, 0, "", lines)
    return "\n".join(lines) + "\n"


def _emit_mapping(data: dict[str, object], indent: int, first: str, lines: list[str]) -> None:
    """Keys at ``indent``; the first line starts with ``first`` instead (a list item's "- ")."""
    pad, texts = " " * indent, _texts  # (the memo: looked up here for a text met before)
    for n, (key, value) in enumerate(data.items()):
        if not isinstance(key, str) or len(key) > 100:
            raise Unsure
        start = (first if n == 0 and first else pad) + (texts.get(key) or _text(key)) + ":"
        if type(value) is str:  # the most met: text
            line = f"{start} {texts.get(value) or _text(value)}"
        elif isinstance(value, dict) and value:
            lines.append(start)
            _emit_mapping(value, indent + 2, "", lines)
            continue
        elif isinstance(value, list) and value:
            lines.append(start)
            _emit_sequence(value, indent, lines)
            continue
        else:
            line = f"{start} {_emit_scalar(value)}"
        if len(line) > WIDTH:
            raise Unsure
        lines.append(line)


def _emit_sequence(items: list[object], indent: int, lines: list[str]) -> None:
    for item in items:
        if isinstance(item, dict) and item:
            _emit_mapping(item, indent + 2, " " * indent + "- ", lines)
        elif isinstance(item, list) and item:
            raise Unsure  # a list in a list: "- - x"
        else:
            lines.append(f"{' ' * indent}- {_emit_scalar(item)}")
            if len(lines[-1]) > WIDTH:
                raise Unsure


def _emit_scalar(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if value == {} or value == []:
        return "{}" if isinstance(value, dict) else "[]"
    if not isinstance(value, str):
        raise Unsure
    return _text(value)


def _text(value: str) -> str:
    """``_plain_or_quoted``, remembered for values met before."""
    try:
        return _texts[value]
    except KeyError:
        pass
    out = _plain_or_quoted(value)
    if len(_texts) < 4096 and len(value) <= 128:
        _texts[value] = out
    return out


def _plain_or_quoted(value: str) -> str:
    """Plain where PyYAML writes it plain, else single-quoted, else Unsure."""
    if not value:
        return "''"
    if not value.isprintable() or max(value) > "\uffff":
        raise Unsure  # line breaks, controls, format characters, and (to libyaml) all beyond U+FFFF: double quotes
    quoted = "'" + value.replace("'", "''") + "'"
    first = value[0]
    if first.isalpha() or first in "_/":  # YAML reads it as text unless it is a boolean or null word
        if value in _BOOL_NULL or ": " in value or " #" in value or value.endswith((":", " ")):
            return quoted
        return value
    if first in _INDICATORS or first == " " or value[:2] in ("- ", "? ", ": ") or value in ("-", "?", ":"):
        return quoted
    if value.isascii() and value.isdigit() and (value == "0" or first != "0"):
        return quoted  # an integer
    whole, dot, part = value.partition(".")
    if dot and whole.isascii() and whole.isdigit() and part.isascii() and part.isdigit():
        return quoted  # a float: a step like 4.3
    if len(value) == 20 and _stamp(value):
        return quoted  # a timestamp, as vibegit writes them
    if _is_oid(value):
        return value
    raise Unsure


def _stamp(value: str) -> bool:
    """2026-11-30T10:24:04Z"""
    digits = value[:4] + value[5:7] + value[8:10] + value[11:13] + value[14:16] + value[17:19]
    shape = value[4] + value[7] + value[10] + value[13] + value[16] + value[19]
    return digits.isascii() and digits.isdigit() and shape == "--T::Z"


def _is_oid(value: str) -> bool:
    """An object id with a letter in it: text to YAML (not 0b and binary digits, a
    number; 0b and any other hex digit is text: one object id in 128 starts so,
    and each would cost PyYAML's import)."""
    hexes = len(value) in (40, 64) and not value.strip("0123456789abcdef")
    binary = value.startswith("0b") and not value[2:].strip("01")
    return hexes and not value.isdigit() and not binary
