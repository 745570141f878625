"""``install`` / ``uninstall``: the git hooks (infra/hookfiles.py) and, with
``--agent``, the agents' session hooks (infra/agentfiles.py)."""

from __future__ import annotations

from vibegit.errors import OK
from vibegit.infra import agentfiles, git, hookfiles


def install(hooks: list[str] | None, agents: list[str] | None) -> int:
    git.find_repo()  # a working tree: a bare repository has no commits to guard nor worktree to report to
    return _both(hooks, agents, installing=True)


def uninstall(hooks: list[str] | None, agents: list[str] | None) -> int:
    return _both(hooks, agents, installing=False)


def _both(hooks: list[str] | None, agents: list[str] | None, installing: bool) -> int:
    """With only ``--agent``, just the agents' settings; otherwise the git hooks
    too. Every agent settings file is read and checked before anything is written."""
    planned = agentfiles.plan_all(agents, installing) if agents else None
    code = OK
    if hooks or not agents:
        code = hookfiles.install(hooks or None) if installing else hookfiles.uninstall(hooks or None)
    if planned is not None and code == OK:
        code = agentfiles.carry_out(*planned, installing, print)
    return code
