"""Fixtures: a hermetic seal (after git-revise's hermetic_seal), real
repositories in tmp_path, vibegit run in process. Helpers are in helpers.py.

Every test gets its own HOME and git config, fixed identities and no GIT_*
variables from outside.
"""

from __future__ import annotations

import io
import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

from tests.helpers import VG, Machines, Result, init_repo, make_dirty
from vibegit.core import messages
from vibegit.core.agents import MARKERS
from vibegit.main import main

collect_ignore_glob = ["secrets_corpus/*"]  # the corpus's generator and its files are not tests

# No time limit on an example: these machines are noisy, and speed is the benchmarks' business.
settings.register_profile("vibegit", deadline=None)
settings.load_profile("vibegit")


def pytest_configure(config: pytest.Config) -> None:
    """Temporary repositories on a RAM disk when there is a roomy one: the tests
    write many small files, and on a disk the journal costs more than the tests.
    (``--basetemp DIR`` or TMPDIR still decide where; VIBEGIT_TEST_DISK=1 opts out.)"""
    if config.option.basetemp or os.environ.get("TMPDIR") or os.environ.get("VIBEGIT_TEST_DISK"):
        return
    try:
        shm = os.statvfs("/dev/shm")
    except OSError:
        return
    if shm.f_bavail * shm.f_frsize >= 2 << 30 and os.access("/dev/shm", os.W_OK):
        tempfile.tempdir = "/dev/shm"


@pytest.fixture(autouse=True)
def hermetic(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("home")
    for name in list(os.environ):
        if name.startswith("GIT_") or name.startswith("VIBEGIT_"):
            monkeypatch.delenv(name)
    for name in MARKERS:  # run inside an agent
        monkeypatch.delenv(name, raising=False)
    # The hooks git starts are Pythons too: let them keep the bytecode they compile, as an install does.
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".state"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))  # the trust store
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    monkeypatch.setenv("GIT_TERMINAL_PROMPT", "0")
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "Test User")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "test@example.com")
        monkeypatch.setenv(f"GIT_{role}_DATE", "2025-01-12T10:00:00Z")
    messages.reset()  # English, nothing forced: a test that calls the core directly sees no earlier test's --lang
    # The hooks installed by tests must find this vibegit.
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    return home


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return init_repo(tmp_path / "repo")


@pytest.fixture
def dirty_repo(repo: Path) -> Path:
    make_dirty(repo)
    return repo


@pytest.fixture
def vg(repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> VG:
    """Run vibegit in process: ``vg("task", "add", "T-1", "x", cwd=..., input=...)`` (or ``stdin=`` an object)."""

    def run(*args: str, cwd: Path | None = None, input: str = "", stdin: object = None) -> Result:
        monkeypatch.chdir(cwd or repo)
        monkeypatch.setattr(sys, "stdin", io.StringIO(input) if stdin is None else stdin)
        capsys.readouterr()
        code = main(list(args))
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


@pytest.fixture
def m(vg: VG, monkeypatch: pytest.MonkeyPatch) -> Machines:
    """vibegit in process as one machine or another (``m("laptop", path, ...)``)."""
    return Machines(vg, monkeypatch)
