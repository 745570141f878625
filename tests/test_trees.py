"""Big trees: the report compares the snapshot with the working tree when
that is cheap (a small index) or asked, ``pause`` reuses the snapshot it just
took, and each command starts a known, small number of git processes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.helpers import VG, bare_origin, git
from vibegit.errors import GitError
from vibegit.infra import git as vgit
from vibegit.infra import snapshot

SAME = "matches the working tree"
DIFFERS = "differs from the working tree"
UNCHECKED = "not compared with the working tree"


def git_processes(vg: VG, monkeypatch: pytest.MonkeyPatch, trace: Path, *args: str) -> list[str]:
    """The git commands ``vibegit ARGS`` starts itself (their own children left out), sorted
    (some run at once)."""
    trace.unlink(missing_ok=True)
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(trace))
    try:
        assert vg(*args).code == 0
    finally:
        monkeypatch.delenv("GIT_TRACE2_EVENT")
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    argvs = [e["argv"][1:] for e in events if e["event"] == "start" and "/" not in e["sid"]]
    return sorted(argv[2] if argv[0] == "-C" else argv[0] for argv in argvs)  # git -C DIR COMMAND


def test_the_comparison_is_right_after_an_edit_a_touch_and_a_checkout(dirty_repo: Path, vg: VG) -> None:
    git(dirty_repo, "stash", "-q", "-u")
    git(dirty_repo, "checkout", "-q", "-b", "other")
    (dirty_repo / "README.md").write_text("# other\n")  # the same size as main's
    git(dirty_repo, "commit", "-q", "-am", "other readme")
    git(dirty_repo, "checkout", "-q", "main")
    git(dirty_repo, "stash", "pop", "-q")
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    assert vg("checkpoint").code == 0
    assert SAME in vg("status").out

    app = dirty_repo / "src" / "app.py"
    text = app.read_text()
    app.write_text(text.replace("WIP", "wip"))  # same size, same second: racily clean for git
    assert DIFFERS in vg("status").out
    app.write_text(text)
    later = app.stat().st_mtime + 5
    os.utime(app, (later, later))  # touched, content unchanged
    assert SAME in vg("status").out

    flow = json.loads(vg("status", "--json").out)["workflow_id"]
    git(dirty_repo, "checkout", "-q", "other")  # the uncommitted work comes along; README.md changes
    assert DIFFERS in vg("status", "--workflow", flow).out
    git(dirty_repo, "checkout", "-q", "main")
    assert SAME in vg("status").out
    (dirty_repo / "new.txt").write_text("untracked\n")
    assert DIFFERS in vg("status").out


def test_a_big_index_is_compared_only_when_asked(dirty_repo: Path, vg: VG, monkeypatch: pytest.MonkeyPatch) -> None:
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    assert vg("checkpoint", "--file", "src/app.py", "--line", "2").code == 0
    monkeypatch.setattr(snapshot, "COMPARE_LIMIT", 2)  # the index holds 3 entries
    out = vg("status").out
    assert f"{UNCHECKED} (3 files: 'vibegit status --compare')" in out and SAME not in out
    assert "`src/app.py:2`" in out  # the anchor is reported as before
    assert "未与工作区比较（3 个文件" in vg("status", "--lang", "zh").out
    assert SAME in vg("status", "--compare").out
    (dirty_repo / "notes.txt").write_text("changed\n")
    assert DIFFERS in vg("status", "--compare").out
    assert UNCHECKED in vg("status").out
    assert SAME in vg("pause").out  # the snapshot it just took: known without a scan, whatever the size
    assert UNCHECKED in vg("status").out


def test_an_unreadable_index_header_falls_back_to_comparing(dirty_repo: Path, vg: VG) -> None:
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    assert vg("checkpoint").code == 0
    repo = vgit.find_repo(dirty_repo)
    assert snapshot.tracked_files(repo) == 3
    index = dirty_repo / ".git" / "index"
    index.rename(dirty_repo / ".git" / "index.real")
    assert snapshot.tracked_files(repo) == 0  # no index: nothing tracked
    index.write_bytes(b"DIR")
    assert snapshot.tracked_files(repo) is None  # damaged: not trusted, git decides
    result = vg("status")
    assert result.code == 0 and not any(said in result.out for said in (SAME, DIFFERS, UNCHECKED))
    (dirty_repo / ".git" / "index.real").replace(index)
    assert SAME in vg("status").out


def test_git_processes_per_command(dirty_repo: Path, vg: VG, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    trace = tmp_path / "trace.json"
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    event = ["rev-parse", "config", "cat-file", "update-ref"]
    assert git_processes(vg, monkeypatch, trace, "task", "add", "T-1", "x") == sorted(event)
    assert git_processes(vg, monkeypatch, trace, "phase", "E") == sorted(event)  # its learning reads nothing more
    read = event[:3]
    snap = ["add", "diff-index", "write-tree"]  # HEAD's tree comes from cat-file; the last two run at once
    assert git_processes(vg, monkeypatch, trace, "checkpoint") == sorted([*event, *snap])
    assert git_processes(vg, monkeypatch, trace, "status") == sorted([*read, "add", "write-tree"])
    assert git_processes(vg, monkeypatch, trace, "status", "--json") == sorted(read)
    monkeypatch.setattr(snapshot, "COMPARE_LIMIT", 2)
    assert git_processes(vg, monkeypatch, trace, "status") == sorted(read)
    monkeypatch.setattr(snapshot, "COMPARE_LIMIT", 10**9)
    pause = git_processes(vg, monkeypatch, trace, "pause")
    assert pause == sorted([*event, *snap])  # the report reuses the snapshot: no second scan
    assert SAME in vg("status").out

    # With the state's remote fetched, and events here it has not seen yet: the
    # remote (its URL in the one config read) and its copy (read, walked back)
    # cost no process of their own.
    bare = bare_origin(dirty_repo, tmp_path)
    git(dirty_repo, "push", "-q", "-u", "origin", "main")
    assert vg("sync").code == 0
    assert bare.is_dir() and vg("resume").code == 0 and vg("task", "add", "T-2", "y").code == 0
    assert git_processes(vg, monkeypatch, trace, "task", "add", "T-3", "z") == sorted(event)
    assert git_processes(vg, monkeypatch, trace, "status", "--json") == sorted(read)


def test_the_size_check_sees_staged_unstaged_and_untracked_files_only(
    repo: Path, vg: VG, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    monkeypatch.setattr(snapshot, "MAX_FILE", 1 << 10)
    (repo / "committed.bin").write_bytes(b"c" * 4096)
    git(repo, "add", "committed.bin")
    git(repo, "commit", "-q", "-m", "big but committed")
    (repo / "small.txt").write_text("fine\n")
    assert vg("checkpoint").code == 0  # committed.bin is HEAD's: it travels with the project, not the snapshot
    tip = git(repo, "rev-parse", "vibegit/state")
    for name, how in (("staged.bin", "staged"), ("edited.bin", "unstaged"), ("new.bin", "untracked")):
        (repo / name).write_bytes(b"x" * 2048)
        if how != "untracked":
            git(repo, "add", name)
        if how == "unstaged":
            git(repo, "commit", "-q", "-m", "small at first", "--", name)
            (repo / name).write_bytes(b"y" * 4096)
        result = vg("checkpoint")
        assert result.code == 2 and f"{name}: 0 MiB is too large to carry in a snapshot" in result.err
        assert git(repo, "rev-parse", "vibegit/state") == tip  # nothing written
        (repo / name).unlink()
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", f"{name} gone", "--allow-empty")


def test_a_background_git_process_runs_to_the_end_and_fails_in_one_line(repo: Path) -> None:
    big = ("x" * 99 + "\n") * 3000  # 300 kB: more than a pipe holds
    oid = git(repo, "hash-object", "-w", "--stdin", input=big)
    found = vgit.find_repo(repo)
    with vgit.background(found, ["cat-file", "blob", oid]) as out:
        assert git(repo, "rev-parse", "HEAD")  # meanwhile, another git process
        assert out().decode() == big
    with vgit.background(found, ["rev-parse", "--verify", "no-such-rev"]) as out, pytest.raises(GitError) as err:
        out()
    assert str(err.value).startswith("git rev-parse --verify no-such-rev failed: fatal:")
    assert not list((repo / ".git").glob("vibegit-scratch-*"))  # its output files had no name


def test_a_background_git_process_takes_input_and_answers_in_pieces(repo: Path) -> None:
    """background_fields: a long input read from a file while git answers at length (no pipe waits for
    this process), the answer in lists of fields, whole; a failure in one line once asked."""
    found = vgit.find_repo(repo)
    each = git(repo, "cat-file", "--batch-check", input="HEAD\n").encode()
    asked = b"HEAD\n" * 20_000  # an answer for each line: more than a pipe holds
    with vgit.background_fields(found, ["cat-file", "--batch-check"], input=asked, sep=b"\n") as answer:
        groups = list(answer())
    assert len(groups) > 1 and [line for group in groups for line in group] == [each] * 20_000
    with vgit.background_fields(found, ["rev-parse", "--verify", "no-such-rev"]) as answer, pytest.raises(GitError):
        list(answer())
    with vgit.background_fields(found, ["cat-file", "--batch"], input=b"HEAD\n" * 100_000, unasked=True):
        pass  # nobody asks: ended, not waited for
    assert not list((repo / ".git").glob("vibegit-scratch-*"))
