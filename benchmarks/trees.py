"""Budgets of issue 16 for big working trees, each the whole command a user types:

- ``vibegit checkpoint`` in 5,000 files with 200 dirty ≤ 2 × ``git stash create`` there;
- ``vibegit status`` in 100,000 files with 1,000 dirty ≤ 1.25 × the same in a small repository;
- ``vibegit checkpoint`` and ``vibegit pause`` there: what the big tree adds
  (big − small, medians) ≤ 1.5 × ``git stash create`` in the big tree (the
  snapshot is the one step whose work grows with the tree).

The repositories are built once per run in a temporary directory (the big
one with ``git fast-import``); the variants of a row run interleaved, after
a warm-up, and each prints min / median / max and the machine's load; a
row whose verdict on the minimums differs from its verdict on the medians
is marked "inside the noise".

    python benchmarks/trees.py [--quick] [--python PATH]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import snapshot
from benchmarks.common import Row, hermetic_env, python_option, ratio_row, results, run_cmd, sh, timed, use
from benchmarks.events import big_repo, started

VIBEGIT = ["vibegit"]
Step = tuple[Callable[[], object] | None, Callable[[], object]]  # (untimed set-up, the timed command)


def interleaved(steps: dict[str, Step], runs: int) -> dict[str, list[float]]:
    """Times (ms) of each named command, run in turn ``runs`` times after a warm-up."""
    times: dict[str, list[float]] = {name: [] for name in steps}
    for n in range(runs + 1):
        for name, (setup, command) in steps.items():
            if setup is not None:
                setup()
            took = timed(command)
            if n:
                times[name].append(took)
    return times


def spread(name: str, times: list[float]) -> str:
    return f"{name}: min {min(times):.0f} / median {statistics.median(times):.0f} / max {max(times):.0f} ms"


def report(label: str, times: dict[str, list[float]]) -> None:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"  {label} (load {load}): " + "; ".join(spread(k, v) for k, v in times.items()), file=sys.stderr)


def median(times: list[float]) -> float:
    return statistics.median(times)


def within(limit: float, measured: list[float], baseline: list[float], minus: list[float] | None = None) -> str:
    """The row's name suffix: " (inside the noise)" when its verdict on the
    minimums differs from its verdict on the medians (``measured − minus ≤
    limit × baseline``)."""
    verdicts = {pick(measured) - (pick(minus) if minus else 0) <= limit * pick(baseline) for pick in (min, median)}
    return " (inside the noise)" if len(verdicts) > 1 else ""


def measure(quick: bool = False) -> list[Row]:
    runs = 5 if quick else 11
    files, dirty = (10_000, 100) if quick else (100_000, 1_000)
    tmp = Path(tempfile.mkdtemp(prefix="vibegit-bench-trees-"))
    try:
        env = hermetic_env(tmp)
        rows: list[Row] = []
        tasks = 10

        (tmp / "mid").mkdir()
        mid = snapshot.build(tmp / "mid", 1_000 if quick else 5_000, 50 if quick else 200)
        started(mid, env, tasks)
        mid_files = "1,000 files, 50 dirty" if quick else "5,000 files, 200 dirty"
        times = interleaved(
            {
                "checkpoint": (None, run_cmd(mid, env, *VIBEGIT, "checkpoint")),
                "git stash create": (None, run_cmd(mid, env, "git", "stash", "create")),
            },
            runs,
        )
        report(f"checkpoint, {mid_files}", times)
        rows.append(
            ratio_row(
                f"checkpoint ({mid_files})" + within(2, times["checkpoint"], times["git stash create"]),
                median(times["checkpoint"]),
                "git stash create",
                median(times["git stash create"]),
                2,
            )
        )
        shutil.rmtree(mid.parent, ignore_errors=True)

        small = big_repo(tmp / "small", env, 100, 10, tasks)
        big = big_repo(tmp / "big", env, files, dirty, tasks)
        for repo in (small, big):
            sh(repo, *VIBEGIT, "checkpoint", env=env)  # a snapshot for status to compare
        size = f"{files:,} files, {dirty:,} dirty"

        times = interleaved(
            {
                "big": (None, run_cmd(big, env, *VIBEGIT, "status")),
                "small": (None, run_cmd(small, env, *VIBEGIT, "status")),
            },
            runs,
        )
        report(f"status, {size}", times)
        name = f"status in {size}" + within(1.25, times["big"], times["small"])
        rows.append(ratio_row(name, median(times["big"]), "small repo", median(times["small"]), 1.25))

        stash = (None, run_cmd(big, env, "git", "stash", "create"))
        for verb in ("checkpoint", "pause"):
            setup = {
                repo: (run_cmd(repo, env, *VIBEGIT, "resume") if verb == "pause" else None) for repo in (big, small)
            }
            times = interleaved(
                {
                    "big": (setup[big], run_cmd(big, env, *VIBEGIT, verb)),
                    "small": (setup[small], run_cmd(small, env, *VIBEGIT, verb)),
                    "git stash create (big)": stash,
                },
                runs,
            )
            report(f"{verb}, {size}", times)
            added = median(times["big"]) - median(times["small"])
            base = median(times["git stash create (big)"])
            rows.append(
                Row(
                    f"{verb} in {size}: big − small ({median(times['big']):.0f} − {median(times['small']):.0f} ms)"
                    + within(1.5, times["big"], times["git stash create (big)"], times["small"]),
                    added,
                    "git stash create (big)",
                    base,
                    "≤ 1.5×",
                    added <= 1.5 * base,
                )
            )
        return rows
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    parser = python_option(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    parser.add_argument("--quick", action="store_true", help="10,000 files, fewer runs")
    args = parser.parse_args()
    use(args.python)
    measured = measure(args.quick)
    print(results(measured))
    raise SystemExit(0 if all(r.passed for r in measured) else 1)
