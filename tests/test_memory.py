"""Memory: vibegit memory add/list/remove, memory.yaml on the state branch,
and the recovery report's remembered rules (forbidden actions first)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import MIRROR, VG, event_count, git
from vibegit.core.model import Memory, MemoryCategory, MemoryEntry
from vibegit.errors import BadInput
from vibegit.infra.formats import parse_memory, render_memory


def test_add_list_remove_without_a_workflow(repo: Path, vg: VG) -> None:
    assert vg("memory", "add", "user_preference", "Answer in Chinese").code == 0
    assert vg("memory", "add", "forbidden_action", "Never force-push main").code == 0
    assert vg("memory", "add", "code-pattern", "Use pathlib, not os.path").code == 0  # - or _
    assert event_count(repo) == 3  # one event each
    listed = vg("memory", "list")
    assert listed.code == 0
    lines = listed.out.splitlines()
    assert lines[0].startswith("M-002") and "Never force-push main" in lines[0]  # forbidden first
    entries = json.loads(vg("memory", "list", "--json").out)
    assert [(e["id"], e["category"]) for e in entries] == [
        ("M-001", "user_preference"),
        ("M-002", "forbidden_action"),
        ("M-003", "code_pattern"),
    ]
    assert "category: forbidden_action" in git(repo, "show", "vibegit/state:memory.yaml")

    again = vg("memory", "add", "forbidden_action", "never  force-push MAIN")
    assert again.code == 0 and "Already remembered as M-002" in again.out
    assert event_count(repo) == 3

    assert vg("memory", "remove", "M-002").code == 0
    assert event_count(repo) == 4
    assert [e["id"] for e in json.loads(vg("memory", "list", "--json").out)] == ["M-001", "M-003"]
    assert vg("memory", "add", "forbidden_action", "Never drop tables").code == 0
    assert json.loads(vg("memory", "list", "--json").out)[-1]["id"] == "M-004"  # ids are not reused


def test_bad_input_is_exit_2_and_writes_nothing(repo: Path, vg: VG) -> None:
    result = vg("memory", "add", "rule", "x")
    assert result.code == 2 and "use one of forbidden_action, user_preference" in result.err
    assert vg("memory", "add", "user_preference", "").code == 2
    assert vg("memory", "add", "user_preference", "two\nlines").code == 2
    assert vg("memory", "add", "user_preference", "x" * 5000).code == 2
    result = vg("memory", "remove", "M-404")
    assert result.code == 2 and "unknown memory 'M-404'" in result.err
    assert git(repo, "rev-parse", "-q", "--verify", "refs/heads/vibegit/state", check=False) == ""


def test_memory_survives_workflows_and_shows_in_the_report(repo: Path, vg: VG) -> None:
    assert vg("memory", "add", "code_pattern", "Handlers return Result objects").code == 0
    assert vg("memory", "add", "forbidden_action", "Never edit migrations").code == 0
    assert vg("start", "w1", "--goal", "g").code == 0
    assert vg("complete", "--yes", "--no-tasks").code == 0
    assert vg("start", "w2", "--goal", "g").code == 0
    report = vg("status").out
    assert "### 🧠 Remembered rules" in report
    rules = report[report.index("Remembered rules") :]
    assert rules.index("Never edit migrations") < rules.index("Handlers return Result objects")
    assert "🚫 Never" in rules
    assert "### 🧠 记忆规则" in vg("status", "--lang", "zh").out


def test_a_hand_edit_of_memory_yaml_is_adopted_and_validated(repo: Path, vg: VG) -> None:
    assert vg("memory", "add", "user_preference", "Short answers").code == 0
    path = repo / MIRROR / "memory.yaml"
    path.write_text(path.read_text().replace("Short answers", "Very short answers"))
    assert vg("memory", "add", "code_pattern", "Type everything").code == 0
    texts = [e["text"] for e in json.loads(vg("memory", "list", "--json").out)]
    assert texts == ["Very short answers", "Type everything"]

    path.write_text("entries:\n  - id: M-001\n    category: wish\n    text: x\n")
    result = vg("memory", "add", "code_pattern", "More")
    assert result.code == 2 and "memory.yaml:2: entries[0].category: 'wish' is not one of" in result.err


def test_mirror_never_deletes_the_users_conventions(repo: Path, vg: VG) -> None:
    mirror = repo / MIRROR
    mirror.mkdir(parents=True)
    (mirror / "conventions.md").write_text("# Conventions\n- Use tabs\n")
    (mirror / "decisions.md").write_text("# Decisions\n1. Postgres\n")
    assert vg("memory", "add", "user_preference", "x").code == 0
    assert vg("memory", "remove", "M-001").code == 0  # no entry left; the user's files stay
    assert "entries: []" in (mirror / "memory.yaml").read_text()
    assert "last_id: 1" in (mirror / "memory.yaml").read_text()  # M-001 is never given again
    assert (mirror / "conventions.md").read_text() == "# Conventions\n- Use tabs\n"
    assert (mirror / "decisions.md").read_text() == "# Decisions\n1. Postgres\n"


@pytest.mark.parametrize(
    "text, where",
    [
        (b"entries: 3\n", "memory.yaml:1: entries"),
        (
            b"entries:\n  - id: M-1\n    category: code_pattern\n  - id: M-1\n    category: code_pattern\n    text: y\n",
            "memory.yaml:2: entries[0].text",
        ),
        (
            b"entries:\n  - {id: M-1, category: code_pattern, text: a}\n  - {id: M-1, category: code_pattern, text: b}\n",
            "memory.yaml:3: entries[1].id: M-1 appears twice",
        ),
        (
            b"entries:\n  - {id: M-1, category: code_pattern, text: a, source: ../etc/passwd}\n",
            "must be a path relative",
        ),
        (b"learned: {README.md: nothex}\n", "memory.yaml:1: learned"),
        (b"entries: &a [*a]\n", "aliases"),
    ],
)
def test_parse_memory_errors_name_file_and_line(text: bytes, where: str) -> None:
    with pytest.raises(BadInput, match=None) as info:
        parse_memory(text)
    assert where in str(info.value)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_in_memory_yaml_give_a_clear_error_or_a_memory(data: bytes) -> None:
    try:
        memory = parse_memory(data)
    except BadInput as err:
        assert str(err).startswith("memory.yaml")
    else:
        assert isinstance(memory, Memory)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(list(MemoryCategory)),
            st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=40).filter(
                str.strip
            ),
        ),
        max_size=8,
    )
)
def test_render_then_parse_is_the_same_memory(items: list[tuple[MemoryCategory, str]]) -> None:
    memory = Memory(
        tuple(
            MemoryEntry(f"M-{i:03d}", c, t.strip(), "2025-01-12T10:00:00Z", None, None)
            for i, (c, t) in enumerate(items, 1)
        ),
        {"README.md": "a" * 40},
    )
    assert parse_memory(render_memory(memory).encode()) == memory
