"""The skills' steps vibegit must not miss, end to end: the completion
report and learning into memory, answers kept with their questions, ids
never reused, a plain checkpoint that keeps the position, a failure that
status shows, and every skipped confirmation recorded."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import MIRROR, VG, git, status_json, workflow_path


def ok(vg: VG, *args: str) -> str:
    result = vg(*args)
    assert result.code == 0, (args, result.err)
    return result.out


def test_complete_writes_the_completion_report_and_learns_into_memory(repo: Path, vg: VG) -> None:
    ok(vg, "start", "vibe-code", "--goal", "Implement user auth")
    ok(vg, "task", "add", "T-001", "Login API")
    ok(vg, "phase", "E", "--step", "4.3")
    ok(vg, "context", "--question", "Which database?")
    ok(vg, "context", "--answer", "1", "--reply", "Postgres")
    ok(vg, "task", "done", "T-001")
    out = ok(vg, "complete", "--yes", "--lesson", "Hash passwords with argon2")
    for part in (
        "## ✅ Workflow completed: vibe-code",
        "Implement user auth",
        "### Tasks (1/1 done)",
        "- ✅ T-001: Login API",
        "### Duration",
        "- R1 1.1 ·",
        "- E 4.3 ·",
        "- 1. Which database? → Postgres",
        "- Hash passwords with argon2",
    ):
        assert part in out, part
    report = git(repo, "show", f"{workflow_path(repo, 'completion.md')}")
    assert "### Decisions" in report and "Which database? → Postgres" in report
    assert (repo / MIRROR / "completion.md").read_text().startswith("## ✅ Workflow completed")
    memory = {e["text"] for e in json.loads(ok(vg, "memory", "list", "--json"))}
    assert {"Hash passwords with argon2", "Which database? → Postgres"} <= memory
    trailers = git(repo, "log", "-1", "--format=%B", "vibegit/state")
    assert "Vibegit-Learned: Hash passwords with argon2" in trailers
    session = status_json(vg)
    assert session["workflow"]["status"] == "completed" and session["workflow"]["ended_at"]


def test_complete_with_no_task_asks_for_explicit_confirmation(repo: Path, vg: VG) -> None:
    ok(vg, "start", "w", "--goal", "g")
    refused = vg("complete", "--yes")
    assert refused.code == 1 and "--no-tasks" in refused.err
    ok(vg, "complete", "--yes", "--no-tasks")
    assert "Vibegit-No-Tasks: confirmed" in git(repo, "log", "-1", "--format=%B", "vibegit/state")


def test_abort_yes_is_recorded_as_a_skipped_confirmation(repo: Path, vg: VG) -> None:
    ok(vg, "start", "w", "--goal", "g")
    ok(vg, "abort", "--yes")
    body = git(repo, "log", "-1", "--format=%B", "vibegit/state")
    assert "Vibegit-Confirmation: confirmation skipped with --yes" in body
    ok(vg, "start", "w2", "--goal", "g")
    assert vg("abort", input="y\n").code == 0
    body = git(repo, "log", "-1", "--format=%B", "vibegit/state")
    assert "Vibegit-Confirmation: confirmed on standard input (no terminal, no agent)" in body


def test_answers_are_kept_and_questions_keep_their_numbers(repo: Path, vg: VG) -> None:
    ok(vg, "start", "w", "--goal", "g")
    ok(vg, "context", "--question", "Which database?")
    ok(vg, "context", "--question", "Which port?")
    out = ok(vg, "context", "--answer", "1", "--reply", "Postgres")
    assert "open question 2: Which port?" in out
    context = status_json(vg)["context"]
    assert [(q["id"], q["question"]) for q in context["pending_questions"]] == [(2, "Which port?")]
    assert [(q["id"], q["answer"]) for q in context["answered_questions"]] == [(1, "Postgres")]
    assert "2. Which port?" in ok(vg, "status")
    refused = vg("context", "--answer", "1", "--reply", "again")
    assert refused.code == 2 and "no such open question" in refused.err
    ok(vg, "context", "--question", "A third?")
    assert [q["id"] for q in status_json(vg)["context"]["pending_questions"]] == [2, 3]


def test_ids_are_never_given_again(repo: Path, vg: VG) -> None:
    ok(vg, "memory", "add", "user_preference", "one")
    ok(vg, "memory", "add", "user_preference", "two")
    ok(vg, "memory", "remove", "M-002")
    ok(vg, "memory", "add", "user_preference", "three")
    assert [e["id"] for e in json.loads(ok(vg, "memory", "list", "--json"))] == ["M-001", "M-003"]
    ok(vg, "start", "w", "--goal", "g")
    ok(vg, "task", "add", "T-001", "one")
    ok(vg, "task", "add", "T-002", "two")
    kanban = repo / MIRROR / "kanban.md"
    kanban.write_text(kanban.read_text().replace("- [ ] T-002: two\n", ""))
    ok(vg, "context", "--next", "adopt the kanban")
    refused = vg("task", "add", "T-002", "again")
    assert refused.code == 2 and "never given again" in refused.err
    assert status_json(vg)["workflow"]["removed_tasks"] == ["T-002"]


def test_a_plain_checkpoint_keeps_the_position(repo: Path, vg: VG) -> None:
    ok(vg, "start", "w", "--goal", "g")
    (repo / "a.py").write_text("one\ntwo\n")
    ok(vg, "checkpoint", "--file", "a.py", "--line", "2", "--action", "writing two")
    ok(vg, "checkpoint")
    k = status_json(vg)["checkpoint"]
    assert (k["file"], k["line"], k["action"]) == ("a.py", 2, "writing two")
    ok(vg, "checkpoint", "--action", "now three")
    k = status_json(vg)["checkpoint"]
    assert (k["file"], k["line"], k["action"]) == ("a.py", 2, "now three")


def test_status_shows_a_failure(repo: Path, vg: VG) -> None:
    ok(vg, "start", "w", "--goal", "g")
    ok(vg, "fail", "the build server is gone")
    out = ok(vg, "status")
    assert "failed at" in out and "the build server is gone" in out
    assert status_json(vg)["workflow"]["error"] == "the build server is gone"
