"""Budget of SPEC §11: a checkpoint's snapshot costs at most 1.5 × ``git stash create``.

Builds a repository of a few thousand files with staged, unstaged and
untracked work in a temporary directory, then times, on the same working
tree, ``git stash create`` (a subprocess, as a user would run it) and
``vibegit.snapshot.take`` (the whole snapshot step of a checkpoint: scratch
index, ``git add -A``, ``git write-tree``, HEAD's tree). Medians of several
runs; prints both, the ratio and PASS/FAIL (exit 1 on FAIL).

    python benchmarks/snapshot.py [--files N] [--dirty N] [--runs N]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vibegit import git, snapshot  # noqa: E402

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


def median_ms(fn, runs: int) -> float:
    fn()  # warm the caches
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--dirty", type=int, default=200)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    for name in [n for n in os.environ if n.startswith("GIT_")]:
        del os.environ[name]
    with tempfile.TemporaryDirectory() as tmp:
        repo_path = build(Path(tmp), args.files, args.dirty)
        repo = git.find_repo(repo_path)
        stash = median_ms(lambda: subprocess.run(["git", "stash", "create"], cwd=repo_path, check=True,
                                                 capture_output=True), args.runs)
        snap = median_ms(lambda: snapshot.take(repo), args.runs)
        assert snapshot.take(repo) is not None
    ratio = snap / stash
    verdict = "PASS" if ratio <= BUDGET else "FAIL"
    print(f"repository: {args.files} files, {args.dirty} modified ({args.dirty // 3} staged), "
          f"{max(1, args.dirty // 10)} untracked; median of {args.runs} runs")
    print(f"git stash create      {stash:8.1f} ms")
    print(f"vibegit snapshot.take {snap:8.1f} ms")
    print(f"ratio {ratio:.2f} (budget {BUDGET}) {verdict}")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
