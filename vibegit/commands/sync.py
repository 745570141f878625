"""``sync``: the state branch meets its remote copy.

Fetch the remote's state branch, then fast-forward, or merge when both
sides moved (a merge commit with both parents; rules in core/merge.py),
refuse when the new content holds credentials (``--redact`` takes them out
of what was never pushed), push fast-forward only (the user's pre-push
hooks run for it), and when another push won the race meanwhile, wait a
random while and try again, until ``vibegit.syncTimeout``. A try that lost
the race leaves no merge behind: the next merges again from this side.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator

from vibegit import app
from vibegit.core import lifecycle, workflows
from vibegit.core.messages import t
from vibegit.core.model import Env, Memory, State
from vibegit.core.records import NamedTuple, replace
from vibegit.core.settings import Settings
from vibegit.core.text import clean
from vibegit.errors import OK, Interrupted, Refused, VibegitError
from vibegit.infra import git, mirror, remote, store
from vibegit.infra.formats import render_all, render_shared

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from vibegit.infra import secretscan

MAX_WAIT = 2.0  # seconds: the bound of a wait between tries stops doubling here (unless syncBackoff is more)
Say = Callable[[str], None]


def _merge(
    repo: git.Repo,
    settings: Settings,
    config: dict[str, str],
    e: Env,
    cat: git.CatFile,
    ours: str,
    theirs: str,
    name: str,
    walked: git.Apart,
) -> tuple[str, list[str]]:
    """A merge commit of the two tips: both histories kept; each workflow
    merged on its own (core/merge.py), one that only one side has kept as it
    is, the shared memory merged, nobody's workflow replaced or dropped.
    Only a workflow that differs between the sides is read: the cost follows
    what changed, not how many workflows there are (one left as it is here
    keeps its line of this side's index)."""
    from vibegit.core import merge  # here: only when both sides moved

    base = walked.base if walked.known else git.merge_base(repo, ours, theirs)
    o = store.load_commit(repo, cat, ours, f"{settings.state_branch}:")
    t = store.load_commit(repo, cat, theirs, f"{name}'s {settings.state_branch}:")
    b = store.load_base(repo, cat, base, f"{settings.state_branch} (merge base):") if base else None
    decisions = [] if base else ["the two histories share no event (both started on their own); joined here"]
    was_all, mine_all, other_all = (store.dirs(repo, cat, side) if side else {} for side in (b, o, t))
    listed_here = {s.id: s for s in o.index}
    changed: dict[str, str] = {}
    listed: list[workflows.Summary] = []
    for workflow_id in [*mine_all, *(i for i in other_all if i not in mine_all)]:
        was, mine, other = was_all.get(workflow_id), mine_all.get(workflow_id), other_all.get(workflow_id)
        if mine is not None and (other is None or other in (mine, was)):  # changed here only (or nowhere)
            summary = listed_here.get(workflow_id)  # not in this side's index: read it
            listed.append(summary or workflows.summarize(store.flow(repo, cat, o, workflow_id).state))
            continue
        if other is not None and (mine is None or mine == was):  # changed there only: theirs as it is
            listed.append(workflows.summarize(store.flow(repo, cat, t, workflow_id).state))
            changed[workflow_id] = other
            continue
        assert mine is not None and other is not None
        state, said = merge.merge(
            replace(store.flow(repo, cat, b, workflow_id).state, memory=Memory()) if b and was else None,
            replace(store.flow(repo, cat, o, workflow_id).state, memory=Memory()),
            replace(store.flow(repo, cat, t, workflow_id).state, memory=Memory()),
            here="here",
            there=name,
            now=e.now,
            merge_text=lambda bt, ot, tt: git.merge_text(bt, ot, tt, name),
        )
        label = state.mode.workflow_name or workflow_id
        decisions += [f"{label}: {d}" for d in said]
        snap = (
            state.checkpoint.snapshot if state.checkpoint is not None else None
        )  # the snapshot follows its checkpoint
        found = cat.get(snap) if snap and git.is_oid(snap) else None
        snap_tree = found[1] if found is not None and found[0] == "tree" else None
        files = render_all(state)
        here = store.flow(repo, cat, o, workflow_id).tree
        changed[workflow_id] = store.workflow_tree(repo, here, files, {store.SNAPSHOT: snap_tree})
        listed.append(workflows.summarize(state))
    theirs_newer = (t.head or "") != (o.head or "") and _newest(t) > _newest(o)
    memory, said = merge.merge_memory(
        b.memory if b else None, o.memory, t.memory, here="here", there=name, theirs_newer=theirs_newer
    )
    decisions += said

    def extra(side: store.Loaded | None) -> dict[str, git.TreeEntry]:
        return (
            {x.name: x for x in side.tree if x.name not in store.KNOWN} if side and side.version == store.FORMAT else {}
        )

    rest = merge.merge_files(extra(b), extra(o), extra(t), theirs_newer, name, decisions)
    decisions[:] = [clean(d) for d in decisions]  # names and values from the remote: printed and in trailers
    tree = store.assemble(repo, cat, o, changed, tuple(listed), render_shared(memory), rest)
    merged_state, event = lifecycle.merged(State(memory=memory), name, decisions)
    return store.commit(repo, config, e, tree, [ours, theirs], event, merged_state), decisions


def _newest(loaded: store.Loaded) -> str:
    return max((s.updated_at for s in loaded.index), default="")


class Integrated(NamedTuple):
    tip: str | None  # the local tip now
    moved: bool = False  # the local branch moved
    base: str | None = None  # the merge base of the merge made, when the walk showed it (an ancestor of theirs)


def integrate(
    repo: git.Repo, settings: Settings, config: dict[str, str], e: Env, theirs: str | None, name: str, say: Say
) -> Integrated:
    """Bring the fetched tip into the local branch. A merge of an earlier
    try that was never pushed (``_merged_from``) is made again from its own
    side, not kept beneath a second merge. The mirror is the caller's to
    refresh (``done.moved``): sync does it once the push is through, so the
    time between its fetch and its push, when others' pushes can win, is short."""
    if theirs is None:
        say(t("sync.none_there", remote=name, branch=settings.state_branch))
        return Integrated(git.commit_at(repo, settings.state_ref))
    news: list[str] = []

    def build(tip: str | None, cat: git.CatFile) -> tuple[str | None, str, Integrated]:
        news.clear()
        ours = _merged_from(repo, tip, theirs) or tip
        if ours is None:
            store.load_commit(repo, cat, theirs, f"{name}'s {settings.state_branch}:")
            news.append(t("sync.took", branch=settings.state_branch, remote=name, commit=theirs[:10]))
            return theirs, f"vibegit: take the state of {name}", Integrated(theirs, True)
        walked = git.apart(repo, ours, theirs) if ours != theirs else None
        if walked is None or not walked.other:  # theirs is in ours
            return ours, "vibegit: leave out a merge the remote needs no more", Integrated(ours, ours != tip)
        mine, other = walked.mine, walked.other
        if not mine:  # ours is in theirs
            store.load_commit(repo, cat, theirs, f"{name}'s {settings.state_branch}:")
            news.append(t("sync.fast_forward", branch=settings.state_branch, n=other, remote=name))
            return theirs, f"vibegit: fast-forward to {name}", Integrated(theirs, True)
        with git.packed(repo):  # the merge's new objects: one pack
            commit, decisions = _merge(repo, settings, config, e, cat, ours, theirs, name, walked)
        news.append(t("sync.merged", mine=mine, other=other, remote=name, commit=commit[:10]))
        news.extend(f"  - {d}" for d in decisions or [t("sync.no_conflict")])
        return commit, f"vibegit: merge {name}", Integrated(commit, True, walked.base if walked.known else None)

    done = store.publish(repo, settings, build, config=config)
    for line in news:
        say(line)
    return done


MERGED = "Vibegit-Event: merge"  # the trailer line of a merge commit of sync's (store.message)


def _sync_merge(repo: git.Repo, commit: str | None) -> list[str]:
    """The two parents of ``commit`` when it is a merge of sync's, else []."""
    if commit is None:
        return []
    parents = git.parents(repo, commit)
    if len(parents) != 2 or MERGED not in git.commit_message(repo, commit).splitlines():
        return []
    return parents


def _merged_from(repo: git.Repo, tip: str | None, theirs: str) -> str | None:
    """This side of ``tip`` (its first parent) when ``tip`` is a merge of
    sync's that lost its push race: nothing was recorded on it since, and the
    remote moved on from the side it merged (its second parent, an ancestor
    of ``theirs``). Merging this side with ``theirs`` again loses nothing,
    and leaves one merge where merging ``tip`` would leave two. Else None."""
    parents = _sync_merge(repo, tip)
    if not parents or parents[1] == theirs or not git.is_ancestor(repo, parents[1], theirs):
        return None
    return parents[0]


def redact(
    repo: git.Repo, settings: Settings, config: dict[str, str], e: Env, say: Say, remote: str | None = None
) -> bool:
    """Take what looks like a credential out of the commits ``remote`` does
    not have (rewritten; see secretscan.rewrite), plus a ``redact`` event."""
    from vibegit.infra import secretscan

    done: list[secretscan.Redaction] = []

    def build(tip: str | None, cat: git.CatFile) -> tuple[str | None, str, str | None]:
        done.clear()
        findings = secretscan.scan(repo, settings, tip, remote=remote) if tip else []
        if not findings or tip is None:
            return None, "", None
        red = secretscan.rewrite(repo, settings, tip, findings, remote)
        left = secretscan.scan(repo, settings, red.tip, remote=remote)
        if left:
            first = t("sync.redact_left", where=left[0].where(settings), kind=left[0].kind)
            raise Refused(first + "\n" + secretscan.refusal(left, settings))
        loaded = store.load_commit(repo, cat, red.tip, f"{settings.state_branch}:")
        state, event = lifecycle.redacted(loaded.fresh().state, red.values, red.withheld, tuple(red.places))
        tree = git.resolve(repo, f"{red.tip}^{{tree}}") or ""
        done.append(red)
        return store.commit(repo, config, e, tree, [red.tip], event, state), "vibegit: redact", None

    store.publish(repo, settings, build, config=config)
    if not done:
        say(t("sync.nothing_to_redact"))
        return False
    commit = git.commit_of(repo, settings.state_ref) or ""
    mirror.refresh(repo, settings, commit, e, say, force=True)
    red = done[0]
    for note in red.withheld:
        say(t("sync.left_out", note=note))
    say(
        t(
            "sync.redacted",
            values=red.values,
            files=len(red.withheld),
            commit=commit[:10],
            branch=settings.state_branch,
        )
    )
    return True


def _scan_ahead(repo: git.Repo, settings: Settings, remote: str) -> tuple[str, list[secretscan.Finding]] | None:
    """The scan of the local tip, run while the fetch runs: the tip and its
    findings. When the fetch brings nothing new and the tip stays, it is the
    scan before the push; else the scan after the merge reads only what this
    one did not record as clean. A failure here leaves it all to that scan.
    A merge of sync's at the tip may be made again (``_merged_from``): its
    first parent is scanned, what that merge would be made from."""
    from vibegit.infra import secretscan  # here: imported while the fetch runs

    tip = git.commit_at(repo, settings.state_ref)
    if tip is None:
        return None
    tip = (_sync_merge(repo, tip) or [tip])[0]
    try:
        return tip, secretscan.scan(repo, settings, tip, remote=remote)
    except VibegitError:
        return None


def _findings(
    repo: git.Repo,
    settings: Settings,
    tip: str,
    theirs: str | None,
    known: str | None,
    ahead: tuple[str, list[secretscan.Finding]] | None,
    remote: str,
    base: str | None = None,
) -> list[secretscan.Finding]:
    """The scan before the push of ``tip``, after ``_scan_ahead``: its result
    when the fetch brought nothing (``known``: the remote's copy before) and
    the tip stayed; after a merge of that tip with ``theirs`` that it found
    clean, a scan of what only the merge holds (the remote still has all it
    had: its new tip descends from the old; ``base``, the merge's base, is an
    ancestor of ``theirs``); nothing for the remote's own tip."""
    from vibegit.infra import secretscan

    if ahead is not None and ahead[0] == tip and theirs == known:
        return ahead[1]
    if tip == theirs:
        return []  # the remote's copy: nothing new
    if (
        ahead is not None
        and not ahead[1]
        and theirs is not None
        and git.parents(repo, tip) == [ahead[0], theirs]
        and (known is None or known == base or git.is_ancestor(repo, known, theirs))
    ):
        return secretscan.scan(repo, settings, tip, cleared=[ahead[0]], remote=remote)
    return secretscan.scan(repo, settings, tip, remote=remote)


def _pauses(settings: Settings) -> Iterator[float]:
    """The waits between tries after a lost race, until ``vibegit.syncTimeout``
    seconds have passed since the first: each a random time up to a bound
    that starts at ``vibegit.syncBackoff`` and doubles up to ``MAX_WAIT``
    ("full jitter": clones that lost to the same push spread out instead of
    meeting again)."""
    deadline = time.monotonic() + settings.sync_timeout
    bound = settings.sync_backoff
    while (left := deadline - time.monotonic()) > 0:
        yield min(left, bound * int.from_bytes(os.urandom(4), "big") / (1 << 32))
        bound = min(bound * 2, max(MAX_WAIT, settings.sync_backoff))


def sync(given: str | None, do_redact: bool, verify: bool = True) -> int:
    ctx = app.enter()
    repo, settings = ctx.repo, ctx.settings
    name = remote.state_remote(repo, settings, given, git.remote_config(repo, ctx.config))
    moved = False  # a try moved the local branch: the mirror shows where it is once sync ends

    def attempt() -> int | None:
        """One try: fetch, integrate, scan, push; its exit code, or None when another push came first."""
        nonlocal moved, do_redact
        e = app.facts(ctx)
        with remote.fetching(repo, settings, name, before=True) as (known, fetched):  # the copy fetched before
            ahead = None if do_redact else _scan_ahead(repo, settings, name)
            theirs = fetched()
        done = integrate(repo, settings, ctx.config, e, theirs, name, app.say)
        tip, moved = done.tip, moved or done.moved
        if tip is None:
            app.say(t("sync.nothing", remote=name))
            return OK
        if do_redact:
            if redact(repo, settings, ctx.config, e, app.say, name):
                moved = False  # it showed its own in the mirror
            do_redact = False
            tip = git.commit_of(repo, settings.state_ref)
        if tip is None:
            return None  # the state branch went away meanwhile (redact found nothing to keep): look again
        findings = _findings(repo, settings, tip, theirs, known, ahead, name, done.base)
        if findings:
            from vibegit.infra import secretscan

            raise Refused(secretscan.refusal(findings, settings))
        if tip == theirs:
            app.say(t("sync.up_to_date", branch=settings.state_branch, remote=name, commit=tip[:10]))
            return OK
        if remote.push(repo, settings, name, tip, verify):  # the commit scanned, not what the branch holds now
            app.say(t("sync.pushed", branch=settings.state_branch, remote=name, commit=tip[:10]))
            return OK
        return None

    try:
        pauses = _pauses(settings)
        tries = 0
        started = time.monotonic()
        while True:
            tries += 1
            try:
                code = attempt()
                broke: Interrupted | None = None
            except Interrupted as err:  # the transfer broke off: the remote busy with others' pushes
                code, broke = None, err
            if code is not None:
                return code
            pause = next(pauses, None)
            if pause is None:
                if broke is not None:
                    raise broke
                seconds = f"{time.monotonic() - started:.0f}"
                raise Refused(
                    t("sync.kept_moving", remote=name, branch=settings.state_branch, tries=tries, seconds=seconds)
                )
            app.say(t("sync.interrupted" if broke else "sync.moved_on", remote=name))
            time.sleep(pause)
    finally:
        now = git.commit_at(repo, settings.state_ref) if moved else None
        if now is not None:
            mirror.refresh(repo, settings, now, app.facts(ctx), app.say)
