"""The raw hooks read vibegit's settings (stateBranch, mirrorDir,
blockCommits) in sh when they can be sure none is set, and ask ``git
config`` otherwise: a setting made anywhere git reads one, after
``vibegit install``, is still obeyed. GIT_TRACE shows which git processes a
hook started."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import VG, commit, git, run_git, start_workflow

SETTINGS = {"vibegit.stateBranch": "team/state", "vibegit.mirrorDir": ".team-mirror"}
CONFIG_TEXT = "[vibegit]\n\tstateBranch = team/state\n\tmirrorDir = .team-mirror\n"
READ = "config --get-regexp"


@pytest.fixture
def hooked(repo: Path, vg: VG) -> Path:
    assert vg("install").code == 0
    return repo


def traced_commit(repo: Path, tmp_path: Path, *git_args: str) -> tuple[int, str, str]:
    """``git [git_args] commit``: exit code, stderr and the git commands run along (GIT_TRACE)."""
    trace = tmp_path / "trace"
    trace.unlink(missing_ok=True)
    result = run_git(repo, *git_args, "commit", "--allow-empty", "-m", "x", env={**os.environ, "GIT_TRACE": str(trace)})
    return result.code, result.err, trace.read_text()


def test_with_no_setting_no_git_config_process(hooked: Path, tmp_path: Path) -> None:
    code, _, trace = traced_commit(hooked, tmp_path)
    assert code == 0 and "cat-file -e" in trace and READ not in trace
    result = run_git(hooked, "checkout", "-q", "-b", "feat", env={**os.environ, "GIT_TRACE": str(tmp_path / "t2")})
    assert result.code == 0 and READ not in (tmp_path / "t2").read_text()


def _local(repo: Path, home: Path, mp: pytest.MonkeyPatch) -> None:
    for key, value in SETTINGS.items():
        git(repo, "config", key, value)


def _global(repo: Path, home: Path, mp: pytest.MonkeyPatch) -> None:
    with (home / ".gitconfig").open("a") as f:
        f.write(CONFIG_TEXT)


ALIASES = "[alias]\n" + "".join(f"\ta{n} = log --graph --oneline --decorate {n}\n" for n in range(80))  # 3 KiB


def _global_far_down(repo: Path, home: Path, mp: pytest.MonkeyPatch) -> None:
    with (home / ".gitconfig").open("a") as f:
        f.write(ALIASES + CONFIG_TEXT)


def _xdg(repo: Path, home: Path, mp: pytest.MonkeyPatch) -> None:
    mp.delenv("GIT_CONFIG_GLOBAL")
    (home / ".config" / "git").mkdir(parents=True)
    (home / ".config" / "git" / "config").write_text(CONFIG_TEXT)


def _system(repo: Path, home: Path, mp: pytest.MonkeyPatch) -> None:
    mp.delenv("GIT_CONFIG_NOSYSTEM")
    (home / "system-config").write_text(CONFIG_TEXT)
    mp.setenv("GIT_CONFIG_SYSTEM", str(home / "system-config"))


def _include(repo: Path, home: Path, mp: pytest.MonkeyPatch) -> None:
    (home / "team.conf").write_text(CONFIG_TEXT)
    git(repo, "config", "include.path", str(home / "team.conf"))


def _include_if(repo: Path, home: Path, mp: pytest.MonkeyPatch) -> None:
    (home / "team.conf").write_text(CONFIG_TEXT)
    git(repo, "config", "includeIf.onbranch:main.path", str(home / "team.conf"))


def _worktree_config(repo: Path, home: Path, mp: pytest.MonkeyPatch) -> None:
    git(repo, "config", "extensions.worktreeConfig", "true")
    for key, value in SETTINGS.items():
        git(repo, "config", "--worktree", key, value)


def _env(repo: Path, home: Path, mp: pytest.MonkeyPatch) -> None:
    mp.setenv("GIT_CONFIG_COUNT", str(len(SETTINGS)))
    for n, (key, value) in enumerate(SETTINGS.items()):
        mp.setenv(f"GIT_CONFIG_KEY_{n}", key)
        mp.setenv(f"GIT_CONFIG_VALUE_{n}", value)


PLACES: dict[str, Callable[[Path, Path, pytest.MonkeyPatch], None]] = {
    "local": _local,
    "global": _global,
    "global, past 1 KiB": _global_far_down,
    "xdg": _xdg,
    "system": _system,
    "include": _include,
    "includeIf": _include_if,
    "worktree config": _worktree_config,
    "GIT_CONFIG_COUNT": _env,
}


def test_past_1_kib_of_config_git_config_reads_it(hooked: Path, tmp_path: Path, hermetic: Path) -> None:
    """sh reads a byte per system call: past 1 KiB in all, one git process is quicker."""
    with (hermetic / ".gitconfig").open("a") as f:
        f.write(ALIASES)
    code, _, trace = traced_commit(hooked, tmp_path)
    assert code == 0 and READ in trace


@pytest.mark.parametrize("place", PLACES)
def test_a_setting_made_after_install_is_obeyed(
    hooked: Path, vg: VG, tmp_path: Path, hermetic: Path, monkeypatch: pytest.MonkeyPatch, place: str
) -> None:
    PLACES[place](hooked, hermetic, monkeypatch)
    start_workflow(vg)  # on team/state, its mirror in .team-mirror: the defaults would find nothing
    assert git(hooked, "rev-parse", "--verify", "-q", "refs/heads/team/state")
    assert git(hooked, "rev-parse", "--verify", "-q", "refs/heads/vibegit/state", check=False) == ""
    code, err, trace = traced_commit(hooked, tmp_path)
    assert code != 0 and "commit blocked" in err, err
    assert READ in trace


def test_git_dash_c_is_obeyed(hooked: Path, vg: VG, tmp_path: Path, hermetic: Path) -> None:
    _local(hooked, hermetic, pytest.MonkeyPatch())
    start_workflow(vg)
    for key in SETTINGS:
        git(hooked, "config", "--unset", key)
    assert commit(hooked).code == 0  # vibegit/state holds no workflow: nothing to block
    dash_c = [x for key, value in SETTINGS.items() for x in ("-c", f"{key}={value}")]
    code, err, trace = traced_commit(hooked, tmp_path, *dash_c)
    assert code != 0 and "commit blocked" in err and READ in trace


def test_in_a_linked_worktree(hooked: Path, vg: VG, tmp_path: Path, hermetic: Path) -> None:
    other = tmp_path / "other"
    git(hooked, "worktree", "add", "-q", "-b", "side", str(other))
    code, _, trace = traced_commit(other, tmp_path)
    assert code == 0 and READ not in trace  # the common dir's config was read in sh
    _local(hooked, hermetic, pytest.MonkeyPatch())
    start_workflow(vg, cwd=other)
    code, err, trace = traced_commit(other, tmp_path)
    assert code != 0 and "commit blocked" in err and READ in trace


def test_another_git_than_install_saw_asks_git_config(hooked: Path, tmp_path: Path) -> None:
    """Run by hand (PATH does not start with the exec path of the git install asked): git config decides."""
    trace = tmp_path / "trace"
    hook = hooked / ".git" / "hooks" / "post-checkout"
    head = git(hooked, "rev-parse", "HEAD")
    env = {**os.environ, "GIT_TRACE": str(trace)}
    proc = subprocess.run([str(hook), head, head, "1"], cwd=hooked, env=env, capture_output=True, text=True)
    assert proc.returncode == 0 and READ in trace.read_text()
