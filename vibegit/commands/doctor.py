"""``vibegit doctor``: check the state branch, and repair it as a new event.

Checks: no git process left the state branch's ref locked (``--repair``
removes such a lock once it is older than any live git process would hold
it); the branch points to a commit; its state files parse; the history is
an orphan (no user commit in it); the lock agrees with the status; a
checkpoint's snapshot tree is in the commit; the mirror's files parse;
for each agent vibegit is installed into, its entries are current, the hook
commands find vibegit with an agent's PATH, and what the agent itself must
allow (Codex's project trust and hooks feature, Gemini's hooks switch).
``--repair`` finds the newest good state commit (history, then the reflog,
newest first) and records a NEW event whose tree is that commit's tree and
whose parent is the current tip: nothing is deleted, the bad commits stay
in history. A broken mirror file is moved aside and the mirror rewritten.
"""

from __future__ import annotations

import time

from vibegit import app
from vibegit.core import lifecycle
from vibegit.errors import OK, REFUSED
from vibegit.infra import agentfiles, git, mirror, store

MAX_CANDIDATES = 5000
STALE_LOCK_SECONDS = 2.0  # git holds a ref lock for milliseconds; older, under our lock, it was left behind


def doctor(repair: bool) -> int:
    ctx = app.enter()
    repo, settings = ctx.repo, ctx.settings
    say = app.say
    said: list[str] = []
    problems: list[str] = []
    broken_mirror = mirror.problems(repo, settings)

    def build(head: str | None, cat: git.CatFile) -> tuple[str | None, str, int | None]:
        """Check the tip; with --repair, the repair event. The result: an exit code, or None to go on."""
        said.clear()
        problems.clear()
        lock = git.ref_lock(repo, settings.state_ref)
        if lock.exists():
            if repair and time.time() - lock.stat().st_mtime >= STALE_LOCK_SECONDS:
                lock.unlink()
                said.append(f"Removed {lock}, which a git process that was stopped had left (it blocked every event).")
            else:
                said.append(f"✘ {lock} blocks every event (a git process that was stopped leaves it behind)")
                if repair:
                    said.append("It is only seconds old: a git process may still be running; run it again in a moment.")
                else:
                    said.append("Run 'vibegit doctor --repair' to remove it (it checks that no git process holds it).")
                return None, "", REFUSED
        found = cat.get(head) if head else None
        tip = head if found is not None and found[0] == "commit" else None
        if head is None:
            if git.reflog_tip(repo, settings.state_ref) is None:
                said.append(f"No {settings.state_branch} here yet; nothing to check.")
                return None, "", OK
            problems.append(f"{settings.state_ref} is missing")
        elif tip is None:
            problems.append(f"{settings.state_ref} points to a {found[0] if found else 'missing object'}, not a commit")
        else:
            problems.extend(store.commit_problems(repo, cat, settings, tip))
            problems.extend(store.orphan_problems(repo, settings, tip))
        said.extend(f"✘ {problem}" for problem in problems)
        said.extend(f"✘ mirror: {problem}" for _, problem in broken_mirror)
        if not problems and not broken_mirror:
            count = git.count(repo, tip) if tip else 0
            said.append(
                f"✔ {settings.state_branch} is healthy ({count} event(s), tip {(tip or '')[:10]}); the mirror parses."
            )
            return None, "", OK
        if not repair:
            said.append(
                "Run 'vibegit doctor --repair' to go back to the newest good state (a new event; nothing is deleted)."
            )
            return None, "", REFUSED
        if not problems or all("not an orphan" in p for p in problems):
            return None, "", None  # the branch stays; only the mirror is mended
        known = git.known_commits(repo, tip, settings.state_ref, MAX_CANDIDATES)
        good = next(
            (
                c
                for c in sorted(known, key=lambda c: -known[c])
                if c != tip and not store.commit_problems(repo, cat, settings, c)
            ),
            None,
        )
        if good is None:
            said.append(f"No good state found in the history or reflog of {settings.state_branch}; nothing changed.")
            return None, "", REFUSED
        loaded = store.load_commit(repo, cat, good, "")
        state, event = lifecycle.repaired(loaded.fresh().state, good, problems[0])
        tree = git.resolve(repo, f"{good}^{{tree}}") or ""
        commit = store.commit(repo, ctx.config, app.facts(ctx), tree, [tip] if tip else [good], event, state)
        said.append(
            f"Repaired: {settings.state_branch} now holds the state of {good[:10]} as new event {commit[:10]}"
            + (f" on top of {tip[:10]} (the bad commits stay in history)." if tip else ".")
        )
        return commit, "vibegit: repair", None

    code = store.publish(repo, settings, build)
    for line in said:
        say(line)
    agent_lines, agents_bad = agentfiles.health(repo, settings.lang)
    for line in agent_lines:
        say(line)
    if code is not None:
        return REFUSED if agents_bad else code
    for rel, _ in broken_mirror:
        aside = mirror.set_aside(repo, rel)
        if aside is not None:
            say(f"Moved the broken {rel.rsplit('/', 1)[-1]} of the mirror aside to {aside.rsplit('/', 1)[-1]}.")
    tip = git.commit_of(repo, settings.state_ref)
    if tip:
        mirror.refresh(repo, settings, tip, app.facts(ctx), say, force=True)
    return REFUSED if agents_bad or any("not an orphan" in p for p in problems) else OK
