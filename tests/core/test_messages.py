"""Every message renders in English and in Chinese, with the same parameters."""

from __future__ import annotations

import string

import pytest

from vibegit.core import messages
from vibegit.core.messages import MESSAGES, t

SAME_IN_BOTH = {"report.snapshot"}  # none expected; a key listed here may read the same in both


def cjk(c: str) -> bool:
    return "\u4e00" <= c <= "\u9fff" or "\u3000" <= c <= "\u303f" or "\uff00" <= c <= "\uffef"


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_every_message_renders_in_both_languages(key: str) -> None:
    en, zh = MESSAGES[key]
    assert fields(en) == fields(zh), key
    values = {name: f"<{name}>" for name in fields(en)}
    shown_en, shown_zh = t(key, "en", **values), t(key, "zh", **values)
    assert shown_en and shown_zh
    for name in values:
        assert name in shown_en and name in shown_zh, (key, name)
    assert shown_en != shown_zh or key in SAME_IN_BOTH, key
    assert not any(cjk(c) for c in shown_en), key  # English is English
    assert any("\u4e00" <= c <= "\u9fff" for c in shown_zh) or key.startswith(("event.step", "block.step")), key


def test_the_language_of_a_run() -> None:
    messages.reset()
    assert t("status.failed") == "failed"
    messages.use("zh")
    assert t("status.failed") == "已失败"
    messages.use("en", force=True)
    messages.use("zh")  # --lang wins over the setting read later
    assert t("status.failed") == "failed"
    messages.reset()
    messages.use("fr")  # unknown: ignored
    assert messages.lang() == "en"
