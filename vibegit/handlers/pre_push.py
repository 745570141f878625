"""``pre-push``: carry the state branch along to the remote pushed to,
fast-forward only, never failing the user's push because of it; refuse a
state that holds credentials."""

from __future__ import annotations

import os
import sys

from vibegit.errors import OK, REFUSED
from vibegit.handlers.common import open_for_hook
from vibegit.infra import git, secretscan


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
        return (
            f"vibegit: {state_branch} was not pushed to {remote}: the remote's copy has moved on "
            f"(not a fast-forward); run 'vibegit sync' to merge and push it. Your push goes on."
        )
    return (
        f"vibegit: {state_branch} was not pushed to {remote} ({pushed.detail}); 'vibegit sync' retries. "
        "Your push goes on."
    )


def run(args: list[str]) -> int:
    remote, refs = _pushed_refs(args)
    repo, conf = open_for_hook()
    ref = conf.state_ref
    if not remote:
        return OK
    if ref in refs or conf.state_branch in refs:  # the user's push carries the state branch itself
        refusal = secretscan.check(repo, conf)
        if refusal:
            print(f"vibegit: {refusal}", file=sys.stderr, flush=True)
            return REFUSED
        return OK
    if git.commit_of(repo, ref) is None:
        return OK
    refusal = secretscan.check(repo, conf)
    if refusal:
        print(f"vibegit: {refusal}. Your push goes on without it.", file=sys.stderr, flush=True)
        return OK
    line = push_state(repo, conf.state_branch, remote)
    if line:
        print(line, file=sys.stderr, flush=True)
    return OK
