"""What leaves the machine: what the remote does not have is scanned (the
snapshot, whatever commit it was taken on, the state's text, names, messages,
git-lfs content behind a pointer; never what the remote has), under any ref
name; a credential is refused with file:line and fingerprint, a false
positive is allowed once by fingerprint, and redaction never touches the
user's files."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import (
    MIRROR,
    Machines,
    clone,
    commit_state,
    git,
    remote_with_laptop,
    workflow_dir,
    workflow_path,
)

# Fake values, put together at run time (no whole credential in the source).
AWS = "AKIA" + "Z7Q2M4X8R6T1W3YP"
GHP = "ghp_" + "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4"
PEM = (
    "-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF0qLkq0J3n2vP1pXkB\n"
    "-----END RSA PRIVATE KEY-----\n"
)


def committed_keys(laptop: Path) -> None:
    """Test keys and credentials the project commits on purpose, pushed."""
    (laptop / "tests" / "certs").mkdir(parents=True)
    (laptop / "tests" / "certs" / "server.key").write_text(PEM)
    (laptop / "tests" / "fixtures.env").write_text(f"AWS_ACCESS_KEY_ID={AWS}\nGITHUB_TOKEN={GHP}\n")
    git(laptop, "add", "-A")
    git(laptop, "commit", "-q", "-m", "test fixtures")
    git(laptop, "push", "-q", "origin", "main")


def test_only_what_is_new_is_scanned(tmp_path: Path, m: Machines) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    committed_keys(laptop)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    # Uncommitted work that holds no new credential: an edit elsewhere, a committed key moved.
    (laptop / "README.md").write_text("# demo\n\nmore\n")
    (laptop / "tests" / "certs" / "server.key").rename(laptop / "tests" / "certs" / "moved.key")
    (laptop / "tests" / "copy.env").write_text((laptop / "tests" / "fixtures.env").read_text())
    m.ok("laptop", laptop, "checkpoint")
    assert "Pushed vibegit/state to origin" in m.ok("laptop", laptop, "sync").out
    assert m.ok("laptop", laptop, "secrets", "check").code == 0

    # A credential added to an edited file: refused, naming file, line and fingerprint.
    (laptop / "src" / "app.py").write_text(f"def login():\n    return None\n\nTOKEN = '{GHP[:-1]}Q'\n")
    m.ok("laptop", laptop, "checkpoint")
    pushed = git(remote, "rev-parse", "vibegit/state")
    refused = m("laptop", laptop, "sync")
    assert refused.code == 1
    assert "src/app.py:4: looks like a GitHub token (uncommitted work in a checkpoint's snapshot)" in refused.err
    assert "fingerprint " in refused.err and "vibegit secrets allow" in refused.err and "--redact" in refused.err
    assert "README.md" not in refused.err and "moved.key" not in refused.err and "copy.env" not in refused.err
    assert git(remote, "rev-parse", "vibegit/state") == pushed  # nothing left the machine
    assert "Nothing was pushed" in refused.err and "not pushing vibegit/state" in refused.err
    check = m("laptop", laptop, "secrets", "check")
    assert check.code == 1 and "src/app.py:4" in check.err
    assert "1 value(s) in what vibegit/state would publish look like credentials" in check.err
    assert "was pushed" not in check.err and "not pushing" not in check.err  # check never pushes: it does not say so


def test_a_false_positive_is_allowed_once_by_fingerprint(tmp_path: Path, m: Machines) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    (laptop / "conf.env").write_text(f"REGION=eu\nAWS_ACCESS_KEY_ID={AWS}\n")
    m.ok("laptop", laptop, "checkpoint")
    refused = m("laptop", laptop, "sync")
    assert refused.code == 1 and "conf.env:2: looks like a AWS access key id" in refused.err
    fp = refused.err.split("fingerprint ", 1)[1].split()[0].rstrip(";")
    assert m("laptop", laptop, "secrets", "allow", "not-a-fingerprint").code == 2
    allowed = m.ok("laptop", laptop, "secrets", "allow", fp, "--note", "the vendor's documented test key")
    assert "Commit .vibegit/secrets-allow" in allowed.out
    text = (laptop / ".vibegit" / "secrets-allow").read_text()
    assert fp in text and AWS not in text and "documented test key" in text
    assert "already allowed" in m.ok("laptop", laptop, "secrets", "allow", fp.upper()).out
    m.ok("laptop", laptop, "checkpoint")  # the allowlist is new uncommitted work too: it holds only hashes
    assert "Pushed" in m.ok("laptop", laptop, "sync").out
    assert AWS in git(remote, "show", workflow_path(remote, "snapshot/conf.env"))


def test_redact_leaves_a_flagged_file_out_and_resume_says_why(tmp_path: Path, m: Machines) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    (laptop / "config").mkdir()
    (laptop / "config" / "dev.env").write_text(f"REGION=eu\nAWS_ACCESS_KEY_ID={AWS}\n")
    (laptop / "src" / "app.py").write_text(f"def login():\n    return 'WIP'\n# {GHP}\n")  # a committed file, edited
    (laptop / "notes.txt").write_text("plain work, first\n")
    m.ok("laptop", laptop, "checkpoint", "--file", "src/app.py", "--line", "3")  # the line holds the token
    (laptop / "notes.txt").write_text("plain work\n")
    m.ok("laptop", laptop, "checkpoint")  # a second snapshot carries the same flagged files
    mine = {p: (laptop / p).read_bytes() for p in ("config/dev.env", "src/app.py", "notes.txt")}
    assert m("laptop", laptop, "sync").code == 1

    redacted = m.ok("laptop", laptop, "sync", "--redact")
    assert "Left out of the snapshot: config/dev.env: looked like a credential (AWS access key id on line 2)" in (
        redacted.out
    )
    assert "2 file(s) left out of the snapshot" in redacted.out and "Pushed" in redacted.out
    assert {p: (laptop / p).read_bytes() for p in mine} == mine  # the user's files are theirs
    assert git(remote, "log", "-p", "-S", AWS, "vibegit/state") == ""  # in no commit of what was pushed
    assert git(remote, "log", "-p", "-S", GHP, "vibegit/state") == ""
    assert "[REDACTED]" not in git(
        remote, "grep", "-h", "-e", "REDACTED", workflow_path(remote, "snapshot"), check=False
    )
    assert git(remote, "show", workflow_path(remote, "snapshot/notes.txt")) == "plain work"
    assert git(remote, "show", workflow_path(remote, "snapshot/src/app.py")) == git(laptop, "show", "HEAD:src/app.py")
    assert "Vibegit-Withheld: config/dev.env" in git(laptop, "log", "-1", "--format=%B", "vibegit/state")
    assert m.ok("laptop", laptop, "doctor").code == 0  # session.yaml follows the new snapshot
    status = m.ok("laptop", laptop, "status").out  # the checkpoint's copy of line 3 is redacted, not the file
    assert "`src/app.py:3`" in status and "gone" not in status and "edited" not in status

    desktop = clone(remote, tmp_path / "desktop")
    resumed = m.ok("desktop", desktop, "resume")
    assert "Not restored: config/dev.env: looked like a credential (AWS access key id on line 2)" in resumed.out
    assert "Not restored: src/app.py" in resumed.out
    assert (desktop / "notes.txt").read_text() == "plain work\n"
    assert not (desktop / "config" / "dev.env").exists()
    assert (desktop / "src" / "app.py").read_text() == git(desktop, "show", "HEAD:src/app.py") + "\n"
    assert "[REDACTED]" not in "".join(p.read_text() for p in desktop.rglob("*.py"))


def test_a_secret_in_the_state_text_is_replaced_and_the_state_stays_valid(tmp_path: Path, m: Machines) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    m.ok("laptop", laptop, "context", "--last", f"{GHP} was pasted here")  # a YAML value that starts with it
    notes = laptop / MIRROR / "active_context.md"
    notes.write_text(notes.read_text().replace("## Notes\n", "## Notes\n" + PEM))
    m.ok("laptop", laptop, "context", "--next", "rotate the key")
    m.ok("laptop", laptop, "task", "add", "T-001", f"revoke {GHP}")
    refused = m("laptop", laptop, "sync")
    assert refused.code == 1
    here = "vibegit/state:" + workflow_dir(laptop)
    assert f"{here}/session.yaml:" in refused.err and f"{here}/active_context.md:" in refused.err
    assert f"{here}/kanban.md:" in refused.err and "message:1" in refused.err  # the event's summary too
    assert git(remote, "rev-parse", "-q", "--verify", "vibegit/state", check=False) == ""

    m.ok("laptop", laptop, "sync", "--redact")
    session = yaml.safe_load(git(remote, "show", workflow_path(remote, "session.yaml")))
    assert session["context"]["last_action"] == "[REDACTED] was pasted here"
    assert "[REDACTED]" in git(remote, "show", workflow_path(remote, "active_context.md"))
    assert "revoke [REDACTED]" in git(remote, "show", workflow_path(remote, "kanban.md"))
    history = git(remote, "log", "-p", "--format=%B", "vibegit/state")
    assert GHP not in history and "MIIEowIBAAKCAQEA" not in history
    desktop = clone(remote, tmp_path / "desktop")
    assert "rotate the key" in m.ok("desktop", desktop, "status").out  # the state parses elsewhere


def test_credentials_stay_home_with_a_chained_pre_push_hook(tmp_path: Path, m: Machines) -> None:
    """With a foreign pre-push hook chained (git-lfs, husky…), the user's push
    goes on without the state; an explicit push of the state branch is refused."""
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    m.ok("laptop", laptop, "sync")
    hook = laptop / ".git" / "hooks" / "pre-push"
    hook.write_text("#!/bin/sh\ncat >/dev/null\nexit 0\n")
    hook.chmod(0o755)
    m.ok("laptop", laptop, "install")
    (laptop / "dev.env").write_text(f"AWS_ACCESS_KEY_ID={AWS}\n")
    m.ok("laptop", laptop, "checkpoint")
    pushed = git(remote, "rev-parse", "vibegit/state")
    git(laptop, "-c", "core.hooksPath=/dev/null", "commit", "-q", "--allow-empty", "-m", "work")
    proc = subprocess.run(["git", "push", "origin", "main"], cwd=laptop, capture_output=True, text=True)
    assert proc.returncode == 0 and "dev.env:1: looks like a AWS access key id" in proc.stderr
    assert "Your push goes on without it" in proc.stderr
    assert git(remote, "rev-parse", "main") == git(laptop, "rev-parse", "main")
    proc = subprocess.run(["git", "push", "origin", "vibegit/state"], cwd=laptop, capture_output=True, text=True)
    assert proc.returncode != 0 and "look like credentials" in proc.stderr
    assert git(remote, "rev-parse", "vibegit/state") == pushed


def test_redaction_reaches_every_workflow_and_keeps_the_others_as_they_were(tmp_path: Path, m: Machines) -> None:
    """Two workflows on two branches: a key in one's snapshot, a token in the
    other's task; one redaction takes both out, each workflow still reads."""
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "api")
    (laptop / "config").mkdir()
    (laptop / "config" / "dev.env").write_text(f"DEBUG=1\nAWS_ACCESS_KEY_ID={AWS}\n")
    m.ok("laptop", laptop, "checkpoint")
    git(laptop, "stash", "-u", "-q")
    git(laptop, "switch", "-q", "-c", "docs")
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "docs")
    m.ok("laptop", laptop, "task", "add", "T-001", f"revoke {GHP}")
    refused = m("laptop", laptop, "sync")
    assert refused.code == 1 and "config/dev.env:2" in refused.err and "kanban.md" in refused.err

    m.ok("laptop", laptop, "sync", "--redact")
    history = git(remote, "log", "-p", "--format=%B", "vibegit/state")
    assert AWS not in history and GHP not in history
    listed = m.ok("laptop", laptop, "list", "--json").out
    assert listed.count('"status": "running"') == 2
    ids = git(remote, "ls-tree", "--name-only", "vibegit/state:workflows").split()
    kanbans = "".join(git(remote, "show", f"vibegit/state:workflows/{i}/kanban.md") for i in ids)
    assert "revoke [REDACTED]" in kanbans
    assert m.ok("laptop", laptop, "doctor").code == 0
    desktop = clone(remote, tmp_path / "desktop")
    git(desktop, "switch", "-q", "main")
    resumed = m.ok("desktop", desktop, "resume")
    assert "Not restored: config/dev.env: looked like a credential" in resumed.out
    assert not (desktop / "config" / "dev.env").exists()


def test_a_commit_never_pushed_is_scanned_whatever_the_checkpoint_commit(tmp_path: Path, m: Machines) -> None:
    """A credential committed by mistake and reset away, or on a branch never
    pushed, travels in the snapshot (the working tree) though the checkpoint's
    commit holds it: the remote does not have it, so it is scanned."""
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    (laptop / "deploy.env").write_text(f"REGION=eu\nAWS_ACCESS_KEY_ID={AWS}\n")
    git(laptop, "add", "deploy.env")
    git(laptop, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "oops")
    (laptop / "README.md").write_text("# demo\n\nwork\n")
    m.ok("laptop", laptop, "checkpoint")  # the snapshot's base is the commit that holds the key
    git(laptop, "reset", "-q", "--hard", "HEAD~1")  # reset away: on no branch any more
    refused = m("laptop", laptop, "sync")
    assert refused.code == 1 and "deploy.env:2: looks like a AWS access key id" in refused.err, refused.err
    assert git(remote, "rev-parse", "-q", "--verify", "vibegit/state", check=False) == ""
    assert m("laptop", laptop, "secrets", "check").code == 1

    redacted = m.ok("laptop", laptop, "sync", "--redact")  # the commit's own version is no cleaner: left out
    assert "Left out of the snapshot: deploy.env" in redacted.out and "Pushed" in redacted.out
    assert git(remote, "log", "-p", "-S", AWS, "vibegit/state") == ""
    assert not git(remote, "ls-tree", "-r", "--name-only", "vibegit/state").count("deploy.env")


def test_a_branch_never_pushed_is_new_until_it_is_pushed(tmp_path: Path, m: Machines) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    git(laptop, "switch", "-q", "-c", "feat")
    (laptop / "tests").mkdir()
    (laptop / "tests" / "fixture.env").write_text(f"GITHUB_TOKEN={GHP}\n")  # a test key, committed on purpose
    git(laptop, "add", "-A")
    git(laptop, "commit", "-q", "-m", "fixtures")
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    (laptop / "README.md").write_text("# demo\n\nwork\n")
    m.ok("laptop", laptop, "checkpoint")
    refused = m("laptop", laptop, "sync")
    assert refused.code == 1 and "tests/fixture.env:1: looks like a GitHub token" in refused.err, refused.err
    assert "README.md" not in refused.err

    git(laptop, "push", "-q", "-u", "origin", "feat")  # now the remote has it: nothing new there
    assert "Pushed vibegit/state to origin" in m.ok("laptop", laptop, "sync").out
    assert GHP in git(remote, "show", workflow_path(remote, "snapshot/tests/fixture.env"))


def test_a_credential_in_a_file_name_is_refused_and_left_out(tmp_path: Path, m: Machines) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    keys = laptop / "keys" / GHP  # a directory named by the token, an empty file in it (a blob the remote has)
    keys.mkdir(parents=True)
    (keys / "note.txt").write_text("")
    (laptop / "empty").write_text("")
    git(laptop, "add", "empty")
    git(laptop, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "an empty file")
    git(laptop, "push", "-q", "origin", "main")
    (laptop / "notes.txt").write_text("plain work\n")
    m.ok("laptop", laptop, "checkpoint")
    refused = m("laptop", laptop, "sync")
    assert refused.code == 1 and "keys/[REDACTED] (its name): looks like a GitHub token" in refused.err, refused.err
    assert GHP not in refused.err  # the name is shown redacted
    assert git(remote, "rev-parse", "-q", "--verify", "vibegit/state", check=False) == ""

    redacted = m.ok("laptop", laptop, "sync", "--redact")
    assert "Pushed" in redacted.out and GHP not in redacted.out
    assert GHP not in git(remote, "ls-tree", "-r", "--name-only", "vibegit/state")
    assert git(remote, "show", workflow_path(remote, "snapshot/notes.txt")) == "plain work"
    assert (keys / "note.txt").exists()  # the user's files are theirs


def _push(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "push", *args], cwd=repo, capture_output=True, text=True)


def test_state_commits_pushed_under_any_name_are_scanned(tmp_path: Path, m: Machines) -> None:
    """The pre-push hook scans every state commit a push sends that the remote
    lacks, whatever it is called: a branch made from the state, an
    expression, an id, a branch that merged it, to any remote."""
    remote, laptop = remote_with_laptop(tmp_path)
    other = tmp_path / "other.git"
    git(tmp_path, "init", "-q", "--bare", str(other))
    git(laptop, "remote", "add", "other", str(other))
    m.ok("laptop", laptop, "install")
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    (laptop / "dev.env").write_text(f"AWS_ACCESS_KEY_ID={AWS}\n")
    m.ok("laptop", laptop, "checkpoint")
    git(laptop, "branch", "b", "vibegit/state")
    tip = git(laptop, "rev-parse", "vibegit/state")
    for args in (
        ("origin", "b"),
        ("origin", "vibegit/state~0:refs/heads/x"),
        ("origin", f"{tip}:refs/heads/y"),
        ("other", "b"),
        ("other", "main", "b"),  # with an ordinary branch: the whole push stops
        ("origin", "vibegit/state"),
    ):
        pushed = _push(laptop, *args)
        assert pushed.returncode != 0, args
        assert "dev.env:1: looks like a AWS access key id" in pushed.stderr, (args, pushed.stderr)
    for bare in (remote, other):
        assert git(bare, "for-each-ref", "refs/heads/b", "refs/heads/x", "refs/heads/y", "refs/heads/vibegit") == ""

    git(laptop, "switch", "-q", "-c", "merged")  # a branch that merged the state's history
    git(laptop, "merge", "-q", "--allow-unrelated-histories", "-s", "ours", "-m", "merge", "vibegit/state")
    pushed = _push(laptop, "other", "merged")
    assert pushed.returncode != 0 and "dev.env:1" in pushed.stderr, pushed.stderr

    (laptop / "dev.env").unlink()
    m.ok("laptop", laptop, "sync", "--redact")  # the state as pushed: the remote has it, no scan has to read it
    assert _push(laptop, "origin", "vibegit/state:refs/heads/copy").returncode == 0
    git(laptop, "switch", "-q", "main")
    assert _push(laptop, "other", "main").returncode == 0  # an ordinary push, to a remote without the state
    assert git(other, "for-each-ref", "--format=%(refname)") == "refs/heads/main"


def test_the_state_goes_along_with_the_branch_that_holds_its_files(tmp_path: Path, m: Machines) -> None:
    """A push of the user's branch carries the state to its remote: what that
    push sends of the branch is the remote's, so a committed test key the
    snapshot carries does not stop the state; the same key, never pushed, does."""
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "install")
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    (laptop / "tests").mkdir()
    (laptop / "tests" / "fixture.env").write_text(f"GITHUB_TOKEN={GHP}\n")
    git(laptop, "add", "-A")
    git(laptop, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "fixtures")
    (laptop / "README.md").write_text("# demo\n\nwork\n")
    m.ok("laptop", laptop, "checkpoint")
    assert m("laptop", laptop, "secrets", "check").code == 1  # the commit is not on the remote yet
    pushed = _push(laptop, "origin", "main")
    assert pushed.returncode == 0 and "pushed vibegit/state to origin" in pushed.stderr, pushed.stderr
    assert git(remote, "rev-parse", "vibegit/state") == git(laptop, "rev-parse", "vibegit/state")


def test_a_state_root_is_told_by_the_stores_names() -> None:
    """The pre-push hook tells a state commit by names it does not import from the store (its cost): the same."""
    from vibegit.infra import secretscan, store

    assert secretscan.STATE_ROOT == store.SESSION
    assert set(secretscan.STATE_ROOT_ANY) == {store.FORMAT_FILE, store.LOCK}
    assert store.SESSION in store.WORKFLOW_FILES and store.LOCK in store.WORKFLOW_FILES  # format 1: at the root


def _lfs_store(bare: Path) -> bytes:
    """Every object a git-lfs store holds, one after the other."""
    return b"".join(p.read_bytes() for p in sorted((bare / "lfs" / "objects").rglob("*")) if p.is_file())


@pytest.mark.skipif(
    shutil.which("git-lfs") is None and not os.environ.get("CI"), reason="git-lfs is not installed (CI installs it)"
)
def test_git_lfs_content_behind_a_snapshot_pointer_is_scanned(tmp_path: Path, m: Machines) -> None:
    """A snapshot of an LFS-tracked file holds its pointer; git-lfs's own
    pre-push hook uploads the content it names when the state is pushed. That
    content is scanned: a credential in it stops the push (nothing reaches the
    LFS store), redaction leaves the file out, and clean content travels and
    is restored elsewhere."""
    remote, laptop = remote_with_laptop(tmp_path)
    git(laptop, "lfs", "install", "--local")
    git(laptop, "lfs", "track", "*.bin")
    (laptop / "model.bin").write_bytes(b"weights\0\0committed\n")
    git(laptop, "add", "-A")
    git(laptop, "commit", "-q", "-m", "a model")
    git(laptop, "push", "-q", "origin", "main")
    assert b"committed" in _lfs_store(remote)  # git-lfs's hook uploads what a push's pointers name
    m.ok("laptop", laptop, "install")  # git-lfs's pre-push hook chained
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    (laptop / "model.bin").write_bytes(b"weights\0\0" + f"token {GHP}\n".encode())
    (laptop / "data.bin").write_bytes(b"clean data\n")
    m.ok("laptop", laptop, "checkpoint")
    assert "git-lfs.github.com/spec" in git(laptop, "show", workflow_path(laptop, "snapshot/model.bin"))

    refused = m("laptop", laptop, "sync")
    assert refused.code == 1 and "model.bin:1: looks like a GitHub token" in refused.err, refused.err
    git(laptop, "-c", "core.hooksPath=/dev/null", "commit", "-q", "--allow-empty", "-m", "more")
    pushed = subprocess.run(["git", "push", "origin", "main"], cwd=laptop, capture_output=True, text=True)
    assert pushed.returncode == 0 and "model.bin:1" in pushed.stderr, pushed.stderr  # the state stays home
    assert GHP.encode() not in _lfs_store(remote) and b"clean data" not in _lfs_store(remote)

    m.ok("laptop", laptop, "sync", "--redact")
    assert GHP.encode() not in _lfs_store(remote)
    assert b"clean data\n" in _lfs_store(remote)  # uploaded by git-lfs, once the scan had read it
    desktop = clone(remote, tmp_path / "desktop")
    git(desktop, "lfs", "install", "--local")
    git(desktop, "lfs", "pull")
    resumed = m.ok("desktop", desktop, "resume")
    assert "Not restored: model.bin" in resumed.out
    assert (desktop / "data.bin").read_bytes() == b"clean data\n"  # the content, not its pointer
    assert (desktop / "model.bin").read_bytes() == b"weights\0\0committed\n"


def test_a_tag_that_carries_state_commits_is_scanned_with_its_message(tmp_path: Path, m: Machines) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "install")
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    (laptop / "notes.txt").write_text("plain work\n")
    m.ok("laptop", laptop, "checkpoint")  # state commits the remote does not have
    git(laptop, "tag", "-a", "v1", "-m", f"release; token {GHP}", "vibegit/state")
    pushed = _push(laptop, "origin", "v1")
    assert pushed.returncode != 0 and "looks like a GitHub token" in pushed.stderr, pushed.stderr
    assert git(remote, "tag") == ""
    git(laptop, "tag", "-a", "-f", "v1", "-m", "release", "vibegit/state")
    assert _push(laptop, "origin", "v1").returncode == 0
    assert git(remote, "tag") == "v1"


def test_a_credential_in_a_state_commits_message_is_refused_oldest_first(tmp_path: Path, m: Machines) -> None:
    """Every commit message the push would publish is scanned, found in the
    same pass as the files; each finding names its commit, the oldest first."""
    remote, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    first = commit_state(laptop, {}, f"hand edit; token {GHP}")
    m.ok("laptop", laptop, "task", "add", "T-001", "after the hand edit")
    second = commit_state(laptop, {}, f"another; key {AWS}")
    refused = m("laptop", laptop, "sync")
    assert refused.code == 1, refused
    assert git(remote, "branch", "--list", "vibegit/state") == ""  # nothing left the machine
    github, aws = (
        refused.err.index(f"commit {first[:10]} message:1: looks like a GitHub token"),
        refused.err.index(f"commit {second[:10]} message:1: looks like a AWS access key"),
    )
    assert github < aws


_ENTRY = st.tuples(
    st.sampled_from([b"100644", b"100755", b"40000", b"120000", b"160000"]),
    st.binary(min_size=1, max_size=12).filter(lambda n: b"\0" not in n),
    st.binary(min_size=20, max_size=20),  # an id's bytes: NUL, spaces and digits among them
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_ENTRY, min_size=1, max_size=5), min_size=1, max_size=4))
def test_a_trees_names_are_read_whatever_its_bytes(trees: list[list[tuple[bytes, bytes, bytes]]]) -> None:
    """Each name of each tree, read alone (``_names``) and in a group read in one look."""
    from vibegit.infra import secretscan

    contents = [b"".join(mode + b" " + name + b"\0" + oid for mode, name, oid in entries) for entries in trees]
    for entries, data in zip(trees, contents, strict=True):
        assert secretscan._names(data, 20) == [name for _, name, _ in entries]
    scanned: list[list[bytes]] = []
    names = secretscan._Names(lambda trees: None)
    names._scan = lambda raw: scanned.append(raw)  # type: ignore[method-assign]
    for i, data in enumerate(contents):
        names.add(f"{i:040x}", data)
    names.flush()
    assert not names.unreadable
    assert scanned == [list(dict.fromkeys(name for entries in trees for _, name, _ in entries))]


def test_trees_are_read_together_and_alone_where_that_fails() -> None:
    """secretscan._Names: a group of trees read in one look; a content that is
    no tree sends each tree to be read alone (that one unreadable); a name
    with hits is placed in the trees that hold it."""
    from vibegit.infra import secretscan

    def tree(*names: str) -> bytes:
        return b"".join(b"100644 " + n.encode() + b"\0" + bytes(20) for n in names)

    ids = [f"{i:040x}" for i in range(4)]
    cleaned: list[str] = []
    names = secretscan._Names(cleaned.extend)
    names.add(ids[0], tree("README.md", "src"))
    names.add(ids[1], tree("README.md"))
    names.flush()
    assert cleaned == ids[:2] and not names.flagged and not names.unreadable
    names.add(ids[2], b"not a tree at all")
    names.add(ids[3], tree(f"keys-{GHP}.txt", "README.md"))
    names.flush()
    assert names.unreadable == [ids[2]] and cleaned == ids[:2]
    assert [name for name, _ in names.flagged[ids[3]]] == [f"keys-{GHP}.txt"]
