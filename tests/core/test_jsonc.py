"""JSON and JSON with comments, parsed with places and edited as text (core/jsonc.py)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vibegit.core import jsonc

GEMINI = """\
// Gemini CLI settings
{
  // editor preferences
  "general": { "vimMode": true, "preferredEditor": "code" },
  /* the look */
  "ui": { "theme": "GitHub", "hideBanner": true, "hideTips": false } // trailing
}
"""


def test_parse_gives_values_and_places() -> None:
    root = jsonc.parse(GEMINI, comments=True)
    assert root.value == {
        "general": {"vimMode": True, "preferredEditor": "code"},
        "ui": {"theme": "GitHub", "hideBanner": True, "hideTips": False},
    }
    ui = root.get("ui")
    assert ui is not None and GEMINI[ui.start : ui.end].startswith('{ "theme"')
    assert [k for k, _, _ in root.members] == ["general", "ui"]
    assert jsonc.parse('[1, -2.5e3, "a\\u00e9", null, false]').value == [1, -2500.0, "aé", None, False]


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ('{"a": 1,}', "1:9", "trailing comma"),
        ('{"a": 1 "b": 2}', "1:9", "expected ','"),
        ('{"a": 1, "a": 2}', "1:10", "duplicate key"),
        ('{\n  "a": "x\ny"}', "2:10", "control character"),
        ("// c\n{}", "1:1", "comments are not allowed"),
        ('{"a":', "1:6", "unexpected end"),
        ('{"a": "\\q"}', "1:7", "bad escape"),
        ("{} {}", "1:4", "more after the value"),
        ("/* open", "1:1", "unterminated"),
        ("[" * 200, "1:102", "nested deeper"),
    ],
)
def test_bad_json_names_line_and_column(text: str, where: str, what: str) -> None:
    with pytest.raises(jsonc.JsoncError) as err:
        jsonc.parse(text, comments="/*" in text)
    assert str(err.value).startswith(where) and what in str(err.value)


@pytest.mark.parametrize(
    "text",
    [
        "{}",
        "{ }",
        '{"version":1}',
        '{"hooks": {}}',
        GEMINI,
        '{\n\t"a": [\n\t\t1\n\t]\n}\n',
        '{\n    "permissions": {"allow": []},\n    "model": "opus"\n}',
    ],
)
def test_add_then_remove_gives_the_text_back(text: str) -> None:
    comments = "//" in text
    root = jsonc.parse(text, comments)
    added = jsonc.add(text, root, {"SessionStart": [{"hooks": [{"command": "x"}]}]}, key="vibegit")
    again = jsonc.parse(added, comments)
    assert again.value == {**root.value, "vibegit": {"SessionStart": [{"hooks": [{"command": "x"}]}]}}
    back = jsonc.remove(added, again, len(again.members) - 1)
    assert back == (text if text != "{ }" else "{}")  # an empty object's inner blank is not kept


def test_added_text_follows_the_files_indentation() -> None:
    tabs = '{\n\t"a": 1\n}\n'
    out = jsonc.add(tabs, jsonc.parse(tabs), {"b": [1]}, key="hooks")
    assert out == '{\n\t"a": 1,\n\t"hooks": {\n\t\t"b": [\n\t\t\t1\n\t\t]\n\t}\n}\n'
    one_line = '{"version":1}'
    assert jsonc.add(one_line, jsonc.parse(one_line), {"x": 1}, key="hooks") == '{"version":1, "hooks": {"x": 1}}'


def test_remove_keeps_comments_between_other_members() -> None:
    text = '{\n  "a": 1, // keep me\n  "b": 2,\n  "c": 3\n}'
    root = jsonc.parse(text, comments=True)
    assert jsonc.remove(text, root, 1) == '{\n  "a": 1, // keep me\n  "c": 3\n}'
    first = jsonc.remove(text, root, 0)
    assert jsonc.parse(first, comments=True).value == {"b": 2, "c": 3} and "keep me" in first
    middle = '{"a": 1 /* x, y */ , "b": 2}'
    assert jsonc.parse(jsonc.remove(middle, jsonc.parse(middle, True), 1), True).value == {"a": 1}


values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=150, deadline=None)
@given(value=values, indent=st.sampled_from([None, 2, 4, "\t"]))
def test_any_json_parses_as_json_does(value: object, indent: object) -> None:
    text = json.dumps(value, indent=indent)  # type: ignore[arg-type]
    assert jsonc.parse(text).value == json.loads(text)


@settings(max_examples=150, deadline=None)
@given(data=st.binary(max_size=60))
def test_any_bytes_parse_or_fail_cleanly(data: bytes) -> None:
    text = data.decode("utf-8", errors="replace")
    try:
        jsonc.parse(text, comments=True)
    except jsonc.JsoncError as err:
        assert err.line >= 1 and err.column >= 1
