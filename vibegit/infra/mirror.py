"""The working copy of the state in the working tree (SPEC §4).

After each event the state files are written to the mirror directory
(``project_document/.ai_state`` by default), which is listed in
``.git/info/exclude``. Hand edits are found by comparing the mirror with the
state commit it was last written from; they are validated and adopted by the
next event, or kept beside with a message, never dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from vibegit.core.model import Lock, State
from vibegit.core.settings import Settings
from vibegit.errors import BadInput
from vibegit.infra import git
from vibegit.infra.formats import (
    CHECKPOINT,
    CONTEXT,
    KANBAN,
    LOCK,
    MAX_FILE_BYTES,
    MEMORY,
    PARSERS,
    SESSION,
    STATE_FILES,
    derived_context_differs,
    parse_context,
    parse_kanban,
    parse_lock,
    parse_memory,
    parse_session,
)
from vibegit.infra.fs import remove_leftovers, write_atomic
from vibegit.infra.store import Loaded, read_files

MARKER = "vibegit-mirror"  # per worktree: the state commit the mirror shows (see Marker)


def directory(repo: git.Repo, settings: Settings) -> Path:
    path = repo.toplevel / settings.mirror_dir
    top = repo.toplevel.resolve()
    probe = path
    while probe != repo.toplevel and probe != probe.parent:  # no component may be a link
        if probe.is_symlink():
            raise BadInput(
                f"{settings.mirror_dir}: {probe.relative_to(repo.toplevel)} is a symbolic link; "
                "vibegit does not follow links in its mirror (remove it)"
            )
        probe = probe.parent
    if path.exists() and top not in path.resolve().parents:
        raise BadInput(f"{settings.mirror_dir}: resolves outside the repository")
    return path


def _marker(repo: git.Repo) -> Path:
    return repo.git_dir / MARKER


MAX_SHOWN = 50


def _shown(repo: git.Repo) -> list[str]:
    """The state commit the mirror shows, first; while a write is under way,
    also every commit whose files it may still hold: a write cut short by a
    kill leaves files of any of them, and none of those is a hand edit."""
    marker = _marker(repo)
    lines = marker.read_text().split() if marker.is_file() and not marker.is_symlink() else []
    return list(dict.fromkeys(line for line in lines if git.is_oid(line)))[:MAX_SHOWN]


class _Written:
    """What vibegit itself wrote to the mirror: the files of any state commit
    it may still show (read once each, on demand)."""

    def __init__(self, repo: git.Repo, cat: git.CatFile, shown: list[str], known: Loaded | None = None) -> None:
        self.repo, self.cat, self.shown = repo, cat, shown
        self.cache: dict[str, dict[str, bytes]] = {known.head: known.files} if known and known.head else {}

    def files(self, commit: str) -> dict[str, bytes]:
        if commit not in self.cache:
            self.cache[commit] = read_files(self.repo, self.cat, commit)[1] if self.cat.get(commit) else {}
        return self.cache[commit]

    def ours(self, name: str, disk: bytes) -> bool:
        """True when ``disk`` is a version vibegit wrote, not a hand edit."""
        return any(disk == self.files(commit).get(name) for commit in self.shown)


def _read(path: Path, rel: str) -> bytes | None:
    if path.is_symlink():
        raise BadInput(f"{rel}: is a symbolic link; vibegit does not follow links in its mirror (remove it)")
    if not path.is_file():
        return None
    if path.stat().st_size > MAX_FILE_BYTES:
        raise BadInput(f"{rel}: too large ({path.stat().st_size} bytes, at most {MAX_FILE_BYTES})")
    return path.read_bytes()


def adopt(repo: git.Repo, settings: Settings, cat: git.CatFile, loaded: Loaded, notices: list[str]) -> State:
    """The branch state with the mirror's hand edits applied (validated)."""
    shown = _shown(repo)
    mdir = directory(repo, settings)
    state = loaded.state
    if not shown or not mdir.is_dir():
        return state
    base = shown[0]
    written = _Written(repo, cat, shown, loaded)
    base_files = written.files(base)
    for name in STATE_FILES:
        rel = f"{settings.mirror_dir}/{name}"
        disk = _read(mdir / name, rel)
        if disk is None:
            if name == LOCK and state.lock is not None and LOCK in base_files:
                notices.append(
                    f"{rel} was deleted by hand; the lock stays (release it with vibegit pause, unlock or complete)"
                )
            continue
        if disk == loaded.files.get(name) or written.ours(name, disk):
            continue  # the branch's already, or unchanged (perhaps left by a write cut short by a kill)
        if loaded.head != base and loaded.files.get(name) != base_files.get(name):
            _keep_beside(
                mdir / name,
                disk,
                ".conflict",
                notices,
                f"your edit of {rel} conflicts with a newer state from elsewhere",
            )
            continue
        state = _adopt_one(name, disk, rel, state, mdir, notices)
    return state


def _keep_beside(path: Path, data: bytes, suffix: str, notices: list[str], why: str) -> None:
    kept = path.with_name(path.name + suffix)
    kept.write_bytes(data)
    notices.append(f"{why}; kept as {kept.name} beside it")


def _adopt_one(name: str, disk: bytes, rel: str, state: State, mdir: Path, notices: list[str]) -> State:
    if name == SESSION:
        edited = parse_session(disk, rel)
        for what, mine, theirs in (
            ("workflow.status", edited.workflow.status, state.workflow.status),
            ("mode.type", edited.mode.type, state.mode.type),
            ("mode.workflow_name", edited.mode.workflow_name, state.mode.workflow_name),
        ):
            if mine != theirs:
                raise BadInput(
                    f"{rel}: {what} is changed by vibegit commands (start, pause, resume, "
                    f"complete, abort), not by hand; set it back to {getattr(theirs, 'value', theirs)!r}"
                )
        current = edited.workflow.current_task
        if current and state.task(current) is None:
            raise BadInput(f"{rel}: workflow.current_task: unknown task {current!r}")
        notices.append(f"adopted your edit of {rel}")
        return replace(
            state,
            session=replace(edited.session, id=edited.session.id or state.session.id),
            mode=edited.mode,
            workflow=edited.workflow,
            context=edited.context,
            checkpoint=edited.checkpoint,
            extra=edited.extra,
        )
    if name == KANBAN:
        notices.append(f"adopted your edit of {rel}")
        return replace(state, tasks=parse_kanban(disk, rel))
    if name == CONTEXT:
        goal, notes = parse_context(disk, rel)
        if derived_context_differs(disk.decode(), state):
            _keep_beside(
                mdir / name, disk, ".edited", notices, f"{rel}: only Goal and Notes are adopted (the rest is generated)"
            )
        else:
            notices.append(f"adopted your edit of {rel}")
        return replace(state, notes=notes, context=replace(state.context, goal=goal or state.context.goal))
    if name == LOCK:
        lock = parse_lock(disk, rel)
        if state.lock is None:
            _keep_beside(
                mdir / name,
                disk,
                ".edited",
                notices,
                f"{rel} was written by hand but no workflow holds a lock (use vibegit start or resume)",
            )
            return state
        if (lock.locked, lock.paused) != (state.lock.locked, state.lock.paused):
            raise BadInput(f"{rel}: locked/paused are changed by vibegit pause, resume or unlock, not by hand")
        notices.append(f"adopted your edit of {rel}")
        return replace(state, lock=lock)
    if name == MEMORY:
        notices.append(f"adopted your edit of {rel}")
        return replace(state, memory=parse_memory(disk, rel))
    assert name == CHECKPOINT
    _keep_beside(
        mdir / name,
        disk,
        ".edited",
        notices,
        f"{rel} is generated from session.yaml (edit its checkpoint: section instead)",
    )
    return state


def write(repo: git.Repo, settings: Settings, commit: str, files: dict[str, str], notices: list[str]) -> None:
    """Show ``commit``'s state in the mirror; a failure here loses no event.

    The marker names the commit being written, and the one shown before,
    until every file is written (so a kill half way leaves no false edit)."""
    try:
        ensure_excluded(repo, settings)
        mdir = directory(repo, settings)
        mdir.mkdir(parents=True, exist_ok=True)
        # Until every file is written, the mirror may show any of these.
        write_atomic(_marker(repo), "".join(f"{c}\n" for c in [commit, *_shown(repo)][:MAX_SHOWN]).encode())
        for name in STATE_FILES:
            path = mdir / name
            remove_leftovers(path)
            if name in files:
                write_atomic(path, files[name].encode())
            elif path.is_file() and not path.is_symlink():
                path.unlink()
        write_atomic(_marker(repo), commit.encode() + b"\n")
    except (OSError, BadInput) as err:
        notices.append(f"the event is recorded, but the mirror {settings.mirror_dir} was not updated: {err}")


def ensure_excluded(repo: git.Repo, settings: Settings) -> None:
    """List the mirror in info/exclude (shared by all worktrees) once."""
    exclude = repo.common_dir / "info" / "exclude"
    line = f"/{settings.mirror_dir}/"
    text = exclude.read_text() if exclude.is_file() else ""
    if line in text.splitlines():
        return
    exclude.parent.mkdir(parents=True, exist_ok=True)
    with exclude.open("a") as f:
        f.write(("" if not text or text.endswith("\n") else "\n") + "# vibegit state mirror\n" + line + "\n")


def show(repo: git.Repo, settings: Settings, cat: git.CatFile, commit: str, say: Callable[[str], None]) -> None:
    """Write ``commit``'s state to the mirror unless it holds hand edits not adopted yet
    (the next event adopts them, or keeps them beside when they conflict)."""
    shown = _shown(repo)
    try:
        mdir = directory(repo, settings)
    except BadInput:
        return
    if shown and mdir.is_dir() and cat.get(shown[0]) is not None:
        written = _Written(repo, cat, shown)
        for name in STATE_FILES:
            path = mdir / name
            if path.is_file() and not path.is_symlink() and not written.ours(name, path.read_bytes()):
                say(
                    f"{settings.mirror_dir}/{name} has edits of yours; the mirror is left as it is "
                    "until the next event adopts them."
                )
                return
    rewrite(repo, settings, cat, commit, say)


def rewrite(repo: git.Repo, settings: Settings, cat: git.CatFile, commit: str, say: Callable[[str], None]) -> None:
    """Write ``commit``'s state to the mirror, whatever it holds."""
    files = read_files(repo, cat, commit)[1]
    notices: list[str] = []
    write(repo, settings, commit, {k: v.decode("utf-8", errors="replace") for k, v in files.items()}, notices)
    for notice in notices:
        say(notice)


def last_shown(repo: git.Repo) -> str | None:
    """The state commit the mirror was last written from (it outlives a deleted branch)."""
    shown = _shown(repo)
    return shown[0] if shown else None


def lock(repo: git.Repo, settings: Settings) -> Lock | None:
    """The mirror's ``workflow.lock``, parsed (an error names the file and line)."""
    path = directory(repo, settings) / LOCK
    data = _read(path, f"{settings.mirror_dir}/{LOCK}")
    return None if data is None else parse_lock(data, f"{settings.mirror_dir}/{LOCK}")


def problems(repo: git.Repo, settings: Settings) -> list[tuple[Path, str]]:
    """Mirror files that do not parse, with why."""
    try:
        mdir = directory(repo, settings)
    except BadInput as err:
        return [(repo.toplevel / settings.mirror_dir, str(err))]
    found = []
    for name, parse in PARSERS.items():
        path = mdir / name
        if path.is_file() and not path.is_symlink():
            try:
                parse(path.read_bytes(), f"{settings.mirror_dir}/{name}")
            except BadInput as err:
                found.append((path, str(err)))
    return found
