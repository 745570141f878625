"""vibegit sync: fetch, fast-forward or merge (both histories kept), push."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.helpers import (
    MIRROR,
    VG,
    Machines,
    Result,
    clone,
    git,
    remote_with_laptop,
    run_git,
    subjects,
    user_view,
    workflow_path,
)


def two_machines(tmp_path: Path, m: Machines) -> tuple[Path, Path, Path]:
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "Implement user auth")
    m.ok("laptop", laptop, "task", "add", "T-001", "Data model")
    m.ok("laptop", laptop, "pause")
    first = m.ok("laptop", laptop, "sync")
    assert "Pushed vibegit/state to origin" in first.out
    desktop = clone(remote, tmp_path / "desktop")
    m.ok("desktop", desktop, "resume")
    m.ok("desktop", desktop, "sync")
    m.ok("laptop", laptop, "sync")  # fast-forward: the laptop knows the desktop has it
    m.ok("laptop", laptop, "resume")
    return remote, laptop, desktop


def tasks(m: Machines, host: str, where: Path) -> dict[str, str]:
    return {t["id"]: t["status"] for t in json.loads(m.ok(host, where, "task", "list", "--json").out)}


def test_diverged_clones_sync_and_lose_no_event_and_no_task(tmp_path: Path, m: Machines) -> None:
    remote, laptop, desktop = two_machines(tmp_path, m)
    # Offline on both: the desktop has not seen the laptop's resume.
    m.ok("laptop", laptop, "task", "add", "T-002", "Login API")
    m.ok("laptop", laptop, "task", "start", "T-001")
    m.ok("laptop", laptop, "phase", "P", "--step", "3.1")
    m.ok("desktop", desktop, "task", "add", "T-003", "Logout")
    m.ok("desktop", desktop, "task", "done", "T-001")
    m.ok("desktop", desktop, "context", "--next", "write the logout handler")
    laptop_events = set(subjects(laptop, "%H %s"))
    desktop_events = set(subjects(desktop, "%H %s"))

    m.ok("desktop", desktop, "sync")  # the desktop pushes first; the laptop has to merge
    result = m.ok("laptop", laptop, "sync")
    assert "Merged" in result.out and "both histories are kept" in result.out
    assert "task T-001: done from origin (furthest along)" in result.out
    assert "tasks: united; from origin: T-003" in result.out
    m.ok("desktop", desktop, "sync")  # fast-forward to the merge
    for where in (laptop, desktop):
        log = {line for line in subjects(where, "%H %s")}
        assert laptop_events | desktop_events <= log
        out = m.vg("log", "-n", "100", cwd=where).out
        for line in laptop_events | desktop_events:
            assert line.split(" ", 1)[0][:10] in out
    assert git(laptop, "rev-parse", "vibegit/state") == git(desktop, "rev-parse", "vibegit/state")
    assert git(remote, "rev-parse", "vibegit/state") == git(laptop, "rev-parse", "vibegit/state")
    merged = git(laptop, "rev-list", "--parents", "-n1", "vibegit/state").split()
    assert len(merged) == 3  # a merge commit with both histories
    assert "Vibegit-Decision:" in git(laptop, "log", "-1", "--format=%B", "vibegit/state")
    for host, where in (("laptop", laptop), ("desktop", desktop)):
        assert tasks(m, host, where) == {"T-001": "done", "T-002": "todo", "T-003": "todo"}
    status = json.loads(m.ok("desktop", desktop, "status", "--json").out)
    assert status["mode"]["phase"] == "P" and status["context"]["next_action"] == "write the logout handler"
    assert (laptop / MIRROR / "kanban.md").read_text() == git(laptop, "show", workflow_path(laptop, "kanban.md")) + "\n"
    # Orphan still: no user commit in the state history.
    assert git(laptop, "rev-list", "vibegit/state", "--not", "main") == git(laptop, "rev-list", "vibegit/state")


def test_notes_are_merged_as_text_and_conflicts_are_kept(tmp_path: Path, m: Machines) -> None:
    _remote, laptop, desktop = two_machines(tmp_path, m)
    m.ok("desktop", desktop, "sync")
    notes = lambda where: where / MIRROR / "active_context.md"  # noqa: E731
    for where, _host, line in ((laptop, "laptop", "- laptop note"), (desktop, "desktop", "- desktop note")):
        text = notes(where).read_text().replace("## Notes\n", f"## Notes\nshared first line\n{line}\n")
        notes(where).write_text(text)
    m.ok("laptop", laptop, "context", "--last", "notes on the laptop")
    m.ok("desktop", desktop, "context", "--last", "notes on the desktop")
    m.ok("desktop", desktop, "sync")
    result = m.ok("laptop", laptop, "sync")
    assert "conflict markers left in active_context.md" in result.out
    text = git(laptop, "show", workflow_path(laptop, "active_context.md"))
    assert "<<<<<<< here" in text and "- laptop note" in text and "- desktop note" in text


def test_sync_fast_forwards_and_leaves_the_user_alone(tmp_path: Path, m: Machines) -> None:
    _remote, laptop, desktop = two_machines(tmp_path, m)
    m.ok("laptop", laptop, "task", "add", "T-009", "from the laptop")
    m.ok("laptop", laptop, "sync")
    (desktop / "wip.txt").write_text("uncommitted\n")
    before = user_view(desktop)
    refs_before = git(desktop, "for-each-ref", "refs/remotes")
    result = m.ok("desktop", desktop, "sync")
    assert "Fast-forwarded vibegit/state by" in result.out
    assert user_view(desktop) == before
    assert git(desktop, "for-each-ref", "refs/remotes") == refs_before  # only refs/vibegit/remote/origin moved
    assert "T-009" in (desktop / MIRROR / "kanban.md").read_text()
    assert "up to date" in m.ok("desktop", desktop, "sync").out


def test_sync_with_another_remote_name_and_no_remote_state(tmp_path: Path, m: Machines, vg: VG) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    backup = tmp_path / "backup.git"
    git(tmp_path, "init", "-q", "--bare", str(backup))
    git(laptop, "remote", "add", "backup", str(backup))
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    result = m.ok("laptop", laptop, "sync", "--remote", "backup")
    assert "backup has no vibegit/state yet" in result.out and "Pushed vibegit/state to backup" in result.out
    assert git(backup, "rev-parse", "vibegit/state") == git(laptop, "rev-parse", "vibegit/state")
    assert git(remote, "rev-parse", "-q", "--verify", "vibegit/state", check=False) == ""
    bad = m("laptop", laptop, "sync", "--remote", "nowhere")
    assert bad.code == 2 and "no such remote" in bad.err and bad.err.count("\n") == 1


def test_sync_joins_two_histories_that_started_apart(tmp_path: Path, m: Machines) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    desktop = clone(remote, tmp_path / "desktop")
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "laptop's")
    m.ok("laptop", laptop, "sync")
    m.ok("desktop", desktop, "init")
    m.ok("desktop", desktop, "memory", "add", "forbidden_action", "never force-push main")
    result = m.ok("desktop", desktop, "sync")
    assert "share no event" in result.out
    status = json.loads(m.ok("desktop", desktop, "status", "--json").out)
    assert status["mode"]["workflow_name"] == "vibe-code"
    memory = json.loads(m.ok("desktop", desktop, "memory", "list", "--json").out)
    assert [e["text"] for e in memory] == ["never force-push main"]


def test_sync_runs_without_typer(tmp_path: Path, m: Machines) -> None:
    """A plain ``vibegit sync`` line is parsed without typer (verbs.py): the same push, less start-up."""
    import subprocess
    import sys

    _remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    probe = (
        "import sys\nfrom vibegit.main import main\ncode = main(['sync'])\n"
        "print(code, sorted({m.split('.')[0] for m in sys.modules} & {'typer', 'click'}))\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], cwd=laptop, capture_output=True, text=True)
    assert proc.stdout.strip().splitlines()[-1:] == ["0 []"], proc.stderr
    assert "Pushed vibegit/state to origin" in proc.stdout


TOKEN = "ghp_" + "Qm7Zt2Lx9Vb4Nc8Kd1Pf6Hs3Jw5Ry0Ta2Ue4"  # a fake value, put together at run time


def test_what_the_remote_has_already_is_not_refused_though_this_clone_never_fetched_it(
    tmp_path: Path, m: Machines
) -> None:
    """The scan that runs while the fetch does reads what the old copy lacked;
    the remote turns out to have it all: nothing new, nothing refused."""
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    (laptop / "notes.txt").write_text(f"token: {TOKEN}\n")
    m.ok("laptop", laptop, "checkpoint")
    git(laptop, "push", "-q", "--no-verify", "origin", "vibegit/state")  # published by hand, bypassing vibegit
    result = m.ok("laptop", laptop, "sync")
    assert "up to date" in result.out
    assert git(laptop, "rev-parse", "refs/vibegit/remote/origin") == git(remote, "rev-parse", "vibegit/state")


def test_a_credential_on_this_side_of_a_divergence_is_refused_after_the_merge(tmp_path: Path, m: Machines) -> None:
    remote, laptop, desktop = two_machines(tmp_path, m)
    m.ok("desktop", desktop, "task", "add", "T-003", "Logout")
    m.ok("desktop", desktop, "sync")
    (laptop / "notes.txt").write_text(f"token: {TOKEN}\n")
    m.ok("laptop", laptop, "checkpoint")
    pushed = git(remote, "rev-parse", "vibegit/state")
    refused = m("laptop", laptop, "sync")
    assert refused.code == 1 and "notes.txt:1: looks like a GitHub token" in refused.err
    assert "Merged" in refused.out  # the merge is made here; only the push waits
    assert git(remote, "rev-parse", "vibegit/state") == pushed
    again = m("laptop", laptop, "sync")  # nothing new there: the merge stays, the refusal too
    assert again.code == 1 and "notes.txt:1" in again.err and "Merged" not in again.out


@contextmanager
def http_remote(status: int) -> Iterator[str]:
    """A URL whose server answers every request with ``status`` (401: it wants credentials)."""

    class Answer(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(status)
            self.send_header("WWW-Authenticate", 'Basic realm="git"')
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/team/project.git"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(
    ("where", "first"),
    [
        ("gone", "does not appear to be a git repository"),
        ("plain directory", "does not appear to be a git repository"),
        ("closed port", "unable to access 'http://127.0.0.1:1/"),
        ("asks for credentials", "could not read Username for 'http://127.0.0.1:"),
    ],
)
def test_a_remote_that_cannot_be_fetched_is_exit_2_with_gits_first_line(
    tmp_path: Path, m: Machines, where: str, first: str
) -> None:
    """The environment, not vibegit: exit 2, one line, git's own first line
    (not its generic last one) and the commands that look and retry."""
    _remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    (tmp_path / "plain").mkdir()
    urls = {"gone": str(tmp_path / "gone.git"), "plain directory": str(tmp_path / "plain")}
    with http_remote(401) as asking:
        urls |= {"closed port": "http://127.0.0.1:1/team/project.git", "asks for credentials": asking}
        git(laptop, "remote", "set-url", "origin", urls[where])
        failed = m("laptop", laptop, "sync")
    assert failed.code == 2 and failed.err.startswith("vibegit: git fetch origin failed: "), failed
    assert first in failed.err and "Could not read from remote repository" not in failed.err
    assert failed.err.count("\n") == 1
    assert failed.err.rstrip().endswith(
        "check the remote's URL ('git remote -v') and your access to it, then run 'vibegit sync' again"
    )


def test_a_push_url_that_fails_is_exit_2_and_the_pre_push_hook_says_so(tmp_path: Path, m: Machines) -> None:
    """Fetching works, pushing does not (remote.origin.pushurl): sync says git's
    line, exit 2; the pre-push hook says it and lets the user's own push go on."""
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    git(laptop, "config", "remote.origin.pushurl", str(tmp_path / "gone.git"))
    failed = m("laptop", laptop, "sync")
    assert failed.code == 2 and failed.err.count("\n") == 1
    assert failed.err.startswith("vibegit: git push origin failed: fatal: '") and "does not appear" in failed.err
    m.ok("laptop", laptop, "install")
    pushed = run_git(laptop, "push", str(remote), "main:side")  # by URL: that remote's; the state goes by its name
    assert pushed.code == 0, pushed.err
    assert "vibegit: vibegit/state was not pushed: git push origin failed: fatal: '" in pushed.err
    assert "Your push goes on." in pushed.err


def test_resume_that_cannot_fetch_says_to_run_resume_again(tmp_path: Path, m: Machines) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    desktop = clone(remote, tmp_path / "desktop")
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    m.ok("laptop", laptop, "sync")
    git(desktop, "remote", "set-url", "origin", str(tmp_path / "gone.git"))
    failed = m("desktop", desktop, "resume")
    assert failed.code == 2 and failed.err.count("\n") == 1
    assert "git fetch origin failed: fatal: '" in failed.err and failed.err.rstrip().endswith("'vibegit resume' again")


def test_the_walk_of_two_sides_gives_git_merge_base_or_says_to_ask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git.apart counts both sides and takes the merge base from the same
    walk when it is one commit; otherwise it leaves it to git merge-base."""
    from vibegit.infra import git as vgit

    repo = tmp_path / "r"
    git(tmp_path, "init", "-q", str(repo))

    def commit(name: str, *parents: str) -> str:
        tree = git(repo, "mktree", input="")
        args = [x for p in parents for x in ("-p", p)]
        return git(repo, "commit-tree", tree, *args, "-m", name)

    root = commit("root")
    a1, b1 = commit("a1", root), commit("b1", root)
    a2, b2 = commit("a2", a1), commit("b2", b1)
    cross_a, cross_b = commit("xa", a2, b2), commit("xb", b2, a2)  # criss-cross: two merge bases
    late, a3 = commit("late", a2, root), commit("a3", a2)  # late merges an older commit: a boundary of two
    alone = commit("alone")  # no common history
    monkeypatch.chdir(repo)
    r = vgit.find_repo()
    for a, b in [(a2, b2), (a2, a1), (a1, a2), (cross_a, cross_b), (late, a3), (alone, a2), (a2, a2)]:
        walked = vgit.apart(r, a, b)
        counts = git(repo, "rev-list", "--left-right", "--count", f"{a}...{b}").split()
        assert (walked.mine, walked.other) == (int(counts[0]), int(counts[1]))
        base = git(repo, "merge-base", a, b, check=False) or None
        assert (walked.base if walked.known else vgit.merge_base(r, a, b)) == base, (a, b, walked)
    assert vgit.apart(r, a2, b2).known and vgit.apart(r, alone, a2) == (1, 3, None, True)
    assert not vgit.apart(r, cross_a, cross_b).known and not vgit.apart(r, late, a3).known


def test_what_only_the_merge_holds_is_scanned_before_the_push(tmp_path: Path, m: Machines) -> None:
    """Each side clean by its own allowlist; the merge commit's notes join
    the desktop's allowed value with the laptop's edit: a new file the laptop
    has not allowed, refused before anything leaves."""
    remote, laptop, desktop = two_machines(tmp_path, m)
    m.ok("desktop", desktop, "sync")
    notes = lambda where: where / MIRROR / "active_context.md"  # noqa: E731
    text = notes(desktop).read_text().replace("## Notes\n", f"## Notes\ndesktop's key {TOKEN}\n")
    notes(desktop).write_text(text)
    m.ok("desktop", desktop, "context", "--last", "a note with a key")
    fingerprint = m("desktop", desktop, "sync").err.split("fingerprint ", 1)[1].split()[0].rstrip(";")
    m.ok("desktop", desktop, "secrets", "allow", fingerprint)  # the desktop's own choice, not committed
    m.ok("desktop", desktop, "sync")
    notes(laptop).write_text(notes(laptop).read_text().replace("## Notes\n", "## Notes\n- laptop note\n"))
    m.ok("laptop", laptop, "context", "--last", "notes on the laptop")
    pushed = git(remote, "rev-parse", "vibegit/state")
    refused = m("laptop", laptop, "sync")
    assert refused.code == 1 and "active_context.md:" in refused.err and "GitHub token" in refused.err
    assert "Merged" in refused.out and git(remote, "rev-parse", "vibegit/state") == pushed


def test_a_remote_forced_back_has_what_it_lost_scanned_again(tmp_path: Path, m: Machines) -> None:
    """The laptop pushed a checkpoint with a value it allowed then; the remote
    was forced back to an older state and moved on; the laptop no longer
    allows the value. Its merge would publish that checkpoint again: scanned
    again, refused."""
    remote, laptop, desktop = two_machines(tmp_path, m)
    m.ok("desktop", desktop, "sync")
    (laptop / "notes.txt").write_text(f"token: {TOKEN}\n")
    m.ok("laptop", laptop, "checkpoint")
    fingerprint = m("laptop", laptop, "sync").err.split("fingerprint ", 1)[1].split()[0].rstrip(";")
    m.ok("laptop", laptop, "secrets", "allow", fingerprint)
    m.ok("laptop", laptop, "sync")
    (laptop / ".vibegit" / "secrets-allow").unlink()  # allowed no more
    m.ok("desktop", desktop, "task", "add", "T-007", "on the older state")
    git(desktop, "push", "-q", "--force", "--no-verify", "origin", "vibegit/state")  # the checkpoint is gone there
    m.ok("laptop", laptop, "task", "add", "T-008", "on the laptop")
    git(laptop, "update-ref", "-d", "refs/remotes/origin/vibegit/state")  # git push left it at the checkpoint
    refused = m("laptop", laptop, "sync")
    assert refused.code == 1 and "notes.txt:1: looks like a GitHub token" in refused.err
    assert "Merged" in refused.out
    assert TOKEN not in git(remote, "log", "-p", "--format=%B", "vibegit/state")


RACE_HOOK = """#!{python}
# The user's pre-push hook, as a race: the first time it runs, the desktop's
# events reach the remote between git reading the remote's refs and updating them.
import os, pathlib, subprocess, sys
sys.stdin.read()
marker = pathlib.Path({marker!r})
if marker.exists():
    sys.exit(0)
marker.write_text("raced")
env = {{k: v for k, v in os.environ.items() if not k.startswith("GIT_")}}
for args in {meanwhile!r}:
    subprocess.run(args, check=True, env=env, capture_output=True)
"""


def race_on_first_push(laptop: Path, tmp_path: Path, *meanwhile: list[str]) -> None:
    """The laptop's own pre-push hook runs ``meanwhile`` (commands) on its first push only."""
    import sys

    hooks = tmp_path / "laptop-hooks"
    hooks.mkdir()
    hook = hooks / "pre-push"
    hook.write_text(
        RACE_HOOK.format(python=sys.executable, marker=str(tmp_path / "raced"), meanwhile=[list(a) for a in meanwhile])
    )
    hook.chmod(0o755)
    git(laptop, "config", "core.hooksPath", str(hooks))


def racing(tmp_path: Path, m: Machines, *during: list[str]) -> tuple[Path, Path, Path]:
    """Both sides moved on, and the desktop's newest event is pushed (with
    ``during``'s commands) while the laptop's first push of its sync runs."""
    remote, laptop, desktop = two_machines(tmp_path, m)
    m.ok("desktop", desktop, "task", "add", "T-010", "desktop's first")
    m.ok("desktop", desktop, "sync")
    m.ok("desktop", desktop, "task", "add", "T-011", "desktop's second, pushed during the laptop's sync")
    m.ok("laptop", laptop, "task", "add", "T-020", "laptop's")
    push = ["git", "-C", str(desktop), "push", "-q", "--no-verify", "origin", "vibegit/state"]
    race_on_first_push(laptop, tmp_path, push, *during)
    return remote, laptop, desktop


def merges(where: Path) -> list[str]:
    return git(where, "rev-list", "--merges", "vibegit/state").split()


def test_a_sync_that_lost_the_race_merges_once_and_pushes(tmp_path: Path, m: Machines) -> None:
    """Another push lands while this one runs: the sync waits a little,
    fetches again and makes its merge again from its own side (the first
    one is not kept beneath a second): one merge for one sync call."""
    remote, laptop, desktop = racing(tmp_path, m)
    before = merges(laptop)
    result = m.ok("laptop", laptop, "sync")
    assert "origin moved on while syncing; fetching again." in result.out
    assert result.out.count("Merged:") == 2 and "Pushed vibegit/state to origin" in result.out
    made = [c for c in merges(laptop) if c not in before]
    assert len(made) == 1, made  # the first try's merge is gone
    tip = git(laptop, "rev-parse", "vibegit/state")
    assert made == [tip] and git(remote, "rev-parse", "vibegit/state") == tip
    assert git(laptop, "rev-parse", f"{tip}^2") == git(desktop, "rev-parse", "vibegit/state")
    assert set(tasks(m, "laptop", laptop)) >= {"T-001", "T-010", "T-011", "T-020"}


def test_an_event_recorded_during_the_race_is_kept(tmp_path: Path, m: Machines) -> None:
    """An event recorded on the first try's merge while it was being pushed:
    that merge stays beneath it (nothing recorded here is ever dropped)."""
    import sys

    laptop_path = tmp_path / "laptop"
    remote, laptop, _desktop = racing(
        tmp_path,
        m,
        [
            sys.executable,
            "-c",
            f"import os, sys; os.chdir({str(laptop_path)!r}); from vibegit.main import main; "
            "sys.exit(main(['task', 'add', 'T-021', 'recorded during the sync']))",
        ],
    )
    m.ok("laptop", laptop, "sync")
    assert set(tasks(m, "laptop", laptop)) >= {"T-010", "T-011", "T-020", "T-021"}
    assert git(remote, "rev-parse", "vibegit/state") == git(laptop, "rev-parse", "vibegit/state")


def test_a_sync_that_keeps_losing_stops_in_time_with_nothing_lost(tmp_path: Path, m: Machines) -> None:
    remote, laptop, _desktop = racing(tmp_path, m)
    git(laptop, "config", "vibegit.syncTimeout", "0")  # one try
    failed = m("laptop", laptop, "sync")
    line = failed.err.splitlines()[-1]  # (the line before: the test's hooksPath hides vibegit's lock check)
    assert failed.code == 1 and line.startswith("vibegit: origin's vibegit/state kept moving: other pushes came ")
    assert "first in all 1 tries" in line and "run 'vibegit sync' again" in line
    assert set(tasks(m, "laptop", laptop)) >= {"T-001", "T-010", "T-020"}  # the merge is here
    again = m.ok("laptop", laptop, "sync")  # nothing races now: the merge is made again, pushed
    assert "Pushed" in again.out and len(merges(laptop)) == 1
    assert git(remote, "rev-parse", "vibegit/state") == git(laptop, "rev-parse", "vibegit/state")


def test_a_push_the_server_refuses_is_said_and_not_retried(tmp_path: Path, m: Machines) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'state branches need a review first' >&2\nexit 1\n")
    hook.chmod(0o755)
    refused = m("laptop", laptop, "sync")
    assert refused.code == 1 and refused.err.count("\n") == 1 and "moved on" not in refused.out
    assert "origin refused vibegit/state: [remote rejected] (pre-receive hook declined)" in refused.err
    assert "state branches need a review first" in refused.err and "'vibegit sync --remote NAME'" in refused.err


def diverged(root: Path, m: Machines, workflows: int) -> Path:
    """A desktop one event apart each way from the remote, ``workflows``
    workflows on the state branch, each with a snapshot of uncommitted work."""
    root.mkdir()
    remote, laptop = remote_with_laptop(root)
    for i in range(workflows):
        git(laptop, "switch", "-q", "-c", f"f-{i}")
        m.ok("laptop", laptop, "start", f"w-{i}", "--goal", f"feature {i}")
        (laptop / "wip.txt").write_text(f"work on {i}\n")
        m.ok("laptop", laptop, "checkpoint")
    m.ok("laptop", laptop, "sync")
    desktop = clone(remote, root / "desktop")
    m.ok("desktop", desktop, "sync")
    m.ok("laptop", laptop, "task", "add", "T-001", "here", "--workflow", "w-0")
    m.ok("laptop", laptop, "sync")
    m.ok("desktop", desktop, "memory", "add", "project_knowledge", "learnt there")  # (the laptop holds the locks)
    return desktop


def git_started(
    m: Machines, monkeypatch: pytest.MonkeyPatch, trace: Path, where: Path, *args: str
) -> tuple[Result, list[str]]:
    """``vibegit ARGS``'s result and the git commands it starts itself (their own children left out)."""
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(trace))
    try:
        result = m("desktop", where, *args)
    finally:
        monkeypatch.delenv("GIT_TRACE2_EVENT")
    assert result.code == 0, result
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    argvs = [e["argv"][1:] for e in events if e["event"] == "start" and "/" not in e["sid"]]
    return result, sorted(argv[2] if argv[0] == "-C" else argv[0] for argv in argvs)  # git -C DIR COMMAND


def test_the_git_processes_of_a_sync_do_not_grow_with_the_workflows(
    tmp_path: Path, m: Machines, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One workflow or twelve, each with a snapshot: the same git processes
    (every workflow and snapshot of both sides read through batched readers)."""
    started = {}
    for n in (1, 12):
        desktop = diverged(tmp_path / f"with-{n}", m, n)
        result, started[n] = git_started(m, monkeypatch, tmp_path / f"trace-{n}", desktop, "sync")
        assert "Merged: 1 event(s) here and 1 on origin" in result.out and "Pushed" in result.out
    assert started[1] == started[12], started
    assert len(started[12]) < 40 and started[12].count("diff-tree") <= 4
    assert started[12].count("fetch") == 1  # the one begun while the command's modules load is the one used
    assert "check-ref-format" not in started[12]  # a remote's ref name is checked in Python (test_contracts)


def break_off_fetches(where: Path, tmp_path: Path, times: int) -> None:
    """The remote's side of ``where``'s fetches fails mid-way the first ``times`` times
    (its pack-objects dies, as when a gc there races others' pushes)."""
    hook = tmp_path / "break-off"
    hook.write_text(
        "#!/bin/sh\n"
        f"n=$(cat {tmp_path}/broke 2>/dev/null || echo 0)\n"
        f'if [ "$n" -lt {times} ]; then echo $((n + 1)) > {tmp_path}/broke; exit 1; fi\n'
        'exec "$@"\n'
    )
    hook.chmod(0o755)
    git(where, "config", "remote.origin.uploadpack", f"git -c uploadpack.packObjectsHook={hook} upload-pack")


def test_a_transfer_that_broke_off_is_tried_again(tmp_path: Path, m: Machines) -> None:
    _remote, laptop, desktop = two_machines(tmp_path, m)
    m.ok("laptop", laptop, "task", "add", "T-005", "from the laptop")
    m.ok("laptop", laptop, "sync")
    break_off_fetches(desktop, tmp_path, 1)
    result = m.ok("desktop", desktop, "sync")
    assert "The transfer with origin broke off; trying again." in result.out
    assert "Fast-forwarded vibegit/state by 2 event(s) from origin." in result.out
    assert "T-005" in tasks(m, "desktop", desktop)


def test_a_transfer_that_keeps_breaking_off_is_exit_2_in_time(tmp_path: Path, m: Machines) -> None:
    _remote, laptop, desktop = two_machines(tmp_path, m)
    m.ok("laptop", laptop, "task", "add", "T-005", "from the laptop")
    m.ok("laptop", laptop, "sync")
    break_off_fetches(desktop, tmp_path, 1000)
    git(desktop, "config", "vibegit.syncTimeout", "0.5")
    git(desktop, "config", "vibegit.syncBackoff", "0.1")
    failed = m("desktop", desktop, "sync")
    assert failed.code == 2 and failed.err.count("\n") == 1, failed
    # git's own first line: which side of the broken pipe says it first is a race
    assert failed.err.startswith("vibegit: git fetch origin failed: ")
    assert "the transfer broke off" in failed.err and failed.err.rstrip().endswith("run 'vibegit sync' again")
    assert "trying again" in failed.out  # it did


def test_a_remote_named_like_an_option_is_a_remote_to_git(tmp_path: Path, m: Machines) -> None:
    """A remote whose name reads as an option of git's (``--upload-pack=PROGRAM``) is
    fetched from and pushed to by name: git runs no program it names."""
    remote, laptop = remote_with_laptop(tmp_path)
    ran = tmp_path / "ran"
    program = tmp_path / "upload"
    program.write_text(f'#!/bin/sh\ntouch "{ran}"\nexec git-upload-pack "$@"\n')
    program.chmod(0o755)
    name = f"--upload-pack={program}"
    git(laptop, "config", "--rename-section", "remote.origin", f"remote.{name}")
    git(laptop, "config", "branch.main.remote", name)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    result = m("laptop", laptop, "sync")
    assert not ran.exists(), result
    assert result.code == 0, result
    assert git(remote, "rev-parse", "vibegit/state") == git(laptop, "rev-parse", "vibegit/state")
