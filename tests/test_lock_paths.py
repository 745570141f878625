"""Every way a commit reaches a locked branch meets the lock check (the
README's table has a row for each test here), and the check fails closed:
a setting, a state or a state branch it cannot be sure of blocks, with the
reason and the fix. Real git commands, real hooks, installed by
``vibegit install``."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import (
    MIRROR,
    VG,
    Result,
    commit,
    commit_state,
    drop_object,
    events,
    git,
    init_repo,
    run_git,
    start_workflow,
    workflow_path,
)

ALLOW = {**os.environ, "VIBEGIT_ALLOW": "1"}


@pytest.fixture
def locked(repo: Path, vg: VG) -> Path:
    """A repository with vibegit's hooks, a branch ``side`` with one commit of
    its own, and a running workflow (started on main)."""
    assert vg("install").code == 0
    git(repo, "switch", "-q", "-c", "side")
    (repo / "side.txt").write_text("side\n")
    git(repo, "add", "side.txt")
    git(repo, "commit", "-q", "-m", "side work")
    git(repo, "switch", "-q", "main")
    (repo / "main.txt").write_text("main\n")
    git(repo, "add", "main.txt")
    git(repo, "commit", "-q", "-m", "main moves on")
    start_workflow(vg)
    return repo


def refused(repo: Path, result: Result, head: str) -> None:
    assert result.code != 0, result.out + result.err
    assert "commit blocked" in result.err and "VIBEGIT_ALLOW=1" in result.err, result.err
    assert "Traceback" not in result.err
    assert git(repo, "rev-parse", "HEAD") == head  # the branch did not move


def patch_file(repo: Path, tmp_path: Path) -> Path:
    """A patch made on a throw-away branch (for git am)."""
    made = list((tmp_path / "patches").glob("*.patch"))
    if made:
        return made[0]
    git(repo, "switch", "-q", "-c", "patch-source", "side")  # another parent: am makes a new commit
    (repo / "patched.txt").write_text("patched\n")
    git(repo, "add", "patched.txt")
    assert commit(repo, "a patch", env=ALLOW).code == 0
    out = git(repo, "format-patch", "-1", "-o", str(tmp_path / "patches"))
    git(repo, "switch", "-q", "main")
    return Path(out)


WAYS: dict[str, Callable[[Path, Path], list[str]]] = {
    "commit": lambda r, t: ["commit", "--allow-empty", "-m", "work"],
    "commit --no-verify": lambda r, t: ["commit", "--no-verify", "--allow-empty", "-m", "work"],
    "commit --amend": lambda r, t: ["commit", "--amend", "--allow-empty", "-m", "amended"],
    "merge --no-ff": lambda r, t: ["merge", "--no-ff", "-m", "merge side", "side"],
    "cherry-pick": lambda r, t: ["cherry-pick", "side"],
    "revert": lambda r, t: ["revert", "--no-edit", "HEAD"],
    "am": lambda r, t: ["am", str(patch_file(r, t))],
    "commit-tree + update-ref": lambda r, t: [
        "update-ref",
        "refs/heads/main",
        git(r, "commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", "plumbing"),
    ],
}


@pytest.mark.parametrize("way", list(WAYS))
def test_every_way_to_commit_is_blocked_while_locked(locked: Path, tmp_path: Path, way: str) -> None:
    args = WAYS[way](locked, tmp_path)
    head = git(locked, "rev-parse", "HEAD")
    refused(locked, run_git(locked, *args), head)
    before = events(locked)
    if way == "am":
        git(locked, "am", "--abort")
        args = WAYS[way](locked, tmp_path)
    elif way in ("merge --no-ff", "revert"):
        git(locked, "reset", "-q", "--hard", head)
    elif way == "cherry-pick":
        git(locked, "cherry-pick", "--abort")
    result = run_git(locked, *args, env=ALLOW)
    assert result.code == 0, result.err
    assert git(locked, "rev-parse", "HEAD") != head
    assert events(locked)[0] == "allowed-commit" and events(locked)[1:] == before


def test_a_rebase_is_blocked_and_abort_goes_back(locked: Path) -> None:
    git(locked, "switch", "-q", "side")
    assert commit(locked, "on side").code == 0  # no workflow runs on side
    git(locked, "switch", "-q", "main")
    assert commit(locked, "main moves on", env=ALLOW).code == 0
    head = git(locked, "rev-parse", "HEAD")
    result = run_git(locked, "rebase", "side")  # rewrites main, whose workflow holds the lock
    assert result.code != 0 and "commit blocked" in result.err
    assert "git rebase --abort" in result.err
    git(locked, "rebase", "--abort")
    assert git(locked, "rev-parse", "HEAD") == head and git(locked, "symbolic-ref", "HEAD") == "refs/heads/main"


def test_a_bare_repository_dotfiles_set_up(tmp_path: Path, vg: VG) -> None:
    """git --git-dir=~/.dotfiles --work-tree=~: no .git in the work tree."""
    home = tmp_path / "dothome"
    home.mkdir()
    dotfiles = home / ".dotfiles"
    git(tmp_path, "init", "-q", "--bare", str(dotfiles))
    (home / ".bashrc").write_text("alias x=y\n")
    env = {**os.environ, "GIT_DIR": str(dotfiles), "GIT_WORK_TREE": str(home)}
    dot = ["--git-dir", str(dotfiles), "--work-tree", str(home)]
    assert run_git(home, *dot, "add", ".bashrc").code == 0
    assert run_git(home, *dot, "commit", "-q", "-m", "dotfiles").code == 0
    from tests.helpers import vg_proc

    for args in (("install",), ("start", "vibe-code", "--goal", "dotfiles")):
        result = vg_proc(*args, cwd=home, env=env)
        assert result.code == 0, result.err
    head = git(home, *dot, "rev-parse", "HEAD")
    (home / "sub").mkdir()
    for where in (home, home / "sub"):
        result = run_git(where, *dot, "commit", "--allow-empty", "-m", "while locked")
        assert result.code != 0 and "commit blocked" in result.err, result.err
        assert git(home, *dot, "rev-parse", "HEAD") == head
    result = run_git(home, "commit", "--allow-empty", "-m", "through the environment", env=env)
    assert result.code != 0 and "commit blocked" in result.err


# -- what passes: nothing new reaches a branch ---------------------------------------------


def test_moves_that_bring_no_new_commit_pass(locked: Path, tmp_path: Path) -> None:
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(locked, "remote", "add", "origin", str(bare))
    assert run_git(locked, "push", "-q", "origin", "main", "side").code == 0
    for args in (
        ("fetch", "-q", "origin"),
        ("branch", "known", "side"),
        ("checkout", "-q", "-b", "feature", "side~1"),
        ("merge", "-q", "--ff-only", "side"),
        ("reset", "-q", "--hard", "main"),
        ("branch", "-f", "known", "main"),
        ("tag", "v1"),
        ("switch", "-q", "main"),
        ("branch", "-D", "known"),
    ):
        result = run_git(locked, *args)
        assert result.code == 0, (args, result.err)
        assert "blocked" not in result.err, args
    (locked / "README.md").write_text("stash me\n")
    assert run_git(locked, "stash", "-q").code == 0
    assert run_git(locked, "stash", "pop", "-q").code == 0


def test_vibegit_events_while_locked_pass(locked: Path, vg: VG) -> None:
    for args in (("task", "add", "T-009", "more"), ("checkpoint",), ("phase", "R2")):
        assert vg(*args).code == 0, args


# -- fail closed -------------------------------------------------------------------------------


def test_a_state_branch_setting_with_a_leading_space(locked: Path) -> None:
    git(locked, "config", "vibegit.stateBranch", " vibegit/state")
    head = git(locked, "rev-parse", "HEAD")
    refused(locked, commit(locked), head)


@pytest.mark.parametrize("value", ["bad..name", "has space", "trailing/"])
def test_an_unreadable_state_branch_setting_blocks_with_the_fix(locked: Path, value: str) -> None:
    git(locked, "config", "vibegit.stateBranch", value)
    result = commit(locked)
    assert result.code != 0 and "vibegit.stateBranch" in result.err and "git config" in result.err


@pytest.mark.parametrize("packed", [False, True])
def test_a_deleted_state_branch_while_the_mirror_shows_the_lock(locked: Path, packed: bool) -> None:
    if packed:  # no ref file for the shim to look at: git tells (its rev-parse)
        git(locked, "pack-refs", "--all")
    git(locked, "branch", "-D", "vibegit/state")  # "delete every branch but main"
    head = git(locked, "rev-parse", "HEAD")
    result = commit(locked)
    refused(locked, result, head)
    assert "is gone" in result.err and "vibegit doctor --repair" in result.err


@pytest.mark.parametrize(
    "board",
    [
        "## Doing\n- [~] T-001: " + "x" * 5000 + "\n",  # a title past its bound
        "## Todo\n- [ ] T-001: one\n- [ ] T-001: twice\n",  # a duplicated task
        "## Someday\n- [ ] T-001: one\n",  # a column vibegit does not know
    ],
)
def test_a_corrupt_kanban_blocks_with_the_remedy_that_works(locked: Path, board: str) -> None:
    """One lock check: a state it cannot read blocks and names doctor --repair,
    never 'pause' or 'unlock', which fail on the same file."""
    path = workflow_path(locked, "kanban.md").split(":", 1)[1]
    commit_state(locked, {path: board})
    head = git(locked, "rev-parse", "HEAD")
    result = commit(locked)
    refused(locked, result, head)
    assert "vibegit doctor --repair" in result.err and "vibegit pause" not in result.err, result.err


def test_the_refusal_speaks_the_configured_language(locked: Path) -> None:
    git(locked, "config", "vibegit.lang", "zh")
    head = git(locked, "rev-parse", "HEAD")
    result = commit(locked)
    assert result.code != 0 and git(locked, "rev-parse", "HEAD") == head
    assert "提交被阻止" in result.err, result.err


def test_missing_state_objects_block(locked: Path) -> None:
    lock_blob = git(locked, "rev-parse", workflow_path(locked, "workflow.lock"))
    drop_object(locked, lock_blob)  # as a gc racing a snapshot leaves it
    head = git(locked, "rev-parse", "HEAD")
    result = commit(locked)
    refused(locked, result, head)
    assert "missing" in result.err and "doctor" in result.err


def test_a_missing_installation_blocks_with_one_line(locked: Path, tmp_path: Path) -> None:
    from vibegit.infra import hookfiles

    assert hookfiles.install(python=str(tmp_path / "gone" / "python"), cwd=locked) == 0
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("git", "sh", "cat", "printf"):
        found = shutil.which(tool)
        assert found
        (bin_dir / tool).symlink_to(found)
    head = git(locked, "rev-parse", "HEAD")
    result = commit(locked, env={**os.environ, "PATH": str(bin_dir)})
    refused(locked, result, head)
    lines = [line for line in result.err.splitlines() if line and not line.startswith("fatal:")]
    assert len(lines) == 1 and "vibegit not found" in lines[0] and "VIBEGIT_ALLOW=1" in lines[0]


def test_a_hook_in_another_repository_sees_its_own_state(tmp_path: Path, vg: VG) -> None:
    one = init_repo(tmp_path / "one")
    assert vg("install", cwd=one).code == 0
    start_workflow(vg, cwd=one)
    assert (one / MIRROR / "workflow.lock").is_file()
    two = init_repo(tmp_path / "two")
    assert vg("install", cwd=two).code == 0
    assert commit(two).code == 0


def test_a_state_branch_and_mirror_of_their_own(repo: Path, vg: VG) -> None:
    git(repo, "config", "vibegit.stateBranch", "team/ai-state")
    git(repo, "config", "vibegit.mirrorDir", "docs/ai state")
    assert vg("install").code == 0
    start_workflow(vg)
    head = git(repo, "rev-parse", "HEAD")
    refused(repo, commit(repo), head)
    git(repo, "branch", "-D", "team/ai-state")  # the shim finds the lock in that mirror
    result = commit(repo)
    refused(repo, result, head)
    assert "team/ai-state is gone" in result.err
