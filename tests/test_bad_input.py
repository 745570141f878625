"""Bad input: one clear line naming what is wrong, exit 1 or 2, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import MIRROR, VG, git, start_workflow, state_ref, user_view


def refused(vg: VG, repo: Path, *args: str, code: int, words: tuple[str, ...]) -> str:
    before = (state_ref(repo), user_view(repo))
    result = vg(*args)
    assert result.code == code, (args, result.code, result.err)
    line = result.err.strip()
    assert len(line.splitlines()) == 1 and "Traceback" not in line, line
    for word in words:
        assert word in line, (word, line)
    assert (state_ref(repo), user_view(repo)) == before
    return line


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (("task", "done", "T-404"), 2, ("unknown task", "T-404", "T-001")),
        (("task", "start", "T-404"), 2, ("unknown task",)),
        (("task", "add", "T-001", "again"), 2, ("already exists",)),
        (("task", "add", "bad;id", "x"), 2, ("task id",)),
        (("task", "add", "T-2", "line\nbreak"), 2, ("one line",)),
        (("phase", "Z9"), 2, ("R1 I P E R2",)),
        (("checkpoint", "--file", "../outside.txt", "--line", "1"), 2, ("outside the repository",)),
        (("checkpoint", "--file", "/etc/passwd"), 2, ("outside the repository",)),
        (("checkpoint", "--file", "src/app.py", "--line", "99"), 2, ("--line 99", "src/app.py", "6 line")),
        (("checkpoint", "--file", "src/app.py", "--line", "0"), 2, ("--line 0",)),
        (("checkpoint", "--file", "missing.py"), 2, ("no such file",)),
        (("checkpoint", "--line", "3"), 2, ("--line needs --file",)),
        (("start", "other", "--goal", "g"), 1, ("cannot start", "vibe-code", "running")),
        (("context", "--answer", "3"), 2, ("--answer 3",)),
        (("context",), 2, ("--last",)),
        (("log", "-n", "0"), 2, ("-n 0",)),
        (("status", "--lang", "fr"), 2, ("--lang",)),
        (("task", "add"), 2, ("Missing argument",)),
        (("no-such-command",), 2, ("No such command",)),
        (("resume",), 0, ()),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(
    repo: Path, vg: VG, args: tuple[str, ...], code: int, words: tuple[str, ...]
) -> None:
    start_workflow(vg, goal="g", tasks=("one",), then=())
    if code == 0:  # resume while running here: a report, no event
        before = state_ref(repo)
        assert vg(*args).code == 0 and state_ref(repo) == before
        return
    refused(vg, repo, *args, code=code, words=words)


def test_illegal_transitions_name_the_state_and_the_way_out(repo: Path, vg: VG) -> None:
    line = refused(vg, repo, "task", "add", "T-1", "x", code=1, words=("no workflow", "vibegit start"))
    assert line.startswith("vibegit: ")
    start_workflow(vg, goal="g", tasks=("one",), then=())
    vg("pause")
    refused(vg, repo, "task", "done", "T-001", code=1, words=("paused", "vibegit resume"))
    vg("abort", "--yes")
    refused(vg, repo, "resume", code=1, words=("aborted",))
    refused(vg, repo, "complete", "--yes", code=1, words=("aborted",))


def test_outside_a_repository(tmp_path: Path, vg: VG) -> None:
    result = vg("status", cwd=tmp_path)
    assert result.code == 2 and "not inside a git repository" in result.err
    assert len(result.err.strip().splitlines()) == 1


@pytest.mark.parametrize("args", [["status"], ["task", "add", "T-1", "x"], ["doctor"]])
def test_a_deleted_current_directory(tmp_path: Path, args: list[str]) -> None:
    import os
    import shlex
    import subprocess
    import sys

    (tmp_path / "gone").mkdir()
    line = shlex.join([sys.executable, "-m", "vibegit", *args])
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    proc = subprocess.run(
        ["sh", "-c", f"cd gone && rmdir ../gone && exec {line}"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == "vibegit: the current directory no longer exists (deleted or moved): cd into a repository\n"


def test_a_bare_repository(tmp_path: Path, vg: VG) -> None:
    git(tmp_path, "init", "-q", "--bare", "b.git")
    result = vg("status", cwd=tmp_path / "b.git")
    assert result.code == 2 and "working tree" in result.err


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("session: [unclosed\n", ("session.yaml:2", "invalid YAML")),
        ("session: !!python/object/apply:os.system ['touch pwned']\nmode: {}\n", ("session.yaml:1", "invalid YAML")),
        ("a: &x [1]\nb: *x\n", ("aliases",)),
        ("session: {id: s}\nmode: {type: warp}\n", ("session.yaml:2", "mode.type", "warp")),
        ("session: {id: s}\nmode:\n  type: workflow\n  phase: Q\n", ("session.yaml:4", "mode.phase")),
        ("- just\n- a list\n", ("session.yaml:1", "mapping")),
    ],
)
def test_hand_edited_mirror_that_is_invalid(repo: Path, vg: VG, content: str, words: tuple[str, ...]) -> None:
    start_workflow(vg, goal="g", tasks=("one",), then=())
    (repo / MIRROR / "session.yaml").write_text(content)
    line = refused(vg, repo, "task", "add", "T-002", "two", code=2, words=words)
    assert f"{MIRROR}/session.yaml" in line
    assert not (repo / "pwned").exists()


def test_hand_edited_kanban_error_names_the_line(repo: Path, vg: VG) -> None:
    start_workflow(vg, goal="g", tasks=("one",), then=())
    kanban = repo / MIRROR / "kanban.md"
    kanban.write_text(kanban.read_text() + "\nthis is not a task\n")
    refused(vg, repo, "task", "done", "T-001", code=2, words=(f"{MIRROR}/kanban.md:", "expected a task line"))


def test_a_corrupted_state_branch_is_reported_with_file_and_line(repo: Path, vg: VG) -> None:
    start_workflow(vg, goal="g", tasks=("one",), then=())
    blob = git(repo, "hash-object", "-w", "--stdin", input="session: {id: s}\nmode: {type: nope}\n")
    tree = git(repo, "mktree", input=f"100644 blob {blob}\tsession.yaml\n")
    commit = git(repo, "commit-tree", tree, "-p", "vibegit/state", "-m", "hand-made")
    git(repo, "update-ref", "refs/heads/vibegit/state", commit)
    result = vg("status")
    assert result.code == 2 and "vibegit/state:session.yaml:2" in result.err


@pytest.mark.parametrize(
    ("key", "value"),
    [("vibegit.stateBranch", "bad..name"), ("vibegit.mirrorDir", "../x"), ("vibegit.blockCommits", "sometimes")],
)
def test_bad_settings(repo: Path, vg: VG, key: str, value: str) -> None:
    git(repo, "config", key, value)
    result = vg("start", "w", "--goal", "g")
    assert result.code == 2 and key in result.err and not state_ref(repo)


def test_an_unexpected_error_is_one_line_exit_3_and_a_log(
    repo: Path, vg: VG, monkeypatch: pytest.MonkeyPatch, hermetic: Path
) -> None:
    from vibegit.commands import status

    def broken(*args: object) -> int:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(status, "status", broken)
    result = vg("status")
    assert result.code == 3
    line = result.err.strip()
    assert len(line.splitlines()) == 1 and "disk on fire" in line and "error.log" in line
    log = hermetic / ".state" / "vibegit" / "error.log"
    assert "Traceback" in log.read_text() and "RuntimeError: disk on fire" in log.read_text()
