"""The secret scan's record of what it already read (each object scanned
once in its life) is only a shortcut: a damaged, foreign or hostile record
means a rescan, never a crash or a missed credential."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import Machines, git, remote_with_laptop
from vibegit.core import credentials
from vibegit.infra import git as vgit
from vibegit.infra import scanned

GHP = "ghp_" + "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4"


def record(laptop: Path) -> Path:
    return Path(git(laptop, "rev-parse", "--git-common-dir")).resolve() / "vibegit.scanned"


def test_what_was_scanned_clean_is_recorded_and_a_hit_never_is(tmp_path: Path, m: Machines) -> None:
    _, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    assert m.ok("laptop", laptop, "secrets", "check").code == 0
    clean = record(laptop).read_text().splitlines()
    assert clean and all(len(line.split(" ")) >= 2 for line in clean)  # a check, then the ids it covers
    (laptop / "src" / "app.py").write_text(f"TOKEN = '{GHP}'\n")
    m.ok("laptop", laptop, "checkpoint")
    for _ in range(2):  # found again each time: a hit is never recorded
        check = m("laptop", laptop, "secrets", "check")
        assert check.code == 1 and "src/app.py:1" in check.err
    assert GHP not in record(laptop).read_text()  # it names objects, never values


def test_a_damaged_or_forged_record_means_a_rescan(tmp_path: Path, m: Machines) -> None:
    _, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    (laptop / "src" / "app.py").write_text(f"TOKEN = '{GHP}'\n")
    m.ok("laptop", laptop, "checkpoint")
    tree = git(laptop, "rev-parse", "vibegit/state^{tree}")
    blobs = git(laptop, "ls-tree", "-r", "--format=%(objectname)", tree).split()
    path = record(laptop)
    damaged = [
        b"\0\xff garbage\n" + b"x" * 5000,
        "".join(f"0123456789abcdef {oid}\n" for oid in blobs).encode(),  # wrong checks
        f"0123456789abcdef {' '.join(blobs)}\n".encode(),
        "".join(f"{oid}\n{oid[:20]} \n" for oid in blobs).encode(),  # cut short
    ]
    for data in damaged:
        path.write_bytes(data)
        check = m("laptop", laptop, "secrets", "check")
        assert check.code == 1 and "src/app.py:1" in check.err, data[:40]
    path.unlink()
    os.symlink(tmp_path / "elsewhere", path)  # a link is not followed, not written through
    check = m("laptop", laptop, "secrets", "check")
    assert check.code == 1 and "src/app.py:1" in check.err
    assert not (tmp_path / "elsewhere").exists()
    path.unlink()
    path.mkdir()  # not even a file
    check = m("laptop", laptop, "secrets", "check")
    assert check.code == 1 and "src/app.py:1" in check.err


def test_each_line_is_believed_whole_or_not_at_all(
    tmp_path: Path, m: Machines, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line covers the ids written with it: cut short, or changed in one id,
    none of them is believed; the other lines still are. A line of the first
    format (``<oid> <check>``) is not believed either."""
    from vibegit.infra import git as vgit
    from vibegit.infra import scanned

    _, laptop = remote_with_laptop(tmp_path)
    monkeypatch.chdir(laptop)
    repo = vgit.find_repo()
    monkeypatch.setattr(scanned, "LINE", 3)
    ids = [f"{i:040x}" for i in range(1, 8)]
    scanned.add(repo, [*ids, "not an id", "../x"])
    lines = record(laptop).read_text().splitlines()
    assert len(lines) == 3 and set(scanned.load(repo)) == set(ids)
    record(laptop).write_text(f"{lines[0]}\n{lines[1][:-5]}\n{lines[2].replace('7', '8')}\n")
    assert set(scanned.load(repo)) == set(ids[:3])
    old = ids[0] + " " + hashlib.sha256(scanned.rules_key() + ids[0].encode()).hexdigest()[:16]
    record(laptop).write_text(old + "\n")
    assert not scanned.load(repo)
    # vibegit 0.2.0's record (sha256, its own key): scanned again, once, by this version's
    key = hashlib.sha256(b"vibegit-scanned 2\0" + Path(credentials.__file__).read_bytes()).digest()
    record(laptop).write_text(f"{hashlib.sha256(key + ids[0].encode()).hexdigest()[:16]} {ids[0]}\n")
    assert not scanned.load(repo)


_HEXISH = st.text(st.sampled_from("0123456789abcdefA x"), min_size=38, max_size=66)
_IDS = st.lists(
    st.one_of(
        st.sampled_from(["a" * 40, "0" * 40, "f" * 64]), st.binary(min_size=20, max_size=20).map(bytes.hex), _HEXISH
    ),
    min_size=1,
    max_size=6,
)


@settings(max_examples=300, deadline=None)
@given(_IDS)
def test_a_line_is_taken_whole_only_when_every_id_is_one(ids: list[str]) -> None:
    whole, every = scanned._only_ids(" ".join(ids), len(ids)), all(vgit.is_oid(x) for x in ids)
    assert every or not whole  # never a line that holds anything else
    assert whole or not every or len({len(x) for x in ids}) > 1  # the ids of one repository: one width
    kept = [x for packed in scanned.lines(ids) for x in scanned.ids_of(packed).split(" ")]
    # whatever the look said, only the ids are kept (those of each size on lines of their own)
    assert sorted(kept) == sorted(x for x in ids if vgit.is_oid(x))
