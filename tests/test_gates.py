"""The quality gates run with the tests: lint, format, types, the layers.

So the one test command of the README (and .ci/run) checks them too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

pytestmark = pytest.mark.gates


@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "."],
        ["ruff", "format", "--check", "."],
        ["mypy"],  # strict on vibegit/core (pyproject.toml)
        ["lint-imports"],  # one-way layers, a pure core, no import cycles
    ],
    ids=["ruff", "ruff-format", "mypy", "import-linter"],
)
def test_gate(command: list[str]) -> None:
    tool = BIN / command[0]
    proc = subprocess.run(
        [str(tool) if tool.exists() else command[0], *command[1:]], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
