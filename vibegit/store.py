"""The state branch: read the state at its tip, write one commit per event.

Writes go through a file lock in the git common dir (shared by all
worktrees) and publish with a compare-and-swap ``update-ref``; when another
writer won the race the event is re-applied to the newer state.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator

from vibegit import git, mirror
from vibegit.core.settings import Settings
from vibegit.errors import BadInput, GitError
from vibegit.files import STATE_FILES, parse_all, render_all
from vibegit.core.model import Env
from vibegit.core.model import Event, State

LOCK_TIMEOUT = 60.0
MAX_RETRIES = 50

Transition = Callable[[State], "tuple[State, Event]"]


@dataclass(frozen=True)
class Loaded:
    head: str | None  # tip of the state branch; None before the first event
    tree: tuple[git.TreeEntry, ...]
    files: dict[str, bytes]
    state: State


def read_files(repo: git.Repo, cat: git.CatFile, commit: str) -> tuple[tuple[git.TreeEntry, ...], dict[str, bytes]]:
    found = cat.get(f"{commit}^{{tree}}")
    if found is None:
        raise GitError(f"state commit {commit[:12]} has no tree; run 'vibegit doctor'")
    tree = tuple(git.parse_tree(repo, found[2]))
    files: dict[str, bytes] = {}
    for entry in tree:
        if entry.name in STATE_FILES and entry.mode.startswith("100"):
            blob = cat.get(entry.oid)
            if blob is not None:
                files[entry.name] = blob[2]
    return tree, files


def load(repo: git.Repo, cat: git.CatFile, settings: Settings) -> Loaded:
    tip = cat.get(settings.state_ref)
    if tip is None:
        return Loaded(None, (), {}, State())
    if tip[0] != "commit":
        raise BadInput(f"{settings.state_ref} points to a {tip[0]}, not a commit; run 'vibegit doctor'")
    tree, files = read_files(repo, cat, tip[1])
    return Loaded(tip[1], tree, files, parse_all(files, f"{settings.state_branch}:"))


def read_state(repo: git.Repo, settings: Settings) -> Loaded:
    with git.CatFile(repo) as cat:
        return load(repo, cat, settings)


def message(event: Event, state: State, env: Env) -> str:
    summary = " ".join(event.summary.split())
    if len(summary) > 72:
        summary = summary[:71] + "…"
    trailers = [f"Vibegit-Event: {event.name}"]
    if state.mode.workflow_name:
        trailers.append(f"Vibegit-Workflow: {state.mode.workflow_name}")
    if state.mode.phase:
        trailers.append(f"Vibegit-Phase: {state.mode.phase.value}")
    if event.task:
        trailers.append(f"Vibegit-Task: {event.task}")
    trailers.append(f"Vibegit-Head: {env.head or 'none'}")
    trailers += event.details
    return f"vibegit: {event.name} {summary}\n\n" + "\n".join(trailers) + "\n"


def build_tree(
    repo: git.Repo, old: tuple[git.TreeEntry, ...], files: dict[str, str], trees: dict[str, str | None] | None = None
) -> str:
    """The old tree with every state file replaced (workflow.lock dropped when absent);
    ``trees`` sets (tree id) or drops (None) subtrees such as ``snapshot``."""
    trees = trees or {}
    entries = [e for e in old if e.name not in STATE_FILES and e.name not in trees]
    entries += [git.TreeEntry("40000", name, oid) for name, oid in trees.items() if oid]
    for name, text in files.items():
        entries.append(git.TreeEntry("100644", name, git.write_object(repo, "blob", text.encode())))
    return git.write_tree(repo, entries)


@dataclass
class Written:
    state: State
    event: Event
    commit: str
    notices: list[str] = field(default_factory=list)


def lock_path(repo: git.Repo) -> str:
    return str(repo.common_dir / "vibegit.lock")


@contextmanager
def locked(repo: git.Repo) -> Iterator[None]:
    """The store's file lock, shared by all worktrees; every writer of the state branch holds it."""
    from filelock import FileLock, Timeout  # not on the read-only hook path

    lock = FileLock(lock_path(repo), timeout=LOCK_TIMEOUT)
    try:
        lock.acquire()
    except Timeout:
        raise GitError(f"another vibegit process holds {lock_path(repo)} for over {LOCK_TIMEOUT:.0f}s") from None
    try:
        yield
    finally:
        lock.release()


def transact(
    repo: git.Repo,
    settings: Settings,
    config: dict[str, str],
    env: Env,
    transition: Transition,
    trees: dict[str, str | None] | None = None,
) -> Written:
    """Apply ``transition`` to the newest state and publish it as one commit
    (``trees``: subtrees to set or drop, as in ``build_tree``)."""
    who = git.identity(config)
    author = git.identity(config, "AUTHOR")
    with locked(repo), git.CatFile(repo) as cat:
        for _ in range(MAX_RETRIES):
            loaded = load(repo, cat, settings)
            notices: list[str] = []
            state = mirror.adopt(repo, settings, cat, loaded, notices)
            new, event = transition(state)
            files = render_all(new)
            tree = build_tree(repo, loaded.tree, files, trees)
            parents = [loaded.head] if loaded.head else []
            commit = git.write_commit(repo, tree, parents, message(event, new, env), author, who)
            reason = f"vibegit: {event.name}"
            if git.update_ref(repo, settings.state_ref, commit, loaded.head, reason):
                mirror.write(repo, settings, commit, files, notices)
                return Written(new, event, commit, notices)
            # Another writer (a fetch, a sync, another machine's push) moved
            # the branch: re-read and re-apply the event on top.
    raise GitError(f"could not update {settings.state_ref} after {MAX_RETRIES} tries")


def history(repo: git.Repo, settings: Settings, count: int) -> list[dict[str, object]]:
    """The newest ``count`` events, read from commit subjects and trailers."""
    if repo.git("rev-parse", "-q", "--verify", settings.state_ref, check=False).returncode:
        return []
    fmt = "%H%x1f%cI%x1f%an%x1f%s%x1f%(trailers:only,unfold)%x1e"
    raw = repo.out("log", f"-n{count}", f"--format={fmt}", settings.state_ref, "--")
    entries: list[dict[str, object]] = []
    for record in raw.split("\x1e"):
        if not record.strip():
            continue
        commit, date, author, subject, trailer_text = record.strip("\n").split("\x1f")
        trailers = {}
        for line in trailer_text.splitlines():
            key, sep, value = line.partition(": ")
            if sep and key.startswith("Vibegit-"):
                trailers[key[len("Vibegit-") :].lower()] = value
        entries.append({"commit": commit, "date": date, "author": author, "subject": subject, **trailers})
    return entries
