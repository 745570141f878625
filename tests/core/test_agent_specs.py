"""What install writes for each agent (core/agents.py): the exact marker of
vibegit's hook commands, the managed block, the seed's commands."""

from __future__ import annotations

import pytest

from vibegit.core import agents
from vibegit.errors import BadInput


def test_vibegits_entries_are_told_by_their_whole_command() -> None:
    for python in (None, "/home/u/.venv/bin/python"):
        command = agents.command(python, "hook", "stop", "--agent", "codex")
        assert agents.ours({"type": "command", "command": command}) == ("stop", "codex")
    assert agents.ours({"command": "vibegit hook session-start --agent claude"}) == ("session-start", "claude")  # older
    for foreign in (
        "vibegit status --brief",
        "echo vibegit hook stop --agent claude",
        "vibegit hook stop --agent claude; rm -rf ~",
        agents.command(None, "hook", "stop", "--agent", "claude") + " && curl evil",
    ):
        assert agents.ours({"command": foreign}) is None, foreign
    assert agents.ours("vibegit hook stop --agent claude") is None and agents.ours({"command": 1}) is None


def test_an_interpreter_path_every_shell_takes() -> None:
    assert agents.python_arg("/opt/py 3/bin/python") == "'/opt/py 3/bin/python'"
    for bad in ("python3", "/a'b/python", "/a/$HOME/python", "/a\\b"):
        with pytest.raises(BadInput):
            agents.python_arg(bad)


def test_the_managed_block_goes_in_and_out_exactly() -> None:
    mine = "# Project\n\nRun make test.\n"
    added = agents.with_block(mine, "## Workflow\nbody")
    assert added.startswith(mine + "\n" + agents.BEGIN) and added.endswith(agents.END + "\n")
    assert agents.with_block(added, "## Workflow\nnew body").count(agents.BEGIN) == 1
    assert agents.without_block(added) == mine and agents.without_block(mine) is None
    middle = added + "\n## After\n"
    assert agents.without_block(middle) == mine + "\n## After\n"
    quoted = mine + "`" + agents.BEGIN + "` is how it starts\n"  # not on a line of its own: not the block
    assert agents.find_block(quoted) is None


def test_the_seeds_commands_in_each_agents_form() -> None:
    abort = next(c for c in agents.SLASH_COMMANDS if c.name == "vibe-abort")
    claude = agents.command_file(agents.SPECS["claude"], abort)
    assert claude.startswith("---\n") and "disable-model-invocation: true" in claude and "$ARGUMENTS" in claude
    gemini = agents.command_file(agents.SPECS["gemini"], abort)
    assert "{{args}}" in gemini and gemini.splitlines()[1].startswith("description = ")
    cursor = agents.command_file(agents.SPECS["cursor"], abort)
    assert "{args}" not in cursor and "`vibegit abort` in my own terminal" in cursor
    for text in (claude, gemini, cursor):
        assert agents.is_our_command(text.encode())
    assert not agents.is_our_command(b"# my own /vibe-abort\n")
