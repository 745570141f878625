"""vibegit doctor: checks of the state branch, and --repair as a new event."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import MIRROR, VG, commit_state, git, workflow_dir


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
