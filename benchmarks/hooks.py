"""Performance budgets for the raw git hooks, measured in one run:

- ``git commit`` and ``git checkout`` with the raw hooks installed and no
  workflow active, against the same repository shape without hooks:
  at most 5 ms added (medians);
- the same commit and checkout against the floor of any hook that asks
  the state branch: sh hooks that only run ``git cat-file -e`` on it when a
  commit is prepared, or after a branch checkout: at most 1 ms added (medians);
- ``git commit`` refused by the lock check (the reference-transaction hook)
  while a lock is active (message shown), against ``python -c pass``: at most 4.5 ×;
- ``git fetch`` of 1,000 new branches with the reference-transaction hook
  (git 2.39 runs it twice per ref: 2,000 runs), against the same fetch with
  an empty hook (``exit 0``): at most 1.25 × (the hook's sh fast path costs
  no more than starting sh; the row's label says what any hook adds).

    python benchmarks/hooks.py [--runs N | --quick] [--python PATH]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import (
    BLOCKED,
    Row,
    base_repo,
    hermetic_env,
    hooks_installed,
    paired,
    python_option,
    ratio_row,
    results,
    run_cmd,
    sh,
    timed,
    use,
)

ADDED_MS = 5.0
FLOOR_MS = 1.0  # over the cat-file -e floor
FLOOR_HOOKS = {  # the least a hook that asks the state branch does: one sh, one git process
    "reference-transaction": '#!/bin/sh\n[ "$1" = prepared ] || exit 0\nwhile read -r _; do :; done\n'
    "git cat-file -e refs/heads/vibegit/state:branches/main 2>/dev/null\nexit 0\n",
    "post-checkout": '#!/bin/sh\n[ "$3" = 1 ] || exit 0\ngit cat-file -e refs/heads/vibegit/state:branches/main 2>/dev/null\nexit 0\n',
}
FETCH_REFS = 1000
FETCH_RATIO = 1.25


def make_repo(path: Path, env: dict[str, str], *, hooks: bool, workflow: str) -> Path:
    """A small repository with branches main and other; ``workflow``: none, ended or running."""
    base_repo(path, env, "README.md", "# bench\n", "other")
    vibegit = ["vibegit"]  # the install's, first on PATH
    if hooks:
        hooks_installed(path, env)
    if workflow != "none":
        sh(path, *vibegit, "start", "bench", "--goal", "measure the hooks", env=env)
        sh(path, *vibegit, "task", "add", "T-001", "the lock check", env=env)
        sh(path, *vibegit, "task", "start", "T-001", env=env)
        if workflow == "ended":
            sh(path, *vibegit, "unlock", "--yes", "--reason", "benchmark", env=env)
    return path


def toggling_checkout(repo: Path, env: dict[str, str], pair: tuple[str, str] = ("other", "main")) -> Callable[[], None]:
    """``git checkout`` to the other branch of ``pair`` at each call (both have the same tree)."""
    branches = list(pair)

    def go() -> None:
        branches.reverse()
        run_cmd(repo, env, "git", "checkout", "-q", branches[0])()

    return go


def added_row(
    path: str, hooked: float, plain: float, baseline: str = "same without hooks", limit: float = ADDED_MS
) -> Row:
    added = hooked - plain
    return Row(f"{path} (+{added:.1f} ms)", hooked, baseline, plain, f"≤ +{limit:g} ms", added <= limit)


def floor_repo(path: Path, env: dict[str, str]) -> Path:
    """The same repository with the floor hooks (FLOOR_HOOKS) instead of vibegit's."""
    make_repo(path, env, hooks=False, workflow="none")
    for name, text in FLOOR_HOOKS.items():
        hook = path / ".git" / "hooks" / name
        hook.write_text(text)
        hook.chmod(0o755)
    return path


def measure(quick: bool = False, runs: int | None = None) -> list[Row]:
    runs = runs or (7 if quick else 30)
    with tempfile.TemporaryDirectory(prefix="vibegit-bench-hooks-") as tmp:
        root = Path(tmp)
        (root / "home").mkdir()
        env = hermetic_env(root / "home")
        plain = make_repo(root / "plain", env, hooks=False, workflow="none")
        hooked = make_repo(root / "hooked", env, hooks=True, workflow="ended")
        locked = make_repo(root / "locked", env, hooks=True, workflow="running")
        floor = floor_repo(root / "floor", env)
        probe = subprocess.run(
            ["git", "commit", "--allow-empty", "-m", "probe"], cwd=locked, env=env, capture_output=True, text=True
        )
        if probe.returncode == 0 or "commit blocked" not in probe.stderr:
            raise SystemExit(f"benchmark set-up failed: the locked commit was not blocked: {probe.stderr}")

        commit = ("git", "commit", "-q", "--allow-empty", "-m", "bench")
        c_hooked, c_plain = paired(run_cmd(hooked, env, *commit), run_cmd(plain, env, *commit), runs)
        k_hooked, k_plain = paired(toggling_checkout(hooked, env), toggling_checkout(plain, env), runs)
        c_ours, c_floor = paired(run_cmd(hooked, env, *commit), run_cmd(floor, env, *commit), 2 * runs)
        k_ours, k_floor = paired(toggling_checkout(hooked, env), toggling_checkout(floor, env), 2 * runs)
        blocked, python = paired(
            run_cmd(locked, env, *commit, ok=(1, 128)), run_cmd(root, env, "python", "-c", "pass"), runs
        )
        fetch_rows = measure_fetch(root, env, 3 if quick else 10)
    return [
        added_row("git commit, raw hooks, no workflow", c_hooked, c_plain),
        added_row("git checkout, raw hooks, no workflow", k_hooked, k_plain),
        added_row(
            "git commit, raw hooks, no workflow, over the floor", c_ours, c_floor, "cat-file -e floor hooks", FLOOR_MS
        ),
        added_row(
            "git checkout, raw hooks, no workflow, over the floor", k_ours, k_floor, "cat-file -e floor hooks", FLOOR_MS
        ),
        ratio_row("git commit blocked by the lock (message shown)", blocked, "python -c pass", python, BLOCKED),
        *fetch_rows,
    ]


def measure_fetch(root: Path, env: dict[str, str], runs: int) -> list[Row]:
    """``git fetch`` of FETCH_REFS new branches into a fresh clone: with vibegit's
    reference-transaction hook, with an empty hook, with none (medians)."""
    remote = root / "many-refs.git"
    sh(root, "git", "init", "-q", "--bare", str(remote), env=env)
    stream = "".join(
        f"commit refs/heads/b{i:04d}\nmark :{i}\ncommitter b <b@e> {1700000000 + i} +0000\ndata 3\nc{i % 10}\n"
        f"M 644 inline f\ndata {len(str(i)) + 1}\n{i}\n\n"
        for i in range(1, FETCH_REFS + 1)
    )
    sh(remote, "git", "fast-import", "--quiet", env=env, input=stream.encode())
    empty = root / "empty-hook"
    empty.write_text("#!/bin/sh\nexit 0\n")
    empty.chmod(0o755)

    def fresh(kind: str) -> Path:
        local = root / f"fetch-{kind}"
        if local.exists():
            shutil.rmtree(local)
        sh(root, "git", "init", "-q", str(local), env=env)
        sh(local, "git", "remote", "add", "origin", str(remote), env=env)
        if kind == "vibegit":
            hooks_installed(local, env, "--hook", "reference-transaction")
        elif kind == "empty":
            shutil.copy2(empty, local / ".git" / "hooks" / "reference-transaction")
        return local

    times: dict[str, list[float]] = {"vibegit": [], "empty": [], "none": []}
    for _ in range(runs):
        for kind, found in times.items():
            local = fresh(kind)
            found.append(timed(run_cmd(local, env, "git", "fetch", "-q", "origin")))
    ours, empty_ms, none = (statistics.median(times[k]) for k in ("vibegit", "empty", "none"))
    label = (
        f"git fetch of {FETCH_REFS:,} new branches, reference-transaction hook "
        f"(+{(ours - none) / 1000:.1f} s over no hook)"
    )
    return [ratio_row(label, ours, "same with an empty hook (exit 0)", empty_ms, FETCH_RATIO)]


def main(argv: list[str] | None = None) -> int:
    parser = python_option(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    parser.add_argument("--runs", type=int, default=30, help="timed runs per side (default 30)")
    parser.add_argument("--quick", action="store_true", help="7 runs per side (a smoke test)")
    args = parser.parse_args(argv)
    use(args.python)
    runs = 7 if args.quick else args.runs
    rows = measure(args.quick, runs)
    print(f"vibegit git-hook budgets, medians of {runs} interleaved runs")
    print(results(rows))
    return 0 if all(r.passed for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
