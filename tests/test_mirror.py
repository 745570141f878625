"""The mirror in the working tree: rewritten after each event, hand edits
validated and adopted by the next event, conflicts kept beside."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.helpers import MIRROR, VG, git, init_repo, vg_proc, workflow_path


def status(vg: VG) -> dict:
    return json.loads(vg("status", "--json").out)


def test_hand_edits_are_adopted_by_the_next_event(repo: Path, vg: VG) -> None:
    vg("start", "vibe-code", "--goal", "old goal")
    vg("task", "add", "T-001", "one")
    mirror = repo / MIRROR
    session = mirror / "session.yaml"
    session.write_text(session.read_text().replace("next_action: ''", "next_action: write the tests"))
    kanban = mirror / "kanban.md"
    kanban.write_text(kanban.read_text().replace("## Doing\n", "## Doing\n- [~] T-002: added by the agent\n"))
    context = mirror / "active_context.md"
    context.write_text(context.read_text().replace("## Notes\n", "## Notes\nremember the rate limit\n"))
    result = vg("task", "done", "T-001")
    assert result.code == 0, result.err
    assert "adopted your edit" in result.err
    data = status(vg)
    assert data["context"]["next_action"] == "write the tests"
    assert {t["id"]: t["status"] for t in data["tasks"]} == {"T-001": "done", "T-002": "doing"}
    assert "remember the rate limit" in git(repo, "show", workflow_path(repo, "active_context.md"))
    assert "T-002" in git(repo, "show", workflow_path(repo, "kanban.md"))
    # adopted once: the next event finds nothing new to adopt
    assert "adopted" not in vg("task", "done", "T-002").err


def test_status_changes_by_hand_are_refused(repo: Path, vg: VG) -> None:
    vg("start", "w", "--goal", "g")
    session = repo / MIRROR / "session.yaml"
    session.write_text(session.read_text().replace("status: running", "status: completed"))
    result = vg("task", "add", "T-1", "x")
    assert result.code == 2 and "workflow.status" in result.err and "not by hand" in result.err


def test_generated_files_edited_by_hand_are_kept_beside(repo: Path, vg: VG) -> None:
    vg("start", "w", "--goal", "g")
    checkpoint = repo / MIRROR / "checkpoint.md"
    checkpoint.write_text("my own notes\n")
    result = vg("task", "add", "T-1", "x")
    assert result.code == 0 and "checkpoint.md.edited" in result.err
    assert (repo / MIRROR / "checkpoint.md.edited").read_text() == "my own notes\n"
    assert "# Checkpoint" in checkpoint.read_text()


def test_deleting_the_lock_file_does_not_unlock(repo: Path, vg: VG) -> None:
    vg("start", "w", "--goal", "g")
    (repo / MIRROR / "workflow.lock").unlink()
    result = vg("task", "add", "T-1", "x")
    assert "deleted by hand" in result.err
    assert status(vg)["lock"]["locked"] is True
    assert (repo / MIRROR / "workflow.lock").exists()


def test_an_edit_against_a_newer_state_is_kept_not_dropped(repo: Path, vg: VG, tmp_path: Path) -> None:
    vg("start", "w", "--goal", "g")
    git(repo, "worktree", "add", "-q", str(tmp_path / "wt"), "-b", "side")
    # the branch moves on elsewhere
    assert vg("task", "add", "T-1", "from the worktree", "--workflow", "w", cwd=tmp_path / "wt").code == 0
    kanban = repo / MIRROR / "kanban.md"
    kanban.write_text(kanban.read_text().replace("## Todo\n", "## Todo\n- [ ] T-9: my local edit\n"))
    result = vg("task", "add", "T-2", "next")
    assert result.code == 0 and "kanban.md.conflict" in result.err
    assert "T-9" in (repo / MIRROR / "kanban.md.conflict").read_text()
    ids = [t["id"] for t in status(vg)["tasks"]]
    assert ids == ["T-1", "T-2"]


def test_symlinked_mirror_is_refused(repo: Path, vg: VG, tmp_path: Path) -> None:
    vg("start", "w", "--goal", "g")
    outside = tmp_path / "outside.yaml"
    outside.write_text("secret: 1\n")
    session = repo / MIRROR / "session.yaml"
    session.unlink()
    session.symlink_to(outside)
    result = vg("task", "add", "T-1", "x")
    assert result.code == 2 and "symbolic link" in result.err
    assert outside.read_text() == "secret: 1\n"


def test_concurrent_processes_lose_no_task(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    assert vg_proc("start", "w", "--goal", "g", cwd=repo).code == 0
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "vibegit", "task", "add", f"T-{i:03d}", f"task {i}"],
            cwd=repo,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for i in range(12)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    tasks = json.loads(vg_proc("task", "list", "--json", cwd=repo).out)
    assert sorted(t["id"] for t in tasks) == [f"T-{i:03d}" for i in range(12)]
    assert git(repo, "rev-list", "--count", "vibegit/state") == "13"
    assert json.loads(vg_proc("status", "--json", cwd=repo).out)["workflow"]["total_tasks"] == 12


def test_a_goal_or_note_that_looks_like_a_heading_stays_in_its_section(repo: Path, vg: VG) -> None:
    assert vg("start", "w", "--goal", "## Notes").code == 0
    context = repo / MIRROR / "active_context.md"
    text = context.read_text()
    assert "## Goal\n\\## Notes\n" in text
    context.write_text(text.replace("\n## Notes\n", "\n## Notes\n\\## Goal\nnot a goal\n\\\\## escaped\n", 1))
    result = vg("task", "add", "T-1", "x")
    assert result.code == 0 and "adopted your edit" in result.err, result.err
    assert status(vg)["context"]["goal"] == "## Notes"
    notes = git(repo, "show", workflow_path(repo, "active_context.md")).split("\n## Notes\n", 1)[1]
    assert notes.startswith("\\## Goal\nnot a goal\n\\\\## escaped")
    assert vg("task", "add", "T-2", "y").code == 0  # and it reads back the same
    assert status(vg)["context"]["goal"] == "## Notes"
    context.write_text(context.read_text().replace("not a goal", "## Goal\nforged"))
    refused = vg("task", "add", "T-3", "z")  # a section heading written by hand is a heading
    assert refused.code == 2 and "Goal section must be one line" in refused.err
