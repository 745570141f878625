"""Reading the user's working tree: a checkpoint's file:line (checked when
it is taken, found again later), and the docs vibegit learns from."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from vibegit.core.anchors import Where, relocate
from vibegit.core.learn import DEFAULT_DOCS, DocChange, extract
from vibegit.core.model import Checkpoint, State
from vibegit.core.text import check_relative_path
from vibegit.errors import BadInput
from vibegit.infra import fs, git
from vibegit.infra.formats import MAX_FILE_BYTES

MAX_BYTES = 4 << 20


def locate(top: Path, file: str | None, line: int | None, text: str | None) -> Where | None:
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


def anchor(top_dir: Path, file: str | None, line: int | None, action: str | None) -> Checkpoint:
    """A checkpoint position checked against the working tree."""
    action = action or ""  # checked by the lifecycle rule
    if file is None:
        if line is not None:
            raise BadInput("--line needs --file")
        return Checkpoint(action=action)
    top = top_dir.resolve()
    path = (Path.cwd() / file).resolve() if not os.path.isabs(file) else Path(file).resolve()
    if top not in path.parents:
        raise BadInput(f"--file {file}: is outside the repository {top}")
    rel = check_relative_path(path.relative_to(top).as_posix(), f"--file {file}")
    if not path.is_file():
        raise BadInput(f"--file {file}: no such file in the working tree")
    if line is None:
        return Checkpoint(file=rel, action=action)
    with path.open("rb") as f:
        lines = f.read().splitlines()
    if not 1 <= line <= len(lines):
        raise BadInput(f"--line {line}: {rel} has {len(lines)} line(s)")
    text = lines[line - 1].decode("utf-8", errors="replace").strip()[:200]
    return Checkpoint(file=rel, line=line, line_text=text, action=action)


def watched_docs(repo: git.Repo) -> tuple[str, ...]:
    """``vibegit.learn.docs``: multi-valued and/or comma-separated; the defaults otherwise."""
    values = [p.strip() for line in git.config_values(repo, "vibegit.learn.docs") for p in line.split(",")]
    docs = tuple(dict.fromkeys(v for v in values if v)) or DEFAULT_DOCS
    for doc in docs:
        check_relative_path(doc, f"git config vibegit.learn.docs: {doc}")
    return docs


def blob_id(repo: git.Repo, data: bytes) -> str:
    return hashlib.new(repo.object_format, f"blob {len(data)}\0".encode() + data).hexdigest()


def changed_docs(repo: git.Repo, state: State, notices: list[str]) -> tuple[DocChange, ...]:
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
