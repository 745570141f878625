"""``conventions.md`` and ``decisions.md``: the skill's knowledge docs.

They live in the mirror folder, where agents and people edit them, and on
the state branch under ``learned/`` beside ``memory.yaml``, so they travel
to every clone with the rest of the state. Free Markdown: only bounded,
UTF-8 and free of NUL bytes; what ``learn`` takes from them is cleaned there.
"""

from __future__ import annotations

from vibegit.core.settings import KNOWLEDGE_DOCS  # not core.learn: its rules are compiled at import
from vibegit.infra.formats.yamldoc import decode

NAMES = KNOWLEDGE_DOCS
FOLDER = "learned"  # their directory at the root of the state tree


def parse_doc(data: bytes, name: str) -> str:
    """A knowledge doc's text (exit 2 with file and line when it is not text)."""
    return decode(data, name)
