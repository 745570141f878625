"""``sync``: the state branch meets its remote copy (SPEC §9).

Fetch the remote's state branch, then fast-forward, or merge when both
sides moved (a merge commit with both parents; rules in core/merge.py),
refuse when the new content holds credentials (``--redact`` rewrites them
away), push fast-forward only, and retry when the remote moved meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable

from vibegit import app
from vibegit.core import lifecycle, merge
from vibegit.core.model import Env
from vibegit.core.settings import Settings
from vibegit.core.text import clean
from vibegit.errors import OK, Refused
from vibegit.infra import git, mirror, remote, secretscan, store
from vibegit.infra.formats import STATE_FILES, render_all

TRIES = 3
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
) -> tuple[str, list[str]]:
    """A merge commit of the two tips: both histories kept, the state merged (core/merge.py)."""
    base = git.merge_base(repo, ours, theirs)
    o = store.load_commit(repo, cat, ours, f"{settings.state_branch}:")
    t = store.load_commit(repo, cat, theirs, f"{name}'s {settings.state_branch}:")
    b = store.load_commit(repo, cat, base, f"{settings.state_branch} (merge base):") if base else None
    merged, decisions = merge.merge(
        b.state if b else None,
        o.state,
        t.state,
        here="here",
        there=name,
        now=e.now,
        merge_text=lambda bt, ot, tt: git.merge_text(bt, ot, tt, name),
    )
    if not base:
        decisions.insert(0, "the two histories share no event (both started on their own); joined here")
    theirs_newer = t.state.session.updated_at > o.state.session.updated_at
    skip = set(STATE_FILES) | {store.SNAPSHOT}  # the rest of the tree: merged file by file

    def others(side: store.Loaded | None) -> dict[str, git.TreeEntry]:
        return {x.name: x for x in side.tree if x.name not in skip} if side else {}

    entries = merge.merge_files(others(b), others(o), others(t), theirs_newer, name, decisions)
    decisions[:] = [clean(d) for d in decisions]  # names and values from the remote: printed and in trailers
    # The snapshot follows the checkpoint that won (it names its tree).
    snap = merged.checkpoint.snapshot if merged.checkpoint is not None else None
    found = cat.get(snap) if snap and git.is_oid(snap) else None
    snap_tree = found[1] if found is not None and found[0] == "tree" else None
    tree = store.build_tree(repo, tuple(entries), render_all(merged), {store.SNAPSHOT: snap_tree})
    merged, event = lifecycle.merged(merged, name, decisions)
    return store.commit(repo, config, e, tree, [ours, theirs], event, merged), decisions


def integrate(
    repo: git.Repo, settings: Settings, config: dict[str, str], e: Env, theirs: str | None, name: str, say: Say
) -> str | None:
    """Bring the fetched tip into the local branch; the new local tip."""
    if theirs is None:
        say(f"{name} has no {settings.state_branch} yet.")
        return git.commit_of(repo, settings.state_ref)
    news: list[str] = []

    def build(ours: str | None, cat: git.CatFile) -> tuple[str | None, str, str | None]:
        news.clear()
        if ours is None:
            store.load_commit(repo, cat, theirs, f"{name}'s {settings.state_branch}:")
            news.append(f"Took {settings.state_branch} from {name} ({theirs[:10]}).")
            return theirs, f"vibegit: take the state of {name}", theirs
        if ours == theirs or git.is_ancestor(repo, theirs, ours):
            return None, "", ours
        if git.is_ancestor(repo, ours, theirs):
            store.load_commit(repo, cat, theirs, f"{name}'s {settings.state_branch}:")
            count = git.count(repo, f"{ours}..{theirs}")
            news.append(f"Fast-forwarded {settings.state_branch} by {count} event(s) from {name}.")
            return theirs, f"vibegit: fast-forward to {name}", theirs
        commit, decisions = _merge(repo, settings, config, e, cat, ours, theirs, name)
        mine, other = git.count(repo, f"{theirs}..{ours}"), git.count(repo, f"{ours}..{theirs}")
        news.append(
            f"Merged: {mine} event(s) here and {other} on {name} had diverged; both histories are kept "
            f"(merge {commit[:10]}). Decided:"
        )
        news.extend(f"  - {d}" for d in decisions or ["nothing conflicted"])
        return commit, f"vibegit: merge {name}", commit

    tip = store.publish(repo, settings, build)
    for line in news:
        say(line)
    if news and tip is not None:
        with git.CatFile(repo) as cat:
            mirror.show(repo, settings, cat, tip, say)
    return tip


def redact(repo: git.Repo, settings: Settings, config: dict[str, str], e: Env, say: Say) -> bool:
    """Rewrite the commits not pushed yet without credentials, plus a ``redact`` event."""
    done: list[tuple[int, int]] = []

    def build(tip: str | None, cat: git.CatFile) -> tuple[str | None, str, str | None]:
        done.clear()
        findings = secretscan.scan(repo, settings, tip) if tip else []
        if not findings or tip is None:
            return None, "", None
        new_tip, count = secretscan.rewrite(repo, settings, tip)
        loaded = store.load_commit(repo, cat, new_tip, f"{settings.state_branch}:")
        state, event = lifecycle.redacted(loaded.state, count, tuple(secretscan.iter_lines(findings)))
        tree = git.resolve(repo, f"{new_tip}^{{tree}}") or ""
        done.append((count, len(findings)))
        return store.commit(repo, config, e, tree, [new_tip], event, state), "vibegit: redact", None

    store.publish(repo, settings, build)
    if not done:
        say("Nothing to redact.")
        return False
    commit = git.commit_of(repo, settings.state_ref) or ""
    with git.CatFile(repo) as cat:
        mirror.rewrite(repo, settings, cat, commit, say)
    count, places = done[0]
    say(
        f"Redacted {count} value(s) in {places} place(s) of the events not pushed yet "
        f"(rewritten, plus event {commit[:10]}); the unredacted copies stay only in this repository's "
        f"reflog of {settings.state_branch}."
    )
    return True


def sync(given: str | None, do_redact: bool) -> int:
    ctx = app.enter()
    repo, settings = ctx.repo, ctx.settings
    name = remote.default_remote(repo, given)
    for _ in range(TRIES):
        e = app.facts(ctx)
        theirs = remote.fetch(repo, settings, name)
        tip = integrate(repo, settings, ctx.config, e, theirs, name, app.say)
        if tip is None:
            app.say(f"No workflow state here nor on {name}; nothing to sync.")
            return OK
        if do_redact:
            redact(repo, settings, ctx.config, e, app.say)
            do_redact = False
        findings = secretscan.scan(repo, settings)
        if findings:
            raise Refused(secretscan.refusal(findings, settings))
        tip = git.commit_of(repo, settings.state_ref)
        if tip == theirs:
            app.say(f"{settings.state_branch} is up to date with {name} ({(tip or '')[:10]}).")
            return OK
        if remote.push(repo, settings, name):
            app.say(f"Pushed {settings.state_branch} to {name} ({(tip or '')[:10]}).")
            return OK
        app.say(f"{name} moved on while syncing; fetching again.")
    raise Refused(f"{name}'s {settings.state_branch} kept moving; run 'vibegit sync' again")
