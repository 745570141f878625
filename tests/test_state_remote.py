"""The state is published only where it belongs: its remote (vibegit.remote,
else the upstream's remote, else origin), never another one unless asked
(sync --remote), never by a dry run; the user's own pre-push checks see the
state push too, and their refusal says what to do."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Machines, git, remote_with_laptop, run_git
from vibegit.core.settings import settings
from vibegit.errors import BadInput
from vibegit.infra.caller import is_dry_run, push_arguments
from vibegit.infra.git import find_repo
from vibegit.infra.remote import send


def has_state(bare: Path) -> bool:
    return bool(git(bare, "rev-parse", "-q", "--verify", "refs/heads/vibegit/state", check=False))


def with_fork(tmp_path: Path, m: Machines) -> tuple[Path, Path, Path]:
    origin, laptop = remote_with_laptop(tmp_path)
    fork = tmp_path / "fork.git"
    git(tmp_path, "init", "-q", "--bare", str(fork))
    git(laptop, "remote", "add", "fork", str(fork))
    m.ok("laptop", laptop, "install")
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    (laptop / "private.csv").write_text("name,salary\nalice,1\n")  # untracked work in the snapshot
    m.ok("laptop", laptop, "checkpoint")
    return origin, fork, laptop


def test_the_state_goes_only_to_its_remote(tmp_path: Path, m: Machines) -> None:
    origin, fork, laptop = with_fork(tmp_path, m)
    result = run_git(laptop, "push", "fork", "main")  # a typo fix to a public fork
    assert result.code == 0 and "vibegit" not in result.err.replace("vibegit/state", "")
    assert not has_state(fork) and git(fork, "rev-parse", "main") == git(laptop, "rev-parse", "main")
    result = run_git(laptop, "push", "origin", "main")  # main's upstream is origin
    assert "pushed vibegit/state to origin" in result.err and has_state(origin)

    git(laptop, "config", "vibegit.remote", "fork")  # the team keeps the state on the fork
    m.ok("laptop", laptop, "task", "add", "T-001", "one")
    run_git(laptop, "push", "origin", "main")
    assert git(origin, "rev-parse", "vibegit/state") != git(laptop, "rev-parse", "vibegit/state")
    assert "pushed vibegit/state to fork" in run_git(laptop, "push", "fork", "main").err
    assert git(fork, "rev-parse", "vibegit/state") == git(laptop, "rev-parse", "vibegit/state")
    assert "up to date with fork" in m.ok("laptop", laptop, "sync").out

    git(laptop, "config", "--unset", "vibegit.remote")
    assert "Pushed vibegit/state to origin" in m.ok("laptop", laptop, "sync", "--remote", "origin").out
    git(laptop, "config", "vibegit.remote", "gone")
    bad = m("laptop", laptop, "sync")
    assert bad.code == 2 and "vibegit.remote" in bad.err and "'gone' is not a remote" in bad.err
    result = run_git(laptop, "push", "origin", "main")
    assert result.code == 0 and "stays here" in result.err and "vibegit.remote" in result.err


@pytest.mark.parametrize("how", [("--dry-run",), ("-n",), ("-vn",), ("--dry",), ("alias",)])
def test_a_dry_run_pushes_nothing(tmp_path: Path, m: Machines, how: tuple[str, ...]) -> None:
    origin, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "install")
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    if how == ("alias",):
        git(laptop, "config", "alias.pn", "push -n")
        result = run_git(laptop, "pn", "origin", "main")
    else:
        result = run_git(laptop, "push", *how, "origin", "main")
    assert result.code == 0, result.err
    assert not has_state(origin) and "vibegit" not in result.err
    assert "pushed vibegit/state" in run_git(laptop, "push", "origin", "main").err  # the real push does


def test_the_users_pre_push_checks_run_for_the_state_push(tmp_path: Path, m: Machines) -> None:
    origin, laptop = remote_with_laptop(tmp_path)
    saw = tmp_path / "saw"
    hook = laptop / ".git" / "hooks" / "pre-push"
    hook.write_text(  # a team's scanner: it refuses anything that mentions "forbidden"
        f'#!/bin/sh\nwhile read -r local sha remote rest; do echo "$remote" >> {saw}\n'
        '  if [ "$sha" != 0000000000000000000000000000000000000000 ] && '
        'git grep -q forbidden "$sha" -- 2>/dev/null; then echo "scanner: forbidden word in $remote" >&2; exit 1; fi\n'
        "done\nexit 0\n"
    )
    hook.chmod(0o755)
    m.ok("laptop", laptop, "install")
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    git(laptop, "-c", "core.hooksPath=/dev/null", "commit", "-q", "--allow-empty", "-m", "work")
    assert "pushed vibegit/state" in run_git(laptop, "push", "origin", "main").err
    # once each, no recursion (the state push names the commit the scan read: git shows its id as the local ref)
    assert saw.read_text().split() == ["refs/heads/main", "refs/heads/vibegit/state"]

    m.ok("laptop", laptop, "context", "--next", "the forbidden thing")
    git(laptop, "-c", "core.hooksPath=/dev/null", "commit", "-q", "--allow-empty", "-m", "more")
    result = run_git(laptop, "push", "origin", "main")
    assert result.code == 0 and git(origin, "rev-parse", "main") == git(laptop, "rev-parse", "main")
    assert "your pre-push hook refused it: scanner: forbidden word in refs/heads/vibegit/state" in result.err
    assert "vibegit sync --no-verify" in result.err and "Your push goes on" in result.err
    refused = m("laptop", laptop, "sync")
    assert refused.code == 1 and "your pre-push hook refused it" in refused.err
    assert git(origin, "rev-parse", "vibegit/state") != git(laptop, "rev-parse", "vibegit/state")
    assert "Pushed" in m.ok("laptop", laptop, "sync", "--no-verify").out
    assert git(origin, "rev-parse", "vibegit/state") == git(laptop, "rev-parse", "vibegit/state")


def test_the_push_command_line() -> None:
    assert push_arguments(["git", "push", "-n", "origin"]) == ["-n", "origin"]
    assert push_arguments(["/usr/lib/git-core/git", "-C", "x", "-c", "a=b", "push", "o"]) == ["o"]
    assert push_arguments(["git", "fetch", "origin"]) is None
    assert push_arguments(["python", "push"]) is None
    assert all(is_dry_run(a) for a in (["--dry-run"], ["-n"], ["-fn"], ["--dry"], ["o", "--dry-run", "main"]))
    assert not any(is_dry_run(a) for a in (["origin"], ["-f"], ["--delete"], ["--", "-n"], ["--no-verify"]))
    assert not is_dry_run(["--end-of-options", "--dry-run", "main"])  # a remote of that name


def test_the_remote_setting() -> None:
    assert settings({}).remote is None
    assert settings({"vibegit.remote": " team "}).remote == "team"
    with pytest.raises(BadInput, match=r"vibegit\.remote"):
        settings({"vibegit.remote": "-x"})
    said: list[str] = []
    assert settings({"vibegit.remote": "a b"}, fallback=said.append).remote is None and said


def test_only_the_commit_the_scan_read_is_pushed(tmp_path: Path, m: Machines, monkeypatch: pytest.MonkeyPatch) -> None:
    """An event between the secret scan and the push is not published unread:
    the push names the scanned commit, not the branch."""
    origin, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    scanned = git(laptop, "rev-parse", "vibegit/state")
    m.ok("laptop", laptop, "task", "add", "T-001", "an event while the scan ran")
    monkeypatch.chdir(laptop)
    pushed = send(find_repo(), settings({}), "origin", scanned)
    assert pushed.ok and git(origin, "rev-parse", "vibegit/state") == scanned
    assert git(laptop, "rev-parse", "refs/vibegit/remote/origin") == scanned  # the remote's copy as pushed


def test_the_users_own_push_of_the_state_is_scanned_as_git_sends_it(tmp_path: Path, m: Machines) -> None:
    origin, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "install")
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    clean = git(laptop, "rev-parse", "vibegit/state")
    (laptop / "notes.txt").write_text("token: " + "ghp_" + "Qm7Zt2Lx9Vb4Nc8Kd1Pf6Hs3Jw5Ry0Ta2Ue4" + "\n")
    m.ok("laptop", laptop, "checkpoint")
    result = run_git(laptop, "push", "origin", f"{clean}:refs/heads/vibegit/state")  # the clean commit: it goes
    assert result.code == 0, result.err
    assert run_git(laptop, "push", "origin", "vibegit/state").code != 0  # the checkpoint holds the key
    assert git(origin, "rev-parse", "vibegit/state") == clean
    result = run_git(laptop, "push", "origin", ":vibegit/state")  # a deletion publishes nothing
    assert result.code == 0, result.err
    assert not has_state(origin)
