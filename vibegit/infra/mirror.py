"""The working copy of the state in the working tree.

After each event the state files are written to the mirror directory
(``project_document/.ai_state`` by default), which is listed in
``.git/info/exclude``. Hand edits are found by comparing the mirror with the
state commit it was last written from; they are validated and adopted by the
next event, or kept beside with a message, never dropped.
"""

from __future__ import annotations

import stat
from collections.abc import Callable
from contextlib import ExitStack

from vibegit.core import workflows
from vibegit.core.messages import t
from vibegit.core.model import Env, Lock, State
from vibegit.core.records import frozen, replace
from vibegit.core.settings import Settings
from vibegit.core.text import clean
from vibegit.errors import BadInput, Refused, VibegitError
from vibegit.infra import fs, git
from vibegit.infra.formats import (
    CHECKPOINT,
    COMPLETION,
    CONTEXT,
    KANBAN,
    KNOWLEDGE,
    LOCK,
    MAX_FILE_BYTES,
    MEMORY,
    PARSERS,
    SESSION,
    SHARED_FILES,
    STATE_FILES,
    derived_context_differs,
    parse_all,
    parse_context,
    parse_doc,
    parse_kanban,
    parse_lock,
    parse_memory,
    parse_session,
)
from vibegit.infra.store import Flow, Loaded, flow, load_commit

MARKER = "vibegit-mirror"  # per worktree: the state commit the mirror shows (see Marker)


def exists(repo: git.Repo, settings: Settings) -> bool:
    """Whether the mirror directory is there; a link in its path (or as it) is an error."""
    found = fs.lstat(repo.toplevel, settings.mirror_dir)
    if found is not None and stat.S_ISLNK(found.st_mode):
        raise BadInput(
            f"{settings.mirror_dir}: is a symbolic link; vibegit never reads or writes through links (remove it)"
        )
    return found is not None and stat.S_ISDIR(found.st_mode)


def _rel(settings: Settings, name: str) -> str:
    return f"{settings.mirror_dir}/{name}"


MAX_SHOWN = 50


@frozen
class Shown:
    """What the mirror shows: a workflow ("" for none), at the state commits
    of ``commits`` (the first; while a write is under way, also every commit
    whose files it may still hold: a write cut short by a kill leaves files of
    any of them, and none of those is a hand edit)."""

    workflow: str = ""
    commits: tuple[str, ...] = ()


def _shown(repo: git.Repo) -> Shown:
    try:
        data = fs.read(repo.git_dir, MARKER, 64 * 1024)
    except BadInput:
        data = None
    lines = data.decode(errors="replace").split("\n") if data else []
    workflow = next((line[len("workflow ") :] for line in lines if line.startswith("workflow ")), "")
    commits = tuple(dict.fromkeys(line for line in lines if git.is_oid(line)))[:MAX_SHOWN]
    return Shown(workflow if workflows.is_workflow_id(workflow) else "", commits)


def _mark(repo: git.Repo, shown: Shown) -> None:
    lines = ([f"workflow {shown.workflow}"] if shown.workflow else []) + list(shown.commits[:MAX_SHOWN])
    fs.write(repo.git_dir, MARKER, "".join(f"{line}\n" for line in lines).encode())


class _Written:
    """What vibegit itself wrote to the mirror: the files of any state commit
    it may still show (read once each, on demand)."""

    def __init__(self, repo: git.Repo, cat: git.CatFile, shown: Shown, known: Loaded | None = None) -> None:
        self.repo, self.cat, self.shown, self.known = repo, cat, shown, known
        self.cache: dict[str, dict[str, bytes]] = {}

    def files(self, commit: str) -> dict[str, bytes]:
        if commit not in self.cache:
            if self.known is not None and commit == self.known.head:
                loaded: Loaded | None = self.known
            else:
                try:
                    loaded = load_commit(self.repo, self.cat, commit, "") if self.cat.get(commit) else None
                except VibegitError:
                    loaded = None
            self.cache[commit] = view(self.repo, self.cat, loaded, self.shown.workflow) if loaded else {}
        return self.cache[commit]

    def ours(self, name: str, disk: bytes) -> bool:
        """True when ``disk`` is a version vibegit wrote, not a hand edit."""
        return any(disk == self.files(commit).get(name) for commit in self.shown.commits)


def view(repo: git.Repo, cat: git.CatFile, loaded: Loaded, workflow_id: str) -> dict[str, bytes]:
    """The mirror's files of ``workflow_id`` at ``loaded`` (the shared memory only for ""), as ``write`` shows them."""
    if not workflow_id:
        files = loaded.fresh().files
    else:
        try:
            files = flow(repo, cat, loaded, workflow_id).files
        except VibegitError:
            files = loaded.fresh().files
    return {name: inert_file(data.decode("utf-8", errors="replace")).encode() for name, data in files.items()}


def inert_file(text: str) -> str:
    """A state file as the mirror shows it: inert, as all vibegit shows (agents read these
    files; the state branch holds whatever bytes someone pushed)."""
    return clean(text, one_line=False)


def _read(repo: git.Repo, rel: str) -> bytes | None:
    return fs.read(repo.toplevel, rel, MAX_FILE_BYTES)


def _read_all(repo: git.Repo, settings: Settings, names: tuple[str, ...]) -> dict[str, bytes | None]:
    """The mirror's files ``names`` (None: not there) as ``_read`` reads each,
    in one walk from the top directory."""
    with ExitStack() as stack:
        try:
            d = stack.enter_context(fs.opendir(repo.toplevel, settings.mirror_dir))
        except (FileNotFoundError, NotADirectoryError):
            return dict.fromkeys(names)
        return {name: d.read_file(name, MAX_FILE_BYTES) for name in names}


def adopt(
    repo: git.Repo, settings: Settings, cat: git.CatFile, loaded: Loaded, current: Flow, notices: list[str]
) -> State:
    """``current``'s state with the mirror's hand edits applied (validated).

    Edits to the files of another workflow than the one the event is for
    (the mirror showed it) are kept beside as ``.edited``, never dropped; the
    shared memory's edits are adopted whatever the workflow."""
    shown = _shown(repo)
    there = exists(repo, settings)
    state = current.state
    if not there:
        return state
    if not shown.commits:  # vibegit never wrote this mirror: what is there is the user's
        return _adopt_first(repo, settings, current, notices)
    base = shown.commits[0]
    written = _Written(repo, cat, shown, loaded)  # read only when a file differs from the branch's
    now = current.files if shown.workflow == current.id else view(repo, cat, loaded, shown.workflow)
    found = _read_all(repo, settings, STATE_FILES)
    for name in STATE_FILES:
        rel = _rel(settings, name)
        disk = found[name]
        if disk is None:
            if name == LOCK and state.lock is not None and shown.workflow == current.id and LOCK in written.files(base):
                notices.append(t("mirror.lock_deleted", rel=rel))
            continue
        if disk == now.get(name) or written.ours(name, disk):
            continue  # the branch's already, or unchanged (perhaps left by a write cut short by a kill)
        if name not in SHARED_FILES and shown.workflow != current.id:
            _keep_beside(
                repo,
                rel,
                disk,
                ".edited",
                notices,
                t("mirror.other_workflow", rel=rel, shown=shown.workflow or "-", current=current.id or "-"),
            )
            continue
        if loaded.head != base and now.get(name) != written.files(base).get(name):
            _keep_beside(
                repo,
                rel,
                disk,
                ".conflict",
                notices,
                t("mirror.conflict", rel=rel),
            )
            continue
        state = _adopt_one(repo, name, disk, rel, state, notices)
    return state


FIRST_ADOPTED = (KANBAN, CONTEXT, MEMORY, *KNOWLEDGE)  # what a first event adopts; the rest is saved only


def _adopt_first(repo: git.Repo, settings: Settings, current: Flow, notices: list[str]) -> State:
    """Before vibegit first writes a mirror, the state files found there are
    the user's (or an agent's), written by hand: each that validates is
    adopted where the event keeps it (the tasks and notes of the workflow
    it is for, the shared memory added to, the knowledge docs); ``write``
    saves them all before it replaces or removes any."""
    state = current.state
    for name in FIRST_ADOPTED:
        rel = _rel(settings, name)
        disk = _read(repo, rel)
        if disk is None or disk == current.files.get(name):
            continue
        if name in (KANBAN, CONTEXT) and (not current.id or (state.tasks if name == KANBAN else state.notes)):
            continue  # no workflow to hold them (a start begins empty), or it has its own: saved, named
        try:
            if name == MEMORY:
                from vibegit.core.merge import merge_memory

                found = replace(parse_memory(disk, rel), docs=state.memory.docs)
                both, _ = merge_memory(None, state.memory, found, here="", there=rel, theirs_newer=False)
                state = replace(state, memory=both)
                notices.append(t("mirror.adopted", rel=rel))
            else:
                state = _adopt_one(repo, name, disk, rel, state, notices)
        except BadInput as err:
            notices.append(t("mirror.first_not_adopted", error=err))
    return state


def _keep_beside(repo: git.Repo, rel: str, data: bytes, suffix: str, notices: list[str], why: str) -> None:
    """The edit kept as a side file, never replacing an older one (nor written through a link)."""
    kept = fs.free_name(repo.toplevel, rel, suffix, data)
    if kept is not None:
        fs.write(repo.toplevel, kept, data)
    notices.append(t("mirror.kept_beside", why=why, name=(kept or rel + suffix).rsplit("/", 1)[-1]))


# What a hand edit of the mirror may not change: which workflow it is, the
# branch and worktree it is bound to, who holds its lock and how. Each is
# the record of a command (field, its value in a state, the command); the
# rest (goal, notes, next action, questions, tasks, memory ...) is content.
_START = "vibegit start"
_STATUS = "vibegit pause, resume, complete, abort or unlock"
_SESSION_BOUND: tuple[tuple[str, Callable[[State], object], str], ...] = (
    ("workflow.id", lambda s: s.workflow.id, _START),
    ("mode.type", lambda s: s.mode.type, _START),
    ("mode.workflow_name", lambda s: s.mode.workflow_name, _START),
    ("workflow.status", lambda s: s.workflow.status, _STATUS),
    ("workflow.branch", lambda s: s.workflow.branch, _START),
    ("workflow.worktree", lambda s: s.workflow.worktree, _START),
    ("checkpoint.snapshot", lambda s: s.checkpoint.snapshot if s.checkpoint else None, "vibegit checkpoint"),
)
_LOCK_BOUND: tuple[tuple[str, Callable[[Lock], object], str], ...] = (
    ("workflow", lambda k: k.workflow, _START),
    ("host", lambda k: k.host, "vibegit resume"),
    ("worktree", lambda k: k.worktree, "vibegit resume"),
    ("locked_at", lambda k: k.locked_at, "vibegit resume"),
    ("locked", lambda k: k.locked, _STATUS),
    ("paused", lambda k: k.paused, _STATUS),
)


def _by_command(rel: str, what: str, mine: object, theirs: object, command: str) -> None:
    """A field only ``command`` changes: an edit of it is refused in one line."""
    if mine != theirs:
        value = getattr(theirs, "value", theirs)
        shown = "null" if value is None else str(value).lower() if isinstance(value, bool) else repr(value)
        raise BadInput(t("mirror.by_command", rel=rel, field=what, command=command, value=shown))


def _adopt_one(repo: git.Repo, name: str, disk: bytes, rel: str, state: State, notices: list[str]) -> State:
    if name == SESSION:
        edited = parse_session(disk, rel)
        for what, value, command in _SESSION_BOUND:
            _by_command(rel, what, value(edited), value(state), command)
        current = edited.workflow.current_task
        if current and state.task(current) is None:
            raise BadInput(f"{rel}: workflow.current_task: unknown task {current!r}")
        notices.append(t("mirror.adopted", rel=rel))
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
        notices.append(t("mirror.adopted", rel=rel))
        tasks = parse_kanban(disk, rel)
        kept = {x.id for x in tasks}
        gone = tuple(x.id for x in state.tasks if x.id not in kept)  # removed by hand: never given again
        removed = tuple(dict.fromkeys((*state.workflow.removed_tasks, *gone)))
        return replace(state, tasks=tasks, workflow=replace(state.workflow, removed_tasks=removed))
    if name == CONTEXT:
        goal, notes = parse_context(disk, rel)
        if derived_context_differs(disk.decode(), state):
            _keep_beside(repo, rel, disk, ".edited", notices, t("mirror.goal_notes_only", rel=rel))
        else:
            notices.append(t("mirror.adopted", rel=rel))
        return replace(state, notes=notes, context=replace(state.context, goal=goal or state.context.goal))
    if name == LOCK:
        lock = parse_lock(disk, rel)
        if state.lock is None:
            _keep_beside(
                repo,
                rel,
                disk,
                ".edited",
                notices,
                t("mirror.lock_by_hand", rel=rel),
            )
            return state
        for what, held, command in _LOCK_BOUND:
            _by_command(rel, what, held(lock), held(state.lock), command)
        notices.append(t("mirror.adopted", rel=rel))
        return replace(state, lock=lock)
    if name == MEMORY:
        notices.append(t("mirror.adopted", rel=rel))
        return replace(state, memory=replace(parse_memory(disk, rel), docs=state.memory.docs))
    if name in KNOWLEDGE:
        notices.append(t("mirror.adopted", rel=rel))
        return replace(state, memory=replace(state.memory, docs={**state.memory.docs, name: parse_doc(disk, rel)}))
    assert name in (CHECKPOINT, COMPLETION)
    how = t("mirror.edit_checkpoint") if name == CHECKPOINT else t("mirror.is_completion")
    _keep_beside(repo, rel, disk, ".edited", notices, t("mirror.generated", rel=rel, how=how))
    return state


def write(
    repo: git.Repo, settings: Settings, commit: str, workflow_id: str, files: dict[str, str], notices: list[str]
) -> None:
    """Show workflow ``workflow_id`` (its ``files`` and the shared memory) of
    ``commit`` in the mirror; a failure here loses no event.

    Until every file is written, the marker names the commits the mirror was
    showing too (so a kill half way leaves no false edit)."""
    try:
        ensure_excluded(repo, settings)
        exists(repo, settings)  # no link as the mirror directory
        before = _shown(repo)
        if not before.commits:
            _save_first(repo, settings, files, notices)
        during = before.commits if before.workflow == workflow_id else ()
        _mark(repo, Shown(workflow_id, (commit, *during)))
        with ExitStack() as stack:
            writes = any(name in files for name in STATE_FILES)  # else no directory is made for nothing
            try:
                d = stack.enter_context(fs.opendir(repo.toplevel, settings.mirror_dir, create=writes))
            except (FileNotFoundError, NotADirectoryError):
                if writes:
                    raise
            else:
                _write_in(d, files)
        _mark(repo, Shown(workflow_id, (commit,)))
    except (OSError, BadInput, Refused) as err:
        notices.append(t("mirror.not_updated", mirror=settings.mirror_dir, error=err))


def _write_in(d: fs.Dir, files: dict[str, str]) -> None:
    """The mirror's state files as ``files`` has them, in its directory ``d``
    (the scratch files of a write cut short cleared first)."""
    d.remove_leftovers(STATE_FILES)
    for name in STATE_FILES:
        if name in files:
            data = inert_file(files[name]).encode()
            try:
                same = d.read_file(name, MAX_FILE_BYTES) == data
            except BadInput:
                same = False  # a link or an oversized file: the write says what is wrong
            if not same:
                d.write_file(name, data)
        elif name not in KNOWLEDGE:  # a knowledge doc not on the state yet is adopted by the next event
            found = d.stat(name)
            if found is not None and stat.S_ISREG(found.st_mode):
                d.remove_file(name)


def _save_first(repo: git.Repo, settings: Settings, files: dict[str, str], notices: list[str]) -> None:
    """Before vibegit first writes a mirror: every state file there that the
    write would replace or remove is the user's; it is copied to a checked
    backup first, and named with the command that puts it back (an error
    here stops the write: nothing of theirs is replaced unsaved)."""
    from vibegit.infra import snapshot

    found = []
    for name in STATE_FILES:
        rel = _rel(settings, name)
        there = fs.lstat(repo.toplevel, rel)
        if there is None or (name in KNOWLEDGE and name not in files):
            continue  # nothing there, or left as it is
        try:
            same = _read(repo, rel) == files[name].encode() if name in files else False
        except BadInput:
            same = False  # a link or an oversized file: the write says what is wrong
        if not same:
            found.append(rel)
    if not found:
        return
    from vibegit.infra import machine

    backup = snapshot.save(repo, found, machine.now().replace(":", "").replace("-", ""))
    names = ", ".join(rel.rsplit("/", 1)[-1] for rel in found)
    notices.append(
        t(
            "mirror.saved_first",
            mirror=settings.mirror_dir,
            names=names,
            backup=backup,
            restore=snapshot.put_back(repo, backup),
        )
    )


SKILL_FILES = (SESSION, LOCK, CONTEXT, KANBAN, CHECKPOINT, *SHARED_FILES)  # what an earlier set-up may have left


@frozen
class Foreign:
    """State files in the mirror that vibegit never wrote there: an earlier
    skill-based set-up's (``vibegit adopt`` imports them)."""

    files: dict[str, bytes]
    tracked: tuple[str, ...]  # those of them git tracks (relative to the top directory)

    def describe(self, settings: Settings) -> str:
        try:
            state = parse_session(self.files[SESSION], _rel(settings, SESSION)) if SESSION in self.files else None
        except BadInput:
            state = None
        name = state.mode.workflow_name if state is not None else None
        lock = b"locked: true" in self.files.get(LOCK, b"")
        if state is not None and name:
            what = t("mirror.foreign_workflow", name=name, status=t(f"status.{state.workflow.status.value}"))
        else:
            what = t("mirror.foreign_files")
        return (
            t("mirror.foreign", mirror=settings.mirror_dir, what=what)
            + (t("mirror.foreign_locked") if lock else "")
            + (t("mirror.foreign_tracked", n=len(self.tracked)) if self.tracked else "")
        )


def foreign(repo: git.Repo, settings: Settings) -> Foreign | None:
    """The mirror's state files when vibegit never wrote this mirror and a
    ``session.yaml`` or ``workflow.lock`` is there; None otherwise (also when
    the mirror is unreadable: the event's write says why)."""
    if _shown(repo).commits:
        return None
    try:
        if not exists(repo, settings):
            return None
        files = {name: data for name in SKILL_FILES if (data := _read(repo, _rel(settings, name))) is not None}
    except BadInput:
        return None
    if SESSION not in files and LOCK not in files:
        return None
    listed = repo.git("ls-files", "-z", "--", *(_rel(settings, name) for name in files), check=False).stdout
    tracked = tuple(p for p in listed.decode(errors="replace").split("\0") if p)
    return Foreign(files, tracked)


def refuse_foreign(repo: git.Repo, settings: Settings, has_workflows: bool) -> list[str]:
    """No event writes over an earlier set-up's state files while the state
    branch has no workflow yet (the moment of switching to vibegit): it says
    what is there and that 'vibegit adopt' imports it. When the state branch
    has workflows already (a clone of a project whose earlier set-up was
    adopted, its copies still tracked), the write goes on; the notices say so."""
    found = foreign(repo, settings)
    if found is None:
        return []
    if not has_workflows:
        raise Refused(t("mirror.refused", what=found.describe(settings), mirror=settings.mirror_dir))
    if not found.tracked:
        return []
    return [
        t("mirror.rewrote", what=found.describe(settings), branch=settings.state_branch, mirror=settings.mirror_dir)
    ]


def read_foreign(found: Foreign, settings: Settings) -> State:
    """The earlier set-up's state, parsed (exit 2 with file and line when a file does not parse)."""
    files = {name: data for name, data in found.files.items()}
    if SESSION not in files:
        raise BadInput(f"{_rel(settings, SESSION)}: missing; the set-up there has a workflow.lock but no session")
    return parse_all(files, f"{settings.mirror_dir}/")


def knowledge_on_disk(repo: git.Repo, settings: Settings, state: State) -> State:
    """``state`` with the knowledge docs of the mirror (conventions.md,
    decisions.md) as the next event will adopt them."""
    docs = dict(state.memory.docs)
    for name in KNOWLEDGE:
        rel = _rel(settings, name)
        disk = _read(repo, rel)
        if disk is not None:
            docs[name] = parse_doc(disk, rel)
    return replace(state, memory=replace(state.memory, docs=docs))


def ensure_excluded(repo: git.Repo, settings: Settings) -> None:
    """List the mirror in info/exclude (shared by all worktrees) once."""
    line = f"/{settings.mirror_dir}/"
    text = (fs.read(repo.common_dir, "info/exclude", 1 << 20) or b"").decode(errors="replace")
    if line in text.splitlines():
        return
    added = ("" if not text or text.endswith("\n") else "\n") + "# vibegit state mirror\n" + line + "\n"
    fs.append(repo.common_dir, "info/exclude", added.encode())


def refresh(
    repo: git.Repo, settings: Settings, commit: str, e: Env, say: Callable[[str], None], *, force: bool = False
) -> None:
    """After the state branch moved without an event here (sync, doctor): show
    this worktree's workflow of ``commit`` (``force``: whatever the mirror holds)."""
    cat = git.reader(repo)
    shown = workflows.shown_here(load_commit(repo, cat, commit, "").index, e)
    (rewrite if force else show)(repo, settings, cat, commit, shown.id if shown else "", say)


def show(
    repo: git.Repo, settings: Settings, cat: git.CatFile, commit: str, workflow_id: str, say: Callable[[str], None]
) -> None:
    """Write workflow ``workflow_id`` of ``commit`` to the mirror unless it holds
    hand edits not adopted yet (the next event adopts them, or keeps them beside)."""
    shown = _shown(repo)
    try:
        there = exists(repo, settings)
    except BadInput:
        return
    if foreign(repo, settings) is not None:
        say(t("mirror.left_foreign", mirror=settings.mirror_dir))
        return
    if not shown.commits and there and any(fs.lstat(repo.toplevel, _rel(settings, n)) for n in STATE_FILES):
        say(t("mirror.left_unwritten", mirror=settings.mirror_dir))  # the next event adopts them, or saves them
        return
    if shown.commits and there and cat.get(shown.commits[0]) is not None:
        written = _Written(repo, cat, shown)
        for name in STATE_FILES:
            try:
                disk = _read(repo, _rel(settings, name))
            except BadInput:
                disk = None
            if disk is not None and not written.ours(name, disk):
                say(t("mirror.has_edits", mirror=settings.mirror_dir, name=name))
                return
    rewrite(repo, settings, cat, commit, workflow_id, say)


def rewrite(
    repo: git.Repo, settings: Settings, cat: git.CatFile, commit: str, workflow_id: str, say: Callable[[str], None]
) -> None:
    """Write workflow ``workflow_id`` of ``commit`` to the mirror, whatever it holds."""
    files = view(repo, cat, load_commit(repo, cat, commit, ""), workflow_id)
    notices: list[str] = []
    text = {k: v.decode("utf-8", errors="replace") for k, v in files.items()}
    write(repo, settings, commit, workflow_id, text, notices)
    for notice in notices:
        say(notice)


def last_shown(repo: git.Repo) -> str | None:
    """The state commit this worktree's mirror was last written from (it outlives a deleted branch)."""
    shown = _shown(repo)
    return shown.commits[0] if shown.commits else None


def lock(repo: git.Repo, settings: Settings) -> Lock | None:
    """The mirror's ``workflow.lock``, parsed (an error names the file and line)."""
    rel = _rel(settings, LOCK)
    exists(repo, settings)  # a link as the mirror directory is an error, never followed
    data = _read(repo, rel)
    return None if data is None else parse_lock(data, rel)


def saved(repo: git.Repo, settings: Settings) -> list[bytes]:
    """The bytes of the mirror's state files (no link followed; a missing or linked directory: none)."""
    try:
        exists(repo, settings)
        found = [_read(repo, _rel(settings, name)) for name in PARSERS]
    except BadInput:
        return []
    return [data for data in found if data is not None]


def problems(repo: git.Repo, settings: Settings) -> list[tuple[str, str]]:
    """Mirror files (relative to the top directory) that do not parse, with why."""
    try:
        exists(repo, settings)
    except BadInput as err:
        return [(settings.mirror_dir, str(err))]
    found = []
    for name, parse in PARSERS.items():
        rel = _rel(settings, name)
        try:
            disk = _read(repo, rel)
            if disk is not None:
                parse(disk, rel)
        except BadInput as err:
            found.append((rel, str(err)))
    return found


def set_aside(repo: git.Repo, rel: str) -> str | None:
    """Move a broken mirror file aside as ``NAME.broken`` (never over an older
    one); its new name, or None when it is not a plain file."""
    found = fs.lstat(repo.toplevel, rel)
    if found is None or not stat.S_ISREG(found.st_mode):
        return None
    aside = fs.free_name(repo.toplevel, rel, ".broken")
    if aside is None:
        return None
    fs.rename(repo.toplevel, rel, aside)
    return aside
