"""Many workflows at once: one per worktree and branch, per teammate, on one
shared remote; the format-1 state of vibegit 0.1 upgraded in place."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.helpers import (
    VG,
    Machines,
    clone,
    commit,
    commit_state,
    git,
    machine_id,
    remote_with_laptop,
    run_git,
    state_ref,
    subjects,
    workflow_path,
)
from vibegit.core.model import Status
from vibegit.infra import store
from vibegit.infra.formats import parse_session


def names(vg: VG, cwd: Path | None = None) -> dict[str, str]:
    return {w["name"]: w["status"] for w in json.loads(vg("list", "--json", cwd=cwd).out)}


def test_two_agents_in_two_worktrees_never_block_each_other(repo: Path, vg: VG, tmp_path: Path) -> None:
    assert vg("install").code == 0
    wt = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "feat/b", str(wt))
    assert vg("start", "agent-a", "--goal", "on main").code == 0
    assert vg("start", "agent-b", "--goal", "on feat/b", cwd=wt).code == 0
    for i in (1, 2):
        assert vg("task", "add", f"T-{i}", f"a{i}").code == 0
        assert vg("task", "add", f"T-{i}", f"b{i}", cwd=wt).code == 0
    assert [t["title"] for t in json.loads(vg("task", "list", "--json", cwd=wt).out)] == ["b1", "b2"]
    # Each worktree's commits are checked against its own workflow only.
    assert commit(repo).code != 0 and commit(wt).code != 0
    report = vg("status", cwd=wt).out
    assert "agent-b" in report and "Also running**: agent-a on main" in report
    data = json.loads(vg("status", "--json").out)
    assert data["mode"]["workflow_name"] == "agent-a" and [o["name"] for o in data["others"]] == ["agent-b"]
    for where in (repo, wt):
        for i in (1, 2):
            assert vg("task", "done", f"T-{i}", cwd=where).code == 0
        assert vg("complete", "--yes", cwd=where).code == 0
    assert commit(repo).code == 0 and commit(wt).code == 0
    assert names(vg) == {"agent-a": "completed", "agent-b": "completed"}
    assert (wt / "project_document/.ai_state/kanban.md").read_text().count("- [x]") == 2  # its own mirror


def test_start_beside_a_running_workflow_is_refused_here_only(repo: Path, vg: VG, tmp_path: Path) -> None:
    assert vg("start", "one", "--goal", "g").code == 0
    again = vg("start", "two", "--goal", "g")
    assert again.code == 1 and "one (one-" in again.err and "runs on main" in again.err
    git(repo, "worktree", "add", "-q", "-b", "side", str(tmp_path / "wt"))
    assert vg("start", "two", "--goal", "g", cwd=tmp_path / "wt").code == 0
    ambiguous = vg("task", "add", "T-1", "x", "--workflow", "nope")
    assert ambiguous.code == 2 and "no such workflow" in ambiguous.err and "one (" in ambiguous.err


def test_list_says_status_branch_holder_phase_progress(repo: Path, vg: VG, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VIBEGIT_HOST", "laptop")
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    assert vg("task", "add", "T-1", "x").code == 0
    assert vg("phase", "E", "--step", "4.3").code == 0
    [entry] = json.loads(vg("list", "--json").out)
    assert entry["name"] == "vibe-code" and entry["id"].startswith("vibe-code-") and entry["status"] == "running"
    assert (entry["branch"], entry["host"], entry["holder"]) == ("main", "laptop", str(repo))
    assert (entry["phase"], entry["step"], entry["done"], entry["total"]) == ("E", "4.3", 0, 1)
    line = vg("list").out
    assert "vibe-code" in line and "running" in line and "on main" in line and "E/4.3" in line and "0/1" in line
    assert entry["updated_at"] in line


def test_teammates_on_one_remote_keep_their_own_workflows(tmp_path: Path, m: Machines) -> None:
    remote, alice = remote_with_laptop(tmp_path)
    bob = clone(remote, tmp_path / "bob")
    m.ok("alice", alice, "start", "login", "--goal", "alice's")
    m.ok("alice", alice, "sync")
    m.ok("bob", bob, "start", "search", "--goal", "bob's")  # on his own main: a workflow of his own
    m.ok("bob", bob, "task", "add", "T-001", "index")
    m.ok("bob", bob, "sync")
    m.ok("alice", alice, "task", "add", "T-001", "form")  # not refused: nobody took hers over
    result = m.ok("alice", alice, "sync")
    assert "Merged" in result.out
    for host, where in (("alice", alice), ("bob", bob)):
        m.ok(host, where, "sync")
        listed = json.loads(m.ok(host, where, "list", "--json").out)
        assert {w["name"]: w["host"] for w in listed} == {"login": "alice", "search": "bob"}
    # Each sees their own: the workflow of main held on their machine.
    assert json.loads(m.ok("alice", alice, "status", "--json").out)["tasks"] == [
        {"id": "T-001", "title": "form", "status": "todo"}
    ]
    assert json.loads(m.ok("bob", bob, "task", "list", "--json").out)[0]["title"] == "index"


def test_a_forks_upstream_never_takes_a_workflow_over(tmp_path: Path, m: Machines) -> None:
    upstream, maintainer = remote_with_laptop(tmp_path)
    m.ok("maintainer", maintainer, "start", "vibe-code", "--goal", "the maintainer's")
    m.ok("maintainer", maintainer, "sync")
    fork = tmp_path / "fork.git"
    git(tmp_path, "clone", "-q", "--bare", str(upstream), str(fork))
    contributor = clone(fork, tmp_path / "contributor")
    git(contributor, "remote", "add", "upstream", str(upstream))
    m.ok("contributor", contributor, "start", "vibe-code", "--goal", "the contributor's")
    m.ok("contributor", contributor, "sync")
    m.ok("maintainer", maintainer, "task", "add", "T-9", "upstream moves on")
    m.ok("maintainer", maintainer, "sync")
    git(contributor, "fetch", "-q", "upstream", "+refs/heads/*:refs/remotes/upstream/*")
    result = m("contributor", contributor, "task", "add", "T-1", "still mine")
    assert result.code == 0, result.err
    assert "taken over" not in result.err


def test_tasks_added_on_both_sides_under_one_id_both_survive(tmp_path: Path, m: Machines) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    m.ok("laptop", laptop, "task", "add", "T-001", "shared")
    m.ok("laptop", laptop, "sync")
    desktop = clone(remote, tmp_path / "desktop")
    m.ok("desktop", desktop, "resume")
    m.ok("desktop", desktop, "task", "add", "T-002", "from the desktop")
    m.ok("desktop", desktop, "memory", "add", "user_preference", "short answers")
    m.ok("desktop", desktop, "sync")
    refused = m("laptop", laptop, "task", "add", "T-002", "from the laptop")  # not fetched yet: goes in
    assert refused.code == 0
    m.ok("laptop", laptop, "memory", "add", "forbidden_action", "never force-push")
    result = m.ok("laptop", laptop, "sync")
    assert "task T-002: both sides added one; the one from origin is now T-003" in result.out
    assert "both sides added M-001; the one from origin is now M-002" in result.out
    status = json.loads(m.vg("status", "--json", "--workflow", "vibe-code", cwd=laptop).out)
    assert {t["id"]: t["title"] for t in status["tasks"]} == {
        "T-001": "shared",
        "T-002": "from the laptop",
        "T-003": "from the desktop",
    }
    memory = json.loads(m.ok("laptop", laptop, "memory", "list", "--json").out)
    assert {e["id"]: e["text"] for e in memory} == {"M-001": "never force-push", "M-002": "short answers"}


def test_a_clone_resumes_the_workflow_of_its_branch_and_asks_among_several(tmp_path: Path, m: Machines) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "on-main", "--goal", "g")
    git(laptop, "switch", "-q", "-c", "feat")
    git(laptop, "push", "-q", "-u", "origin", "feat")
    m.ok("laptop", laptop, "start", "on-feat", "--goal", "g")
    m.ok("laptop", laptop, "sync")
    desktop = clone(remote, tmp_path / "desktop")  # main is checked out
    result = m.ok("desktop", desktop, "resume")
    assert "- **Workflow**: on-main" in result.out and "Also running**: on-feat on feat (laptop)" in result.out
    listed = {w["name"]: w["host"] for w in json.loads(m.ok("desktop", desktop, "list", "--json").out)}
    assert listed == {"on-main": "desktop", "on-feat": "laptop"}
    git(desktop, "switch", "-q", "--detach")
    refused = m("desktop", desktop, "resume")
    assert refused.code == 1 and "no workflow runs on this detached HEAD" in refused.err
    assert "on-feat" in refused.err and "--workflow" in refused.err


def test_a_format_1_state_is_upgraded_in_place_history_kept(repo: Path, vg: VG) -> None:
    assert vg("start", "vibe-code", "--goal", "from vibegit 0.1").code == 0
    assert vg("task", "add", "T-001", "old task").code == 0
    tip = state_ref(repo)
    folder = git(repo, "ls-tree", "--name-only", "vibegit/state:workflows").split()[0]
    # The same state as vibegit 0.1 wrote it: the workflow's files at the root.
    flat = git(repo, "ls-tree", f"vibegit/state:workflows/{folder}")
    old_tree = git(repo, "mktree", input=flat + "\n")
    legacy = git(repo, "commit-tree", old_tree, "-p", tip, "-m", "vibegit: task-add (0.1)")
    git(repo, "update-ref", "refs/heads/vibegit/state", legacy)
    assert "old task" in vg("status").out  # read as it is
    assert git(repo, "rev-parse", "vibegit/state") == legacy  # nothing written by a read
    assert vg("task", "add", "T-002", "new task").code == 0
    assert git(repo, "rev-parse", "vibegit/state^") == legacy  # upgraded by the next event, history kept
    tasks = json.loads(vg("task", "list", "--json").out)
    assert [t["title"] for t in tasks] == ["old task", "new task"]
    assert git(repo, "show", "vibegit/state:format") == "2"
    assert "T-002" in git(repo, "show", workflow_path(repo, "kanban.md"))


def test_an_older_vibegit_refuses_the_new_state_in_one_line(repo: Path, vg: VG) -> None:
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    tombstone = git(repo, "show", "vibegit/state:session.yaml").encode()
    with pytest.raises(Exception) as refused:  # vibegit 0.1 parsed this file exactly so
        parse_session(tombstone, "vibegit/state:session.yaml")
    assert "upgrade vibegit" in str(refused.value) and "\n" not in str(refused.value)
    newer = git(repo, "hash-object", "-w", "--stdin", input="3\n")
    root = git(repo, "ls-tree", "vibegit/state").replace(git(repo, "rev-parse", "vibegit/state:format"), newer)
    tip = git(repo, "commit-tree", git(repo, "mktree", input=root + "\n"), "-p", "vibegit/state", "-m", "from 0.3")
    git(repo, "update-ref", "refs/heads/vibegit/state", tip)
    result = vg("status")
    assert result.code == 2 and "upgrade vibegit" in result.err and len(result.err.splitlines()) == 1


def test_the_hooks_fast_path_is_one_lookup_whatever_the_number_of_workflows(repo: Path, vg: VG) -> None:
    assert vg("install").code == 0
    for i in range(5):
        git(repo, "switch", "-q", "-c", f"feat/{i}%x")
        assert vg("start", f"w{i}", "--goal", "g").code == 0
    keys = git(repo, "ls-tree", "--name-only", "vibegit/state:branches").split()
    assert keys == [f"feat%2F{i}%25x" for i in range(5)]
    git(repo, "switch", "-q", "main")
    trace = repo.parent / "trace"
    traced = subprocess.run(
        ["git", "commit", "--allow-empty", "-m", "x"],
        cwd=repo,
        capture_output=True,
        env={**os.environ, "GIT_TRACE": str(trace)},
    )
    assert traced.returncode == 0
    log = trace.read_text()
    assert log.count("git cat-file -e") == 1 and "python" not in log.lower()
    git(repo, "switch", "-q", "feat/3%x")
    assert run_git(repo, "commit", "--allow-empty", "-m", "y").code != 0  # w3's branch: blocked


def test_events_of_one_workflow_make_its_own_history(repo: Path, vg: VG, tmp_path: Path) -> None:
    assert vg("start", "a", "--goal", "g").code == 0
    git(repo, "worktree", "add", "-q", "-b", "b", str(tmp_path / "wt"))
    assert vg("start", "b", "--goal", "g", cwd=tmp_path / "wt").code == 0
    assert vg("task", "add", "T-1", "x").code == 0
    mine = [e["event"] for e in json.loads(vg("log", "--json").out)]
    every = [e["event"] for e in json.loads(vg("log", "--json", "--all").out)]
    assert mine == ["task-add", "start"] and every == ["task-add", "start", "start"]
    assert len(subjects(repo)) == 3


def test_the_index_is_checked_against_the_workflows(repo: Path, vg: VG) -> None:
    assert vg("start", "a", "--goal", "g").code == 0
    loaded = store.read_state(*_repo_and_settings(repo))
    assert [s.status for s in loaded.index] == [Status.RUNNING]
    hand = git(repo, "hash-object", "-w", "--stdin", input="workflows: []\n")
    root = git(repo, "ls-tree", "vibegit/state").replace(git(repo, "rev-parse", "vibegit/state:index.yaml"), hand)
    tip = git(repo, "commit-tree", git(repo, "mktree", input=root + "\n"), "-p", "vibegit/state", "-m", "hand")
    git(repo, "update-ref", "refs/heads/vibegit/state", tip)
    found = vg("doctor")
    assert found.code == 1 and "index.yaml does not list the workflows" in found.out


def _repo_and_settings(path: Path) -> tuple[object, object]:
    from vibegit.core.settings import Settings
    from vibegit.infra import git as vgit

    return vgit.find_repo(path), Settings()


# -- a holder is one clone: its machine id and worktree, the host name only a label


def test_two_clones_on_one_host_are_two_holders(tmp_path: Path, m: Machines) -> None:
    remote, first = remote_with_laptop(tmp_path)
    second = clone(remote, tmp_path / "second")
    assert machine_id(second) == ""  # git clone copies nothing of the git dir: no id until vibegit needs one
    m.ok("laptop", first, "start", "vibe-code", "--goal", "g")
    m.ok("laptop", first, "sync")
    took = m.ok("laptop", second, "resume")  # same host name: still another holder, so a takeover
    assert f"Took the workflow over from laptop:{first}" in took.out
    assert machine_id(first) != machine_id(second) != ""
    m.ok("laptop", second, "sync")
    git(first, "fetch", "-q", "origin")
    refused = m("laptop", first, "task", "add", "T-1", "x")
    assert refused.code == 1 and f"taken over on laptop:{second}" in refused.err
    m.ok("laptop", first, "sync")  # the advice: catch up, then take it back
    assert "over from laptop" in m.ok("laptop", first, "resume").out
    m.ok("laptop", first, "task", "add", "T-1", "x")
    listed = json.loads(m.ok("laptop", first, "list", "--json").out)
    assert [(w["host"], w["holder"], w["machine"]) for w in listed] == [("laptop", str(first), machine_id(first))]


def test_two_machines_of_one_name_and_path_are_two_holders(tmp_path: Path, m: Machines) -> None:
    """Containers and cloud VMs: the same host name and the same checkout path."""
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("dev", laptop, "start", "vibe-code", "--goal", "g")
    (laptop / "src" / "app.py").write_text("work of the first box\n")
    m.ok("dev", laptop, "checkpoint", "--file", "src/app.py", "--line", "1")
    m.ok("dev", laptop, "sync")
    laptop.rename(tmp_path / "first-box")
    box = clone(remote, laptop)  # the second box, at the same path
    result = m.ok("dev", box, "resume")
    assert "already running here" not in result.out and "Took the workflow over from dev:" in result.out
    assert (box / "src" / "app.py").read_text() == "work of the first box\n"  # its work came along
    m.ok("dev", box, "sync")
    box.rename(tmp_path / "second-box")
    (tmp_path / "first-box").rename(laptop)  # the first box again
    git(laptop, "fetch", "-q", "origin")
    refused = m("dev", laptop, "context", "--next", "x")
    assert refused.code == 1 and "taken over on dev:" in refused.err


def test_a_lock_from_before_machine_ids_holds_by_host_and_worktree(tmp_path: Path, m: Machines) -> None:
    _remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    lock = workflow_path(laptop, "workflow.lock")
    old = "\n".join(line for line in git(laptop, "show", lock).splitlines() if not line.startswith("machine:"))
    index = "\n".join(
        line for line in git(laptop, "show", "vibegit/state:index.yaml").splitlines() if "machine:" not in line
    )
    commit_state(laptop, {lock.split(":", 1)[1]: old + "\n", "index.yaml": index + "\n"}, "as vibegit 0.1 wrote it")
    assert "machine" not in json.loads(m.ok("laptop", laptop, "status", "--json").out)["lock"]
    m.ok("laptop", laptop, "task", "add", "T-1", "still mine")  # this host, this worktree: held here
    assert m("desktop", laptop, "task", "add", "T-2", "x").code == 1  # another host name: not the holder
    m.ok("laptop", laptop, "pause")
    m.ok("laptop", laptop, "resume")
    assert json.loads(m.ok("laptop", laptop, "status", "--json").out)["lock"]["machine"] == machine_id(laptop)


def test_the_machine_id_is_the_clones_own(repo: Path, vg: VG, tmp_path: Path) -> None:
    assert vg("install").code == 0
    assert vg("start", "a", "--goal", "g").code == 0
    mine = machine_id(repo)
    assert len(mine) == 40 and int(mine, 16) >= 0
    assert "vibegit.machine" not in git(repo, "ls-tree", "-r", "--name-only", "vibegit/state")
    wt = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "b", str(wt))
    assert vg("start", "b", "--goal", "g", cwd=wt).code == 0
    assert machine_id(wt) == mine  # one clone: its worktrees share it; the worktree tells them apart
    held = {w["name"]: (w["machine"], w["holder"]) for w in json.loads(vg("list", "--json").out)}
    assert held == {"a": (mine, str(repo)), "b": (mine, str(wt))}
    path = repo / ".git" / "vibegit.machine"
    path.write_text("not an id\n")
    bad = vg("status")
    assert bad.code == 2 and "vibegit.machine: not a vibegit machine id" in bad.err and "delete it" in bad.err
    blocked = run_git(repo, "commit", "--allow-empty", "-m", "x")  # the lock check fails closed, saying why
    path.unlink()
    path.symlink_to(tmp_path / "elsewhere")
    linked = vg("status")
    assert linked.code == 2 and "is a symbolic link" in linked.err and not (tmp_path / "elsewhere").exists()
    path.unlink()
    assert blocked.code != 0 and "the lock check failed" in blocked.err and "machine id" in blocked.err
    assert vg("status").code == 0 and machine_id(repo) != mine  # a new one: this clone is a new holder
