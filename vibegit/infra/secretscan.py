"""Secrets stay home: scan exactly what a push of the state branch
would publish that is new, and take it out again (``sync --redact``).

What is new, per state commit the remote does not have yet (not reachable
from any fetched copy of the state branch):

- of each snapshot, the files that differ from the checkpoint's commit at the
  same path (the uncommitted work; a file only moved is not new), unless the
  remote's copy already carries that blob;
- every other file of the state tree (the state's own text) the remote's
  copy does not hold;
- the commit messages.

Content the user's history holds unchanged is never scanned, so committed
test keys and fixtures are never flagged. Files are decoded (UTF-8, UTF-16
and UTF-32 with or without a BOM; binary read as latin-1) and scanned as a
stream, whatever their size; an object that cannot be read is refused,
never skipped. Values whose fingerprint is in ``.vibegit/secrets-allow``
pass. Rules: core/credentials.py. Light imports only: the pre-push hook
calls ``check`` (the store is imported when there is something to scan).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from pathlib import Path

from vibegit.core import credentials
from vibegit.core.messages import t
from vibegit.core.records import NamedTuple
from vibegit.core.settings import Settings
from vibegit.errors import BadInput, GitError
from vibegit.infra import git, scanned, scansplit

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start

if TYPE_CHECKING:
    from vibegit.core.model import State
    from vibegit.infra.snapshot import Change
    from vibegit.infra.store import SnapshotAt

ALLOW_FILE = ".vibegit/secrets-allow"
MAX_ALLOW_BYTES = 1 << 20


class Finding(NamedTuple):
    path: str  # a working-tree path (snapshot), a file of the state tree, or "" for a commit message
    line: int
    kind: str
    fingerprint: str
    source: str  # "snapshot", "state" or "message"
    oid: str  # the blob or commit holding it
    snapshot: str = ""  # the snapshot tree, for a file of a snapshot

    def where(self, settings: Settings) -> str:
        if self.source == "snapshot":
            return f"{self.path}:{self.line}"
        if self.source == "state":
            return f"{settings.state_branch}:{self.path}:{self.line}"
        return f"commit {self.oid[:10]} message:{self.line}"

    @property
    def what(self) -> str:
        return {
            "snapshot": "uncommitted work in a checkpoint's snapshot",
            "state": "the workflow's state",
            "message": "a state commit's message",
        }[self.source]


# -- the allowlist ----------------------------------------------------------------


def allowlist(repo: git.Repo) -> frozenset[str]:
    """The fingerprints in ``.vibegit/secrets-allow`` of the working tree
    (project content: it travels with the team's commits). A link or an
    oversized file allows nothing."""
    path = repo.toplevel / ALLOW_FILE
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return frozenset()
    with os.fdopen(fd, "rb") as f:
        data = f.read(MAX_ALLOW_BYTES + 1)
    if len(data) > MAX_ALLOW_BYTES:
        return frozenset()
    found = set()
    for line in data.decode("utf-8", errors="replace").splitlines():
        word = line.split("#", 1)[0].strip().lower()
        if credentials.FINGERPRINT.match(word):
            found.add(word)
    return frozenset(found)


def allow(repo: git.Repo, fingerprint: str, note: str) -> bool:
    """Add ``fingerprint`` to the allowlist file; False when it is there already."""
    fp = fingerprint.strip().lower()
    if not credentials.FINGERPRINT.match(fp):
        raise BadInput(t("secrets.not_fingerprint", value=fingerprint[:40]))
    if fp in allowlist(repo):
        return False
    path = repo.toplevel / ALLOW_FILE
    for probe in (path.parent, path):
        if probe.is_symlink():
            raise BadInput(t("secrets.symlink", path=probe.relative_to(repo.toplevel)))
    path.parent.mkdir(exist_ok=True)
    new = not path.exists()
    with path.open("a", encoding="utf-8") as f:
        if new:
            f.write("# Values vibegit's secret scan lets through, by fingerprint (never the value).\n")
            f.write("# Added with 'vibegit secrets allow FINGERPRINT'; commit this file to share it.\n")
        f.write(f"{fp}  # {' '.join(note.split())[:200]}\n" if note.strip() else f"{fp}\n")
    return True


# -- what a push would publish that is new ---------------------------------------------


class Blob(NamedTuple):
    oid: str
    path: str
    source: str  # "snapshot" or "state"
    snapshot: str = ""  # the snapshot tree a snapshot file is in
    base: str = ""  # the tree that snapshot was taken on ("" unknown)
    added: bool = False  # a path the base does not have


class Scope(NamedTuple):
    commits: list[str]  # state commits the remote does not have, oldest first
    blobs: list[Blob]  # what in them is new, each blob once


def pushed_tips(repo: git.Repo, settings: Settings) -> list[str]:
    """Every fetched copy of the state branch: what the remotes have."""
    raw = repo.out("for-each-ref", "--format=%(objectname)", git.REMOTE_NS, f"refs/remotes/*/{settings.state_branch}")
    return sorted(set(raw.split()))


def _tree_blobs(
    repo: git.Repo, cat: git.CatFile, tree: str, prefix: str, skip: set[str], seen: set[str] | None = None
) -> Iterator[tuple[str, str]]:
    """(blob, path) of each file of ``tree`` but those below the paths in
    ``skip``, and below the subtrees in ``seen`` (walked before: what they
    hold is had already), to which the subtrees walked here are added. The
    trees of each level are read in one batch (a state tree of many
    workflows costs a few round trips, not one a workflow)."""
    from vibegit.infra import store

    before = frozenset(seen or ())
    trees: dict[str, tuple[git.TreeEntry, ...]] = {}
    level = [(tree, prefix)]
    while level:
        read = store.read_trees(repo, cat, [oid for oid, _ in level])
        for oid, _ in level:
            if oid not in read:
                raise GitError(f"tree {oid.removesuffix('^{tree}')[:12]} is missing; run 'vibegit doctor'")
        trees.update(read)
        level = [
            (e.oid, f"{at}{e.name}/")
            for oid, at in level
            for e in read[oid]
            if e.mode == "40000" and e.oid not in before and at + e.name not in skip
        ]
    if seen is not None:
        seen.update(trees)

    def walk(oid: str, prefix: str) -> Iterator[tuple[str, str]]:
        for e in trees[oid]:
            path = prefix + e.name
            if path in skip or e.oid in before:
                continue
            if e.mode == "40000":
                yield from walk(e.oid, path + "/")
            elif e.mode != "160000":
                yield e.oid, path

    yield from walk(tree, prefix)


KEPT_CHANGES = 20_000  # the changed files _diffed holds at most, all snapshots together
_diffed: dict[tuple[str, str], tuple[str | None, dict[str, Change]]] = {}  # what _diffs found, by snapshot
_kept = [0]  # the changed files _diffed holds now


def _diffs(repo: git.Repo, cat: git.CatFile, snaps: list[SnapshotAt]) -> list[tuple[str | None, dict[str, Change]]]:
    """Each snapshot's base tree (None: unknown, or not here) and its diff
    against it (the empty tree when None): read through ``cat`` and one
    ``git diff-tree``, however many snapshots, and once a process (sync's
    second scan meets the same snapshots). Fail closed: a snapshot tree
    that is missing is an error, never a snapshot with nothing new."""
    from vibegit.infra import snapshot

    keys = [(s.tree, s.base or "") for s in snaps]
    known = {key: _diffed[key] for key in keys if key in _diffed}
    todo = list({key: s for key, s in zip(keys, snaps, strict=True) if key not in known}.values())
    if todo:
        bases = list(dict.fromkeys(s.base for s in todo if git.is_oid(s.base)))
        trees = {
            base: found[1]
            for base, found in zip(bases, cat.get_many(f"{b}^{{tree}}" for b in bases), strict=True)
            if found is not None and found[0] == "tree"
        }
        for tree, found in zip(todo, cat.get_many(s.tree for s in todo), strict=True):
            if found is None or found[0] != "tree":
                raise GitError(f"snapshot tree {tree.tree[:12]} is missing; run 'vibegit doctor'")
        empty = snapshot.empty_tree(repo)
        based = [trees.get(s.base or "") for s in todo]
        for s, base, diff in zip(
            todo,
            based,
            snapshot.diffs(repo, ((b or empty, s.tree) for b, s in zip(based, todo, strict=True))),
            strict=True,
        ):
            known[(s.tree, s.base or "")] = (base, diff)
            _diffed[(s.tree, s.base or "")] = (base, diff)
            _kept[0] += len(diff) + 1
            while _kept[0] > KEPT_CHANGES:  # memory: the oldest go
                _kept[0] -= len(_diffed.pop(next(iter(_diffed)))[1]) + 1
    return [known[key] for key in keys]


def _changes(diff: dict[str, Change]) -> Iterator[tuple[str, str, bool]]:
    """(blob, path, added) of the files a snapshot's ``diff`` changes; a file only moved is not one."""
    gone = {c.old.oid for c in diff.values() if c.old is not None and c.new is None}
    for path, change in sorted(diff.items()):
        new = change.new
        if new is None or new.mode == "160000":
            continue
        if change.old is None and new.oid in gone:
            continue  # moved, content unchanged
        yield new.oid, path, change.old is None


def _in_snapshot(path: str) -> bool:
    """A path inside a snapshot tree (``snapshot/`` at the root, or ``workflows/<id>/snapshot/``)."""
    head, _, rest = path.partition("/")
    if head == "snapshot":
        return bool(rest)
    parts = path.split("/", 3)
    return len(parts) == 4 and parts[0] == "workflows" and parts[2] == "snapshot"


class _Commit(NamedTuple):
    oid: str
    first_parent: str  # "" for a root commit
    state: list[tuple[str, str]]  # (blob, path) it adds or changes outside its snapshots
    snapshots_changed: bool  # a snapshot tree it adds or changes


def _new_commits(repo: git.Repo, tip: str, pushed: list[str]) -> Iterator[_Commit]:
    """The commits pushing ``tip`` would publish, oldest first (parents before
    children), each with what it changes against its first parent: one
    ``git log``, read as it comes, whatever the history's length."""
    groups = git.fields(
        repo,
        "log",
        "--raw",
        "-r",
        "-t",
        "-z",
        "--no-renames",
        "--no-abbrev",
        "--no-color",
        "--no-show-signature",
        "--root",
        "--diff-merges=first-parent",
        "--topo-order",
        "--reverse",
        "--format=%x00commit %H %P",
        tip,
        "--not",
        *pushed,
        "--",
    )
    width = len(repo.null_oid)  # ":<old mode> <new mode> <old oid> <new oid> <status>", then the path
    none = repo.null_oid.encode()
    commit: _Commit | None = None
    record = b""  # a change whose path is the next field
    paths: dict[bytes, tuple[str, bool, bool]] = {}  # path: (text, a snapshot tree's, inside one); the same recur
    for group in groups:
        for field in group:
            if record:
                mode, oid, record = record[8:14], record[16 + width : 16 + 2 * width], b""
                if commit is None or oid == none or mode == b"160000":
                    continue
                known = paths.get(field)
                if known is None:
                    path = field.decode(errors="surrogateescape")
                    known = paths[field] = (path, _is_snapshot_root(path), _in_snapshot(path))
                if mode == b"040000":
                    if known[1] and not commit.snapshots_changed:
                        commit = commit._replace(snapshots_changed=True)
                elif not known[2]:
                    commit.state.append((oid.decode(), known[0]))
                continue
            field = field.lstrip(b"\n")
            if field.startswith(b":"):
                record = field
            elif field.startswith(b"commit "):
                if commit is not None:
                    yield commit
                ids = field.decode().split()[1:]
                commit = _Commit(ids[0], ids[1] if len(ids) > 1 else "", [], False)
    if commit is not None:
        yield commit


def _is_snapshot_root(path: str) -> bool:
    return path == "snapshot" or (path.startswith("workflows/") and path.count("/") == 2 and path.endswith("/snapshot"))


def new_content(repo: git.Repo, settings: Settings, cat: git.CatFile, tip: str, cleared: Sequence[str] = ()) -> Scope:
    """What pushing ``tip`` would publish that the remote's copies lack (and
    that the history of ``cleared`` commits lacks, taken as theirs). A
    commit whose first parent is new too adds only what it changes; the others
    are read whole."""
    pushed = sorted({*pushed_tips(repo, settings), *cleared})
    commits = _new_commits(repo, tip, pushed)
    first = next(commits, None)
    if first is None:
        return Scope([], [])
    from vibegit.infra import store  # the state model and formats: only when there is something to scan

    # Sets of ids kept as dicts: 20,000 ids take 2 MiB in a set, 0.4 MiB in a dict (a first sync's peak memory).
    # The value: how many snapshots were waiting to be read when the blob was found (0 for the remote's).
    have: dict[str, int] = {}  # blobs the remote's copies already carry (their state and snapshot changes)
    carried: dict[str, store.SnapshotAt] = {}  # the remote copies' snapshots, each once
    walked: set[str] = set()  # trees whose blobs are in ``have``: the same directory on two sides is read once
    for old in pushed:
        snaps = store.snapshots(repo, cat, old)
        skip = {s.path for s in snaps}
        have.update((oid, 0) for oid, _ in _tree_blobs(repo, cat, f"{old}^{{tree}}", "", skip, walked))
        carried.update((f"{s.tree} {s.base}", s) for s in snaps)
    for _, diff in _diffs(repo, cat, list(carried.values())):
        have.update((oid, 0) for oid, _, _ in _changes(diff))
    new: list[str] = []
    known: dict[str, None] = {}  # the new commits so far: a new parent comes before its children
    blobs: list[Blob] = []
    waiting: list[tuple[int, store.SnapshotAt]] = []  # new snapshots, read at the end, and where their blobs go
    seen_snaps: set[str] = set()
    for commit in chain([first], commits):
        new.append(commit.oid)
        known[commit.oid] = None
        whole = commit.first_parent not in known
        snaps = store.snapshots(repo, cat, commit.oid) if whole or commit.snapshots_changed else []
        skip = {s.path for s in snaps}
        state = _tree_blobs(repo, cat, f"{commit.oid}^{{tree}}", "", skip, walked) if whole else commit.state
        for oid, path in state:
            if oid not in have:
                have[oid] = len(waiting)
                blobs.append(Blob(oid, path, "state"))
        for s in snaps:
            if s.tree not in seen_snaps:
                seen_snaps.add(s.tree)
                waiting.append((len(blobs), s))
    if not waiting:
        return Scope(new, blobs)
    # Each snapshot that carries a new blob lists it (scanned once): redaction leaves it out of each. New:
    # not a blob the remote carries, nor one found before that snapshot (have[oid] below its number).
    placed: list[Blob] = []
    at = 0
    for number, ((where, s), (base, diff)) in enumerate(
        zip(waiting, _diffs(repo, cat, [w for _, w in waiting]), strict=True), 1
    ):
        placed += blobs[at:where]
        at = where
        placed += [
            Blob(oid, path, "snapshot", s.tree, base or "", added or base is None)
            for oid, path, added in _changes(diff)
            if have.get(oid, number) >= number
        ]
    return Scope(new, placed + blobs[at:])


SMALL = 1 << 18  # a text up to this size is scanned with others (read in one piece); bigger ones alone
GROUP = 1 << 18  # bytes (messages: characters) scanned at once
PIPE = 1 << 20  # cat-file's output pipe: git reads and inflates that far ahead while the rules run


def _together(texts: Iterable[tuple[str, str]]) -> Iterator[tuple[str, list[credentials.Hit]]]:
    """The hits in each of ``texts`` (key, text), ``GROUP`` characters of them
    scanned at once (``credentials.find_each``)."""
    group: dict[str, str] = {}
    size = 0
    for key, text in chain(texts, [("", "")]):  # an empty key: the end
        if group and (not key or size + len(text) > GROUP):
            yield from zip(group, credentials.find_each(list(group.values())), strict=True)
            group, size = {}, 0
        group[key] = text
        size += len(text) + 1


def _scan_blobs(cat: git.CatFile, oids: list[str]) -> dict[str, list[credentials.Hit] | None]:
    """The hits in each blob that has some (None: it could not be read as one; a
    clean blob is not in the answer), read through
    batched requests; a big one is streamed a window at a time, small ones are
    scanned in groups of about ``GROUP`` bytes. On a big scan a second process
    takes some of those pieces (scansplit): the same hits, in the same order.
    A group's clean blobs are forgotten once its hits are in (memory: a first
    sync reads tens of thousands)."""
    scanned: dict[str, list[credentials.Hit] | None] = {}
    streamed: list[tuple[str, list[list[credentials.Hit]]]] = []  # a blob's hits window by window
    group: list[tuple[list[credentials.Hit], bytes]] = []
    members: list[tuple[str, list[credentials.Hit]]] = []  # the group's blobs: (oid, its hits)
    settling: deque[tuple[int, list[tuple[str, list[credentials.Hit]]]]] = deque()  # (ticket, members) per group
    size = 0
    with scansplit.Split() as split:

        def settle(every: bool = False) -> None:
            """Keep the hits of each group whose hits are all in."""
            while settling and (every or settling[0][0] <= split.answered):
                scanned.update((oid, hits) for oid, hits in settling.popleft()[1] if hits)

        for oid, found in zip(oids, cat.each(oids), strict=True):
            if found is None or found[0] != "blob":
                scanned[oid] = None
                continue
            if found[2] > SMALL:
                streamed.append((oid, []))
                for window in credentials.windows(credentials.decode_stream(found[3])):
                    split.window(window, streamed[-1][1])
                continue
            data = b"".join(found[3])  # one piece: decoded as decode_stream would
            if group and size + len(data) > GROUP:
                settling.append((split.group(group), members))
                settle()
                group, members, size = [], [], 0
            hits: list[credentials.Hit] = []
            group.append((hits, data))
            members.append((oid, hits))
            size += len(data) + 1
        if group:
            settling.append((split.group(group), members))
        split.finish()
        settle(every=True)
    for oid, parts in streamed:
        if any(parts):
            scanned[oid] = [hit for part in parts for hit in part]
    return scanned


def _scan_messages(cat: git.CatFile, commits: list[str]) -> tuple[dict[str, list[credentials.Hit]], list[str]]:
    """The hits in each commit's message that has some, and the commits read
    clean (a commit that cannot be read has nothing to publish, and is neither)."""
    texts = (
        (commit, credentials.decode(found[2].partition(b"\n\n")[2]))
        for commit, found in zip(commits, cat.get_many(commits), strict=True)
        if found is not None
    )
    hits_in: dict[str, list[credentials.Hit]] = {}
    clean: list[str] = []
    for commit, hits in _together(texts):
        if hits:
            hits_in[commit] = hits
        else:
            clean.append(commit)
    return hits_in, clean


def _in_tree(repo: git.Repo, tree: str) -> set[str]:
    """Every blob of ``tree`` (asked only when an added file was flagged: was it a copy?)."""
    raw = repo.git("ls-tree", "-r", "-z", tree).stdout.decode(errors="surrogateescape")
    return {item.split(" ", 2)[2].split("\t", 1)[0] for item in raw.split("\0") if item.count(" ") >= 2}


def scan(
    repo: git.Repo,
    settings: Settings,
    tip: str | None = None,
    allowed: frozenset[str] | None = None,
    cleared: Sequence[str] = (),
) -> list[Finding]:
    """Credentials in what pushing the state branch (or ``tip``) would publish
    that is new. ``cleared``: commits a scan found nothing to refuse in (with
    what the remote had then, all of which it still has): what their history
    holds is not read again."""
    tip = tip or git.resolve(repo, settings.state_ref)
    if not tip:
        return []
    allowed = allowlist(repo) if allowed is None else allowed
    findings: list[Finding] = []
    clean = scanned.load(repo)  # what an earlier scan read and found nothing in
    with git.CatFile(repo, pipe=PIPE) as cat:  # its own reader: blobs are streamed through it
        scope = new_content(repo, settings, cat, tip, cleared)
        asked = [oid for oid in dict.fromkeys(b.oid for b in scope.blobs) if oid not in clean]
        hits_in = _scan_blobs(cat, asked)
        in_messages, clean_messages = _scan_messages(cat, [c for c in scope.commits if c not in clean])
    copies: dict[str, set[str]] = {}
    for blob in scope.blobs:
        hits = hits_in.get(blob.oid, [])
        if hits is None:
            findings.append(
                Finding(blob.path, 0, "an object that could not be read", "-", blob.source, blob.oid, blob.snapshot)
            )
            continue
        hits = [h for h in hits if h.fingerprint not in allowed]
        if hits and blob.added and blob.base:
            if blob.base not in copies:
                copies[blob.base] = _in_tree(repo, blob.base)
            if blob.oid in copies[blob.base]:
                continue  # a copy of a file the user's commit holds
        for h in hits:
            findings.append(Finding(blob.path, h.line, h.kind, h.fingerprint, blob.source, blob.oid, blob.snapshot))
    for commit in scope.commits:
        for h in in_messages.get(commit, []):
            if h.fingerprint not in allowed:
                findings.append(Finding("", h.line, h.kind, h.fingerprint, "message", commit))
    clean_now = [oid for oid in asked if oid not in hits_in]
    clean_now += clean_messages
    del (
        scope,
        hits_in,
        in_messages,
        clean_messages,
    )  # a long history's records go before the record is written (peak memory)
    scanned.add(repo, clean_now)
    return findings


def refusal(findings: list[Finding], settings: Settings, limit: int = 20) -> str:
    """The refusal: each finding's place and fingerprint, and what to do."""
    lines = list(
        dict.fromkeys(
            t("secrets.finding", where=f.where(settings), kind=f.kind, what=f.what, fingerprint=f.fingerprint)
            for f in findings
        )
    )
    shown = len(lines)  # one line per place: a file in several snapshots is listed once
    if shown > limit:
        lines = [*lines[:limit], t("secrets.more", n=shown - limit)]
    head = t("secrets.refusal", branch=settings.state_branch, n=shown)
    return head + "\n  " + "\n  ".join(lines) + "\n" + t("secrets.refusal_how", file=ALLOW_FILE)


def check(repo: git.Repo, settings: Settings, tip: str) -> str | None:
    """For the pre-push hook: the refusal text for pushing ``tip``, or None when it may go."""
    findings = scan(repo, settings, tip)
    return refusal(findings, settings) if findings else None


def allow_path(repo: git.Repo) -> Path:
    return repo.toplevel / ALLOW_FILE


# -- redaction: take them out of what was never pushed ----------------------------------


class Redaction(NamedTuple):
    tip: str  # the rewritten tip
    values: int  # values replaced in the state's own text and messages
    withheld: list[str]  # snapshot files left out, with why
    places: list[str]  # trailer lines for the redact event


def _withheld_note(findings: list[Finding]) -> str:
    said = ", ".join(f"{f.kind} on line {f.line}" for f in findings[:5])
    return f"{findings[0].path}: looked like a credential ({said}); left out by 'vibegit sync --redact'"


def rewrite(repo: git.Repo, settings: Settings, tip: str, findings: list[Finding]) -> Redaction:
    """Copies of the state commits not pushed yet without ``findings``: a
    flagged snapshot file is left out of the snapshot (its committed version,
    or nothing, stands there instead, so a resume elsewhere leaves that file
    alone and says why); a value in the state's own text is replaced by
    [REDACTED] field by field, so every state file still parses; messages
    likewise. Same authors, parents mapped. The user's files are not touched."""
    from vibegit.core.records import replace
    from vibegit.infra import snapshot, store

    allowed = allowlist(repo)
    by_snap: dict[str, dict[str, list[Finding]]] = {}
    for f in findings:
        if f.source == "snapshot":
            by_snap.setdefault(f.snapshot, {}).setdefault(f.path, []).append(f)
    flagged_state = {f.oid for f in findings if f.source == "state"}
    flagged_messages = {f.oid for f in findings if f.source == "message"}
    commits = repo.out(
        "rev-list", "--topo-order", "--reverse", tip, "--not", *pushed_tips(repo, settings), "--"
    ).split()
    mapped: dict[str, str] = {}
    new_snaps: dict[str, str] = {}
    count = 0
    withheld: dict[str, str] = {}

    def clean(text: str, values: set[str]) -> str:
        nonlocal count
        hits = [h for h in credentials.find(text) if h.fingerprint not in allowed]
        count += len(hits)
        text = credentials.redact(text, hits)
        for v in values:
            if v in text:
                count += text.count(v)
                text = text.replace(v, credentials.REDACTED)
        return text

    with git.CatFile(repo) as cat:
        values: set[str] = set()
        for oid in flagged_state:
            found = cat.get(oid)
            if found is not None:
                hits = credentials.find(credentials.decode(found[2]))
                values.update(h.value for h in hits if h.fingerprint not in allowed and len(h.value) >= 4)
        for commit in commits:
            found = cat.get(commit)
            if found is None or found[0] != "commit":
                raise GitError(f"commit {commit[:12]} is missing; run 'vibegit doctor'")
            head, _, message = found[2].decode(errors="surrogateescape").partition("\n\n")
            snaps = store.snapshots(repo, cat, commit)
            trees: dict[str, str] = {}
            for s in snaps:
                if s.tree not in by_snap:
                    continue
                if s.tree not in new_snaps:
                    paths = by_snap[s.tree]
                    new_snaps[s.tree] = snapshot.without(repo, s.tree, git.tree_of(repo, s.base), sorted(paths))
                    for path, fs in paths.items():
                        withheld[path] = _withheld_note(fs)
                trees[s.path] = new_snaps[s.tree]
            state_blobs = dict(_tree_blobs(repo, cat, f"{commit}^{{tree}}", "", {s.path for s in snaps}))
            tree = git.resolve(repo, f"{commit}^{{tree}}") or ""
            if trees or flagged_state & set(state_blobs):

                def fix(state: State) -> State:
                    state = credentials.map_text(state, lambda text: clean(text, values))
                    k = state.checkpoint
                    if k is not None and k.snapshot in new_snaps:
                        gone = [withheld[path] for path in by_snap[k.snapshot]]
                        k = credentials.with_withheld(replace(k, snapshot=new_snaps[k.snapshot]), gone)
                        state = replace(state, checkpoint=k)
                    return state

                loaded = store.load_commit(repo, cat, commit, f"{settings.state_branch}@{commit[:10]}:")
                tree = store.rewritten(repo, cat, loaded, fix, new_snaps, flagged_state)
            headers = []
            for h in head.split("\n"):
                key, _, value = h.partition(" ")
                if key == "tree":
                    headers.append(f"tree {tree}")
                elif key == "parent":
                    headers.append(f"parent {mapped.get(value, value)}")
                elif key in ("author", "committer"):
                    headers.append(h)
                # other headers (signatures) no longer hold for the new content
            if commit in flagged_messages:
                message = clean(message, set())
            body = "\n".join(headers) + "\n\n" + message
            mapped[commit] = git.write_object(repo, "commit", body.encode(errors="surrogateescape"))
    places = [f"Vibegit-Redacted: {f.where(settings)} ({f.kind})" for f in findings if f.source != "snapshot"]
    places += [f"Vibegit-Withheld: {path}" for path in withheld]
    return Redaction(mapped.get(tip, tip), count, list(withheld.values()), places)
