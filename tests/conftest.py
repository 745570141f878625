"""Hermetic test set-up (after git-revise's hermetic_seal) and shared helpers.

Every test gets its own HOME and git config, fixed identities and no GIT_*
variables from outside; repositories are real and live in tmp_path.
"""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from vibegit.main import main

MIRROR = "project_document/.ai_state"


@pytest.fixture(autouse=True)
def hermetic(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("home")
    for name in list(os.environ):
        if name.startswith("GIT_") or name.startswith("VIBEGIT_"):
            monkeypatch.delenv(name)
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".state"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    monkeypatch.setenv("GIT_TERMINAL_PROMPT", "0")
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "Test User")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "test@example.com")
        monkeypatch.setenv(f"GIT_{role}_DATE", "2025-01-12T10:00:00Z")
    # The hooks installed by tests must find this vibegit.
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    return home


def git(cwd: Path, *args: str, input: str | None = None, check: bool = True) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, input=input, capture_output=True, text=True)
    if check and proc.returncode:
        raise AssertionError(f"git {' '.join(args)} failed ({proc.returncode}): {proc.stderr}")
    return proc.stdout.strip()


def init_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    (path / "README.md").write_text("# demo\n")
    (path / "src").mkdir()
    (path / "src" / "app.py").write_text("def login():\n    return None\n\n\ndef logout():\n    pass\n")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "initial")
    return path


def bare_origin(repo: Path, tmp_path: Path) -> Path:
    """A bare repository on disk as ``repo``'s origin (the "remote" of push tests)."""
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    return bare


def make_dirty(path: Path) -> None:
    """Staged, unstaged and untracked work, as a user mid-task has."""
    (path / "staged.txt").write_text("staged\n")
    git(path, "add", "staged.txt")
    (path / "src" / "app.py").write_text("def login():\n    return 'WIP'\n\n\ndef logout():\n    pass\n")
    (path / "notes.txt").write_text("untracked\n")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return init_repo(tmp_path / "repo")


@pytest.fixture
def dirty_repo(repo: Path) -> Path:
    make_dirty(repo)
    return repo


@dataclass
class Result:
    code: int
    out: str
    err: str


VG = Callable[..., Result]


@pytest.fixture
def vg(repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> VG:
    """Run vibegit in process: ``vg("task", "add", "T-1", "x", cwd=..., input=...)``."""

    def run(*args: str, cwd: Path | None = None, input: str = "") -> Result:
        monkeypatch.chdir(cwd or repo)
        monkeypatch.setattr(sys, "stdin", io.StringIO(input))
        capsys.readouterr()
        code = main(list(args))
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


def vg_proc(*args: str, cwd: Path, input: str = "", env: dict[str, str] | None = None) -> Result:
    """Run the installed vibegit as a separate process."""
    proc = subprocess.run(
        [sys.executable, "-m", "vibegit", *args], cwd=cwd, input=input, capture_output=True, text=True, env=env
    )
    return Result(proc.returncode, proc.stdout, proc.stderr)


def state_ref(path: Path) -> str:
    return git(path, "rev-parse", "-q", "--verify", "refs/heads/vibegit/state", check=False)


def user_view(path: Path) -> tuple[str, ...]:
    """What vibegit must never change: HEAD, the index file, status, file contents."""
    git_dir = Path(git(path, "rev-parse", "--absolute-git-dir"))
    index = git_dir / "index"
    index_hash = hashlib.sha256(index.read_bytes()).hexdigest() if index.exists() else "-"
    head = git(path, "rev-parse", "-q", "--verify", "HEAD", check=False)
    symbolic = git(path, "symbolic-ref", "-q", "HEAD", check=False)
    status = git(path, "--no-optional-locks", "status", "--porcelain", "-uall")
    files = []
    for f in sorted(path.rglob("*")):
        rel = f.relative_to(path).as_posix()
        if rel.startswith((".git/", MIRROR)) or rel == ".git" or not f.is_file():
            continue
        files.append(f"{rel}:{hashlib.sha256(f.read_bytes()).hexdigest()[:16]}")
    return (head, symbolic, index_hash, status, *files)
