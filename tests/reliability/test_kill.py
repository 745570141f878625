"""Faults: a writer killed with SIGKILL at random moments, 200 times. After
each kill the state parses, git fsck is clean and the store lock is free."""

from __future__ import annotations

import concurrent.futures
import json
import multiprocessing
import os
import random
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

from tests.helpers import MIRROR, fsck, git, init_repo, vg_here, vg_proc
from vibegit.core.settings import settings
from vibegit.infra import git as vgit
from vibegit.infra.formats import STATE_FILES
from vibegit.infra.store import flow, lock_path, read_state

pytestmark = pytest.mark.slow  # 200 SIGKILLs

KILLS = 200
LANES = 2  # repositories killed in turn at once, so one's sleep is the other's work


def writer(repo: str, name: str, ready: Any) -> None:
    """Record events as fast as it can until it is killed (runs in a forked child)."""
    from vibegit.main import main

    os.setsid()  # killed with the git processes it started, as a closed terminal kills a session
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.chdir(repo)
    ready.set()
    i = 0
    while True:
        main(["task", "add", f"K{name}-{i}", "killed writer"])
        i += 1


def forkserver() -> Any:
    """Writers fork from a server that has vibegit imported already, so each
    kill lands in the middle of events rather than in interpreter start-up;
    coverage stays off there (a killed process saves nothing anyway)."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["vibegit.cli", "vibegit.commands.task", __name__])
    return ctx


def test_sigkill_while_writing_never_corrupts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COVERAGE_PROCESS_CONFIG", raising=False)
    repos = [init_repo(tmp_path / f"repo{lane}") for lane in range(LANES)]
    for repo in repos:
        assert vg_here("start", "kill", "--goal", "survive SIGKILL", cwd=repo).code == 0
    ctx, in_process = forkserver(), threading.Lock()
    with concurrent.futures.ThreadPoolExecutor(LANES) as pool:
        lanes = [pool.submit(kill_lane, ctx, in_process, repo, lane) for lane, repo in enumerate(repos)]
        assert sum(lane.result() for lane in lanes) == KILLS
    for repo in repos:
        assert fsck(repo, "--no-dangling") == ""
        result = vg_proc("task", "add", "AFTER", "the next command works", cwd=repo)
        assert result.code == 0, result.err
        assert "conflict" not in result.err and "edit" not in result.err  # a cut-short mirror write is no hand edit
        mirror = sorted(p.name for p in (repo / MIRROR).iterdir())
        running = set(STATE_FILES) - {"completion.md", "conventions.md", "decisions.md"}  # no report, no docs here
        assert mirror == sorted(running) or mirror == sorted(running - {"memory.yaml"}), mirror
        assert json.loads(vg_proc("status", "--json", cwd=repo).out)["tasks"][-1]["id"] == "AFTER"


def kill_lane(ctx: Any, in_process: threading.Lock, repo: Path, lane: int) -> int:
    """KILLS / LANES writers killed at random moments in ``repo``; after each the
    state parses, the counters match, no lock is left, and every 20th time fsck is clean."""
    found = vgit.find_repo(repo)
    config = settings(vgit.read_config(found))
    rng = random.Random(2025 + lane)
    rounds = range(lane, KILLS, LANES)
    for round_ in rounds:
        ready = ctx.Event()
        proc = ctx.Process(target=writer, args=(str(repo), str(round_), ready), daemon=True)
        proc.start()
        assert ready.wait(30)
        time.sleep(rng.uniform(0, 0.08))
        assert proc.pid is not None
        os.killpg(proc.pid, signal.SIGKILL)
        proc.join()
        # No stale lock: the kernel releases the dead writer's lock (at once, or as its
        # killed git children finish dying).
        with FileLock(lock_path(found), timeout=5):
            pass
        ref_lock = vgit.ref_lock(found, config.state_ref)
        if os.path.exists(ref_lock):  # the kill landed inside git update-ref: refused in one line, repaired
            with in_process:  # vibegit in process changes the working directory
                refused = vg_here("task", "add", f"R{round_}", "refused", cwd=repo)
                assert refused.code == 1 and str(ref_lock) in refused.err and len(refused.err.splitlines()) == 1
                past = time.time() - 60
                os.utime(ref_lock, (past, past))
                assert vg_here("doctor", "--repair", cwd=repo).code == 0 and not os.path.exists(ref_lock)
        loaded = read_state(found, config)  # parses, or raises
        state = flow(found, vgit.reader(found), loaded, loaded.index[0].id).state
        assert state.lock is not None and state.lock.locked
        assert state.total_tasks == int(git(repo, "rev-list", "--count", "vibegit/state")) - 1
        if round_ % 20 == lane:
            assert fsck(repo, "--no-dangling") == ""
    return len(rounds)
