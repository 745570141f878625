"""Secrets stay home: a push of the state branch holding credentials is refused;
sync --redact replaces them in what was never pushed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.helpers import Machines, git, remote_with_laptop
from vibegit.infra.secretscan import redact_text, scan_text

AWS = "AKIAIOSFODNN7EXAMPLE"
PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF0qLkq0J3n2vP1pXkB\n"
    "-----END RSA PRIVATE KEY-----\n"
)


@pytest.mark.parametrize(
    "text, kind",
    [
        (f"aws_access_key_id = {AWS}\n", "AWS access key"),
        (PEM, "private key block"),
        ("token: ghp_abcdefghijklmnopqrstuvwxyz0123456789\n", "GitHub token"),
        ("SLACK=xoxb-123456789012-abcdefghijkl\n", "Slack token"),
        ("db = postgres://app:s3cr3t-pw@db.internal:5432/app\n", "password in a URL"),
        ('API_KEY = "9f8e7d6c5b4a39281726"\n', "secret assigned to a key-like name"),
        ("DB_PASSWORD=Tr0ub4dor&3x!\n", "secret assigned to a key-like name"),
    ],
)
def test_scan_finds_credentials(text: str, kind: str) -> None:
    hits = scan_text("first line\n" + text)
    assert [(h.line, h.kind) for h in hits] == [(2, kind)]
    assert "[REDACTED]" in redact_text(text)


@pytest.mark.parametrize(
    "text",
    [
        "password: changeme\n",
        "API_KEY=${API_KEY}\n",
        "monkey = bananarama12\n",
        "key = value\n",
        "https://example.com/user@host\n",
        "SECRET_KEY = os.environ['SECRET_KEY']\n",
        "token = aaaaaaaaaaaaaaaa\n",
        "    token = issue_token(user)  # WIP\n",
        "API_KEY = settings.api_key\n",
        "x_token = session_token\n",
    ],
)
def test_scan_leaves_ordinary_text(text: str) -> None:
    assert scan_text(text) == []


def test_a_pushed_state_with_an_aws_key_in_a_snapshot_is_refused(tmp_path: Path, m: Machines) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    m.ok("laptop", laptop, "sync")
    (laptop / "config").mkdir()
    (laptop / "config" / "dev.env").write_text(f"REGION=eu\nAWS_ACCESS_KEY_ID={AWS}\n")
    m.ok("laptop", laptop, "checkpoint")
    pushed = git(remote, "rev-parse", "vibegit/state")
    refused = m("laptop", laptop, "sync")
    assert refused.code == 1
    assert "vibegit/state:snapshot/config/dev.env:2: looks like a AWS access key" in refused.err
    assert "--redact" in refused.err
    assert git(remote, "rev-parse", "vibegit/state") == pushed  # nothing left the machine

    # The real pre-push hook: the user's push goes on, the state branch stays home;
    # pushing the state branch itself is refused.
    m.ok("laptop", laptop, "install")
    git(laptop, "-c", "core.hooksPath=/dev/null", "commit", "-q", "--allow-empty", "-m", "work")
    out = git(laptop, "push", "origin", "main")
    assert git(remote, "rev-parse", "main") == git(laptop, "rev-parse", "main")
    assert git(remote, "rev-parse", "vibegit/state") == pushed
    proc = git(laptop, "push", "origin", "vibegit/state", check=False)
    assert git(remote, "rev-parse", "vibegit/state") == pushed
    del out, proc

    redacted = m.ok("laptop", laptop, "sync", "--redact")
    assert "Redacted 1 value(s)" in redacted.out and "Pushed" in redacted.out
    assert git(remote, "grep", "-q", AWS, "vibegit/state", check=False) == ""
    history = git(remote, "log", "-p", "--format=%B", "vibegit/state")
    assert AWS not in history and "[REDACTED]" in history
    assert "vibegit: redact" in git(laptop, "log", "-1", "--format=%s", "vibegit/state")
    assert (laptop / "config" / "dev.env").read_text().endswith(f"{AWS}\n")  # the user's file is theirs
    assert m.ok("laptop", laptop, "doctor").code == 0  # session.yaml follows the redacted snapshot


def test_a_private_key_in_an_event_text_is_refused_and_redacted(tmp_path: Path, m: Machines) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    notes = laptop / "project_document" / ".ai_state" / "active_context.md"
    notes.write_text(notes.read_text().replace("## Notes\n", "## Notes\n" + PEM))
    m.ok("laptop", laptop, "context", "--last", "pasted a key by mistake")
    refused = m("laptop", laptop, "sync")
    assert refused.code == 1 and "active_context.md:" in refused.err and "private key block" in refused.err
    assert git(remote, "rev-parse", "-q", "--verify", "vibegit/state", check=False) == ""
    m.ok("laptop", laptop, "sync", "--redact")
    assert "PRIVATE KEY-----\n[REDACTED]" in git(remote, "show", "vibegit/state:active_context.md")
    assert "MIIEowIBAAKCAQEA" not in git(remote, "log", "-p", "vibegit/state")


def test_credentials_stay_home_with_a_chained_pre_push_hook(tmp_path: Path, m: Machines) -> None:
    """With a foreign pre-push hook chained (git-lfs, husky…), an explicit push
    of a state branch holding a key is still refused."""
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    m.ok("laptop", laptop, "sync")
    hook = laptop / ".git" / "hooks" / "pre-push"
    hook.write_text("#!/bin/sh\ncat >/dev/null\nexit 0\n")
    hook.chmod(0o755)
    m.ok("laptop", laptop, "install")
    (laptop / "dev.env").write_text(f"AWS_ACCESS_KEY_ID={AWS}\n")
    m.ok("laptop", laptop, "checkpoint")
    pushed = git(remote, "rev-parse", "vibegit/state")
    proc = subprocess.run(["git", "push", "origin", "vibegit/state"], cwd=laptop, capture_output=True, text=True)
    assert proc.returncode != 0 and "look like credentials" in proc.stderr
    assert git(remote, "rev-parse", "vibegit/state") == pushed
