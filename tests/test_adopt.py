"""Switching from the skill documents to vibegit: state files an earlier
skill-based set-up left (and committed) in the mirror folder are detected,
never written over silently, and imported by 'vibegit adopt'."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import (
    MIRROR,
    SKILL_KANBAN,
    SKILL_LOCK,
    SKILL_SESSION,
    VG,
    event_count,
    git,
    run_git,
    state_ref,
    status_json,
)


def skill_setup(repo: Path, commit: bool = True) -> Path:
    mirror = repo / MIRROR
    mirror.mkdir(parents=True)
    (mirror / "session.yaml").write_text(SKILL_SESSION)
    (mirror / "workflow.lock").write_text(SKILL_LOCK)
    (mirror / "kanban.md").write_text(SKILL_KANBAN)
    (mirror / "conventions.md").write_text("# 约定\n- 函数必须有类型注解\n")
    if commit:
        git(repo, "add", MIRROR)
        git(repo, "commit", "-q", "-m", "skill state")
    return mirror


def test_status_reads_an_earlier_setup_and_no_event_writes_over_it(repo: Path, vg: VG) -> None:
    mirror = skill_setup(repo)
    out = vg("status").out
    assert "holds an earlier skill set-up's workflow 'vibe-code' (running), workflow.lock locked" in out
    assert "4 of its files are tracked by git" in out and "'vibegit adopt' imports it" in out
    refused = vg("start", "other", "--goal", "g")
    assert refused.code == 1 and "'vibegit adopt' imports it" in refused.err and "nothing was written" in refused.err
    assert state_ref(repo) == ""
    assert (mirror / "session.yaml").read_text() == SKILL_SESSION
    assert git(repo, "status", "--porcelain") == ""


def test_adopt_imports_the_workflow_and_says_what_tracked_files_it_rewrote(repo: Path, vg: VG) -> None:
    mirror = skill_setup(repo)
    result = vg("adopt")
    assert result.code == 0, result.err
    assert "Adopted 'vibe-code'" in result.out and "running, 1/3 tasks" in result.out
    assert "Rewrote 4 file(s) git tracks" in result.out and f"git diff -- {MIRROR}" in result.out
    data = status_json(vg)
    assert data["mode"]["phase"] == "E" and data["mode"]["step"] == "4.3"
    assert data["workflow"]["current_task"] == "T-002" and data["context"]["goal"] == "实现用户认证系统"
    assert [(q["id"], q["question"]) for q in data["context"]["pending_questions"]] == [(1, "用哪个数据库？")]
    assert data["checkpoint"]["file"] == "src/api/auth.ts" and data["checkpoint"]["line"] == 45
    assert [(t["id"], t["status"]) for t in data["tasks"]] == [("T-003", "todo"), ("T-002", "doing"), ("T-001", "done")]
    assert data["lock"]["locked"] and data["lock"]["host"]
    body = git(repo, "log", "-1", "--format=%B", "vibegit/state~1")  # the adopt, then the learn of conventions.md
    assert f"Vibegit-Adopted-From: {MIRROR}" in body and f"Vibegit-Tracked: {MIRROR}/session.yaml" in body
    memory = json.loads(vg("memory", "list", "--json").out)
    assert [e["text"] for e in memory] == ["函数必须有类型注解"]
    # The lock is vibegit's now: a commit is blocked, and the next event goes through.
    assert vg("install").code == 0
    (repo / "x.txt").write_text("x\n")
    git(repo, "add", "x.txt")
    blocked = run_git(repo, "commit", "-q", "-m", "x")
    assert blocked.code != 0 and "vibe-code" in blocked.err
    events = event_count(repo)
    assert vg("task", "done", "T-002").code == 0 and event_count(repo) == events + 1
    assert "T-002" in (mirror / "kanban.md").read_text()


def test_an_uncommitted_setup_is_adopted_too_and_adopt_twice_is_refused(repo: Path, vg: VG) -> None:
    skill_setup(repo, commit=False)
    result = vg("adopt")
    assert result.code == 0 and "Rewrote" not in result.out
    again = vg("adopt")
    assert again.code == 1 and "nothing to adopt" in again.err


def test_a_broken_setup_is_named_with_file_and_line(repo: Path, vg: VG) -> None:
    mirror = skill_setup(repo, commit=False)
    (mirror / "session.yaml").write_text(SKILL_SESSION.replace('phase: "E"', 'phase: "Z"'))
    result = vg("adopt")
    assert result.code == 2 and f"{MIRROR}/session.yaml:9: mode.phase" in result.err
    assert state_ref(repo) == ""
