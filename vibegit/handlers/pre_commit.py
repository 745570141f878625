"""``pre-commit``: the early lock check (before git opens the editor). The
same decision as ``reference-transaction`` (handlers/lockcheck.py), which
also guards the commits that skip pre-commit."""

from __future__ import annotations

import os

from vibegit.errors import OK
from vibegit.handlers import lockcheck
from vibegit.infra import git, hookplace


def run(args: list[str]) -> int:
    repo = git.find_repo()
    branch = git.head_branch(repo)
    config = git.read_config(repo)
    block = lockcheck.blocking(repo, branch, config)
    if block is None:
        return OK
    # With VIBEGIT_ALLOW=1 the reference-transaction hook records the commit
    # it lets through (it knows the commit); without that hook, this one does.
    later = hookplace.is_ours(os.path.join(hookplace.place_of(repo, config).hooks, hookplace.LOCK_HOOK))
    return lockcheck.refuse(repo, block, None, branch, record=not later)
