"""Any path git accepts works: repositories under directories whose names
hold spaces, quotes, ``$``, bytes that are not UTF-8, control characters
and U+2028. The lock records the worktree escaped to one printable line
(core/text.py:escape_path), so the state reads back."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.helpers import VG, commit, init_repo, make_dirty, run_git
from vibegit.core.text import escape_path, unescape_path

NAMES = {
    "spaces": "my projects/the repo",
    "quotes": 'it\'s "quoted"',
    "dollar": "$HOME and $(echo x) `y`",
    "latin-1 bytes": os.fsdecode(b"caf\xe9 \xff"),
    "escape character": "esc\x1b[31mape",
    "line separator": "line\u2028sep",
    "tab and newline": "tab\there\nnewline",
    "backslash": "back\\slash\\u2028",
}


@pytest.mark.parametrize("kind", list(NAMES))
def test_a_repository_under_any_path(kind: str, tmp_path: Path, vg: VG) -> None:
    repo = init_repo(tmp_path / NAMES[kind] / "repo")
    make_dirty(repo)
    assert vg("install", cwd=repo).code == 0
    for args in (("start", "vibe-code", "--goal", "paths"), ("task", "add", "T-1", "one"), ("checkpoint",)):
        result = vg(*args, cwd=repo)
        assert result.code == 0, (args, result.err)
    shown = json.loads(vg("status", "--json", cwd=repo).out)["lock"]["worktree"]
    assert unescape_path(shown) == str(repo) and "\n" not in shown and "\x1b" not in shown
    result = commit(repo)
    assert result.code != 0 and "commit blocked" in result.err
    assert run_git(repo, "checkout", "-q", "-b", "feat").code == 0
    assert "vibe-code" in run_git(repo, "checkout", "main").err  # the report, from main's workflow
    for args in (("pause",), ("resume",), ("doctor",)):
        result = vg(*args, cwd=repo)
        assert result.code == 0, (args, result.out, result.err)
    assert vg("uninstall", cwd=repo).code == 0


@pytest.mark.parametrize("name", list(NAMES.values()))
def test_escape_path_round_trips(name: str) -> None:
    escaped = escape_path(f"/home/{name}")
    assert unescape_path(escaped) == f"/home/{name}"
    assert all(c >= " " and c not in "\x7f\x85\u2028\u2029" for c in escaped)
