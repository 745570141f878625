"""``install`` / ``uninstall``: the git hooks (infra/hookfiles.py) and, with
``--agent``, what each agent reads of vibegit's (infra/agentfiles.py)."""

from __future__ import annotations

from vibegit import app
from vibegit.core import agents as agent_specs
from vibegit.core.messages import t
from vibegit.errors import OK, REFUSED, BadInput
from vibegit.infra import agentfiles, hookfiles


def install(
    hooks: list[str] | None, agents: list[str] | None, scope: str = "project", mcp: bool = False, check: bool = False
) -> int:
    if check:
        return check_agents(agents, scope, mcp)
    app.open_repo()  # a working tree (a bare repository has no commits to guard nor worktree to report to); its language
    return _both(hooks, agents, scope, mcp, installing=True)


def uninstall(hooks: list[str] | None, agents: list[str] | None, scope: str = "project") -> int:
    return _both(hooks, agents, scope, False, installing=False)


def _both(hooks: list[str] | None, agents: list[str] | None, scope: str, mcp: bool, installing: bool) -> int:
    """With only ``--agent``, just the agents' files; otherwise the git hooks
    too. Every agent file is read and checked before anything is written."""
    if (mcp or scope != "project") and not agents:
        raise BadInput(t("install.needs_agent", option="--mcp" if mcp else "--scope"))
    planned = None
    if agents:
        ctx = app.open_repo()
        if installing:
            planned = agentfiles.plan_install(ctx.repo, agents, scope, mcp, ctx.settings.lang)
        else:
            planned = agentfiles.plan_uninstall(ctx.repo, agents, scope)
    code = OK
    if hooks or not agents:
        code = hookfiles.install(hooks or None) if installing else hookfiles.uninstall(hooks or None)
    if planned is None or code != OK:
        return code
    files, report = planned
    said = agentfiles.carry_out(files, installing)
    said += agentfiles.write_launcher(files) if installing else agentfiles.drop_launcher(ctx.repo, scope)
    for line in report.lines + said + report.notes:
        app.say(line)
    return OK


def check_agents(names: list[str] | None, scope: str, mcp: bool) -> int:
    """``install --check``: what of vibegit's each agent has in ``scope`` and
    whether it is what install writes now; exit 1 when something asked for
    is missing or outdated."""
    ctx = app.open_repo()
    asked = [agent_specs.spec(n) for n in dict.fromkeys(names or [])]
    code = OK
    any_installed = False
    for agent in asked or list(agent_specs.SPECS.values()):
        if scope not in agent.settings:
            if asked:
                agent_specs.check_scope(agent, scope)
            continue
        status = agentfiles.check(ctx.repo, agent, scope, ctx.settings.lang)
        if not status.installed:
            app.say(t("install.not_installed", agent=agent.label, scope=scope, where=status.where))
            code = REFUSED if asked else code
            continue
        any_installed = True
        app.say(t("install.status", agent=agent.label, scope=scope, status=describe(status)))
        for line in agentfiles.warnings(ctx.repo, agent, scope):
            app.say(f"  {line}")
            code = REFUSED if line.startswith("✘") else code
        if not status.current(mcp):
            command = f"vibegit install --agent {agent.name}{_scope_arg(scope)}{' --mcp' if mcp else ''}"
            app.say(t("install.update_how", command=command))
            code = REFUSED
    if any_installed:
        ok, line = agentfiles.launcher(ctx.repo, scope)
        app.say(line)
        code = code if ok else REFUSED
    return code


def _scope_arg(scope: str) -> str:
    return "" if scope == "project" else f" --scope {scope}"


def describe(status: agentfiles.Status) -> str:
    hooks = ", ".join(f"{event} {state}" for event, state in status.hooks.items())
    parts = [t("install.hooks_in", where=status.where, hooks=hooks)]
    current, total = status.commands
    if total:
        parts.append(t("install.commands", current=current, total=total))
    if status.yours:
        parts.append(t("install.commands_yours", names=", ".join(status.yours)))
    if status.block:
        parts.append(t("install.block", state=status.block))
    if status.server:
        server = t("install.not_registered") if status.server == "missing" else status.server
        parts.append(t("install.server", state=server))
    return "; ".join(parts)
