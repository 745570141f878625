"""The quick start's first command: ``vibegit demo`` plays the whole story."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import vg_proc

pytestmark = pytest.mark.slow  # plays the whole story in subprocesses


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
