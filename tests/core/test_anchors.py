"""Finding a checkpoint's line again (core/anchors.py), without git."""

from __future__ import annotations

from vibegit.core import anchors


def test_relocate_finds_the_line_nearest_where_it_was() -> None:
    lines = ["a", "def login():", "x", "y", "def login():"]
    assert anchors.relocate(lines, 2, "def login():") == anchors.Where("same", 2)
    assert anchors.relocate(["new"] * 3 + lines, 2, "def login():") == anchors.Where("moved", 5)
    assert anchors.relocate(lines, 4, "def login():") == anchors.Where("moved", 5)
    assert anchors.relocate(["def login(user):"], 1, "def login():") == anchors.Where("similar", 1)
    assert anchors.relocate(["other"], 1, "def login():").state == "gone"
    assert anchors.relocate(lines, 3, None).state == "unknown"


def test_a_redacted_line_is_still_found_where_the_file_holds_it() -> None:
    """'sync --redact' replaces a credential in the kept text; the file still has it: same, or moved, never gone."""
    kept = "TOKEN = '[REDACTED]'  # [REDACTED]"
    lines = ["x", "TOKEN = 'ghp_abc123'  # sk-1"]
    assert anchors.relocate(lines, 2, kept) == anchors.Where("same", 2)
    assert anchors.relocate(["new", *lines], 2, kept) == anchors.Where("moved", 3)
    assert anchors.relocate(["TOKEN = ''  # "], 1, kept).state == "gone"  # a marker stands for some text
    assert anchors.relocate(["other"], 1, kept).state == "gone"
