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
from vibegit.core.text import clean
from vibegit.core.workflows import Summary, belongs_here, bound_here
from vibegit.errors import OK, REFUSED, BadInput, VibegitError
from vibegit.infra import git, machine, store

ALLOW = "VIBEGIT_ALLOW"
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
        return Block("", str(err), t("block.fix_setting"))
    messages.use(conf.lang)
    if conf.block_commits == "never":  # the user's choice: nothing blocks, as the shims' fast path says too
        return None
    try:
        loaded = store.read_state(repo, conf)
    except VibegitError as err:
        return Block("", t("block.unreadable", branch=conf.state_branch, error=err), REPAIR)
    if loaded.head is None:
        if git.resolve(repo, conf.state_ref) is not None:
            return Block("", t("block.not_commit", ref=conf.state_ref), REPAIR)
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
            why = t("block.flow_unreadable", name=candidate.name, where=candidate.where(), error=err)
            return Block("", why, REPAIR)
        if state.lock is not None and state.lock.locked:  # a paused workflow keeps the file with locked: false
            named = bound_here(loaded.index, e)  # the workflow vibegit's commands act on here without --workflow
            return _rule(state, conf, branch, named is None or named.id != candidate.id)
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
        return Block("", t("block.mirror_unreadable", branch=conf.state_branch, error=err), REPAIR)
    if shown is None or not shown.locked:
        return None
    why = t("block.vanished", branch=conf.state_branch, mirror=conf.mirror_dir, name=shown.workflow)
    return Block("", why, t("block.fix_vanished", repair=REPAIR))


def _rule(state: State, conf: Settings, branch: str | None, name_it: bool) -> Block:
    """Why the workflow that holds the lock blocks the commit, and the commands
    that unblock it (``name_it``: with ``--workflow``, which this place alone does not choose)."""
    name = state.mode.workflow_name or state.workflow.id
    detached = t("block.detached")
    if conf.block_commits == "other-branches":
        why = t("block.other_branches", here=branch or detached, name=name, there=state.workflow.branch or detached)
    else:
        why = t("block.always", name=name, branch=branch or t("block.this_detached"))
    task = state.task(state.workflow.current_task or "")
    doing = (task.id, task.title) if task else None
    phase = state.mode.phase.value if state.mode.phase else None
    return Block(state.workflow.id, reason(why, phase, state.mode.step, doing), _unblock(state, name_it), name)


def _unblock(state: State, name_it: bool) -> str:
    """The commands that release the lock of ``state``'s workflow: 'vibegit complete' only when it may complete."""
    from vibegit.core import lifecycle  # only when a commit is refused

    flag = f" --workflow {state.workflow.id}" if name_it else ""
    try:
        lifecycle.check_can_complete(state)
    except VibegitError:
        return t("block.fix_running", flag=flag)
    return t("block.fix_done", flag=flag)


def reason(why: str, phase: str | None, step: str | None, task: tuple[str, str] | None) -> str:
    """``why`` the commit is blocked, then where the workflow stands (phase, step, current task)."""
    where = t("block.phase", phase=phase, long=PHASE_TITLES[phase]) if phase else t("block.no_phase")
    if step:
        where += t("block.step", step=step)
    doing = t("block.task", id=task[0], title=task[1]) if task else t("block.no_task")
    return f"{why}; {where}; {doing}"


def _say(text: str) -> None:
    """One line on stderr, made inert: it names the workflow and the task as the state has them."""
    print(clean(text, one_line=False), file=sys.stderr)


def tell(repo: git.Repo, block: Block, commit: str | None) -> None:
    """The refusal: why, how to unblock, how to keep the commit's message
    (``commit``: the refused commit, when one was made) and how to leave a
    rebase it stopped."""
    _say(t("block.blocked", why=block.why))
    recorded = t("block.recorded") if block.workflow else ""  # a doubt blocks: no workflow to record it in
    _say(t("block.unblock", fix=block.fix, allow=ALLOW, recorded=recorded))
    rebasing = any(os.path.isdir(os.path.join(repo.git_dir, d)) for d in ("rebase-merge", "rebase-apply"))
    again = None if rebasing or commit is None else _again(repo, commit)
    if commit is not None and again is not None:
        _say(t("block.message_kept", commit=commit[:12], command=again, allow=ALLOW))
    if rebasing:
        _say(t("block.rebase"))


def _again(repo: git.Repo, commit: str) -> str | None:
    """The git command that makes the refused ``commit`` again with its message
    (typed in an editor, it is nowhere else but .git/COMMIT_EDITMSG, among
    comments): None unless it was a commit on HEAD or an amend of it (a merge,
    for one, keeps its message in MERGE_MSG and a plain 'git commit' takes it)."""
    head = git.head_commit(repo)
    made = git.parents(repo, commit)
    if made == ([head] if head else []):
        amend = ""
    elif head is not None and made == git.parents(repo, head):
        amend = "--amend "
    else:
        return None
    short = commit[:12]
    if git.matches(repo, commit, index=True):
        return f"git commit {amend}-C {short}"  # the same files are staged: the same commit
    if git.matches(repo, commit, index=False):
        return f"git commit -a {amend}-C {short}"  # it was 'git commit -a': the index stayed as it was
    return f"git commit {amend}-c {short}"  # some paths only: the message, in the editor, for what is staged


def refuse(repo: git.Repo, block: Block, commit: str | None, branch: str | None, record: bool) -> int:
    """Print the refusal and return REFUSED; with VIBEGIT_ALLOW=1, let it through
    instead (``record``: as an ``allowed-commit`` event)."""
    if os.environ.get(ALLOW):
        if record and block.workflow:
            _record_allowed(repo, block, commit, branch)
        else:
            _say(t("block.allowed", allow=ALLOW, why=block.why))
        return OK
    tell(repo, block, commit)
    return REFUSED


def failed(reason: str) -> int:
    """The lock check itself failed: the commit is blocked (fail closed), unless allowed."""
    if os.environ.get(ALLOW):
        _say(t("block.failed_allowed", reason=reason, allow=ALLOW))
        return OK
    _say(t("block.failed", reason=reason))
    _say(t("block.failed_how", allow=ALLOW))
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
        _say(t("block.allowed_unrecorded", allow=ALLOW, error=err))
        return
    _say(t("block.allowed_recorded", allow=ALLOW, name=block.name, commit=written.commit[:10]))
