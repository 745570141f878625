"""``trust`` / ``untrust``: the project's hook commands may run, or not (infra/trust.py).

Trusting is the user's decision, and an agent must not be able to take it
for them. So ``vibegit trust`` shows every command and asks on the terminal;
it refuses when there is no terminal to ask on, and when the environment
says an agent runs the command (an agent that drives a terminal could
answer the question itself). ``--yes`` skips the question only where
``VIBEGIT_TRUST=yes`` is set in the environment: a person's own script can
set it, an agent allowed to run only ``vibegit …`` commands cannot.
"""

from __future__ import annotations

import os
import sys

from vibegit import app
from vibegit.errors import OK, Refused
from vibegit.infra import machine, trust, userhooks

# Set by agents in the shells they run commands in.
AGENT_VARIABLES = ("CLAUDECODE", "GEMINI_CLI", "CODEX_SANDBOX", "CURSOR_AGENT", "AGENT")
CONSENT = "VIBEGIT_TRUST"  # =yes: a person asked for --yes (their script, their CI)


def trust_hooks(yes: bool) -> int:
    ctx = app.open_repo()
    top, rel = ctx.repo.toplevel, userhooks.HOOKS_FILE
    data = userhooks.read_file(ctx.repo)
    if data is None:
        app.say(f"No {rel} in {top}; nothing to trust.")
        return OK
    commands, timeout = userhooks.parse_file(data)  # a broken file cannot be trusted (exit 2, file and line)
    digest = trust.digest(data)
    app.say(f"{rel} in {top} (sha256 {digest[:16]}) runs these commands at vibegit's lifecycle events:")
    for name, hooks in commands.items():
        for hook in hooks:  # controls were refused by the parser; a tab shows as \t
            first, *rest = (line if line.isprintable() else repr(line) for line in hook.command.split("\n"))
            app.say(f"  {name}: {first}")
            for line in rest:
                app.say(f"  {' ' * len(name)}  {line}")
    if not commands:
        app.say("  (no commands)")
    overridden = sorted(n for n in commands if f"vibegit.hook.{n.lower()}" in ctx.config)
    if overridden:
        app.say(f"  (git config vibegit.hook.* replaces {', '.join(overridden)}: those lines do not run)")
    if timeout is not None:
        app.say(f"  timeout: {timeout:g}s")
    if trust.is_trusted(top, rel, data):
        app.say("Already trusted; nothing changed.")
        return OK
    _consent(yes)
    where = trust.record(
        top, rel, data, machine.now(), {n: [h.command for h in hooks] for n, hooks in commands.items()}
    )
    app.say(
        f"Trusted: these commands may run here (recorded in {where}). Any change to {rel} needs "
        "'vibegit trust' again; 'vibegit untrust' takes it back."
    )
    return OK


def _consent(yes: bool) -> None:
    """A person's yes, or a refusal (exit 1) that says how to give one."""
    if yes:
        if os.environ.get(CONSENT) != "yes":
            raise Refused(
                f"trust --yes needs {CONSENT}=yes in the environment (a person's script sets it; an agent "
                "limited to vibegit commands cannot); or run 'vibegit trust' in a terminal and answer; nothing recorded"
            )
        return
    agent = next((name for name in AGENT_VARIABLES if os.environ.get(name)), None)
    if agent is not None:
        raise Refused(
            f"not asking: {agent} is set, so an agent runs this command and could answer for you; run "
            "'vibegit trust' in your own terminal (nothing recorded)"
        )
    if sys.stdin is None or not sys.stdin.isatty():
        raise Refused(
            "not asking: no terminal to answer on; run 'vibegit trust' in a terminal, or "
            f"'{CONSENT}=yes vibegit trust --yes' in a script of yours (nothing recorded)"
        )
    if not app.confirm("Trust these commands to run in this repository?"):
        raise Refused("not trusted; nothing recorded (the commands stay skipped)")


def untrust_hooks() -> int:
    ctx = app.open_repo()
    count = trust.forget(ctx.repo.toplevel, userhooks.HOOKS_FILE)
    if count:
        app.say(f"Forgot {count} trusted version(s) of {userhooks.HOOKS_FILE} here; its commands are skipped again.")
    else:
        app.say(f"Nothing to forget: no version of {userhooks.HOOKS_FILE} is trusted here.")
    return OK
