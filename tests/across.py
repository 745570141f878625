"""Helpers for tests across machines: a bare remote on disk and clones of it,
each clone a "machine" named by VIBEGIT_HOST."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import VG, Result, git, init_repo


def remote_with_laptop(tmp_path: Path) -> tuple[Path, Path]:
    """A bare remote and a first clone ("laptop") with one pushed commit on main."""
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    laptop = init_repo(tmp_path / "laptop")
    git(laptop, "remote", "add", "origin", str(remote))
    git(laptop, "push", "-q", "-u", "origin", "main")
    return remote, laptop


def clone(remote: Path, path: Path, *args: str) -> Path:
    git(path.parent, "clone", "-q", *args, str(remote), str(path))
    return path


class Machines:
    """Run vibegit in process as one machine or another."""

    def __init__(self, vg: VG, monkeypatch: pytest.MonkeyPatch) -> None:
        self.vg = vg
        self.monkeypatch = monkeypatch

    def __call__(self, host: str, where: Path, *args: str, input: str = "") -> Result:
        self.monkeypatch.setenv("VIBEGIT_HOST", host)
        return self.vg(*args, cwd=where, input=input)

    def ok(self, host: str, where: Path, *args: str) -> Result:
        result = self(host, where, *args)
        assert result.code == 0, (host, args, result.out, result.err)
        return result


def subjects(path: Path, count: int = 500) -> list[str]:
    return git(path, "log", f"-n{count}", "--format=%H %s", "refs/heads/vibegit/state").splitlines()
