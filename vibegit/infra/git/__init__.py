"""Git: the module that starts git, with a small named function per need
(through ``gitlite``'s processes).

Objects of the state branch are written straight into the object store (as
git-revise and dulwich do) so an event costs no subprocess per object; refs
move only by ``git update-ref NEW OLD``, a compare-and-swap. GitPython serves
where parsing would be ours to write (remotes and upstreams, the reflog),
always off the hook path, imported inside the function that needs it.
"""

from __future__ import annotations

from pathlib import Path

from vibegit.core.records import NamedTuple
from vibegit.core.text import is_oid
from vibegit.errors import BadInput
from vibegit.infra.git.objects import (
    AHEAD_BYTES,
    BATCH,
    SMALL_OBJECT,
    CatFile,
    TooLarge,
    TreeEntry,
    blob_id,
    checkout_bytes,
    close_readers,
    git_time,
    hash_paths,
    merge_text,
    missing_objects,
    parse_tree,
    reader,
    write_commit,
    write_object,
    write_tree,
)
from vibegit.infra.git.process import (
    Done,
    Repo,
    background,
    detach,
    fields,
    new_file,
    out,
    reason,
    run,
    running,
    scratch_file,
    text,
)
from vibegit.infra.git.repository import (
    FALLBACK_EMAIL,
    FALLBACK_NAME,
    Config,
    Identity,
    config_files,
    config_values,
    find_repo,
    identity,
    read_config,
    rev_parse,
    stamp,
)
from vibegit.infra.gitlite import (
    HOOK_GIT_VARS,
    IN_HOOK,
    clean_env,
    pin_repo_env,
)

REMOTE_NS = "refs/vibegit/remote/"  # where sync keeps each remote's state branch

# re-exported: callers that check ids before git sees them, and the environment git runs in
__all__ = [
    "AHEAD_BYTES",
    "BATCH",
    "FALLBACK_EMAIL",
    "FALLBACK_NAME",
    "HOOK_GIT_VARS",
    "IN_HOOK",
    "SMALL_OBJECT",
    "CatFile",
    "Config",
    "Done",
    "Identity",
    "Repo",
    "TooLarge",
    "TreeEntry",
    "background",
    "blob_id",
    "checkout_bytes",
    "clean_env",
    "close_readers",
    "config_files",
    "config_values",
    "detach",
    "fields",
    "find_repo",
    "git_time",
    "hash_paths",
    "identity",
    "is_oid",
    "merge_text",
    "missing_objects",
    "new_file",
    "out",
    "parse_tree",
    "pin_repo_env",
    "read_config",
    "reader",
    "reason",
    "rev_parse",
    "run",
    "running",
    "scratch_file",
    "stamp",
    "text",
    "write_commit",
    "write_object",
    "write_tree",
]


def update_ref(repo: Repo, ref: str, new: str, old: str | None, message: str) -> str | None:
    """Compare-and-swap ``ref`` from ``old`` (None: must not exist) to ``new``
    (``message`` goes to the reflog); None when it moved, else git's reason."""
    proc = run(
        ["update-ref", "--create-reflog", "-m", message, ref, new, old or repo.null_oid],
        cwd=repo.toplevel,
        check=False,  # the lock check (reference-transaction) lets the state branch move: it skips that ref
    )
    return None if proc.returncode == 0 else reason(proc)


def ref_lock(repo: Repo, ref: str) -> Path:
    """The lock file git takes to move ``ref``; one left behind blocks every update."""
    return repo.common_dir / f"{ref}.lock"


def head_branch(repo: Repo) -> str | None:
    """The checked-out branch's short name, None when HEAD is detached.

    Read from the worktree's HEAD file, as git writes it, without a process;
    git itself answers when that file says something else (another ref backend)."""
    try:
        head = (repo.git_dir / "HEAD").read_text(errors="replace").strip()
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
    heads = [(repo.common_dir / "HEAD", repo.common_dir)]
    worktrees = repo.common_dir / "worktrees"
    if worktrees.is_dir():
        heads += [(d / "HEAD", d) for d in sorted(worktrees.iterdir())]
    for head, where in heads:
        try:
            if head.read_text(errors="replace").strip() != f"ref: {ref}":
                continue
        except OSError:
            continue
        try:
            gitfile = (where / "gitdir").read_text(errors="surrogateescape").strip()  # a linked worktree's .git file
            found.append(str(Path(gitfile).parent))
        except OSError:
            found.append(str(where.parent if where.name == ".git" else where))
    return found


def rebasing_branch(repo: Repo) -> str | None:
    """The branch a rebase in progress is rewriting (HEAD is detached meanwhile), or None."""
    for state in ("rebase-merge", "rebase-apply"):
        try:
            name = (repo.git_dir / state / "head-name").read_text(errors="replace").strip()
        except OSError:
            continue
        return name[len("refs/heads/") :] if name.startswith("refs/heads/") else None
    return None


def is_new_commit(repo: Repo, oid: str) -> bool:
    """``oid`` is a commit that no ref reaches yet: one just made, not one moved to."""
    if not is_oid(oid):
        return False
    found = reader(repo).get(oid)
    if found is None or found[0] != "commit":
        return False
    return bool(repo.out("rev-list", "-n1", oid, "--not", "--all"))


class Pushed(NamedTuple):
    ok: bool
    flags: list[str]  # git push --porcelain flags: "=" up to date, "!" rejected
    detail: str  # git's last line of error, when not ok
    declined: bool = False  # a pre-push hook refused it
    hook_said: str = ""  # the last lines the hook printed
    summaries: tuple[str, ...] = ()  # each ref line's summary: "[rejected] (fetch first)", "[remote rejected] (…)"
    said: str = ""  # everything git printed on stderr


def push_ref(repo: Repo, ref: str, remote: str, verify: bool = True, commit: str = "") -> Pushed:
    """Push ``ref`` (or exactly ``commit``, the one a scan read) to the same
    name on ``remote``, fast-forward only.

    The user's own pre-push hooks run for it (``verify``; their scanners
    see what vibegit publishes too), vibegit's own stays quiet (IN_HOOK)."""
    if commit and not is_oid(commit):
        raise BadInput(f"git push: {commit!r:.60} is not an object id")
    env = clean_env(GIT_TERMINAL_PROMPT="0", **{IN_HOOK: "1"})
    args = ["push", "--porcelain", *([] if verify else ["--no-verify"]), remote, f"{commit or ref}:{ref}"]
    proc = run(args, cwd=repo.toplevel, check=False, env=env)
    # --porcelain lines: "<flag>\t<from>:<to>\t<summary>"
    refs = [line.split("\t") for line in proc.stdout.decode(errors="replace").splitlines() if line[1:2] == "\t"]
    flags = [line[0][0] for line in refs]
    stderr = proc.stderr.decode(errors="replace")
    said = stderr.splitlines()
    # A pre-push hook that refuses leaves no ref line and no fatal error of git's own.
    declined = proc.returncode != 0 and not flags and not any(line.startswith("fatal:") for line in said)
    hook = [line for line in said if line.strip() and not line.startswith(("error: failed to push", "To "))]
    summaries = tuple(line[2] if len(line) > 2 else "" for line in refs)
    return Pushed(proc.returncode == 0, flags, reason(proc), declined, "\n".join(hook[-8:]), summaries, stderr)


def network_env() -> dict[str, str]:
    """For git talking to a remote: never prompt, and vibegit's own hooks stay quiet."""
    return clean_env(GIT_TERMINAL_PROMPT="0", **{IN_HOOK: "1"})


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


def remotes(repo: Repo) -> list[str]:
    return repo.out("remote").split()


class Remotes(NamedTuple):
    urls: dict[str, str]  # every remote with a URL, and its URL
    upstream: str | None  # the remote of the current branch's upstream, if it has one


def remote_config(repo: Repo, config: dict[str, str] | None = None) -> Remotes:
    """The remotes and the current branch's upstream remote: from ``config``
    (``read_config``'s, which holds them: no process), else one ``git config``."""
    branch = head_branch(repo)
    if config is None:
        proc = repo.git("config", "-z", "--get-regexp", r"^(remote\..*\.url|branch\..*\.remote)$", check=False)
        pairs = [item.partition("\n")[::2] for item in proc.stdout.decode(errors="replace").split("\0")]
    else:
        pairs = list(config.items())
    urls: dict[str, str] = {}
    upstream = None
    for key, value in pairs:
        if key.startswith("remote.") and key.endswith(".url") and len(key) > len("remote..url"):
            urls.setdefault(key[len("remote.") : -len(".url")], value)
        elif branch is not None and key == f"branch.{branch}.remote":
            upstream = value
    return Remotes(urls, upstream)


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
    reflog = repo.common_dir / "logs" / ref
    entries = RefLog.from_file(str(reflog))[-limit:] if reflog.is_file() else []
    for entry in reversed(entries):
        oid = entry.newhexsha
        if oid in seen or set(oid) == {"0"}:
            continue
        try:
            seen[oid] = found.commit(oid).committed_date
        except (ValueError, gitpython.BadName, gitpython.BadObject):
            continue  # pruned since: nothing to go back to
    return seen
