"""The lock check's quick path (handlers/quicklock.py) against the full check.

It may only ever say "blocked", in the full check's words, and only where
the full check blocks too: its YAML reader returns what PyYAML reads or
gives up (tests/test_plainyaml.py), and every case it does not know goes to
the full check."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import VG, commit, commit_state, git, run_git, start_workflow, workflow_path
from vibegit.handlers import lockcheck, quicklock
from vibegit.infra import git as vgit
from vibegit.infra.formats.yamldoc import YamlDoc
from vibegit.infra.plainyaml import read_yaml


def test_the_state_files_vibegit_writes_are_read(hooked: Path, vg: VG) -> None:
    start_workflow(vg, tasks=("Data model: it's [x] done, 50% — 数据模型", "Login API"))
    for name in ("session.yaml", "workflow.lock"):
        text = git(hooked, "show", workflow_path(hooked, name))
        assert read_yaml(text.encode()) == YamlDoc(text.encode(), name).data
    text = git(hooked, "show", "vibegit/state:index.yaml")
    assert read_yaml(text.encode()) == YamlDoc(text.encode(), "index.yaml").data


# -- the decision: the full check's, in its words --------------------------------------


@pytest.fixture
def hooked(repo: Path, vg: VG) -> Path:
    assert vg("install").code == 0
    return repo


def _both(repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> tuple:
    """(quick code, its stderr), (the full check's code, its stderr) for a commit on HEAD's branch."""
    monkeypatch.chdir(repo)
    capsys.readouterr()
    quick = quicklock.check("pre-commit", [])
    said = capsys.readouterr().err
    r = vgit.find_repo()
    block = lockcheck.blocking(r, vgit.head_branch(r))
    full = lockcheck.refuse(r, block, "commit …", None, None, record=False) if block else 0
    return (quick, said), (full, capsys.readouterr().err)


def test_a_held_lock_blocks_in_the_full_checks_words(
    hooked: Path, vg: VG, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    start_workflow(vg, tasks=("Data model: it's [x] done, 50% — 数据模型", "Login API"))
    (quick, said), (full, told) = _both(hooked, monkeypatch, capsys)
    assert quick == full == 1 and said == told
    assert "task T-002: Login API" in said and "phase E (Execute), step 4.3" in said
    vg("task", "done", "T-002")  # no current task
    (quick, said), (full, told) = _both(hooked, monkeypatch, capsys)
    assert quick == full == 1 and said == told and "no current task" in said
    git(hooked, "config", "vibegit.lang", "zh")  # git config read in Python: no hint from sh
    (quick, said), (full, told) = _both(hooked, monkeypatch, capsys)
    assert quick == full == 1 and said == told and "提交被阻止" in said


@pytest.mark.parametrize(
    "case",
    [
        "paused",
        "other-branches",
        "never",
        "detached",
        "allow",
        "hand-edited",
        "another-host",
        "bad-setting",
        "bidi-title",
        "huge-board",
    ],
)
def test_every_other_case_goes_to_the_full_check(
    case: str, hooked: Path, vg: VG, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    start_workflow(vg)
    if case == "paused":
        vg("pause")
    elif case in ("other-branches", "never"):
        git(hooked, "config", "vibegit.blockCommits", case)
    elif case == "detached":
        git(hooked, "checkout", "-q", "--detach")
    elif case == "allow":
        monkeypatch.setenv("VIBEGIT_ALLOW", "1")
    elif case == "hand-edited":  # valid YAML, not in the form vibegit writes
        path = workflow_path(hooked, "workflow.lock").split(":", 1)[1]
        commit_state(hooked, {path: 'locked: true\nworkflow: "vibe-code"\n'})
    elif case in ("bidi-title", "huge-board"):  # a hostile push: the full check refuses to read it
        path = workflow_path(hooked, "kanban.md").split(":", 1)[1]
        board = "## Doing\n- [~] T-002: Login\u202e API\n" if case == "bidi-title" else "#" * (2 << 20)
        commit_state(hooked, {path: board})
    elif case == "another-host":
        monkeypatch.setenv("VIBEGIT_HOST", "elsewhere")
    else:
        git(hooked, "config", "vibegit.blockCommits", "sometimes")
    monkeypatch.chdir(hooked)
    assert quicklock.check("pre-commit", []) is None
    assert capsys.readouterr().err == ""


def test_a_real_commit_is_refused_by_the_quick_path_without_yaml(hooked: Path, vg: VG) -> None:
    start_workflow(vg)
    probe = (  # what the check imports (site may have loaded pathlib already: an editable install's finder)
        "import sys\nsite = set(sys.modules)\nfrom vibegit.main import main\ncode = main(['hook', 'pre-commit'])\n"
        "new = {m.split('.')[0] for m in set(sys.modules) - site}\n"
        "print(code, sorted(new & {'yaml', 'dataclasses', 'subprocess', 'pathlib', 're', 'typing'}))\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], cwd=hooked, capture_output=True, text=True)
    assert proc.stdout.strip() == "1 []", proc.stderr
    assert "holds the lock of main" in proc.stderr
    result = commit(hooked, "blocked")
    assert result.code != 0 and result.err.count("commit blocked") == 1, result.err


def test_a_fast_forward_and_a_new_branch_still_pass(hooked: Path, vg: VG) -> None:
    git(hooked, "branch", "ahead")
    git(hooked, "checkout", "-q", "ahead")
    assert commit(hooked, "on ahead").code == 0
    git(hooked, "checkout", "-q", "main")
    start_workflow(vg)
    assert run_git(hooked, "merge", "-q", "--ff-only", "ahead").code == 0  # a commit a ref already reaches
    assert commit(hooked, "new").code != 0


def test_the_updates_stay_on_stdin_for_the_full_check(hooked: Path, vg: VG, monkeypatch: pytest.MonkeyPatch) -> None:
    start_workflow(vg)
    vg("pause")
    monkeypatch.chdir(hooked)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"0 1 refs/heads/main\n")))
    assert quicklock.check("reference-transaction", ["prepared"]) is None
    assert sys.stdin.read() == "0 1 refs/heads/main\n"


def test_the_quick_paths_literals_are_the_models() -> None:
    """The quick path keeps what it reads as literals (no model import on the hook path): the same values."""
    from vibegit.core.model import ACTIVE, Status
    from vibegit.core.settings import Settings
    from vibegit.infra.store import FORMAT

    assert tuple(s.value for s in Status) == quicklock._STATUSES
    assert tuple(s.value for s in ACTIVE) == quicklock._ACTIVE
    conf = Settings()
    assert (conf.state_branch, conf.block_commits, conf.lang) == quicklock._DEFAULTS
    assert str(FORMAT).encode() == quicklock._FORMAT
