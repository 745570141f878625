"""``vibegit hook NAME``: what git hooks (and agent hooks) call.

A dispatch table from hook name to a function of its arguments returning
an exit code. The raw shims in hooks/ already decided, without starting
Python, that there is something to do; the pre-commit framework calls these
unconditionally. Nothing here imports typer, GitPython or filelock, except
post-rewrite, which records an event.

Git hooks never fail a git command because vibegit broke: every error
becomes one line and exit 0. The one exception is pre-commit's refusal,
exit 1, whose job is to block.
"""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Callable

from vibegit.infra import git
from vibegit.core.settings import Settings, settings
from vibegit.errors import OK, REFUSED, BadInput, VibegitError

if TYPE_CHECKING:
    from vibegit.core.model import State
    from vibegit.core.report import Observed

GIT_HOOKS = ("post-checkout", "pre-commit", "pre-push", "post-rewrite")

Hook = Callable[[list[str]], int]


def _here() -> tuple[git.Repo, Settings]:
    """The repository and its settings; a bad setting is reported and its safe
    default used, so a typo never switches the lock check off."""
    repo = git.find_repo()
    return repo, settings(git.read_config(repo), fallback=lambda message: print(f"vibegit: {message}", file=sys.stderr))


# -- pre-commit: the lock check -------------------------------------------------


def pre_commit(args: list[str]) -> int:
    from vibegit.infra import store

    repo, conf = _here()
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
    where = f"phase {phase.value} ({phase.title})" if phase else "no phase"
    if state.mode.step:
        where += f", step {state.mode.step}"
    task = state.task(state.workflow.current_task or "")
    doing = f"task {task.id}: {task.title}" if task else "no current task"
    if policy == "other-branches":
        why = (f"commits on {branch or 'a detached HEAD'} are blocked while workflow {name!r} runs on "
               f"{started_on or 'a detached HEAD'} (vibegit.blockCommits=other-branches)")
    else:
        why = f"workflow {name!r} holds the lock (vibegit.blockCommits={policy})"
    print(f"vibegit: commit blocked: {why}; {where}; {doing}.", file=sys.stderr)
    print("vibegit: unblock with 'vibegit pause', 'vibegit complete', 'vibegit unlock' or 'vibegit abort'; "
          "or commit anyway with 'git commit --no-verify'.", file=sys.stderr)
    return REFUSED


# -- post-checkout: the startup check --------------------------------------------


def post_checkout(args: list[str]) -> int:
    """Print the recovery report after a branch checkout while a workflow runs or is paused.

    File checkouts (``git checkout -- path``, flag 0) stay silent: the user
    is restoring a file, not arriving somewhere."""
    if len(args) >= 3:
        new_head, flag = args[1], args[2]
    else:  # the pre-commit framework passes them in the environment
        new_head = os.environ.get("PRE_COMMIT_TO_REF", "")
        flag = os.environ.get("PRE_COMMIT_CHECKOUT_TYPE", "1")
    if flag != "1":
        return OK
    from vibegit.infra import store
    from vibegit.core import report

    repo, conf = _here()
    state = store.read_state(repo, conf).state
    if report.is_active(state):
        print(report.render(state, conf.lang, new_head or None, _observe(repo, state)).rstrip("\n"), flush=True)
    return OK


def _observe(repo: git.Repo, state: State) -> Observed | None:
    """Where the anchor and snapshot stand now; the report goes out without it if that fails."""
    from vibegit.infra import snapshot

    try:
        return snapshot.observe(repo, state, compare=False)  # no working-tree scan on every checkout
    except Exception:  # noqa: BLE001 - a report without the observation beats no report
        return None


# -- pre-push: carry the state branch along ---------------------------------------


def _pushed_refs(args: list[str]) -> tuple[str, set[str]]:
    """The remote and every ref named by this push (git's stdin or pre-commit's env)."""
    if len(args) >= 1:
        refs: set[str] = set()
        for line in sys.stdin.read().splitlines():
            parts = line.split()
            if len(parts) == 4:
                refs.update((parts[0], parts[2]))
        return args[0], refs
    remote = os.environ.get("PRE_COMMIT_REMOTE_NAME") or os.environ.get("PRE_COMMIT_REMOTE_URL") or ""
    refs = {os.environ.get("PRE_COMMIT_LOCAL_BRANCH", ""), os.environ.get("PRE_COMMIT_REMOTE_BRANCH", "")}
    return remote, refs - {""}


def push_state(repo: git.Repo, state_branch: str, remote: str) -> str | None:
    """Push the state branch to ``remote``, fast-forward only; one line to show, or None."""
    pushed = git.push_ref(repo, f"refs/heads/{state_branch}", remote)
    if pushed.ok:
        return None if pushed.flags == ["="] else f"vibegit: pushed {state_branch} to {remote}"
    if "!" in pushed.flags:
        return (f"vibegit: {state_branch} was not pushed to {remote}: the remote's copy has moved on "
                f"(not a fast-forward); run 'vibegit sync' to merge and push it. Your push goes on.")
    return (f"vibegit: {state_branch} was not pushed to {remote} ({pushed.detail}); 'vibegit sync' retries. "
            "Your push goes on.")


def pre_push(args: list[str]) -> int:
    remote, refs = _pushed_refs(args)
    repo, conf = _here()
    ref = conf.state_ref
    if not remote:
        return OK
    from vibegit.infra import secretscan  # secrets stay home: stdlib and git only

    if ref in refs or conf.state_branch in refs:  # the user's push carries the state branch itself
        refusal = secretscan.check(repo, conf)
        if refusal:
            print(f"vibegit: {refusal}", file=sys.stderr, flush=True)
            return REFUSED
        return OK
    if repo.git("rev-parse", "-q", "--verify", f"{ref}^{{commit}}", check=False).returncode:
        return OK
    refusal = secretscan.check(repo, conf)
    if refusal:
        print(f"vibegit: {refusal}. Your push goes on without it.", file=sys.stderr, flush=True)
        return OK
    line = push_state(repo, conf.state_branch, remote)
    if line:
        print(line, file=sys.stderr, flush=True)
    return OK


# -- post-rewrite: the checkpoint follows amend and rebase ------------------------


def _mapping_from_stdin() -> dict[str, str]:
    if sys.stdin is None or sys.stdin.isatty():
        return {}
    mapping = {}
    for line in sys.stdin.read().splitlines():
        parts = line.split()
        if len(parts) >= 2:
            mapping[parts[0]] = parts[1]
    return mapping


def _mapping_from_history(repo: git.Repo, command: str, commit: str) -> dict[str, str]:
    """Where ``commit`` went, without git's stdin (the pre-commit framework drops it).

    amend: the reflog's previous HEAD. rebase: the commit of ORIG_HEAD's
    history with the same patch id that HEAD now has in its place."""
    def rev(name: str) -> str | None:
        out = repo.git("rev-parse", "-q", "--verify", f"{name}^{{commit}}", check=False).stdout.decode().strip()
        return out or None

    head = rev("HEAD")
    if head is None or repo.git("merge-base", "--is-ancestor", commit, "HEAD", check=False).returncode == 0:
        return {}  # still in HEAD's history: not rewritten
    if command == "amend":
        return {commit: head} if rev("HEAD@{1}") == commit else {}
    orig = rev("ORIG_HEAD")
    if orig is None or repo.git("merge-base", "--is-ancestor", commit, orig, check=False).returncode:
        return {}

    def patch_ids(spec: list[str]) -> dict[str, str]:
        patches = repo.git("log", "-p", "--format=commit %H", *spec, "--").stdout
        ids = repo.git("patch-id", "--stable", input=patches).stdout.decode().split()
        return dict(zip(ids[1::2], ids[0::2]))  # commit -> patch id

    wanted = patch_ids(["-1", commit]).get(commit)
    if wanted is None:
        return {}
    for new, pid in patch_ids([f"{orig}..{head}"]).items():
        if pid == wanted:
            return {commit: new}
    return {}


def post_rewrite(args: list[str]) -> int:
    from vibegit import commands
    from vibegit.infra import store
    from vibegit.core import lifecycle
    from vibegit.errors import Refused
    from vibegit.core.model import ACTIVE

    command = args[0] if args else os.environ.get("PRE_COMMIT_REWRITE_COMMAND", "rewrite")
    mapping = _mapping_from_stdin()
    h = commands.here()
    state = store.read_state(h.repo, h.settings).state
    point = state.checkpoint
    if state.workflow.status not in ACTIVE or point is None or not point.commit:
        return OK
    if not mapping:
        mapping = _mapping_from_history(h.repo, command, point.commit)
    if point.commit not in mapping:
        return OK
    e = commands.env(h)
    try:
        commands.record(h, lambda s: lifecycle.rewrite_checkpoint(s, e, mapping, command), e)
    except Refused:  # another writer moved the checkpoint meanwhile: nothing left to do
        pass
    return OK


# -- dispatch ---------------------------------------------------------------------

HOOKS: dict[str, Hook] = {
    "pre-commit": pre_commit,
    "post-checkout": post_checkout,
    "pre-push": pre_push,
    "post-rewrite": post_rewrite,
    "session-start": lambda args: __import__("vibegit.agents").agents.session_start(args),  # agent hooks
    "stop": lambda args: __import__("vibegit.agents").agents.stop(args),
}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in HOOKS:
        got = f"{argv[0]!r:.40}" if argv else "nothing"
        raise BadInput(f"vibegit hook: got {got}; expected one of: {', '.join(HOOKS)}")
    name, args = argv[0], argv[1:]
    hook = HOOKS[name]
    if name in GIT_HOOKS:
        if os.environ.get(git.IN_HOOK):
            return OK  # a git command started by vibegit itself (the state push)
        for var in git.HOOK_GIT_VARS:  # ours run on other refs, in the same repository
            os.environ.pop(var, None)
        os.environ[git.IN_HOOK] = "1"
    try:
        return hook(args)
    except VibegitError as err:
        print(f"vibegit: {name} hook: {err} (git goes on)", file=sys.stderr)
    except Exception as err:  # never break git: one line, a log, exit 0
        from vibegit.errors import log_unexpected

        where = log_unexpected(["hook", *argv])
        print(f"vibegit: {name} hook failed: {type(err).__name__}: {err} (details in {where}; git goes on)",
              file=sys.stderr)
    return OK
