"""Validation of text that arrives from outside: command arguments, state
files, settings. Every check is one clear line naming what is wrong."""

from __future__ import annotations

from vibegit.errors import BadInput

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Iterator

# ``re`` (and the ``enum`` it loads) is imported at a pattern's first use:
# a checkpoint starts its snapshot's git processes before that (``snapshot.begun``).


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
            import re

            self._compiled = re.compile(self._pattern, self._flags)
        return self._compiled

    @property
    def pattern(self) -> str:
        return self._pattern

    @property
    def flags(self) -> int:
        return self.compiled.flags

    @property
    def groups(self) -> int:
        return self.compiled.groups

    def __repr__(self) -> str:  # its pattern and flags (the scan's record keys on the rules' text)
        return f"LazyPattern({self._pattern!r}, {self._flags})"

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.compiled.match(text, pos)

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return self.compiled.fullmatch(text)

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.compiled.search(text, pos)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(text)

    def sub(self, replacement: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return self.compiled.sub(replacement, text, count=count)


MAX_TEXT = 4000  # one field: goal, title, action, question
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
ALNUM = LETTERS + "0123456789"
NAME_CHARS = ALNUM + "._-"  # of an id: a task's, a workflow's


def spelled(value: str, longest: int, *, first: str = ALNUM, rest: str = NAME_CHARS, shortest: int = 1) -> bool:
    """``value`` is ``shortest`` to ``longest`` characters, its first one of
    ``first`` and every other one of ``rest`` (ASCII sets). Ids are checked on
    every command; in C string methods, not a regular expression, as ``re``
    costs 2 ms to load."""
    return shortest <= len(value) <= longest and value[0] in first and not value.strip(rest)


def is_task_id(value: str) -> bool:
    return spelled(value, 64)


def is_memory_id(value: str) -> bool:  # a memory entry's: M-1, or a name given
    return spelled(value, 32, first=LETTERS, rest=ALNUM + "_-")


# Characters that end a line for str.splitlines() or YAML, and other controls.
_BREAKS = frozenset("\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
# Bidirectional embeddings, overrides and isolates: text that reads otherwise
# than it is stored ("Trojan Source"). Marks (LRM, RLM) are invisible
# format characters: ``clean`` shows them as escapes.
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


# Code points a person does not see but an agent reads: every format
# character (category Cf) and Unicode's Default_Ignorable_Code_Point. TAG
# characters (U+E0000-E007F) spell hidden ASCII ("Add a login API" that
# also says "run curl ... | sh"); zero-width spaces and joiners, word
# joiners, soft hyphens and fillers hide inside words; runs of variation
# selectors carry bytes. ``clean`` removes what only hides (TAG characters
# and the rest of their block, variation selectors but one after a visible
# character, as in an emoji), keeps a zero-width joiner where it joins (an
# emoji sequence, two letters of a script that joins) and shows every other
# one as an escape a person sees (``\u200b``).
_HIDDEN = (
    "\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
)
_SELECTORS = frozenset("\u180b\u180c\u180d\u180f" + "".join(map(chr, range(0xFE00, 0xFE10))))
_PRESENTATION = "\ufe0e\ufe0f"  # text or emoji presentation: one after a visible character stays
_JOINERS = "\u200c\u200d"  # zero-width non-joiner and joiner
# What ``clean`` may change, for its quick look at a text not all ASCII (a
# one-line text: line breaks too). One all ASCII (most are) needs no pattern:
# its controls are what ``str.isprintable`` refuses.
_SUSPECT = LazyPattern(f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u2028\\u2029\\ud800-\\udfff{_HIDDEN}]")
_SUSPECT_LINE = LazyPattern(f"[\\x00-\\x08\\x0a-\\x1f\\x7f-\\x9f\\u2028\\u2029\\ud800-\\udfff{_HIDDEN}]")


def _control(c: str) -> bool:
    return c < " " or "\x7f" <= c <= "\x9f" or c in _BREAKS or c in BIDI or "\ud800" <= c <= "\udfff"


def bad_char(value: str, one_line: bool = True) -> str | None:
    """The first control, line-breaking or bidi-override character of ``value``,
    or a lone surrogate (bytes that were not UTF-8), if any."""
    if value.isprintable():  # every one of those is not (Cc, Zl, Zp, Cf): most text is done in C
        return None
    allowed = "\t" if one_line else "\t\n"
    return next((c for c in value if _control(c) and c not in allowed), None)


def _escape(c: str) -> str:
    """``c`` as an escape a person sees (a byte that was not UTF-8: ``\\xNN``)."""
    n = ord(c)
    if 0xDC80 <= n <= 0xDCFF:
        return f"\\x{n - 0xDC00:02x}"
    return f"\\u{n:04x}" if n <= 0xFFFF else f"\\U{n:08x}"


def _joins(before: str, after: str) -> bool:
    """Whether a zero-width joiner between ``before`` and ``after`` joins: two
    emoji, or two letters of a script that is not ASCII (Persian, Indic)."""
    import unicodedata  # only for text that holds a joiner

    kind, next_kind = unicodedata.category(before) if before else "", unicodedata.category(after) if after else ""
    if next_kind == "So" and (kind in ("So", "Sk") or before == "\ufe0f"):
        return True
    letters = kind[:1] in ("L", "M") and next_kind[:1] in ("L", "M")
    return letters and not before.isascii() and not after.isascii()


_HIDDEN_ONE = LazyPattern(f"[{_HIDDEN}]")


def _hidden(c: str) -> bool:
    return _HIDDEN_ONE.match(c) is not None


def clean(value: str, one_line: bool = True) -> str:
    """``value`` made inert for a person or an agent to read, for text that
    cannot be refused (the state branch, a project's docs, a hook's output,
    git's own data): control and bidi-override characters go (escape
    sequences lose their ESC), line breaks become spaces where the text must
    stay one line, tabs stay; invisible characters go or show as escapes
    (see ``_HIDDEN``), and so do bytes that were not UTF-8 (``\\xff``)."""
    if value.isascii():
        kept = value.replace("\t", "") if one_line else value.replace("\t", "").replace("\n", "")
        if kept.isprintable():
            return value
    elif (_SUSPECT_LINE if one_line else _SUSPECT).search(value) is None:
        return value
    text = value.replace("\r\n", "\n").replace("\r", "\n")
    keep = "\t" if one_line else "\t\n"
    out: list[str] = []
    for i, c in enumerate(text):
        if c in keep:
            out.append(c)
        elif one_line and (c == "\n" or c in _BREAKS):
            out.append(" ")
        elif "\ud800" <= c <= "\udfff":
            out.append(_escape(c))
        elif _control(c):
            continue
        elif not _hidden(c):
            out.append(c)
        elif c in _SELECTORS:  # the first presentation selector after a visible character stays
            last = out[-1] if out else " "
            if c in _PRESENTATION and len(last) == 1 and not last.isspace() and last not in _PRESENTATION:
                out.append(c)
        elif "\U000e0000" <= c <= "\U000e0fff":
            continue  # TAG characters (hidden ASCII), variation selectors beyond the first 16
        elif c in _JOINERS and out and len(out[-1]) == 1 and _joins(out[-1], text[i + 1 : i + 2]):
            out.append(c)
        else:
            out.append(_escape(c))
    return "".join(out)


def hidden_char(value: str, one_line: bool = True) -> str | None:
    """The first character of ``value`` that ``clean`` would not show as it is
    (an invisible one, a byte that was not UTF-8), if any."""
    shown = clean(value, one_line)
    if shown == value:
        return None
    at = next((i for i, (a, b) in enumerate(zip(value, shown, strict=False)) if a != b), min(len(value), len(shown)))
    return value[at] if at < len(value) else None


def clean_data(value: object) -> object:
    """``value`` (text, numbers, lists and mappings, as JSON holds them) with
    every text in it, keys included, made inert by ``clean`` (lines kept):
    for JSON, whose escapes would bring back what ``clean`` shows as text."""
    if isinstance(value, str):
        return clean(value, one_line=False)
    if isinstance(value, dict):
        return {clean_data(k): clean_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean_data(v) for v in value]
    return value


# A value that starts a line of Markdown must not start a heading, a list
# item, a quote, a table row, a fence or an HTML block of the report.
_BLOCK_MARKS = "#>|`~=+*<-"


def _block(text: str) -> bool:
    """``text`` starts (after any backslashes) with a block marker: one of
    ``_BLOCK_MARKS``, a number of at most 9 digits and ``.`` or ``)``, or ``___``."""
    rest = text.lstrip("\\")
    if not rest:
        return False
    if rest[0] in _BLOCK_MARKS or rest.startswith("___"):
        return True
    digits = next((i for i, c in enumerate(rest[:10]) if not c.isdecimal()), 10)
    return 0 < digits < 10 and rest[digits : digits + 1] in (".", ")")


def inert(value: str) -> str:
    """``value`` shown at the start of a line: cleaned, and a leading block
    marker escaped with a backslash, so it reads as text, not as a heading
    like "### Next step" or a list item (``unescape`` takes it back)."""
    text = clean(value).lstrip()
    return "\\" + text if _block(text) else text


def unescape(value: str) -> str:
    """A value read back from a line ``inert`` wrote."""
    return value[1:] if value.startswith("\\") and _block(value[1:]) else value


def code(value: str) -> str:
    """``value`` as a Markdown code span it cannot break out of."""
    text = clean(value)
    import re

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
        if "\ud800" <= bad <= "\udfff":
            raise BadInput(f"{what}: is not valid UTF-8 (byte {_escape(bad)})")
        kind = "must be one line" if bad in "\r\n" or bad in _BREAKS else "holds a control character"
        raise BadInput(f"{what}: {kind} ({bad!r})")
    hidden = hidden_char(value, one_line)
    if hidden is not None:
        raise BadInput(f"{what}: holds an invisible character (U+{ord(hidden):04X}); remove it")
    return value.strip() if one_line else value


def check_task_id(task_id: str) -> str:
    if not is_task_id(task_id):
        raise BadInput(f"task id {task_id[:40]!r}: use letters, digits, '.', '_' or '-' (like T-001), at most 64")
    return task_id


def _drive(path: str) -> bool:
    """``path`` starts with a Windows drive (``C:``)."""
    return len(path) > 1 and path[1] == ":" and path[0] in LETTERS


def check_relative_path(path: str, what: str) -> str:
    """A path relative to the repository, inside it, outside .git, plain text."""
    parts = path.replace("\\", "/").split("/")
    if not path or path.startswith(("/", "\\")) or _drive(path) or ".." in parts:
        raise BadInput(f"{what}: {path[:80]!r} must be a path relative to the repository, inside it")
    if any(ch in path for ch in "\0\n\r"):
        raise BadInput(f"{what}: path holds a control character")
    if any("\ud800" <= ch <= "\udfff" for ch in path):  # bytes that were not UTF-8: the state files hold text
        raise BadInput(f"{what}: {path[:80]!r} is not valid UTF-8; rename it, or name another file")
    if parts[0] == ".git":
        raise BadInput(f"{what}: {path[:80]!r} is inside .git, not the working tree")
    return path


HEX = "0123456789abcdef"  # an object id's digits: lower case only, as git writes them


def is_oid(text: object) -> bool:
    """A full object id (sha1 or sha256), nothing else: ids read from state
    files reach git command lines, where anything else could be an option."""
    return isinstance(text, str) and len(text) in (40, 64) and not text.strip(HEX)


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


_ESCAPE = LazyPattern(r"\\(\\|x[0-9a-f]{2}|u[0-9a-f]{4})")


def unescape_path(text: str) -> str:
    """The path ``escape_path`` wrote (bytes that were not UTF-8 come back as surrogates)."""

    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        if code == "\\":
            return "\\"
        value = int(code[1:], 16)
        return chr(0xDC00 + value) if code[0] == "x" else chr(value)

    return _ESCAPE.sub(one, text)
