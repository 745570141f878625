"""Hostile inputs from tests/reliability/corpus/: each is refused with exit
1 or 2 and one line naming the problem; no traceback; the state branch and
the user's files are unchanged; nothing hostile is executed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import MIRROR, VG, commit_state, init_repo, state_ref, user_view, vg_here, workflow_dir
from vibegit.errors import VibegitError
from vibegit.infra.formats import PARSERS

CORPUS = sorted((Path(__file__).parent / "corpus").iterdir())
TARGETS = ("session.yaml", "kanban.md", "active_context.md", "workflow.lock", "memory.yaml", "args.json")


def target(case: Path) -> str:
    return next(t for t in TARGETS if case.name.endswith("." + t))


def rejected_by_parser(case: Path) -> bool:
    name = target(case)
    if name not in PARSERS:
        return False
    try:
        PARSERS[name](case.read_bytes(), name)
    except VibegitError:
        return True
    return False


def check_refused(repo: Path, before: tuple, code: int, err: str) -> str:
    assert code in (1, 2), err
    line = err.strip()
    assert line and len(line.splitlines()) == 1 and "Traceback" not in line, line
    assert (state_ref(repo), user_view(repo)) == before
    assert not (repo / "pwned").exists() and not list(repo.rglob("touch_pwned"))
    return line


_TEMPLATE: dict[str, Path] = {}


@pytest.fixture
def repo(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository with a workflow running and one task: a copy of one made once per process."""
    if "repo" not in _TEMPLATE:
        template = init_repo(tmp_path_factory.mktemp("template") / "repo")
        for args in (("start", "vibe-code", "--goal", "g"), ("task", "add", "T-001", "one")):
            assert vg_here(*args, cwd=template).code == 0
        _TEMPLATE["repo"] = template
    return Path(shutil.copytree(_TEMPLATE["repo"], tmp_path / "repo", symlinks=True))


def test_the_corpus_is_big_enough() -> None:
    assert len(CORPUS) >= 50
    assert {target(c) for c in CORPUS} == set(TARGETS)


@pytest.mark.parametrize("case", CORPUS, ids=lambda p: p.name)
def test_hostile_input_is_refused(repo: Path, vg: VG, case: Path) -> None:
    before = (state_ref(repo), user_view(repo))
    name = target(case)
    if name == "args.json":
        result = vg(*json.loads(case.read_text()))
    else:
        (repo / MIRROR / name).write_bytes(case.read_bytes())
        result = vg("task", "add", "T-NEW", "x")
    line = check_refused(repo, before, result.code, result.err)
    if name != "args.json":
        assert f"{MIRROR}/{name}" in line


@pytest.mark.parametrize("case", [c for c in CORPUS if rejected_by_parser(c)], ids=lambda p: p.name)
def test_hostile_state_on_the_branch_is_refused(repo: Path, vg: VG, case: Path) -> None:
    """The same bytes arriving on the state branch (say, from a push elsewhere)."""
    name = target(case)
    path = name if name == "memory.yaml" else f"{workflow_dir(repo)}/{name}"
    commit_state(repo, {path: case.read_bytes()}, "hostile")
    before = (state_ref(repo), user_view(repo))
    result = vg("task", "add", "T-NEW", "x")
    line = check_refused(repo, before, result.code, result.err)
    assert f"vibegit/state:{path}" in line or f"vibegit/state:{path.rsplit('/', 1)[0]}/" in line
    assert vg("status").code == 2


def test_a_fifty_megabyte_value(repo: Path, vg: VG) -> None:
    before = (state_ref(repo), user_view(repo))
    session = repo / MIRROR / "session.yaml"
    session.write_text(session.read_text().replace("goal: g", "goal: " + "x" * (50 << 20)))
    line = check_refused(repo, before, *_run(vg, "task", "add", "T-NEW", "x"))
    assert "too large" in line


def test_a_mirror_file_linked_outside(repo: Path, vg: VG, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.md"
    outside.write_text("# Kanban\n\n## Todo\n- [ ] T-9: planted\n")
    kanban = repo / MIRROR / "kanban.md"
    kanban.unlink()
    kanban.symlink_to(outside)
    before = (state_ref(repo), user_view(repo))
    line = check_refused(repo, before, *_run(vg, "task", "add", "T-NEW", "x"))
    assert "symbolic link" in line
    assert outside.read_text().endswith("planted\n")


def test_the_mirror_directory_linked_outside(repo: Path, vg: VG, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    (repo / MIRROR).rename(elsewhere)
    (repo / MIRROR).symlink_to(elsewhere, target_is_directory=True)
    before = (state_ref(repo), user_view(repo))
    line = check_refused(repo, before, *_run(vg, "task", "add", "T-NEW", "x"))
    assert "symbolic link" in line


def _run(vg: VG, *args: str) -> tuple[int, str]:
    result = vg(*args)
    return result.code, result.err


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(st.sampled_from(sorted(PARSERS)), st.binary(max_size=2000))
def test_every_parser_with_arbitrary_bytes(name: str, data: bytes) -> None:
    try:
        PARSERS[name](data, name)
    except VibegitError as err:
        assert err.code == 2 and "\n" not in str(err) and str(err).startswith(name)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(PARSERS)), st.text(max_size=500))
def test_every_parser_with_arbitrary_text(name: str, text: str) -> None:
    try:
        PARSERS[name](text.encode("utf-8", "surrogatepass"), name)
    except VibegitError as err:
        assert err.code == 2 and "\n" not in str(err) and str(err).startswith(name)
