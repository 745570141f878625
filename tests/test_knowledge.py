"""Project knowledge is state: conventions.md and decisions.md of the mirror
travel on the state branch with memory.yaml, so what one machine learned is
never deleted by another; learning takes rules only and can be switched off."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import MIRROR, VG, Machines, clone, event_count, git, remote_with_laptop


def memory(m: Machines, host: str, where: Path) -> list[dict]:
    return json.loads(m.ok(host, where, "memory", "list", "--json").out)


def test_learned_rules_travel_with_the_state_and_never_flip(tmp_path: Path, m: Machines) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    (laptop / MIRROR).mkdir(parents=True)
    (laptop / MIRROR / "conventions.md").write_text("# Conventions\n- Snake case for files\n")
    (laptop / MIRROR / "decisions.md").write_text("# Decisions\n1. Postgres, not MySQL\n")
    learned = m.ok("laptop", laptop, "learn").out
    assert "Snake case for files" in learned and "Postgres, not MySQL" in learned
    assert git(laptop, "show", "vibegit/state:conventions.md") == "# Conventions\n- Snake case for files"
    m.ok("laptop", laptop, "sync")

    desktop = clone(remote, tmp_path / "desktop")
    m.ok("desktop", desktop, "sync")
    assert (desktop / MIRROR / "conventions.md").read_text() == "# Conventions\n- Snake case for files\n"
    result = m.ok("desktop", desktop, "memory", "add", "user_preference", "Short answers")
    assert "gone" not in result.out + result.err
    texts = {e["text"] for e in memory(m, "desktop", desktop)}
    assert {"Snake case for files", "Postgres, not MySQL", "Short answers"} <= texts
    m.ok("desktop", desktop, "sync")

    m.ok("laptop", laptop, "sync")
    events = event_count(laptop)
    assert "Nothing new to learn" in m.ok("laptop", laptop, "learn").out  # no flip back and forth
    assert event_count(laptop) == events
    assert {e["text"] for e in memory(m, "laptop", laptop)} == texts


def test_an_edit_of_conventions_on_one_machine_reaches_the_other(tmp_path: Path, m: Machines) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    (laptop / MIRROR).mkdir(parents=True)
    (laptop / MIRROR / "conventions.md").write_text("# Conventions\n- Tabs\n")
    m.ok("laptop", laptop, "learn")
    m.ok("laptop", laptop, "sync")
    desktop = clone(remote, tmp_path / "desktop")
    m.ok("desktop", desktop, "sync")
    (desktop / MIRROR / "conventions.md").write_text("# Conventions\n- Spaces\n")
    assert "Spaces" in m.ok("desktop", desktop, "learn").out
    m.ok("desktop", desktop, "sync")
    m.ok("laptop", laptop, "sync")
    assert (laptop / MIRROR / "conventions.md").read_text() == "# Conventions\n- Spaces\n"
    assert [e["text"] for e in memory(m, "laptop", laptop) if e.get("source")] == ["Spaces"]


README = """\
# tool

## Features

- Fast
- Small

## Don'ts

- Push to main directly

## Setup

<!-- vibegit:rules -->
- Run make setup before anything else
<!-- /vibegit:rules -->

- Decision: configuration lives in pyproject.toml
"""


def test_learning_takes_rules_only_and_says_what_it_took(repo: Path, vg: VG) -> None:
    (repo / "README.md").write_text(README)
    result = vg("learn")
    assert result.code == 0
    entries = {e["text"]: e["category"] for e in json.loads(vg("memory", "list", "--json").out)}
    assert entries == {
        "Push to main directly": "forbidden_action",
        "Run make setup before anything else": "project_knowledge",
        "Decision: configuration lives in pyproject.toml": "project_knowledge",
    }
    assert "Fast" not in result.out and "🚫 Never: Push to main directly" in result.out


def test_learning_can_be_switched_off(repo: Path, vg: VG) -> None:
    (repo / "README.md").write_text(README)
    assert vg("init").code == 0
    for key, value in (("vibegit.learn.docs", ""), ("vibegit.learn", "false")):
        git(repo, "config", key, value)
        events = event_count(repo)
        result = vg("learn")
        assert result.code == 0 and "Learning is off" in result.out
        assert event_count(repo) == events
        git(repo, "config", "--unset", key)
    git(repo, "config", "vibegit.learn", "off")
    assert vg("start", "w", "--goal", "g").code == 0
    events = event_count(repo)
    assert vg("phase", "I").code == 0
    assert event_count(repo) == events + 1  # the phase only: no learn
    assert json.loads(vg("memory", "list", "--json").out) == []
