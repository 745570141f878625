"""``vibegit mcp``: the workflow state over MCP (stdio), for agents that speak
it; needs the optional MCP SDK (``pip install 'vibegit[mcp]'``).

Every tool runs the same command function the CLI runs (one pipeline per
event), its output captured: MCP owns stdout. Completion, abort and unlock
ask the **user** through MCP elicitation (寸止) and record "confirmed by the
user through the client" only on an accept; a client that cannot ask gets a
refusal telling the user to confirm in a terminal.
"""

# No "from __future__ import annotations": the SDK reads the tools' annotations
# at runtime, and they name classes imported inside build().
import io
import os
import sys
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from typing import Any

from vibegit.core.messages import t
from vibegit.errors import OK, Refused, VibegitError


class ToolFailed(Exception):
    """A refused or bad call: the client shows it as the tool's error (build()
    makes it the SDK's ToolError; any other exception is a crash to the SDK)."""


_failure: type[Exception] = ToolFailed


def _run(command: Callable[[], object]) -> str:
    """``command``'s output, or ToolFailed with it and vibegit's one line."""
    out = io.StringIO()
    try:
        with redirect_stdout(out), redirect_stderr(out):
            command()
    except VibegitError as err:
        raise _failure(f"{out.getvalue()}vibegit: {err}".strip()) from None
    return out.getvalue().strip() or "done"


def _state(workflow: str | None) -> Any:
    from vibegit import app

    ctx = app.enter()
    return app.state_of(ctx, app.facts(ctx), workflow)


def build() -> Any:
    """The server (the SDK imported here only: nothing of it on any other path)."""
    try:
        try:  # mcp >= 2 renamed FastMCP
            from mcp.server.mcpserver import Context
            from mcp.server.mcpserver import MCPServer as FastMCP
            from mcp.server.mcpserver.exceptions import ToolError
        except ImportError:
            from mcp.server.fastmcp import Context, FastMCP
            from mcp.server.fastmcp.exceptions import ToolError
        from mcp.server.elicitation import AcceptedElicitation
        from mcp.types import ClientCapabilities, ElicitationCapability
        from pydantic import BaseModel, Field
    except ImportError:
        raise Refused(t("mcp.needs_sdk")) from None

    from vibegit.commands import checkpoint as checkpoint_
    from vibegit.commands import context as context_
    from vibegit.commands import status as status_
    from vibegit.commands import task, workflow
    from vibegit.core import lifecycle

    global _failure
    _failure = ToolError
    server = FastMCP("vibegit")

    class Confirm(BaseModel):
        confirm: bool = Field(description="Yes, do it")

    async def ask(ctx: Any, what: str, name: str | None) -> None:
        """The user's own yes through the client, or ToolFailed."""
        state = _state(name)
        if what == "complete":
            _run(lambda: lifecycle.check_can_complete(state))
        name, done, total = state.mode.workflow_name, state.completed_tasks, state.total_tasks
        question = t(f"mcp.ask_{what}", name=name, done=done, total=total)
        if not ctx.session.check_client_capability(ClientCapabilities(elicitation=ElicitationCapability())):
            raise _failure(t("mcp.cannot_ask", command=what))
        result = await ctx.elicit(message=question, schema=Confirm)
        if not (isinstance(result, AcceptedElicitation) and result.data.confirm):
            said = "mcp.declined" if result.action in ("decline", "accept") else "mcp.cancelled"
            raise _failure(t(said))

    @server.tool()
    def status(workflow_id: str | None = None) -> str:
        """The recovery report of this worktree's workflow (or workflow_id's)."""
        return _run(lambda: status_.status(False, None, workflow_id))

    @server.tool()
    def task_add(task_id: str, title: str, workflow_id: str | None = None) -> str:
        """Add a task to the kanban (ids like T-001)."""
        return _run(lambda: task.add(task_id, title, workflow_id))

    @server.tool()
    def task_start(task_id: str, workflow_id: str | None = None) -> str:
        """Start working on a task."""
        return _run(lambda: task.start(task_id, workflow_id))

    @server.tool()
    def task_done(task_id: str, workflow_id: str | None = None) -> str:
        """Mark a task done."""
        return _run(lambda: task.done(task_id, workflow_id))

    @server.tool()
    def context(
        last: str | None = None,
        next: str | None = None,
        question: str | None = None,
        answer: int | None = None,
        reply: str | None = None,
        workflow_id: str | None = None,
    ) -> str:
        """Record the last and the next action, an open question for the user, or the user's reply to question N
        (kept with its question; questions keep their numbers)."""
        return _run(lambda: context_.context(last, next, question, answer, workflow_id, reply))

    @server.tool()
    def checkpoint(
        file: str | None = None, line: int | None = None, action: str | None = None, workflow_id: str | None = None
    ) -> str:
        """Pin the commit, file:line and a snapshot of uncommitted work."""
        return _run(lambda: checkpoint_.checkpoint(file, line, action, False, workflow_id))

    @server.tool()
    def pause(action: str | None = None, workflow_id: str | None = None) -> str:
        """Pause the workflow with a checkpoint, releasing the lock."""
        return _run(lambda: checkpoint_.pause(action, None, False, workflow_id))

    @server.tool()
    async def complete(ctx: Context, workflow_id: str | None = None) -> str:
        """Complete the workflow: asks the user to confirm (every task must be done)."""
        await ask(ctx, "complete", workflow_id)
        return _run(lambda: workflow.complete(True, workflow_id, lifecycle.CONFIRMED_BY_CLIENT))

    @server.tool()
    async def abort(ctx: Context, workflow_id: str | None = None) -> str:
        """Abort the workflow (progress kept): asks the user to confirm."""
        await ask(ctx, "abort", workflow_id)
        return _run(lambda: workflow.abort(True, workflow_id, lifecycle.CONFIRMED_BY_CLIENT))

    @server.tool()
    async def unlock(ctx: Context, reason: str | None = None, workflow_id: str | None = None) -> str:
        """Release the lock at once, ending the workflow: asks the user to confirm."""
        await ask(ctx, "unlock", workflow_id)
        return _run(lambda: workflow.unlock(False, reason, workflow_id, lifecycle.CONFIRMED_BY_CLIENT))

    @server.resource("vibegit://state", mime_type="application/json")
    def state() -> str:
        """This worktree's workflow state (the status --json shape)."""
        return _run(lambda: status_.status(True, None, None))

    return server


def serve() -> int:
    """Serve over stdio until the client goes. Anything a command or a process
    it starts writes to file descriptor 1 goes to stderr: stdout is MCP's."""
    workdir = os.environ.get("VIBEGIT_WORKDIR")
    if workdir and os.path.isdir(workdir):
        os.chdir(workdir)
    server = build()
    protocol = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8", closefd=True)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = protocol
    server.run()  # stdio
    return OK
