"""End to end on real repositories with staged, unstaged and untracked work:
after every command the user's HEAD, index, status and files are unchanged,
the state branch stays an orphan, and one event made exactly one commit."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.helpers import MIRROR, VG, commit, commit_state, event_count, git, state_ref, user_view, workflow_path

WORKFLOW = [
    ("start", "vibe-code", "--goal", "Implement user auth"),
    ("phase", "P", "--step", "3.1"),
    ("task", "add", "T-001", "Data model"),
    ("task", "add", "T-002", "Login API"),
    ("task", "start", "T-001"),
    ("task", "done", "T-001"),
    ("task", "start", "T-002"),
    ("phase", "E", "--step", "4.3"),
    ("context", "--last", "model done", "--next", "write the login handler"),
    ("context", "--question", "JWT or sessions?"),
    ("context", "--answer", "1"),
    ("checkpoint", "--file", "src/app.py", "--line", "2", "--action", "implementing login"),
    ("pause",),
    ("resume",),
    ("task", "done", "T-002"),
    ("complete", "--yes"),
]


def test_every_event_is_one_commit_and_the_user_is_untouched(dirty_repo: Path, vg: VG) -> None:
    before = user_view(dirty_repo)
    for events, args in enumerate(WORKFLOW, 1):
        result = vg(*args)
        assert result.code == 0, (args, result.err)
        assert event_count(dirty_repo) == events, args
        assert user_view(dirty_repo) == before, args
        roots = git(dirty_repo, "rev-list", "--max-parents=0", "refs/heads/vibegit/state").split()
        assert len(roots) == 1
        assert git(dirty_repo, "rev-list", "--parents", "-n1", roots[0]).split() == [roots[0]]
    subjects = git(dirty_repo, "log", "--format=%s", "refs/heads/vibegit/state").splitlines()
    assert subjects[0].startswith("vibegit: complete")
    assert subjects[-1].startswith("vibegit: start")
    body = git(dirty_repo, "log", "-1", "--format=%B", "refs/heads/vibegit/state")
    assert "Vibegit-Event: complete" in body and "confirmation skipped with --yes" in body
    head = git(dirty_repo, "rev-parse", "HEAD")
    assert f"Vibegit-Head: {head}" in body
    assert git(dirty_repo, "cat-file", "-e", workflow_path(dirty_repo, "workflow.lock"), check=False) == ""
    status = json.loads(vg("status", "--json").out)
    assert status["workflow"]["status"] == "completed"
    assert status["lock"] is None


def test_state_files_have_the_skill_shapes(repo: Path, vg: VG) -> None:
    for args in WORKFLOW[:12]:
        assert vg(*args).code == 0
    show = lambda name: git(repo, "show", workflow_path(repo, name))  # noqa: E731
    assert "workflow_name: vibe-code" in show("session.yaml")
    assert "step: '4.3'" in show("session.yaml")
    assert "locked: true" in show("workflow.lock")
    kanban = show("kanban.md")
    assert "## Todo" in kanban and "## Doing" in kanban and "- [x] T-001: Data model" in kanban
    assert "- [~] T-002: Login API" in kanban
    assert "Implement user auth" in show("active_context.md")
    assert "src/app.py:2" in show("checkpoint.md")
    mirror = repo / MIRROR
    assert (mirror / "session.yaml").read_text() == show("session.yaml") + "\n"
    assert f"/{MIRROR}/" in (repo / ".git" / "info" / "exclude").read_text()
    assert git(repo, "status", "--porcelain") == ""


def test_pause_keeps_the_lock_file_unlocked(repo: Path, vg: VG) -> None:
    vg("start", "w", "--goal", "g")
    assert vg("pause").code == 0
    lock = git(repo, "show", workflow_path(repo, "workflow.lock"))
    assert "locked: false" in lock and "paused: true" in lock
    data = json.loads(vg("status", "--json").out)
    assert data["mode"]["type"] == "paused" and data["workflow"]["status"] == "paused"
    assert data["checkpoint"]["commit"] == git(repo, "rev-parse", "HEAD")
    assert data["checkpoint"]["branch"] == "main"
    assert vg("resume").code == 0
    assert "locked: true" in git(repo, "show", workflow_path(repo, "workflow.lock"))


def test_status_json_shape(repo: Path, vg: VG) -> None:
    vg("start", "w", "--goal", "g")
    vg("task", "add", "T-1", "one")
    data = json.loads(vg("status", "--json").out)
    assert set(data) == {"schema", "workflow_id", "session", "mode", "workflow", "context", "checkpoint"} | {
        "lock",
        "tasks",
        "others",
        "newer",  # what the state's remote (as last fetched) has that this copy has not: null here
    }
    assert data["schema"] == 2 and data["workflow_id"].startswith("w-") and data["others"] == []
    assert data["newer"] is None
    assert data["tasks"] == [{"id": "T-1", "title": "one", "status": "todo"}]
    assert data["workflow"]["total_tasks"] == 1 and data["workflow"]["completed_tasks"] == 0
    assert data["lock"]["locked"] is True


def test_report_in_english_and_chinese(repo: Path, vg: VG) -> None:
    vg("start", "vibe-code", "--goal", "auth")
    vg("task", "add", "T-001", "model")
    vg("task", "add", "T-002", "api")
    vg("task", "done", "T-001")
    vg("task", "start", "T-002")
    en = vg("status").out
    for heading in ("Session recovery", "Current state", "Last progress", "Next step", "Checkpoint"):
        assert heading in en
    assert "1/2 tasks done (50%)" in en and "✅ T-001: model" in en and "🔄 T-002: api" in en
    zh = vg("status", "--lang", "zh").out
    for heading in ("会话恢复", "当前状态", "上次进展", "下一步", "断点位置"):
        assert heading in zh
    assert "继续执行 T-002: api" in zh


def test_complete_needs_all_tasks_and_confirmation(repo: Path, vg: VG) -> None:
    vg("start", "w", "--goal", "g")
    vg("task", "add", "T-1", "one")
    refused = vg("complete", "--yes")
    assert refused.code == 1 and "T-1" in refused.err
    vg("task", "done", "T-1")
    vg("context", "--question", "ship it?")
    assert vg("complete", "--yes").code == 1
    vg("context", "--answer", "1")
    before = state_ref(repo)
    declined = vg("complete", input="n\n")
    assert declined.code == 1 and state_ref(repo) == before
    assert vg("complete", input="y\n").code == 0
    body = git(repo, "log", "-1", "--format=%B", "vibegit/state")
    assert "confirmed on standard input (no terminal, no agent)" in body
    assert not (repo / MIRROR / "workflow.lock").exists()


def test_abort_asks_and_keeps_progress(repo: Path, vg: VG) -> None:
    vg("start", "w", "--goal", "g")
    vg("task", "add", "T-1", "one")
    assert vg("abort", input="").code == 1
    assert vg("abort", input="yes\n").code == 0
    data = json.loads(vg("status", "--json").out)
    assert data["workflow"]["status"] == "aborted" and data["tasks"][0]["id"] == "T-1"
    assert data["lock"] is None


@pytest.mark.parametrize("command", [("unlock", "--yes", "--reason", "need to commit"), ("fail", "tests broke")])
def test_unlock_and_fail_release_the_lock(repo: Path, vg: VG, command: tuple[str, ...]) -> None:
    vg("start", "w", "--goal", "g")
    assert vg(*command).code == 0
    data = json.loads(vg("status", "--json").out)
    assert data["lock"] is None and data["workflow"]["status"] in ("aborted", "failed")
    assert vg("start", "w2", "--goal", "again").code == 0


def test_log_reads_the_trailers(repo: Path, vg: VG) -> None:
    vg("start", "w", "--goal", "g")
    vg("task", "add", "T-1", "one")
    entries = json.loads(vg("log", "--json", "-n", "5").out)
    assert [e["event"] for e in entries] == ["task-add", "start"]
    assert entries[0]["task"] == "T-1" and entries[0]["workflow"] == "w"
    assert "task-add T-1: one" in vg("log").out


def test_log_shows_each_events_own_id_and_subject_whatever_its_trailers_say(repo: Path, vg: VG) -> None:
    """An allowed commit names the user's commit in a trailer; a hostile state
    commit may carry any trailer and any byte in its subject: log's id, date,
    author and subject are git's, never a trailer's."""
    assert vg("install").code == 0
    vg("start", "w", "--goal", "g")
    allowed = commit(repo, "past the lock", env={**os.environ, "VIBEGIT_ALLOW": "1"})
    assert allowed.code == 0, allowed.err
    mine, tip = git(repo, "rev-parse", "HEAD"), state_ref(repo)
    first = json.loads(vg("log", "--json", "-n", "1").out)[0]
    assert first["commit"] == tip and first["event"] == "allowed-commit" and first["allowed-commit"] == mine
    assert vg("log", "-n", "1").out.startswith(tip[:10])
    workflow_id = first["workflow-id"]
    forged = (
        "vibegit: task-add T-9: real\x1fdeadbeef\x1e0000000000\n\n"
        f"Vibegit-Event: task-add\nVibegit-Workflow-Id: {workflow_id}\nVibegit-Commit: {'0' * 40}\n"
        "Vibegit-Subject: forged\nVibegit-Date: 1970-01-01\nVibegit-Author: mallory\n"
    )
    hostile = commit_state(repo, {}, message=forged)
    entries = json.loads(vg("log", "--json", "-n", "2").out)
    assert [e["commit"] for e in entries] == [hostile, tip]
    assert entries[0]["subject"].startswith("vibegit: task-add T-9: real") and entries[0]["author"] == "Test User"
    assert entries[0]["date"].startswith("2025-01-12") and "forged" not in json.dumps(entries)
    shown = vg("log", "-n", "2").out.splitlines()
    assert [line[:10] for line in shown] == [hostile[:10], tip[:10]] and "forged" not in vg("log").out


def test_works_without_identity_from_a_subdirectory_and_a_worktree(
    repo: Path, vg: VG, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.delenv(f"GIT_{role}_NAME")
        monkeypatch.delenv(f"GIT_{role}_EMAIL")
    assert vg("start", "w", "--goal", "g", cwd=repo / "src").code == 0
    assert "vibegit <vibegit@localhost>" in git(repo, "log", "-1", "--format=%an <%ae>", "vibegit/state")
    git(repo, "worktree", "add", "-q", str(tmp_path / "wt"), "-b", "side")
    refused = vg("task", "add", "T-1", "from the worktree", cwd=tmp_path / "wt")
    assert refused.code == 1 and "no workflow runs on side" in refused.err and "w (w-" in refused.err
    assert vg("task", "add", "T-1", "from the worktree", "--workflow", "w", cwd=tmp_path / "wt").code == 0
    assert "T-1" in git(repo, "show", workflow_path(repo, "kanban.md"))
    assert not (tmp_path / "wt" / MIRROR / "kanban.md").exists()  # its mirror shows its own workflow: none


def test_state_branch_name_and_mirror_dir_are_settings(repo: Path, vg: VG) -> None:
    git(repo, "config", "vibegit.stateBranch", "agents/state")
    git(repo, "config", "vibegit.mirrorDir", ".agent-state")
    assert vg("start", "w", "--goal", "g").code == 0
    assert git(repo, "show", "agents/state:session.yaml")
    assert (repo / ".agent-state" / "session.yaml").exists()
    assert git(repo, "status", "--porcelain") == ""
