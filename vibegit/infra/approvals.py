"""The approvals vibegit's pre-tool hook leaves when it makes an agent ask
the person before ``vibegit complete|abort|unlock`` runs (core/agentturn.py
says which hold): one small file per agent and decision in this worktree's
git directory, taken (renamed away, then read) by the one command it lets
through, so it is used once; Stop clears them at the end of every turn.
"""

from __future__ import annotations

import json
import os

from vibegit.core import agentturn
from vibegit.errors import BadInput
from vibegit.infra import fs, git

DIR = "vibegit/approvals"


def _rel(agent: str, verb: str) -> str:
    return f"{DIR}/{agent}.{verb}.json"


def leave(repo: git.Repo, agent: str, verb: str, workflow: str, session: str, now: float) -> None:
    token = {"agent": agent, "verb": verb, "workflow": workflow, "session": session, "created": now}
    fs.write(repo.git_dir, _rel(agent, verb), json.dumps(token).encode())


def take(repo: git.Repo, agent: str, verb: str, workflow: str, session: str, now: float) -> bool:
    """Whether an approval for this lets the command through; it is gone either way."""
    taken = f"{DIR}/{agent}.{verb}.{os.getpid()}.taken"
    try:
        fs.rename(repo.git_dir, _rel(agent, verb), taken, overwrite=True)
    except (OSError, BadInput):
        return False  # none, or another command took it first
    try:
        token = json.loads(fs.read(repo.git_dir, taken, 4096) or b"null")
    except (ValueError, BadInput):
        token = None
    finally:
        fs.remove(repo.git_dir, taken)
    return agentturn.approval_holds(token, agent, verb, workflow, session, now)


def clear(repo: git.Repo, agent: str) -> None:
    """Every approval of ``agent`` here goes (its turn ended: what was allowed has run)."""
    if fs.lstat(repo.git_dir, DIR) is None:
        return
    for verb in agentturn.DECISIONS:
        fs.remove(repo.git_dir, _rel(agent, verb))
