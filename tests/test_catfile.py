"""git.CatFile, the batched reader: one left before its answers are all
read (a caller's error, an early stop) ends with its block, never waits on git."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import git
from vibegit.infra import git as vgit


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
