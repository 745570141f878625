"""``pre-commit``: the lock check. Blocks the commit (exit 1) while a
workflow holds the lock, naming the workflow, phase, task and the commands
that unblock it."""

from __future__ import annotations

import sys

from vibegit.errors import OK, REFUSED
from vibegit.handlers.common import open_for_hook
from vibegit.infra import git, store


def run(args: list[str]) -> int:
    repo, conf = open_for_hook()
    state = store.read_state(repo, conf).state
    lock = state.lock
    if lock is None or not lock.locked:  # a paused workflow keeps the file with locked: false
        return OK
    policy = conf.block_commits
    if policy == "never":
        return OK
    branch = git.head_branch(repo)
    started_on = state.workflow.branch
    if policy == "other-branches" and branch == started_on:
        return OK
    name = state.mode.workflow_name or lock.workflow
    phase = state.mode.phase
    where = f"phase {phase.value} ({phase.long_name})" if phase else "no phase"
    if state.mode.step:
        where += f", step {state.mode.step}"
    task = state.task(state.workflow.current_task or "")
    doing = f"task {task.id}: {task.title}" if task else "no current task"
    if policy == "other-branches":
        why = (
            f"commits on {branch or 'a detached HEAD'} are blocked while workflow {name!r} runs on "
            f"{started_on or 'a detached HEAD'} (vibegit.blockCommits=other-branches)"
        )
    else:
        why = f"workflow {name!r} holds the lock (vibegit.blockCommits={policy})"
    print(f"vibegit: commit blocked: {why}; {where}; {doing}.", file=sys.stderr)
    print(
        "vibegit: unblock with 'vibegit pause', 'vibegit complete', 'vibegit unlock' or 'vibegit abort'; "
        "or commit anyway with 'git commit --no-verify'.",
        file=sys.stderr,
    )
    return REFUSED
