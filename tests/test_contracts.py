"""Where a rule has two forms, one test on generated inputs holds them equal.

- The hook shims decide in POSIX sh, without Python, whether a commit or a
  checkout needs vibegit at all: the branch key of ``branches/<key>``, the
  branch HEAD names, and the vibegit.* settings. Python has the same rules
  (``workflows.branch_key``, ``git.head_branch``, ``settings.settings``).
  Where sh is sure, it must agree with Python; where it is not, it leaves
  the decision to Python (which fails closed).
- Python's check of a ref name (the state branch, a remote's fetched copy) and ``git check-ref-format``.
- An event moves the state ref without the reference-transaction hook when
  the hook is vibegit's shim alone (``hookplace.state_moves_unhooked``):
  under any settings Python accepts, the shim lets such a move through
  without a word.
- The fast verbs (``verbs.parse``) parse plain command lines without typer:
  whatever they accept, click parses to the same values.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import git, init_repo
from vibegit import cli, verbs
from vibegit.core import workflows
from vibegit.core.settings import BLOCK_POLICIES, branch_name_ok, ref_name_ok
from vibegit.core.settings import settings as read_settings
from vibegit.errors import BadInput
from vibegit.infra import git as vgit
from vibegit.infra import hookfiles, hookplace

LIB = hookfiles._resource("lib.sh")
SLOW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def sh(script: str, *args: str, cwd: Path | None = None) -> str:
    proc = subprocess.run(["sh", "-c", LIB + "\n" + script, "sh", *args], cwd=cwd, capture_output=True, check=True)
    return proc.stdout.decode("utf-8", "surrogateescape")


# Branch names git accepts: ASCII and not, with the characters the key escapes.
PART = st.text(st.sampled_from("abcXYZ019._-%+@é中"), min_size=1, max_size=8).filter(
    lambda p: not p.startswith(".") and not p.endswith(".lock") and not p.endswith(".") and ".." not in p
)
BRANCH = st.lists(PART, min_size=1, max_size=4).map("/".join).filter(lambda b: "@{" not in b and b != "@")


def valid(branch: str) -> bool:
    return subprocess.run(["git", "check-ref-format", "--branch", branch], capture_output=True).returncode == 0


@SLOW
@given(branch=BRANCH)
def test_the_branch_key_is_the_same_in_sh_and_python(branch: str) -> None:
    assert sh('key_of "$1"; printf %s "$key"', branch) == workflows.branch_key(branch)


@pytest.fixture(scope="module")
def head_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return init_repo(tmp_path_factory.mktemp("head") / "repo")


@SLOW
@given(branch=st.one_of(BRANCH, st.none()), rebasing=st.booleans())
def test_heads_branch_key_is_the_same_in_sh_and_python(head_repo: Path, branch: str | None, rebasing: bool) -> None:
    if branch is not None and not valid(branch):
        return
    gitdir = head_repo / ".git"
    oid = git(head_repo, "rev-parse", "HEAD~0") if branch is None else ""
    (gitdir / "HEAD").write_text(f"ref: refs/heads/{branch}\n" if branch is not None else f"{oid}\n")
    rebase = gitdir / "rebase-merge"
    rebase.mkdir(exist_ok=True) if rebasing else None
    try:
        key = sh('head_key; printf %s "$key"', cwd=head_repo)
        repo = vgit.find_repo(head_repo)
        python = workflows.branch_key(vgit.head_branch(repo))
    finally:
        (gitdir / "HEAD").write_text("ref: refs/heads/main\n")
        if rebasing:
            rebase.rmdir()
    if key == "":
        return  # sh is not sure (a rebase on a detached HEAD): Python decides
    assert key == python


VALUE = st.one_of(
    st.sampled_from(["", " ", "vibegit/state", "refs/heads/state", "state ", "a..b", "x/", "-x", "ALWAYS"]),
    st.text(st.sampled_from("ab/._-~^: \\é中"), max_size=12),
)
SETTING = st.fixed_dictionaries(
    {},
    optional={
        "vibegit.stateBranch": VALUE,
        "vibegit.mirrorDir": st.one_of(VALUE, st.sampled_from(["../out", "/abs", ".git/x", "docs/state/", "a//b"])),
        "vibegit.blockCommits": st.one_of(VALUE, st.sampled_from([*BLOCK_POLICIES, "Never", "sometimes"])),
    },
)


@SLOW
@given(config=SETTING)
def test_the_settings_sh_is_sure_of_are_pythons(head_repo: Path, config: dict[str, str]) -> None:
    for key in ("vibegit.stateBranch", "vibegit.mirrorDir", "vibegit.blockCommits"):
        git(head_repo, "config", "--unset-all", key, check=False)
    for key, value in config.items():
        git(head_repo, "config", key, value)
    said = sh('state_branch; printf "%s\\n%s\\n%s" "$branch" "$mirror" "$policy"', cwd=head_repo).split("\n")
    branch, mirror, policy = said
    if branch == "?":
        return  # sh is not sure: Python reads the settings (and a bad one blocks)
    repo = vgit.find_repo(head_repo)
    conf = read_settings(vgit.read_config(repo), fallback=lambda _message: None)
    assert branch == f"refs/heads/{conf.state_branch}"
    assert mirror.rstrip("/") == conf.mirror_dir
    if policy in BLOCK_POLICIES:
        assert policy == conf.block_commits


REF_NAME = st.text(st.sampled_from("ab/.-_@{}~^:?*[\\ \x7f\x01é"), min_size=0, max_size=10)


@settings(max_examples=300, deadline=None)
@given(name=st.one_of(REF_NAME, st.sampled_from([".", "._", "a.lock", "a/.b", "a//b", "@", "a@{b", "a.", "/a", "-x"])))
def test_the_ref_names_python_takes_are_the_ones_git_takes(name: str) -> None:
    """The state branch's name, and the ref a remote's copy is fetched to (its remote's name in it)."""
    for ref, ours in (
        (f"refs/heads/{name}", branch_name_ok(name)),
        (f"{vgit.REMOTE_NS}{name}", ref_name_ok(f"{vgit.REMOTE_NS}{name}")),
    ):
        assert ours == (subprocess.run(["git", "check-ref-format", ref], capture_output=True).returncode == 0), ref


@pytest.fixture(scope="module")
def locked_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """vibegit's hooks installed, and a workflow holding main's lock."""
    repo = init_repo(tmp_path_factory.mktemp("locked") / "repo")
    for args in (("install",), ("start", "vibe-code", "--goal", "g")):
        proc = subprocess.run([sys.executable, "-m", "vibegit", *args], cwd=repo, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
    return repo


@SLOW
@given(config=SETTING)
def test_the_lock_hook_lets_the_state_ref_through_under_any_settings(locked_repo: Path, config: dict[str, str]) -> None:
    repo = locked_repo
    for key in ("vibegit.stateBranch", "vibegit.mirrorDir", "vibegit.blockCommits"):
        git(repo, "config", "--unset-all", key, check=False)
    for key, value in config.items():
        git(repo, "config", key, value)
    found = vgit.find_repo(repo)
    read = vgit.read_config(found)
    try:
        conf = read_settings(read)
    except BadInput:
        return  # no command gets as far as moving the state ref
    assert hookplace.state_moves_unhooked(hookplace.place_of(found, read))
    new = git(repo, "commit-tree", "-m", "state", git(repo, "mktree", input=""))  # no ref reaches it
    old = git(repo, "rev-parse", "-q", "--verify", conf.state_ref, check=False) or "0" * 40
    moved = subprocess.run(["git", "update-ref", conf.state_ref, new, old], cwd=repo, capture_output=True, text=True)
    git(repo, "update-ref", conf.state_ref, old, new) if set(old) != {"0"} else git(
        repo, "update-ref", "-d", conf.state_ref
    )
    assert (moved.returncode, moved.stdout, moved.stderr) == (0, "", "")
    if conf.state_branch == "vibegit/state" and conf.block_commits == "always":  # the hook does run, and looks
        to_main = subprocess.run(
            ["git", "update-ref", "refs/heads/main", new], cwd=repo, capture_output=True, text=True
        )
        assert to_main.returncode != 0 and "commit blocked" in to_main.stderr


def test_every_python_vibegit_starts_drops_the_directory_it_runs_from() -> None:
    """The git hooks' boot code (sh-quoted Python, no import of vibegit
    before it) starts as agents.python_argv and the agents' launcher do."""
    from vibegit.core import agents

    assert hookfiles._resource("boot.py").startswith(agents.UNSHADOW + "  #")
    assert agents.UNSHADOW in agents.launcher("/usr/bin/python3") and agents.ISOLATED in agents.launcher("/p")
    assert f'"$python" {agents.ISOLATED} -c' in LIB


# -- the fast verbs against click ------------------------------------------------------------

WORDS = [list(w) for w in verbs.VERBS]
OPTIONS = sorted({name for _f, _n, options in verbs.VERBS.values() for name in options} | {"--help", "--", "-x"})
TOKEN = st.one_of(
    st.sampled_from(OPTIONS),
    st.sampled_from(OPTIONS).map(lambda o: o + "="),
    st.builds(lambda o, v: f"{o}={v}", st.sampled_from(OPTIONS), st.sampled_from(["1", "x", "", "-1", "zh"])),
    st.sampled_from(["1", "007", "-1", "E", "T-001", "zh", "fr", "a b", "", "-", "=", "é", "¹"]),
)


@settings(max_examples=400, deadline=None)
@given(words=st.sampled_from(WORDS), rest=st.lists(TOKEN, max_size=6))
def test_what_the_fast_parser_accepts_click_parses_the_same(words: list[str], rest: list[str]) -> None:
    parsed = verbs.parse([*words, *rest])
    if parsed is None:
        return  # typer parses it, errors and all
    function, kwargs = parsed
    command = cli._command()
    for word in words:
        command = command.commands[word]
    try:
        ctx = command.make_context(" ".join(words), list(rest))
    except click.exceptions.Exit:  # pragma: no cover - the fast parser never takes --help
        raise AssertionError(f"{words} {rest}: click stopped, the fast parser ran {function.__name__}") from None
    except click.ClickException as err:
        raise AssertionError(f"{words} {rest}: click refuses ({err}), the fast parser accepted {kwargs}") from None
    given_by_click = {k: v for k, v in ctx.params.items() if v is not None and v is not False}
    assert given_by_click == kwargs, (words, rest)
