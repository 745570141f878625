"""Learning from project docs (SPEC §5; the Lifecycle skill's watchDocs).

The watched docs are read from the working tree. A doc whose blob id differs
from the one remembered in ``memory.yaml`` is learned again: its bullet and
numbered items become ``project_knowledge`` entries (with the doc and the
heading above them), replacing what that doc taught before. Items whose text
and heading did not change keep their ids.
"""
from __future__ import annotations

import hashlib

from vibegit import git, store
from vibegit.core import lifecycle
from vibegit.core.learn import DEFAULT_DOCS, DocChange, extract
from vibegit.core.model import MemoryCategory, State
from vibegit.core.text import check_relative_path
from vibegit.errors import OK, VibegitError
from vibegit.files import MAX_FILE_BYTES


def watched_docs(repo: git.Repo) -> tuple[str, ...]:
    """``vibegit.learn.docs``: multi-valued and/or comma-separated; the defaults otherwise."""
    proc = repo.git("config", "--get-all", "vibegit.learn.docs", check=False)
    values = [p.strip() for line in proc.stdout.decode(errors="replace").splitlines() for p in line.split(",")]
    docs = tuple(dict.fromkeys(v for v in values if v)) or DEFAULT_DOCS
    for doc in docs:
        check_relative_path(doc, f"git config vibegit.learn.docs: {doc}")
    return docs


def blob_id(repo: git.Repo, data: bytes) -> str:
    return hashlib.new(repo.object_format, f"blob {len(data)}\0".encode() + data).hexdigest()


def scan(repo: git.Repo, state: State, notices: list[str]) -> tuple[DocChange, ...]:
    """The watched docs whose rules differ from what they taught last time
    (a doc edited outside its items teaches nothing new: no event)."""
    top = repo.toplevel.resolve()
    changes: list[DocChange] = []
    for rel in watched_docs(repo):
        path = repo.toplevel / rel
        known = state.memory.learned.get(rel)
        taught = {(e.heading, e.text) for e in state.memory.entries if e.source == rel}
        if not path.is_file():
            if taught:
                changes.append(DocChange(rel, None, ()))
            continue
        if top not in path.resolve().parents:
            notices.append(f"{rel}: resolves outside the repository; not learned")
            continue
        if path.stat().st_size > MAX_FILE_BYTES:
            notices.append(f"{rel}: too large to learn from ({path.stat().st_size} bytes)")
            continue
        data = path.read_bytes()
        oid = blob_id(repo, data)
        if oid != known:
            items = extract(data.decode("utf-8", errors="replace"))
            if {(i.heading, i.text) for i in items} != taught:
                changes.append(DocChange(rel, oid, items))
    return tuple(changes)


def learn(quiet: bool = False) -> int:
    """``vibegit learn``; ``quiet`` (phase exits) says nothing when nothing changed."""
    from vibegit import commands

    h = commands.here()
    state = store.read_state(h.repo, h.settings).state
    notices: list[str] = []
    changes = scan(h.repo, state, notices)
    for notice in notices:
        commands.warn(notice)
    if not changes:
        if not quiet:
            docs = watched_docs(h.repo)
            present = sum((h.repo.toplevel / d).is_file() for d in docs)
            commands.say(f"Nothing new to learn: {present} of {len(docs)} watched docs present, none changed "
                         "since the last learn.")
        return OK
    e = commands.env(h)
    try:
        written = commands.record(h, lambda s: lifecycle.learn(s, e, changes), e)
    except lifecycle.NothingNew:
        return OK
    if not quiet:
        knowledge = [x for x in written.state.memory.entries if x.category is MemoryCategory.PROJECT_KNOWLEDGE]
        commands.say(f"{len(knowledge)} project notes remembered; see 'vibegit memory list'.")
    return OK


def after_phase() -> None:
    """Phase exits learn too (the skill's onPhaseExit → watchDocs); a failure
    here never undoes the phase change that is already recorded."""
    from vibegit import commands

    try:
        learn(quiet=True)
    except (VibegitError, OSError) as err:
        commands.warn(f"the phase is recorded, but learning from the docs failed: {err}")

