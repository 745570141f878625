"""Every piece of advice vibegit prints is a command that works.

Each situation is made for real: vibegit's hooks damaged the ways a new user
met (a lost exec bit, a deleted or replaced hook, core.hooksPath moved, an
edited shim, git-lfs set up after vibegit), a commit refused by the lock or
by a doubt about the state. The commands vibegit names in quotes are read
from what it says, each is run as printed (by a shell, as a person would)
in a fresh copy of the situation, and the problem is gone. ``doctor
--repair`` mends what it says it mends. New advice joins a table here."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import (
    VG,
    Result,
    commit,
    commit_state,
    git,
    init_repo,
    npm_tools,
    run_git,
    start_workflow,
    workflow_path,
)

# A command in quotes: vibegit's, git's, or either with VIBEGIT_ALLOW=1 in front.
COMMAND = re.compile(r"'((?:VIBEGIT_ALLOW=1 )?(?:vibegit|git) [^']*)'")


def advised(text: str) -> list[str]:
    """The commands ``text`` tells a person to run, in order, once each."""
    return list(dict.fromkeys(COMMAND.findall(text)))


def follow(repo: Path, command: str) -> Result:
    """``command`` as a person types it in ``repo`` (a confirmation asked is answered yes)."""
    proc = subprocess.run(command, shell=True, cwd=repo, input="y\n", capture_output=True, text=True)
    return Result(proc.returncode, proc.stdout, proc.stderr)


def follow_each(commands: list[str], situation: Callable[[int], Path], gone: Callable[[Path], None]) -> None:
    """Each command run in a fresh copy of the situation (``situation(i)`` makes the i-th), then the problem ``gone``."""
    assert commands
    for i, command in enumerate(commands):
        repo = situation(i)
        result = follow(repo, command)
        assert result.code == 0, (command, result.err)
        gone(repo)


def blocked(result: Result) -> bool:
    return result.code != 0 and "commit blocked" in result.err


# -- the hooks: every command and doctor say what is wrong, and the command that mends it ----------

Damage = Callable[[Path], None]
HOOKS = Path(".git") / "hooks"


def not_executable(name: str) -> Damage:
    return lambda repo: (repo / HOOKS / name).chmod(0o644)


def removed(name: str) -> Damage:
    return lambda repo: (repo / HOOKS / name).unlink()


def replaced(name: str) -> Damage:
    return lambda repo: (repo / HOOKS / name).write_text("#!/bin/sh\nexit 0\n")  # another tool wrote over ours


def edited(name: str) -> Damage:
    def damage(repo: Path) -> None:
        with (repo / HOOKS / name).open("a") as f:
            f.write("# edited by hand\n")

    return damage


def hooks_path_moved(repo: Path) -> None:
    git(repo, "config", "core.hooksPath", ".githooks")


def lfs_after_vibegit(repo: Path) -> None:
    """git-lfs set up after vibegit: it leaves hooks it did not write alone, so none runs 'git lfs pre-push'."""
    git(repo, "lfs", "install", "--local", "--skip-repo")


HOOK_DAMAGE: dict[str, tuple[Damage, bool]] = {  # name: (damage, does doctor --repair mend it)
    "lock check not executable": (not_executable("reference-transaction"), True),
    "lock check removed": (removed("reference-transaction"), True),
    "lock check replaced": (replaced("reference-transaction"), True),
    "core.hooksPath moved": (hooks_path_moved, True),
    "pre-push not executable": (not_executable("pre-push"), True),
    "opt-in pre-commit removed": (removed("pre-commit"), True),
    "post-checkout replaced": (replaced("post-checkout"), True),
    "post-rewrite edited": (edited("post-rewrite"), True),
    "git-lfs set up after vibegit": (lfs_after_vibegit, False),
}


def hooked(path: Path, vg: VG) -> Path:
    """A repository with vibegit's hooks (the opt-in pre-commit too) and a workflow holding the lock."""
    init_repo(path)
    assert vg("install", cwd=path).code == 0
    assert vg("install", "--hook", "pre-commit", cwd=path).code == 0
    start_workflow(vg, path)
    return path


def healthy(repo: Path, vg: VG) -> None:
    """Nothing left to say: doctor is content, no command warns, and the lock blocks a real commit."""
    doctor = vg("doctor", cwd=repo)
    assert doctor.code == 0, doctor.out
    assert vg("status", cwd=repo).err == ""
    assert blocked(commit(repo))


@pytest.mark.parametrize("situation", HOOK_DAMAGE)
def test_the_advice_for_a_damaged_set_up_mends_it(situation: str, vg: VG, tmp_path: Path) -> None:
    damage, repairable = HOOK_DAMAGE[situation]
    if damage is lfs_after_vibegit and shutil.which("git-lfs") is None:
        if os.environ.get("CI"):
            raise AssertionError("CI needs git-lfs")
        pytest.skip("git-lfs is not installed")
    repo = hooked(tmp_path / "said", vg)
    damage(repo)
    said = vg("doctor", cwd=repo)
    assert said.code == 1 and "✘" in said.out
    if "lock check" in situation or "hooksPath" in situation:  # every command says it too, the same words
        warned = vg("status", cwd=repo).err
        assert warned and warned.removeprefix("vibegit: ").strip() in said.out

    def damaged(i: int) -> Path:
        fresh = hooked(tmp_path / f"follow-{i}", vg)
        damage(fresh)
        return fresh

    follow_each(advised(said.out), damaged, lambda fresh: healthy(fresh, vg))
    if repairable:
        fresh = hooked(tmp_path / "repair", vg)
        damage(fresh)
        repaired = vg("doctor", "--repair", cwd=fresh)
        assert repaired.code == 0 and "still" not in repaired.out, repaired.out
        healthy(fresh, vg)


def test_install_mends_every_difference_and_says_which(repo: Path, vg: VG) -> None:
    """The exec bit the issue's user lost: install said "unchanged" and commits went through."""
    assert vg("install").code == 0
    start_workflow(vg)
    (repo / HOOKS / "reference-transaction").chmod(0o644)
    assert commit(repo).code == 0  # git skips a hook it cannot run
    result = vg("install")
    assert "reference-transaction: its mode was 644, git skips a hook it cannot run: set back to 755" in result.out
    assert result.out.count("already installed, unchanged") == 3
    assert blocked(commit(repo))
    assert vg("install").out.count("already installed, unchanged") == 4


LEFTHOOK_YML = """\
reference-transaction:
  commands:
    team:
      run: "true"
post-checkout:
  commands:
    team:
      run: "true"
pre-push:
  commands:
    team:
      run: "true"
"""


def printed_blocks(out: str) -> str:
    """The lines install says to add to lefthook-local.yml, one block a hook, as a person pastes them."""
    blocks: list[str] = []
    taking = False
    for line in out.splitlines():
        if line.endswith("add to lefthook-local.yml (or lefthook.yml):"):
            taking = True
        elif taking and line.startswith("    "):
            blocks.append(line[4:])
        else:
            taking = False
    return "\n".join(blocks) + "\n"


@pytest.mark.slow
def test_the_lines_install_prints_for_lefthook_make_vibegits_hooks_run(
    repo: Path, vg: VG, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """lefthook moves a hook it takes over to NAME.old and never runs it: every command and doctor
    say so, 'vibegit install' prints the lines, and once pasted the lock check, the report after a
    checkout and the state's push run through lefthook (git's arguments and input passed on)."""
    monkeypatch.setenv("PATH", f"{npm_tools()}{os.pathsep}{os.environ['PATH']}")
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(origin))
    git(repo, "remote", "add", "origin", str(origin))
    (repo / "lefthook.yml").write_text(LEFTHOOK_YML)
    git(repo, "add", "lefthook.yml")
    git(repo, "commit", "-q", "-m", "lefthook")
    assert vg("install").code == 0
    assert subprocess.run(["lefthook", "install"], cwd=repo, capture_output=True).returncode == 0
    start_workflow(vg)
    assert commit(repo).code == 0  # git runs lefthook's reference-transaction, not vibegit's
    assert "lefthook moved it to reference-transaction.old" in vg("status").err
    said = vg("doctor")
    assert said.code == 1 and advised(said.out) == ["vibegit install"], said.out
    printed = follow(repo, "vibegit install")
    assert printed.code == 0, printed.err
    (repo / "lefthook-local.yml").write_text(printed_blocks(printed.out))
    assert blocked(commit(repo))  # the lock check, with the ref updates on its input
    git(repo, "switch", "-q", "-c", "feat")
    back = run_git(repo, "switch", "main")  # to the workflow's branch: the report, with git's arguments
    assert "Session recovery" in back.out + back.err
    pushed = run_git(repo, "push", "-q", "origin", "main")  # pre-push carries the state along, reading its refs
    assert pushed.code == 0, pushed.err
    assert git(origin, "rev-parse", "vibegit/state") == git(repo, "rev-parse", "vibegit/state")
    assert vg("doctor").code == 0 and vg("status").err == ""


# -- the lock: the commands that unblock a commit, each run --------------------------------------


def locked(path: Path, vg: VG, *, done: bool = False, policy: str = "always") -> Path:
    """A workflow on main holding the lock (``done``: every task done); commits go to main, or
    with ``other-branches`` to a branch 'side' of the same worktree."""
    init_repo(path)
    git(path, "commit", "-q", "--allow-empty", "-m", "second")  # an amend has a parent to keep
    assert vg("install", cwd=path).code == 0
    then: tuple[tuple[str, ...], ...] = (("task", "done", "T-001"),) if done else (("task", "start", "T-001"),)
    start_workflow(vg, path, tasks=("One",), then=then)
    git(path, "config", "vibegit.blockCommits", policy)
    if policy == "other-branches":
        git(path, "switch", "-q", "-c", "side")
    return path


LOCKS = {
    "tasks open": {},
    "every task done": {"done": True},
    "a workflow of another branch (other-branches)": {"policy": "other-branches"},
}


@pytest.mark.parametrize("situation", LOCKS)
def test_each_command_a_refusal_names_unblocks_the_commit(situation: str, vg: VG, tmp_path: Path) -> None:
    repo = locked(tmp_path / "said", vg, **LOCKS[situation])
    refused = commit(repo)
    assert blocked(refused)
    unblock = [c for c in advised(refused.err) if c.startswith("vibegit ")]
    expected = {"vibegit pause", "vibegit unlock", "vibegit abort"} | (
        {"vibegit complete"} if "done" in situation else set()
    )
    assert {" ".join(c.split()[:2]) for c in unblock} == expected, refused.err
    for i in range(len(unblock)):
        fresh = locked(tmp_path / f"follow-{i}", vg, **LOCKS[situation])
        command = [c for c in advised(commit(fresh).err) if c.startswith("vibegit ")][i]  # its own workflow id
        result = follow(fresh, command)
        assert result.code == 0, (command, result.err)
        passed = commit(fresh)
        assert passed.code == 0, (command, passed.err)


EDITOR = """#!/bin/sh
# what a person types in the editor git opens: a message above git's comments
{{ printf 'Typed in the editor\\n\\nWith a body.\\n'; cat "$1"; }} > "$1.new" && mv "$1.new" "$1"
"""


@pytest.mark.parametrize("how", ["staged", "-a", "--amend"])
def test_a_message_typed_in_the_editor_survives_a_refusal(how: str, vg: VG, tmp_path: Path) -> None:
    """git keeps the refused commit (and .git/COMMIT_EDITMSG, among comments): the refusal
    names the command that commits with the message once unblocked, or now with VIBEGIT_ALLOW=1."""
    editor = tmp_path / "editor.sh"
    editor.write_text(EDITOR.format())
    editor.chmod(0o755)
    env = {**os.environ, "GIT_EDITOR": str(editor)}

    def refused_commit(path: Path) -> Result:
        (path / "src" / "app.py").write_text("changed\n")
        if how != "-a":
            git(path, "add", "src/app.py")
        result = run_git(path, "commit", *([how] if how != "staged" else []), env=env)
        assert blocked(result), result.err
        return result

    said = refused_commit(locked(tmp_path / "said", vg))
    commands = [c for c in advised(said.err) if "commit -" in c]
    assert len(commands) == 2 and commands[1] == f"VIBEGIT_ALLOW=1 {commands[0]}", said.err
    assert ("-a " in commands[0]) == (how == "-a") and ("--amend" in commands[0]) == (how == "--amend")
    for i, command in enumerate(commands):
        fresh = locked(tmp_path / f"follow-{i}", vg)
        parent = git(fresh, "rev-parse", "HEAD~1" if how == "--amend" else "HEAD")
        refused_commit(fresh)  # the same refused commit: the same tree, parents, author, date and message
        if not command.startswith("VIBEGIT_ALLOW"):
            assert follow(fresh, "vibegit pause").code == 0  # "once unblocked"
        result = follow(fresh, command)
        assert result.code == 0, (command, result.err)
        typed = "Typed in the editor\n\nWith a body." + ("\nsecond" if how == "--amend" else "")  # amend: + the old
        assert git(fresh, "log", "-1", "--format=%B") == typed
        assert git(fresh, "rev-parse", "HEAD~1") == parent and git(fresh, "show", "HEAD:src/app.py") == "changed"
        assert git(fresh, "status", "--porcelain", "--untracked-files=no") == ""  # all of it committed


# -- a doubt blocks: the command named mends the cause ---------------------------------------------


def unreadable_state(repo: Path) -> None:
    path = workflow_path(repo, "kanban.md").split(":", 1)[1]
    commit_state(repo, {path: "## Someday\n- [ ] T-001: one\n"})


def deleted_state_branch(repo: Path) -> None:
    git(repo, "update-ref", "-d", "refs/heads/vibegit/state")  # the mirror still shows the lock


def bad_state_branch_setting(repo: Path) -> None:
    git(repo, "config", "vibegit.stateBranch", "a..b")


DOUBTS: dict[str, tuple[Callable[[Path], None], str]] = {
    "a state that does not parse": (unreadable_state, "cannot be read"),
    "the state branch deleted": (deleted_state_branch, "is gone"),
    "a bad vibegit.stateBranch": (bad_state_branch_setting, "vibegit.stateBranch"),
}


@pytest.mark.parametrize("situation", DOUBTS)
def test_the_command_a_doubt_names_removes_the_doubt(situation: str, vg: VG, tmp_path: Path) -> None:
    damage, why = DOUBTS[situation]
    repo = locked(tmp_path / "said", vg)
    damage(repo)
    refused = commit(repo)
    assert blocked(refused) and why in refused.err
    assert "recorded as an allowed-commit event" not in refused.err  # no workflow to record it in

    def doubted(i: int) -> Path:
        fresh = locked(tmp_path / f"follow-{i}", vg)
        damage(fresh)
        return fresh

    def gone(fresh: Path) -> None:
        after = commit(fresh)
        assert blocked(after) and why not in after.err and "holds the lock" in after.err  # the lock itself, again

    follow_each([c for c in advised(refused.err) if "commit -C" not in c], doubted, gone)
