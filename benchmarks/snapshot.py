"""Performance budget: a checkpoint's snapshot costs at most 1.5 × ``git stash create``.

Builds a repository of a few thousand files with staged, unstaged and
untracked work in a temporary directory, then times, on the same working
tree, ``git stash create`` (a subprocess, as a user would run it) and
``vibegit.snapshot.take`` (the whole snapshot step of a checkpoint: scratch
index, ``git add -A``, ``git write-tree``, HEAD's tree), both timed inside
the install's interpreter (``common.call``), in the benchmarks' hermetic
environment. Medians of several runs; prints both, the ratio and PASS/FAIL
(exit 1 on FAIL).

    python benchmarks/snapshot.py [--files N] [--dirty N] [--runs N] [--python PATH]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import Row, call, hermetic_env, paired, python_option, ratio_row, results, run_cmd, use

BUDGET = 1.5


def sh(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def build(root: Path, files: int, dirty: int) -> Path:
    repo = root / "repo"
    repo.mkdir()
    sh(repo, "init", "-q", "-b", "main")
    for i in range(files):
        d = repo / f"pkg{i % 50:02d}" / f"mod{i % 7}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"file{i:05d}.py").write_text(f"# file {i}\n" + "x = 1\n" * (i % 40 + 5))
    (repo / ".gitignore").write_text("build/\n")
    sh(repo, "add", "-A")
    sh(repo, "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-m", "base")
    paths = sorted(repo.glob("pkg*/mod*/file*.py"))
    for n, path in enumerate(paths[:dirty]):
        path.write_text(path.read_text() + f"# edit {n}\n")
    sh(repo, "add", *[str(p) for p in paths[: dirty // 3]])  # a third staged
    for n in range(max(1, dirty // 10)):
        (repo / f"untracked{n}.txt").write_text(f"new {n}\n")
    (repo / "build").mkdir()
    (repo / "build" / "ignored.o").write_bytes(b"\0" * 1000)
    return repo


def measure(
    quick: bool = False, files: int | None = None, dirty: int | None = None, runs: int | None = None
) -> list[Row]:
    files = files or (1000 if quick else 5000)
    dirty = dirty or (50 if quick else 200)
    runs = runs or (7 if quick else 15)
    tmp = Path(tempfile.mkdtemp(prefix="vibegit-bench-snapshot-"))
    try:
        env = hermetic_env(tmp)
        repo = build(tmp, files, dirty)
        snap, base = call(env, "benchmarks.snapshot:timed", str(repo), runs)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return [ratio_row(f"checkpoint snapshot ({files:,} files, {dirty} dirty)", snap, "git stash create", base, BUDGET)]


def timed(repo_path: str, runs: int) -> tuple[float, float]:
    """Medians (ms) of ``snapshot.take`` and ``git stash create`` in ``repo_path``, interleaved
    (run by ``measure`` in the install's interpreter, with its vibegit)."""
    from vibegit.infra import git, snapshot

    repo = git.find_repo(Path(repo_path))
    assert snapshot.take(repo) is not None
    return paired(
        lambda: snapshot.take(repo), run_cmd(Path(repo_path), dict(os.environ), "git", "stash", "create"), runs
    )


def main() -> int:
    parser = python_option(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--dirty", type=int, default=200)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    use(args.python)
    rows = measure(False, args.files, args.dirty, args.runs)
    print(
        f"repository: {args.files} files, {args.dirty} modified ({args.dirty // 3} staged), "
        f"{max(1, args.dirty // 10)} untracked; medians of {args.runs} interleaved runs"
    )
    print(results(rows))
    return 0 if all(r.passed for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
