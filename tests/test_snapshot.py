"""Checkpoint snapshots of uncommitted work and anchors that survive edits."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import MIRROR, VG, git, state_ref, user_view, workflow_path
from vibegit.infra import git as vgit
from vibegit.infra import snapshot


def snap_entry(repo: Path) -> str:
    return git(repo, "rev-parse", "-q", "--verify", workflow_path(repo, "snapshot"), check=False)


def test_checkpoint_snapshots_staged_unstaged_and_untracked_but_not_ignored(dirty_repo: Path, vg: VG) -> None:
    (dirty_repo / ".gitignore").write_text("*.log\n")
    (dirty_repo / "debug.log").write_text("ignored\n")
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    git(dirty_repo, "stash", "list")
    before = user_view(dirty_repo)
    stash_before = git(dirty_repo, "stash", "list")
    index_stat = (dirty_repo / ".git" / "index").stat().st_mtime_ns
    assert vg("checkpoint", "--file", "src/app.py", "--line", "2").code == 0
    assert user_view(dirty_repo) == before
    assert git(dirty_repo, "stash", "list") == stash_before
    assert (dirty_repo / ".git" / "index").stat().st_mtime_ns == index_stat
    assert not list((dirty_repo / ".git").glob("vibegit-index-*"))

    tree = snap_entry(dirty_repo)
    state = json.loads(vg("status", "--json").out)
    assert state["checkpoint"]["snapshot"] == tree
    files = git(dirty_repo, "ls-tree", "-r", "--name-only", tree).splitlines()
    assert {"staged.txt", "notes.txt", "src/app.py", ".gitignore", "README.md"} <= set(files)
    assert "debug.log" not in files
    assert not any(f.startswith(MIRROR) for f in files)  # the mirror is in info/exclude
    assert git(dirty_repo, "show", f"{tree}:src/app.py") == (dirty_repo / "src" / "app.py").read_text().rstrip("\n")
    assert "matches the working tree" in vg("status").out


def test_a_clean_tree_records_no_snapshot_and_no_snapshot_skips_it(repo: Path, vg: VG) -> None:
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    assert vg("checkpoint").code == 0
    assert json.loads(vg("status", "--json").out)["checkpoint"]["snapshot"] is None
    assert snap_entry(repo) == ""
    (repo / "new.txt").write_text("x\n")
    assert vg("checkpoint").code == 0
    assert snap_entry(repo)
    assert vg("task", "add", "T-1", "kept across events").code == 0
    assert snap_entry(repo)  # later events keep the tree
    assert vg("checkpoint", "--no-snapshot").code == 0
    assert json.loads(vg("status", "--json").out)["checkpoint"]["snapshot"] is None
    assert snap_entry(repo) == ""


def test_a_refused_checkpoint_ends_the_snapshot_it_began(dirty_repo: Path, vg: VG) -> None:
    # The fast verb begins its snapshot before the command's modules load;
    # refused (no workflow yet), it leaves no git process, scratch index or
    # found repository behind for the next command in this process.
    assert vg("checkpoint").code != 0
    assert not list((dirty_repo / ".git").glob("vibegit-index-*"))
    assert not snapshot._begun
    assert not vgit.process._known_here
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    (dirty_repo / "later.txt").write_text("written after the refusal\n")
    assert vg("checkpoint").code == 0
    assert "later.txt" in git(dirty_repo, "ls-tree", "-r", "--name-only", snap_entry(dirty_repo)).splitlines()
    assert not list((dirty_repo / ".git").glob("vibegit-index-*"))


def test_pause_records_a_snapshot_and_status_says_when_it_differs(dirty_repo: Path, vg: VG) -> None:
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    result = vg("pause")
    assert result.code == 0 and "matches the working tree" in result.out
    assert snap_entry(dirty_repo)
    (dirty_repo / "notes.txt").write_text("changed after the pause\n")
    assert "differs from the working tree" in vg("status").out
    assert vg("pause", "--no-snapshot").code == 1  # already paused: refused as before


def test_snapshot_of_a_repository_without_commits(tmp_path: Path, vg: VG) -> None:
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    git(fresh, "init", "-q", "-b", "main")
    (fresh / "a.txt").write_text("a\n")
    assert vg("start", "vibe-code", "--goal", "g", cwd=fresh).code == 0
    assert vg("checkpoint", cwd=fresh).code == 0
    assert git(fresh, "ls-tree", "--name-only", workflow_path(fresh, "snapshot")) == "a.txt"
    assert git(fresh, "status", "--porcelain") == "?? a.txt"


def test_restore_plan_never_loses_a_local_change(dirty_repo: Path) -> None:
    repo = vgit.find_repo(dirty_repo)
    snap = snapshot.take(repo)
    assert snap
    base = snapshot.head_tree(repo)
    git(dirty_repo, "stash", "-u", "-q")  # back to HEAD: everything would be written
    plan = snapshot.plan(repo, snap, base, MIRROR)
    assert sorted(plan.write) == ["notes.txt", "src/app.py", "staged.txt"] and not plan.local
    (dirty_repo / "src" / "app.py").write_text("different\n")
    (dirty_repo / "notes.txt").write_text("untracked\n")  # same as the snapshot: fine
    plan = snapshot.plan(repo, snap, base, MIRROR)
    assert plan.local == {"src/app.py": "src/app.py"} and plan.write == ["staged.txt"] and plan.in_sync == 1
    snapshot.apply(repo, plan, snap, plan.write, plan.delete, [])
    assert (dirty_repo / "staged.txt").read_text() == "staged\n"
    assert (dirty_repo / "src" / "app.py").read_text() == "different\n"


def test_report_says_where_the_line_is_now_or_that_it_is_gone(repo: Path, vg: VG) -> None:
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    assert vg("checkpoint", "--file", "src/app.py", "--line", "5", "--action", "logout").code == 0
    app = repo / "src" / "app.py"
    app.write_text("import os\n\n" + app.read_text())
    out = vg("status").out
    assert "`src/app.py:5` · the line is now at 7" in out
    app.write_text("nothing left\n")
    assert "the line is gone from the file" in vg("status").out
    assert "该行已不在文件中" in vg("status", "--lang", "zh").out
    app.unlink()
    assert "the file is gone" in vg("status").out


def test_a_file_too_large_for_a_snapshot_is_refused(dirty_repo: Path, vg: VG) -> None:
    assert vg("start", "w", "--goal", "g").code == 0
    with (dirty_repo / "dataset.bin").open("wb") as f:
        f.truncate((50 << 20) + 1)
    before = state_ref(dirty_repo)
    refused = vg("checkpoint")
    assert refused.code == 2 and "dataset.bin" in refused.err and "--no-snapshot" in refused.err
    assert state_ref(dirty_repo) == before
    assert vg("checkpoint", "--no-snapshot").code == 0


def test_a_change_in_the_second_it_was_staged_is_still_in_the_snapshot(repo: Path) -> None:
    """Git tells a racily clean index entry (a file changed in the second it was
    staged) by the index file's mtime, which the scratch index must keep."""
    import os

    git(repo, "config", "core.trustctime", "false")  # ctime cannot be set back; mtime can
    app = repo / "src" / "app.py"
    then = app.stat().st_mtime_ns - 100 * 10**9
    app.write_text("x = 1\n")
    os.utime(app, ns=(then, then))
    git(repo, "add", "src/app.py")  # the entry records mtime `then` and the real size
    app.write_text("x = 2\n")  # changed in that same second, the same size
    os.utime(app, ns=(then, then))
    os.utime(repo / ".git" / "index", ns=(then, then))  # ... and staged in that second
    snap = snapshot.take(vgit.find_repo(repo))
    assert snap is not None and git(repo, "show", f"{snap}:src/app.py") == "x = 2"


def test_the_restore_plan_withholds_configuration_it_would_change(repo: Path) -> None:
    (repo / ".envrc").write_text("export A=1\n")
    (repo / "real-hooks").mkdir()
    (repo / "real-hooks" / "pre-commit").write_text("#!/bin/sh\n")
    (repo / "hooks").symlink_to("real-hooks")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "set-up")
    git(repo, "config", "core.hooksPath", "hooks")
    r = vgit.find_repo(repo)
    hooks = snapshot.hooks_dirs(r, vgit.read_config(r))
    assert hooks == ("hooks", "real-hooks")
    (repo / ".envrc").write_text("export A=2\n")
    (repo / "CLAUDE.md").write_text("rules\n")
    (repo / "real-hooks" / "post-checkout").write_text("#!/bin/sh\n")
    (repo / "src" / "app.py").write_text("work\n")
    snap = snapshot.take(r)
    assert snap
    base = snapshot.head_tree(r)
    git(repo, "stash", "-u", "-q")
    (repo / ".envrc").write_text("export A=3\n")  # an edit of yours: withheld, so not in the way
    plan = snapshot.plan(r, snap, base, MIRROR, hooks)
    assert sorted(plan.configuration) == [".envrc", "CLAUDE.md", "real-hooks/post-checkout"]
    assert plan.write == ["src/app.py"] and not plan.local and not plan.delete
    (repo / ".envrc").write_text("export A=2\n")  # already as in the snapshot: nothing to withhold
    assert ".envrc" not in snapshot.plan(r, snap, base, MIRROR, hooks).configuration
    without_hooks = snapshot.plan(r, snap, base, MIRROR)  # core.hooksPath unknown: a file like any other
    assert "real-hooks/post-checkout" in without_hooks.write


def test_checkout_bytes_through_a_filter_that_changes_sizes(repo: Path) -> None:
    """git 2.39's ``cat-file --batch --filters`` heads each answer with the size
    before the smudge filter (git-lfs's changes it): the bytes are still each file's."""
    git(repo, "config", "filter.grow.smudge", "sed 's/$/ (smudged)/'")
    git(repo, "config", "filter.grow.clean", "cat")
    (repo / ".gitattributes").write_text("*.txt filter=grow\n")
    wanted = []
    for name, text in (("a.txt", "one\n"), ("b.md", "two\n"), ("c.txt", "three\nfour\n")):
        oid = git(repo, "hash-object", "-w", "--stdin", input=text)
        wanted.append((oid, name))
    found = vgit.checkout_bytes(vgit.find_repo(repo), wanted)
    assert found == [b"one (smudged)\n", b"two\n", b"three (smudged)\nfour (smudged)\n"]
