"""``vibegit doctor``: check the state branch, and repair it as a new event.

Checks: the branch points to a commit; its state files parse; the history is
an orphan (no user commit in it); the lock agrees with the status; a
checkpoint's snapshot tree is in the commit; the mirror's files parse.
``--repair`` finds the newest good state commit (history, then the reflog,
newest first) and records a NEW event whose tree is that commit's tree and
whose parent is the current tip: nothing is deleted, the bad commits stay
in history. A broken mirror file is moved aside and the mirror rewritten.
"""
from __future__ import annotations

from pathlib import Path

from vibegit import git, mirror, snapshot, store
from vibegit.core.settings import Settings
from vibegit.errors import OK, REFUSED, BadInput, GitError
from vibegit.files import PARSERS, STATE_FILES, parse_all
from vibegit.core import lifecycle

MAX_CANDIDATES = 5000


def commit_problems(repo: git.Repo, cat: git.CatFile, settings: Settings, commit: str) -> list[str]:
    """What is wrong with one state commit (empty: good)."""
    where = f"{settings.state_branch}@{commit[:10]}:"
    try:
        tree, files = store.read_files(repo, cat, commit)
        state = parse_all(files, where)
    except (BadInput, GitError) as err:
        return [str(err)]
    problems = lifecycle.lock_problems(state)
    k = state.checkpoint
    entry = next((e for e in tree if e.name == snapshot.ENTRY), None)
    if k is not None and k.snapshot:
        found = cat.get(k.snapshot) if git.is_oid(k.snapshot) else None
        if entry is None or entry.mode != "40000" or entry.oid != k.snapshot:
            problems.append(f"{where}session.yaml: checkpoint.snapshot {k.snapshot[:12]} is not the snapshot/ tree "
                            "of the commit")
        elif found is None or found[0] != "tree":
            problems.append(f"snapshot tree {k.snapshot[:12]} is missing from the object store")
    return problems


def orphan_problems(repo: git.Repo, settings: Settings, tip: str) -> list[str]:
    total = repo.out("rev-list", "--count", tip)
    own = repo.out("rev-list", "--count", tip, "--not", f"--exclude={settings.state_branch}", "--branches", "--tags")
    if total != own:
        return [f"{settings.state_branch} is not an orphan: {int(total) - int(own)} commit(s) of your branches "
                "are in its history (only 'git' can untangle that; doctor --repair does not rewrite history)"]
    return []


def mirror_problems(repo: git.Repo, settings: Settings) -> list[tuple[Path, str]]:
    try:
        mdir = mirror.directory(repo, settings)
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


def _candidates(repo: git.Repo, settings: Settings, tip: str | None) -> list[str]:
    """Every state commit known here, newest first: the history, then the reflog.

    Read with GitPython: doctor is rare and off the hot path, and GitPython
    parses the reflog file for us."""
    import git as gitpython  # GitPython, not vibegit.git
    from git.refs.log import RefLog

    found = gitpython.Repo(repo.toplevel)
    seen: dict[str, int] = {}
    if tip:
        for commit in found.iter_commits(tip, max_count=MAX_CANDIDATES):
            seen.setdefault(commit.hexsha, commit.committed_date)
    reflog = repo.common_dir / "logs" / settings.state_ref
    entries = RefLog.from_file(str(reflog))[-MAX_CANDIDATES:] if reflog.is_file() else []
    for entry in reversed(entries):
        oid = entry.newhexsha
        if oid in seen or set(oid) == {"0"}:
            continue
        try:
            seen[oid] = found.commit(oid).committed_date
        except (ValueError, gitpython.BadName, gitpython.BadObject):
            continue  # pruned since: nothing to go back to
    return sorted(seen, key=lambda c: -seen[c])


def cmd_doctor(repair: bool) -> int:
    from vibegit import commands

    h = commands.here()
    repo, settings = h.repo, h.settings
    say = commands.say
    with store.locked(repo), git.CatFile(repo) as cat:
        found = cat.get(settings.state_ref)
        tip = found[1] if found is not None and found[0] == "commit" else None
        problems: list[str] = []
        if found is None:
            reflog = repo.git("log", "-g", "-n1", "--format=%H", settings.state_ref, "--", check=False)
            if not reflog.stdout.strip():
                say(f"No {settings.state_branch} here yet; nothing to check.")
                return OK
            problems.append(f"{settings.state_ref} is missing")
        elif tip is None:
            problems.append(f"{settings.state_ref} points to a {found[0]}, not a commit")
        else:
            problems += commit_problems(repo, cat, settings, tip)
            problems += orphan_problems(repo, settings, tip)
        broken_mirror = mirror_problems(repo, settings)
        for problem in problems:
            say(f"✘ {problem}")
        for _, problem in broken_mirror:
            say(f"✘ mirror: {problem}")
        if not problems and not broken_mirror:
            count = repo.out("rev-list", "--count", tip) if tip else "0"
            say(f"✔ {settings.state_branch} is healthy ({count} event(s), tip {(tip or '')[:10]}); "
                "the mirror parses.")
            return OK
        if not repair:
            say("Run 'vibegit doctor --repair' to go back to the newest good state (a new event; nothing is deleted).")
            return REFUSED
        branch_bad = bool(problems) and not all("not an orphan" in p for p in problems)
        if branch_bad:
            good = next((c for c in _candidates(repo, settings, tip) if c != tip
                         and not commit_problems(repo, cat, settings, c)), None)
            if good is None:
                say(f"No good state found in the history or reflog of {settings.state_branch}; nothing changed.")
                return REFUSED
            tree = repo.out("rev-parse", f"{good}^{{tree}}")
            _, files = store.read_files(repo, cat, good)
            state, event = lifecycle.repaired(parse_all(files, ""), good, problems[0])
            e = commands.env(h)
            commit = git.write_commit(repo, tree, [tip] if tip else [good], store.message(event, state, e),
                                      git.identity(h.config, "AUTHOR"), git.identity(h.config))
            old = found[1] if found is not None else None
            if not git.update_ref(repo, settings.state_ref, commit, old, "vibegit: repair"):
                raise GitError(f"{settings.state_ref} changed during repair; run it again")
            say(f"Repaired: {settings.state_branch} now holds the state of {good[:10]} as new event {commit[:10]}"
                + (f" on top of {tip[:10]} (the bad commits stay in history)." if tip else "."))
        else:
            commit = tip or ""
        for path, _ in broken_mirror:
            if path.is_file():
                aside = path.with_name(path.name + ".broken")
                path.replace(aside)
                say(f"Moved the broken {path.name} of the mirror aside to {aside.name}.")
        notices: list[str] = []
        _, files = store.read_files(repo, cat, commit)
        mirror.write(repo, settings, commit, {k: v.decode("utf-8", errors="replace") for k, v in files.items()
                                              if k in STATE_FILES}, notices)
        for notice in notices:
            say(notice)
        if any("not an orphan" in p for p in problems):
            return REFUSED
        return OK
