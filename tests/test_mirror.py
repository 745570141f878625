"""The mirror in the working tree: rewritten after each event, hand edits
validated and adopted by the next event, conflicts kept beside."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import MIRROR, VG, git, init_repo, state_ref, vg_proc, workflow_path


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


@pytest.mark.parametrize(
    ("name", "before", "after", "field", "command"),
    [
        ("session.yaml", "branch: main", "branch: elsewhere", "workflow.branch", "vibegit start"),
        ("session.yaml", "worktree: {top}", "worktree: /tmp/x", "workflow.worktree", "vibegit start"),
        ("session.yaml", "status: running", "status: paused", "workflow.status", "vibegit pause"),
        ("session.yaml", "workflow_name: w", "workflow_name: v", "mode.workflow_name", "vibegit start"),
        ("workflow.lock", "host: {host}", "host: laptop", "host", "vibegit resume"),
        ("workflow.lock", "worktree: {top}", "worktree: /tmp/x", "worktree", "vibegit resume"),
        ("workflow.lock", "locked: true", "locked: false", "locked", "vibegit pause"),
        ("workflow.lock", "paused: false", "paused: true", "paused", "vibegit pause"),
        ("workflow.lock", "workflow: w", "workflow: v", "workflow", "vibegit start"),
    ],
)
def test_binding_holder_and_lock_are_never_edited_by_hand(
    repo: Path, vg: VG, name: str, before: str, after: str, field: str, command: str
) -> None:
    """Editing where a workflow is bound or who holds it would unbind it
    silently (commits would land on the locked branch): refused in one line
    naming the file, the field and the command; content fields stay adoptable."""
    assert vg("start", "w", "--goal", "g").code == 0
    lock = status(vg)["lock"]
    path = repo / MIRROR / name
    text = path.read_text()
    old = before.format(top=lock["worktree"], host=lock["host"])
    assert old in text, (old, text)
    path.write_text(text.replace(old, after.format(top=lock["worktree"], host=lock["host"]), 1))
    tip = state_ref(repo)
    refused = vg("task", "add", "T-1", "x")
    assert refused.code == 2, refused.err
    [line] = refused.err.strip().splitlines()
    assert f"{MIRROR}/{name}: {field} is changed by '{command}" in line and "not by hand" in line
    assert state_ref(repo) == tip
    assert status(vg)["workflow"]["branch"] == "main" and status(vg)["lock"] == lock
    path.write_text(text)  # set back: the next event goes on
    assert vg("task", "add", "T-1", "x").code == 0


def test_content_fields_of_the_session_and_the_lock_stay_adoptable(repo: Path, vg: VG) -> None:
    assert vg("start", "w", "--goal", "g").code == 0
    session = repo / MIRROR / "session.yaml"
    session.write_text(session.read_text().replace("goal: g", "goal: a better goal"))
    lock = repo / MIRROR / "workflow.lock"
    text = lock.read_text()
    reason = next(line for line in text.splitlines() if line.startswith("reason:"))
    lock.write_text(text.replace(reason, "reason: pairing with Ana until 5pm"))
    result = vg("task", "add", "T-1", "x")
    assert result.code == 0 and "adopted your edit" in result.err, result.err
    data = status(vg)
    assert data["context"]["goal"] == "a better goal" and data["lock"]["reason"] == "pairing with Ana until 5pm"


KANBAN = "# Kanban\n\n## Todo\n- [ ] T-001: Write the parser\n- [ ] T-002: Test it\n"
MEMORY = 'entries:\n- {id: M-001, category: user_preference, text: "Answer in French"}\n'


def test_the_first_event_keeps_hand_written_files(repo: Path, vg: VG) -> None:
    """Untracked state files written by hand before vibegit ever wrote the
    mirror: adopted where they validate, and every one saved before the
    mirror is written, with the one command that puts them back."""
    mirror = repo / MIRROR
    mirror.mkdir(parents=True)
    mine = {
        "kanban.md": KANBAN,
        "checkpoint.md": "# My checkpoint\nhalf way through the parser\n",
        "active_context.md": "## Goal\nparse it\n\n## Notes\nthe grammar is in docs/\n",
        "memory.yaml": MEMORY,
    }
    for name, text in mine.items():
        (mirror / name).write_text(text)
    result = vg("start", "w", "--goal", "g")
    assert result.code == 0, result.err
    assert f"adopted your edit of {MIRROR}/memory.yaml" in result.err
    [line] = [x for x in result.err.splitlines() if "held files vibegit never wrote" in x]
    assert all(name in line for name in mine)
    memory = [m["text"] for m in json.loads(vg("memory", "list", "--json").out)]
    assert memory == ["Answer in French"]
    assert "T-001" not in (mirror / "kanban.md").read_text()  # a new workflow starts with no tasks ...
    command = line.split("'")[1]
    backup = Path(shlex.split(command)[2].rstrip("/.").rstrip("/"))
    for name, text in mine.items():
        assert (backup / MIRROR / name).read_text() == text, name
    subprocess.run(shlex.split(command), check=True)  # ... and the printed command puts them back
    assert {name: (mirror / name).read_text() for name in mine} == mine
    result = vg("task", "start", "T-001")  # the next event adopts what validates
    assert result.code == 0, result.err
    assert sorted(t["id"] for t in status(vg)["tasks"]) == ["T-001", "T-002"]
    assert "the grammar is in docs/" in git(repo, "show", workflow_path(repo, "active_context.md"))
    assert (mirror / "checkpoint.md.edited").read_text() == mine["checkpoint.md"]


def test_a_first_event_with_a_file_that_does_not_validate_saves_it_and_goes_on(
    repo: Path, vg: VG, tmp_path: Path
) -> None:
    assert vg("start", "w", "--goal", "g").code == 0
    other = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", str(other), "-b", "side")
    (other / MIRROR).mkdir(parents=True)
    (other / MIRROR / "kanban.md").write_text("not a kanban at all\n- [?] nope\n")
    (other / MIRROR / "memory.yaml").write_text(MEMORY)
    result = vg("task", "add", "T-2", "from the worktree", "--workflow", "w", cwd=other)
    assert result.code == 0, result.err
    assert "not adopted, but saved before the mirror is written" in result.err and "kanban.md" in result.err
    assert [t["id"] for t in status(vg)["tasks"]] == ["T-2"]
    [line] = [x for x in result.err.splitlines() if "held files vibegit never wrote" in x]
    backup = Path(shlex.split(line.split("'")[1])[2].rstrip("/.").rstrip("/"))
    assert (backup / MIRROR / "kanban.md").read_text() == "not a kanban at all\n- [?] nope\n"


def test_a_sync_leaves_a_mirror_vibegit_never_wrote_for_the_next_event(repo: Path, vg: VG) -> None:
    from vibegit.infra import git as vgit
    from vibegit.infra import mirror as vmirror

    assert vg("start", "w", "--goal", "g").code == 0
    (repo / ".git" / "vibegit-mirror").unlink()  # as if vibegit never wrote it here
    shutil.rmtree(repo / MIRROR)
    (repo / MIRROR).mkdir()
    (repo / MIRROR / "kanban.md").write_text(KANBAN)
    said: list[str] = []
    r = vgit.find_repo(repo)
    from vibegit.app import open_repo

    vmirror.show(r, open_repo(repo).settings, vgit.reader(r), git(repo, "rev-parse", "vibegit/state"), "", said.append)
    assert said and "never wrote" in said[0]
    assert (repo / MIRROR / "kanban.md").read_text() == KANBAN
