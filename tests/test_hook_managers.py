"""vibegit beside the hook managers people use, the real tools: lefthook and
husky from the npm registry, the pre-commit framework from PyPI, git-lfs
from Debian. Installed before or after vibegit, in either order, again and
again, uninstalled in either order: the other tool's hooks keep running,
vibegit's lock check keeps running (or every vibegit command and doctor say
loudly that it was removed and how to restore it), and nothing is left
behind once both are gone. Slow: real tools, many git commands."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import MIRROR, VG, commit, git, npm_tools, run_git, start_workflow

pytestmark = pytest.mark.slow

ALLOW = "VIBEGIT_ALLOW"


def tool(cwd: Path, *args: str, ok: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(list(args), cwd=cwd, capture_output=True, text=True)
    assert proc.returncode in ok, f"{args}: {proc.returncode} {proc.stdout} {proc.stderr}"
    return proc


def markers(tmp_path: Path) -> list[str]:
    path = tmp_path / "markers"
    return path.read_text().split() if path.exists() else []


def lock_blocks(repo: Path) -> bool:
    result = commit(repo, "while locked")
    return result.code != 0 and "commit blocked" in result.err


def team_hook_runs(repo: Path, tmp_path: Path, name: str) -> bool:
    """An allowed commit runs the other tool's pre-commit hook (it writes ``name`` to the markers)."""
    before = markers(tmp_path).count(name)
    change = repo / "change.txt"  # a real change: lefthook skips commands when nothing is staged
    change.write_text(change.read_text() + "x\n" if change.exists() else "x\n")
    git(repo, "add", "change.txt")
    result = commit(repo, "allowed", env={**os.environ, ALLOW: "1"})
    assert result.code == 0, result.err
    return markers(tmp_path).count(name) == before + 1


def vibegit_left(repo: Path) -> list[str]:
    """Anything of vibegit's still in the repository's git dir."""
    gitdir = repo / ".git"
    left = [str(p) for p in gitdir.rglob("*") if p.is_file() and b"vibegit-hook: " in p.read_bytes()[:200]]
    return left + ([str(gitdir / "vibegit")] if (gitdir / "vibegit").exists() else [])


def hook_files(repo: Path) -> list[str]:
    return sorted(p.name for p in (repo / ".git" / "hooks").iterdir() if not p.name.endswith(".sample"))


# -- lefthook ----------------------------------------------------------------------------------

LEFTHOOK_YML = """\
pre-commit:
  commands:
    marker:
      run: echo lefthook >> {markers}
post-checkout:
  commands:
    marker:
      run: echo lefthook-checkout >> {markers}
"""


@pytest.fixture
def tools_on_path(monkeypatch: pytest.MonkeyPatch) -> Path:
    bin_dir = npm_tools()
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return bin_dir


@pytest.mark.parametrize("first", ["vibegit", "lefthook"])
@pytest.mark.parametrize("uninstall_first", ["vibegit", "lefthook"])
def test_lefthook(repo: Path, vg: VG, tmp_path: Path, tools_on_path: Path, first: str, uninstall_first: str) -> None:
    (repo / "lefthook.yml").write_text(LEFTHOOK_YML.format(markers=tmp_path / "markers"))
    git(repo, "add", "lefthook.yml")
    git(repo, "commit", "-q", "-m", "lefthook")
    for step in [first, "lefthook" if first == "vibegit" else "vibegit"]:
        if step == "vibegit":
            result = vg("install")
            assert result.code == 0, result.err
            if first == "lefthook":
                assert "lefthook's hook stays as it is" in result.out and "lefthook-local.yml" in result.out
        else:
            tool(repo, "lefthook", "install")
    start_workflow(vg)
    assert lock_blocks(repo) and team_hook_runs(repo, tmp_path, "lefthook")
    # vibegit's post-checkout is lefthook's now: doctor says how to call it from lefthook-local.yml.
    result = vg("doctor")
    assert result.code == 1 and "post-checkout" in result.out and "lefthook" in result.out
    (repo / "lefthook-local.yml").write_text(
        "post-checkout:\n  commands:\n    vibegit:\n"
        '      run: \'f="$(git rev-parse --git-common-dir)/vibegit/hooks/post-checkout"; [ ! -x "$f" ] || "$f" {0}\'\n'
    )
    run_git(repo, "checkout", "-q", "-b", "feat")
    result = run_git(repo, "checkout", "main")  # to the workflow's branch: the report
    assert "Session recovery" in result.out + result.err and "lefthook-checkout" in markers(tmp_path)
    assert vg("doctor").code == 0
    # A pull changes lefthook.yml: its next run installs again. The lock check stays.
    (repo / "lefthook.yml").write_text(LEFTHOOK_YML.format(markers=tmp_path / "markers") + "# changed\n")
    assert lock_blocks(repo)
    tool(repo, "lefthook", "install", "--force")
    assert vg("install").code == 0 and lock_blocks(repo) and team_hook_runs(repo, tmp_path, "lefthook")
    assert vg("unlock", "--yes").code == 0
    for step in [uninstall_first, "lefthook" if uninstall_first == "vibegit" else "vibegit"]:
        if step == "vibegit":
            assert vg("uninstall").code == 0
        else:
            tool(repo, "lefthook", "uninstall")
    assert vibegit_left(repo) == [] and hook_files(repo) == []


# -- husky ----------------------------------------------------------------------------------------


def husky(repo: Path) -> None:
    """What 'npm install' runs in a project that uses husky (its prepare script)."""
    tool(repo, "husky")


@pytest.mark.parametrize("first", ["vibegit", "husky"])
@pytest.mark.parametrize("uninstall_first", ["vibegit", "husky"])
def test_husky(repo: Path, vg: VG, tmp_path: Path, tools_on_path: Path, first: str, uninstall_first: str) -> None:
    (repo / ".husky").mkdir()
    (repo / ".husky" / "pre-commit").write_text(f"echo husky >> {tmp_path / 'markers'}\n")
    (repo / "package.json").write_text('{"name": "x", "scripts": {"prepare": "husky"}}\n')
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "husky")
    if first == "vibegit":
        assert vg("install").code == 0
        husky(repo)
        start_workflow(vg)
        assert not lock_blocks(repo)  # git looks in .husky/_ now: said loudly, by every command and doctor
        result = vg("task", "add", "T-9", "x")
        assert "lock check (reference-transaction) does not run" in result.err and "vibegit install" in result.err
        assert vg("doctor").code == 1
        assert vg("unlock", "--yes").code == 0
    else:
        husky(repo)
    stubs = {p.name: p.read_bytes() for p in (repo / ".husky" / "_").iterdir()}
    result = vg("install")
    assert result.code == 0, result.err
    assert "core.hooksPath is '.husky/_'" in result.out and "husky's hook stays as it is" in result.out
    assert 'vibegit/hooks/post-checkout"; [ ! -x "$f" ] || "$f" "$@"' in result.out
    assert {p.name: p.read_bytes() for p in (repo / ".husky" / "_").iterdir() if p.name in stubs} == stubs
    assert git(repo, "status", "--porcelain") == ""  # no tracked file touched, nothing new to commit
    start_workflow(vg)
    assert lock_blocks(repo) and team_hook_runs(repo, tmp_path, "husky")
    husky(repo)  # the next npm install rewrites husky's files; vibegit's lock check is not one of them
    assert lock_blocks(repo) and team_hook_runs(repo, tmp_path, "husky")
    for name in ("post-checkout", "pre-push", "post-rewrite"):  # what a team commits to share them
        line = next(x.strip() for x in result.out.splitlines() if f"vibegit/hooks/{name}" in x)
        (repo / ".husky" / name).write_text(line + "\n")
    run_git(repo, "checkout", "-q", "-b", "feat")
    result = run_git(repo, "checkout", "main")  # to the workflow's branch: the report
    assert "Session recovery" in result.out + result.err
    assert vg("doctor").code == 0
    assert vg("unlock", "--yes").code == 0
    for step in [uninstall_first, "husky" if uninstall_first == "vibegit" else "vibegit"]:
        if step == "vibegit":
            assert vg("uninstall").code == 0
        else:  # husky 9 has no uninstall: this is how
            git(repo, "config", "--unset", "core.hooksPath")
            shutil.rmtree(repo / ".husky" / "_")
    assert vibegit_left(repo) == [] and hook_files(repo) == []
    assert commit(repo).code == 0  # the committed line does nothing without vibegit


# -- a hooks directory the project tracks: husky 5 to 8, a plain .githooks ----------------------------


def tracked_hooks(repo: Path, directory: str, husky_bin: Path | None, markers: Path) -> None:
    """The team's hooks, committed in ``directory`` (git takes hooks from there): a pre-commit and a pre-push."""
    if husky_bin is not None:
        tool(repo, str(husky_bin / "husky"), "install")  # husky 8: core.hooksPath .husky, and .husky/_/
        for name in ("pre-commit", "pre-push"):
            tool(repo, str(husky_bin / "husky"), "add", f"{directory}/{name}", f"echo husky-{name} >> {markers}")
    else:
        (repo / directory).mkdir()
        for name in ("pre-commit", "pre-push"):
            (repo / directory / name).write_text(f"#!/bin/sh\necho husky-{name} >> {markers}\n")
            (repo / directory / name).chmod(0o755)
        git(repo, "config", "core.hooksPath", directory)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "the team's hooks")


@pytest.mark.parametrize("manager", ["husky8", "githooks"])
def test_a_tracked_hooks_directory_is_never_dirtied(repo: Path, vg: VG, tmp_path: Path, manager: str) -> None:
    """Shims installed beside the team's committed hooks stay out of 'git add .'
    (listed in info/exclude; uninstall takes those lines out, byte for byte);
    the team's own committed hook is never renamed or rewritten: install says
    which line calls vibegit's from it."""
    from tests.helpers import husky8

    directory = ".husky" if manager == "husky8" else ".githooks"
    tracked_hooks(repo, directory, husky8() if manager == "husky8" else None, tmp_path / "markers")
    exclude = repo / ".git" / "info" / "exclude"
    exclude.write_bytes(exclude.read_bytes().rstrip(b"\n") + b"\n*.local")  # no newline at the end
    before = exclude.read_bytes()
    team = {name: (repo / directory / name).read_bytes() for name in ("pre-commit", "pre-push")}

    result = vg("install")
    assert result.code == 0, result.err
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    git(repo, "add", "-A")
    assert git(repo, "diff", "--cached", "--name-only") == ""  # 'git add .' picks up none of vibegit's
    assert {name: (repo / directory / name).read_bytes() for name in team} == team
    assert not list((repo / directory).glob("*.vibegit-chained"))
    line = 'f="$(git rev-parse --git-common-dir)/vibegit/hooks/pre-push"; [ ! -x "$f" ] || "$f" "$@"'
    assert f"{directory}/pre-push" in result.out and "tracked" in result.out and line in result.out
    assert vg("uninstall").code == 0 and exclude.read_bytes() == before  # byte for byte
    assert vg("install").code == 0 and vg("install").code == 0  # again and again: the same lines, once
    assert vg("uninstall", "--hook", "post-rewrite").code == 0  # the others stay listed
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    assert vg("install").code == 0
    listed = [x for x in exclude.read_text().splitlines() if x.startswith(f"/{directory}/")]
    assert sorted(listed) == sorted(
        f"/{directory}/{n}" for n in ("post-checkout", "post-rewrite", "reference-transaction")
    )

    start_workflow(vg)
    assert lock_blocks(repo) and team_hook_runs(repo, tmp_path, "husky-pre-commit")
    assert vg("unlock", "--yes").code == 0
    (repo / directory / "pre-push").write_text(team["pre-push"].decode() + line + "\n")  # what a team commits
    assert vg("doctor").code == 0, vg("doctor").out

    assert vg("uninstall").code == 0
    assert exclude.read_bytes() == before + f"\n# vibegit state mirror\n/{MIRROR}/\n".encode()  # the mirror's stays
    (repo / directory / "pre-push").write_bytes(team["pre-push"])
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    assert vibegit_left(repo) == []
    assert sorted(p.name for p in (repo / directory).iterdir() if p.is_file()) == ["pre-commit", "pre-push"]


# -- the pre-commit framework ------------------------------------------------------------------------

PRE_COMMIT_CONFIG = """\
default_install_hook_types: [pre-commit, pre-push]
repos:
  - repo: local
    hooks:
      - id: marker
        name: marker
        entry: sh -c 'echo framework >> {markers}'
        language: system
        always_run: true
        pass_filenames: false
        stages: [pre-commit, pre-push]
"""


def pre_commit(repo: Path, *args: str) -> None:
    tool(repo, sys.executable, "-m", "pre_commit", *args)


@pytest.mark.parametrize("hooks", [(), ("pre-commit", "reference-transaction", "pre-push")])
@pytest.mark.parametrize("uninstall_first", ["vibegit", "pre-commit"])
def test_the_pre_commit_framework(
    repo: Path, vg: VG, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hooks: tuple[str, ...], uninstall_first: str
) -> None:
    monkeypatch.setenv("PRE_COMMIT_HOME", str(tmp_path / "pre-commit-home"))
    (repo / ".pre-commit-config.yaml").write_text(PRE_COMMIT_CONFIG.format(markers=tmp_path / "markers"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "pre-commit")
    install = ["install", *(x for h in hooks for x in ("--hook", h))]
    # vibegit, the framework, vibegit again, the framework again: never a loop, never a lost check.
    start_workflow(vg)
    for n, step in enumerate(("vibegit", "pre-commit", "vibegit", "pre-commit")):
        if step == "vibegit":
            assert vg(*install).code == 0
        else:
            pre_commit(repo, "install")
        assert lock_blocks(repo), step
        assert n == 0 or team_hook_runs(repo, tmp_path, "framework"), step
    assert "bug" not in commit(repo, "x", env={**os.environ, ALLOW: "1"}).err
    assert vg("unlock", "--yes").code == 0
    for step in [uninstall_first, "pre-commit" if uninstall_first == "vibegit" else "vibegit"]:
        if step == "vibegit":
            assert vg("uninstall").code == 0
        else:
            pre_commit(repo, "uninstall")
    assert vibegit_left(repo) == [] and hook_files(repo) == []


# -- git-lfs ----------------------------------------------------------------------------------------------


@pytest.fixture
def lfs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The real git-lfs, behind a wrapper that logs each call (Debian's package; .ci/run installs it)."""
    real = shutil.which("git-lfs")
    if real is None:
        if os.environ.get("CI"):
            raise AssertionError("CI needs git-lfs (apt-get install -y git-lfs)")
        pytest.skip("git-lfs is not installed (apt-get install -y git-lfs)")
    wrap = tmp_path / "lfs-bin"
    wrap.mkdir()
    log = tmp_path / "lfs-calls"
    (wrap / "git-lfs").write_text(f'#!/bin/sh\necho "$1" >> {log}\nexec {real} "$@"\n')
    (wrap / "git-lfs").chmod(0o755)
    monkeypatch.setenv("PATH", f"{wrap}{os.pathsep}{os.environ['PATH']}")
    return log


@pytest.mark.parametrize("first", ["vibegit", "git-lfs"])
@pytest.mark.parametrize("uninstall_first", ["vibegit", "git-lfs"])
def test_git_lfs(repo: Path, vg: VG, tmp_path: Path, lfs: Path, first: str, uninstall_first: str) -> None:
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    if first == "git-lfs":
        tool(repo, "git", "lfs", "install", "--local")
        assert vg("install").code == 0
    else:
        assert vg("install").code == 0
        tool(repo, "git", "lfs", "install", "--local", ok=(2,))  # "Hook already exists": it writes none
        result = vg("doctor")
        assert result.code == 1 and "git lfs update --force && vibegit install" in result.out
        tool(repo, "git", "lfs", "update", "--force")
        assert vg("install").code == 0
    assert vg("doctor").code == 0
    start_workflow(vg)
    assert lock_blocks(repo)
    run_git(repo, "checkout", "-q", "-b", "feat")
    lfs.unlink(missing_ok=True)
    result = run_git(repo, "checkout", "main")  # to the workflow's branch: the report
    assert "Session recovery" in result.out + result.err
    result = run_git(repo, "push", "-q", "origin", "feat")
    assert result.code == 0, result.err
    # git-lfs's hooks ran: pre-push for the user's push, and again for the state push
    assert lfs.read_text().split() == ["post-checkout", "pre-push", "pre-push"]
    assert git(bare, "rev-parse", "vibegit/state") == git(repo, "rev-parse", "vibegit/state")
    assert vg("unlock", "--yes").code == 0
    for step in [uninstall_first, "git-lfs" if uninstall_first == "vibegit" else "vibegit"]:
        if step == "vibegit":
            result = vg("uninstall")
            assert result.code == 0
        else:
            tool(repo, "git", "lfs", "uninstall", "--local")
    if uninstall_first == "git-lfs":  # git-lfs left its hooks while vibegit's were in front: vibegit says so
        assert "'git lfs uninstall --local' removes them" in result.out
        tool(repo, "git", "lfs", "uninstall", "--local")
    assert vibegit_left(repo) == [] and hook_files(repo) == []
