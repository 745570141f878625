"""The lock check's quick path: a commit blocked by a held lock, told in
milliseconds.

A blocked commit is the hook a user waits on most. The full check
(``lockcheck.blocking``) loads the state's parsers, PyYAML and the records
first; this one reads the few files it needs with one ``git cat-file
--batch``, parses them with a strict reader of the YAML vibegit itself
writes, and imports nothing but the message catalogue and the phase names.

It only ever says "blocked". Whenever it is not sure (a setting sh could
not rule out, a file not in the form vibegit writes, no lock held, a
detached HEAD, ``vibegit.blockCommits=other-branches``, ``VIBEGIT_ALLOW``,
anything unexpected) it answers None and the full check decides. So its
answer is one the full check gives too: the same commits blocked, with the
same words (tests/test_quicklock.py compares the two).
"""

from __future__ import annotations

import io
import os
import sys

from vibegit.core.messages import LANGS, PHASE_TITLES, t, use
from vibegit.handlers import LOCK_HOOKS
from vibegit.infra.gitlite import IN_HOOK, Git, clean_env, pin_repo_env, this_host
from vibegit.infra.plainyaml import Unsure, read_yaml

ALLOW = "VIBEGIT_ALLOW"
UNBLOCK = "'vibegit pause', 'vibegit complete', 'vibegit unlock' or 'vibegit abort'"
NO_SETTINGS = "VIBEGIT_NO_SETTINGS"  # "1": the raw shim made sure, in sh, that no vibegit.* setting is set
# What the full check reads from the model, the settings and the store, as literals (importing those
# modules would load what this path avoids); tests/test_quicklock.py holds each to its source.
_STATUSES = ("init", "running", "paused", "completed", "failed", "aborted")  # core.model.Status
_ACTIVE = ("running", "paused")  # core.model.ACTIVE
_DEFAULTS = ("vibegit/state", "always", "en")  # core.settings.Settings(): state branch, blockCommits, lang
_FORMAT = b"2"  # infra.store.FORMAT
_SETTINGS = ("vibegit.statebranch", "vibegit.blockcommits", "vibegit.lang")


def check(hook: str, args: list[str]) -> int | None:
    """1 (with the refusal printed) when a commit is blocked by a held lock;
    None when the full check must decide. The updates git hands
    ``reference-transaction`` stay readable on stdin for it."""
    if hook not in LOCK_HOOKS or os.environ.get(ALLOW) or os.environ.get(IN_HOOK):
        return None
    sure = os.environ.pop(NO_SETTINGS, "") == "1"
    updates = b""
    if hook == "reference-transaction":
        if args[:1] != ["prepared"]:
            return None
        stdin = sys.stdin
        updates = stdin.buffer.read()
        sys.stdin = io.TextIOWrapper(io.BytesIO(updates), stdin.encoding, stdin.errors)  # for the full check
    try:
        return _check(hook, updates, sure)
    except Exception:  # Unsure, and anything this path did not foresee: the full check knows
        return None


def _check(hook: str, updates: bytes, sure: bool) -> int | None:
    pin_repo_env()  # as the full check does, for the git processes below and after
    env = clean_env(**{IN_HOOK: "1"})
    state_branch, policy, lang = _DEFAULTS if sure else _settings(env)
    if policy != "always":
        raise Unsure
    state_ref = f"refs/heads/{state_branch}"
    gitdir = _git_dir()
    new = ""
    if hook == "pre-commit":
        branch = _head_branch(gitdir)
    else:
        new, ref = _update(updates.decode("utf-8", "surrogateescape"), state_ref)
        branch = ref[len("refs/heads/") :] if ref.startswith("refs/heads/") else _head_branch(gitdir)
    unseen = Git(["git", "rev-list", "-n1", new, "--not", "--all"], env) if new else None  # runs meanwhile
    cat = Git(["git", "cat-file", "--batch"], env)
    try:
        if new and (cat.get(new) or ("", b""))[0] != "commit":
            raise Unsure  # not a commit: the full check lets it through
        blocked = _blocked(cat, state_ref, branch)
        if unseen is not None and not unseen.output().strip():
            raise Unsure  # a commit some ref already reaches (a fast-forward, a reset): it passes
    finally:
        cat.close()
        if unseen is not None:
            unseen.close()
    use(lang)
    name, phase, step, task = blocked
    why = reason(t("block.always", name=name, branch=branch), phase, step, task)
    tell(why, UNBLOCK, "commit …" if hook == "pre-commit" else "…", gitdir)
    return 1


def tell(why: str, fix: str, command: str, gitdir: str) -> None:
    """The refusal both checks print: why, how to unblock, and how to leave a rebase it stopped."""
    print(t("block.blocked", why=why), file=sys.stderr)
    print(t("block.unblock", fix=fix, allow=ALLOW, command=command), file=sys.stderr)
    if any(os.path.isdir(os.path.join(gitdir, d)) for d in ("rebase-merge", "rebase-apply")):
        print("vibegit: the rebase stopped here: 'git rebase --abort' goes back to where you were.", file=sys.stderr)


def reason(why: str, phase: str | None, step: str | None, task: tuple[str, str] | None) -> str:
    """The line both checks print: ``why`` the commit is blocked, then where
    the workflow stands (phase, step, current task)."""
    where = t("block.phase", phase=phase, long=PHASE_TITLES[phase]) if phase else t("block.no_phase")
    if step:
        where += t("block.step", step=step)
    doing = t("block.task", id=task[0], title=task[1]) if task else t("block.no_task")
    return f"{why}; {where}; {doing}"


def _blocked(cat: Git, state_ref: str, branch: str) -> tuple[str, str | None, str | None, tuple[str, str] | None]:
    """The first workflow of ``branch``, held on this host, whose lock file says
    locked: its name, phase, step and current task."""
    found = cat.get(state_ref)
    if found is None or found[0] != "commit" or not found[1].startswith(b"tree "):
        raise Unsure
    tree = found[1][5 : found[1].index(b"\n")].decode()
    if (cat.get(f"{tree}:format") or ("", b""))[1].strip() != _FORMAT:
        raise Unsure
    index = read_yaml(_blob(cat, f"{tree}:index.yaml"))
    host = this_host()
    for item in _list(index.get("workflows")):
        status, where, held_by = _text(item.get("status")) or "init", item.get("branch"), _text(item.get("host")) or ""
        if status not in _STATUSES or (where is not None and not isinstance(where, str)):
            raise Unsure
        if status not in _ACTIVE or held_by != host or where != branch:
            continue
        workflow_id = _text(item.get("id")) or ""
        if not workflow_id[:1].isalnum() or not all(c.isascii() and (c.isalnum() or c in "._-") for c in workflow_id):
            raise Unsure  # not a workflow id (core.workflows.WORKFLOW_ID): the full check says so
        lock = cat.get(f"{tree}:workflows/{workflow_id}/workflow.lock")
        if lock is None:
            continue  # no lock file: not held
        if lock[0] != "blob":
            raise Unsure
        locked = read_yaml(lock[1]).get("locked", True)
        if not isinstance(locked, bool):
            raise Unsure
        if locked:
            return _holder(cat, f"{tree}:workflows/{workflow_id}/", workflow_id)
    raise Unsure  # nothing blocks, as far as this path can tell: the full check says so itself


def _holder(cat: Git, where: str, workflow_id: str) -> tuple[str, str | None, str | None, tuple[str, str] | None]:
    session = read_yaml(_blob(cat, f"{where}session.yaml"))
    mode, workflow = session.get("mode"), session.get("workflow")
    if not isinstance(mode, dict) or not isinstance(workflow, dict) or _text(workflow.get("id")) != workflow_id:
        raise Unsure
    name = _text(mode.get("workflow_name")) or workflow_id
    phase = _text(mode.get("phase"))
    step = _text(mode.get("step"))
    current = _text(workflow.get("current_task"))
    task = (current, _title(_blob(cat, f"{where}kanban.md"), current)) if current else None
    if phase is not None and phase not in PHASE_TITLES:
        raise Unsure
    return name, phase, step, task


def _title(kanban: bytes, task_id: str) -> str:
    """The title of task ``task_id`` on the board, read as kanban.md's parser reads it."""
    for raw in kanban.decode("utf-8").split("\n"):
        line = raw.strip()
        if not line.isprintable():
            raise Unsure
        if line.startswith("- [") and line[4:6] == "] " and line[3] in " xX~":
            found, colon, title = line[6:].partition(": ")
            if colon and found == task_id and title.strip():
                return title.strip()
    raise Unsure


# -- settings, HEAD and the updates ------------------------------------------------


def _settings(env: dict[str, str]) -> tuple[str, str, str]:
    """The state branch, blockCommits and lang, as ``core.settings`` reads them
    when every value is a plain one; any doubt is Unsure."""
    git = Git(["git", "config", "-z", "--get-regexp", r"^vibegit\."], env)
    try:
        found: dict[str, str] = {}
        for field in git.output().split(b"\0")[:-1]:
            key, newline, value = field.decode("utf-8").partition("\n")
            if not newline or key in found or key not in _SETTINGS:
                raise Unsure  # no value, set twice, or a setting only the full check validates
            found[key] = value.strip()
    finally:
        git.close()
    branch = found.get("vibegit.statebranch", _DEFAULTS[0]).removeprefix("refs/heads/")
    policy = found.get("vibegit.blockcommits", _DEFAULTS[1]).lower()
    lang = found.get("vibegit.lang", _DEFAULTS[2]).lower()
    if not all(c.isalnum() or c in "/._-" for c in branch) or ".." in branch or branch.strip("/") != branch:
        raise Unsure
    if not branch or lang not in LANGS:
        raise Unsure
    return branch, policy, lang


def _git_dir() -> str:
    gitdir = os.environ.get("GIT_DIR") or ".git"
    if os.path.isfile(gitdir):
        with open(gitdir, encoding="utf-8") as f:
            line = f.readline().strip()
        if not line.startswith("gitdir: "):
            raise Unsure
        gitdir = os.path.join(os.path.dirname(gitdir), line[len("gitdir: ") :])
    return gitdir


def _head_branch(gitdir: str) -> str:
    with open(os.path.join(gitdir, "HEAD"), encoding="utf-8") as f:
        head = f.read().strip()
    if not head.startswith("ref: refs/heads/") or head == "ref: refs/heads/.invalid":
        raise Unsure  # a detached HEAD (a rebase, a worktree's own), or another ref backend
    return head[len("ref: refs/heads/") :]


def _update(updates: str, state_ref: str) -> tuple[str, str]:
    """The one new value the transaction moves branches to, and the first ref it moves there."""
    moves = [line.split() for line in updates.splitlines()]
    moves = [m for m in moves if len(m) == 3 and m[2] != state_ref]
    if not moves or len({m[1] for m in moves}) != 1:
        raise Unsure
    new, ref = moves[0][1], moves[0][2]
    if len(new) not in (40, 64) or not all(c in "0123456789abcdef" for c in new) or new.strip("0") == "":
        raise Unsure
    if ref != "HEAD" and not ref.startswith("refs/heads/"):
        raise Unsure
    return new, ref


def _blob(cat: Git, name: str) -> bytes:
    found = cat.get(name)
    if found is None or found[0] != "blob":
        raise Unsure
    return found[1]


def _text(value: object) -> str | None:
    if value is not None and not isinstance(value, str):
        raise Unsure  # a number or a boolean where text belongs: the full check says what it makes of it
    return value


def _list(value: object) -> list[dict[str, object]]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise Unsure
    return value
