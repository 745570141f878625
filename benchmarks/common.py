"""Shared pieces of the benchmarks: timing by medians, one row per budget.

Every budget is a ratio against a baseline measured in the same run on the
same machine (absolute times are noisy); runs of the two sides interleave so
drift hits both alike.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable  # the interpreter vibegit runs under (a venv's own: its start-up is the baseline too)


def hermetic_env(home: Path) -> dict[str, str]:
    """No user config, fixed identity, this checkout's vibegit first."""
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n[gc]\n\tauto = 0\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "VIBEGIT_"))}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode as an install leaves it (compiled below)
    subprocess.run([PYTHON, "-m", "compileall", "-q", str(ROOT / "vibegit")], check=True, stdout=subprocess.DEVNULL)
    env.update(
        HOME=str(home),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=str(home / ".gitconfig"),
        GIT_AUTHOR_NAME="bench",
        GIT_AUTHOR_EMAIL="bench@example.com",
        GIT_COMMITTER_NAME="bench",
        GIT_COMMITTER_EMAIL="bench@example.com",
        PYTHONPATH=str(ROOT),
        PATH=f"{Path(PYTHON).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    return env


def sh(cwd: Path, *args: str, env: dict[str, str] | None = None, input: bytes | None = None) -> str:
    proc = subprocess.run(args, cwd=cwd, env=env, input=input, capture_output=True)
    if proc.returncode:
        raise SystemExit(f"benchmark set-up failed: {' '.join(args)}: {proc.stderr.decode()[-500:]}")
    return proc.stdout.decode()


def base_repo(path: Path, env: dict[str, str], name: str, text: str, branch: str) -> Path:
    """A new repository at ``path``: branch main with one commit holding file
    ``name``, and ``branch`` beside it at the same commit."""
    path.mkdir(parents=True)
    sh(path, "git", "init", "-q", "-b", "main", env=env)
    (path / name).write_text(text)
    sh(path, "git", "add", "-A", env=env)
    sh(path, "git", "commit", "-q", "-m", "base", env=env)
    sh(path, "git", "branch", branch, env=env)
    return path


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def paired(a: Callable[[], object], b: Callable[[], object], runs: int) -> tuple[float, float]:
    """Medians (ms) of ``a`` and ``b``, run alternately after a warm-up each."""
    a()
    b()
    ta, tb = [], []
    for _ in range(runs):
        ta.append(timed(a))
        tb.append(timed(b))
    return statistics.median(ta), statistics.median(tb)


def run_cmd(cwd: Path, env: dict[str, str], *args: str, ok: tuple[int, ...] = (0,)) -> Callable[[], None]:
    def go() -> None:
        proc = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if proc.returncode not in ok:
            raise SystemExit(f"benchmark step failed ({proc.returncode}): {' '.join(args)}")

    return go


@dataclass
class Row:
    path: str
    measured: float  # ms, or bytes for sizes
    baseline_name: str
    baseline: float
    budget: str
    passed: bool
    unit: str = "ms"  # "ms", "ms/MiB", "count", or bytes

    @property
    def ratio(self) -> float:
        return self.measured / self.baseline if self.baseline else float("nan")


def ratio_row(path: str, measured: float, baseline_name: str, baseline: float, limit: float) -> Row:
    return Row(path, measured, baseline_name, baseline, f"≤ {limit:g}×", measured <= limit * baseline)


def table(rows: list[Row]) -> str:
    head = ("path", "measured", "baseline", "baseline median", "ratio", "budget", "result")
    body = []
    for r in rows:
        fmt = {
            "ms": lambda v: f"{v:.1f} ms",
            "ms/MiB": lambda v: f"{v:.1f} ms/MiB",
            "count": lambda v: f"{v:.0f}",
        }.get(r.unit, lambda v: f"{v:,.0f} B")
        body.append(
            (
                r.path,
                fmt(r.measured),
                r.baseline_name,
                fmt(r.baseline) if r.baseline else "-",
                f"{r.ratio:.2f}" if r.baseline else "-",
                r.budget,
                "pass" if r.passed else "FAIL",
            )
        )
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return "\n".join(lines)


def run_alone(measure: Callable[[bool], list[Row]], doc: str, quick_help: str) -> int:
    """A benchmark script run by itself: ``--quick``, its rows as a table, exit 1 when one fails."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=quick_help)
    rows = measure(parser.parse_args().quick)
    print(table(rows))
    return 0 if all(r.passed for r in rows) else 1
