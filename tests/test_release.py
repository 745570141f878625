"""A release anyone can install: the sdist and wheel build, their metadata
passes the package index's checks, and the wheel installed into a fresh
virtualenv runs ``vibegit --version`` and the whole demo."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from vibegit import __version__

ROOT = Path(__file__).resolve().parent.parent
NAME = "vibegit-state"  # the distribution's name on the package index; the command and package stay vibegit


def run(*args: str | Path, cwd: Path = ROOT) -> str:
    proc = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True)
    assert proc.returncode == 0, f"{args}: {proc.stdout[-2000:]}{proc.stderr[-3000:]}"
    return proc.stdout


@pytest.mark.slow
def test_the_release_builds_checks_and_runs_the_demo_from_a_fresh_virtualenv(tmp_path: Path) -> None:
    """One test, not two: two builds of one source tree at once would race in its egg-info."""
    dist = tmp_path / "dist"
    run(sys.executable, "-m", "build", "--outdir", dist, ROOT)
    stem = NAME.replace("-", "_")
    wheel, sdist = dist / f"{stem}-{__version__}-py3-none-any.whl", dist / f"{stem}-{__version__}.tar.gz"
    assert wheel.is_file() and sdist.is_file(), sorted(p.name for p in dist.iterdir())
    run(sys.executable, "-m", "twine", "check", "--strict", wheel, sdist)
    with zipfile.ZipFile(wheel) as whl:
        names = set(whl.namelist())
        meta = whl.read(f"{stem}-{__version__}.dist-info/METADATA").decode()
    assert f"Name: {NAME}\n" in meta and f"Version: {__version__}\n" in meta
    assert "Provides-Extra: mcp" in meta and "License-Expression: MIT" in meta
    assert "vibegit/infra/shims/lib.sh" in names  # the hook shims' pieces ship
    assert f"{stem}-{__version__}.data/scripts/vibegit-hook" in names  # the pre-commit framework's entry
    # The command is bin/vibegit, not an entry point's generated script (whose "import re" costs every start).
    assert f"{stem}-{__version__}.data/scripts/vibegit" in names
    assert f"{stem}-{__version__}.dist-info/entry_points.txt" not in names
    with tarfile.open(sdist) as tar:
        files = {m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name}
    assert {"LICENSE", "CHANGELOG.md", "README.md", "docs/commands.md"} <= files
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"## {__version__}" in changelog, "the CHANGELOG has this version's section"

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv)
    python = venv / "bin" / "python"
    run(python, "-m", "pip", "install", "-q", wheel)  # its dependencies from the package index
    assert run(venv / "bin" / "vibegit", "--version").strip() == f"vibegit {__version__}"
    story = run(venv / "bin" / "vibegit", "demo", cwd=tmp_path)
    assert "## 🔄 Session recovery" in story and "commit blocked" in story
