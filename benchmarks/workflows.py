"""Budgets of many workflows at once, measured in one run: a repository with
50 workflows on the state branch (one per branch, each running) and 10,000
events in its history.

- ``git commit`` and ``git checkout`` on a branch without a workflow, raw
  hooks installed, against the same repository without hooks: at most 5 ms
  added (medians);
- ``git commit`` on a branch whose workflow holds the lock (message shown),
  against ``python -c pass``: at most 4.5 ×;
- one event (``vibegit task add``) of one of the 50: at most 4 ×;
- ``vibegit list``: at most 3.5 ×.

    python benchmarks/workflows.py [--quick] [--python PATH]
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from itertools import count
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import (
    BLOCKED,
    CLI_EVENT,
    CLI_READ,
    Row,
    base_repo,
    hermetic_env,
    hooks_installed,
    paired,
    quiet_objects,
    ratio_row,
    run_alone,
    run_cmd,
    sh,
)
from benchmarks.events import lengthen_history
from benchmarks.hooks import added_row, toggling_checkout

WORKFLOWS = 50
VIBEGIT = ["vibegit"]


def many(repo: Path, env: dict[str, str], workflows: int, *, hooks: bool) -> Path:
    """A repository with branches main and free (no workflow) and ``workflows``
    more, each with a running workflow of 3 tasks; back on main."""
    base_repo(repo, env, "README.md", "# bench\n", "free")
    code = (
        "import subprocess\nfrom vibegit.main import main\n"
        f"for i in range({workflows}):\n"
        "    subprocess.run(['git', 'switch', '-q', '-c', f'feature-{i:02d}'], check=True)\n"
        "    assert main(['start', f'work-{i:02d}', '--goal', f'feature {i}']) == 0\n"
        "    for t in range(3):\n"
        "        assert main(['task', 'add', f'T-{t:03d}', f'part {t} of feature {i}']) == 0\n"
        "    assert main(['task', 'start', 'T-000']) == 0\n"
        "subprocess.run(['git', 'switch', '-q', 'main'], check=True)\n"
    )
    subprocess.run(["python", "-c", code], cwd=repo, env=env, check=True, stdout=subprocess.DEVNULL)
    if hooks:
        hooks_installed(repo, env)
    return repo


def one_event(repo: Path, env: dict[str, str]) -> Callable[[], None]:
    """A ``task add`` to the workflow of feature-07 (checked out in ``repo``), a new id each call."""
    ids = count(100)

    def go() -> None:
        run_cmd(repo, env, *VIBEGIT, "task", "add", f"T-{next(ids):03d}", "one more part")()

    return go


def measure(quick: bool = False) -> list[Row]:
    runs = 7 if quick else 21
    workflows = 10 if quick else WORKFLOWS
    events = 1_000 if quick else 10_000
    tmp = Path(tempfile.mkdtemp(prefix="vibegit-bench-workflows-"))
    try:
        (tmp / "home").mkdir()
        env = hermetic_env(tmp / "home")
        hooked = many(tmp / "hooked", env, workflows, hooks=True)
        lengthen_history(hooked, env, events)
        quiet_objects(hooked, env)
        plain = tmp / "plain"  # the same repository, objects and refs, without the hooks
        shutil.copytree(hooked, plain, symlinks=True)
        for hook in (plain / ".git" / "hooks").iterdir():
            if not hook.name.endswith(".sample"):
                hook.unlink()
        for repo in (hooked, plain):
            sh(repo, "git", "switch", "-q", "free", env=env)
        label = f"{workflows} workflows, {events:,} events"

        commit = ("git", "commit", "-q", "--allow-empty", "-m", "bench")
        c_hooked, c_plain = paired(run_cmd(hooked, env, *commit), run_cmd(plain, env, *commit), runs)
        sh(plain, "git", "branch", "-q", "-f", "other", "free", env=env)
        sh(hooked, "git", "branch", "-q", "-f", "other", "free", env=env)
        k_hooked, k_plain = paired(
            toggling_checkout(hooked, env, ("other", "free")), toggling_checkout(plain, env, ("other", "free")), runs
        )

        busy = tmp / "busy"
        sh(hooked, "git", "worktree", "add", "-q", str(busy), "feature-07", env=env)
        probe = subprocess.run(
            ["git", "commit", "--allow-empty", "-m", "probe"], cwd=busy, env=env, capture_output=True, text=True
        )
        if probe.returncode == 0 or "commit blocked" not in probe.stderr:
            raise SystemExit(f"benchmark set-up failed: the locked commit was not blocked: {probe.stderr}")
        python = run_cmd(tmp, env, "python", "-c", "pass")
        # Its own message: feature-07 starts where free started, so "bench" in the same second as free's
        # first commit would be that very object, a commit some ref already reaches (it passes, rightly).
        refused = ("git", "commit", "-q", "--allow-empty", "-m", "refused")
        blocked, base_blocked = paired(run_cmd(busy, env, *refused, ok=(128,)), python, runs)
        event, base_event = paired(one_event(busy, env), python, runs)
        listed, base_list = paired(run_cmd(busy, env, *VIBEGIT, "list"), python, runs)
        return [
            added_row(f"git commit, raw hooks, no workflow on the branch ({label})", c_hooked, c_plain),
            added_row(f"git checkout, raw hooks, no workflow on the branches ({label})", k_hooked, k_plain),
            ratio_row(
                f"git commit blocked by its branch's workflow ({label})",
                blocked,
                "python -c pass",
                base_blocked,
                BLOCKED,
            ),
            ratio_row(f"one event, vibegit task add ({label})", event, "python -c pass", base_event, CLI_EVENT),
            ratio_row(f"vibegit list ({label})", listed, "python -c pass", base_list, CLI_READ),
        ]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    return run_alone(measure, __doc__ or "", "10 workflows, 1,000 events, fewer runs")


if __name__ == "__main__":
    raise SystemExit(main())
