"""``secrets check`` and ``secrets allow``: what the secret scan would refuse
in the next push of the state branch, and letting a false positive through
for everyone (by fingerprint, never the value)."""

from __future__ import annotations

from vibegit import app
from vibegit.core.messages import t
from vibegit.errors import OK, REFUSED
from vibegit.infra import secretscan


def check() -> int:
    ctx = app.enter()
    findings = secretscan.scan(ctx.repo, ctx.settings)
    if not findings:
        app.say(t("secrets.none", branch=ctx.settings.state_branch))
        return OK
    app.warn(secretscan.refusal(findings, ctx.settings, limit=len(findings), pushing=False))
    return REFUSED


def allow(fingerprint: str, note: str) -> int:
    ctx = app.open_repo()
    added = secretscan.allow(ctx.repo, fingerprint, note)
    where, fp = secretscan.ALLOW_FILE, fingerprint.strip().lower()
    if not added:
        app.say(t("secrets.already_allowed", fingerprint=fp, file=where))
        return OK
    app.say(t("secrets.allowed", fingerprint=fp, file=where))
    return OK
