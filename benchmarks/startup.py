"""The start-up budgets of issue 16, each the whole command a user types,
against ``python -c pass`` of the same interpreter (the install under test:
a fresh venv with the checkout installed by pip, not editable, bytecode
compiled by pip; see common.py), all run interleaved in one loop after a
warm-up:

- one event (``task add``, ``phase``, ``context``) ≤ 3 ×;
- ``status``, ``status --json``, ``list`` ≤ 2.5 ×;
- a ``git commit`` blocked by the lock check, its message shown ≤ 2.5 ×
  (git, the reference-transaction shim and ``vibegit hook`` in Python).

Each row is judged on medians; min / median / max and the load go to
stderr, and a row whose verdict on the minimums differs is marked "inside
the noise".

    python benchmarks/startup.py [--quick] [--python PATH]
"""

from __future__ import annotations

import itertools
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import Row, hermetic_env, hooks_installed, ratio_row, run_alone, run_cmd
from benchmarks.events import base_repo, started
from benchmarks.trees import interleaved, report, within

VIBEGIT = ("vibegit",)
EVENT, READ, BLOCKED = 3.0, 2.5, 2.5


def measure(quick: bool = False) -> list[Row]:
    runs = 7 if quick else 21
    tmp = Path(tempfile.mkdtemp(prefix="vibegit-bench-startup-"))
    try:
        env = hermetic_env(tmp)
        repo = base_repo(tmp / "repo", env)
        started(repo, env, 3)
        hooks_installed(repo, env, "--hook", "reference-transaction")
        ids = itertools.count()
        phases = itertools.cycle(("I", "P", "E", "R2", "R1"))

        def vg(*args: str, ok: tuple[int, ...] = (0,)):
            return run_cmd(repo, env, *VIBEGIT, *args, ok=ok)

        steps = {
            "python -c pass": (None, run_cmd(tmp, env, "python", "-c", "pass")),
            "task add": (None, lambda: vg("task", "add", f"B-{next(ids):05d}", "a task")()),
            "phase": (None, lambda: vg("phase", next(phases))()),
            "context": (None, lambda: vg("context", "--last", f"step {next(ids)}")()),
            "status": (None, vg("status")),
            "status --json": (None, vg("status", "--json")),
            "list": (None, vg("list")),
            "blocked commit": (None, run_cmd(repo, env, "git", "commit", "-q", "--allow-empty", "-m", "x", ok=(128,))),
        }
        times = interleaved(steps, runs)
        report("start-up", times)
        base = times.pop("python -c pass")
        rows = []
        for name, measured in times.items():
            limit = EVENT if name in ("task add", "phase", "context") else BLOCKED if name == "blocked commit" else READ
            label = f"start-up: {name}" + within(limit, measured, base)
            rows.append(ratio_row(label, statistics.median(measured), "python -c pass", statistics.median(base), limit))
        return rows
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    return run_alone(measure, __doc__ or "", "fewer runs")


if __name__ == "__main__":
    raise SystemExit(main())
