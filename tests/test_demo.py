"""The quick start's first command: ``vibegit demo`` plays the whole story."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from tests.helpers import vg_proc
from vibegit.commands import demo


@pytest.mark.slow  # plays the whole story in subprocesses
def test_the_demo_runs_the_whole_story(tmp_path: Path) -> None:
    result = vg_proc("demo", cwd=tmp_path)
    assert result.code == 0, result.out[-3000:] + result.err
    out = result.out
    for expected in (
        "commit blocked",  # the lock stops a commit
        "## 🔄 Session recovery",  # the report after the lost session
        "Restored the checkpoint's uncommitted work",  # the clone gets the files
        "held by desktop",  # and the lock
        "taken over on desktop",  # the laptop is told
        "*  vibe-docs",  # a second workflow in a linked worktree, listed beside the first
        "vibe-code  running  on main",
    ):
        assert expected in out, expected
    assert "Traceback" not in out + result.err
    assert "\x1b[" not in out  # piped: no colour codes


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("tty", "no_color", "coloured"), [(True, None, True), (True, "1", False), (False, None, False)]
)
def test_the_demo_colours_only_a_terminal_without_no_color(
    tty: bool, no_color: str | None, coloured: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = _Terminal() if tty else io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    if no_color is not None:
        monkeypatch.setenv("NO_COLOR", no_color)
    demo.Player(tmp_path).title("A project")
    assert ("\x1b[" in out.getvalue()) is coloured and "A project" in out.getvalue()
