"""The command line: argument parsing only. Each command is a function in
commands/, imported when it runs (so a command pays only for what it uses)."""

from __future__ import annotations

import functools
import sys
from typing import Any, Optional

import typer

from vibegit import __version__, verbs
from vibegit.core import messages
from vibegit.core.settings import LANGS

HELP = """Keep an AI coding agent's workflow state in git.

State lives as one commit per lifecycle event on the orphan branch
vibegit/state; your branches, index and working tree are never touched.
Each workflow belongs to the branch it was started on (several run at once,
one per worktree and branch); commands act on the one of this worktree's
branch, or on --workflow NAME. A copy of it is kept in
project_document/.ai_state/ for agents to read.

Exit codes: 0 done, 1 refused by the rules, 2 bad input, 3 unexpected error.
"""

parser = typer.Typer(
    help=HELP,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
task_parser = typer.Typer(help="Tasks of the kanban: add, start, done, list.", no_args_is_help=True)
parser.add_typer(task_parser, name="task")
memory_parser = typer.Typer(
    help="Remembered rules and facts that outlive a workflow: add, list, remove.", no_args_is_help=True
)
parser.add_typer(memory_parser, name="memory")
secrets_parser = typer.Typer(
    help="The secret scan of what a push of the state branch publishes: check, allow.", no_args_is_help=True
)
parser.add_typer(secrets_parser, name="secrets")

LANG_HELP = (
    "Language of the reports, the state files' headings and the commands' messages: en, or zh as the skills "
    "write it (default: git config vibegit.lang, else en)."
)
Lang = typer.Option(None, "--lang", help=LANG_HELP)
Json = typer.Option(False, "--json", help="Print JSON (stable schema for agents).")
WorkflowName = typer.Option(
    None,
    "--workflow",
    "-w",
    metavar="NAME",
    help="The workflow (name or id; see 'vibegit list'). Default: the one of this worktree's branch.",
)


def _lang(lang: Optional[str]) -> Optional[str]:
    """A --lang value, checked; it becomes the language of this whole run."""
    if lang is not None and lang not in LANGS:
        raise typer.BadParameter(f"{lang!r}: use en or zh", param_hint="--lang")
    if lang is not None:
        messages.use(lang, force=True)
    return lang


@parser.callback(invoke_without_command=True)
def _root(
    version: bool = typer.Option(False, "--version", help="Print the version and exit."),
    lang: Optional[str] = Lang,
) -> None:
    _lang(lang)
    if version:
        print(f"vibegit {__version__}")
        raise typer.Exit(0)


@parser.command()
def init() -> int:
    """Create the state branch (other commands do it too when needed)."""
    from vibegit.commands import workflow

    return workflow.init()


@parser.command()
def adopt() -> int:
    """Import an earlier skill-based set-up: the state files in the mirror folder.

    When project_document/.ai_state/ holds a session.yaml or workflow.lock
    that vibegit did not write (the skills' own set-up, committed or not),
    no other event writes there; adopt makes them a vibegit workflow bound
    to this branch (phase, tasks, context, checkpoint, questions; the lock
    taken here if it was running), merges its memory and knowledge docs, and
    names the tracked files it then rewrites."""
    from vibegit.commands import workflow as workflow_

    return workflow_.adopt()


@parser.command()
def start(
    workflow: str = typer.Argument(..., help="Workflow name, e.g. vibe-code."),
    goal: str = typer.Option(..., "--goal", help="What the workflow is for."),
) -> int:
    """Start a workflow in phase R1 and take the lock."""
    from vibegit.commands import workflow as workflow_

    return workflow_.start(workflow, goal)


@parser.command()
def phase(
    to: str = typer.Argument(..., metavar="R1|I|P|E|R2", help="Research, Innovate, Plan, Execute, Review."),
    step: Optional[str] = typer.Option(None, "--step", help="Free-form step, e.g. 4.3."),
    workflow: Optional[str] = WorkflowName,
) -> int:
    """Enter a phase of the running workflow."""
    return verbs.phase(to, step, workflow)


@task_parser.command("add")
def task_add(
    task_id: str = typer.Argument(..., metavar="ID"),
    title: str = typer.Argument(..., metavar="TITLE"),
    workflow: Optional[str] = WorkflowName,
) -> int:
    """Add a task to the Todo column."""
    return verbs.task_add(task_id, title, workflow)


@task_parser.command("start")
def task_start(task_id: str = typer.Argument(..., metavar="ID"), workflow: Optional[str] = WorkflowName) -> int:
    """Move a task to Doing and make it the current task."""
    return verbs.task_start(task_id, workflow)


@task_parser.command("done")
def task_done(task_id: str = typer.Argument(..., metavar="ID"), workflow: Optional[str] = WorkflowName) -> int:
    """Move a task to Done."""
    return verbs.task_done(task_id, workflow)


@task_parser.command("list")
def task_list(as_json: bool = Json, workflow: Optional[str] = WorkflowName) -> int:
    """List the tasks."""
    return verbs.task_list(as_json, workflow)


@parser.command()
def context(
    last: Optional[str] = typer.Option(None, "--last", help="What was just done."),
    next_: Optional[str] = typer.Option(None, "--next", help="What comes next."),
    question: Optional[str] = typer.Option(None, "--question", help="Add an open (blocking) question."),
    answer: Optional[int] = typer.Option(
        None,
        "--answer",
        metavar="N",
        help="Answer open question N (its number never changes); --reply gives the answer.",
    ),
    reply: Optional[str] = typer.Option(
        None, "--reply", metavar="TEXT", help="The answer to --answer N: kept with its question, learned on complete."
    ),
    workflow: Optional[str] = WorkflowName,
) -> int:
    """Record the last and next action, open questions and their answers.

    Questions keep their number for good; an answered one is kept with its
    answer in session.yaml, and `complete` remembers it as a decision."""
    return verbs.context(last, next_, question, answer, reply, workflow)


@parser.command()
def checkpoint(
    file: Optional[str] = typer.Option(None, "--file", help="A file inside the repository."),
    line: Optional[int] = typer.Option(None, "--line", help="A line within --file."),
    action: Optional[str] = typer.Option(None, "--action", help="What you are in the middle of."),
    no_snapshot: bool = typer.Option(False, "--no-snapshot", help="Do not record the uncommitted work."),
    workflow: Optional[str] = WorkflowName,
) -> int:
    """Pin the current commit, branch, file:line and a snapshot of uncommitted work.

    The snapshot (staged, unstaged and untracked-but-not-ignored files) is a
    tree under workflows/<id>/snapshot/ in the state commit, built through a scratch index;
    a clean working tree records none. The line's text is kept so the report
    finds the line again after edits."""
    return verbs.checkpoint(file, line, action, no_snapshot, workflow)


@parser.command()
def pause(
    action: Optional[str] = typer.Option(None, "--action", help="What you were in the middle of."),
    lang: Optional[str] = Lang,
    no_snapshot: bool = typer.Option(False, "--no-snapshot", help="Do not record the uncommitted work."),
    workflow: Optional[str] = WorkflowName,
) -> int:
    """Checkpoint and pause: the lock file stays with locked: false, paused: true. (/vibe-pause)"""
    from vibegit.commands import checkpoint

    return checkpoint.pause(action, _lang(lang), no_snapshot, workflow)


@parser.command()
def resume(
    lang: Optional[str] = Lang,
    checkout: bool = typer.Option(False, "--checkout", help="Switch to the checkpoint's branch (or commit) first."),
    force: bool = typer.Option(
        False, "--force", help="Save what of yours stands in the way in .git/vibegit/backups/, then restore."
    ),
    remote: Optional[str] = typer.Option(
        None,
        "--remote",
        help="Where to fetch the state from (default: git config vibegit.remote, else the upstream's, else origin).",
    ),
    workflow: Optional[str] = WorkflowName,
) -> int:
    """Take the lock again and print the recovery report. (/vibe-resume)

    After a clone elsewhere: takes the remote's state branch, fetches the
    checkpoint's commit, says where HEAD is (--checkout goes there), and
    restores the checkpoint's uncommitted work where that loses nothing:
    anything of yours in the way (changed, untracked or ignored files,
    directories, links) is listed and left alone (exit 1) unless --force
    copies it to a checked backup under .git/vibegit/backups/ first and
    prints the command that brings it back. Nested repositories, .git,
    .vibegit/, agent settings and the mirror are never written. A workflow
    running on another host is taken over; that host's next event is
    refused and says so, and the lock is enforced here at once (a clone
    without git hooks gets vibegit's installed; other hooks there: it says
    to run 'vibegit install'). Resumes the workflow of this worktree's branch;
    with several candidates it lists them and asks for --workflow, never
    picking one silently."""
    from vibegit.commands import resume as resume_

    return resume_.resume(_lang(lang), checkout, force, remote, workflow)


@parser.command()
def status(
    as_json: bool = Json,
    lang: Optional[str] = Lang,
    workflow: Optional[str] = WorkflowName,
    compare: bool = typer.Option(
        False, "--compare", help="Compare the snapshot with the working tree even in a tree of over 5,000 files."
    ),
) -> int:
    """The recovery report of this worktree's workflow, or its state as JSON
    (schema 2: with its id and the other workflows). (/vibe-state)

    The report says whether the checkpoint's snapshot matches the working
    tree; that scans every file, so above 5,000 files in the index it is
    done only with --compare."""
    return verbs.status(as_json, _lang(lang), workflow, compare)


@parser.command("list")
def list_workflows(as_json: bool = Json) -> int:
    """Every workflow of the repository: status, branch, holder, phase, progress, last event."""
    return verbs.list_workflows(as_json)


@parser.command()
def complete(
    yes: bool = typer.Option(False, "--yes", "-y", help="Skip the question (recorded in history)."),
    no_tasks: bool = typer.Option(
        False, "--no-tasks", help="Complete a workflow that has no task at all (recorded in history)."
    ),
    lesson: Optional[list[str]] = typer.Option(
        None, "--lesson", metavar="TEXT", help="What this workflow taught, remembered in memory (repeatable)."
    ),
    workflow: Optional[str] = WorkflowName,
) -> int:
    """Finish the workflow: every task done, no open question, a human confirms.

    Runs onBeforeComplete first; then prints the completion report (goal,
    tasks, duration, phases, decisions, lessons), keeps it as completion.md in
    the state, and remembers the lessons and the answered questions (as
    decisions) in memory. A workflow without tasks needs --no-tasks."""
    from vibegit.commands import workflow as workflow_

    return workflow_.complete(yes, workflow, no_tasks=no_tasks, lessons=tuple(lesson or ()))


@parser.command()
def abort(
    yes: bool = typer.Option(False, "--yes", "-y", help="Skip the question (recorded in history)."),
    workflow: Optional[str] = WorkflowName,
) -> int:
    """End the workflow and release the lock; progress is kept. (/vibe-abort)"""
    from vibegit.commands import workflow as workflow_

    return workflow_.abort(yes, workflow)


@parser.command()
def unlock(
    reason: Optional[str] = typer.Option(None, "--reason", help="Why, for the history."),
    workflow: Optional[str] = WorkflowName,
) -> int:
    """Release the lock at once and end the workflow. (/vibe-unlock)"""
    from vibegit.commands import workflow as workflow_

    return workflow_.unlock(reason, workflow)


@parser.command()
def fail(message: str = typer.Argument(..., help="What went wrong."), workflow: Optional[str] = WorkflowName) -> int:
    """Record that the workflow failed; the lock is released."""
    from vibegit.commands import workflow as workflow_

    return workflow_.fail(message, workflow)


@parser.command()
def log(
    count: int = typer.Option(20, "-n", help="How many events."),
    as_json: bool = Json,
    workflow: Optional[str] = WorkflowName,
    every: bool = typer.Option(False, "--all", help="Every event of every workflow."),
) -> int:
    """The newest events of this worktree's workflow (--all: of the whole state branch)."""
    from vibegit.commands import status

    return status.log(count, as_json, workflow, every)


@memory_parser.command("add")
def memory_add(
    category: str = typer.Argument(
        ..., metavar="CATEGORY", help="user_preference, forbidden_action, code_pattern or project_knowledge."
    ),
    text: str = typer.Argument(..., metavar="TEXT", help="The rule or fact, one line."),
) -> int:
    """Remember a rule or fact (shown in every recovery report)."""
    from vibegit.commands import memory

    return memory.add(category, text)


@memory_parser.command("list")
def memory_list(as_json: bool = Json) -> int:
    """List what is remembered, forbidden actions first."""
    from vibegit.commands import memory

    return memory.list_(as_json)


@memory_parser.command("remove")
def memory_remove(entry_id: str = typer.Argument(..., metavar="ID", help="An id like M-001.")) -> int:
    """Forget one entry."""
    from vibegit.commands import memory

    return memory.remove(entry_id)


@parser.command()
def learn() -> int:
    """Remember the rules of the watched docs that changed, and show what was taken.

    Rules: every item of conventions.md and decisions.md (kept on the state
    branch); in other docs, items under a heading that names rules
    (Conventions, Rules, Decisions, Don'ts, 约定, 规范, 禁止 …), between
    <!-- vibegit:rules --> markers, or starting with Rule:, Decision: ….
    Docs: git config vibegit.learn (several values or comma-separated; "" or
    false: off); default project_document/.ai_state/conventions.md,
    .../decisions.md, README.md, CONTRIBUTING.md. Phase changes run it too.
    """
    from vibegit.commands import learn as learn_

    return learn_.learn()


@parser.command()
def mcp() -> int:
    """Serve the workflow state to an agent over MCP (stdio); needs pip install 'vibegit[mcp]'.

    Tools: status, task_add, task_start, task_done, context, checkpoint,
    pause, and complete, abort, unlock, which ask the user to confirm through
    the client (MCP elicitation); a client that cannot ask gets a refusal
    telling the user to confirm in a terminal. Resource: vibegit://state.
    'vibegit install --agent NAME --mcp' registers it."""
    from vibegit.commands import mcp as mcp_

    return mcp_.serve()


@parser.command("agent-instructions")
def agent_instructions(lang: Optional[str] = Lang) -> int:
    """Print a short protocol for AGENTS.md / CLAUDE.md: which command at which moment."""
    from vibegit.commands import instructions

    return instructions.agent_instructions(_lang(lang) or "en")


@parser.command()
def demo() -> int:
    """Play a workflow, a lost session and the recovery in temporary repositories."""
    from vibegit.commands import demo as demo_

    return demo_.run()


@parser.command()
def sync(
    remote: Optional[str] = typer.Option(
        None, "--remote", help="Remote name (default: git config vibegit.remote, else the upstream's, else origin)."
    ),
    redact: bool = typer.Option(
        False,
        "--redact",
        help="Take what looks like a credential out of what is not pushed yet: a flagged file is left out of "
        "the snapshot, a value in the state's text is replaced. Your files are not touched.",
    ),
    no_verify: bool = typer.Option(False, "--no-verify", help="Push without running your pre-push hooks."),
) -> int:
    """Fetch the remote's state branch, fast-forward or merge, then push.

    Diverged histories are joined by a merge commit (both kept): per field the
    side that changed it, the newer when both did; tasks and memory united;
    notes merged as text. What was decided is printed and recorded. What the
    push would publish that is new (uncommitted changes in snapshots, the
    state's text) is scanned first: a credential is refused (exit 1) with its
    file:line and fingerprint. Your pre-push hooks run for the push too.
    When another push reaches the remote first, it waits a random while,
    fetches and merges again (one merge per sync), for up to
    vibegit.syncTimeout seconds (30). A remote that cannot be reached is
    exit 2 with git's own line."""
    return verbs.sync(remote, redact, no_verify)


@secrets_parser.command("check")
def secrets_check() -> int:
    """List what the next push of the state branch would refuse (exit 1 when anything)."""
    from vibegit.commands import secrets

    return secrets.check()


@secrets_parser.command("allow")
def secrets_allow(
    fingerprint: str = typer.Argument(..., metavar="FINGERPRINT", help="As a refusal prints it (20 hex digits)."),
    note: str = typer.Option("", "--note", help="Why it is not a credential (kept beside the fingerprint)."),
) -> int:
    """Let one value through the secret scan, for everyone: its fingerprint (a
    hash, never the value) goes to .vibegit/secrets-allow; commit that file."""
    from vibegit.commands import secrets

    return secrets.allow(fingerprint, note)


@parser.command()
def trust(
    yes: bool = typer.Option(
        False, "--yes", "-y", help="Skip the question; needs VIBEGIT_TRUST=yes in the environment."
    ),
) -> int:
    """Let the project's .vibegit/hooks.yaml run: shows its commands, asks, records your yes.

    The file is project content (a clone, a branch, a pull request wrote it):
    its commands are skipped until you trust it. Trust is kept outside the
    repository ($XDG_DATA_HOME/vibegit/trust, else ~/.local/share/vibegit/trust),
    one entry per repository path and SHA-256 of the file: any change needs
    trust again. The question is asked on the terminal only (refused with no
    terminal, or when an agent's environment variable such as CLAUDECODE is
    set); --yes works only with VIBEGIT_TRUST=yes set, which an agent limited
    to vibegit commands cannot set. Git config hooks are yours and need no trust."""
    from vibegit.commands import trust as trust_

    return trust_.trust_hooks(yes)


@parser.command()
def untrust() -> int:
    """Forget every trusted version of .vibegit/hooks.yaml in this repository."""
    from vibegit.commands import trust as trust_

    return trust_.untrust_hooks()


@parser.command()
def doctor(
    repair: bool = typer.Option(False, "--repair", help="Go back to the newest good state, as a new event."),
) -> int:
    """Check the state branch and the set-up: hooks, git-lfs, the agents vibegit is installed into.

    The branch: parses, orphan, lock consistent, objects present, not deleted,
    not checked out, no stale ref lock. Exit 0 healthy, 1 problems found.
    --repair fixes each item or names what to do: a new event holding the
    newest good state (history, reflog), a deleted branch back from its
    reflog, a remote or the mirror, hooks installed again; nothing is deleted."""
    from vibegit.commands import doctor as doctor_

    return doctor_.doctor(repair)


HookNames = typer.Option(
    None,
    "--hook",
    metavar="NAME",
    help="Only this git hook (repeatable): reference-transaction (the lock check), post-checkout, pre-push, "
    "post-rewrite, pre-commit (an earlier lock check, opt-in). Default: all but pre-commit.",
)


AgentNames = typer.Option(
    None,
    "--agent",
    metavar="NAME",
    help="An agent (repeatable): claude, codex, cursor, gemini. With only --agent, the git hooks are left as they are.",
)
Scope = typer.Option(
    "project",
    "--scope",
    metavar="SCOPE",
    help="With --agent: project (the repository's files, committed; the default), local (Claude Code's "
    ".claude/settings.local.json and CLAUDE.local.md, not committed) or user (the files in your home directory).",
)


@parser.command()
def install(
    hook: Optional[list[str]] = HookNames,
    agent: Optional[list[str]] = AgentNames,
    scope: str = Scope,
    mcp: bool = typer.Option(
        False, "--mcp", help="With --agent: also register 'vibegit mcp' as an MCP server in the agent's config."
    ),
    check: bool = typer.Option(
        False,
        "--check",
        help="Change nothing: say what of vibegit's each agent has (all four without --agent) and whether it is "
        "current; exit 1 when something is missing or outdated.",
    ),
) -> int:
    """Install the git hooks where git looks for them (core.hooksPath and worktrees honoured).

    The lock check is the reference-transaction hook: every way a commit
    reaches a branch meets it, --no-verify too (VIBEGIT_ALLOW=1 lets one
    through, recorded). A hook vibegit did not write is never overwritten: a
    plain one is kept as NAME.vibegit-chained and still runs; the pre-commit
    framework runs vibegit's as NAME.legacy; husky's and lefthook's files stay,
    and install prints the line their configuration needs. Running install
    again changes nothing.

    --agent NAME adds, keeping everything else in each file: the agent's
    session hooks (Claude Code .claude/settings.json: SessionStart and Stop;
    Codex .codex/hooks.json: the same; Cursor .cursor/hooks.json:
    sessionStart and stop; Gemini CLI .gemini/settings.json:
    SessionStart, AfterAgent, PreCompress, BeforeAgent), the /vibe-* commands
    (.claude/commands, .cursor/commands, .gemini/commands) and the working
    protocol as a marked block in CLAUDE.md, AGENTS.md or GEMINI.md. The hook
    commands start the interpreter recorded in git config vibegit.python (or
    baked in, for --scope local and user), else 'vibegit' on PATH, else do
    nothing. Comments in Gemini's settings are kept; nothing is written
    through a symbolic link.
    """
    from vibegit.commands import install as install_

    return install_.install(hook, agent, scope, mcp, check)


@parser.command()
def uninstall(
    hook: Optional[list[str]] = HookNames, agent: Optional[list[str]] = AgentNames, scope: str = Scope
) -> int:
    """Remove vibegit's git hooks (wherever they ended up) and put back the hooks they chained, as they were.

    --agent removes exactly vibegit's entries, commands and block from the
    agent's files; a file comes back byte for byte when nothing else changed
    it, and a file vibegit created goes."""
    from vibegit.commands import install as install_

    return install_.uninstall(hook, agent, scope)


@functools.cache
def _command() -> Any:  # typer's (vendored) click Command
    """The click command typer builds from the functions above (once a process)."""
    return typer.main.get_command(parser)


def run(argv: list[str]) -> int:
    """Parse ``argv`` and run the command; usage errors become one line, exit 2."""
    command = _command()
    try:
        result = command.main(args=argv, prog_name="vibegit", standalone_mode=False)
    except typer.Abort:
        return 1
    except typer.Exit as exit_:
        return exit_.exit_code
    except typer.TyperException as err:
        message = err.format_message() if hasattr(err, "format_message") else str(err)
        ctx = getattr(err, "ctx", None)
        where = ctx.command_path if ctx is not None else "vibegit"
        print(f"vibegit: {message} (see '{where} --help')", file=sys.stderr)
        return 2
    return result if isinstance(result, int) else 0
