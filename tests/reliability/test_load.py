"""Load: eight processes issuing 50 events each at once, from the main
working tree and two linked worktrees. Every event lands, counters agree."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import git, init_repo, vg_proc

pytestmark = pytest.mark.slow  # 8 processes x 50 events

WORKER = """
import sys, os
from vibegit.main import main

os.chdir(sys.argv[1])
name, count = sys.argv[2], int(sys.argv[3])
failures = 0
for i in range(count):
    code = main(["task", "add", f"{name}-{i:03d}", f"task {i} of {name}"])
    failures += code != 0
sys.exit(failures)
"""

PROCESSES, EVENTS = 8, 50


def test_eight_writers_lose_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COVERAGE_PROCESS_CONFIG", raising=False)  # the same code as elsewhere, 400 times
    repo = init_repo(tmp_path / "repo")
    trees = [repo, tmp_path / "wt1", tmp_path / "wt2"]
    git(repo, "worktree", "add", "-q", str(trees[1]), "-b", "one")
    git(repo, "worktree", "add", "-q", str(trees[2]), "-b", "two")
    assert vg_proc("start", "load", "--goal", "many writers", cwd=repo).code == 0
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(trees[i % 3]), f"P{i}", str(EVENTS)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(PROCESSES)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=400)
        assert proc.returncode == 0, err[-2000:]
        assert "Traceback" not in err
    assert int(git(repo, "rev-list", "--count", "vibegit/state")) == 1 + PROCESSES * EVENTS
    data = json.loads(vg_proc("status", "--json", cwd=repo).out)
    ids = {t["id"] for t in data["tasks"]}
    assert ids == {f"P{p}-{i:03d}" for p in range(PROCESSES) for i in range(EVENTS)}
    assert data["workflow"]["total_tasks"] == PROCESSES * EVENTS
    events = git(repo, "log", "--format=%(trailers:key=Vibegit-Task,valueonly)", "vibegit/state").split()
    assert len(events) == len(set(events)) == PROCESSES * EVENTS
    assert git(repo, "fsck", "--no-progress") == ""
