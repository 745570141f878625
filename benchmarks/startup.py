"""The start-up budgets, each the whole command a user types,
against ``python -c pass`` of the same interpreter (the install under test:
a fresh venv with the checkout installed by pip, not editable, bytecode
compiled by pip; see common.py), all run interleaved in one loop after a
warm-up:

- one event (``task add``, ``phase``, ``context``) ≤ 4 ×;
- ``status``, ``status --json``, ``list`` ≤ 3.5 ×;
- a ``git commit`` blocked by the lock check, its message shown ≤ 4.5 ×
  (git, the reference-transaction shim and ``vibegit hook`` in Python).

Three floors are timed in the same loop and printed, not judged: the
``vibegit`` script as installed (bin/vibegit), without its vibegit lines,
alone and followed by the git processes a read and an event start,
importing nothing else.

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

from benchmarks.common import (
    BLOCKED,
    CLI_EVENT,
    CLI_READ,
    Row,
    hermetic_env,
    hooks_installed,
    ratio_row,
    run_alone,
    run_cmd,
)
from benchmarks.events import base_repo, started
from benchmarks.trees import interleaved, report, within

VIBEGIT = ("vibegit",)

# The floors under these budgets, timed with them (printed, not judged): the
# git processes a read starts (rev-parse, config, cat-file --batch), then an
# event's (and one update-ref), after the vibegit script's own lines, importing nothing.
FLOOR = r"""
import os, sys
def git(*args, data=b""):
    r, w = os.pipe()
    ri, wi = os.pipe()
    actions = [(os.POSIX_SPAWN_DUP2, ri, 0), (os.POSIX_SPAWN_DUP2, w, 1)]
    pid = os.posix_spawnp("git", ["git", *args], os.environ, file_actions=actions)
    os.close(ri); os.close(w); os.write(wi, data); os.close(wi)
    out = b""
    while chunk := os.read(r, 1 << 16):
        out += chunk
    os.close(r); os.waitpid(pid, 0)
    return out
git("rev-parse", "--show-object-format", "--absolute-git-dir", "--git-common-dir", "--git-path", "objects", "--show-toplevel")
git("config", "-z", "--get-regexp", "^(vibegit|user)[.]")
git("cat-file", "--batch", data=b"refs/heads/vibegit/state\nrefs/heads/vibegit/state^{tree}\n")
if sys.argv[1:] == ["event"]:
    git("update-ref", "refs/vibegit-bench/floor", "refs/heads/vibegit/state")
"""


def floor_scripts(env: dict[str, str], tmp: Path) -> tuple[Path, Path]:
    """The ``vibegit`` script as installed, without its vibegit lines (what
    every ``vibegit …`` runs before vibegit's first line), alone and
    followed by ``FLOOR``."""
    found = shutil.which("vibegit", path=env.get("PATH"))
    lines = Path(found or "vibegit").read_text().splitlines()
    kept = "\n".join(line.replace("sys.exit(main())", "pass") for line in lines if "vibegit" not in line)
    alone, git = tmp / "console-script-alone.py", tmp / "console-script-and-git.py"
    alone.write_text(kept + "\n")
    git.write_text(kept + "\n" + FLOOR)
    return alone, git


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

        alone, floor = floor_scripts(env, tmp)
        steps = {
            "python -c pass": (None, run_cmd(tmp, env, "python", "-c", "pass")),
            "floor: the vibegit script": (None, run_cmd(tmp, env, "python", str(alone))),
            "floor: it and a read's git processes": (None, run_cmd(repo, env, "python", str(floor))),
            "floor: it and an event's git processes": (None, run_cmd(repo, env, "python", str(floor), "event")),
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
        floors = {name: times.pop(name) for name in list(times) if name.startswith("floor: ")}
        print(
            "  floors (median ÷ python -c pass, importing nothing of vibegit's): "
            + "; ".join(
                f"{name[7:]} {statistics.median(t) / statistics.median(base):.2f} ×" for name, t in floors.items()
            ),
            file=sys.stderr,
        )
        rows = []
        for name, measured in times.items():
            limit = (
                CLI_EVENT
                if name in ("task add", "phase", "context")
                else BLOCKED
                if name == "blocked commit"
                else CLI_READ
            )
            label = f"start-up: {name}" + within(limit, measured, base)
            rows.append(ratio_row(label, statistics.median(measured), "python -c pass", statistics.median(base), limit))
        return rows
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    return run_alone(measure, __doc__ or "", "fewer runs")


if __name__ == "__main__":
    raise SystemExit(main())
