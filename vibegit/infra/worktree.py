"""Reading the user's working tree: a checkpoint's file:line (checked when
it is taken, found again later), and the docs vibegit learns from."""

from __future__ import annotations

import os
import stat

from vibegit.core.anchors import Where, relocate
from vibegit.core.messages import t
from vibegit.core.model import Checkpoint, State
from vibegit.core.settings import KNOWLEDGE_DOCS
from vibegit.core.text import check_relative_path
from vibegit.errors import BadInput
from vibegit.infra import fs, git
from vibegit.infra.formats import MAX_FILE_BYTES

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from vibegit.core.learn import DocChange

MAX_BYTES = 4 << 20


def locate(top: str, file: str | None, line: int | None, text: str | None) -> Where | None:
    """The anchor in the working tree under ``top``; None without a file:line."""
    if not file or not line:
        return None
    try:  # the path comes from the state branch: read without following a link
        found = fs.lstat(top, file)
        if found is None:
            return Where("no-file")
        data = fs.read(top, file, MAX_BYTES) if stat.S_ISREG(found.st_mode) else None
    except (OSError, BadInput):
        return Where("unknown", line)
    if data is None:
        return Where("unknown", line)
    return relocate(data.decode("utf-8", errors="replace").splitlines(), line, text)


def anchor(top_dir: str, file: str | None, line: int | None, action: str | None) -> Checkpoint:
    """A checkpoint position checked against the working tree."""
    action = action or ""  # checked by the lifecycle rule
    if file is None:
        if line is not None:
            raise BadInput(t("checkpoint.line_needs_file"))
        return Checkpoint(action=action)
    top = os.path.realpath(top_dir)
    path = os.path.realpath(os.path.join(os.getcwd(), file))  # an absolute file stays itself
    below = fs.relative(path, top)
    if below is None or below == ".":
        raise BadInput(t("checkpoint.outside", file=file, top=top))
    rel = check_relative_path(below, f"--file {file}")
    if not os.path.isfile(path):
        raise BadInput(t("checkpoint.no_file", file=file))
    if line is None:
        return Checkpoint(file=rel, action=action)
    with open(path, "rb") as f:
        lines = f.read().splitlines()
    if not 1 <= line <= len(lines):
        raise BadInput(t("checkpoint.no_line", line=line, rel=rel, n=len(lines)))
    text = lines[line - 1].decode("utf-8", errors="replace").strip()[:200]
    return Checkpoint(file=rel, line=line, line_text=text, action=action)


def learn_setting(config: git.Config, mirror_dir: str) -> tuple[str, ...] | None:
    """The docs to learn from: ``git config vibegit.learn`` (several values or
    comma-separated; "" or false switches learning off), else the older
    ``vibegit.learn.docs``, else the defaults. None: learning is off."""
    from vibegit.core.learn import watched  # learning only: a checkpoint's line needs none of it

    values = config.every("vibegit.learn") or config.every("vibegit.learn.docs")
    docs = watched(values or None, mirror_dir)  # [""]: set to nothing (off); []: unset
    for doc in docs or ():
        check_relative_path(doc, t("learn.setting", doc=doc))
    return docs


def in_state(path: str, mirror_dir: str) -> str | None:
    """The name of a knowledge doc kept on the state branch (``conventions.md``
    in the mirror folder), or None for a doc of the working tree."""
    folder, _, name = path.rpartition("/")
    return name if folder == mirror_dir and name in KNOWLEDGE_DOCS else None


def _change(repo: git.Repo, state: State, rel: str, data: bytes) -> DocChange | None:
    """What ``rel`` teaches now, when that differs from what it taught last time
    (a doc edited outside its rules teaches nothing new: no event)."""
    from vibegit.core.learn import DocChange, extract, is_knowledge_doc

    oid = git.blob_id(repo, data)
    if oid == state.memory.learned.get(rel):
        return None
    items = extract(data.decode("utf-8", errors="replace"), every_item=is_knowledge_doc(rel))
    taught = {(e.heading, e.text, e.category) for e in state.memory.entries if e.source == rel}
    if {(i.heading, i.text, i.category) for i in items} == taught:
        return None
    return DocChange(rel, oid, items)


def changed_docs(
    repo: git.Repo, state: State, docs: tuple[str, ...], mirror_dir: str, notices: list[str]
) -> tuple[DocChange, ...]:
    """The docs of the working tree among ``docs`` whose rules changed. A doc
    that is not there is no change: what it taught stays (it may be on
    another branch, or this clone may not have it)."""
    top = os.path.realpath(repo.toplevel)
    changes: list[DocChange] = []
    for rel in docs:
        if in_state(rel, mirror_dir):
            continue  # read from the state (knowledge_changes)
        path = os.path.join(repo.toplevel, rel)
        if not os.path.isfile(path):
            continue
        if fs.relative(os.path.realpath(path), top) in (None, "."):
            notices.append(t("learn.outside", doc=rel))
            continue
        size = os.stat(path).st_size
        if size > MAX_FILE_BYTES:
            notices.append(t("learn.too_large", doc=rel, size=size))
            continue
        with open(path, "rb") as f:
            data = f.read()
        change = _change(repo, state, rel, data)
        if change is not None:
            changes.append(change)
    return tuple(changes)


def knowledge_changes(repo: git.Repo, state: State, docs: tuple[str, ...], mirror_dir: str) -> tuple[DocChange, ...]:
    """The knowledge docs among ``docs`` whose rules changed, read from the
    state (the mirror's edits adopted into it): the same on every machine."""
    changes = []
    for rel in docs:
        name = in_state(rel, mirror_dir)
        text = state.memory.docs.get(name) if name else None
        if text is not None:
            change = _change(repo, state, rel, text.encode())
            if change is not None:
                changes.append(change)
    return tuple(changes)
