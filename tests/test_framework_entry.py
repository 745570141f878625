"""``vibegit-hook``, the pre-commit framework's entry (hooks/vibegit-hook,
installed beside ``vibegit`` as a script): the raw shims' sh check runs
first, and ``vibegit`` (Python) starts only when a workflow may be
concerned. Run here as the framework runs it (its arguments, its PRE_COMMIT_*
environment), with a ``vibegit`` beside it that logs each start; the real
framework is in tests/test_precommit_framework.py."""

from __future__ import annotations

import os
import re
import shlex
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.helpers import VG, bare_origin, git, start_workflow, state_ref
from vibegit.infra import hookfiles

ROOT = Path(__file__).resolve().parent.parent
ENTRY = ROOT / "hooks" / hookfiles.FRAMEWORK_ENTRY


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    """The framework's virtualenv bin: the entry, and a ``vibegit`` that logs its arguments to ``starts``."""
    where = tmp_path / "env-bin"
    where.mkdir()
    (where / ENTRY.name).write_bytes(ENTRY.read_bytes())
    (where / "vibegit").write_text(
        f'#!/bin/sh\necho "$*" >> {shlex.quote(str(tmp_path / "starts"))}\n'
        f'exec {shlex.quote(sys.executable)} -m vibegit "$@"\n'
    )
    for path in where.iterdir():
        path.chmod(0o755)
    return where


def starts(tmp_path: Path) -> list[str]:
    log = tmp_path / "starts"
    return log.read_text().splitlines() if log.exists() else []


def entry(bin_dir: Path, repo: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``vibegit-hook ARGS`` as the framework starts it: by its full path, the env's bin not on PATH."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("PRE_COMMIT")}
    return subprocess.run(
        [str(bin_dir / ENTRY.name), *args],
        cwd=repo,
        env={**environ, "PRE_COMMIT": "1", **env},
        capture_output=True,
        text=True,
    )


def test_the_entry_is_generated_from_the_shims_and_ships() -> None:
    assert ENTRY.read_text() == hookfiles.framework_script(), (
        "hooks/vibegit-hook is stale: python -m vibegit.infra.hookfiles"
    )
    assert ENTRY.stat().st_mode & stat.S_IXUSR
    text = ENTRY.read_text()
    shim = hookfiles.script("pre-commit")
    lib = shim[shim.index("state_branch() {") : shim.index("\nwanted() {")]
    assert lib in text  # the raw shims' functions, as they are there
    for name in hookfiles.FRAMEWORK_HOOKS:
        shim = hookfiles.script(name)
        wanted = re.search(r"^wanted\(\) \{.*?^\}\n", shim, re.M | re.S)
        assert wanted is not None and f"{name})\n{wanted.group(0)};;\n" in text, name  # the same check
    assert not hookfiles.is_ours(ENTRY)  # never taken for a raw shim
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert {h["entry"] for h in hooks} == {f"vibegit-hook {h}" for h in hookfiles.FRAMEWORK_HOOKS}
    assert 'script-files = ["bin/vibegit", "hooks/vibegit-hook"]' in (ROOT / "pyproject.toml").read_text()


def test_no_workflow_starts_no_python(repo: Path, bin_dir: Path, tmp_path: Path) -> None:
    head = git(repo, "rev-parse", "HEAD")
    for args, env in [
        (("pre-commit",), {}),
        (("post-checkout",), {"PRE_COMMIT_FROM_REF": head, "PRE_COMMIT_TO_REF": head, "PRE_COMMIT_CHECKOUT_TYPE": "1"}),
        (("pre-push",), {"PRE_COMMIT_REMOTE_NAME": "origin", "PRE_COMMIT_REMOTE_URL": "/nowhere"}),
        (("post-rewrite",), {"PRE_COMMIT_REWRITE_COMMAND": "amend"}),
    ]:
        result = entry(bin_dir, repo, *args, **env)
        assert (result.returncode, result.stdout, result.stderr) == (0, "", ""), args
    assert starts(tmp_path) == []


def test_a_workflow_on_this_branch_blocks_the_commit(repo: Path, vg: VG, bin_dir: Path, tmp_path: Path) -> None:
    start_workflow(vg)
    result = entry(bin_dir, repo, "pre-commit")
    assert result.returncode == 1
    assert "commit blocked" in result.stderr and "VIBEGIT_ALLOW=1" in result.stderr
    assert starts(tmp_path) == ["hook pre-commit"]
    git(repo, "checkout", "-q", "-b", "feat")  # no workflow here (blockCommits: always)
    assert entry(bin_dir, repo, "pre-commit").returncode == 0
    assert starts(tmp_path) == ["hook pre-commit"]
    git(repo, "config", "vibegit.blockCommits", "other-branches")  # a setting the sh check reads too
    assert entry(bin_dir, repo, "pre-commit").returncode == 1
    assert starts(tmp_path) == ["hook pre-commit"] * 2


def test_the_frameworks_environment_forms(repo: Path, vg: VG, bin_dir: Path, tmp_path: Path) -> None:
    start_workflow(vg)
    head = git(repo, "rev-parse", "HEAD")
    moved = {"PRE_COMMIT_FROM_REF": head, "PRE_COMMIT_TO_REF": head}
    result = entry(bin_dir, repo, "post-checkout", **moved, PRE_COMMIT_CHECKOUT_TYPE="1")
    assert result.returncode == 0 and "Session recovery" in result.stdout
    assert starts(tmp_path) == [f"hook post-checkout {head} {head} 1"]
    result = entry(bin_dir, repo, "post-checkout", **moved, PRE_COMMIT_CHECKOUT_TYPE="0")  # a file checkout
    assert (result.returncode, result.stdout) == (0, "") and len(starts(tmp_path)) == 1
    remote = bare_origin(repo, tmp_path)
    pushed = {"PRE_COMMIT_REMOTE_NAME": "origin", "PRE_COMMIT_REMOTE_URL": str(remote)}
    result = entry(bin_dir, repo, "pre-push", **pushed, PRE_COMMIT_LOCAL_BRANCH="refs/heads/main")
    assert result.returncode == 0, result.stderr
    assert git(remote, "rev-parse", "refs/heads/vibegit/state") == state_ref(repo)
    result = entry(bin_dir, repo, "post-rewrite", PRE_COMMIT_REWRITE_COMMAND="amend")
    assert result.returncode == 0, result.stderr
    assert starts(tmp_path)[1:] == ["hook pre-push", "hook post-rewrite"]


def test_inside_a_linked_worktree(repo: Path, vg: VG, bin_dir: Path, tmp_path: Path) -> None:
    start_workflow(vg)
    other = tmp_path / "other"
    git(repo, "worktree", "add", "-q", "-b", "side", str(other))
    assert entry(bin_dir, other, "pre-commit").returncode == 0 and starts(tmp_path) == []
    assert entry(bin_dir, repo, "pre-commit").returncode == 1


def test_an_unknown_hook_is_named(repo: Path, bin_dir: Path, tmp_path: Path) -> None:
    result = entry(bin_dir, repo, "commit-msg")
    assert result.returncode == 2 and "unknown hook 'commit-msg'" in result.stderr
    assert starts(tmp_path) == []
