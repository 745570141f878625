"""infra/fs.py: every write vibegit makes, and never through a symbolic link."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from vibegit.errors import BadInput
from vibegit.infra import fs


@pytest.fixture
def top(tmp_path: Path) -> Path:
    (tmp_path / "top" / "dir").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret").write_text("secret\n")
    return tmp_path / "top"


def test_write_is_atomic_keeps_the_mode_and_makes_directories(top: Path) -> None:
    fs.write(top, "a/b/c.txt", b"one", 0o755)
    fs.write(top, "a/b/c.txt", b"two")
    path = top / "a" / "b" / "c.txt"
    assert path.read_bytes() == b"two" and path.stat().st_mode & 0o777 == 0o755
    assert os.listdir(path.parent) == ["c.txt"]  # no scratch file left
    fs.append(top, "a/log", b"x\n")
    fs.append(top, "a/log", b"y\n")
    assert (top / "a" / "log").read_bytes() == b"x\ny\n"
    assert fs.read(top, "a/log", 100) == b"x\ny\n" and fs.read(top, "a/none", 100) is None


@pytest.mark.parametrize("where", ["link", "link/inner", "dir/link", "dir/link/deeper/file"])
def test_no_write_follows_a_link_anywhere_on_the_way(top: Path, where: str) -> None:
    outside = top.parent / "outside"
    (top / "link").symlink_to(outside, target_is_directory=True)
    (top / "dir" / "link").symlink_to(outside / "secret")
    for attempt in (
        lambda: fs.write(top, where, b"pwned"),
        lambda: fs.append(top, where, b"pwned"),
        lambda: fs.read(top, where, 100),
        lambda: fs.symlink(top, where + "/x", "/"),
    ):
        with pytest.raises(BadInput, match="symbolic link"):
            attempt()
    assert sorted(os.listdir(outside)) == ["secret"] and (outside / "secret").read_text() == "secret\n"


def test_removing_a_link_removes_the_link_only(top: Path) -> None:
    outside = top.parent / "outside"
    (top / "dir" / "to-file").symlink_to(outside / "secret")
    (top / "dir" / "to-dir").symlink_to(outside, target_is_directory=True)
    assert fs.remove(top, "dir/to-file") and not fs.remove(top, "dir/to-file")
    fs.remove_tree(top, "dir")
    assert not (top / "dir").exists() and (outside / "secret").read_text() == "secret\n"


def test_a_copy_keeps_links_as_links_and_is_verified(top: Path, tmp_path: Path) -> None:
    (top / "dir" / "f").write_text("f\n")
    (top / "dir" / "f").chmod(0o755)
    (top / "dir" / "l").symlink_to("../../outside/secret")
    backup = tmp_path / "backup"
    backup.mkdir()
    fs.copy(top, "dir", backup)
    assert fs.inventory(top, "dir") == fs.inventory(backup, "dir")
    assert os.readlink(backup / "dir" / "l") == "../../outside/secret"
    (backup / "dir" / "f").write_text("changed\n")
    assert fs.inventory(top, "dir") != fs.inventory(backup, "dir")


def test_side_files_never_replace_an_older_one(top: Path) -> None:
    assert fs.free_name(top, "dir/k.md", ".edited") == "dir/k.md.edited"
    fs.write(top, "dir/k.md.edited", b"first")
    (top / "dir" / "k.md.edited.2").symlink_to("/etc/passwd")
    assert fs.free_name(top, "dir/k.md", ".edited", b"first") is None  # the same edit is already kept
    assert fs.free_name(top, "dir/k.md", ".edited", b"second") == "dir/k.md.edited.3"


@pytest.mark.parametrize("rel", ["../x", "a/../../x", "/etc/passwd", "a\0b"])
def test_paths_cannot_climb_out(top: Path, rel: str) -> None:
    with pytest.raises(BadInput):
        fs.write(top, rel, b"x")
