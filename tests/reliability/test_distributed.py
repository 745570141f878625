"""Distributed: N clones (each its own holder, VIBEGIT_HOST) × M workflows
each, through one bare remote. In every round each clone records events on
its workflows, then all of them sync at the same moment (a file barrier).
No sync fails because others synced then; each call adds at most one merge
commit; once everyone has synced again, every clone and the remote hold one
tip with every event exactly once, every workflow held by the clone that
started it, and git fsck is clean everywhere.

The long variant (``slow``) has more clones, workflows and rounds, and
events recorded in each clone while its sync runs (never lost either)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import clone, fsck, git, init_repo, vg_proc

SETUP = """
import subprocess, sys
from vibegit.main import main
names = sys.argv[1].split(",")
for name in names:  # each workflow bound to a branch of its own
    subprocess.run(["git", "switch", "-q", "-c", f"b-{name}"], check=True)
    assert main(["start", name, "--goal", f"{name} across machines"]) == 0
subprocess.run(["git", "switch", "-q", "main"], check=True)
sys.exit(main(["sync"]))
"""

# One clone's round: its events, then (at the barrier) its sync; with
# ``during``, more events recorded while the sync runs (another process).
ROUND = """
import os, pathlib, sys, time
from vibegit.main import main
names, tag, events, ready, go = sys.argv[1].split(","), sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
failures = 0
for name in names:
    for k in range(events):
        failures += main(["task", "add", f"{name}-{tag}-{k}", f"event {k} of {name} in {tag}", "--workflow", name]) != 0
pathlib.Path(ready).touch()
deadline = time.monotonic() + 120
while not os.path.exists(go) and time.monotonic() < deadline:
    time.sleep(0.002)
sys.exit(100 + failures if failures else main(["sync"]))
"""

DURING = """
import os, sys
from vibegit.main import main
names, tag, events = sys.argv[1].split(","), sys.argv[2], int(sys.argv[3])
sys.exit(sum(
    main(["task", "add", f"{name}-{tag}-{k}", f"event {k} during a sync", "--workflow", name]) != 0
    for k in range(events) for name in names
))
"""


# How long a sync keeps trying (vibegit.syncTimeout): the default, 30 s, is ample where each clone
# has a core; here up to a dozen share a CI runner's two with the other tests, and each try takes longer.
PATIENCE = "300"


def env(i: int) -> dict[str, str]:
    """Clone ``i``'s machine: its host name, and its name on the commits it makes (merges counted per clone)."""
    name = f"clone{i}"
    return {
        **os.environ,
        "VIBEGIT_HOST": name,
        "GIT_COMMITTER_NAME": name,
        "GIT_AUTHOR_NAME": name,
        "COVERAGE_PROCESS_CONFIG": "",
    }


def start(code: str, where: Path, i: int, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=where,
        env=env(i),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finished(proc: subprocess.Popen[str], what: str) -> str:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0 and "Traceback" not in err, (what, proc.returncode, out[-1500:], err[-1500:])
    return out


def state_tip(where: Path) -> str:
    return git(where, "rev-parse", "vibegit/state")


def run_distributed(tmp: Path, clones: int, workflows: int, rounds: int, events: int, during: int) -> None:
    remote = tmp / "remote.git"
    git(tmp, "init", "-q", "--bare", "-b", "main", str(remote))
    first = init_repo(tmp / "clone0")
    git(first, "remote", "add", "origin", str(remote))
    git(first, "config", "vibegit.syncTimeout", PATIENCE)
    git(first, "push", "-q", "-u", "origin", "main")
    names = {i: [f"w{i}x{j}" for j in range(workflows)] for i in range(clones)}
    finished(start(SETUP, first, 0, ",".join(names[0])), "set-up of clone0")
    places = [first] + [
        clone(remote, tmp / f"clone{i}", "-c", f"vibegit.syncTimeout={PATIENCE}") for i in range(1, clones)
    ]
    setups = [start(SETUP, places[i], i, ",".join(names[i])) for i in range(1, clones)]  # and all sync at once
    for i, proc in enumerate(setups, 1):  # each started its workflows on the state it took from the remote
        finished(proc, f"set-up of clone{i}")
    syncs = dict.fromkeys(range(clones), 1)
    added = {name for group in names.values() for name in group}  # (the start events' names are not tasks)
    tasks: set[str] = set()
    for r in range(rounds):
        barrier = tmp / f"round{r}"
        barrier.mkdir()
        procs = [
            start(
                ROUND,
                places[i],
                i,
                ",".join(names[i]),
                f"r{r}",
                str(events),
                str(barrier / f"{i}"),
                str(barrier / "go"),
            )
            for i in range(clones)
        ]
        deadline = time.monotonic() + 120
        while len(list(barrier.iterdir())) < clones and time.monotonic() < deadline:
            time.sleep(0.01)
        meanwhile = [
            start(DURING, places[i], i, ",".join(names[i]), f"d{r}", str(during)) for i in range(clones) if during
        ]
        (barrier / "go").touch()  # all sync at once
        for i, proc in enumerate(procs):
            finished(proc, f"round {r} of clone{i}")  # never refused because others synced then
            syncs[i] += 1
        for i, proc in enumerate(meanwhile):
            finished(proc, f"events during round {r} in clone{i}")
        tasks |= {f"{name}-r{r}-{k}" for group in names.values() for name in group for k in range(events)}
        tasks |= {f"{name}-d{r}-{k}" for group in names.values() for name in group for k in range(during)}
    for _ in range(3):  # those behind the remote sync again, one after another: all meet on one tip
        behind = [i for i, where in enumerate(places) if state_tip(where) != state_tip(remote)]
        for i in behind:
            result = vg_proc("sync", cwd=places[i], env=env(i))
            assert result.code == 0, (i, result.out, result.err)
            syncs[i] += 1

    assert {state_tip(where) for where in places} == {state_tip(remote)}
    log = git(first, "log", "--format=%(trailers:key=Vibegit-Task,valueonly)", "vibegit/state").split()
    assert sorted(log) == sorted(tasks), set(log) ^ tasks  # every event, exactly once
    for i in range(clones):  # at most one merge per sync call, but one an event recorded meanwhile keeps beneath it
        merges = git(first, "rev-list", "--merges", f"--committer=^clone{i} ", "vibegit/state").split()
        assert len(merges) <= syncs[i] + rounds * during * workflows, (i, len(merges), syncs[i])
    listed = json.loads(vg_proc("list", "--json", cwd=first, env=env(0)).out)  # (one tip: the same everywhere)
    assert {w["name"] for w in listed} == added
    for w in listed:
        owner = int(w["name"][1 : w["name"].index("x")])
        assert w["host"] == f"clone{owner}", w  # each workflow's own holder
        assert w["total"] == events * rounds + during * rounds
    for where in (*places, remote):
        assert fsck(where, "--no-dangling") == ""


def test_ten_clones_syncing_at_once_all_succeed_and_lose_nothing(tmp_path: Path) -> None:
    """Nine clones start their workflows and sync at once, then all ten record and sync at once."""
    run_distributed(tmp_path, clones=10, workflows=1, rounds=1, events=2, during=0)


@pytest.mark.slow
def test_many_clones_many_rounds_with_events_during_the_syncs(tmp_path: Path) -> None:
    run_distributed(tmp_path, clones=12, workflows=4, rounds=4, events=3, during=2)
