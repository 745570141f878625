"""The lock check's quick path (handlers/quicklock.py) against the full check.

It may only ever say "blocked", in the full check's words, and only where
the full check blocks too: its YAML reader returns what PyYAML reads or
gives up, and every case it does not know goes to the full check."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import VG, commit, commit_state, git, run_git, start_workflow, workflow_path
from vibegit.handlers import lockcheck, quicklock
from vibegit.handlers.quicklock import Unsure, read_yaml
from vibegit.infra import git as vgit
from vibegit.infra.formats.yamldoc import YamlDoc, dump

# -- the reader: PyYAML's answer, or none --------------------------------------------


def _pyyaml(text: str) -> object:
    try:
        return YamlDoc(text.encode(), "x.yaml").data
    except Exception:
        return Unsure


def _quick(text: str) -> object:
    try:
        return read_yaml(text.encode())
    except Unsure:
        return Unsure


keys = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True)
texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)
scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-5, max_value=10**6), texts)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)),
    max_leaves=12,
)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(keys, values, min_size=1, max_size=6))
def test_what_vibegit_dumps_reads_as_pyyaml_reads_it(data: dict) -> None:
    text = dump(data)
    got = _quick(text)
    assert got is Unsure or got == _pyyaml(text), text


yamlish = st.lists(
    st.text(alphabet=" -:#'\"[]{}&*!|>%@`~,?abnoty0129\t\r/._é\u202e", max_size=14).map(lambda s: s.lstrip("\n")),
    min_size=1,
    max_size=6,
).map("\n".join)


@settings(max_examples=1500, suppress_health_check=[HealthCheck.too_slow])
@given(yamlish)
def test_any_text_reads_as_pyyaml_reads_it_or_not_at_all(text: str) -> None:
    got = _quick(text)
    assert got is Unsure or got == _pyyaml(text), text


@pytest.mark.parametrize(
    "text",
    [
        "a: yes\n",  # YAML 1.1 booleans, octal and sexagesimal numbers, floats, timestamps
        "a: On\n",
        "a: 010\n",
        "a: 1:30\n",
        "a: 1.5\n",
        "a: 2025-01-01\n",
        'a: "x"\n',  # double quotes, anchors, aliases, tags, block scalars, flow collections
        "a: &x 1\nb: *x\n",
        "a: !!str 1\n",
        "a: |\n  x\n",
        "a: {b: 1}\n",
        "a: x\n  y\n",  # a plain scalar over two lines
        "a: 1\na: 2\n",  # a key twice
        "a:\tb\n",
        "a: b # c\n",
        "\ufeffa: b\n",
        "a: b\r\n",
        "- a\n",  # not a mapping
        "True: x\n",
    ],
)
def test_what_it_does_not_know_it_leaves_to_the_full_check(text: str) -> None:
    assert _quick(text) is Unsure


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
