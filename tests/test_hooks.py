"""The git hooks end to end: installed with ``vibegit install`` into real
repositories, driven by real git commit, checkout, switch, rebase, amend
and push to a bare repository on disk."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.helpers import (
    VG,
    Result,
    bare_origin,
    commit,
    commit_state,
    events,
    git,
    run_git,
    start_workflow,
    state_ref,
    status_json,
    vg_proc,
    workflow_dir,
    workflow_path,
)
from vibegit import handlers as hook
from vibegit.infra import git as vgit
from vibegit.infra import hookfiles as install

UNBLOCK = ("'vibegit pause'", "'vibegit unlock'", "'vibegit abort'", "VIBEGIT_ALLOW=1 in front")
ALLOW = {**os.environ, "VIBEGIT_ALLOW": "1"}


def blocked(result: Result) -> bool:
    """git refused because of the lock (128 from reference-transaction, 1 from pre-commit)."""
    return result.code != 0 and "commit blocked" in result.err


@pytest.fixture
def hooked(repo: Path, vg: VG) -> Path:
    result = vg("install")
    assert result.code == 0, result.err
    return repo


# -- no workflow: silence ------------------------------------------------------------


def test_no_workflow_commit_checkout_and_switch_are_silent(hooked: Path, vg: VG) -> None:
    for args in (("commit", "--allow-empty", "-m", "one"), ("checkout", "-b", "feat"), ("switch", "main")):
        result = run_git(hooked, *args)
        assert result.code == 0, result.err
        assert "vibegit" not in result.out + result.err, args
    assert state_ref(hooked) == ""  # nothing was written either
    start_workflow(vg)
    assert vg("unlock", "--yes").code == 0  # a workflow that ended: silence again
    for args in (("commit", "--allow-empty", "-m", "two"), ("checkout", "feat"), ("switch", "main")):
        result = run_git(hooked, *args)
        assert result.code == 0, result.err
        assert "vibegit" not in result.out + result.err and "recovery" not in result.err, args


# -- pre-commit: the lock check ------------------------------------------------------


def test_lock_blocks_commit_and_names_what_unblocks_it(hooked: Path, vg: VG) -> None:
    start_workflow(vg)
    head = git(hooked, "rev-parse", "HEAD")
    result = commit(hooked)
    assert blocked(result)
    assert git(hooked, "rev-parse", "HEAD") == head
    message = result.err
    for expected in ("'vibe-code'", "phase E (Execute), step 4.3", "T-002: Login API", *UNBLOCK):
        assert expected in message, expected
    assert "vibegit complete" not in message  # T-002 is not done: complete would refuse
    assert "Traceback" not in message
    assert blocked(commit(hooked, "no-verify skips pre-commit, not the lock", "--no-verify"))
    before = events(hooked)
    result = commit(hooked, "escape hatch", env=ALLOW)
    assert result.code == 0, result.err
    assert git(hooked, "rev-parse", "HEAD") != head
    assert events(hooked) == ["allowed-commit", *before]
    body = git(hooked, "log", "-1", "--format=%B", "refs/heads/vibegit/state")
    assert f"Vibegit-Allowed-Commit: {git(hooked, 'rev-parse', 'HEAD')}" in body


@pytest.mark.parametrize(
    ("policy", "branch", "blocked"),
    [
        ("always", "main", True),
        ("always", "other", False),  # the workflow belongs to main
        ("other-branches", "main", False),
        ("other-branches", "other", True),
        ("never", "main", False),
        ("never", "other", False),
    ],
)
def test_block_policies(hooked: Path, vg: VG, policy: str, branch: str, blocked: bool) -> None:
    start_workflow(vg)  # started on main
    git(hooked, "config", "vibegit.blockCommits", policy)
    if branch != "main":
        git(hooked, "switch", "-q", "-c", branch)
    result = commit(hooked)
    assert (result.code != 0) == blocked, result.err
    if blocked and policy == "other-branches":
        assert "commits on other are blocked" in result.err and "runs on main" in result.err
    if not blocked:
        assert "blocked" not in result.err


@pytest.mark.parametrize(
    ("key", "value"),
    [("vibegit.blockCommits", "sometimes"), ("vibegit.lang", "fr"), ("vibegit.mirrorDir", "../outside")],
)
def test_a_bad_setting_never_switches_the_lock_off(hooked: Path, vg: VG, key: str, value: str) -> None:
    start_workflow(vg)
    git(hooked, "config", key, value)
    result = commit(hooked)
    assert blocked(result)
    assert key in result.err and "using" in result.err


def test_a_paused_workflow_does_not_block(hooked: Path, vg: VG) -> None:
    start_workflow(vg)
    assert vg("pause").code == 0
    assert "locked: false" in git(hooked, "show", workflow_path(hooked, "workflow.lock"))
    result = commit(hooked)
    assert result.code == 0, result.err
    assert vg("resume").code == 0
    assert blocked(commit(hooked))


def test_each_worktree_is_locked_by_its_own_workflow(hooked: Path, vg: VG, tmp_path: Path) -> None:
    start_workflow(vg)  # on main, in the main worktree
    wt = tmp_path / "wt"
    git(hooked, "worktree", "add", "-q", "-b", "side", str(wt))
    assert commit(wt).code == 0  # side has no workflow: another agent works there freely
    assert vg("start", "side-work", "--goal", "a second agent", cwd=wt).code == 0
    result = commit(wt)
    assert blocked(result) and "'side-work' holds the lock of side" in result.err
    assert vg("pause", cwd=hooked).code == 0  # main's workflow paused: main is free, side still locked
    assert commit(hooked).code == 0 and blocked(commit(wt))


def test_an_event_runs_the_lock_hook_only_where_it_does_something(
    hooked: Path, vg: VG, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reference-transaction shim lets the state ref through without a
    look, so an event moves it without the hook while the hook is vibegit's
    alone (two processes less); a hook chained to the shim sees every move."""
    start_workflow(vg)
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(trace))
    assert vg("task", "add", "T-100", "unhooked").code == 0
    assert '"hook_name":"reference-transaction"' not in trace.read_text()
    assert blocked(commit(hooked))  # the shim still checks the branches
    log = tmp_path / "log"
    chained = hooked / ".git" / "hooks" / f"reference-transaction{install.CHAINED}"
    chained.write_text(f'#!/bin/sh\necho "$1" >> "{log}"; cat >> "{log}"\n')
    chained.chmod(0o755)
    assert vg("task", "add", "T-101", "hooked").code == 0
    tip = git(hooked, "rev-parse", "refs/heads/vibegit/state")
    assert log.read_text().splitlines()[-2:] == [
        "committed",
        f"{git(hooked, 'rev-parse', 'vibegit/state~')} {tip} refs/heads/vibegit/state",
    ]


# -- post-checkout: the startup check ------------------------------------------------


def test_checkout_and_switch_print_the_report_while_active(hooked: Path, vg: VG) -> None:
    start_workflow(vg)
    result = run_git(hooked, "checkout", "-b", "feat")
    assert result.code == 0 and result.err.strip() == "Switched to a new branch 'feat'"  # no workflow on feat
    result = run_git(hooked, "switch", "main")
    assert "Session recovery" in result.err and "vibe-code" in result.err and "T-002" in result.err
    (hooked / "README.md").write_text("changed\n")
    result = run_git(hooked, "checkout", "--", "README.md")  # a file checkout: no report
    assert result.code == 0 and result.err == ""
    assert vg("pause").code == 0
    run_git(hooked, "switch", "feat")
    result = run_git(hooked, "switch", "main")
    assert "Workflow paused" in result.err and "vibegit resume" in result.err


def test_the_report_language_is_a_setting(hooked: Path, vg: VG) -> None:
    start_workflow(vg)
    git(hooked, "config", "vibegit.lang", "zh")
    run_git(hooked, "checkout", "-q", "-b", "feat")
    result = run_git(hooked, "checkout", "main")
    assert "会话恢复" in result.err and "当前状态" in result.err and "断点位置" in result.err
    assert "会话恢复" in vg("status").out
    assert "Session recovery" in vg("status", "--lang", "en").out
    git(hooked, "config", "vibegit.lang", "fr")
    bad = vg("status")
    assert bad.code == 2 and "vibegit.lang" in bad.err


# -- pre-push: the state branch travels ----------------------------------------------


@pytest.fixture
def remote(hooked: Path, tmp_path: Path) -> Path:
    return bare_origin(hooked, tmp_path)


def test_push_carries_the_state_branch(hooked: Path, vg: VG, remote: Path) -> None:
    start_workflow(vg)
    result = run_git(hooked, "push", "-u", "origin", "main")
    assert result.code == 0, result.err
    assert "pushed vibegit/state to origin" in result.err
    assert git(remote, "rev-parse", "refs/heads/vibegit/state") == state_ref(hooked)
    assert git(remote, "rev-parse", "refs/heads/main") == git(hooked, "rev-parse", "HEAD")
    assert vg("pause").code == 0
    assert commit(hooked).code == 0
    result = run_git(hooked, "push")
    assert result.code == 0 and git(remote, "rev-parse", "refs/heads/vibegit/state") == state_ref(hooked)
    result = run_git(hooked, "push", "origin", "main")  # nothing new: nothing said
    assert result.code == 0 and "vibegit" not in result.err


def test_push_to_a_url_and_of_the_state_branch_itself(hooked: Path, vg: VG, remote: Path) -> None:
    start_workflow(vg)
    result = run_git(hooked, "push", str(remote), "main")
    assert result.code == 0, result.err
    assert git(remote, "rev-parse", "refs/heads/vibegit/state") == state_ref(hooked)
    assert vg("pause").code == 0
    result = run_git(hooked, "push", "origin", "vibegit/state", "main")  # the user pushes it: no second push
    assert result.code == 0, result.err
    assert "vibegit" not in result.err.replace("vibegit/state", "")
    assert git(remote, "rev-parse", "refs/heads/vibegit/state") == state_ref(hooked)


def test_a_rejected_state_push_never_fails_the_users_push(hooked: Path, vg: VG, remote: Path) -> None:
    start_workflow(vg)
    elsewhere = git(hooked, "commit-tree", git(hooked, "rev-parse", "HEAD^{tree}"), "-m", "another machine")
    git(hooked, "push", "-q", "--no-verify", "origin", f"{elsewhere}:refs/heads/vibegit/state")
    assert commit(hooked, "mine", env=ALLOW).code == 0
    result = run_git(hooked, "push", "origin", "main")
    assert result.code == 0, result.err
    assert "vibegit sync" in result.err and "not a fast-forward" in result.err
    assert git(remote, "rev-parse", "refs/heads/vibegit/state") == elsewhere  # never forced
    assert git(remote, "rev-parse", "refs/heads/main") == git(hooked, "rev-parse", "HEAD")


# -- post-rewrite: the checkpoint follows ----------------------------------------------


def test_amend_moves_the_checkpoint_in_one_event(hooked: Path, vg: VG) -> None:
    start_workflow(vg)
    assert vg("checkpoint", "--file", "src/app.py", "--line", "1", "--action", "login").code == 0
    old = git(hooked, "rev-parse", "HEAD")
    before = events(hooked)
    assert blocked(commit(hooked, "initial, amended", "--amend", "--no-verify"))  # an amend is a new commit
    result = commit(hooked, "initial, amended", "--amend", env=ALLOW)
    assert result.code == 0, result.err
    new = git(hooked, "rev-parse", "HEAD")
    assert new != old
    assert status_json(vg)["checkpoint"]["commit"] == new  # type: ignore[index]
    assert events(hooked) == ["rewrite", "allowed-commit", *before]
    body = git(hooked, "log", "-1", "--format=%B", "refs/heads/vibegit/state")
    assert f"checkpoint {old[:12]} -> {new[:12]} after amend" in body


def test_rebase_moves_the_checkpoint(hooked: Path, vg: VG) -> None:
    git(hooked, "switch", "-q", "-c", "feat")
    for n in (1, 2):
        (hooked / f"f{n}.txt").write_text(f"{n}\n")
        git(hooked, "add", f"f{n}.txt")
        git(hooked, "commit", "-q", "-m", f"feat {n}")
    start_workflow(vg)
    assert vg("checkpoint", "--action", "on feat 2").code == 0
    run_git(hooked, "switch", "main")
    (hooked / "base.txt").write_text("base\n")
    git(hooked, "add", "base.txt")
    assert commit(hooked, "base", env=ALLOW).code == 0
    run_git(hooked, "switch", "feat")
    before = events(hooked)
    result = run_git(hooked, "rebase", "main", env=ALLOW)
    assert result.code == 0, result.err
    assert status_json(vg)["checkpoint"]["commit"] == git(hooked, "rev-parse", "HEAD")  # type: ignore[index]
    assert events(hooked) == ["rewrite", "allowed-commit", "allowed-commit", *before]  # one per picked commit


def test_a_rewrite_that_misses_the_checkpoint_records_nothing(hooked: Path, vg: VG) -> None:
    start_workflow(vg)
    assert vg("checkpoint").code == 0
    assert commit(hooked, "later", env=ALLOW).code == 0
    before = events(hooked)
    assert commit(hooked, "later, amended", "--amend", env=ALLOW).code == 0
    assert events(hooked) == ["allowed-commit", *before]  # and no rewrite


# -- the pre-commit framework's way of calling: env vars, no stdin ------------------------


def test_framework_form_of_each_hook(hooked: Path, vg: VG, remote: Path) -> None:
    start_workflow(vg)
    env = {**os.environ, "PRE_COMMIT": "1"}
    result = vg_proc(
        "hook",
        "post-checkout",
        cwd=hooked,
        env={**env, "PRE_COMMIT_TO_REF": git(hooked, "rev-parse", "HEAD"), "PRE_COMMIT_CHECKOUT_TYPE": "1"},
    )
    assert result.code == 0 and "Session recovery" in result.out
    result = vg_proc("hook", "post-checkout", cwd=hooked, env={**env, "PRE_COMMIT_CHECKOUT_TYPE": "0"})
    assert result.code == 0 and result.out == ""
    result = vg_proc(
        "hook",
        "pre-push",
        cwd=hooked,
        env={
            **env,
            "PRE_COMMIT_REMOTE_NAME": "origin",
            "PRE_COMMIT_REMOTE_URL": str(remote),
            "PRE_COMMIT_LOCAL_BRANCH": "refs/heads/main",
            "PRE_COMMIT_REMOTE_BRANCH": "refs/heads/main",
        },
    )
    assert result.code == 0, result.err
    assert git(remote, "rev-parse", "refs/heads/vibegit/state") == state_ref(hooked)
    assert vg("checkpoint").code == 0
    old = git(hooked, "rev-parse", "HEAD")
    assert commit(hooked, "amended by hand", "--amend", env=ALLOW).code == 0
    # Without git's stdin the hook finds the rewrite in the reflog.
    result = vg_proc("hook", "post-rewrite", cwd=hooked, env={**env, "PRE_COMMIT_REWRITE_COMMAND": "amend"})
    assert result.code == 0, result.err
    new = git(hooked, "rev-parse", "HEAD")
    assert new != old and status_json(vg)["checkpoint"]["commit"] == new  # type: ignore[index]
    result = vg_proc("hook", "pre-commit", cwd=hooked, env=env)
    assert result.code == 1 and "commit blocked" in result.err


# -- never breaking git -----------------------------------------------------------------


def path_without_vibegit(tmp_path: Path) -> str:
    """A PATH with git and sh but no vibegit console script."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for tool in ("git", "sh", "cat", "printf"):
        found = subprocess.run(["sh", "-c", f"command -v {tool}"], capture_output=True, text=True).stdout.strip()
        if found.startswith("/") and not (bin_dir / tool).exists():
            (bin_dir / tool).symlink_to(found)
    return str(bin_dir)


def test_a_missing_vibegit_blocks_a_locked_commit_with_one_line(repo: Path, vg: VG, tmp_path: Path) -> None:
    start_workflow(vg)
    assert install.install(python=str(tmp_path / "gone" / "python"), cwd=repo) == 0
    env = {**os.environ, "PATH": path_without_vibegit(tmp_path)}
    head = git(repo, "rev-parse", "HEAD")
    result = commit(repo, env=env)  # the lock check cannot run: it fails closed
    lines = [line for line in result.err.splitlines() if line and not line.startswith("fatal:")]
    assert blocked(result) and git(repo, "rev-parse", "HEAD") == head
    assert len(lines) == 1 and "vibegit not found" in lines[0] and "VIBEGIT_ALLOW=1 git" in lines[0], lines
    result = commit(repo, env={**env, "VIBEGIT_ALLOW": "1"})  # let through, and said (nothing can record it)
    assert result.code == 0 and "VIBEGIT_ALLOW=1: the lock check cannot run" in result.err
    run_git(repo, "checkout", "-q", "-b", "feat", env=env)
    result = run_git(repo, "checkout", "-q", "main", env=env)  # back where the workflow runs: git goes on
    assert result.code == 0 and "vibegit not found" in result.err and "skipped" in result.err


def test_an_interpreter_without_vibegit_blocks_a_locked_commit(repo: Path, vg: VG, tmp_path: Path) -> None:
    start_workflow(vg)
    fake = tmp_path / "python-without-vibegit"
    fake.write_text(f'#!/bin/sh\nexec {sys.executable} -S "$@"\n')  # -S: no site-packages, no vibegit
    fake.chmod(0o755)
    assert install.install(python=str(fake), cwd=repo) == 0
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = commit(repo, env=env)
    lines = [line for line in result.err.splitlines() if line and not line.startswith("fatal:")]
    assert blocked(result) and len(lines) == 1 and "cannot import vibegit" in lines[0], result.err
    assert "-m pip install vibegit" in lines[0] and "VIBEGIT_ALLOW=1 git" in lines[0]
    result = commit(repo, env={**env, "VIBEGIT_ALLOW": "1"})
    assert result.code == 0 and "VIBEGIT_ALLOW=1: the lock check cannot run" in result.err


def shadow(where: Path, marker: Path) -> None:
    """A vibegit/ package at ``where`` whose import leaves ``marker`` (a cloned project's, say)."""
    for rel in ("vibegit/__init__.py", "vibegit/main.py", "vibegit/handlers/__init__.py"):
        (where / rel).parent.mkdir(parents=True, exist_ok=True)
        (where / rel).write_text(f"open({str(marker)!r}, 'w').close()\ndef main(argv=None):\n    return 0\n")


def test_a_vibegit_folder_where_git_runs_the_hook_is_never_imported(hooked: Path, vg: VG, tmp_path: Path) -> None:
    start_workflow(vg)
    marker = tmp_path / "SHADOWED"
    shadow(hooked, marker)
    head = git(hooked, "rev-parse", "HEAD")
    for python in (None, ""):  # the interpreter install recorded; the one the vibegit script on PATH names
        assert install.install(python=python, cwd=hooked) == 0
        for env in (None, {**os.environ, "PYTHONPATH": ".", "PYTHONSAFEPATH": ""}):  # nor through PYTHON* settings
            assert blocked(commit(hooked, env=env)) and git(hooked, "rev-parse", "HEAD") == head
            result = run_git(hooked, "checkout", "-q", "main", env=env)
            assert result.code == 0 and "recovery" in result.err
    assert not marker.exists()


def test_a_push_into_a_locked_branch_of_a_working_repository_is_checked(hooked: Path, vg: VG, tmp_path: Path) -> None:
    """git runs the receiving repository's hooks in its .git, where .git/vibegit/ is: with an
    editable install (its finder comes after the path) that folder shadowed the package."""
    start_workflow(vg)
    assert (hooked / ".git" / "vibegit").is_dir()
    git(hooked, "switch", "-q", "-c", "other")  # the workflow's branch is not checked out: git takes a push into it
    head = git(hooked, "rev-parse", "main")
    there = tmp_path / "elsewhere"
    git(tmp_path, "clone", "-q", "-b", "main", str(hooked), str(there))
    git(there, "commit", "-q", "--allow-empty", "-m", "pushed")
    result = run_git(there, "push", "origin", "main")
    assert result.code != 0 and "commit blocked" in result.err and "cannot import" not in result.err, result.err
    assert git(hooked, "rev-parse", "main") == head
    result = run_git(there, "push", "origin", "main", env={**os.environ, "VIBEGIT_ALLOW": "1"})
    assert result.code == 0 and "recorded as event" in result.err, result.err
    assert events(hooked)[0] == "allowed-commit"


def test_a_user_site_install_still_imports(repo: Path, vg: VG, hermetic: Path) -> None:
    """The hooks isolate their Python without -I, which would drop the user's site-packages,
    where 'pip install --user' puts vibegit: here the base interpreter finds it only there."""
    base = getattr(sys, "_base_executable", sys.executable)
    user_site = subprocess.run(
        [base, "-c", "import site; print(site.getusersitepackages())"], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert user_site.startswith(str(hermetic))
    here = sysconfig.get_paths()["purelib"]  # this install's packages (vibegit's own, its editable finder)
    Path(user_site).mkdir(parents=True)
    (Path(user_site) / "vibegit-test.pth").write_text(f"import site; site.addsitedir({here!r})\n")
    start_workflow(vg)
    assert install.install(python=base, cwd=repo) == 0
    head = git(repo, "rev-parse", "HEAD")
    result = commit(repo)
    assert blocked(result) and "cannot import" not in result.err and git(repo, "rev-parse", "HEAD") == head


def test_a_broken_state_blocks_with_the_fix(hooked: Path, vg: VG) -> None:
    start_workflow(vg)
    commit_state(hooked, {f"{workflow_dir(hooked)}/workflow.lock": "locked: [unclosed\n"})
    result = commit(hooked)
    assert blocked(result) and "Traceback" not in result.err
    reason = next(line for line in result.err.splitlines() if "commit blocked" in line)
    assert "workflow.lock" in reason and "vibegit doctor --repair" in result.err
    result = commit(hooked, env=ALLOW)  # the escape hatch still works (nothing to record it in)
    assert result.code == 0 and "let through" in result.err
    git(hooked, "config", "vibegit.blockCommits", "never")  # the user's choice: nothing blocks, a doubt neither
    assert commit(hooked).code == 0
    assert vg_proc("hook", "pre-commit", cwd=hooked).code == 0  # and the Python check agrees with the shim


def test_the_marker_of_vibegits_own_git_commands_never_skips_the_lock(hooked: Path, vg: VG) -> None:
    start_workflow(vg)
    marked = {**os.environ, vgit.IN_HOOK: "1"}
    for extra in ((), ("--no-verify",)):
        assert blocked(commit(hooked, "marked", *extra, env=marked))
    assert vg("checkpoint").code == 0  # vibegit's own ref updates pass the lock check (it skips the state ref)
    result = run_git(hooked, "checkout", "-q", "-b", "feat", env=marked)
    assert result.code == 0 and "recovery" not in result.out + result.err  # the other hooks stay quiet


def test_hook_dispatch(vg: VG) -> None:
    assert set(hook.GIT_HOOKS) <= set(hook.HOOKS)
    result = vg("hook", "no-such-hook")
    assert result.code == 2 and "expected one of" in result.err and len(result.err.splitlines()) == 1


def test_the_hook_path_imports_no_heavy_module(hooked: Path, vg: VG) -> None:
    start_workflow(vg)
    probe = (
        "import sys\nfrom vibegit.main import main\ncode = main(['hook', 'pre-commit'])\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'typer', 'click', 'git', 'filelock', 'rich'})\n"
        "print(code, heavy)\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], cwd=hooked, capture_output=True, text=True)
    assert proc.stdout.strip() == "1 []", proc.stderr


def test_a_pushs_hook_loads_no_costly_module(hooked: Path, vg: VG) -> None:
    """Every ``git push`` runs the pre-push hook: it loads neither the heavy
    libraries nor the standard library's costly modules."""
    start_workflow(vg)
    costly = {"typer", "click", "git", "filelock", "rich", "yaml", "typing", "subprocess", "threading", "tempfile"}
    probe = (
        "import sys\nbefore = set(sys.modules)\nfrom vibegit.main import main\n"
        "code = main(['hook', 'pre-push', 'origin', 'nowhere'])\n"
        f"print(code, sorted({{m.split('.')[0] for m in set(sys.modules) - before}} & set({sorted(costly)!r})))\n"
    )
    branch = git(hooked, "rev-parse", "--abbrev-ref", "HEAD")
    head = git(hooked, "rev-parse", "HEAD")
    pushed = f"refs/heads/{branch} {head} refs/heads/{branch} {'0' * 40}\n"
    proc = subprocess.run([sys.executable, "-c", probe], cwd=hooked, input=pushed, capture_output=True, text=True)
    assert proc.stdout.strip().splitlines()[-1] == "0 []", (proc.stdout, proc.stderr)
