"""``vibegit mcp``: the whole workflow over MCP (stdio), for agents that speak
it; needs the optional MCP SDK (``pip install 'vibegit-state[mcp]'``).

Every tool runs the command function the CLI runs (one pipeline per event)
with the CLI's parameters, by the CLI's names: an option's long name
(``--no-snapshot``: ``no_snapshot``), an argument's own (``task_id``).
``tests/test_mcp.py`` holds each tool's parameters equal to its command's.

Calls run at once, each in a worker thread with its own output
(``output.captured``: no process-wide swap of stdout) and its own language
(``messages.own``); stdout carries only JSON-RPC. Completion, abort and
unlock ask the **user** through MCP elicitation (寸止), naming the workflow
and its id, and act on that id only, recording "confirmed by the user
through the client", on an accept; a client that cannot ask gets a refusal
telling the user to confirm in a terminal.
"""

# No "from __future__ import annotations": the SDK reads the tools' signatures
# at runtime, and they name classes imported inside build().
import os
import sys
from collections.abc import Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal, TypeVar

from vibegit.core import messages
from vibegit.core.messages import t
from vibegit.errors import OK, UNEXPECTED, Refused, VibegitError, log_unexpected

T = TypeVar("T")


class ToolFailed(Exception):
    """A refused or bad call: the client shows it as the tool's error (build()
    makes it the SDK's ToolError; any other exception is a crash to the SDK)."""


_failure: type[Exception] = ToolFailed

# What each tool promises the client (MCP tool annotations). Idempotent: a
# second call with the same arguments changes nothing (it is refused, or
# finds it done). Destructive: it ends a workflow or forgets a memory entry
# (the history keeps both). Open world: it may fetch from the remote.
# resume may switch branches and restore files, but never over anything of
# the user's that is not saved first: not destructive.
_READ = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}
_EVENT = {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False, "openWorldHint": False}
_ONCE = {**_EVENT, "idempotentHint": True}
_ENDS = {**_ONCE, "destructiveHint": True}
HINTS: dict[str, dict[str, bool]] = {
    "status": _READ,
    "list": _READ,
    "task_list": _READ,
    "memory_list": _READ,
    "start": _ONCE,
    "phase": _EVENT,
    "task_add": _ONCE,
    "task_start": _EVENT,
    "task_done": _ONCE,
    "context": _EVENT,
    "checkpoint": _EVENT,
    "pause": _ONCE,
    "resume": {**_ONCE, "openWorldHint": True},
    "memory_add": _ONCE,
    "memory_remove": _ENDS,
    "complete": _ENDS,
    "abort": _ENDS,
    "unlock": _ENDS,
}
# The CLI's command for each tool (the parameters' contract test reads it),
# and the CLI options a tool leaves out: the user confirms through the client.
COMMANDS = {name: tuple(name.split("_")) if name.startswith(("task_", "memory_")) else (name,) for name in HINTS}
LEFT_OUT = {"complete": ("yes",), "abort": ("yes",), "unlock": ("yes",)}


def _call(tool: str, command: Callable[[], T], lang: str | None = None) -> tuple[T, str]:
    """``command()`` as one run of its own, in this thread: its result and
    what it said (its output and warnings, in order), or ToolFailed with what
    it said and the one line the CLI prints for the error."""
    from vibegit.infra import git, output

    messages.own()
    if lang is not None:
        messages.use(lang, force=True)  # as the CLI's --lang: the language of this whole call
    with output.captured() as said:
        try:
            result = command()
        except VibegitError as err:
            git.close_readers()  # a reader left in mid-answer must not serve the next call
            where = f" (details in {log_unexpected(['mcp', tool])})" if err.code == UNEXPECTED else ""
            raise _failure(f"{said.getvalue()}vibegit: {err}{where}".strip()) from None
        except Exception as err:  # a bug: one line and the log, as the CLI does
            git.close_readers()
            where = log_unexpected(["mcp", tool])
            line = f"vibegit: unexpected error: {type(err).__name__}: {err} (details in {where})"
            raise _failure(f"{said.getvalue()}{line}".strip()) from None
    return result, said.getvalue().strip()


def _run(tool: str, command: Callable[[], object], lang: str | None = None) -> str:
    """What ``command`` said, or "done" when it said nothing (ToolFailed as ``_call``)."""
    return _call(tool, command, lang)[1] or "done"


def _question(what: str, workflow: str | None, no_tasks: bool = False) -> tuple[str, str, str, str]:
    """The workflow the user is asked about, refused before asking where the
    rules refuse it anyway: its id, its name, the question and the language
    it is asked in (the call's, for what is said after the answer)."""
    from vibegit import app
    from vibegit.core import lifecycle
    from vibegit.core.model import ACTIVE

    ctx = app.enter()
    state = app.state_of(ctx, app.facts(ctx), workflow)
    if what == "complete":
        lifecycle.check_can_complete(state, allow_empty=no_tasks)
    else:
        lifecycle.require(state, ACTIVE, t(f"do.{what}"))
    w, name = state.workflow, state.mode.workflow_name or ""
    question = t(f"mcp.ask_{what}", name=name, id=w.id, done=state.completed_tasks, total=state.total_tasks)
    return w.id, name, question, messages.lang()


def _still(workflow: str | None, asked: str, name: str) -> None:
    """The workflow the user confirmed is still active, and still the one this
    call names; else nothing is done and the refusal says why."""
    from vibegit import app
    from vibegit.core import workflows
    from vibegit.infra import store

    ctx = app.enter()
    index = store.read_state(ctx.repo, ctx.settings).index
    then = next((s for s in index if s.id == asked), None)
    if then is None or not then.active:
        status = t(f"status.{then.status.value}") if then is not None else t("mcp.changed_none")
        raise Refused(t("mcp.ended", name=name, id=asked, status=status))
    try:
        now = workflows.choose(index, app.facts(ctx), workflow)
    except VibegitError:  # none here now, or several
        now = None
    if now is None or now.id != asked:
        shown = f"{now.name!r} ({now.id})" if now is not None else t("mcp.changed_none")
        raise Refused(t("mcp.changed", name=name, id=asked, now=shown))


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
        import anyio.to_thread
        from mcp.server.elicitation import AcceptedElicitation
        from mcp.types import ClientCapabilities, ElicitationCapability, ToolAnnotations
        from pydantic import BaseModel, Field
    except ImportError:
        raise Refused(t("mcp.needs_sdk")) from None

    from vibegit.commands import checkpoint as checkpoint_
    from vibegit.commands import context as context_
    from vibegit.commands import memory as memory_
    from vibegit.commands import resume as resume_
    from vibegit.commands import status as status_
    from vibegit.commands import task as task_
    from vibegit.commands import workflow as workflow_
    from vibegit.core import lifecycle

    global _failure
    _failure = ToolError

    @asynccontextmanager
    async def lifespan(_server: Any) -> Any:
        # The transport holds the protocol's stdout now: anything else printed
        # from here on goes to stderr (the client's log), never onto the wire.
        sys.stdout = sys.stderr
        yield None

    server = FastMCP("vibegit", lifespan=lifespan)

    def tool(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        decorate: Callable[[Callable[..., Any]], Callable[..., Any]]
        decorate = server.tool(name=name, annotations=ToolAnnotations(**HINTS[name]), structured_output=False)
        return decorate

    # The CLI's help, where a name alone does not say it.
    Workflow = Annotated[
        str | None,
        Field(description="The workflow (name or id; see the list tool). Default: the one of this worktree's branch."),
    ]
    Lang = Annotated[Literal["en", "zh"] | None, Field(description="Language (default: git config vibegit.lang)")]
    Json = Annotated[bool, Field(description="JSON (stable schema) instead of text")]
    NoSnapshot = Annotated[bool, Field(description="Do not record the uncommitted work")]

    # -- reads --

    @tool("status")
    def status(json: Json = False, lang: Lang = None, workflow: Workflow = None, compare: bool = False) -> str:
        """The recovery report of this worktree's workflow (json: its state). Call it at the start of a session."""
        return _run("status", lambda: status_.status(json, lang, workflow, compare), lang)

    @tool("list")
    def list_(json: Json = False) -> str:
        """Every workflow of the repository: status, branch, holder, phase, progress, last event."""
        return _run("list", lambda: status_.list_(json))

    @tool("task_list")
    def task_list(json: Json = False, workflow: Workflow = None) -> str:
        """The tasks of the kanban."""
        return _run("task_list", lambda: task_.list_(json, workflow))

    @tool("memory_list")
    def memory_list(json: Json = False) -> str:
        """The remembered rules and facts, forbidden actions first."""
        return _run("memory_list", lambda: memory_.list_(json))

    # -- events --

    @tool("start")
    def start(
        workflow: Annotated[str, Field(description="Workflow name, e.g. vibe-code")],
        goal: Annotated[str, Field(description="What the workflow is for")],
    ) -> str:
        """Start a workflow for new multi-step work (phase R1, the lock taken), bound to this branch."""
        return _run("start", lambda: workflow_.start(workflow, goal))

    @tool("phase")
    def phase(
        to: Annotated[str, Field(description="R1, I, P, E or R2 (Research, Innovate, Plan, Execute, Review)")],
        step: Annotated[str | None, Field(description="Free-form step, e.g. 4.3")] = None,
        workflow: Workflow = None,
    ) -> str:
        """Enter a phase of the running workflow."""
        return _run("phase", lambda: workflow_.phase(to, step, workflow))

    @tool("task_add")
    def task_add(
        task_id: Annotated[str, Field(description="An id like T-001")], title: str, workflow: Workflow = None
    ) -> str:
        """Add a task to the Todo column."""
        return _run("task_add", lambda: task_.add(task_id, title, workflow))

    @tool("task_start")
    def task_start(task_id: str, workflow: Workflow = None) -> str:
        """Move a task to Doing (before working on it)."""
        return _run("task_start", lambda: task_.start(task_id, workflow))

    @tool("task_done")
    def task_done(task_id: str, workflow: Workflow = None) -> str:
        """Move a task to Done (after finishing it)."""
        return _run("task_done", lambda: task_.done(task_id, workflow))

    @tool("context")
    def context(
        last: Annotated[str | None, Field(description="What was just done")] = None,
        next: Annotated[str | None, Field(description="What comes next")] = None,
        question: Annotated[str | None, Field(description="Add an open (blocking) question for the user")] = None,
        answer: Annotated[int | None, Field(description="Answer open question N; reply gives the answer")] = None,
        reply: Annotated[str | None, Field(description="The user's answer to question N")] = None,
        workflow: Workflow = None,
    ) -> str:
        """Record the last and the next action after each meaningful step, an open question, or
        the user's reply to question N (questions keep their numbers)."""
        return _run("context", lambda: context_.context(last, next, question, answer, workflow, reply))

    @tool("checkpoint")
    def checkpoint(
        file: Annotated[str | None, Field(description="A file inside the repository")] = None,
        line: Annotated[int | None, Field(description="A line within file")] = None,
        action: Annotated[str | None, Field(description="What you are in the middle of")] = None,
        no_snapshot: NoSnapshot = False,
        workflow: Workflow = None,
    ) -> str:
        """Pin the commit, branch, file:line and a snapshot of uncommitted work (before a risky or long step)."""
        return _run("checkpoint", lambda: checkpoint_.checkpoint(file, line, action, no_snapshot, workflow))

    @tool("pause")
    def pause(
        action: Annotated[str | None, Field(description="What you were in the middle of")] = None,
        lang: Lang = None,
        no_snapshot: NoSnapshot = False,
        workflow: Workflow = None,
    ) -> str:
        """Checkpoint and pause the workflow, releasing the lock (stopping mid-way)."""
        return _run("pause", lambda: checkpoint_.pause(action, lang, no_snapshot, workflow), lang)

    @tool("resume")
    def resume(
        lang: Lang = None,
        checkout: Annotated[bool, Field(description="Switch to the checkpoint's branch (or commit) first")] = False,
        force: Annotated[
            bool, Field(description="Save what of the user's stands in the way in a backup, then restore")
        ] = False,
        remote: Annotated[str | None, Field(description="Where to fetch the state from on a fresh clone")] = None,
        workflow: Workflow = None,
    ) -> str:
        """Take the lock again (after a pause, or from another machine) and show the recovery report.
        Ask the user first."""
        return _run("resume", lambda: resume_.resume(lang, checkout, force, remote, workflow), lang)

    @tool("memory_add")
    def memory_add(
        category: Annotated[
            str, Field(description="user_preference, forbidden_action, code_pattern or project_knowledge")
        ],
        text: Annotated[str, Field(description="The rule or fact, one line")],
    ) -> str:
        """Remember a rule or fact the user states (shown in every recovery report)."""
        return _run("memory_add", lambda: memory_.add(category, text))

    @tool("memory_remove")
    def memory_remove(entry_id: Annotated[str, Field(description="An id like M-001")]) -> str:
        """Forget one remembered entry."""
        return _run("memory_remove", lambda: memory_.remove(entry_id))

    # -- the user confirms: complete, abort, unlock --

    class Confirm(BaseModel):
        confirm: bool = Field(description="Yes, do it")

    async def confirmed(ctx: Any, what: str, workflow: str | None, no_tasks: bool = False) -> tuple[str, str]:
        """The id and name of the workflow the user said yes to (asked by name
        and id), or ToolFailed: refused by the rules, no way to ask, declined."""
        (asked, name, question, lang), _ = await anyio.to_thread.run_sync(
            lambda: _call(what, lambda: _question(what, workflow, no_tasks))
        )
        if not ctx.session.check_client_capability(ClientCapabilities(elicitation=ElicitationCapability())):
            raise _failure(t("mcp.cannot_ask", lang, command=what))
        try:
            result = await ctx.elicit(message=question, schema=Confirm)
        except (ValueError, TypeError) as err:  # an accept without content, or not in the schema
            raise _failure(t("mcp.no_answer", lang, error=str(err) or type(err).__name__)) from None
        if not (isinstance(result, AcceptedElicitation) and result.data.confirm):
            said = "mcp.declined" if result.action in ("decline", "accept") else "mcp.cancelled"
            raise _failure(t(said, lang))
        return asked, name

    async def act(tool: str, workflow: str | None, asked: str, name: str, command: Callable[[], object]) -> str:
        def run() -> object:
            _still(workflow, asked, name)
            return command()

        return str(await anyio.to_thread.run_sync(lambda: _run(tool, run)))

    confirmed_by = lifecycle.CONFIRMED_BY_CLIENT

    @tool("complete")
    async def complete(
        ctx: Context,
        no_tasks: Annotated[bool, Field(description="Complete a workflow that has no task at all")] = False,
        lesson: Annotated[list[str] | None, Field(description="What this workflow taught, remembered")] = None,
        workflow: Workflow = None,
    ) -> str:
        """Finish the workflow when every task is done: asks the user to confirm (never decide it yourself),
        then prints the completion report."""
        asked, name = await confirmed(ctx, "complete", workflow, no_tasks)
        lessons = tuple(lesson or ())
        return await act(
            "complete", workflow, asked, name, lambda: workflow_.complete(False, asked, confirmed_by, no_tasks, lessons)
        )

    @tool("abort")
    async def abort(ctx: Context, workflow: Workflow = None) -> str:
        """End the workflow and release the lock, progress kept: asks the user to confirm. Only when the user asks."""
        asked, name = await confirmed(ctx, "abort", workflow)
        return await act("abort", workflow, asked, name, lambda: workflow_.abort(False, asked, confirmed_by))

    @tool("unlock")
    async def unlock(
        ctx: Context,
        reason: Annotated[str | None, Field(description="Why, for the history")] = None,
        workflow: Workflow = None,
    ) -> str:
        """Release the lock at once, ending the workflow: asks the user to confirm. Only when the user asks."""
        asked, name = await confirmed(ctx, "unlock", workflow)
        return await act("unlock", workflow, asked, name, lambda: workflow_.unlock(False, reason, asked, confirmed_by))

    @server.resource("vibegit://state", mime_type="application/json")  # type: ignore[untyped-decorator]  # the SDK's
    async def state() -> str:
        """This worktree's workflow state (the status --json shape)."""
        return str(await anyio.to_thread.run_sync(lambda: _run("state", lambda: status_.status(True, None, None))))

    return server


def serve() -> int:
    """Serve over stdio until the client goes. The protocol keeps the
    process's stdin and stdout to itself: file descriptors 0 and 1 then point
    at /dev/null and stderr, so no process a command starts can read a
    request or write onto the wire."""
    workdir = os.environ.get("VIBEGIT_WORKDIR")
    if workdir and os.path.isdir(workdir):
        os.chdir(workdir)
    server = build()
    from vibegit import app

    app.stay_resident()
    requests = os.fdopen(os.dup(sys.stdin.fileno()), "r", encoding="utf-8", closefd=True)
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8", closefd=True)
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, sys.stdin.fileno())
    os.close(nothing)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdin, sys.stdout = requests, answers  # the SDK takes them as it starts; then lifespan moves stdout
    server.run()  # stdio
    return OK
