"""The lock check: is a new commit on a branch blocked now?

One decision, ``blocking``, serves every hook that guards the lock
(``pre-commit``, ``reference-transaction``, the pre-commit framework's id).
It fails closed: a setting it cannot read, a state the parser rejects, a
state branch that vanished while the mirror still shows a lock all block,
with one line that says why and the command that fixes it. The escape hatch
is explicit: ``VIBEGIT_ALLOW=1 git …`` lets the commit through and records
an ``allowed-commit`` event.
"""

from __future__ import annotations

import os
import sys

from vibegit.core import messages
from vibegit.core.messages import PHASE_TITLES, t
from vibegit.core.model import Env, State
from vibegit.core.records import frozen
from vibegit.core.settings import Settings, settings
from vibegit.core.workflows import Summary, belongs_here
from vibegit.errors import OK, REFUSED, BadInput, VibegitError
from vibegit.infra import git, machine, store

ALLOW = "VIBEGIT_ALLOW"
UNBLOCK = "'vibegit pause', 'vibegit complete', 'vibegit unlock' or 'vibegit abort'"
REPAIR = "'vibegit doctor --repair'"


@frozen
class Block:
    workflow: str  # the id of the workflow that holds the lock; "" when a doubt blocks
    why: str  # one line
    fix: str  # the commands that unblock
    name: str = ""  # the workflow's name, as messages show it


def blocking(repo: git.Repo, branch: str | None, config: dict[str, str] | None = None) -> Block | None:
    """Whether a new commit on ``branch`` (None: this worktree's detached HEAD)
    is blocked now, and why (``config``: the settings as ``git.read_config``
    gave them, when already read)."""
    config = git.read_config(repo) if config is None else config
    try:
        conf = settings(config, fallback=lambda message: print(f"vibegit: {message}", file=sys.stderr))
    except BadInput as err:
        return Block("", str(err), "'git config --unset vibegit.stateBranch', or set it to a branch name")
    if conf.block_commits == "never":  # the user's choice: nothing blocks, as the shims' fast path says too
        return None
    try:
        loaded = store.read_state(repo, conf)
    except VibegitError as err:
        return Block("", f"the state on {conf.state_branch} cannot be read ({err})", REPAIR)
    if loaded.head is None:
        if git.resolve(repo, conf.state_ref) is not None:
            return Block("", f"{conf.state_ref} points to an object that is missing or not a commit", REPAIR)
        return _vanished(repo, conf)
    e = Env(  # what decides: who holds a lock, and the branch
        now="",
        host=machine.this_host(),
        worktree=machine.worktree_name(repo),
        branch=branch,
        machine=machine.machine_id(repo, create=False),
    )
    cat = git.reader(repo)
    for candidate in candidates(loaded.index, e, conf.block_commits):
        try:
            state = store.flow(repo, cat, loaded, candidate.id).state
        except VibegitError as err:
            why = f"workflow {candidate.name!r} {candidate.where()} cannot be read ({err})"
            return Block("", why, REPAIR)
        if state.lock is not None and state.lock.locked:  # a paused workflow keeps the file with locked: false
            return _rule(state, conf, branch)
    return None


def candidates(index: tuple[Summary, ...], e: Env, policy: str) -> list[Summary]:
    """The workflows that may block a commit to ``e.branch``, by ``vibegit.blockCommits``:
    ``always``, a workflow of that branch, held by this clone;
    ``other-branches``, a workflow held in this worktree, bound to another
    branch; ``never``, none. (Their lock files say whether they hold it.)"""
    held = [s for s in index if s.active and s.held_here(e, clone_only=True)]
    if policy == "always":
        return [s for s in held if belongs_here(s, e)]
    if policy == "other-branches":
        return [s for s in held if s.held_here(e) and not belongs_here(s, e)]
    return []


def _vanished(repo: git.Repo, conf: Settings) -> Block | None:
    """No state branch: blocked when the mirror still shows a held lock (the branch was deleted)."""
    from vibegit.infra import mirror  # only when the state branch vanished

    try:
        shown = mirror.lock(repo, conf)
    except BadInput as err:
        return Block("", f"{conf.state_branch} is missing and the mirror's lock cannot be read ({err})", REPAIR)
    if shown is None or not shown.locked:
        return None
    return Block(
        "",
        f"{conf.state_branch} is gone, but the mirror ({conf.mirror_dir}) shows workflow "
        f"{shown.workflow!r} holding the lock",
        f"{REPAIR} (it brings the branch back from the reflog, a remote or the mirror)",
    )


def _rule(state: State, conf: Settings, branch: str | None) -> Block:
    """Why the workflow that holds the lock blocks the commit."""
    name = state.mode.workflow_name or state.workflow.id
    messages.use(conf.lang)
    detached = t("block.detached")
    if conf.block_commits == "other-branches":
        why = t("block.other_branches", here=branch or detached, name=name, there=state.workflow.branch or detached)
    else:
        why = t("block.always", name=name, branch=branch or t("block.this_detached"))
    task = state.task(state.workflow.current_task or "")
    doing = (task.id, task.title) if task else None
    phase = state.mode.phase.value if state.mode.phase else None
    return Block(state.workflow.id, reason(why, phase, state.mode.step, doing), UNBLOCK, name)


def reason(why: str, phase: str | None, step: str | None, task: tuple[str, str] | None) -> str:
    """``why`` the commit is blocked, then where the workflow stands (phase, step, current task)."""
    where = t("block.phase", phase=phase, long=PHASE_TITLES[phase]) if phase else t("block.no_phase")
    if step:
        where += t("block.step", step=step)
    doing = t("block.task", id=task[0], title=task[1]) if task else t("block.no_task")
    return f"{why}; {where}; {doing}"


def tell(why: str, fix: str, command: str, gitdir: str) -> None:
    """The refusal: why, how to unblock, and how to leave a rebase it stopped."""
    print(t("block.blocked", why=why), file=sys.stderr)
    print(t("block.unblock", fix=fix, allow=ALLOW, command=command), file=sys.stderr)
    if any(os.path.isdir(os.path.join(gitdir, d)) for d in ("rebase-merge", "rebase-apply")):
        print("vibegit: the rebase stopped here: 'git rebase --abort' goes back to where you were.", file=sys.stderr)


def refuse(repo: git.Repo, block: Block, command: str, commit: str | None, branch: str | None, record: bool) -> int:
    """Print the refusal and return REFUSED; with VIBEGIT_ALLOW=1, let it through
    instead (``record``: as an ``allowed-commit`` event)."""
    if os.environ.get(ALLOW):
        if record and block.workflow:
            _record_allowed(repo, block, commit, branch)
        else:
            print(f"vibegit: {ALLOW}=1: commit let through although {block.why}", file=sys.stderr)
        return OK
    tell(block.why, block.fix, command, str(repo.git_dir))
    return REFUSED


def failed(reason: str) -> int:
    """The lock check itself failed: the commit is blocked (fail closed), unless allowed."""
    if os.environ.get(ALLOW):
        print(f"vibegit: the lock check failed ({reason}); {ALLOW}=1: git goes on", file=sys.stderr)
        return OK
    print(f"vibegit: commit blocked: the lock check failed: {reason}.", file=sys.stderr)
    print(
        f"vibegit: run 'vibegit doctor' to see what is wrong; or let this one through with '{ALLOW}=1 git …'.",
        file=sys.stderr,
    )
    return REFUSED


def _record_allowed(repo: git.Repo, block: Block, commit: str | None, branch: str | None) -> None:
    from vibegit import app  # the event pipeline: only when a commit is let through
    from vibegit.core import lifecycle

    ctx = app.open_repo(repo.toplevel)
    e = app.facts(ctx)
    try:
        written = app.record(
            ctx,
            lambda s: lifecycle.allowed_commit(s, e, commit, branch, block.why),
            e,
            workflow=block.workflow,
            announce=False,
        )
    except VibegitError as err:
        print(f"vibegit: {ALLOW}=1: commit let through; it could not be recorded: {err}", file=sys.stderr)
        return
    print(
        f"vibegit: {ALLOW}=1: commit let through while workflow {block.name!r} holds the lock; "
        f"recorded as event {written.commit[:10]} (vibegit log)",
        file=sys.stderr,
    )
