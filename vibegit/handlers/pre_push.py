"""``pre-push``: carry the state branch along when, and only when, the user
pushes to the remote it belongs to (``remote.state_remote``), fast-forward
only, after the secret scan, with the user's own pre-push hooks run for it;
never failing the user's push because of it. A dry run pushes nothing. A
push of the state branch itself is refused when it holds credentials."""

from __future__ import annotations

import os
import sys

from vibegit.core.settings import Settings
from vibegit.errors import OK, REFUSED, BadInput
from vibegit.handlers.common import open_for_hook
from vibegit.infra import caller, git, remote, secretscan


def _pushed_refs(args: list[str]) -> tuple[str, str, set[str]]:
    """The remote (name or URL), its URL and every ref named by this push (git's stdin or pre-commit's env)."""
    if len(args) >= 1:
        refs: set[str] = set()
        for line in sys.stdin.read().splitlines():
            parts = line.split()
            if len(parts) == 4:
                refs.update((parts[0], parts[2]))
        return args[0], args[1] if len(args) > 1 else args[0], refs
    url = os.environ.get("PRE_COMMIT_REMOTE_URL") or ""
    name = os.environ.get("PRE_COMMIT_REMOTE_NAME") or url
    refs = {os.environ.get("PRE_COMMIT_LOCAL_BRANCH", ""), os.environ.get("PRE_COMMIT_REMOTE_BRANCH", "")}
    return name, url, refs - {""}


def push_state(repo: git.Repo, settings: Settings, remote_name: str) -> str | None:
    """Push the state branch to ``remote_name``, fast-forward only; one line to show, or None."""
    state_branch = settings.state_branch
    pushed = remote.send(repo, settings, remote_name)
    if pushed.ok:
        return None if pushed.flags == ["="] else f"vibegit: pushed {state_branch} to {remote_name}"
    if "!" in pushed.flags:
        return (
            f"vibegit: {state_branch} was not pushed to {remote_name}: the remote's copy has moved on "
            f"(not a fast-forward); run 'vibegit sync' to merge and push it. Your push goes on."
        )
    if pushed.declined:
        return f"vibegit: {remote.hook_refusal(settings, remote_name, pushed, 'vibegit sync')}. Your push goes on."
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
    if ref in refs or conf.state_branch in refs:  # the user pushes the state branch itself: only the scan
        refusal = secretscan.check(repo, conf)
        if refusal:
            print(f"vibegit: {refusal}", file=sys.stderr, flush=True)
            return REFUSED
        return OK
    if git.commit_of(repo, ref) is None:
        return OK
    found = git.remote_config(repo)
    try:
        target = remote.state_remote(repo, conf, found=found)
    except BadInput as err:
        print(f"vibegit: {conf.state_branch} stays here: {err}. Your push goes on.", file=sys.stderr, flush=True)
        return OK
    if name != target and url != found.urls.get(target):
        return OK  # not the remote the state belongs to: 'vibegit sync --remote NAME' sends it there when asked
    refusal = secretscan.check(repo, conf)
    if refusal:
        print(f"vibegit: {refusal}. Your push goes on without it.", file=sys.stderr, flush=True)
        return OK
    line = push_state(repo, conf, target)
    if line:
        print(line, file=sys.stderr, flush=True)
    return OK
