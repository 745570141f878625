"""Where and when this process runs: the host name locks record, and the
facts of the moment an event happens (time, worktree, HEAD and branch)."""

from __future__ import annotations

import os
import time

from vibegit.core.model import Env
from vibegit.core.text import escape_path
from vibegit.infra import git
from vibegit.infra.gitlite import this_host

__all__ = ["this_host"]  # re-exported: where locks are held


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())  # not datetime: it costs a millisecond to import


def worktree_name(repo: git.Repo) -> str:
    """This worktree as locks record it: its path, escaped to one printable line
    (a path may hold any byte but NUL and "/"; the state files hold text)."""
    return escape_path(str(repo.toplevel))


def facts(repo: git.Repo) -> Env:
    """This moment: time, host, worktree, HEAD and branch, fresh random ids."""
    stamp = now()
    return Env(
        now=stamp,
        host=this_host(),
        worktree=worktree_name(repo),
        head=git.head_commit(repo),
        branch=git.head_branch(repo),
        new_session_id=f"sess_{stamp[:10].replace('-', '')}_{os.urandom(3).hex()}",  # secrets.token_hex(3), without its import
        nonce=os.urandom(3).hex(),
    )
