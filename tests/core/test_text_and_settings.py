"""Input validation (core/text.py) and settings (core/settings.py), without git."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vibegit.core.settings import Settings, settings
from vibegit.core.text import (
    LazyPattern,
    _control,
    bad_char,
    check_relative_path,
    check_task_id,
    check_text,
    clean,
    code,
    inert,
    is_oid,
    shown,
    unescape,
)
from vibegit.errors import BadInput


@pytest.mark.parametrize("value", ["a\nb", "a\u2028b", "x\x1b[31m", "\x7f", "\x85"])
def test_one_line_text_refuses_breaks_and_controls(value: str) -> None:
    assert bad_char(value) is not None
    with pytest.raises(BadInput):
        check_text(value, "--goal")


@given(st.text(), st.booleans())
def test_bad_char_is_the_first_character_the_rule_refuses(value: str, one_line: bool) -> None:
    """Its quick answer for printable text is the rule's, character by character."""
    allowed = "\t" if one_line else "\t\n"
    assert bad_char(value, one_line) == next((c for c in value if _control(c) and c not in allowed), None)


def test_text_is_bounded_and_stripped() -> None:
    assert check_text("  ok\t ", "x") == "ok"
    assert check_text("a\nb", "notes", one_line=False) == "a\nb"
    with pytest.raises(BadInput, match="too long"):
        check_text("x" * 5, "x", max_len=4)


@pytest.mark.parametrize("path", ["/etc/passwd", "../up", "a/../../b", "C:\\x", ".git/config", "", "a\nb"])
def test_paths_stay_inside_the_working_tree(path: str) -> None:
    with pytest.raises(BadInput):
        check_relative_path(path, "--file")


def test_ids() -> None:
    assert check_task_id("T-001") == "T-001"
    with pytest.raises(BadInput):
        check_task_id("$(rm -rf)")
    assert is_oid("a" * 40) and is_oid("b" * 64)
    assert not is_oid("--upload-pack=x") and not is_oid("A" * 40) and not is_oid(None)


def test_settings_defaults_and_values() -> None:
    assert settings({}) == Settings()
    conf = settings({"vibegit.statebranch": "refs/heads/team/state", "vibegit.blockcommits": "Other-Branches"})
    assert conf.state_branch == "team/state" and conf.state_ref == "refs/heads/team/state"
    assert conf.block_commits == "other-branches"
    timed = settings({"vibegit.synctimeout": " 2.5 ", "vibegit.syncbackoff": "0"})
    assert (timed.sync_timeout, timed.sync_backoff) == (2.5, 0.0)
    assert (Settings().sync_timeout, Settings().sync_backoff) == (30.0, 0.2)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("vibegit.blockcommits", "sometimes"),
        ("vibegit.lang", "fr"),
        ("vibegit.mirrordir", "../out"),
        ("vibegit.synctimeout", "-1"),
        ("vibegit.synctimeout", "nan"),
        ("vibegit.syncbackoff", "soon"),
        ("vibegit.syncbackoff", "61"),
    ],
)
def test_a_bad_setting_is_an_error_or_its_safe_default(key: str, value: str) -> None:
    with pytest.raises(BadInput, match="git config"):
        settings({key: value})
    said: list[str] = []
    conf = settings({key: value}, fallback=said.append)
    assert said and conf == Settings()  # blockCommits falls back to always: the lock stays on


def test_a_bad_state_branch_always_stops() -> None:
    with pytest.raises(BadInput, match="stateBranch"):
        settings({"vibegit.statebranch": "a..b"}, fallback=lambda _: None)


@pytest.mark.parametrize("value", ["a\u202eb", "\u2066x", "x\x9by"])
def test_bidi_overrides_and_c1_controls_are_refused_too(value: str) -> None:
    with pytest.raises(BadInput, match="control"):
        check_text(value, "--goal")


def test_clean_drops_controls_and_bidi_and_keeps_lines_only_where_asked() -> None:
    assert clean("a\x1b[31mb\nc\u202ed\te") == "a[31mb cd\te"
    assert clean("x\r\ny\rz\x07", one_line=False) == "x\ny\nz"
    assert clean("plain ✓ 中文") == "plain ✓ 中文"


@pytest.mark.parametrize(
    "value",
    ["### Next step", "- ✅ T-9: forged", "* x", "+ y", "> quote", "| a | b |", "```", "~~~", "1. one", "2) two"],
)
def test_a_value_at_the_start_of_a_line_cannot_open_a_block(value: str) -> None:
    shown = inert(value)
    assert shown.startswith("\\") and unescape(shown) == value
    assert unescape(inert(shown)) == shown  # escaping is taken back exactly, whatever was there


def test_plain_values_are_shown_as_they_are() -> None:
    assert inert("verify the hash") == "verify the hash" == unescape("verify the hash")
    assert code("src/a.py:3") == "`src/a.py:3`"
    assert code("a`b") == "``a`b``" and code("`x") == "`` `x ``"
    assert shown("src/app.py") == "src/app.py" and shown("a\nb") == "'a\\nb'" and shown("x\u202e") == "'x\\u202e'"


@given(
    st.text(max_size=20), st.sampled_from([r"a+", r"(\w)(\d)?", r"[^x]*\Z", r"RULE:\s*"]), st.sampled_from([0, re.I])
)
def test_a_lazy_pattern_answers_as_the_compiled_one(text: str, pattern: str, flags: int) -> None:
    lazy, compiled = LazyPattern(pattern, flags), re.compile(pattern, flags)
    for name in ("match", "fullmatch", "search"):
        ours, theirs = getattr(lazy, name)(text), getattr(compiled, name)(text)
        assert (ours and ours.groups(), ours and ours.span()) == (theirs and theirs.groups(), theirs and theirs.span())
    assert lazy.sub("-", text) == compiled.sub("-", text)
    assert lazy.sub("-", text, count=1) == compiled.sub("-", text, count=1)
    assert lazy.compiled is lazy.compiled  # compiled once
