"""Where a command's words go: this process's stdout and stderr, or, inside
one MCP tool call, that call's own buffer (``captured``).

The sink is a context variable, never a swap of ``sys.stdout``: the MCP
server runs calls at once, each in a worker thread with a copy of its
request's context, so each call sees only its own buffer. The CLI never sets
it and prints to the process's streams (looked up at each line, as
``print`` does), at the cost of one lookup.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from typing import TextIO

_sink: ContextVar[io.StringIO | None] = ContextVar("vibegit_output", default=None)


def stdout() -> TextIO:
    """Where a command's output goes now."""
    sink = _sink.get()
    return sys.stdout if sink is None else sink


def stderr() -> TextIO:
    """Where a command's warnings go now (a call's one buffer: its words in the order said)."""
    sink = _sink.get()
    return sys.stderr if sink is None else sink


@contextmanager
def captured() -> Iterator[io.StringIO]:
    """Everything said in this context (output and warnings, in order) goes to the buffer yielded."""
    sink = io.StringIO()
    token = _sink.set(sink)
    try:
        yield sink
    finally:
        _sink.reset(token)
