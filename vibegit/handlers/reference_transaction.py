"""``reference-transaction``: the lock check no commit path skips.

git runs it for every ref update; the shim hands over only the "prepared"
updates of HEAD and branches, and only while a lock may be held. A commit
that no ref reaches yet (one just made by commit, merge, cherry-pick,
revert, rebase or am, ``--no-verify`` or not) is checked by the same
decision as pre-commit; refusing aborts the whole transaction, so the
branch does not move. Fast-forwards, resets and new branches at known
commits move nothing new onto a branch and pass."""

from __future__ import annotations

import sys

from vibegit.core.settings import settings
from vibegit.errors import OK, BadInput
from vibegit.handlers import lockcheck
from vibegit.infra import git


def run(args: list[str]) -> int:
    if args[:1] != ["prepared"]:
        return OK
    updates = [line.split() for line in sys.stdin.read().splitlines()]
    repo = git.find_repo()
    config = git.read_config(repo)
    try:
        state_ref = settings(config, fallback=lambda _: None).state_ref
    except BadInput:
        state_ref = ""  # the decision below reports the setting
    checked: set[str] = set()
    for parts in updates:
        if len(parts) != 3:
            continue
        new, ref = parts[1], parts[2]
        if ref == state_ref or new in checked:
            continue
        if ref.startswith("refs/heads/"):
            branch: str | None = ref[len("refs/heads/") :]
        else:
            branch = git.head_branch(repo) or git.rebasing_branch(repo)
        with git.new_commit(repo, new) as is_new:  # git walks the refs while the decision is made
            block = lockcheck.blocking(repo, branch, config)
            if not is_new():
                continue
        checked.add(new)
        if block is not None:
            return lockcheck.refuse(repo, block, new, branch, record=True)
    return OK
