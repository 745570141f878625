"""``agent-instructions``: the working protocol for AGENTS.md / CLAUDE.md, which command at which moment."""

from __future__ import annotations

from vibegit.core.protocol import protocol
from vibegit.errors import OK


def agent_instructions(lang: str) -> int:
    print(protocol(lang), end="")
    return OK
