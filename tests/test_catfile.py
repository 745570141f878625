"""git.CatFile, the batched reader: one left before its answers are all
read (a caller's error, an early stop) ends with its block, never waits on
git; and git.parse_header, the one reader of the protocol's header lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.helpers import drop_object, git
from vibegit.errors import GitError
from vibegit.infra import git as vgit
from vibegit.infra.gitlite import PIPE, Child


def test_a_reader_left_with_answers_unread_ends(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = repo.parent / "blobs"
    files.mkdir()
    for i in range(600):
        (files / str(i)).write_text(f"blob {i}\n" * 400)  # 600 answers of 4 KB: far beyond a pipe
    paths = "".join(f"{files / str(i)}\n" for i in range(600))
    ids = git(repo, "hash-object", "-w", "--stdin-paths", input=paths).split()
    monkeypatch.chdir(repo)
    r = vgit.find_repo()
    with vgit.CatFile(r) as cat:
        answers = cat.each(ids)
        assert next(answers) is not None  # then the block ends, the generator still open (as on an error)
    with vgit.CatFile(r) as cat:
        answers = cat.each(ids)
        assert next(answers) is not None
        answers.close()  # an early stop
        assert cat.closed


def test_a_content_over_the_limit_closes_the_reader_at_once(repo: Path) -> None:
    """The error keeps the reading generator alive in its traceback: the reader
    must be closed before that, or the next read would take the big content's bytes."""
    small = git(repo, "hash-object", "-w", "--stdin", input="small\n")
    big = git(repo, "hash-object", "-w", "--stdin", input="x" * 5_000_000)
    cat = vgit.reader(vgit.find_repo(repo))
    with pytest.raises(vgit.TooLarge) as caught:
        list(cat.get_many([small, big, small], limit=1 << 20))
    assert caught.value.__traceback__ is not None and cat.closed
    again = vgit.reader(vgit.find_repo(repo))
    assert again is not cat and again.get(small) == ("blob", small, b"small\n")


OIDS = st.one_of(st.binary(min_size=20, max_size=20), st.binary(min_size=32, max_size=32)).map(
    bytes.hex
)  # sha1, sha256
NAMES = st.binary(max_size=40).filter(lambda b: b"\n" not in b)  # any name a line can ask, spaces included


@settings(max_examples=300, deadline=None)
@given(OIDS, st.sampled_from(list(vgit.KINDS)), st.integers(0, 1 << 40), NAMES)
def test_an_objects_header_gives_its_type_id_and_size(oid: str, kind: bytes, size: int, asked: bytes) -> None:
    line = f"{oid} {kind.decode()} {size}\n".encode()
    assert vgit.parse_header(line, asked) == (kind.decode(), oid, size)  # whatever name found it (HEAD, a path)


@settings(max_examples=300, deadline=None)
@given(NAMES, st.sampled_from([b"missing", b"ambiguous", b"submodule"]))
@example(b"HEAD:a b", b"missing")  # a path with a space: three words, and no object
@example(b"", b"missing")
def test_a_name_that_names_no_object_is_none(asked: bytes, word: bytes) -> None:
    assert vgit.parse_header(asked + b" " + word + b"\n", asked) is None


JUNK = [
    b"",  # cat-file ended
    b"\n",
    b"missing\n",
    b"0123456789abcdef0123456789abcdef01234567 blob 12",  # cut short: no newline
    b"0123456789abcdef0123456789abcdef01234567 blob\n",
    b"0123456789abcdef0123456789abcdef01234567 blob 12x\n",
    b"0123456789abcdef0123456789abcdef01234567 blob -1\n",
    b"0123456789abcdef0123456789abcdef01234567 blob  12\n",
    b"0123456789abcdef0123456789abcdef01234567 blob 12 extra\n",
    b"0123456789abcdef0123456789abcdef01234567 blobs 12\n",
    b"0123456789ABCDEF0123456789ABCDEF01234567 blob 12\n",
    b"0123456789abcdef0123456789abcdef0123456 blob 12\n",  # 39 digits
    b"other missing\n",  # the answer to another name
    b"asked MISSING\n",
    b"asked missing 12\n",
    b"asked\tmissing\n",
]


@pytest.mark.parametrize("line", JUNK)
def test_a_line_that_is_no_answer_to_the_name_is_an_error(line: bytes) -> None:
    with pytest.raises(ValueError, match="not cat-file's answer"):
        vgit.parse_header(line, b"asked")


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=120), NAMES)
def test_any_bytes_give_a_header_none_or_value_error(line: bytes, asked: bytes) -> None:
    """Whatever the line: an answer that says exactly what it read, or ValueError; never another error."""
    try:
        found = vgit.parse_header(line, asked)
    except ValueError:
        return
    if found is None:
        assert line.startswith(asked + b" ") and line.endswith(b"\n")
    else:
        kind, oid, size = found
        assert line.endswith(b"\n") and line.startswith(f"{oid} {kind} ".encode()) and int(line.split()[2]) == size


@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
def test_the_reader_answers_every_name_git_can_be_asked(tmp_path: Path, object_format: str) -> None:
    """Names with spaces, NULs and undecodable bytes, found or not: an answer or None, never a crash."""
    repo = tmp_path / object_format
    git(tmp_path, "init", "-q", f"--object-format={object_format}", str(repo))
    (repo / "a b").write_text("spaced\n")
    git(repo, "add", "a b")
    git(repo, "commit", "-q", "-m", "one")
    blob = git(repo, "rev-parse", "HEAD:a b")
    with vgit.CatFile(vgit.find_repo(repo)) as cat:
        assert cat.get("HEAD:a b") == ("blob", blob, b"spaced\n")
        assert cat.info("HEAD") is not None and cat.info("HEAD")[0] == "commit"  # type: ignore[index]
        for absent in ("HEAD:c d", "no such", "HEAD:x y z", "", "HEAD:\udcff", "HEAD\0junk", "two\nlines"):
            assert cat.get(absent) is None, absent
        found = list(cat.each(["HEAD:c d", "HEAD:a b", "HEAD\0", blob[:4]]))
        assert found[0] is None and found[1] is not None and found[1][1] == blob and found[2] is None
        assert cat.info("HEAD") is not None  # still in step


def test_a_reader_whose_git_ended_says_so(repo: Path) -> None:
    """An answer that never comes (git ended after it was asked) is an error, not a missing object."""
    cat = vgit.CatFile(vgit.find_repo(repo))
    cat.close()
    cat._proc = Child(["sh", "-c", "read -r name"], stdin=PIPE, stdout=PIPE)  # reads the name, ends
    with pytest.raises(GitError) as caught:
        cat.info("HEAD")
    assert str(caught.value) == "git cat-file ended where the header for 'HEAD' was due"
    cat.close()


def test_a_listing_reads_what_rev_list_lists_in_its_order_edges_and_missing_named(repo: Path) -> None:
    """git.listing: cat-file reads rev-list's output straight from it."""
    r = vgit.find_repo(repo)
    base = git(repo, "rev-parse", "HEAD")
    (repo / "new.txt").write_text("new\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "second")
    tip = git(repo, "rev-parse", "HEAD")
    listed = git(repo, "rev-list", "--objects", "--objects-edge-aggressive", "--no-object-names", tip, f"^{base}")
    args = ["--objects", "--objects-edge-aggressive", "--stdin"]
    got = [(name, found[:3] if found else None) for name, found in vgit.listing(r, args, f"{tip}\n^{base}\n".encode())]
    assert [name for name, _ in got] == listed.split()
    edges = [name for name, found in got if found is None]
    assert edges == [f"-{base}"]
    kinds = {found[0] for _, found in got if found}
    assert kinds == {"commit", "tree", "blob"}
    blob = git(repo, "rev-parse", "HEAD:new.txt")
    assert dict(got)[blob] == ("blob", blob, 4)


def test_a_listing_that_fails_or_stops_early_ends_both_processes(repo: Path) -> None:
    r = vgit.find_repo(repo)
    with pytest.raises(GitError, match="rev-list"):
        list(vgit.listing(r, ["--objects", "--stdin"], b"no-such-rev\n"))
    for i in range(300):
        (repo / f"f{i}.txt").write_text(f"blob {i}\n" * 400)  # 300 answers of 4 KB: beyond a pipe
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "many")
    answers = vgit.listing(r, ["--objects", "--stdin"], b"HEAD\n")
    assert next(answers)[1] is not None
    answers.close()  # an early stop: no process left waiting on a full pipe


def test_a_listing_of_an_object_missing_here_fails_in_rev_lists_words(repo: Path) -> None:
    (repo / "gone.txt").write_text("gone\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "gone")
    blob = git(repo, "rev-parse", "HEAD:gone.txt")
    drop_object(repo, blob)
    with pytest.raises(GitError, match=f"missing blob object '{blob}'"):
        list(vgit.listing(vgit.find_repo(repo), ["--objects", "--stdin"], b"HEAD\n"))
