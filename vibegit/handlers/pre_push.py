"""``pre-push``: carry the state branch along when, and only when, the user
pushes to the remote it belongs to (``remote.state_remote``), fast-forward
only, after the secret scan, with the user's own pre-push hooks run for it;
never failing the user's push because of it. A dry run pushes nothing.

A push that sends state commits the remote does not have, under any name
(``vibegit/state`` itself, a branch made from it, ``vibegit/state~0``, an
id, a branch that merged it), is refused when they hold credentials, or
when the scan cannot finish: they get the scan ``vibegit sync`` runs."""

from __future__ import annotations

import os
import sys

from vibegit.core.records import NamedTuple
from vibegit.core.settings import Settings
from vibegit.errors import OK, REFUSED, BadInput, VibegitError
from vibegit.handlers.common import open_for_hook
from vibegit.infra import caller, git, remote, secretscan


class Pushed(NamedTuple):
    """One line of what git pushes: a local ref and commit to a remote ref that holds its commit now."""

    local_ref: str
    local: str  # the id sent ("" or zeros: a deletion)
    remote_ref: str
    remote: str  # what the remote's ref holds (zeros: nothing)


def _pushed_refs(args: list[str]) -> tuple[str, str, list[Pushed]]:
    """The remote (name or URL), its URL and what this push sends (git's
    stdin, or pre-commit's environment)."""
    if len(args) >= 1:
        lines = [
            Pushed(*parts) for parts in (line.split() for line in sys.stdin.read().splitlines()) if len(parts) == 4
        ]
        return args[0], args[1] if len(args) > 1 else args[0], lines
    url = os.environ.get("PRE_COMMIT_REMOTE_URL") or ""
    name = os.environ.get("PRE_COMMIT_REMOTE_NAME") or url
    local, theirs = os.environ.get("PRE_COMMIT_TO_REF", ""), os.environ.get("PRE_COMMIT_FROM_REF", "")
    branch, remote_branch = (
        os.environ.get("PRE_COMMIT_LOCAL_BRANCH", ""),
        os.environ.get("PRE_COMMIT_REMOTE_BRANCH", ""),
    )
    return name, url, [Pushed(branch, local, remote_branch, theirs)] if branch or remote_branch or local else []


def _sent(oid: str) -> bool:
    return git.is_oid(oid) and bool(oid.strip("0"))


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
    name, url, lines = _pushed_refs(args)
    if not name or caller.push_is_dry_run():
        return OK
    repo, conf = open_for_hook()
    found = git.remote_config(repo)
    # The remote's name when it is one (git passes the URL when the push named one): what it is known to have.
    where = name if name in found.urls else next((r for r, u in found.urls.items() if u in (url, name)), name)
    sent = [p.local for p in lines if _sent(p.local)]
    theirs = [p.remote for p in lines if _sent(p.remote)]  # the remote has these (when they are here)
    have = secretscan.Theirs(where if where in found.urls else "", tuple(theirs))
    try:
        carriers = secretscan.carrying_state(repo, git.reader(repo), sent, have)
        mine = [oid for oid in sent if oid not in carriers]  # the user's own branches: this push gives them
        have = have.plus(mine)
        for carrier in carriers:
            refusal = secretscan.check(repo, conf, carrier, have)
            if refusal:
                print(f"vibegit: {refusal}", file=sys.stderr, flush=True)
                return REFUSED
    except VibegitError as err:  # a scan that could not finish refuses: it never lets state commits through
        print(f"vibegit: not pushing {conf.state_branch}'s commits to {name}: {err}", file=sys.stderr, flush=True)
        return REFUSED
    ref = conf.state_ref
    if any(p.local_ref in (ref, conf.state_branch) or p.remote_ref == ref for p in lines):
        return OK  # the user pushes the state branch itself: scanned above (a deletion publishes nothing)
    tip = git.commit_of(repo, ref)
    if tip is None:
        return OK
    try:
        target = remote.state_remote(repo, conf, found=found)
    except BadInput as err:
        print(f"vibegit: {conf.state_branch} stays here: {err}. Your push goes on.", file=sys.stderr, flush=True)
        return OK
    if name != target and url != found.urls.get(target):
        return OK  # not the remote the state belongs to: 'vibegit sync --remote NAME' sends it there when asked
    refusal = secretscan.check(repo, conf, tip, have)
    if refusal:
        print(f"vibegit: {refusal}. Your push goes on without it.", file=sys.stderr, flush=True)
        return OK
    line = push_state(repo, conf, target, tip)
    if line:
        print(line, file=sys.stderr, flush=True)
    return OK
