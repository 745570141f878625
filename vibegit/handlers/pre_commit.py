"""``pre-commit``: the lock check. Blocks the commit (exit 1) while the
workflow of the branch being committed to holds the lock, naming the
workflow, phase, task and the commands that unblock it."""

from __future__ import annotations

import sys

from vibegit.core.messages import t
from vibegit.core.model import Env, State
from vibegit.core.settings import Settings
from vibegit.core.workflows import Summary, belongs_here
from vibegit.errors import OK, REFUSED
from vibegit.handlers.common import open_for_hook
from vibegit.infra import git, machine, store


def blocking(index: tuple[Summary, ...], e: Env, policy: str) -> list[Summary]:
    """The workflows that may block a commit here, by ``vibegit.blockCommits``:
    ``always``, a workflow of the branch committed to, held on this machine;
    ``other-branches``, a workflow held in this worktree, bound to another
    branch; ``never``, none. (Their lock files say whether they hold it.)"""
    held = [s for s in index if s.active and s.host == e.host]
    if policy == "always":
        return [s for s in held if belongs_here(s, e)]
    if policy == "other-branches":
        return [s for s in held if s.holder == e.worktree and not belongs_here(s, e)]
    return []


def run(args: list[str]) -> int:
    repo, conf = open_for_hook()
    e = machine.facts(repo)
    loaded = store.read_state(repo, conf)
    cat = git.reader(repo)
    for candidate in blocking(loaded.index, e, conf.block_commits):
        state = store.flow(repo, cat, loaded, candidate.id).state
        if state.lock is not None and state.lock.locked:  # a paused workflow keeps the file with locked: false
            _refuse(conf, e, state)
            return REFUSED
    return OK


def _refuse(conf: Settings, e: Env, state: State) -> None:
    name = state.mode.workflow_name or state.workflow.id
    phase = state.mode.phase
    where = t("block.phase", phase=phase.value, long=phase.long_name) if phase else t("block.no_phase")
    if state.mode.step:
        where += t("block.step", step=state.mode.step)
    task = state.task(state.workflow.current_task or "")
    doing = t("block.task", id=task.id, title=task.title) if task else t("block.no_task")
    detached = t("block.detached")
    if conf.block_commits == "other-branches":
        why = t(
            "block.other_branches",
            here=e.branch or detached,
            name=name,
            there=state.workflow.branch or detached,
        )
    else:
        why = t("block.always", name=name, branch=e.branch or t("block.this_detached"))
    print(t("block.blocked", why=why, where=where, doing=doing), file=sys.stderr)
    print(t("block.unblock"), file=sys.stderr)
