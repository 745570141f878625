"""vibegit doctor: checks of the state branch, and --repair as a new event."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from tests.helpers import (
    MIRROR,
    VG,
    bare_origin,
    commit_state,
    drop_object,
    git,
    init_repo,
    workflow_dir,
    workflow_path,
)
from vibegit.infra import mirror


def test_a_healthy_branch(dirty_repo: Path, vg: VG) -> None:
    assert vg("doctor").out.startswith("No vibegit/state")
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    assert vg("checkpoint").code == 0
    result = vg("doctor")
    assert result.code == 0 and "healthy" in result.out


def test_repair_recovers_from_a_session_yaml_corrupted_by_hand(repo: Path, vg: VG) -> None:
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    assert vg("task", "add", "T-1", "one").code == 0
    good = git(repo, "rev-parse", "vibegit/state")
    good_tree = git(repo, "rev-parse", "vibegit/state^{tree}")
    broken = commit_state(repo, {f"{workflow_dir(repo)}/session.yaml": "session: {id: [unclosed\n"})

    assert vg("status").code == 2
    checked = vg("doctor")
    assert checked.code == 1 and "session.yaml:2: invalid YAML" in checked.out and "--repair" in checked.out
    assert git(repo, "rev-parse", "vibegit/state") == broken  # doctor alone writes nothing

    repaired = vg("doctor", "--repair")
    assert repaired.code == 0, repaired.err
    assert f"state of {good[:10]}" in repaired.out
    tip = git(repo, "rev-parse", "vibegit/state")
    assert git(repo, "rev-parse", f"{tip}^{{tree}}") == good_tree
    assert git(repo, "rev-list", "--parents", "-n1", tip).split()[1:] == [broken]  # history kept
    body = git(repo, "log", "-1", "--format=%B", tip)
    assert "vibegit: repair" in body and f"Vibegit-Repaired-From: {good}" in body
    assert json.loads(vg("status", "--json").out)["tasks"][0]["id"] == "T-1"
    assert vg("task", "add", "T-2", "two").code == 0
    assert vg("doctor").code == 0


def test_repair_uses_the_reflog_when_the_history_was_rewound(repo: Path, vg: VG) -> None:
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    assert vg("task", "add", "T-1", "one").code == 0
    newest = git(repo, "rev-parse", "vibegit/state")
    blob = git(repo, "hash-object", "-w", "--stdin", input="mode: [\n")
    tree = git(repo, "mktree", input=f"100644 blob {blob}\tsession.yaml\n")
    lost = git(repo, "commit-tree", tree, "-m", "a new root, the history is gone")
    git(repo, "update-ref", "refs/heads/vibegit/state", lost)  # only the reflog knows the good states
    assert vg("doctor").code == 1
    assert vg("doctor", "--repair").code == 0
    assert git(repo, "rev-parse", "vibegit/state^") == lost
    assert git(repo, "rev-parse", "vibegit/state^{tree}") == git(repo, "rev-parse", f"{newest}^{{tree}}")


def test_lock_and_snapshot_inconsistencies_are_found(dirty_repo: Path, vg: VG) -> None:
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    assert vg("checkpoint").code == 0
    commit_state(dirty_repo, {f"{workflow_dir(dirty_repo)}/workflow.lock": None})
    out = vg("doctor").out
    assert "is running but workflow.lock is missing" in out
    assert vg("doctor", "--repair").code == 0
    commit_state(dirty_repo, {f"{workflow_dir(dirty_repo)}/snapshot/notes.txt": None})
    assert "is not the snapshot/ tree" in vg("doctor").out


def test_a_broken_mirror_file_is_reported_and_moved_aside(repo: Path, vg: VG) -> None:
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    kanban = repo / MIRROR / "kanban.md"
    kanban.write_text("## Nonsense\n- what\n")
    assert vg("task", "add", "T-1", "x").code == 2
    result = vg("doctor")
    assert result.code == 1 and "mirror:" in result.out and "kanban.md:1" in result.out
    assert vg("doctor", "--repair").code == 0
    assert (repo / MIRROR / "kanban.md.broken").is_file()
    assert vg("task", "add", "T-1", "x").code == 0


def test_a_second_broken_mirror_file_never_replaces_the_first(repo: Path, vg: VG) -> None:
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    kanban = repo / MIRROR / "kanban.md"
    for text in ("## Nonsense\n- first\n", "## Nonsense\n- second\n"):
        kanban.write_text(text)
        assert vg("doctor", "--repair").code == 0
    assert (repo / MIRROR / "kanban.md.broken").read_text() == "## Nonsense\n- first\n"
    assert (repo / MIRROR / "kanban.md.broken.2").read_text() == "## Nonsense\n- second\n"


# -- damaged set-ups: doctor exits non-zero, --repair brings back a working lock check --------


def locked_repo(repo: Path, vg: VG) -> None:
    assert vg("install").code == 0
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    assert vg("task", "add", "T-1", "one").code == 0


def lock_works(repo: Path) -> bool:
    proc = subprocess.run(["git", "commit", "--allow-empty", "-m", "x"], cwd=repo, capture_output=True, text=True)
    return proc.returncode != 0 and "commit blocked" in proc.stderr


def test_a_deleted_state_branch_comes_back(repo: Path, vg: VG) -> None:
    locked_repo(repo, vg)
    events = git(repo, "rev-list", "--count", "vibegit/state")
    tip = git(repo, "rev-parse", "vibegit/state")
    git(repo, "branch", "-D", "vibegit/state")  # git branch | grep -v main | xargs git branch -D
    for args in (("task", "add", "T-2", "two"), ("start", "again", "--goal", "g")):
        refused = vg(*args)  # not a second history that hides the first
        assert refused.code == 1 and "doctor --repair" in refused.err
    checked = vg("doctor")
    assert checked.code == 1 and "is missing" in checked.out and "mirror" in checked.out
    assert vg("doctor", "--repair").code == 0
    assert git(repo, "rev-parse", "vibegit/state") == tip
    assert git(repo, "rev-list", "--count", "vibegit/state") == events  # no event lost
    assert lock_works(repo) and vg("doctor").code == 0


def test_a_deleted_state_branch_never_comes_back_from_a_strangers_remote(repo: Path, vg: VG, tmp_path: Path) -> None:
    """A fork: origin is the contributor's own (the state's remote), upstream someone else's,
    whose state is newer. Only naming upstream brings its copy."""
    bare_origin(repo, tmp_path)
    git(repo, "push", "-q", "-u", "origin", "main")
    locked_repo(repo, vg)
    assert vg("sync").code == 0
    mine = git(repo, "rev-parse", "vibegit/state")
    theirs_repo = init_repo(tmp_path / "theirs")
    assert vg("start", "their-work", "--goal", "theirs", cwd=theirs_repo).code == 0
    tip = git(theirs_repo, "rev-parse", "vibegit/state")
    newer = subprocess.run(  # dated after everything of the contributor's
        ["git", "commit-tree", f"{tip}^{{tree}}", "-p", tip, "-m", git(theirs_repo, "log", "-1", "--format=%B", tip)],
        cwd=theirs_repo,
        env={**os.environ, "GIT_COMMITTER_DATE": "2099-01-01T00:00:00Z"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    git(theirs_repo, "update-ref", "refs/heads/vibegit/state", newer)
    upstream = tmp_path / "upstream.git"
    git(tmp_path, "init", "-q", "--bare", str(upstream))
    git(theirs_repo, "push", "-q", str(upstream), "vibegit/state")
    git(repo, "remote", "add", "upstream", str(upstream))
    git(repo, "fetch", "-q", "upstream")
    assert git(repo, "rev-parse", "refs/remotes/upstream/vibegit/state") == newer

    git(repo, "branch", "-D", "vibegit/state")
    result = vg("doctor", "--repair")
    assert result.code == 0 and git(repo, "rev-parse", "vibegit/state") == mine, result.out
    assert "upstream" not in result.out

    git(repo, "branch", "-D", "vibegit/state")  # now only upstream has a copy
    for ref in ("refs/vibegit/remote/origin", "refs/remotes/origin/vibegit/state"):
        git(repo, "update-ref", "-d", ref)
    shutil.rmtree(repo / MIRROR)
    (repo / ".git" / mirror.MARKER).unlink()  # what the mirror last showed
    result = vg("doctor", "--repair")
    assert result.code == 1 and git(repo, "rev-parse", "-q", "--verify", "vibegit/state", check=False) == ""
    assert "upstream" in result.out and "--remote NAME" in result.out, result.out
    assert vg("doctor", "--remote", "no-such").code == 2
    result = vg("doctor", "--repair", "--remote", "origin")  # named, but it has no copy here
    assert result.code == 1 and "git fetch origin" in result.out, result.out
    result = vg("doctor", "--repair", "--remote", "upstream")  # the user's own choice
    assert result.code == 0 and git(repo, "rev-parse", "vibegit/state") == newer, result.out


def test_a_state_branch_checked_out_refuses_events(repo: Path, vg: VG) -> None:
    locked_repo(repo, vg)
    git(repo, "-c", "core.hooksPath=/dev/null", "switch", "-q", "vibegit/state")
    head = git(repo, "rev-parse", "HEAD")
    result = vg("task", "add", "T-2", "two", "--workflow", "vibe-code")
    assert result.code == 1 and "checked out" in result.err and "git switch -" in result.err
    assert git(repo, "rev-parse", "HEAD") == head  # the user's HEAD did not move
    assert vg("doctor").code == 1 and vg("doctor", "--repair").code == 1
    git(repo, "switch", "-q", "main")
    assert vg("doctor").code == 0 and vg("task", "add", "T-2", "two").code == 0


def test_a_pruned_snapshot_is_rebuilt_and_pushable(dirty_repo: Path, vg: VG, tmp_path: Path) -> None:
    locked_repo(dirty_repo, vg)
    assert vg("checkpoint").code == 0
    assert vg("task", "add", "T-2", "two").code == 0
    names = git(dirty_repo, "log", "--format=%s", "vibegit/state").splitlines()
    snap = git(dirty_repo, "rev-parse", workflow_path(dirty_repo, "snapshot"))
    drop_object(dirty_repo, snap)  # as gc --prune=now racing the snapshot
    result = vg("doctor")
    assert result.code == 1 and "missing" in result.out
    assert vg("doctor", "--repair").code == 0
    assert git(dirty_repo, "log", "--format=%s", "vibegit/state").splitlines()[1:] == names  # every event kept
    assert vg("doctor").code == 0 and lock_works(dirty_repo)
    bare = tmp_path / "pushed.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(dirty_repo, "push", "-q", "--no-verify", str(bare), "vibegit/state")


def test_a_pruned_state_file_comes_back_from_the_mirror(repo: Path, vg: VG) -> None:
    locked_repo(repo, vg)
    blob = git(repo, "rev-parse", workflow_path(repo, "workflow.lock"))
    drop_object(repo, blob)
    assert lock_works(repo)  # the lost lock file fails closed
    assert vg("doctor").code == 1
    assert vg("doctor", "--repair").code == 0
    assert git(repo, "cat-file", "-t", blob) == "blob" and vg("doctor").code == 0 and lock_works(repo)


def test_a_stale_ref_lock(repo: Path, vg: VG) -> None:
    locked_repo(repo, vg)
    lock = repo / ".git" / "refs" / "heads" / "vibegit" / "state.lock"
    lock.write_text("")
    os.utime(lock, (1, 1))
    result = vg("task", "add", "T-2", "two")
    assert result.code == 1 and "state.lock" in result.err and "doctor --repair" in result.err
    assert vg("doctor").code == 1
    assert vg("doctor", "--repair").code == 0 and not lock.exists()
    assert vg("task", "add", "T-2", "two").code == 0


def test_removed_or_replaced_hooks_are_loud(repo: Path, vg: VG) -> None:
    locked_repo(repo, vg)
    hook = repo / ".git" / "hooks" / "reference-transaction"
    hook.unlink()
    assert not lock_works(repo)
    result = vg("task", "add", "T-2", "two")  # every command says so
    assert (
        result.code == 0
        and "lock check (reference-transaction) does not run" in result.err
        and "vibegit install" in result.err
    )
    assert vg("doctor").code == 1
    assert vg("doctor", "--repair").code == 0 and lock_works(repo)
    (repo / ".git" / "hooks" / "pre-push").write_text("#!/bin/sh\nexit 0\n")  # another tool wrote over ours
    result = vg("doctor")
    assert result.code == 1 and "pre-push" in result.out
    assert vg("doctor", "--repair").code == 0 and vg("doctor").code == 0
    assert (repo / ".git" / "hooks" / "pre-push.vibegit-chained").is_file()


def test_agent_settings_out_of_date(repo: Path, vg: VG) -> None:
    assert vg("install", "--agent", "claude").code == 0
    settings = repo / ".claude" / "settings.json"
    data = json.loads(settings.read_text())
    data["hooks"]["SessionStart"][0]["hooks"][0]["timeout"] = 5  # an older vibegit wrote this
    settings.write_text(json.dumps(data))
    result = vg("doctor")
    assert result.code == 1 and "outdated" in result.out and "--agent claude" in result.out
    assert vg("doctor", "--repair").code == 0 and vg("doctor").code == 0
