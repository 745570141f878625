"""The fast path of the common verbs (vibegit/verbs.py): the same options as
typer's command (no drift), and the same output and exit codes both ways."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from tests.helpers import VG, init_repo, start_workflow
from vibegit import cli, verbs


def click_command(words: tuple[str, ...]):  # typer's click command for these words
    command = cli._command()
    for word in words:
        command = command.commands[word]
    return command


@pytest.mark.parametrize("words", list(verbs.VERBS), ids=" ".join)
def test_the_fast_verbs_take_exactly_typers_options(words: tuple[str, ...]) -> None:
    function, names, options = verbs.VERBS[words]
    command = click_command(words)
    arguments = [p for p in command.params if p.param_type_name == "argument"]
    assert tuple(p.name for p in arguments) == names
    assert all(p.required and p.nargs == 1 for p in arguments)
    typers: dict[str, tuple[str, str]] = {}
    for p in command.params:
        if p.param_type_name != "option":
            continue
        assert not p.multiple and not p.secondary_opts and not p.envvar
        kind = verbs.FLAG if p.is_flag else {"int": verbs.NUMBER, "str": verbs.TEXT}[p.type.name]
        typers |= {name: (p.name, kind) for name in p.opts}
    assert typers == options
    assert set(inspect.signature(function).parameters) == {p.name for p in command.params}
    assert set(inspect.signature(command.callback).parameters) == {p.name for p in command.params}


@pytest.mark.parametrize(
    "argv",
    [
        ["status", "--help"],
        ["task", "add", "T-1"],
        ["task", "add", "T-1", "x", "y"],
        ["task", "add", "--", "T-1", "x"],
        ["context", "--answer", "x"],
        ["context", "--answer", "-1"],
        ["context", "--last", "a", "--last", "b"],
        ["context", "--last"],
        ["context", "--json"],
        ["phase", "E", "-wNAME"],
        ["status", "--json=yes"],
        ["status", "--lang", "fr"],
        ["--lang", "zh", "status"],
        ["task"],
        ["sync", "--remote"],
        ["sync", "--redact=yes"],
        ["secrets", "check"],
        [],
    ],
)
def test_anything_not_plain_goes_to_typer(argv: list[str]) -> None:
    assert verbs.parse(argv) is None


def normal(text: str) -> str:
    """Output with the ids and times (random or time-dependent) masked."""
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ|\d\d:\d\d(:\d\d)?", "<time>", text)
    return re.sub(r"\b(sess_\d+_)?[0-9a-f]{6,40}\b", "<id>", text)


LINES = [
    ["status"],
    ["status", "--json"],
    ["status", "--lang", "zh"],
    ["status", "--lang=zh", "-w", "vibe-code"],
    ["list"],
    ["list", "--json"],
    ["task", "list"],
    ["task", "list", "--json", "--workflow", "vibe-code"],
    ["task", "add", "T-003", "Tests: the fast path"],
    ["task", "add", "T-003", "again"],  # refused: exists
    ["task", "start", "T-003"],
    ["task", "done", "T-003"],
    ["task", "done", "T-404"],
    ["task", "add", "", "empty id"],
    ["phase", "P", "--step", "3.1"],
    ["phase", "X"],
    ["context", "--last", "wrote the test", "--next=run it"],
    ["context", "--question", "Which port?"],
    ["context", "--answer", "1", "--reply", "8080"],
    ["context", "--answer", "99", "--reply", "none"],
    ["checkpoint", "--file", "README.md", "--line", "1", "--action", "reading"],
    ["checkpoint", "--file", "nope.txt", "--line", "3"],
    ["checkpoint", "--no-snapshot", "-w", "vibe-code"],
    ["task", "list", "-w", "nobody"],
    ["status", "--compare"],
    ["sync"],  # no remote: refused both ways
    ["sync", "--remote", "nowhere", "--no-verify"],
    ["sync", "--redact"],
]


def test_every_fast_verb_gives_typers_output_and_exit_code(
    vg: VG, repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    twin = init_repo(tmp_path / "twin")
    start_workflow(vg, repo)
    start_workflow(vg, twin)
    assert {tuple(line[: 2 if line[0] == "task" else 1]) for line in LINES} == set(verbs.VERBS)
    for line in LINES:
        assert verbs.parse(line) is not None, line
        fast = vg(*line, cwd=repo)
        with monkeypatch.context() as patch:
            patch.setattr(verbs, "run", lambda _argv: None)  # typer parses it
            typed = vg(*line, cwd=twin)
        assert (fast.code, normal(fast.out), normal(fast.err)) == (
            typed.code,
            normal(typed.out).replace(str(twin), str(repo)),
            normal(typed.err).replace(str(twin), str(repo)),
        ), line


@pytest.mark.parametrize("raised", [KeyboardInterrupt, EOFError, RuntimeError])
def test_an_interrupt_or_a_failure_ends_the_same_both_ways(
    vg: VG, monkeypatch: pytest.MonkeyPatch, raised: type[BaseException]
) -> None:
    from vibegit.commands import status

    def fail(*_args: object) -> int:
        raise raised("boom")

    monkeypatch.setattr(status, "list_", fail)
    fast = vg("list")
    with monkeypatch.context() as patch:
        patch.setattr(verbs, "run", lambda _argv: None)
        typed = vg("list")
    assert (fast.code, fast.out, fast.err) == (typed.code, typed.out, typed.err)
    assert fast.code == {KeyboardInterrupt: 130, EOFError: 1, RuntimeError: 3}[raised]


HEAVY = {"typer", "click", "yaml", "git", "filelock", "typing", "tempfile", "dataclasses", "subprocess", "threading"}


def test_the_fast_verbs_import_no_heavy_module(vg: VG, repo: Path) -> None:
    """What agents call most loads neither typer nor PyYAML, nor the standard
    library's costly modules (``typing``, ``tempfile``, ``subprocess``: milliseconds each at start-up)."""
    import subprocess
    import sys

    start_workflow(vg, repo)
    (repo / "work.txt").write_text("uncommitted\n")
    lines = [
        ["status"],
        ["status", "--json"],
        ["list"],
        ["task", "add", "t1", "One"],
        ["task", "start", "t1"],
        ["phase", "I"],
        ["context", "--last", "read", "--next", "write"],
        ["checkpoint", "--action", "probe"],
    ]
    for line in lines:
        probe = (
            "import sys\nbefore = set(sys.modules)\nfrom vibegit.main import main\n"
            f"code = main({line!r})\n"
            f"print(code, sorted({{m.split('.')[0] for m in set(sys.modules) - before}} & set({sorted(HEAVY)!r})))\n"
        )
        proc = subprocess.run([sys.executable, "-c", probe], cwd=repo, capture_output=True, text=True)
        assert proc.stdout.strip().splitlines()[-1] == "0 []", (line, proc.stdout, proc.stderr)
