"""Performance budgets for events: one CLI event against ``python -c pass``;
an event and a read after 10,000 events against after 10; an event in a
repository of 100,000 files with 1,000 dirty against a tiny one; and the
state branch's bytes per event after ``git gc``.

    python benchmarks/events.py [--quick] [--python PATH]
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from itertools import count
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import CLI_EVENT, Row, hermetic_env, hooks_installed, paired, ratio_row, run_alone, run_cmd, sh

VIBEGIT = ["vibegit"]


def base_repo(repo: Path, env: dict[str, str]) -> Path:
    repo.mkdir(parents=True)
    sh(repo, "git", "init", "-q", env=env)
    (repo / "README.md").write_text("# bench\n")
    sh(repo, "git", "add", "-A", env=env)
    sh(repo, "git", "commit", "-q", "-m", "base", env=env)
    return repo


def tiny_repo(root: Path, env: dict[str, str], tasks: int) -> Path:
    repo = base_repo(root, env)
    started(repo, env, tasks)
    return repo


def started(repo: Path, env: dict[str, str], tasks: int) -> None:
    """A running workflow with ``tasks`` tasks, written in one process."""
    code = (
        "import os, sys\nfrom vibegit.main import main\n"
        "assert main(['start', 'bench', '--goal', 'measure']) == 0\n"
        f"for i in range({tasks}):\n"
        "    assert main(['task', 'add', f'T-{i:05d}', f'task {i}']) == 0\n"
    )
    subprocess.run(["python", "-c", code], cwd=repo, env=env, check=True, stdout=subprocess.DEVNULL)


def lengthen_history(repo: Path, env: dict[str, str], events: int) -> None:
    """``events`` more state commits on the tip's tree, written by fast-import
    in one process (the shape of a long history, without waiting for it)."""
    tip = sh(repo, "git", "rev-parse", "refs/heads/vibegit/state", env=env).strip()
    lines = []
    for i in range(events):
        msg = f"vibegit: context step {i}\n\nVibegit-Event: context\n".encode()
        lines.append(b"commit refs/heads/vibegit/state\n")
        lines.append(b"committer bench <bench@example.com> 1736676000 +0000\n")
        lines.append(b"data %d\n%s\n" % (len(msg), msg))
        if i == 0:
            lines.append(f"from {tip}\n".encode())
    sh(repo, "git", "fast-import", "--quiet", env=env, input=b"".join(lines))
    # fast-import keeps the tip's tree: a valid state after every "event".


_DONE: dict[Path, count] = {}


def next_task(repo: Path, env: dict[str, str]) -> object:
    """A ``task done`` of the repo's next open task, each call."""
    ids = _DONE.setdefault(repo, count())

    def go() -> None:
        i = next(ids)
        run_cmd(repo, env, *VIBEGIT, "task", "done", f"T-{i:05d}")()

    return go


def big_repo(root: Path, env: dict[str, str], files: int, dirty: int, tasks: int) -> Path:
    repo = root
    repo.mkdir(parents=True)
    sh(repo, "git", "init", "-q", env=env)
    stream = [b"commit refs/heads/main\n", b"committer bench <bench@example.com> 1736676000 +0000\n", b"data 5\nbase\n"]
    for i in range(files):
        data = f"file {i}\n".encode()
        stream.append(b"M 100644 inline d%03d/f%06d.txt\ndata %d\n%s\n" % (i % 1000, i, len(data), data))
    sh(repo, "git", "fast-import", "--quiet", env=env, input=b"".join(stream))
    sh(repo, "git", "reset", "-q", "--hard", "main", env=env)
    for i in range(dirty):
        (repo / f"d{i % 1000:03d}" / f"f{i:06d}.txt").write_text(f"edited {i}\n")
    started(repo, env, tasks)
    return repo


def state_bytes_per_event(root: Path, env: dict[str, str], events: int) -> float:
    """Events of a realistic mix, then the packed size of the state branch."""
    repo = base_repo(root, env)
    code = (
        "from vibegit.main import main\n"
        "import sys, io, contextlib\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "  assert main(['start', 'bench', '--goal', 'measure growth']) == 0\n"
        f"  for i in range({events // 4}):\n"
        "    t = f'T-{i:04d}'\n"
        "    assert main(['task', 'add', t, f'implement part {i} of the feature']) == 0\n"
        "    assert main(['task', 'start', t]) == 0\n"
        "    assert main(['context', '--last', f'worked on {t}', '--next', 'continue with the tests']) == 0\n"
        "    assert main(['task', 'done', t]) == 0\n"
    )
    subprocess.run(["python", "-c", code], cwd=repo, env=env, check=True)
    made = int(sh(repo, "git", "rev-list", "--count", "refs/heads/vibegit/state", env=env))
    sh(repo, "git", "gc", "-q", "--prune=now", env=env)
    objects = sh(repo, "git", "rev-list", "--objects", "refs/heads/vibegit/state", env=env).encode()
    pack = subprocess.run(
        ["git", "pack-objects", "--stdout", "-q"], cwd=repo, env=env, input=objects, capture_output=True, check=True
    ).stdout
    return len(pack) / made


def measure(quick: bool = False) -> list[Row]:
    runs = 7 if quick else 21
    tmp = Path(tempfile.mkdtemp(prefix="vibegit-bench-"))
    try:
        env = hermetic_env(tmp)
        rows: list[Row] = []
        tasks = 4 * runs + 10

        short = tiny_repo(tmp / "short", env, tasks)
        event, baseline = paired(next_task(short, env), run_cmd(tmp, env, "python", "-c", "pass"), runs)
        rows.append(ratio_row("one CLI event (vibegit task done)", event, "python -c pass", baseline, CLI_EVENT))

        long = tiny_repo(tmp / "long", env, tasks)
        lengthen_history(long, env, 1_000 if quick else 10_000)
        n = "1,000" if quick else "10,000"
        after_long, after_short = paired(next_task(long, env), next_task(short, env), runs)
        rows.append(ratio_row(f"event after {n} events", after_long, "after ~10 events", after_short, 1.1))
        read_long, read_short = paired(
            run_cmd(long, env, *VIBEGIT, "status"), run_cmd(short, env, *VIBEGIT, "status"), runs
        )
        rows.append(ratio_row(f"startup report after {n} events", read_long, "after ~10 events", read_short, 1.1))
        for repo in (short, long):
            hooks_installed(repo, env, "--hook", "reference-transaction")
        commit = ("git", "commit", "-q", "--allow-empty", "-m", "blocked")
        hook_long, hook_short = paired(
            run_cmd(long, env, *commit, ok=(128,)), run_cmd(short, env, *commit, ok=(128,)), runs
        )
        rows.append(
            ratio_row(f"lock check (blocked commit) after {n} events", hook_long, "after ~10 events", hook_short, 1.1)
        )

        files, dirty = (10_000, 100) if quick else (100_000, 1_000)
        big = big_repo(tmp / "big", env, files, dirty, tasks)
        in_big, in_tiny = paired(next_task(big, env), next_task(short, env), runs)
        rows.append(ratio_row(f"event in {files:,} files, {dirty:,} dirty", in_big, "tiny repo", in_tiny, 1.25))
        shutil.rmtree(big, ignore_errors=True)

        per_event = state_bytes_per_event(tmp / "growth", env, 200 if quick else 1_000)
        rows.append(
            Row("state branch bytes per event after gc", per_event, "-", 0, "≤ 2048 B", per_event <= 2048, unit="B")
        )
        return rows
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    return run_alone(measure, __doc__ or "", "smaller sizes, fewer runs")


if __name__ == "__main__":
    raise SystemExit(main())
