"""The state branch's remote copies: fetch it into
``refs/vibegit/remote/<remote>`` (the user's remote-tracking refs and
FETCH_HEAD are left alone), push it fast-forward only, fetch a checkpoint's
commit, and read the locks of the copies already fetched, which the
takeover rule (``lifecycle.guarded``) needs."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from vibegit.core.settings import Settings, ref_name_ok
from vibegit.core.settings import settings as read_settings
from vibegit.errors import BadInput, GitError, Interrupted, Refused, Unavailable, VibegitError
from vibegit.infra import git

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start

if TYPE_CHECKING:  # the pre-push hook asks state_remote: the state model and formats load only for remote_locks
    from vibegit.core import lifecycle
    from vibegit.core.model import Env, Lock


def state_remote(repo: git.Repo, settings: Settings, given: str | None = None, found: git.Remotes | None = None) -> str:
    """Where the state branch belongs: ``--remote`` when given, else
    ``git config vibegit.remote``, else the current branch's upstream remote,
    else origin (or the only remote). Pushes, fetches and takeovers ask here
    (``found``: the remotes, when the caller has read them)."""
    found = found or git.remote_config(repo)
    names = list(found.urls)
    have = ", ".join(names) or "none"
    if given is not None:
        if given not in names:
            raise BadInput(f"--remote {given[:60]}: no such remote (configured: {have})")
        return given
    if settings.remote is not None:
        if settings.remote not in names:
            raise BadInput(f"git config vibegit.remote: {settings.remote[:60]!r} is not a remote (configured: {have})")
        return settings.remote
    if found.upstream in names:
        return found.upstream
    if "origin" in names:
        return "origin"
    if len(names) == 1:
        return names[0]
    if not names:
        raise BadInput("no git remote is configured; add one with 'git remote add origin URL'")
    raise BadInput(
        f"several remotes ({have}) and none is the upstream or origin: pass --remote NAME, "
        "or choose one for good with 'git config vibegit.remote NAME'"
    )


def remote_ref(remote: str) -> str:
    """Where the state branch of ``remote`` is kept once fetched."""
    ref = f"{git.REMOTE_NS}{remote}"
    if not ref_name_ok(ref):
        raise BadInput(f"remote name {remote[:60]!r} cannot name a ref")
    return ref


# git's words (lower case) when a remote cannot be reached or read, or refuses the credentials:
# the environment, not vibegit (ssh's, curl's and git's own, whichever transport spoke).
UNREACHABLE = (
    "does not appear to be a git repository",
    "not a git repository",
    "could not read from remote repository",
    "could not resolve host",
    "unable to access",
    "unable to connect",
    "authentication failed",
    "permission denied",
    "could not read username",
    "could not read password",
    "terminal prompts disabled",
    "host key verification failed",
    "connection refused",
    "timed out",
    "network is unreachable",
    "no route to host",
    "the requested url returned error",
    "cannot run ssh",
    "not found",
)
# ... and when the transfer itself broke off: the remote answered, then failed mid-way (a gc or
# repack there while others pushed). Only a remote that was reached says these: read first.
BROKE_OFF = (
    "early eof",
    "unpack-objects failed",
    "index-pack failed",
    "bad pack header",
    "unpacker error",
    "unpack failed",
    "repository corruption on the remote side",
)
DROPPED = ("the remote end hung up unexpectedly", "connection reset", "connection closed")  # read last


def unavailable(verb: str, remote: str, said: str, retry: str) -> Unavailable | None:
    """The one reading of a failed ``git fetch`` or ``git push`` of the state
    branch: when git says the remote cannot be reached, is not a repository or
    refused the credentials, the environment's error (exit 2) with git's own
    first line and what to run; when the transfer broke off, ``Interrupted``
    (sync tries again); None for any other failure (a bug's, exit 3)."""
    from vibegit.core.messages import t  # only when something failed
    from vibegit.core.text import clean

    lines = [clean(line.strip()) for line in said.splitlines() if line.strip()]
    text = " ".join(lines).lower()
    first = next((line for line in lines if not line.lower().startswith(("warning:", "hint:"))), "")[:300]
    if any(words in text for words in BROKE_OFF):
        return Interrupted(t("remote.interrupted", verb=verb, remote=remote, said=first, retry=retry))
    if any(words in text for words in UNREACHABLE):
        return Unavailable(t("remote.unavailable", verb=verb, remote=remote, said=first, retry=retry))
    if any(words in text for words in DROPPED):
        return Interrupted(t("remote.interrupted", verb=verb, remote=remote, said=first, retry=retry))
    return None


def fetch(
    repo: git.Repo, settings: Settings, remote: str, timeout: float | None = None, retry: str = "vibegit sync"
) -> str | None:
    """The remote's state tip, fetched into refs/vibegit/remote/REMOTE; None
    when it has none (``timeout``: seconds, after which the fetch fails;
    ``retry``: the command a failure tells to run again)."""
    with fetching(repo, settings, remote, timeout, retry) as (_, fetched):
        return fetched()


# git dir -> sync's first fetch, begun while the command's modules load
# (``begun``): its arguments, the copy fetched before it, and its answer.
_begun: dict[str, tuple[list[str], str | None, Callable[[], git.Done]]] = {}


@contextmanager
def begun(given: str | None) -> Iterator[None]:
    """sync's first fetch, begun now (``given``: its ``--remote``) for the
    block's ``fetching`` to take: the remote answers while the command's
    modules load. Whatever stops it here (no repository, no remote, a bad
    setting) the command says in its own order: nothing is begun then. A
    block that ends without taking it ends it."""
    try:
        repo = git.find_repo()
        config = git.read_config(repo)
        conf = read_settings(config)
        args = _fetch_args(conf, state_remote(repo, conf, given, git.remote_config(repo, config)))
    except VibegitError:
        yield
        return
    with git.found_early(repo, config), _started(repo, args, None, before=True, unasked=True) as (known, ended):
        _begun[repo.git_dir] = (args, known, ended)
        try:
            yield
        finally:
            _begun.pop(repo.git_dir, None)


@contextmanager
def fetching(
    repo: git.Repo,
    settings: Settings,
    remote: str,
    timeout: float | None = None,
    retry: str = "vibegit sync",
    *,
    before: bool = False,
) -> Iterator[tuple[str | None, Callable[[], str | None]]]:
    """``fetch``, running while the block runs (the block can read the
    repository meanwhile); the block gets, with ``before``, the commit the
    copy fetched before held (read before this fetch starts; else None), and
    a function that waits for the fetch and returns what ``fetch`` returns.
    The fetch ``begun`` started is this one when it is the same."""
    args = _fetch_args(settings, remote)
    ref = args[-1].partition(":")[2]
    early = _begun.pop(repo.git_dir, None)
    if early is not None and early[0] == args and before and timeout is None:
        yield early[1], lambda: _fetched(repo, remote, ref, early[2](), retry)
        return
    with _started(repo, args, timeout, before=before) as (known, ended):
        yield known, lambda: _fetched(repo, remote, ref, ended(), retry)


def _fetch_args(settings: Settings, remote: str) -> list[str]:
    """``git fetch`` of the remote's state branch into ``remote_ref`` (its last argument names it)."""
    return [
        "fetch",
        "-q",
        "--no-tags",
        "--no-write-fetch-head",
        "--refmap=",
        "--end-of-options",  # a remote's name, whatever it reads as ("--upload-pack=…" in a config)
        remote,
        f"+{settings.state_ref}:{remote_ref(remote)}",
    ]


@contextmanager
def _started(
    repo: git.Repo, args: list[str], timeout: float | None, *, before: bool, unasked: bool = False
) -> Iterator[tuple[str | None, Callable[[], git.Done]]]:
    """The fetch of ``args`` running (``git.running``), and with ``before``
    the commit its ref held before it started."""
    found = git.reader(repo).get(args[-1].partition(":")[2]) if before else None
    with git.running(repo, args, env=git.network_env(), timeout=timeout, unasked=unasked) as ended:
        yield (found[1] if found is not None else None), ended


def _fetched(repo: git.Repo, remote: str, ref: str, proc: git.Done, retry: str) -> str | None:
    if proc.returncode:
        err = proc.stderr.decode(errors="replace").strip()
        if "couldn't find remote ref" in err:
            if git.reader(repo).get(ref) is not None:  # a copy fetched before: the remote's is gone
                repo.git("update-ref", "-d", ref, check=False)
            return None
        raise unavailable("fetch", remote, err, retry) or GitError(f"git fetch {remote} failed: {git.reason(proc)}")
    return git.commit_at(repo, ref)


def fetch_commit(repo: git.Repo, remote: str, commit: str) -> bool:
    """Fetch one commit by id (a checkpoint's), else everything of ``remote``; whether it is here now."""
    env = git.network_env()
    if not git.is_oid(commit):
        return False
    for args in (
        ["fetch", "-q", "--no-tags", "--no-write-fetch-head", "--end-of-options", remote, commit],
        ["fetch", "-q", "--end-of-options", remote],
    ):
        git.run(args, cwd=repo.toplevel, check=False, env=env)
        if git.tree_of(repo, commit):
            return True
    return False


def hook_refusal(settings: Settings, remote: str, pushed: git.Pushed, retry: str) -> str:
    """What to say when the user's own pre-push hook refused the state push."""
    said = f": {pushed.hook_said}" if pushed.hook_said else ""
    return (
        f"{settings.state_branch} was not pushed to {remote}: your pre-push hook refused it{said}\n"
        f"Fix what it reports and run '{retry}' again; 'vibegit sync --no-verify' pushes it without your "
        "pre-push hooks (vibegit's secret scan still runs)"
    )


def send(repo: git.Repo, settings: Settings, remote: str, tip: str, verify: bool = True) -> git.Pushed:
    """Push ``tip``, the state branch's commit the secret scan read (an event
    after the scan is not pushed unread), fast-forward only, the user's
    pre-push hooks run for it (unless not ``verify``); what was pushed is
    recorded as the remote's copy."""
    pushed = git.push_ref(repo, settings.state_ref, remote, verify, commit=tip)
    if pushed.ok and pushed.flags != ["="]:
        repo.git("update-ref", remote_ref(remote), tip, check=False)
    return pushed


def raced(pushed: git.Pushed) -> bool:
    """The push lost a race: the remote's copy has commits this one lacks, or
    another push held or moved the ref while this one ran (fetch, merge, try again)."""
    return bool(pushed.flags) and all(
        flag == "!" and (summary.startswith("[rejected]") or "lock" in summary or "failed to update ref" in summary)
        for flag, summary in zip(pushed.flags, pushed.summaries, strict=False)
    )


def push(repo: git.Repo, settings: Settings, remote: str, tip: str, verify: bool = True) -> bool:
    """``send`` for sync: False when another push won the race meanwhile
    (``raced``); any other refusal says what to do."""
    pushed = send(repo, settings, remote, tip, verify)
    if pushed.ok:
        return True
    if raced(pushed):
        return False
    if pushed.declined:
        raise Refused(hook_refusal(settings, remote, pushed, "vibegit sync"))
    if "!" in pushed.flags:
        broke = unavailable("push", remote, "\n".join(pushed.summaries), "vibegit sync")  # "(unpacker error)"
        if isinstance(broke, Interrupted):
            raise broke
        from vibegit.core.messages import t
        from vibegit.core.text import clean

        server = [line for line in pushed.said.splitlines() if line.startswith("remote:") and line[7:].strip()]
        why = next((s for s in pushed.summaries if s), pushed.detail) + (f" ({server[-1].strip()})" if server else "")
        why = clean(why)[:300]
        raise Refused(t("sync.remote_refused", remote=remote, branch=settings.state_branch, why=why))
    raise unavailable("push", remote, pushed.said, "vibegit sync") or GitError(
        f"git push {remote} failed: {pushed.detail}"
    )


def _copies(repo: git.Repo, settings: Settings, config: dict[str, str] | None) -> tuple[str, list[str]]:
    """The remote the state belongs to and the refs of its copies fetched
    before (vibegit's, then the user's ``git fetch``'s); none when nothing
    was ever fetched, or no remote is the state's. ``config``: the settings
    as ``git.read_config`` read them (then no git process here)."""
    common = repo.common_dir
    if not (
        os.path.isdir(os.path.join(common, "refs", "remotes"))
        or os.path.isdir(os.path.join(common, "refs", "vibegit"))
        or b" refs/" in _packed_refs(common).replace(b" refs/heads/", b"")
    ):
        return "", []
    try:
        name = state_remote(repo, settings, found=git.remote_config(repo, config))
    except BadInput:
        return "", []  # no remote the state belongs to: no copy can report a takeover
    return name, list(dict.fromkeys((f"{git.REMOTE_NS}{name}", f"refs/remotes/{name}/{settings.state_branch}")))


def _packed_refs(common: str) -> bytes:
    """The packed-refs file of the git common dir (b"" when there is none)."""
    packed = os.path.join(common, "packed-refs")
    if not os.path.isfile(packed):
        return b""
    with open(packed, "rb") as f:
        return f.read()


def remote_locks(
    repo: git.Repo, settings: Settings, e: Env, workflow_id: str, config: dict[str, str] | None = None
) -> list[lifecycle.RemoteLock]:
    """The locks another clone holds on workflow ``workflow_id`` in the copies of
    the state branch already fetched from the remote the state belongs to (a
    fork's upstream never reports a takeover), newest first; no git process
    when nothing was ever fetched (``config``: as ``_copies``)."""
    from vibegit.core import lifecycle
    from vibegit.infra import store

    _, refs = _copies(repo, settings, config)
    if not refs:
        return []
    cat = git.reader(repo)
    local = cat.get(settings.state_ref)
    local_tip = local[1] if local is not None and local[0] == "commit" else None
    found: list[tuple[str, str, Lock]] = []
    for ref in refs:
        tip = cat.get(ref)
        if tip is None or tip[0] != "commit" or tip[1] == local_tip or tip[1] in {t for _, t, _ in found}:
            continue
        try:
            lock = store.flow(repo, cat, store.load_commit(repo, cat, tip[1], f"{ref}:"), workflow_id).state.lock
        except VibegitError:
            continue  # that copy has no such workflow, or one this vibegit cannot read
        if lock is not None and lock.elsewhere(e, clone_only=True):  # only these refuse an event here
            found.append((ref, tip[1], lock))
    return [
        lifecycle.RemoteLock(
            ref,
            lock,
            local_tip is None or git.is_ancestor(repo, local_tip, tip),
            local_tip is not None and git.is_ancestor(repo, tip, local_tip),
        )
        for ref, tip, lock in sorted(found, key=lambda x: x[2].locked_at, reverse=True)
    ]


def newer(
    repo: git.Repo,
    settings: Settings,
    workflow_id: str,
    only: str | None = None,
    config: dict[str, str] | None = None,
) -> lifecycle.Newer | None:
    """What a copy of the state branch fetched before from its remote holds
    of workflow ``workflow_id`` that the local branch does not: its events
    there, its status and holder, the time of its last event (the copy with
    the most of them); None when the local branch has all of it. ``only``: that
    ref alone (the copy just fetched). No network; no git process when
    nothing was ever fetched or the copies hold that workflow as it is here
    (``config``: as ``_copies``)."""
    name, refs = _copies(repo, settings, config)
    if only is not None:
        refs = [only] if name else []
    if not refs:
        return None  # nothing ever fetched (status asks every time): the state model is not loaded for it
    from vibegit.core import lifecycle
    from vibegit.infra import store

    cat = git.reader(repo)
    local = cat.get(settings.state_ref)
    local_tip = local[1] if local is not None and local[0] == "commit" else None
    ours: list[tuple[git.TreeEntry, ...]] = []  # the workflow's tree here, read once if a copy is not near

    def here() -> tuple[git.TreeEntry, ...]:
        if not ours:
            try:
                loaded = store.load(repo, cat, settings, local_tip)
                ours.append(store.flow(repo, cat, loaded, workflow_id).tree if local_tip else ())
            except VibegitError:
                ours.append(())
        return ours[0]

    best: lifecycle.Newer | None = None
    looked: set[str] = set()
    for ref in refs:
        tip = cat.get(ref)
        if tip is None or tip[0] != "commit" or tip[1] == local_tip or tip[1] in looked:
            continue
        looked.add(tip[1])
        if local_tip and git.near_ancestor(repo, tip[1], local_tip):
            continue  # a copy a few events behind this one: nothing new there
        try:
            there = store.load_commit(repo, cat, tip[1], f"{ref}:")
            theirs = store.flow(repo, cat, there, workflow_id)
        except VibegitError:
            continue  # that copy has no such workflow, or one this vibegit cannot read
        if theirs.tree == here():
            continue
        spec = [tip[1], f"^{local_tip}"] if local_tip else [tip[1]]
        grep = f"--grep=Vibegit-Workflow-Id: {workflow_id}"
        count = int(repo.out("rev-list", "--count", "--fixed-strings", grep, *spec, "--") or 0)
        if not count or (best is not None and best.events >= count):
            continue
        state = theirs.state
        best = lifecycle.Newer(name, ref, tip[1], count, state.workflow.status, state.session.updated_at, state.lock)
    return best
