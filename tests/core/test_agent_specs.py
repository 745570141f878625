"""What install writes for each agent (core/agents.py): the exact marker of
vibegit's hook commands, the managed block, the seed's commands."""

from __future__ import annotations

import pytest

from vibegit.core import agents
from vibegit.errors import BadInput


def test_vibegits_entries_are_told_by_their_whole_command() -> None:
    for user in (None, "/home/u/.local/state/vibegit/bin/vibegit"):
        command = agents.command(user, "hook", "stop", "--agent", "codex")
        assert agents.ours({"type": "command", "command": command}) == ("stop", "codex")
    old = (  # the launcher of before, in every entry: still vibegit's (install replaces it, uninstall removes it)
        'sh -c \'p=$1; shift; exec "$p" "$@"\' vibegit-agent-hook - hook stop --agent claude',
        "sh -c 'p=$1; shift; exec \"$p\" \"$@\"' vibegit-agent-hook '/a b/python' hook stop --agent claude",
    )
    assert all(agents.ours({"command": c}) == ("stop", "claude") for c in old)
    assert agents.ours({"command": "vibegit hook session-start --agent claude"}) == ("session-start", "claude")  # older
    for foreign in (
        "vibegit status --brief",
        "echo vibegit hook stop --agent claude",
        "vibegit hook stop --agent claude; rm -rf ~",
        agents.command(None, "hook", "stop", "--agent", "claude") + " && curl evil",
    ):
        assert agents.ours({"command": foreign}) is None, foreign
    assert agents.ours("vibegit hook stop --agent claude") is None and agents.ours({"command": 1}) is None


def test_a_path_every_shell_takes() -> None:
    assert agents.shell_path("/opt/py 3/bin/vibegit") == "'/opt/py 3/bin/vibegit'"
    for bad in ("vibegit", "/a'b/vibegit", "/a/$HOME/vibegit", "/a\\b"):
        with pytest.raises(BadInput):
            agents.shell_path(bad)
    assert agents.launcher_python(agents.launcher("/opt/it's/python3")) == "/opt/it's/python3"
    assert agents.launcher_python("#!/bin/sh\np=/usr/bin/python3\n") is None  # not vibegit's


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


# -- the words given to agents name only commands and options that exist -------------

PLACEHOLDERS = {"...": "x", '"..."': "x", "TEXT": "x", "TITLE": "x", "GOAL": "x", "NAME": "vibe-code", "ID": "T-001"}
PLACEHOLDERS |= {"N": "1", "PATH": "a.py", "T-001": "T-001", "M-001": "M-001"}


def _variants(line: str) -> list[list[str]]:
    """The argument vectors a command line as written for an agent stands for:
    each ``a|b`` for each alternative, ``[opt]`` with and without, placeholders
    filled (``...``, ``ID``, ``N``, ``PATH``)."""
    import itertools
    import re
    import shlex

    optional = re.findall(r"\[([^\]]*)\]", line)
    bare = re.sub(r"\s*\[[^\]]*\]", "", line)
    lines = [bare, bare + " " + " ".join(optional)] if optional else [bare]
    out = []
    for text in lines:
        words = shlex.split(text.replace('"..."', "...").replace("'", " "))[1:]  # without "vibegit"
        options = [w.split("|") if "|" in w and not w.startswith("-") else [w] for w in words]
        for combo in itertools.product(*options):
            out.append([PLACEHOLDERS.get(w, w) for w in combo])
    return out


def _parses(argv: list[str]) -> str | None:
    """None when the CLI takes ``argv`` (options, arguments, subcommands), else why not."""
    from vibegit import cli

    command = cli._command()
    try:
        ctx = command.make_context("vibegit", list(argv))
        while hasattr(command, "resolve_command"):
            rest = [*getattr(ctx, "protected_args", ctx._protected_args), *ctx.args]
            _name, command, rest = command.resolve_command(ctx, rest)
            ctx = command.make_context(_name, rest, parent=ctx)
        if ctx.args:
            return f"extra arguments {ctx.args}"
    except Exception as err:  # click's usage errors, whatever their class
        return f"{type(err).__name__}: {err}"
    return None


def agent_texts() -> dict[str, str]:
    """Every text vibegit gives an agent, in both languages: the protocol, the
    seed's commands, the session report's and Stop's words."""
    from vibegit.core import agentturn, lifecycle, messages, protocol, report
    from vibegit.core.model import Env, State

    texts = {f"protocol {lang}": body for lang, body in protocol.PROTOCOL.items()}
    for agent in agents.SPECS.values():
        for cmd in agents.SLASH_COMMANDS if agent.command_ext else ():
            texts[f"{agent.name} /{cmd.name}"] = agents.command_file(agent, cmd)
    for key, pair in messages.MESSAGES.items():
        if key.split(".")[0] in ("agent", "report", "person", "workflow", "lifecycle"):
            texts |= {f"{key} en": pair[0], f"{key} zh": pair[1]}
    env = Env(now="2025-01-12T10:00:00Z", host="laptop", worktree="/w", head=None)
    state, _ = lifecycle.start(State(), env, "vibe-code", "g")
    texts["stop, no task"] = report.stop_reason(state)
    state, _ = lifecycle.task_add(state, env, "T-001", "Data model")
    texts["stop"] = report.stop_reason(state)
    texts["confirm"] = agentturn.confirm_reason(state)
    for lang in ("en", "zh"):
        texts[f"report {lang}"] = report.for_agent(state, lang)
        texts[f"short report {lang}"] = report.for_agent(state, lang, short=True)
    return texts


def test_every_vibegit_command_given_to_an_agent_exists() -> None:
    import re

    seen, wrong = 0, []
    for where, text in agent_texts().items():
        for found in re.findall(r"`(vibegit [^`]*)`|'(vibegit [^'{]*)'", text):
            line = found[0] or found[1]
            for argv in _variants(line):
                seen += 1
                why = _parses(argv)
                wrong += [f"{where}: `{line}` -> {argv}: {why}"] if why else []
    assert wrong == [] and seen > 60
