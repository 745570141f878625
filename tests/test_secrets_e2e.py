"""Issue 11's "done when", on the source of a real package (requests 2.32.3:
its test certificates and private keys, changelog and tests included) made
into a repository with a bare origin: a workflow with uncommitted edits
syncs without --redact or --no-verify, a clone resumes exactly those edits
and nothing else; a credential added in an edited file is refused, naming
file and line. The sdist comes from the package index when pip reaches it,
else from a committed excerpt (its sources, no keys) plus generated test keys."""

from __future__ import annotations

import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from tests.helpers import MIRROR, Machines, clone, git, run_git
from tests.secrets_corpus.generate import rsa_pem

EXCERPT = Path(__file__).parent / "secrets_corpus" / "requests-2.32.3-excerpt.tar.gz"
GHP = "ghp_" + "Qm7Zt2Lx9Vb4Nc8Kd1Pf6Hs3Jw5Ry0Ta2Ue4"


def real_package(tmp_path: Path) -> Path:
    """The unpacked sdist of requests 2.32.3 (pip download, else the excerpt with generated keys)."""
    dl = tmp_path / "download"
    pip = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", "-d", str(dl)]
    try:
        subprocess.run(
            [*pip, "requests==2.32.3"],
            capture_output=True,
            timeout=300,
        )
    except (OSError, subprocess.TimeoutExpired):
        pass
    found = sorted(dl.glob("requests-2.32.3.tar.gz"))
    with tarfile.open(found[0] if found else EXCERPT) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(tmp_path / "unpacked", filter="data")
        else:  # Python before 3.10.12: the tarball is ours or the index's
            tar.extractall(tmp_path / "unpacked")
    project = tmp_path / "unpacked" / "requests-2.32.3"
    if not found:  # the excerpt holds no keys: committed test keys, as the real sdist has
        for name in ("valid/server/server.key", "valid/ca/ca-private.key"):
            (project / "tests" / "certs" / name).parent.mkdir(parents=True, exist_ok=True)
            (project / "tests" / "certs" / name).write_text(rsa_pem())
    return project


def files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and not p.relative_to(root).as_posix().startswith((".git/", MIRROR))
    }


def changed_paths(root: Path) -> set[str]:
    return {line[3:] for line in run_git(root, "status", "--porcelain", "-uall").out.splitlines()}


@pytest.mark.slow
def test_a_real_package_syncs_its_edits_and_refuses_a_credential(tmp_path: Path, m: Machines) -> None:
    laptop = real_package(tmp_path)
    assert (laptop / "tests" / "certs" / "valid" / "server" / "server.key").is_file()
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    git(laptop, "init", "-q", "-b", "main")
    git(laptop, "add", "-A")
    git(laptop, "commit", "-q", "-m", "requests 2.32.3")
    git(laptop, "remote", "add", "origin", str(remote))
    git(laptop, "push", "-q", "-u", "origin", "main")
    m.ok("laptop", laptop, "install")
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "retry on 503")

    sessions = laptop / "src" / "requests" / "sessions.py"
    lines = sessions.read_text().splitlines(keepends=True)
    lines[12:12] = ["# vibegit: retry on 503 (work in progress)\n", "RETRY_STATUSES = (503,)\n"]
    sessions.write_text("".join(lines))
    (laptop / "README.md").write_text((laptop / "README.md").read_text() + "\nRetries on 503.\n")
    git(laptop, "add", "README.md")  # staged
    (laptop / "src" / "requests" / "retry.py").write_text("def backoff(n):\n    return min(2**n, 60)\n")  # untracked
    (laptop / "tests" / "test_utils.py").unlink()  # deleted
    edited = {"src/requests/sessions.py", "README.md", "src/requests/retry.py", "tests/test_utils.py"}
    assert changed_paths(laptop) == edited
    m.ok("laptop", laptop, "checkpoint", "--file", "src/requests/sessions.py", "--line", "14", "--action", "retry")
    assert "Pushed vibegit/state to origin" in m.ok("laptop", laptop, "sync").out  # no --redact, no --no-verify

    desktop = clone(remote, tmp_path / "desktop")
    committed = files(desktop)
    resumed = m.ok("desktop", desktop, "resume")
    assert "Restored the checkpoint's uncommitted work" in resumed.out
    assert changed_paths(desktop) == edited  # exactly those edits ...
    assert files(desktop) == files(laptop)  # ... as they are on the laptop
    unchanged = {p for p in committed if p not in edited}
    assert all(files(desktop)[p] == committed[p] for p in unchanged)  # and nothing else moved

    lines = sessions.read_text().splitlines(keepends=True)
    lines[20:20] = [f'DEFAULT_TOKEN = "{GHP}"\n']  # line 21 of an edited file
    sessions.write_text("".join(lines))
    m.ok("laptop", laptop, "checkpoint")
    pushed = git(remote, "rev-parse", "vibegit/state")
    refused = m("laptop", laptop, "sync")
    assert refused.code == 1 and "src/requests/sessions.py:21: looks like a GitHub token" in refused.err
    assert "tests/certs" not in refused.err and "HISTORY" not in refused.err
    git(laptop, "-c", "core.hooksPath=/dev/null", "commit", "-q", "--allow-empty", "-m", "more")
    push = run_git(laptop, "push", "origin", "main")  # the real pre-push hook
    assert push.code == 0 and "src/requests/sessions.py:21: looks like a GitHub token" in push.err
    assert git(remote, "rev-parse", "vibegit/state") == pushed
    assert git(remote, "rev-parse", "main") == git(laptop, "rev-parse", "main")
