"""The secret scan's record of what it already read (each object scanned
once in its life) is only a shortcut: a damaged, foreign or hostile record
means a rescan, never a crash or a missed credential."""

from __future__ import annotations

import os
from pathlib import Path

from tests.helpers import Machines, git, remote_with_laptop

GHP = "ghp_" + "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4"


def record(laptop: Path) -> Path:
    return Path(git(laptop, "rev-parse", "--git-common-dir")).resolve() / "vibegit.scanned"


def test_what_was_scanned_clean_is_recorded_and_a_hit_never_is(tmp_path: Path, m: Machines) -> None:
    _, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    assert m.ok("laptop", laptop, "secrets", "check").code == 0
    clean = record(laptop).read_text().splitlines()
    assert clean and all(len(line.split(" ")) == 2 for line in clean)
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
        "".join(f"{oid} 0123456789abcdef\n" for oid in blobs).encode(),  # wrong checks
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
