"""Find a checkpoint's file:line again after the file was edited.

A checkpoint keeps the anchored line's text (stripped, at most 200
characters). The line is found again where that text is now, nearest the
old line number; failing that, the most similar line near it; else it is gone.
"""

from __future__ import annotations

from vibegit.core.records import NamedTuple

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start


MAX_TEXT = 200
SIMILAR = 0.75  # a line this alike (difflib ratio) is the anchored line, edited


class Where(NamedTuple):
    state: str  # "same", "moved", "similar", "gone", "no-file" or "unknown"
    line: int | None = None


def key(text: str) -> str:
    return text.strip()[:MAX_TEXT]


def _redacted(keys: list[str], want: str) -> list[int]:
    """The lines ``want`` stands for when redaction replaced parts of it: each
    ``[REDACTED]`` any text of at least one character, the rest as it was."""
    from vibegit.core.credentials import REDACTED  # only for a line not found as it was

    if REDACTED not in want:
        return []
    import re

    pattern = re.compile(".+?".join(re.escape(part) for part in want.split(REDACTED)), re.S)
    return [n for n, k in enumerate(keys, 1) if pattern.fullmatch(k)]


def relocate(lines: list[str], line: int, text: str | None) -> Where:
    """Where the line once at ``line`` reading ``text`` is in ``lines`` now."""
    if text is None:
        return Where("unknown", line)
    want = key(text)
    keys = [key(x) for x in lines]
    if 1 <= line <= len(keys) and keys[line - 1] == want:
        return Where("same", line)
    if not want:  # a blank line cannot be told from another one
        return Where("unknown", line)
    exact = [n for n, k in enumerate(keys, 1) if k == want]
    if exact:
        return Where("moved", min(exact, key=lambda n: (abs(n - line), n)))
    redacted = _redacted(keys, want)
    if redacted:  # 'sync --redact' took a credential out of the text kept: the file still has it
        nearest = min(redacted, key=lambda n: (abs(n - line), n))
        return Where("same" if nearest == line else "moved", nearest)
    from difflib import SequenceMatcher  # only when the line moved and changed

    best: tuple[float, int, int] | None = None
    for n, k in enumerate(keys, 1):
        if not k:
            continue
        matcher = SequenceMatcher(None, want, k, autojunk=False)
        if matcher.real_quick_ratio() < SIMILAR or matcher.quick_ratio() < SIMILAR:
            continue
        ratio = matcher.ratio()
        if ratio >= SIMILAR:
            candidate = (-ratio, abs(n - line), n)
            best = candidate if best is None or candidate < best else best
    if best is not None:
        return Where("similar", best[2])
    return Where("gone")
