"""The state branch: read the state at its tip, and the one writer of its ref.

Every move of the state ref goes through ``publish``: under a file lock in
the git common dir (shared by all worktrees), it reads the tip, lets the
caller build the commit the ref should point to, and moves the ref with a
compare-and-swap ``update-ref``; when another writer won the race the caller
builds again on the newer tip. Events, sync, doctor and a fresh clone's
arrival all publish this way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Optional, TypeVar

from vibegit.core.model import Env, Event, State
from vibegit.core.settings import Settings
from vibegit.errors import BadInput, GitError, Refused, VibegitError
from vibegit.infra import git
from vibegit.infra.formats import STATE_FILES, parse_all

LOCK_TIMEOUT = 60.0
MAX_RETRIES = 50
SNAPSHOT = "snapshot"  # the tree entry of a state commit that holds the snapshot of uncommitted work

T = TypeVar("T")


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
            if blob is None:  # pruned: read as absent, a missing workflow.lock would pass for no lock
                raise GitError(f"{entry.name} of state commit {commit[:12]} is missing; run 'vibegit doctor --repair'")
            files[entry.name] = blob[2]
    return tree, files


def load_commit(repo: git.Repo, cat: git.CatFile, commit: str, where: str) -> Loaded:
    """The state of one state commit (``where`` prefixes file names in errors)."""
    tree, files = read_files(repo, cat, commit)
    return Loaded(commit, tree, files, parse_all(files, where))


def load(repo: git.Repo, cat: git.CatFile, settings: Settings, head: str | None = "") -> Loaded:
    """The state at the tip of the state branch (``head``: the tip as ``publish`` read it)."""
    found = cat.get(settings.state_ref if head == "" else head) if head is not None else None
    if found is None:
        return Loaded(None, (), {}, State())
    if found[0] != "commit":
        raise BadInput(f"{settings.state_ref} points to a {found[0]}, not a commit; run 'vibegit doctor'")
    return load_commit(repo, cat, found[1], f"{settings.state_branch}:")


def read_state(repo: git.Repo, settings: Settings) -> Loaded:
    return load(repo, git.reader(repo), settings)


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


def commit(
    repo: git.Repo, config: dict[str, str], env: Env, tree: str, parents: list[str], event: Event, state: State
) -> str:
    """One state commit: the event's message and trailers, the user's identity (or the fallback)."""
    return git.write_commit(
        repo, tree, parents, message(event, state, env), git.identity(config, "AUTHOR"), git.identity(config)
    )


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


Build = Callable[[Optional[str], git.CatFile], tuple[Optional[str], str, T]]


def publish(repo: git.Repo, settings: Settings, build: Build[T], published: Callable[[T], None] | None = None) -> T:
    """The one writer of the state ref.

    ``build(tip, cat)`` gets the ref's current value (any object id, or None)
    and returns ``(new, reason, result)``: the commit the ref should point to
    (``new == tip`` or None: leave it), the reflog message, and what
    ``publish`` returns. A lost compare-and-swap builds again on the newer
    tip. ``published(result)`` runs once the ref moved, still under the lock
    (the mirror is written there, so it never shows an older state)."""
    cat = git.reader(repo)  # started before the lock is taken: it resolves names when asked
    holders = git.checked_out(repo, settings.state_ref)
    if holders:  # moving it would change that worktree's HEAD under its files and index
        raise Refused(
            f"{settings.state_branch} is checked out in {', '.join(holders)}; vibegit records nothing while it is "
            f"(each event would move that worktree's HEAD): switch that worktree to another branch "
            f"('git switch -' there), then run the command again"
        )
    with locked(repo):
        for _ in range(MAX_RETRIES):
            found = cat.get(settings.state_ref)
            tip = found[1] if found is not None else None
            new, reason, result = build(tip, cat)
            if new is None or new == tip:
                return result
            failed = git.update_ref(repo, settings.state_ref, new, tip, reason)
            if failed is None:
                if published is not None:
                    published(result)
                return result
            if git.resolve(repo, settings.state_ref) == tip:
                raise _cannot_move(repo, settings, failed)
            # Another writer (a fetch, a sync, another machine's push) moved
            # the branch: build again on top of it.
    raise GitError(f"could not update {settings.state_ref} after {MAX_RETRIES} tries")


def _cannot_move(repo: git.Repo, settings: Settings, why: str) -> VibegitError:
    lock = git.ref_lock(repo, settings.state_ref)
    if lock.exists():
        return Refused(
            f"{settings.state_ref} is locked by {lock} (a git process that was killed leaves it behind); "
            "nothing was recorded: 'vibegit doctor --repair' removes it once no git process runs here"
        )
    return GitError(f"could not update {settings.state_ref}: {why}")


def history(repo: git.Repo, settings: Settings, count: int) -> list[dict[str, str]]:
    """The newest ``count`` events, read from commit subjects and trailers."""
    if git.resolve(repo, settings.state_ref) is None:
        return []
    fmt = "%H%x1f%cI%x1f%an%x1f%s%x1f%(trailers:only,unfold)%x1e"
    raw = repo.out("log", f"-n{count}", f"--format={fmt}", settings.state_ref, "--")
    entries: list[dict[str, str]] = []
    for record in raw.split("\x1e"):
        if not record.strip():
            continue
        commit_id, date, author, subject, trailer_text = record.strip("\n").split("\x1f")
        trailers = {}
        for line in trailer_text.splitlines():
            key, sep, value = line.partition(": ")
            if sep and key.startswith("Vibegit-"):
                trailers[key[len("Vibegit-") :].lower()] = value
        entries.append({"commit": commit_id, "date": date, "author": author, "subject": subject, **trailers})
    return entries


# -- what doctor checks ----------------------------------------------------------


def commit_problems(repo: git.Repo, cat: git.CatFile, settings: Settings, commit_id: str) -> list[str]:
    """What is wrong with one state commit (empty: good)."""
    from vibegit.core import lifecycle

    where = f"{settings.state_branch}@{commit_id[:10]}:"
    try:
        loaded = load_commit(repo, cat, commit_id, where)
    except (BadInput, GitError) as err:
        return [str(err)]
    problems = lifecycle.lock_problems(loaded.state)
    k = loaded.state.checkpoint
    entry = next((e for e in loaded.tree if e.name == SNAPSHOT), None)
    if k is not None and k.snapshot:
        found = cat.get(k.snapshot) if git.is_oid(k.snapshot) else None
        if entry is None or entry.mode != "40000" or entry.oid != k.snapshot:
            problems.append(
                f"{where}session.yaml: checkpoint.snapshot {k.snapshot[:12]} is not the snapshot/ tree of the commit"
            )
        elif found is None or found[0] != "tree":
            problems.append(f"snapshot tree {k.snapshot[:12]} is missing from the object store")
    return problems


def orphan_problems(repo: git.Repo, settings: Settings, tip: str) -> list[str]:
    total = git.count(repo, tip)
    own = git.count(repo, tip, "--not", f"--exclude={settings.state_branch}", "--branches", "--tags")
    if total != own:
        return [
            f"{settings.state_branch} is not an orphan: {total - own} commit(s) of your branches "
            "are in its history (only 'git' can untangle that; doctor --repair does not rewrite history)"
        ]
    return []
