"""Refs and history: what a name resolves to, a commit's parents and
message, ancestry and how far two commits are apart (read through the
command's cat-file reader where that spares a process); refs moved only by
``git update-ref NEW OLD``, a compare-and-swap; HEAD and the worktrees'
branches read from their files. GitPython serves where parsing would be
ours to write (the reflog), off the hook path, imported inside the function
that needs it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from vibegit.core.records import NamedTuple
from vibegit.core.text import is_oid
from vibegit.infra.git.objects import reader
from vibegit.infra.git.process import Repo, background, reason, run


def resolve(repo: Repo, rev: str) -> str | None:
    """The object id ``rev`` names, or None (``rev-parse -q --verify``)."""
    return repo.git("rev-parse", "-q", "--verify", rev, check=False).stdout.decode().strip() or None


def commit_of(repo: Repo, rev: str) -> str | None:
    """The commit ``rev`` names, or None."""
    return resolve(repo, f"{rev}^{{commit}}")


def commit_at(repo: Repo, rev: str) -> str | None:
    """The commit ``rev`` names, or None (asked of the command's reader: no process)."""
    found = reader(repo).info(f"{rev}^{{commit}}")
    return found[1] if found is not None and found[0] == "commit" else None


def parents(repo: Repo, commit: str) -> list[str]:
    """The parents of ``commit`` in order, [] when it is not a commit (asked of the command's reader)."""
    found = reader(repo).get(commit)
    if found is None or found[0] != "commit":
        return []
    head = found[2].partition(b"\n\n")[0].decode(errors="replace")
    return [line[len("parent ") :] for line in head.split("\n") if line.startswith("parent ")]


def matches(repo: Repo, commit: str, *, index: bool) -> bool:
    """The index (``index``), else the tracked files of the working tree, hold
    exactly ``commit``'s tree (no external diff or textconv is run)."""
    cached = ["--cached"] if index else []
    args = ["--no-optional-locks", "diff", "--quiet", "--no-ext-diff", "--no-textconv", *cached, commit, "--"]
    return repo.git(*args, check=False).returncode == 0


def near_ancestor(repo: Repo, commit: str, tip: str, within: int = 32) -> bool:
    """Whether ``commit`` is one of the ``within`` newest commits of ``tip``'s
    history, read through the command's reader (no process): a copy a few
    events behind is told at once; False says only "not that near"."""
    todo, seen = [tip], set[str]()
    while todo and len(seen) < within:
        found = todo.pop(0)
        if found == commit:
            return True
        if found not in seen:
            seen.add(found)
            todo += parents(repo, found)
    return False


def commit_message(repo: Repo, commit: str) -> str:
    """The message of ``commit``, "" when it is not a commit (asked of the command's reader)."""
    found = reader(repo).get(commit)
    if found is None or found[0] != "commit":
        return ""
    return found[2].partition(b"\n\n")[2].decode(errors="replace")


def tree_of(repo: Repo, commit: str | None) -> str | None:
    """The tree of ``commit`` (an object id), None when it is not in this repository."""
    if not is_oid(commit):
        return None
    return resolve(repo, f"{commit}^{{tree}}")


def head_commit(repo: Repo) -> str | None:
    """HEAD's commit, None on an unborn branch (asked of the shared reader)."""
    found = reader(repo).info("HEAD")
    return found[1] if found is not None and found[0] == "commit" else None


def head_tree(repo: Repo) -> str | None:
    """HEAD's tree, None on an unborn branch (asked of the shared reader)."""
    found = reader(repo).info("HEAD^{tree}")
    return found[1] if found is not None and found[0] == "tree" else None


def reflog_tip(repo: Repo, ref: str) -> str | None:
    """The newest reflog entry of ``ref``, which outlives the ref itself."""
    return repo.git("log", "-g", "-n1", "--format=%H", ref, "--", check=False).stdout.decode().strip() or None


def is_ancestor(repo: Repo, a: str, b: str) -> bool:
    return repo.git("merge-base", "--is-ancestor", a, b, check=False).returncode == 0


def merge_base(repo: Repo, a: str, b: str) -> str | None:
    found = repo.git("merge-base", a, b, check=False).stdout.decode().split()
    return found[0] if found else None


def count(repo: Repo, *revs: str) -> int:
    """How many commits ``rev-list REVS`` lists."""
    return int(repo.out("rev-list", "--count", *revs))


class Apart(NamedTuple):
    mine: int  # commits only ``a`` reaches (0: ``a`` is an ancestor of ``b``)
    other: int  # commits only ``b`` reaches
    base: str | None  # their merge base, when the walk shows it (else ask merge_base)
    known: bool  # whether ``base`` is the answer


def apart(repo: Repo, a: str, b: str) -> Apart:
    """How many commits only ``a`` reaches, and only ``b``, and their merge
    base, from one walk: every best common ancestor is a commit the walk of
    the difference stops at (its boundary), so a boundary of one commit is
    the merge base ``git merge-base`` gives, and none between two sides
    that both have commits of their own means no common history."""
    mine = other = 0
    boundary = []
    for line in repo.out("rev-list", "--left-right", "--boundary", f"{a}...{b}", "--").split():
        if line[0] == "<":
            mine += 1
        elif line[0] == ">":
            other += 1
        else:
            boundary.append(line[1:])
    unrelated = not boundary and mine > 0 and other > 0  # (the same commit twice has no boundary either)
    return Apart(mine, other, boundary[0] if len(boundary) == 1 else None, len(boundary) == 1 or unrelated)


def known_commits(repo: Repo, tip: str | None, ref: str, limit: int) -> dict[str, int]:
    """Every commit of ``tip``'s history and of ``ref``'s reflog still in the
    object store, with its commit time (doctor's candidates; GitPython parses the reflog)."""
    import git as gitpython  # GitPython, not vibegit.infra.git
    from git.refs.log import RefLog

    found = gitpython.Repo(repo.toplevel)
    seen: dict[str, int] = {}
    if tip:
        for commit in found.iter_commits(tip, max_count=limit):
            seen.setdefault(commit.hexsha, commit.committed_date)
    reflog = os.path.join(repo.common_dir, "logs", ref)
    entries = RefLog.from_file(reflog)[-limit:] if os.path.isfile(reflog) else []
    for entry in reversed(entries):
        oid = entry.newhexsha
        if oid in seen or set(oid) == {"0"}:
            continue
        try:
            seen[oid] = found.commit(oid).committed_date
        except (ValueError, gitpython.BadName, gitpython.BadObject):
            continue  # pruned since: nothing to go back to
    return seen


def update_ref(repo: Repo, ref: str, new: str, old: str | None, message: str, hooked: bool = True) -> str | None:
    """Compare-and-swap ``ref`` from ``old`` (None: must not exist) to ``new``
    (``message`` goes to the reflog); None when it moved, else git's reason.
    ``hooked`` false: without the reference-transaction hook (a hooks
    directory that holds none)."""
    unhooked = [] if hooked else ["-c", f"core.hooksPath={os.devnull}"]
    proc = run(
        [*unhooked, "update-ref", "--create-reflog", "-m", message, ref, new, old or repo.null_oid],
        cwd=repo.toplevel,
        check=False,  # the lock check (reference-transaction) lets the state branch move: it skips that ref
    )
    return None if proc.returncode == 0 else reason(proc)


def ref_lock(repo: Repo, ref: str) -> str:
    """The lock file git takes to move ``ref``; one left behind blocks every update."""
    return os.path.join(repo.common_dir, f"{ref}.lock")


def head_branch(repo: Repo) -> str | None:
    """The checked-out branch's short name, None when HEAD is detached.

    Read from the worktree's HEAD file, as git writes it, without a process;
    git itself answers when that file says something else (another ref backend)."""
    try:
        head = _text(os.path.join(repo.git_dir, "HEAD")).strip()
    except OSError:
        head = ""
    if head.startswith("ref: refs/heads/") and head != "ref: refs/heads/.invalid":
        return head[len("ref: refs/heads/") :]
    if is_oid(head):
        return None
    proc = repo.git("symbolic-ref", "-q", "--short", "HEAD", check=False)
    return proc.stdout.decode().strip() or None


def checked_out(repo: Repo, ref: str) -> list[str]:
    """The worktrees whose HEAD is ``ref`` (read from their HEAD files, no process)."""
    found = []
    common = os.path.normpath(repo.common_dir)
    worktrees = os.path.join(common, "worktrees")
    wheres = [common] + (
        [os.path.join(worktrees, d) for d in sorted(os.listdir(worktrees))] if os.path.isdir(worktrees) else []
    )
    for where in wheres:
        try:
            if _text(os.path.join(where, "HEAD")).strip() != f"ref: {ref}":
                continue
        except OSError:
            continue
        try:
            gitfile = _text(os.path.join(where, "gitdir"), "surrogateescape").strip()  # a linked worktree's .git file
            found.append(os.path.dirname(os.path.normpath(gitfile)) or ".")
        except OSError:
            found.append(os.path.dirname(where) if os.path.basename(where) == ".git" else where)
    return found


def _text(path: str, errors: str = "replace") -> str:
    """A file of git's as text (``Path.read_text``)."""
    with open(path, encoding="utf-8", errors=errors) as f:
        return f.read()


def rebasing_branch(repo: Repo) -> str | None:
    """The branch a rebase in progress is rewriting (HEAD is detached meanwhile), or None."""
    for state in ("rebase-merge", "rebase-apply"):
        try:
            name = _text(os.path.join(repo.git_dir, state, "head-name")).strip()
        except OSError:
            continue
        return name[len("refs/heads/") :] if name.startswith("refs/heads/") else None
    return None


@contextmanager
def new_commit(repo: Repo, oid: str) -> Iterator[Callable[[], bool]]:
    """Whether ``oid`` is a commit that no ref reaches yet (one just made, not
    one moved to), asked of git now: the block runs meanwhile, and the
    function it gets waits for the answer."""
    found = reader(repo).get(oid) if is_oid(oid) else None
    if found is None or found[0] != "commit":
        yield lambda: False
        return
    with background(repo, ["rev-list", "-n1", oid, "--not", "--all"]) as output:
        yield lambda: bool(output().strip())
