"""Validation of text that arrives from outside: command arguments, state
files, settings. Every check is one clear line naming what is wrong."""

from __future__ import annotations

import re

from vibegit.errors import BadInput

MAX_TEXT = 4000  # one field: goal, title, action, question
TASK_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z")
MEMORY_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}\Z")
_OID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")

# Characters that end a line for str.splitlines() or YAML, and other controls.
_BREAKS = frozenset("\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
# Bidirectional embeddings, overrides and isolates: text that reads otherwise
# than it is stored ("Trojan Source"). Marks (LRM, RLM) are left alone.
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _control(c: str) -> bool:
    return c < " " or "\x7f" <= c <= "\x9f" or c in _BREAKS or c in BIDI


def bad_char(value: str, one_line: bool = True) -> str | None:
    """The first control, line-breaking or bidi-override character of ``value``, if any."""
    if value.isprintable():  # every one of those is not (Cc, Zl, Zp, Cf): most text is done in C
        return None
    allowed = "\t" if one_line else "\t\n"
    return next((c for c in value if _control(c) and c not in allowed), None)


def clean(value: str, one_line: bool = True) -> str:
    """``value`` without control and bidi-override characters, for text that
    cannot be refused (a project's docs, a hook's output, git's own data):
    escape sequences lose their ESC, line breaks become spaces where the
    text must stay one line, tabs stay."""
    keep = "\t" if one_line else "\t\n"
    if not any(_control(c) and c not in keep for c in value):
        return value
    text = value.replace("\r\n", "\n").replace("\r", "\n")
    if one_line:
        text = "".join(" " if c in "\n\r" or c in _BREAKS else c for c in text)
    return "".join(c for c in text if not _control(c) or c in keep)


# A value that starts a line of Markdown must not start a heading, a list
# item, a quote, a table row, a fence or an HTML block of the report.
_BLOCK = re.compile(r"(\\*)([#>|`~=+*<-]|\d{1,9}[.)]|_{3,})")


def inert(value: str) -> str:
    """``value`` shown at the start of a line: cleaned, and a leading block
    marker escaped with a backslash, so it reads as text, not as a heading
    like "### Next step" or a list item (``unescape`` takes it back)."""
    text = clean(value).lstrip()
    return "\\" + text if _BLOCK.match(text) else text


def unescape(value: str) -> str:
    """A value read back from a line ``inert`` wrote."""
    return value[1:] if value.startswith("\\") and _BLOCK.match(value[1:]) else value


def code(value: str) -> str:
    """``value`` as a Markdown code span it cannot break out of."""
    text = clean(value)
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def shown(path: str) -> str:
    """A path (from a snapshot, the state branch, the working tree) for a one-line message:
    as it is when plain, else quoted with its odd characters escaped."""
    if path.isprintable() and not any(c in BIDI for c in path) and path.strip() == path:
        return path
    return repr(path)


def check_text(value: str, what: str, *, max_len: int = MAX_TEXT, one_line: bool = True) -> str:
    """A user-given string: bounded, printable, one line where it must be."""
    if len(value) > max_len:
        raise BadInput(f"{what}: too long ({len(value)} characters, at most {max_len})")
    bad = bad_char(value, one_line)
    if bad is not None:
        kind = "must be one line" if bad in "\r\n" or bad in _BREAKS else "holds a control character"
        raise BadInput(f"{what}: {kind} ({bad!r})")
    return value.strip() if one_line else value


def check_task_id(task_id: str) -> str:
    if not TASK_ID.match(task_id):
        raise BadInput(f"task id {task_id[:40]!r}: use letters, digits, '.', '_' or '-' (like T-001), at most 64")
    return task_id


def check_relative_path(path: str, what: str) -> str:
    """A path relative to the repository, inside it, outside .git, plain text."""
    parts = path.replace("\\", "/").split("/")
    if not path or path.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", path) or ".." in parts:
        raise BadInput(f"{what}: {path[:80]!r} must be a path relative to the repository, inside it")
    if any(ch in path for ch in "\0\n\r"):
        raise BadInput(f"{what}: path holds a control character")
    if parts[0] == ".git":
        raise BadInput(f"{what}: {path[:80]!r} is inside .git, not the working tree")
    return path


def is_oid(text: object) -> bool:
    """A full object id (sha1 or sha256), nothing else: ids read from state
    files reach git command lines, where anything else could be an option."""
    return isinstance(text, str) and _OID.fullmatch(text) is not None


def escape_path(path: str) -> str:
    """A file-system path as one line of printable text that maps back
    (``unescape_path``): a byte that is not UTF-8 (decoded with
    surrogateescape) becomes ``\\xNN``, a control or line-breaking character
    ``\\uNNNN``, a backslash ``\\\\``; everything else stays as it is."""
    out = []
    for c in path:
        if c == "\\":
            out.append("\\\\")
        elif "\udc80" <= c <= "\udcff":
            out.append(f"\\x{ord(c) - 0xDC00:02x}")
        elif bad_char(c) is not None or c == "\t" or "\x80" <= c <= "\x9f" or "\ud800" <= c <= "\udfff":
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    return "".join(out)


_ESCAPE = re.compile(r"\\(\\|x[0-9a-f]{2}|u[0-9a-f]{4})")


def unescape_path(text: str) -> str:
    """The path ``escape_path`` wrote (bytes that were not UTF-8 come back as surrogates)."""

    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        if code == "\\":
            return "\\"
        value = int(code[1:], 16)
        return chr(0xDC00 + value) if code[0] == "x" else chr(value)

    return _ESCAPE.sub(one, text)


class LazyPattern:
    """A regular expression compiled at its first use: a module that holds
    some that a command never uses costs nothing for them at start-up
    (compiling one takes 0.1-1 ms)."""

    __slots__ = ("_compiled", "_flags", "_pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._pattern, self._flags)
        return self._compiled

    def match(self, text: str) -> re.Match[str] | None:
        return self.compiled.match(text)

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return self.compiled.fullmatch(text)

    def search(self, text: str) -> re.Match[str] | None:
        return self.compiled.search(text)

    def sub(self, replacement: str, text: str, count: int = 0) -> str:
        return self.compiled.sub(replacement, text, count=count)
