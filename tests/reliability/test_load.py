"""Load: four worktrees, each driving four workflows, 50 events each, all at
once, while two clones (teammates on their own machines) write their own
workflows and sync through a bare remote. Every event lands everywhere, no
workflow is replaced or dropped, the counters agree and fsck is clean."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import clone, fsck, git, init_repo, vg_proc

pytestmark = pytest.mark.slow  # 1,000 events from 6 processes

WORKER = """
import os, sys
from vibegit.main import main

os.chdir(sys.argv[1])
names, count, sync_every = sys.argv[2].split(","), int(sys.argv[3]), int(sys.argv[4])
failures = 0
for i in range(count):
    for name in names:
        failures += main(["task", "add", f"{name}-{i:03d}", f"task {i} of {name}", "--workflow", name]) != 0
    if sync_every and i % sync_every == sync_every - 1:
        failures += all(main(["sync"]) != 0 for _ in range(5))  # the remote may keep moving: try again
sys.exit(failures)
"""

WORKTREES, WORKFLOWS, EVENTS, CLONES = 4, 4, 50, 2


def env(host: str) -> dict[str, str]:
    return {**os.environ, "VIBEGIT_HOST": host, "COVERAGE_PROCESS_CONFIG": ""}  # the same code as elsewhere


def test_worktrees_and_clones_lose_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COVERAGE_PROCESS_CONFIG", raising=False)
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    repo = init_repo(tmp_path / "repo")
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "push", "-q", "-u", "origin", "main")
    trees = [repo] + [tmp_path / f"wt{i}" for i in range(1, WORKTREES)]
    for i, tree in enumerate(trees[1:], 1):
        git(repo, "worktree", "add", "-q", str(tree), "-b", f"wt{i}")
    names: list[list[str]] = []
    for i, tree in enumerate(trees):  # four workflows a worktree, each bound to a branch of its own
        names.append([f"w{i}{j}" for j in range(WORKFLOWS)])
        for name in names[-1]:
            git(tree, "switch", "-q", "-c", f"b-{name}")
            assert vg_proc("start", name, "--goal", "under load", cwd=tree, env=env("main")).code == 0
    assert vg_proc("sync", cwd=repo, env=env("main")).code == 0
    clones = [clone(remote, tmp_path / f"clone{k}") for k in range(CLONES)]
    for k, there in enumerate(clones):
        assert vg_proc("start", f"c{k}", "--goal", "a teammate", cwd=there, env=env(f"clone{k}")).code == 0

    writers = [(tree, group, 0, "main") for tree, group in zip(trees, names, strict=True)]
    writers += [(there, [f"c{k}"], 10, f"clone{k}") for k, there in enumerate(clones)]
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(where), ",".join(group), str(EVENTS), str(every)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env(host),
        )
        for where, group, every, host in writers
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err[-2000:]
        assert "Traceback" not in err

    sites = [(repo, "main"), *((there, f"clone{k}") for k, there in enumerate(clones))]
    for _ in range(2):  # everyone syncs twice: all meet on one tip
        for where, host in sites:
            result = vg_proc("sync", cwd=where, env=env(host))
            assert result.code == 0, result.err
    tips = {git(where, "rev-parse", "vibegit/state") for where, _ in sites}
    assert len(tips) == 1
    expected = {name: EVENTS for group in names for name in group} | {f"c{k}": EVENTS for k in range(CLONES)}
    for where, host in sites:
        listed = json.loads(vg_proc("list", "--json", cwd=where, env=env(host)).out)
        assert {w["name"]: w["total"] for w in listed} == expected
        added = git(where, "log", "--format=%(trailers:key=Vibegit-Task,valueonly)", "vibegit/state").split()
        assert len(added) == len(set(added)) == sum(expected.values())  # every event, once
        assert fsck(where) == ""
