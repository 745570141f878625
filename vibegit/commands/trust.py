"""``trust`` / ``untrust``: the project's hook commands may run, or not (infra/trust.py).

Trusting is the user's decision, and an agent must not be able to take it
for them. So ``vibegit trust`` shows every command and asks on the terminal;
it refuses when there is no terminal to ask on, and when the environment
says an agent runs the command (an agent that drives a terminal could
answer the question itself), with or without ``--yes``. ``--yes`` skips the
question only where ``VIBEGIT_TRUST=yes`` is set in the environment and no
agent's marker is: a person's own script.
"""

from __future__ import annotations

import os
import sys

from vibegit import app
from vibegit.core import agents
from vibegit.core.messages import t
from vibegit.errors import OK, Refused
from vibegit.infra import machine, trust, userhooks

CONSENT = "VIBEGIT_TRUST"  # =yes: a person asked for --yes (their script, their CI)


def trust_hooks(yes: bool) -> int:
    ctx = app.open_repo()
    top, rel = ctx.repo.toplevel, userhooks.HOOKS_FILE
    data = userhooks.read_file(ctx.repo)
    if data is None:
        app.say(t("trust.no_file", rel=rel, top=top))
        return OK
    commands, timeout = userhooks.parse_file(data)  # a broken file cannot be trusted (exit 2, file and line)
    digest = trust.digest(data)
    app.say(t("trust.runs", rel=rel, top=top, digest=digest[:16]))
    for name, hooks in commands.items():
        for hook in hooks:  # controls were refused by the parser; a tab shows as \t
            first, *rest = (line if line.isprintable() else repr(line) for line in hook.command.split("\n"))
            app.say(f"  {name}: {first}")
            for line in rest:
                app.say(f"  {' ' * len(name)}  {line}")
    if not commands:
        app.say(t("trust.no_commands"))
    overridden = sorted(n for n in commands if f"vibegit.hook.{n.lower()}" in ctx.config)
    if overridden:
        app.say(t("trust.overridden", names=", ".join(overridden)))
    if timeout is not None:
        app.say(t("trust.timeout", timeout=f"{timeout:g}"))
    if trust.is_trusted(top, rel, data):
        app.say(t("trust.already"))
        return OK
    _consent(yes)
    where = trust.record(
        top, rel, data, machine.now(), {n: [h.command for h in hooks] for n, hooks in commands.items()}
    )
    app.say(t("trust.trusted", where=where, rel=rel))
    return OK


def _consent(yes: bool) -> None:
    """A person's yes, or a refusal (exit 1) that says how to give one. In an
    agent's environment neither ``--yes`` (the agent can set ``VIBEGIT_TRUST``
    too) nor the question counts."""
    agent = agents.marker(dict(os.environ))
    if agent is not None:
        raise Refused(t("trust.agent_runs", agent=agent))
    if yes:
        if os.environ.get(CONSENT) != "yes":
            raise Refused(t("trust.yes_needs_consent", consent=CONSENT))
        return
    if sys.stdin is None or not sys.stdin.isatty():
        raise Refused(t("trust.no_terminal", consent=CONSENT))
    if not app.confirm(t("trust.confirm")):
        raise Refused(t("trust.not_trusted"))


def untrust_hooks() -> int:
    ctx = app.open_repo()
    count = trust.forget(ctx.repo.toplevel, userhooks.HOOKS_FILE)
    if count:
        app.say(t("trust.forgot", n=count, rel=userhooks.HOOKS_FILE))
    else:
        app.say(t("trust.nothing_to_forget", rel=userhooks.HOOKS_FILE))
    return OK
