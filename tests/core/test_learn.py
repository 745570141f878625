"""What a doc teaches (core/learn.py), without git or files."""

from __future__ import annotations

from tests.helpers import README
from vibegit.core.learn import Item, extract


def test_extract_items_under_headings() -> None:
    assert extract(README) == (
        Item("Conventions", "Use four spaces, never tabs."),
        Item("Conventions", "Type every function"),
        Item("Conventions", "Keep commits small"),
    )  # the release steps are no rules: not learned
    assert extract("- [ ] todo item\n- [x] done item\n", every_item=True) == (
        Item(None, "todo item"),
        Item(None, "done item"),
    )
    assert extract("- [ ] todo item\n") == ()
    assert extract("") == ()
