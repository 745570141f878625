"""Budgets of issue 23 for sync across machines and people: what a sync
costs against the number of workflows, and syncs under contention.

- a divergent ``vibegit sync`` with 20 workflows (each with a snapshot of
  uncommitted work; one event on each side), against a plain ``git fetch``
  + ``git push`` of the same commits to the same remote: at most 3 ×;
- the same sync with 100 workflows against the same with 1: at most 1.5 ×
  (and the git processes each starts, which must be the same);
- 10 clones syncing at once through one bare remote (each one event on its
  own workflow), against the same 10 syncs one after another: every sync
  succeeds, at most one merge commit per sync, and the wall time until
  the last one is done at most 2.5 × (the lost tries and the waits
  between them included; two cores).

Each run starts from fresh copies of the clones and the remote; the sides
alternate after a warm-up each; rows print min / median / max and the load.

    python benchmarks/sync.py [--quick] [--python PATH]
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import Row, base_repo, hermetic_env, run_alone, sh
from benchmarks.scale import STATE, alternate, load, timed_row, wall

VIBEGIT = ["vibegit"]
FETCH_PUSH_RATIO = 3.0
WORKFLOWS_RATIO = 1.5
CONTENTION_RATIO = 2.5  # the lost tries (each clone merges again after each push that came first) and the waits
CLONES = 10


def workflows_repo(root: Path, env: dict[str, str], workflows: int) -> Path:
    """A remote and a desktop one event apart each way, ``workflows``
    workflows on the state branch, each with a checkpoint holding a
    snapshot (the laptop holds them all; the desktop's event is its own
    memory entry); returns ``root``, with ``origin.git`` and ``desktop``."""
    root.mkdir(parents=True)
    sh(root, "git", "init", "-q", "--bare", "origin.git", env=env)
    laptop = base_repo(root / "laptop", env, "README.md", "# bench\n", "free")
    sh(laptop, "git", "remote", "add", "origin", str(root / "origin.git"), env=env)
    sh(laptop, "git", "push", "-q", "-u", "origin", "main", env=env)
    code = (
        "import pathlib, subprocess\nfrom vibegit.main import main\n"
        f"for i in range({workflows}):\n"
        "    subprocess.run(['git', 'switch', '-q', '-c', f'f-{i:03d}'], check=True)\n"
        "    assert main(['start', f'w-{i:03d}', '--goal', f'feature {i}']) == 0\n"
        "    assert main(['task', 'add', 'T-001', f'part of feature {i}']) == 0\n"
        "    pathlib.Path('wip.txt').write_text(f'work in progress on {i}\\n')\n"
        "    assert main(['checkpoint']) == 0\n"
        "subprocess.run(['git', 'switch', '-q', 'main'], check=True)\n"
        "assert main(['sync']) == 0\n"
    )
    subprocess.run(["python", "-c", code], cwd=laptop, env=env, check=True, stdout=subprocess.DEVNULL)
    desktop = root / "desktop"
    sh(root, "git", "clone", "-q", str(root / "origin.git"), str(desktop), env=env)
    sh(desktop, *VIBEGIT, "sync", env=env)  # takes the state and scans it
    sh(laptop, *VIBEGIT, "task", "add", "T-002", "one more here", "--workflow", "w-000", env=env)
    sh(laptop, *VIBEGIT, "sync", env=env)
    sh(desktop, *VIBEGIT, "memory", "add", "project_knowledge", "learnt on the desktop", env=env)
    return root


def fresh(source: Path, run: Path, env: dict[str, str]) -> Path:
    """A copy of ``source`` (its remote and desktop) at ``run``; the desktop pointed at the copy's remote."""
    shutil.rmtree(run, ignore_errors=True)
    shutil.copytree(source, run, symlinks=True)
    sh(run / "desktop", "git", "remote", "set-url", "origin", str(run / "origin.git"), env=env)
    return run / "desktop"


def plain(desktop: Path, env: dict[str, str]) -> float:
    """What sync does, in plain git: fetch the remote's state, push this side's (to a new name)."""
    fetched = wall(desktop, env, "git", "fetch", "-q", "origin", f"+{STATE}:refs/remotes/origin/state")
    return fetched + wall(desktop, env, "git", "push", "-q", "--no-verify", "origin", f"{STATE}:refs/heads/b-state")


def git_processes(desktop: Path, env: dict[str, str], trace: Path) -> int:
    """How many git processes one ``vibegit sync`` starts itself (GIT_TRACE2_EVENT; git's own children left out)."""
    trace.unlink(missing_ok=True)
    sh(desktop, *VIBEGIT, "sync", env={**env, "GIT_TRACE2_EVENT": str(trace)})
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    return sum(1 for e in events if e["event"] == "start" and "/" not in e["sid"])


def cost_rows(root: Path, env: dict[str, str], quick: bool, runs: int) -> list[Row]:
    many = 30 if quick else 100
    sources = {n: workflows_repo(root / f"w{n}", env, n) for n in (1, 20, many)}
    desktop = {n: root / f"run{n}" for n in sources}

    def sync_of(n: int) -> float:
        return wall(desktop[n] / "desktop", env, *VIBEGIT, "sync")

    def reset(n: int) -> None:
        fresh(sources[n], desktop[n], env)

    before = load()
    ours, theirs = alternate(
        (lambda: reset(20), lambda: sync_of(20)), (lambda: reset(20), lambda: plain(desktop[20] / "desktop", env)), runs
    )
    rows = [
        timed_row(
            "divergent sync with 20 workflows (each a snapshot; one event a side)",
            ours,
            "git fetch + git push",
            theirs,
            FETCH_PUSH_RATIO,
            before,
        )
    ]
    before = load()
    big, small = alternate((lambda: reset(many), lambda: sync_of(many)), (lambda: reset(1), lambda: sync_of(1)), runs)
    rows.append(
        timed_row(f"divergent sync with {many} workflows", big, "the same with 1", small, WORKFLOWS_RATIO, before)
    )
    counts = {}
    for n in (1, many):
        counts[n] = git_processes(fresh(sources[n], desktop[n], env), env, root / f"trace{n}")
    rows.append(
        Row(
            f"git processes a divergent sync starts: {many} workflows",
            counts[many],
            "1 workflow",
            counts[1],
            "= the same",
            counts[many] == counts[1],
            unit="count",
        )
    )
    return rows


def clones_repo(root: Path, env: dict[str, str], clones: int) -> Path:
    """A remote and ``clones`` clones, each with a workflow of its own
    (started, synced), then one event on it not synced yet."""
    root.mkdir(parents=True)
    sh(root, "git", "init", "-q", "--bare", "origin.git", env=env)
    first = base_repo(root / "c0", env, "README.md", "# bench\n", "free")
    sh(first, "git", "remote", "add", "origin", str(root / "origin.git"), env=env)
    sh(first, "git", "push", "-q", "-u", "origin", "main", env=env)
    for i in range(clones):
        where = root / f"c{i}"
        if i:
            sh(root, "git", "clone", "-q", str(root / "origin.git"), str(where), env=env)
        host = {**env, "VIBEGIT_HOST": f"c{i}", "GIT_COMMITTER_NAME": f"c{i}"}
        sh(where, "git", "switch", "-q", "-c", f"b{i}", env=host)
        sh(where, *VIBEGIT, "start", f"w{i}", "--goal", f"clone {i}'s work", env=host)
        sh(where, *VIBEGIT, "sync", env=host)
    for i in range(clones):
        host = {**env, "VIBEGIT_HOST": f"c{i}", "GIT_COMMITTER_NAME": f"c{i}"}
        sh(root / f"c{i}", *VIBEGIT, "task", "add", "T-001", f"clone {i}'s event", env=host)
    return root


def contention_rows(root: Path, env: dict[str, str], quick: bool, runs: int) -> list[Row]:
    clones = 5 if quick else CLONES
    source = clones_repo(root / "clones", env, clones)
    run = root / "clones-run"
    outcomes: list[tuple[int, int, int]] = []  # (syncs that succeeded, merges made, tries that lost)

    def reset() -> None:
        shutil.rmtree(run, ignore_errors=True)
        shutil.copytree(source, run, symlinks=True)
        for i in range(clones):
            sh(run / f"c{i}", "git", "remote", "set-url", "origin", str(run / "origin.git"), env=env)

    def merges() -> int:
        return int(sh(run / "origin.git", "git", "rev-list", "--count", "--merges", STATE, env=env))

    def at_once() -> float:
        before = merges()
        start = time.perf_counter()
        procs = [
            subprocess.Popen(
                [*VIBEGIT, "sync"],
                cwd=run / f"c{i}",
                env={**env, "VIBEGIT_HOST": f"c{i}", "GIT_COMMITTER_NAME": f"c{i}"},
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for i in range(clones)
        ]
        said = [proc.communicate() for proc in procs]
        elapsed = (time.perf_counter() - start) * 1000
        lost = sum(out.count("moved on while syncing") for out, _ in said)
        outcomes.append((sum(proc.returncode == 0 for proc in procs), merges() - before, lost))
        return elapsed

    def one_by_one() -> float:
        return sum(
            wall(run / f"c{i}", {**env, "VIBEGIT_HOST": f"c{i}", "GIT_COMMITTER_NAME": f"c{i}"}, *VIBEGIT, "sync")
            for i in range(clones)
        )

    before = load()
    ours, theirs = alternate((reset, at_once), (reset, one_by_one), runs)
    outcomes = outcomes[1:]  # the warm-up's left out
    worst = min(ok for ok, _, _ in outcomes)
    most = max(made for _, made, _ in outcomes)
    lost = statistics.median(n for _, _, n in outcomes)
    return [
        Row(
            f"{clones} clones syncing at once: syncs that succeeded (worst of {len(outcomes)} runs)",
            worst,
            "-",
            0,
            f"= {clones}",
            worst == clones,
            unit="count",
        ),
        Row(
            f"{clones} clones syncing at once: merge commits made (most of {len(outcomes)} runs)",
            most,
            "-",
            0,
            f"≤ {clones}",
            most <= clones,
            unit="count",
        ),
        timed_row(
            f"{clones} clones syncing at once, until the last is done (median {lost:g} lost races a run)",
            ours,
            f"the {clones} syncs one after another",
            theirs,
            CONTENTION_RATIO,
            before,
        ),
    ]


def measure(quick: bool = False) -> list[Row]:
    runs = 3 if quick else 7
    tmp = Path(tempfile.mkdtemp(prefix="vibegit-bench-sync-"))
    try:
        env = hermetic_env(tmp)
        return [*cost_rows(tmp / "cost", env, quick, runs), *contention_rows(tmp / "contention", env, quick, runs)]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    return run_alone(measure, __doc__ or "", "30 workflows instead of 100, 5 clones, 3 runs")


if __name__ == "__main__":
    raise SystemExit(main())
