"""``post-rewrite``: after ``git commit --amend`` or a rebase, a checkpoint
that named a rewritten commit follows it to the new one (one event)."""

from __future__ import annotations

import os
import sys

from vibegit import app
from vibegit.core import lifecycle, workflows
from vibegit.core.model import ACTIVE
from vibegit.errors import OK, Refused
from vibegit.infra import git, store


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
    head = git.head_commit(repo)
    if head is None or git.is_ancestor(repo, commit, "HEAD"):
        return {}  # still in HEAD's history: not rewritten
    if command == "amend":
        return {commit: head} if git.commit_of(repo, "HEAD@{1}") == commit else {}
    orig = git.commit_of(repo, "ORIG_HEAD")
    if orig is None or not git.is_ancestor(repo, commit, orig):
        return {}

    def patch_ids(spec: list[str]) -> dict[str, str]:
        patches = repo.git("log", "-p", "--format=commit %H", *spec, "--").stdout
        ids = repo.git("patch-id", "--stable", input=patches).stdout.decode().split()
        return dict(zip(ids[1::2], ids[0::2], strict=False))  # commit -> patch id

    wanted = patch_ids(["-1", commit]).get(commit)
    if wanted is None:
        return {}
    for new, pid in patch_ids([f"{orig}..{head}"]).items():
        if pid == wanted:
            return {commit: new}
    return {}


def run(args: list[str]) -> int:
    command = args[0] if args else os.environ.get("PRE_COMMIT_REWRITE_COMMAND", "rewrite")
    mapping = _mapping_from_stdin()
    h = app.enter()
    e = app.facts(h)
    loaded = store.read_state(h.repo, h.settings)
    mine = workflows.bound_here(loaded.index, e)  # the workflow of the branch rewritten
    if mine is None:
        return OK
    state = store.flow(h.repo, git.reader(h.repo), loaded, mine.id).state
    point = state.checkpoint
    if state.workflow.status not in ACTIVE or point is None or not point.commit:
        return OK
    if not mapping:
        mapping = _mapping_from_history(h.repo, command, point.commit)
    if point.commit not in mapping:
        return OK
    try:
        app.record(h, lambda s: lifecycle.rewrite_checkpoint(s, e, mapping, command), e, workflow=mine.id)
    except Refused:  # another writer moved the checkpoint meanwhile: nothing left to do
        pass
    return OK
