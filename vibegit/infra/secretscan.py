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


class Hit(NamedTuple):
    line: int
    kind: str
    start: int  # the span to redact
    end: int


def scan_text(text: str) -> list[Hit]:
    hits: list[Hit] = []
    for rule in RULES:
        for match in rule.pattern.finditer(text):
            start, end = match.span(rule.group)
            value = match.group(rule.group)
            if rule.group and (_PLACEHOLDER.search(value.strip()) or not value.strip()):
                continue
            if rule.kind.startswith("secret assigned") and _not_a_literal(value, text, end):
                continue
            if any(h.start <= start < h.end for h in hits):
                continue
            hits.append(Hit(text.count("\n", 0, match.start()) + 1, rule.kind, start, end))
    return sorted(hits, key=lambda h: h.start)


def redact_text(text: str, hits: list[Hit] | None = None) -> str:
    hits = scan_text(text) if hits is None else hits
    for hit in sorted(hits, key=lambda h: h.start, reverse=True):
        replacement = f"\n{REDACTED}\n" if hit.kind == "private key block" else REDACTED
        text = text[: hit.start] + replacement + text[hit.end :]
    return text


class Finding(NamedTuple):
    where: str  # "vibegit/state:snapshot/app.env:3" or "commit 1a2b3c4d5e message:2"
    kind: str
    oid: str  # the blob or commit holding it


# -- what a push would send -------------------------------------------------------


def exclusions(settings: Settings) -> list[str]:
    """rev-list arguments for what the remotes already have or git pushes anyway."""
    return [
        "--not",
        f"--exclude={settings.state_branch}",
        "--branches",
        "--remotes",
        "--tags",
        f"--glob={git.REMOTE_NS}*",
    ]


def _decode(data: bytes) -> str | None:
    if b"\0" in data[:8000]:
        return None  # binary
    return data.decode("utf-8", errors="replace")


def _new_objects(repo: git.Repo, tip: str, settings: Settings) -> tuple[list[str], list[tuple[str, str]]]:
    raw = repo.git("rev-list", "--objects", tip, *exclusions(settings), "--").stdout.decode(errors="surrogateescape")
    commits: list[str] = []
    named: list[tuple[str, str]] = []
    for line in raw.splitlines():
        oid, _, path = line.partition(" ")
        if not path and not _:
            commits.append(oid)
        elif path:
            named.append((oid, path))
    return commits, named


def scan(repo: git.Repo, settings: Settings, tip: str | None = None) -> list[Finding]:
    """Credentials in what pushing the state branch would send."""
    tip = tip or git.resolve(repo, settings.state_ref)
    if not tip:
        return []
    commits, named = _new_objects(repo, tip, settings)
    findings: list[Finding] = []
    if not commits and not named:
        return findings
    sizes = git.object_sizes(repo, [oid for oid, _ in named])
    blobs = [
        (oid, path)
        for (oid, path), found in zip(named, sizes, strict=False)
        if found is not None and found[0] == "blob" and found[1] <= MAX_BLOB
    ]
    with git.CatFile(repo) as cat:
        for oid, path in blobs:
            found = cat.get(oid)
            text = _decode(found[2]) if found else None
            for hit in scan_text(text) if text else ():
                findings.append(Finding(f"{settings.state_branch}:{path}:{hit.line}", hit.kind, oid))
        for oid in commits:
            found = cat.get(oid)
            if found is None:
                continue
            message = found[2].decode(errors="replace").partition("\n\n")[2]
            for hit in scan_text(message):
                findings.append(Finding(f"commit {oid[:10]} message:{hit.line}", hit.kind, oid))
    return findings


def refusal(findings: list[Finding], settings: Settings, limit: int = 20) -> str:
    lines = [f"{f.where}: looks like a {f.kind}" for f in findings[:limit]]
    if len(findings) > limit:
        lines.append(f"… and {len(findings) - limit} more")
    return (
        f"not pushing {settings.state_branch}: {len(findings)} value(s) look like credentials:\n  "
        + "\n  ".join(lines)
        + "\n'vibegit sync --redact' replaces them with [REDACTED] in what is not pushed yet, then pushes"
    )


def check(repo: git.Repo, settings: Settings) -> str | None:
    """For the pre-push hook: the refusal text, or None when the push may go."""
    findings = scan(repo, settings)
    return refusal(findings, settings) if findings else None


# -- redaction: rewrite what was never pushed ----------------------------------


def _commit_parts(data: bytes) -> tuple[list[str], str]:
    head, _, message = data.decode(errors="surrogateescape").partition("\n\n")
    return head.split("\n"), message


class Rewriter:
    """Copies of the unpushed state commits with every credential redacted:
    same trees but for the redacted blobs, same authors, parents mapped."""

    def __init__(self, repo: git.Repo, cat: git.CatFile) -> None:
        self.repo = repo
        self.cat = cat
        self.blobs: dict[str, str] = {}
        self.trees: dict[str, str] = {}
        self.commits: dict[str, str] = {}
        self.count = 0

    def blob(self, oid: str) -> str:
        if oid not in self.blobs:
            found = self.cat.get(oid)
            text = _decode(found[2]) if found and len(found[2]) <= MAX_BLOB else None
            hits = scan_text(text) if text else []
            if hits and text is not None:
                self.count += len(hits)
                self.blobs[oid] = git.write_object(
                    self.repo, "blob", redact_text(text, hits).encode(errors="surrogateescape")
                )
            else:
                self.blobs[oid] = oid
        return self.blobs[oid]

    def tree(self, oid: str) -> str:
        if oid in self.trees:
            return self.trees[oid]
        found = self.cat.get(oid)
        if found is None or found[0] != "tree":
            raise GitError(f"tree {oid[:12]} is missing; run 'vibegit doctor'")
        entries = git.parse_tree(self.repo, found[2])
        out = []
        snap_map: tuple[str, str] | None = None
        for e in entries:
            if e.mode == "40000":
                new = self.tree(e.oid)
                if e.name == "snapshot" and new != e.oid:  # a workflow directory
                    snap_map = (e.oid, new)
                out.append(e._replace(oid=new))
            elif e.mode.startswith("100") or e.mode == "120000":
                out.append(e._replace(oid=self.blob(e.oid)))
            else:
                out.append(e)
        if snap_map:  # session.yaml names the snapshot tree: follow its new id
            out = [self._follow(e, *snap_map) if e.name == "session.yaml" else e for e in out]
        new_oid = git.write_tree(self.repo, out) if out != entries else oid
        self.trees[oid] = new_oid
        return new_oid

    def _follow(self, entry: git.TreeEntry, old: str, new: str) -> git.TreeEntry:
        found = self.cat.get(entry.oid)
        if found is None:
            return entry
        data = found[2].replace(old.encode(), new.encode())
        return entry._replace(oid=git.write_object(self.repo, "blob", data))

    def commit(self, oid: str) -> str:
        found = self.cat.get(oid)
        if found is None or found[0] != "commit":
            raise GitError(f"commit {oid[:12]} is missing; run 'vibegit doctor'")
        headers, message = _commit_parts(found[2])
        out: list[str] = []
        for h in headers:
            key, _, value = h.partition(" ")
            if key == "tree":
                out.append(f"tree {self.tree(value)}")
            elif key == "parent":
                out.append(f"parent {self.commits.get(value, value)}")
            elif key in ("author", "committer"):
                out.append(h)
            # other headers (signatures) no longer hold for the new content
        hits = scan_text(message)
        if hits:
            self.count += len(hits)
            message = redact_text(message, hits)
        body = "\n".join(out) + "\n\n" + message
        new = git.write_object(self.repo, "commit", body.encode(errors="surrogateescape"))
        self.commits[oid] = new
        return new


def rewrite(repo: git.Repo, settings: Settings, tip: str) -> tuple[str, int]:
    """The tip of a redacted copy of the commits not pushed yet, and how many values."""
    order = repo.out("rev-list", "--topo-order", "--reverse", tip, *exclusions(settings), "--").split()
    with git.CatFile(repo) as cat:
        rw = Rewriter(repo, cat)
        for oid in order:
            rw.commit(oid)
        return rw.commits.get(tip, tip), rw.count


def iter_lines(findings: list[Finding]) -> Iterator[str]:
    for f in findings:
        yield f"Vibegit-Redacted: {f.where} ({f.kind})"
