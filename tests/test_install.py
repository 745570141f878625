"""``vibegit install`` / ``uninstall``: the hooks directory git really uses,
coexistence with hooks vibegit did not write, and an exact undo."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import VG, bare_origin, commit, git, init_repo, run_git, start_workflow
from vibegit.infra import hookfiles as install

ROOT = Path(__file__).resolve().parent.parent
MARKER_HOOK = '#!/bin/sh\necho ran >> "$(git rev-parse --show-toplevel)/../marker"\n'
LFS_POST_CHECKOUT = (
    "#!/bin/sh\n"
    'command -v git-lfs >/dev/null 2>&1 || { echo >&2 "\\nThis repository is configured for Git LFS but '
    "'git-lfs' was not found on your path.\\n\"; exit 2; }\n"
    'git lfs post-checkout "$@"\n'
)


def snapshot(directory: Path) -> dict[str, tuple[str, bytes]]:
    """Every entry of a directory tree: its kind and mode, and its bytes or link target."""
    if not directory.exists():
        return {}
    found: dict[str, tuple[str, bytes]] = {".": ("dir", oct(directory.stat().st_mode).encode())}
    for path in sorted(directory.rglob("*")):
        rel = path.relative_to(directory).as_posix()
        if path.is_symlink():
            found[rel] = ("link", os.readlink(path).encode())
        elif path.is_dir():
            found[rel] = ("dir", oct(path.stat().st_mode).encode())
        else:
            found[rel] = (oct(path.stat().st_mode), path.read_bytes())
    return found


def hooks_of(repo: Path) -> Path:
    return repo / ".git" / "hooks"


def write_hook(path: Path, text: str, mode: int = 0o755) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)


def test_install_is_idempotent_and_uninstall_restores_every_byte(repo: Path, vg: VG) -> None:
    before = snapshot(hooks_of(repo))
    result = vg("install")
    assert result.code == 0, result.err
    for name in install.DEFAULT_HOOKS:
        path = hooks_of(repo) / name
        assert install.is_ours(path) and path.stat().st_mode & stat.S_IXUSR
        assert f"VIBEGIT_PYTHON={sys.executable}" in path.read_text()
        assert f"{name}: installed" in result.out
        assert (repo / ".git" / "vibegit" / "hooks" / name).read_text() == path.read_text()  # vibegit's own copy
    assert not (hooks_of(repo) / "pre-commit").exists()  # opt-in: reference-transaction is the lock check
    installed = snapshot(repo / ".git")
    again = vg("install")
    assert again.code == 0 and again.out.count("already installed, unchanged") == 4
    assert snapshot(repo / ".git") == installed
    result = vg("uninstall")
    assert result.code == 0 and result.out.count(": removed") == 4
    assert snapshot(hooks_of(repo)) == before and not (repo / ".git" / "vibegit").exists()
    assert vg("uninstall", "--hook", "pre-push").out.count("not installed") == 1


def test_choosing_hooks(repo: Path, vg: VG) -> None:
    assert vg("install", "--hook", "pre-commit", "--hook", "pre-push").code == 0
    assert sorted(p.name for p in hooks_of(repo).iterdir() if install.is_ours(p)) == ["pre-commit", "pre-push"]
    assert vg("uninstall", "--hook", "pre-push").code == 0
    assert [p.name for p in hooks_of(repo).iterdir() if install.is_ours(p)] == ["pre-commit"]
    result = vg("install", "--hook", "post-merge")
    assert result.code == 2 and "--hook 'post-merge'" in result.err


def test_shipped_scripts_are_the_shims_with_vibegit_on_path() -> None:
    for name in install.HOOK_NAMES:
        shipped = ROOT / "hooks" / name
        assert shipped.read_text() == install.script(name), f"hooks/{name} is stale: python -m vibegit.infra.hookfiles"
        assert shipped.stat().st_mode & stat.S_IXUSR


def test_a_foreign_pre_commit_hook_is_chained_and_restored(repo: Path, vg: VG, tmp_path: Path) -> None:
    foreign = hooks_of(repo) / "pre-commit"
    write_hook(foreign, MARKER_HOOK, 0o750)
    before = snapshot(hooks_of(repo))
    assert vg("install").code == 0  # the lock check is reference-transaction: pre-commit is left alone
    assert foreign.read_text() == MARKER_HOOK
    start_workflow(vg)
    result = commit(repo)
    assert result.code != 0 and "commit blocked" in result.err
    assert (tmp_path / "marker").read_text() == "ran\n"  # it ran, then the lock refused the commit
    assert vg("unlock", "--yes").code == 0 and vg("uninstall").code == 0
    (tmp_path / "marker").unlink()
    result = vg("install", "--hook", "pre-commit")  # the early check, chained
    assert result.code == 0
    assert "renamed to pre-commit.vibegit-chained" in result.out
    chained = hooks_of(repo) / "pre-commit.vibegit-chained"
    assert chained.read_text() == MARKER_HOOK and stat.S_IMODE(chained.stat().st_mode) == 0o750
    marker = tmp_path / "marker"
    assert commit(repo).code == 0
    assert marker.read_text() == "ran\n"  # still runs, after vibegit's check
    start_workflow(vg)
    result = commit(repo)
    assert result.code == 1 and "commit blocked" in result.err
    assert marker.read_text() == "ran\n"  # a blocked commit stops at vibegit's check
    assert vg("install", "--hook", "pre-commit").out.count("unchanged") == 1
    assert vg("uninstall").code == 0
    assert snapshot(hooks_of(repo)) == before


def test_a_failing_chained_hook_still_fails_the_commit(repo: Path, vg: VG) -> None:
    write_hook(hooks_of(repo) / "pre-commit", "#!/bin/sh\necho 'lint failed' >&2\nexit 7\n")
    assert vg("install").code == 0
    result = commit(repo)
    assert result.code != 0 and "lint failed" in result.err


def test_a_git_lfs_style_post_checkout_keeps_working(
    repo: Path, vg: VG, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "fake-lfs"
    write_hook(bin_dir / "git-lfs", f'#!/bin/sh\necho "$@" >> {tmp_path / "lfs-calls"}\n')
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    write_hook(hooks_of(repo) / "post-checkout", LFS_POST_CHECKOUT)
    before = snapshot(hooks_of(repo))
    assert vg("install").code == 0
    start_workflow(vg)
    head = git(repo, "rev-parse", "HEAD")
    git(repo, "branch", "feat")
    result = run_git(repo, "checkout", "feat")  # no workflow on feat: lfs alone speaks
    assert result.code == 0 and "Session recovery" not in result.err, result.err
    result = run_git(repo, "checkout", "main")
    assert result.code == 0 and "Session recovery" in result.err, result.err
    assert (tmp_path / "lfs-calls").read_text() == f"post-checkout {head} {head} 1\n" * 2
    assert vg("uninstall").code == 0
    assert snapshot(hooks_of(repo)) == before


def test_a_foreign_pre_push_with_stdin_is_chained(repo: Path, vg: VG, tmp_path: Path) -> None:
    seen = tmp_path / "pre-push-saw"
    write_hook(hooks_of(repo) / "pre-push", f'#!/bin/sh\necho "$1" >> {seen}\ncat >> {seen}\n')
    bare = bare_origin(repo, tmp_path)
    assert vg("install").code == 0
    start_workflow(vg)
    result = run_git(repo, "push", "origin", "main")
    assert result.code == 0, result.err
    lines = seen.read_text().splitlines()  # for the user's push, then for the state push (vibegit's own stays quiet)
    assert len(lines) == 4 and lines[0] == lines[2] == "origin"
    assert lines[1].startswith("refs/heads/main ")
    local, sha, remote_ref, _ = lines[3].split()  # the state push names the commit the scan read
    assert local == sha == git(repo, "rev-parse", "vibegit/state") and remote_ref == "refs/heads/vibegit/state"
    assert git(bare, "rev-parse", "refs/heads/vibegit/state") == git(repo, "rev-parse", "vibegit/state")


def test_a_refusing_chained_pre_push_keeps_the_state_home(repo: Path, vg: VG, tmp_path: Path) -> None:
    write_hook(hooks_of(repo) / "pre-push", "#!/bin/sh\necho 'push refused by policy' >&2\nexit 1\n")
    bare = bare_origin(repo, tmp_path)
    assert vg("install").code == 0
    start_workflow(vg)
    result = run_git(repo, "push", "origin", "main")
    assert result.code != 0 and "refused by policy" in result.err
    assert git(bare, "rev-parse", "-q", "--verify", "refs/heads/vibegit/state", check=False) == ""


def test_core_hooks_path_shared_by_two_repositories(tmp_path: Path, vg: VG) -> None:
    shared = tmp_path / "shared-hooks"
    write_hook(shared / "pre-commit", MARKER_HOOK)
    before = snapshot(shared)
    one, two = init_repo(tmp_path / "one"), init_repo(tmp_path / "two")
    for r in (one, two):
        git(r, "config", "core.hooksPath", str(shared))
    result = vg("install", cwd=one)
    assert result.code == 0 and f"Hooks in {shared}" in result.out
    assert not any(install.is_ours(p) for p in hooks_of(one).iterdir())
    start_workflow(vg, cwd=one)
    assert commit(one).code != 0  # one's workflow blocks one ...
    result = commit(two)  # ... and not two, which shares the hooks but has no workflow
    assert result.code == 0 and "vibegit" not in result.err
    assert (tmp_path / "marker").read_text() == "ran\nran\n"  # the team's hook runs in both, untouched
    assert vg("uninstall", cwd=two).code == 0  # from either repository
    assert snapshot(shared) == before


def test_a_relative_hooks_path_that_does_not_exist_yet(repo: Path, vg: VG) -> None:
    git(repo, "config", "core.hooksPath", ".husky/_")
    (repo / "src").joinpath("x").mkdir()
    result = vg("install", cwd=repo / "src" / "x")  # from a subdirectory: still the repository's path
    assert result.code == 0, result.err
    assert install.is_ours(repo / ".husky" / "_" / "reference-transaction")
    start_workflow(vg)
    assert commit(repo).code != 0
    assert vg("uninstall").code == 0
    assert not (repo / ".husky").exists()


def test_install_from_a_linked_worktree_uses_the_shared_hooks(repo: Path, vg: VG, tmp_path: Path) -> None:
    git(repo, "worktree", "add", "-q", "-b", "side", str(tmp_path / "wt"))
    assert vg("install", cwd=tmp_path / "wt").code == 0
    assert install.is_ours(hooks_of(repo) / "reference-transaction")
    start_workflow(vg, tmp_path / "wt")  # a workflow of the linked worktree's branch
    assert commit(tmp_path / "wt").code != 0 and commit(repo).code == 0


def test_a_symlinked_hook_is_chained_as_a_link(repo: Path, vg: VG, tmp_path: Path) -> None:
    target = tmp_path / "team-hook"
    write_hook(target, MARKER_HOOK)
    (hooks_of(repo) / "pre-commit").symlink_to(target)
    before = snapshot(hooks_of(repo))
    assert vg("install", "--hook", "pre-commit").code == 0
    assert (hooks_of(repo) / "pre-commit.vibegit-chained").is_symlink()
    assert commit(repo).code == 0 and (tmp_path / "marker").exists()
    assert vg("uninstall").code == 0
    assert snapshot(hooks_of(repo)) == before


def test_install_refuses_rather_than_lose_a_hook(repo: Path, vg: VG) -> None:
    write_hook(hooks_of(repo) / "pre-push", MARKER_HOOK)
    write_hook(hooks_of(repo) / "pre-push.vibegit-chained", "#!/bin/sh\nexit 0\n")
    before = snapshot(repo / ".git")
    result = vg("install")
    assert result.code == 1
    assert "move one of them away" in result.err and "nothing was changed" in result.err
    assert snapshot(repo / ".git") == before


def test_uninstall_leaves_foreign_hooks_alone(repo: Path, vg: VG) -> None:
    write_hook(hooks_of(repo) / "post-checkout", LFS_POST_CHECKOUT)
    result = vg("uninstall", "--hook", "post-checkout")
    assert result.code == 0 and "not vibegit's hook, left alone" in result.out
    assert (hooks_of(repo) / "post-checkout").read_text() == LFS_POST_CHECKOUT


def test_install_outside_a_repository(tmp_path: Path, vg: VG) -> None:
    result = vg("install", cwd=tmp_path)
    assert result.code == 2 and "not inside a git repository" in result.err


def test_install_refuses_in_a_bare_repository(tmp_path: Path, vg: VG) -> None:
    bare = tmp_path / "b.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    before = snapshot(bare / "hooks")
    result = vg("install", cwd=bare)
    assert result.code == 2 and "bare repository" in result.err
    assert len(result.err.strip().splitlines()) == 1
    assert snapshot(bare / "hooks") == before


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to give the repository away")
def test_a_repository_owned_by_another_user_gets_gits_safe_directory_advice(repo: Path, vg: VG) -> None:
    for path in (repo, *repo.rglob("*")):
        os.lchown(path, 65534, 65534)
    for command in ("status", "install"):
        result = vg(command)
        assert result.code == 2, result.err
        assert "owned by another user" in result.err and f"safe.directory {repo}" in result.err
        assert "not inside a git repository" not in result.err


@pytest.mark.parametrize("name", install.HOOK_NAMES)
def test_every_shim_is_valid_posix_sh(name: str, tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_text(install.script(name, "/some/python"))
    proc = subprocess.run(["sh", "-n", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
