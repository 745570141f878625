"""``post-checkout``: the startup check. After a branch checkout, the
recovery report while a workflow runs or is paused; silent otherwise."""

from __future__ import annotations

import os

from vibegit.core import report, workflows
from vibegit.core.model import State
from vibegit.core.report import Observed
from vibegit.core.text import clean
from vibegit.errors import OK
from vibegit.handlers.common import open_for_hook
from vibegit.infra import git, machine, snapshot, store


def run(args: list[str]) -> int:
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
    repo, conf = open_for_hook()
    e = machine.facts(repo)
    loaded = store.read_state(repo, conf)
    mine = workflows.bound_here(loaded.index, e)
    if mine is None:
        return OK
    state = store.flow(repo, git.reader(repo), loaded, mine.id).state
    if report.is_active(state):
        others = workflows.others(loaded.index, mine.id)
        text = report.render(state, conf.lang, new_head or None, _observe(repo, state), others, e)
        print(clean(text.rstrip("\n"), one_line=False), flush=True)
    return OK


def _observe(repo: git.Repo, state: State) -> Observed | None:
    """Where the anchor and snapshot stand now; the report goes out without it if that fails."""
    try:
        return snapshot.observe(repo, state, compare=False)  # no working-tree scan on every checkout
    except Exception:
        return None
