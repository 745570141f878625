"""Learning from project docs (SPEC §5; the Lifecycle skill's watchDocs).

The watched docs are read from the working tree. A doc whose blob id differs
from the one remembered in ``memory.yaml`` is learned again: its bullet and
numbered items become ``project_knowledge`` entries (with the doc and the
heading above them), replacing what that doc taught before. Items whose text
and heading did not change keep their ids.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace

from vibegit import git, lifecycle, store
from vibegit.errors import OK, VibegitError
from vibegit.files import MAX_FILE_BYTES
from vibegit.paths import check_relative_path
from vibegit.lifecycle import Env
from vibegit.model import Event, MemoryCategory, MemoryEntry, State

DEFAULT_DOCS = (
    "project_document/.ai_state/conventions.md",
    "project_document/.ai_state/decisions.md",
    "README.md",
    "CONTRIBUTING.md",
)
MAX_ITEMS_PER_DOC = 200
MAX_ITEM_CHARS = 500

_HEADING = re.compile(r"(#{1,6})\s+(.*?)\s*#*\s*\Z")
_ITEM = re.compile(r"(\s*)(?:[-*+]|\d{1,3}[.)])\s+(.*)\Z")
_FENCE = re.compile(r"\s*(```|~~~)")
_TOC_LINK = re.compile(r"\[[^\]]*\]\(#[^)]*\)\Z")  # a table of contents, not a rule
_CHECKBOX = re.compile(r"\[[ xX]\]\s+")


@dataclass(frozen=True)
class Item:
    heading: str | None
    text: str


@dataclass(frozen=True)
class DocChange:
    path: str
    oid: str | None  # None: the doc is gone, forget what it taught
    items: tuple[Item, ...]


def extract(text: str) -> tuple[Item, ...]:
    """Bullet and numbered items with the nearest heading above them.

    Fenced code and HTML comments are skipped; an indented line that is not
    an item continues the item above it."""
    items: list[Item] = []
    heading: str | None = None
    in_fence = in_comment = False
    current: list[str] | None = None

    def flush() -> None:
        nonlocal current
        if current:
            joined = " ".join(" ".join(current).split())
            joined = _CHECKBOX.sub("", joined, count=1) if _CHECKBOX.match(joined) else joined
            if joined and not _TOC_LINK.match(joined):
                if len(joined) > MAX_ITEM_CHARS:
                    joined = joined[: MAX_ITEM_CHARS - 1] + "…"
                items.append(Item(heading, joined))
        current = None

    for line in text.splitlines():
        if in_comment:
            in_comment = "-->" not in line
            continue
        if _FENCE.match(line):
            flush()
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        stripped = line.strip()
        if stripped.startswith("<!--"):
            flush()
            in_comment = "-->" not in stripped
            continue
        head = _HEADING.match(stripped) if not line.startswith((" ", "\t")) else None
        if head:
            flush()
            heading = head.group(2).strip() or None
            continue
        item = _ITEM.match(line)
        if item and item.group(2).strip():
            flush()
            current = [item.group(2).strip()]
            continue
        if current is not None and stripped and line[:1] in (" ", "\t"):
            current.append(stripped)
            continue
        flush()
    flush()
    return tuple(items[:MAX_ITEMS_PER_DOC])


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


class NothingNew(VibegitError):
    """Raised inside the transaction when another process learned it first."""

    code = OK


def apply(state: State, env: Env, changes: tuple[DocChange, ...]) -> lifecycle.Result:
    """Replace each changed doc's entries; unchanged items keep their ids."""
    from vibegit.memory import next_ids

    memory = state.memory
    learned = dict(memory.learned)
    entries = list(memory.entries)
    parts: list[str] = []
    for change in changes:
        if learned.get(change.path) == change.oid:
            continue
        old = {(e.heading, e.text): e for e in entries if e.source == change.path}
        entries = [e for e in entries if e.source != change.path]
        fresh = [i for i in dict.fromkeys(change.items) if (i.heading, i.text) not in old]
        ids = iter(next_ids(replace(memory, entries=tuple(entries) + tuple(old.values())), len(fresh)))
        kept = 0
        for item in dict.fromkeys(change.items):
            prior = old.get((item.heading, item.text))
            if prior is not None:
                entries.append(prior)
                kept += 1
            else:
                entries.append(MemoryEntry(next(ids), MemoryCategory.PROJECT_KNOWLEDGE, item.text,
                                           created_at=env.now, source=change.path, heading=item.heading))
        if change.oid is None:
            learned.pop(change.path, None)
            parts.append(f"{change.path} gone (-{len(old)})")
        else:
            learned[change.path] = change.oid
            parts.append(f"{change.path} +{len(fresh)} -{len(old) - kept}")
    if not parts:
        raise NothingNew("nothing new to learn")
    new_memory = replace(memory, entries=tuple(entries), learned=learned)
    return lifecycle.touch(state, env, memory=new_memory), Event("learn", "; ".join(parts))


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
        written = commands.record(h, lambda s: apply(s, e, changes), e)
    except NothingNew:
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

