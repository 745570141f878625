"""寸止: only a person completes, aborts or unlocks a workflow.

In an agent's environment (one of the markers the agents set) neither
``--yes`` nor an answer piped to the question counts: the command refuses in
one line telling the agent to ask the user, and nothing is recorded. A real
terminal with no marker asks; outside any agent ``--yes`` works for scripts.
The record says how the decision was given."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import VG, git, start_workflow, state_ref
from vibegit.core.agents import MARKERS

DECISIONS = [("complete",), ("abort",), ("unlock", "--reason", "stuck")]


def _ready(vg: VG, verb: str) -> None:
    start_workflow(vg)
    if verb == "complete":
        for task in ("T-001", "T-002", "T-003"):
            vg("task", "done", task)


@pytest.mark.parametrize("marker", MARKERS)
@pytest.mark.parametrize("decision", DECISIONS, ids=lambda d: d[0])
@pytest.mark.parametrize("how", ["piped", "--yes"])
def test_an_agent_cannot_decide_for_the_user(
    repo: Path, vg: VG, monkeypatch: pytest.MonkeyPatch, marker: str, decision: tuple[str, ...], how: str
) -> None:
    _ready(vg, decision[0])
    before = state_ref(repo)
    monkeypatch.setenv(marker, "1")
    result = vg(*decision, "--yes", input="y\n") if how == "--yes" else vg(*decision, input="y\n")
    assert result.code == 1, result.out + result.err
    assert state_ref(repo) == before  # nothing recorded
    [line] = result.err.strip().splitlines()
    assert marker in line and "ask them to run 'vibegit " + decision[0] in line and "MCP" in line


@pytest.mark.parametrize("decision", DECISIONS, ids=lambda d: d[0])
def test_outside_an_agent_yes_works_for_scripts_and_is_recorded(repo: Path, vg: VG, decision: tuple[str, ...]) -> None:
    _ready(vg, decision[0])
    assert vg(*decision, "--yes").code == 0
    body = git(repo, "log", "-1", "--format=%B", "vibegit/state")
    assert "Vibegit-Confirmation: confirmation skipped with --yes (no agent)" in body


def test_unlock_asks_and_a_no_changes_nothing(repo: Path, vg: VG) -> None:
    start_workflow(vg)
    before = state_ref(repo)
    declined = vg("unlock", input="n\n")
    assert declined.code == 1 and "unlock not confirmed" in declined.err and state_ref(repo) == before
    assert vg("unlock", input="").code == 1 and state_ref(repo) == before  # end of input is a no


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_a_real_terminal_asks_and_the_record_says_so(repo: Path, vg: VG) -> None:
    start_workflow(vg)
    env = {k: v for k, v in os.environ.items() if k not in MARKERS}
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "vibegit", "abort"],
        cwd=repo,
        stdin=follower,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    os.close(follower)
    os.write(leader, b"y\n")  # typed ahead: the terminal keeps it until the question reads it
    _out, err = proc.communicate(timeout=30)
    os.close(leader)
    assert proc.returncode == 0, err
    body = git(repo, "log", "-1", "--format=%B", "vibegit/state")
    assert "Vibegit-Confirmation: confirmed on the terminal" in body


@pytest.mark.parametrize(
    "decision",
    [("complete", "--lesson", "bad \x1b[2J lesson"), ("unlock", "--reason", "bad \x00 reason")],
    ids=lambda d: d[0],
)
def test_bad_input_is_said_before_anyone_is_asked(repo: Path, vg: VG, decision: tuple[str, ...]) -> None:
    _ready(vg, decision[0])
    before = state_ref(repo)
    result = vg(*decision, input="y\n")
    assert result.code == 2 and "[y/N]" not in result.err and state_ref(repo) == before, result.err
