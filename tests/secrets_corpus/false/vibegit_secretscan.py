"""Secrets stay home (SPEC §10): scan what a push of the state branch would
send for values that look like credentials, and redact them.

Scanned: every blob and commit message of the state branch that the remote
does not have yet (not reachable from the remote's state tip, nor from the
user's branches, remote-tracking refs and tags, which git pushes or pushed
on their own), snapshot files included. Light imports only: the pre-push
hook calls ``check``.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator
from typing import NamedTuple

from vibegit.core.settings import Settings
from vibegit.errors import GitError
from vibegit.infra import git

MAX_BLOB = 2 << 20  # larger blobs are data, not configuration
REDACTED = "[REDACTED]"

_KEY_NAME = r"[A-Za-z0-9_.-]*(?:[_.-](?:KEY|TOKEN|SECRET)|TOKEN|SECRET|PASSWORD|PASSWD|APIKEY|PRIVATE_KEY)"
_PLACEHOLDER = re.compile(
    r"(?i)^(?:x+|\*+|\.+|changeme|change_me|example\w*|your\w*|redacted|none|null|true|false|"
    r"password|secret|token|dummy\w*|test|placeholder)$|REDACTED|xxxx|\*\*\*"
)


class Rule(NamedTuple):
    kind: str
    pattern: re.Pattern[str]
    group: int  # the part to redact: 0 the whole match


RULES = (
    Rule(
        "private key block",
        re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----([\s\S]*?)(?=-----END |\Z)"),
        1,
    ),
    Rule("AWS access key", re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])"), 0),
    Rule("GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b"), 0),
    Rule("Slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,250}"), 0),
    Rule("Stripe key", re.compile(r"\b[sr]k_live_[A-Za-z0-9]{20,250}"), 0),
    Rule("Google API key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b"), 0),
    Rule(
        "password in a URL",
        re.compile(r"\b[A-Za-z][A-Za-z0-9+.\-]{1,20}://[^\s/:@\"'<>]{1,100}:([^\s/@\"'<>]{3,200})@[A-Za-z0-9\[]"),
        1,
    ),
    Rule(
        "secret assigned to a key-like name",
        re.compile(rf"(?i)\b{_KEY_NAME}\b[\"']?\s*[:=]\s*[\"']?([^\s\"'`,;(){{}}\[\]<>$%]{{8,250}})"),
        1,
    ),
)


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\Z")  # name or a.b.c


def _not_a_literal(value: str, text: str, end: int) -> bool:
    """Words, repeated characters and code (a call, an attribute, a variable
    name) assigned to a key-like name are not credentials."""
    if entropy(value) < 3.0 or value.isalpha():
        return True
    if text[end : end + 1] in ("(", ".", "["):
        return True
    return bool(_IDENTIFIER.match(value)) and not any(c.isdigit() for c in value)

