"""A scan of many new commits reads the names in their trees from git's diff
of them (secretscan._diffed), and every tree only when one of those names
may look like a credential: its findings are the full listing's on
generated histories (old blobs under new names, deletions, merges, names
with a line break), or fewer by names the remote already has in a commit of
its own; a git without rev-list's object:type filter lists everything, as
before. What fast-import cannot write (an empty directory, a name with a
slash) is made by hand below."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import git, init_repo
from vibegit import app
from vibegit.infra import git as vgit
from vibegit.infra import secretscan

GHP = "ghp_" + "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4"
AWS = "AKIA" + "Z7Q2M4X8R6T1W3YP"
DIRS = ("", "docs", "workflows/w1", "workflows/w1/snapshot", "workflows/w1/snapshot/src")
KEYLIKE = (f"keys-{GHP}.txt", AWS, "db:5432:app:admin:Hunter2Secret9")  # names the rules flag
NAMES = ("a.md", "notes", "b c", "x\ny", "src", *KEYLIKE)
_NAME = st.sampled_from(range(len(NAMES) - len(KEYLIKE))) | st.sampled_from(range(len(NAMES)))  # few key-like
TEXTS = ("plain\n", "words and more words\n", "# notes\n")
MESSAGES = ("vibegit: context", "vibegit: task-add")
NEVER = 1 << 60

# (kind, a directory, a name, a text or an earlier path) of one change
_OP = st.tuples(
    st.sampled_from(["add", "add", "delete"]),  # three texts: an added file is often a blob of before
    st.integers(0, len(DIRS) - 1),
    _NAME,
    st.integers(0, 40),
)
_COMMIT = st.tuples(st.lists(_OP, min_size=1, max_size=3), st.integers(0, len(MESSAGES) - 1))


def _path(d: int, n: int) -> str:
    return f"{DIRS[d]}/{NAMES[n]}" if DIRS[d] else NAMES[n]


def _quoted(path: str) -> str:
    """A path as fast-import reads it (C-style quoted when it holds a line break)."""
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"' if "\n" in path else path


def build(repo: Path, main: list, side: list, fork: int) -> list[str]:
    """The state branch made of ``main``'s commits (the first a root), and
    ``side``'s, forked after main's ``fork``-th and merged by the last; its
    commits' ids, in order (side's after main's)."""
    out: list[bytes] = []
    paths: dict[str, list[str]] = {"refs/heads/vibegit/state": [], "refs/heads/side": []}
    mark = 0

    def commit(ref: str, change: tuple, parent: int | None, merge: int | None) -> int:
        nonlocal mark
        mark += 1
        ops, message = change
        msg = MESSAGES[message].encode()
        out.append(
            b"commit %s\nmark :%d\ncommitter t <t@example.com> %d +0000\n" % (ref.encode(), mark, 1700000000 + mark)
        )
        out.append(b"data %d\n%s\n" % (len(msg), msg))
        if parent is not None:
            out.append(b"from :%d\n" % parent)
        if merge is not None:
            out.append(b"merge :%d\n" % merge)
        known = paths[ref]
        for kind, d, n, pick in ops:
            path = _path(d, n)
            if kind == "add":
                data = TEXTS[pick % len(TEXTS)].encode()
                out.append(f"M 100644 inline {_quoted(path)}\n".encode() + b"data %d\n%s\n" % (len(data), data))
            elif kind == "delete" and known:
                out.append(f"D {_quoted(known[pick % len(known)])}\n".encode())
                continue
            known.append(path)
        return mark

    first = [commit("refs/heads/vibegit/state", main[0], None, None)]
    for change in main[1:-1]:
        first.append(commit("refs/heads/vibegit/state", change, first[-1], None))
    branch = []
    if side:
        paths["refs/heads/side"] = list(paths["refs/heads/vibegit/state"])
        base = first[min(fork, len(first) - 1)]
        for change in side:
            branch.append(commit("refs/heads/side", change, branch[-1] if branch else base, None))
    if len(main) > 1:
        first.append(commit("refs/heads/vibegit/state", main[-1], first[-1], branch[-1] if branch else None))
    out.append(b"done\n")
    git(repo, "fast-import", "--quiet", "--done", "--export-marks=marks", input="".join(x.decode() for x in out))
    marks = dict(line.split() for line in (repo / "marks").read_text().splitlines())
    (repo / "marks").unlink()
    return [marks[f":{m}"] for m in [*first, *branch]]


def findings(repo: Path, cleared: list[str]) -> list[tuple[str, ...]]:
    (Path(git(repo, "rev-parse", "--git-common-dir").strip()).resolve() / "vibegit.scanned").unlink(missing_ok=True)
    try:
        ctx = app.open_repo(repo)
        found = secretscan.scan(ctx.repo, ctx.settings, remote="", cleared=cleared)
    finally:
        vgit.close_readers()
    return sorted({(f.path, str(f.line), f.kind, f.fingerprint, f.source, f.oid, f.snapshot, f.entry) for f in found})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    main=st.lists(_COMMIT, min_size=1, max_size=6),
    side=st.lists(_COMMIT, max_size=3),
    fork=st.integers(0, 5),
    theirs=st.integers(-1, 5),
)
def test_the_diffed_names_find_what_every_tree_read_finds(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    main: list,
    side: list,
    fork: int,
    theirs: int,
) -> None:
    repo = init_repo(tmp_path_factory.mktemp("diffed") / "repo")
    commits = build(repo, main, side, fork)
    cleared = [commits[theirs]] if 0 <= theirs < len(main) - 1 else []
    monkeypatch.setattr(secretscan, "MANY", NEVER)
    every_tree = findings(repo, cleared)
    monkeypatch.setattr(secretscan, "MANY", 0)
    diffed = findings(repo, cleared)
    monkeypatch.setattr(secretscan, "_FILTER", "--filter=object:nonsense={}")  # a git without the filter
    assert findings(repo, cleared) == every_tree
    assert set(diffed) <= set(every_tree)
    for f in set(every_tree) - set(diffed):  # a name the remote has, in a commit of its own
        entry = f[7]
        assert cleared and entry, f
        had = git(repo, "rev-list", *cleared).split()
        assert any(git(repo, "cat-file", "-t", f"{c}:{entry}", check=False).strip() for c in had), f


PGPASS = NAMES.index(KEYLIKE[2])
PLAIN = ([("add", 0, 0, 0)], 0)


def found_both_ways(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Findings, the same whether every tree is read or the names come from the diff."""
    monkeypatch.setattr(secretscan, "MANY", NEVER)
    every_tree = findings(repo, [])
    monkeypatch.setattr(secretscan, "MANY", 0)
    assert every_tree and findings(repo, []) == every_tree


def on_top(repo: Path, parent: str, docs: str) -> None:
    """A commit on the state branch: ``parent``'s tree and the tree ``docs`` as ``docs/``."""
    root = git(repo, "mktree", input=git(repo, "ls-tree", parent) + f"\n040000 tree {docs}\tdocs\n")
    git(repo, "update-ref", "refs/heads/vibegit/state", git(repo, "commit-tree", root, "-p", parent, "-m", "x"))


@pytest.mark.parametrize(
    ("main", "side"),
    [
        ([([("add", 1, PGPASS, 0)], 0), PLAIN], []),  # a name a rule reads whole as a line, in a directory
        ([PLAIN, PLAIN, ([("add", 3, PGPASS, 0)], 0)], [PLAIN]),  # in the merge itself (neither side had it)
        ([PLAIN, ([("add", 4, PGPASS, 0), ("add", 1, 1, 0)], 0)], []),  # a blob of before under a new name
        ([([("add", 0, PGPASS, 1)], 0)], []),  # a root commit
    ],
    ids=["in-a-directory", "in-a-merge", "an-old-blob", "in-a-root"],
)
def test_each_way_a_name_comes_is_found(repo: Path, monkeypatch: pytest.MonkeyPatch, main: list, side: list) -> None:
    build(repo, main, side, 0)
    found_both_ways(repo, monkeypatch)


def test_an_empty_directorys_name_is_found(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A name with no path under it (fast-import writes no empty tree: made here by hand)."""
    (parent,) = build(repo, [PLAIN], [], 0)
    empty = git(repo, "hash-object", "-w", "-t", "tree", "/dev/null")
    docs = git(repo, "mktree", input=f"040000 tree {empty}\t{AWS}\n")
    on_top(repo, parent, docs)
    found_both_ways(repo, monkeypatch)


def test_a_name_with_a_slash_is_found(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tree entry whose name holds a slash (git writes none; anyone can push one) is read as one name."""
    (parent,) = build(repo, [PLAIN], [], 0)
    blob = bytes.fromhex(git(repo, "rev-parse", f"{parent}:a.md"))
    raw = b"100644 h:1:d/b:u:Hunter2Secret9\0" + blob
    docs = (
        subprocess.run(
            ["git", "hash-object", "-w", "-t", "tree", "--literally", "--stdin"],
            cwd=repo,
            input=raw,
            capture_output=True,
        )
        .stdout.decode()
        .strip()
    )
    on_top(repo, parent, docs)
    found_both_ways(repo, monkeypatch)


def test_a_clean_history_reads_no_tree(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Many commits and names that look like nothing: the trees are never listed."""
    build(repo, [([("add", i % len(DIRS), 0, 0), ("add", 1, 1, 1)], 0) for i in range(8)], [], 0)
    monkeypatch.setattr(secretscan, "MANY", 0)
    kinds: list[str] = []
    real = secretscan._new

    def new(*args: object, **kw: object) -> object:
        kinds.append(str(args[4]) if len(args) > 4 else "")
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(secretscan, "_new", new)
    assert findings(repo, []) == []
    assert kinds == ["", "blob"]  # the commits, then the blobs alone


def test_a_name_that_looks_like_a_key_reads_the_trees(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A key-like name in a directory of a later commit, its blob an old one's: found, placed at its path."""
    build(
        repo, [([("add", 1, 0, 0)], 0), ([("add", 0, 1, 1)], 0), ([("add", 2, NAMES.index(KEYLIKE[0]), 0)], 0)], [], 0
    )
    monkeypatch.setattr(secretscan, "MANY", 0)
    found = findings(repo, [])
    assert [(f[0], f[2]) for f in found] == [("workflows/w1/keys-[REDACTED].txt", "GitHub token")]
