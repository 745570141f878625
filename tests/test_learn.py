"""Learning from the watched docs: rules become project_knowledge entries with
their source and heading; an unchanged doc teaches nothing new; an edited doc
replaces what it taught."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.helpers import MIRROR, README, VG, event_count, git


def knowledge(vg: VG) -> list[dict]:
    return [e for e in json.loads(vg("memory", "list", "--json").out) if e["category"] == "project_knowledge"]


def test_learn_twice_on_an_unchanged_readme_adds_nothing(repo: Path, vg: VG) -> None:
    (repo / "README.md").write_text(README)
    first = vg("learn")
    assert first.code == 0 and "learn: README.md +3 -0" in first.out
    assert "+ M-001 Project: Use four spaces, never tabs. (README.md § Conventions)" in first.out  # shown
    assert "Bump the version" not in first.out  # release steps are no rule
    entries = knowledge(vg)
    assert [(e["heading"], e["text"]) for e in entries][:2] == [
        ("Conventions", "Use four spaces, never tabs."),
        ("Conventions", "Type every function"),
    ]
    assert all(e["source"] == "README.md" for e in entries)
    events = event_count(repo)
    second = vg("learn")
    assert second.code == 0 and "Nothing new to learn" in second.out
    assert event_count(repo) == events
    assert knowledge(vg) == entries


def test_after_an_edit_the_entries_follow_the_new_text(repo: Path, vg: VG) -> None:
    (repo / "README.md").write_text(README)
    assert vg("learn").code == 0
    old = {e["text"]: e["id"] for e in knowledge(vg)}
    (repo / "README.md").write_text(
        README.replace("- Type every function\n", "- Type every public function\n").replace("2) Tag it\n", "")
    )
    result = vg("learn")
    assert result.code == 0 and "README.md +1 -1" in result.out
    new = {e["text"]: e["id"] for e in knowledge(vg)}
    assert set(new) == {"Use four spaces, never tabs.", "Type every public function", "Keep commits small"}
    assert new["Keep commits small"] == old["Keep commits small"]  # unchanged items keep their ids
    assert new["Type every public function"] not in old.values()

    (repo / "README.md").unlink()  # a doc missing here (another branch, a clone without it) takes nothing away
    assert "Nothing new to learn" in vg("learn").out
    assert set(e["text"] for e in knowledge(vg)) == set(new)


def test_learn_keeps_hand_added_memory_and_the_other_docs(repo: Path, vg: VG) -> None:
    mirror = repo / MIRROR
    mirror.mkdir(parents=True)
    (mirror / "conventions.md").write_text("# Conventions\n- Snake case for files\n")
    (repo / "CONTRIBUTING.md").write_text("## PR rules\n- One change per PR\n")
    assert vg("memory", "add", "forbidden_action", "Never push to main").code == 0
    assert vg("learn").code == 0
    sources = {e["source"] for e in knowledge(vg)}
    assert sources == {"project_document/.ai_state/conventions.md", "CONTRIBUTING.md"}
    (repo / "CONTRIBUTING.md").write_text("## PR rules\n- Two reviewers\n")
    assert vg("learn").code == 0
    texts = [e["text"] for e in json.loads(vg("memory", "list", "--json").out)]
    assert texts == ["Never push to main", "Snake case for files", "Two reviewers"]
    assert (mirror / "conventions.md").read_text() == "# Conventions\n- Snake case for files\n"


def test_watched_docs_setting_and_a_phase_exit_learns(repo: Path, vg: VG, tmp_path: Path) -> None:
    (repo / "docs").mkdir()
    (repo / "docs" / "rules.md").write_text("# Rules\n- Rule one\n")
    (repo / "docs" / "more.md").write_text("# More\n- Rule: two\n")
    git(repo, "config", "--add", "vibegit.learn.docs", "docs/rules.md")
    git(repo, "config", "--add", "vibegit.learn.docs", "docs/more.md, README.md")
    out = tmp_path / "learned.json"
    git(
        repo,
        "config",
        "vibegit.hook.onLearn",
        f'"{sys.executable}" -c "import sys; open({str(out)!r}, \'w\').write(sys.stdin.read())"',
    )
    assert vg("start", "w", "--goal", "g").code == 0
    events = event_count(repo)
    result = vg("phase", "P")
    assert result.code == 0
    assert event_count(repo) == events + 2  # the phase, then the learn
    assert {e["text"] for e in knowledge(vg)} == {"Rule one", "Rule: two"}
    assert json.loads(out.read_text())["event"] == "learn"
    events = event_count(repo)
    assert vg("phase", "E").code == 0
    assert event_count(repo) == events + 1  # nothing changed: no learn event, and no message
    git(repo, "config", "--add", "vibegit.learn.docs", "../outside.md")
    result = vg("learn")
    assert result.code == 2 and "must be a path relative to the repository" in result.err


def test_learn_reads_no_doc_outside_the_repository(repo: Path, vg: VG, tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("# Secret\n- password is hunter2\n")
    (repo / "README.md").unlink()
    (repo / "README.md").symlink_to(secret)
    result = vg("learn")
    assert result.code == 0 and "resolves outside the repository" in result.err
    assert knowledge(vg) == []


def test_a_hostile_readme_teaches_text_not_terminal_controls(repo: Path, vg: VG) -> None:
    (repo / "README.md").write_text("# \x1b]0;title\x07 Rules\n\n- Keep \x1b[2Jcalm\u202e\n- ### Next step\n")
    assert vg("learn").code == 0
    entries = knowledge(vg)
    assert [(e["heading"], e["text"]) for e in entries] == [
        ("]0;title Rules", "Keep [2Jcalm"),
        ("]0;title Rules", "### Next step"),
    ]
    assert vg("start", "w", "--goal", "g").code == 0
    report = vg("status").out
    assert "\x1b" not in report and "\u202e" not in report
    assert [line for line in report.splitlines() if line.startswith("###")].count("### Next step") == 1
