"""Faults: a writer killed with SIGKILL at random moments, 200 times. After
each kill the state parses, git fsck is clean and the store lock is free."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from filelock import FileLock

from tests.helpers import git, init_repo, vg_proc
from vibegit.core.settings import settings
from vibegit.infra import git as vgit
from vibegit.infra.store import lock_path, read_state

pytestmark = pytest.mark.slow  # 200 SIGKILLs

KILLS = 200

WRITER = """
import os, sys
from vibegit.main import main

os.chdir(sys.argv[1])
sys.stdout.write("ready\\n"); sys.stdout.flush()
i = 0
while True:
    main(["task", "add", f"K{sys.argv[2]}-{i}", "killed writer"])
    i += 1
"""


def test_sigkill_while_writing_never_corrupts(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    assert vg_proc("start", "kill", "--goal", "survive SIGKILL", cwd=repo).code == 0
    found = vgit.find_repo(repo)
    config = settings(vgit.read_config(found))
    rng = random.Random(2025)
    for round_ in range(KILLS):
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(repo), str(round_)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
        time.sleep(rng.uniform(0, 0.08))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        # No stale lock: the kernel released the dead writer's lock.
        with FileLock(lock_path(found), timeout=0):
            pass
        loaded = read_state(found, config)  # parses, or raises
        assert loaded.state.lock is not None and loaded.state.lock.locked
        assert loaded.state.total_tasks == int(git(repo, "rev-list", "--count", "vibegit/state")) - 1
        if round_ % 20 == 0:
            assert git(repo, "fsck", "--no-progress", "--no-dangling") == ""
    assert git(repo, "fsck", "--no-progress", "--no-dangling") == ""
    result = vg_proc("task", "add", "AFTER", "the next command works", cwd=repo)
    assert result.code == 0, result.err
    assert json.loads(vg_proc("status", "--json", cwd=repo).out)["tasks"][-1]["id"] == "AFTER"
