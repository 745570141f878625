"""``pre-push``: carry the state branch along when, and only when, the user
pushes to the remote it belongs to (``remote.state_remote``), fast-forward
only, after the secret scan, with the user's own pre-push hooks run for it;
never failing the user's push because of it. A dry run pushes nothing. A
push of the state branch itself is refused when it holds credentials, or
when the scan cannot finish."""

from __future__ import annotations

import os
import sys

from vibegit.core.settings import Settings
from vibegit.errors import OK, REFUSED, BadInput, VibegitError
from vibegit.handlers.common import open_for_hook
from vibegit.infra import caller, git, remote, secretscan


def _pushed_refs(args: list[str]) -> tuple[str, str, dict[str, str]]:
    """The remote (name or URL), its URL and every ref named by this push with
    the commit git pushes for it, or "" (git's stdin or pre-commit's env)."""
    refs: dict[str, str] = {}
    if len(args) >= 1:
        for line in sys.stdin.read().splitlines():
            parts = line.split()
            if len(parts) == 4:
                refs[parts[0]] = refs[parts[2]] = parts[1]
        return args[0], args[1] if len(args) > 1 else args[0], refs
    url = os.environ.get("PRE_COMMIT_REMOTE_URL") or ""
    name = os.environ.get("PRE_COMMIT_REMOTE_NAME") or url
    sent = os.environ.get("PRE_COMMIT_TO_REF", "")
    for var in ("PRE_COMMIT_LOCAL_BRANCH", "PRE_COMMIT_REMOTE_BRANCH"):
        if os.environ.get(var):
            refs[os.environ[var]] = sent
    return name, url, refs


def push_state(repo: git.Repo, settings: Settings, remote_name: str, tip: str) -> str | None:
    """Push ``tip``, the state branch as the scan read it, to ``remote_name``,
    fast-forward only; one line to show, or None."""
    state_branch = settings.state_branch
    pushed = remote.send(repo, settings, remote_name, tip)
    if pushed.ok:
        return None if pushed.flags == ["="] else f"vibegit: pushed {state_branch} to {remote_name}"
    if "!" in pushed.flags:
        return (
            f"vibegit: {state_branch} was not pushed to {remote_name}: the remote's copy has moved on "
            f"(not a fast-forward); run 'vibegit sync' to merge and push it. Your push goes on."
        )
    if pushed.declined:
        return f"vibegit: {remote.hook_refusal(settings, remote_name, pushed, 'vibegit sync')}. Your push goes on."
    down = remote.unavailable("push", remote_name, pushed.said, "vibegit sync")
    if down is not None:
        return f"vibegit: {state_branch} was not pushed: {down}. Your push goes on."
    return (
        f"vibegit: {state_branch} was not pushed to {remote_name} ({pushed.detail}); 'vibegit sync' retries. "
        "Your push goes on."
    )


def run(args: list[str]) -> int:
    name, url, refs = _pushed_refs(args)
    if not name or caller.push_is_dry_run():
        return OK
    repo, conf = open_for_hook()
    ref = conf.state_ref
    tip = git.commit_of(repo, ref)
    if ref in refs or conf.state_branch in refs:  # the user pushes the state branch itself: only the scan
        sent = refs.get(ref) or refs.get(conf.state_branch) or ""
        if git.is_oid(sent) and not sent.strip("0"):
            return OK  # a deletion publishes nothing
        tip = sent if git.is_oid(sent) else tip  # what git pushes, not what the branch holds now
        try:
            refusal = secretscan.check(repo, conf, tip) if tip else None
        except VibegitError as err:  # a scan that could not finish refuses: it never lets the push through
            print(f"vibegit: not pushing {conf.state_branch}: {err}", file=sys.stderr, flush=True)
            return REFUSED
        if refusal:
            print(f"vibegit: {refusal}", file=sys.stderr, flush=True)
            return REFUSED
        return OK
    if tip is None:
        return OK
    found = git.remote_config(repo)
    try:
        target = remote.state_remote(repo, conf, found=found)
    except BadInput as err:
        print(f"vibegit: {conf.state_branch} stays here: {err}. Your push goes on.", file=sys.stderr, flush=True)
        return OK
    if name != target and url != found.urls.get(target):
        return OK  # not the remote the state belongs to: 'vibegit sync --remote NAME' sends it there when asked
    refusal = secretscan.check(repo, conf, tip)
    if refusal:
        print(f"vibegit: {refusal}. Your push goes on without it.", file=sys.stderr, flush=True)
        return OK
    line = push_state(repo, conf, target, tip)
    if line:
        print(line, file=sys.stderr, flush=True)
    return OK
