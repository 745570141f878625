"""``secrets check`` and ``secrets allow``: what the secret scan would refuse
in the next push of the state branch, and letting a false positive through
for everyone (by fingerprint, never the value)."""

from __future__ import annotations

from vibegit import app
from vibegit.errors import OK, REFUSED
from vibegit.infra import secretscan


def check() -> int:
    ctx = app.enter()
    findings = secretscan.scan(ctx.repo, ctx.settings)
    if not findings:
        app.say(f"Nothing in what {ctx.settings.state_branch} would publish looks like a credential.")
        return OK
    app.warn(secretscan.refusal(findings, ctx.settings, limit=len(findings)))
    return REFUSED


def allow(fingerprint: str, note: str) -> int:
    ctx = app.open_repo()
    added = secretscan.allow(ctx.repo, fingerprint, note)
    where = secretscan.ALLOW_FILE
    if not added:
        app.say(f"{fingerprint.strip().lower()} is already allowed in {where}.")
        return OK
    app.say(
        f"Allowed {fingerprint.strip().lower()} in {where}: the secret scan lets that value through from now on. "
        f"Commit {where} so that your team's pushes let it through too."
    )
    return OK
