"""Budgets of SPEC §11 for the raw git hooks, measured in one run:

- ``git commit`` and ``git checkout`` with the raw hooks installed and no
  workflow active, against the same repository shape without hooks:
  at most 5 ms added (medians);
- ``git commit`` refused by the pre-commit hook while a lock is active
  (message shown), against ``python -c pass``: at most 4 ×.

    python benchmarks/hooks.py [--runs N | --quick]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import PYTHON, Row, hermetic_env, paired, ratio_row, run_cmd, sh, table

ADDED_MS = 5.0
BLOCKED_RATIO = 4.0


def make_repo(path: Path, env: dict[str, str], *, hooks: bool, workflow: str) -> Path:
    """A small repository with branches main and other; ``workflow``: none, ended or running."""
    path.mkdir(parents=True)
    sh(path, "git", "init", "-q", "-b", "main", env=env)
    (path / "README.md").write_text("# bench\n")
    sh(path, "git", "add", "-A", env=env)
    sh(path, "git", "commit", "-q", "-m", "base", env=env)
    sh(path, "git", "branch", "other", env=env)
    vibegit = [PYTHON, "-m", "vibegit"]
    if hooks:
        sh(path, *vibegit, "install", env=env)
    if workflow != "none":
        sh(path, *vibegit, "start", "bench", "--goal", "measure the hooks", env=env)
        sh(path, *vibegit, "task", "add", "T-001", "the lock check", env=env)
        sh(path, *vibegit, "task", "start", "T-001", env=env)
        if workflow == "ended":
            sh(path, *vibegit, "unlock", "--reason", "benchmark", env=env)
    return path


def toggling_checkout(repo: Path, env: dict[str, str], pair: tuple[str, str] = ("other", "main")) -> Callable[[], None]:
    """``git checkout`` to the other branch of ``pair`` at each call (both have the same tree)."""
    branches = list(pair)

    def go() -> None:
        branches.reverse()
        run_cmd(repo, env, "git", "checkout", "-q", branches[0])()

    return go


def added_row(path: str, hooked: float, plain: float) -> Row:
    added = hooked - plain
    return Row(
        f"{path} (+{added:.1f} ms)", hooked, "same without hooks", plain, f"≤ +{ADDED_MS:g} ms", added <= ADDED_MS
    )


def measure(quick: bool = False, runs: int | None = None) -> list[Row]:
    runs = runs or (7 if quick else 30)
    with tempfile.TemporaryDirectory(prefix="vibegit-bench-hooks-") as tmp:
        root = Path(tmp)
        (root / "home").mkdir()
        env = hermetic_env(root / "home")
        plain = make_repo(root / "plain", env, hooks=False, workflow="none")
        hooked = make_repo(root / "hooked", env, hooks=True, workflow="ended")
        locked = make_repo(root / "locked", env, hooks=True, workflow="running")
        probe = subprocess.run(
            ["git", "commit", "--allow-empty", "-m", "probe"], cwd=locked, env=env, capture_output=True, text=True
        )
        if probe.returncode != 1 or "commit blocked" not in probe.stderr:
            raise SystemExit(f"benchmark set-up failed: the locked commit was not blocked: {probe.stderr}")

        commit = ("git", "commit", "-q", "--allow-empty", "-m", "bench")
        c_hooked, c_plain = paired(run_cmd(hooked, env, *commit), run_cmd(plain, env, *commit), runs)
        k_hooked, k_plain = paired(toggling_checkout(hooked, env), toggling_checkout(plain, env), runs)
        blocked, python = paired(run_cmd(locked, env, *commit, ok=(1,)), run_cmd(root, env, PYTHON, "-c", "pass"), runs)
    return [
        added_row("git commit, raw hooks, no workflow", c_hooked, c_plain),
        added_row("git checkout, raw hooks, no workflow", k_hooked, k_plain),
        ratio_row("git commit blocked by the lock (message shown)", blocked, "python -c pass", python, BLOCKED_RATIO),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="timed runs per side (default 30)")
    parser.add_argument("--quick", action="store_true", help="7 runs per side (a smoke test)")
    args = parser.parse_args(argv)
    runs = 7 if args.quick else args.runs
    rows = measure(args.quick, runs)
    print(f"vibegit git-hook budgets, medians of {runs} interleaved runs ({PYTHON})")
    print(table(rows))
    return 0 if all(r.passed for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
