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
    from vibegit.infra import snapshot

    with snapshot.begun(no_snapshot):  # git stages the working tree while the command's modules load
        from vibegit.commands import checkpoint

        return checkpoint.pause(action, _lang(lang), no_snapshot, workflow)


@parser.command()
def resume(
    lang: Optional[str] = Lang,
    checkout: bool = typer.Option(False, "--checkout", help="Switch to the checkpoint's branch (or commit) first."),
    force: bool = typer.Option(
        False,
        "--force",
        help="Take the remote's newer state and the workflow over, and restore its checkpoint's work even here, "
        "saving what of yours stands in the way in .git/vibegit/backups/ first.",
    ),
    remote: Optional[str] = typer.Option(
        None,
        "--remote",
        help="Where to fetch the state from (default: git config vibegit.remote, else the upstream's, else origin).",
    ),
    workflow: Optional[str] = WorkflowName,
) -> int:
    """Take the lock again and print the recovery report. (/vibe-resume)

    First it looks at the state's remote (a fetch of at most 10 s; offline,
    the copy fetched before, and it says so). When the workflow moved on
    there (events this copy lacks) nothing is resumed: it names who holds
    it and when its last event was; 'vibegit sync' catches up, --force
    takes the remote's state and the workflow over at once.

    After a clone elsewhere: takes the remote's state branch, fetches the
    checkpoint's commit, says where HEAD is (--checkout goes to the
    checkpoint's branch, else the workflow's), and restores the checkpoint's
    uncommitted work where that loses nothing: anything of yours in the way
    (changed, untracked or ignored files, directories, links) is listed and
    left alone (exit 1) unless --force copies it to a checked backup under
    .git/vibegit/backups/ first and prints the command that brings it back
    (--force restores also where the workflow already runs). Nested
    repositories, .git and the mirror are never written. Configuration
    (hooks, hook managers' and agents' settings, instructions, editor tasks,
    .envrc, .vibegit/: docs/security.md lists it) is withheld where the
    snapshot changes it; resume lists it with the commands that show it and
    take it. A workflow another clone (or worktree) holds is taken over;
    a holder is one clone, told by an id kept in its git directory, so two
    clones on one host are two. That clone's next event is refused and
    says so, and the lock is enforced here at once (a clone without git
    hooks gets vibegit's installed; other hooks there: it says to run
    'vibegit install'). Resumes the workflow of this worktree's branch;
    with several candidates it lists them and asks for --workflow, never
    picking one silently."""
    from vibegit.commands import resume as resume_

    return resume_.resume(_lang(lang), checkout, force, remote, workflow)


@parser.command()
def take(
    paths: list[str] = typer.Argument(
        ..., metavar="PATH...", help="Withheld paths (or directories) as resume lists them."
    ),
    diff: bool = typer.Option(False, "--diff", help="Show the difference only; write nothing."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Skip the question (refused where an agent runs this)."),
    workflow: Optional[str] = WorkflowName,
) -> int:
    """Take configuration that resume withheld from the checkpoint's snapshot.

    Configuration runs commands or steers an agent (git hooks, hook
    managers' and agents' settings, instructions, editor tasks, .envrc:
    the list is in docs/security.md), and the snapshot comes from the state
    branch, which anyone who can push writes. So resume writes none of it
    where the snapshot's version differs from the checkpoint commit's; it
    names each path. --diff shows the difference; without it, take asks
    you, saves what stands at those paths under .git/vibegit/backups/
    (printing the command that brings it back), and writes the snapshot's
    version. It is a person's decision: refused when an agent's environment
    variable (such as CLAUDECODE) is set; --yes skips the question elsewhere."""
    from vibegit.commands import take as take_

    return take_.take(paths, diff, yes, workflow)


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
    (schema 2: with its id, the other workflows, and what is newer on the
    state's remote). (/vibe-state)

    The report says whether the checkpoint's snapshot matches the working
    tree; that scans every file, so above 5,000 files in the index it is
    done only with --compare. When the copy of the state's remote fetched
    last (by 'git fetch' or 'vibegit sync'; status itself uses no network)
    has events of this workflow this copy lacks, a first line says how many,
    when the last was and who holds it there. A workflow another clone holds
    ends with who holds it and how to take it over."""
    return verbs.status(as_json, _lang(lang), workflow, compare)


@parser.command("list")
def list_workflows(as_json: bool = Json) -> int:
    """Every workflow of the repository: status, branch, holder, phase, progress, last event."""
    return verbs.list_workflows(as_json)


@parser.command()
def complete(
    yes: bool = typer.Option(
        False, "--yes", "-y", help="Skip the question (recorded in history); refused where an agent runs the command."
    ),
    no_tasks: bool = typer.Option(
        False, "--no-tasks", help="Complete a workflow that has no task at all (recorded in history)."
    ),
    lesson: Optional[list[str]] = typer.Option(
        None, "--lesson", metavar="TEXT", help="What this workflow taught, remembered in memory (repeatable)."
    ),
    workflow: Optional[str] = WorkflowName,
) -> int:
    """Finish the workflow: every task done, no open question, a person confirms.

    Only a person decides it: in an agent's environment (CLAUDECODE, GEMINI_CLI,
    CODEX_SANDBOX, CURSOR_AGENT or AGENT set) neither --yes nor an answer piped
    to the question counts; the user runs it in their own terminal, or answers
    the vibegit MCP tool's question. The record says how it was confirmed.

    Runs onBeforeComplete first; then prints the completion report (goal,
    tasks, duration, phases, decisions, lessons), keeps it as completion.md in
    the state, and remembers the lessons and the answered questions (as
    decisions) in memory. A workflow without tasks needs --no-tasks."""
    from vibegit.commands import workflow as workflow_

    return workflow_.complete(yes, workflow, no_tasks=no_tasks, lessons=tuple(lesson or ()))


@parser.command()
def abort(
    yes: bool = typer.Option(
        False, "--yes", "-y", help="Skip the question (recorded in history); refused where an agent runs the command."
    ),
    workflow: Optional[str] = WorkflowName,
) -> int:
    """End the workflow and release the lock; progress is kept. (/vibe-abort)

    A person confirms, as for complete: not --yes nor a piped answer where an agent runs it."""
    from vibegit.commands import workflow as workflow_

    return workflow_.abort(yes, workflow)


@parser.command()
def unlock(
    reason: Optional[str] = typer.Option(None, "--reason", help="Why, for the history."),
    yes: bool = typer.Option(
        False, "--yes", "-y", help="Skip the question (recorded in history); refused where an agent runs the command."
    ),
    workflow: Optional[str] = WorkflowName,
) -> int:
    """Release the lock at once and end the workflow. (/vibe-unlock)

    A person confirms, as for complete: not --yes nor a piped answer where an agent runs it."""
    from vibegit.commands import workflow as workflow_

    return workflow_.unlock(yes, reason, workflow)


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
    """Serve the whole workflow to an agent over MCP (stdio); needs pip install 'vibegit-state[mcp]'.

    Tools, with the CLI's parameters by the CLI's names: status, list,
    task_list, memory_list (read-only); start, phase, task_add, task_start,
    task_done, context, checkpoint, pause, resume, memory_add,
    memory_remove; and complete, abort, unlock, which ask the user to
    confirm through the client (MCP elicitation), naming the workflow and
    its id, and act on that workflow only; a client that cannot ask gets a
    refusal telling the user to confirm in a terminal. Resource:
    vibegit://state. 'vibegit install --agent NAME --mcp' registers it."""
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
    notes merged as text. What was decided is printed and recorded. All the
    push would publish that the remote does not have is scanned first (the
    snapshots' files, committed or not: a commit never pushed is new there;
    names; git-lfs content; the state's text; messages): a credential is
    refused (exit 1) with its file:line and fingerprint. Your pre-push hooks
    run for the push too.
    When another push reaches the remote first, it waits a random while,
    fetches and merges again (one merge per sync), for up to
    vibegit.syncTimeout seconds (30). A remote that cannot be reached is
    exit 2 with git's own line."""
    return verbs.sync(remote, redact, no_verify)


@secrets_parser.command("check")
def secrets_check() -> int:
    """List what the next push of the state branch to its remote would refuse
    (exit 1 when anything): what the remote does not have, scanned."""
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
    remote: Optional[str] = typer.Option(
        None,
        "--remote",
        metavar="NAME",
        help="Bring a deleted state branch back from this remote's copy (fetched before), "
        "not from this repository's own.",
    ),
) -> int:
    """Check the state branch and the set-up: hooks, git-lfs, the agents vibegit is installed into.

    The branch: parses, orphan, lock consistent, objects present, not deleted,
    not checked out, no stale ref lock. The hooks: each one git runs, executable,
    what this vibegit installs. Exit 0 healthy, 1 problems found.
    --repair fixes each item or names what to do: a new event holding the
    newest good state (history, reflog), a deleted branch back from its
    reflog, the copy of the state's own remote (vibegit.remote) or the
    mirror, hooks installed again (every difference of text or mode mended);
    nothing is deleted. Another remote's copy
    (a fork's upstream: someone else's state) only with --remote NAME."""
    from vibegit.commands import doctor as doctor_

    return doctor_.doctor(repair, remote)


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
    again mends what differs (text or mode) of every hook it installed,
    the opt-in pre-commit included, and leaves the rest as it is.

    --agent NAME adds, keeping everything else in each file: the agent's
    hooks (Claude Code .claude/settings.json: SessionStart, Stop and
    PreToolUse on Bash; Codex .codex/hooks.json: SessionStart and Stop;
    Cursor .cursor/hooks.json: sessionStart, stop and beforeShellExecution;
    Gemini CLI .gemini/settings.json: SessionStart, AfterAgent, PreCompress,
    BeforeAgent and BeforeTool), the /vibe-* commands with /vibe-code GOAL
    (.claude/commands, .cursor/commands, .gemini/commands; Codex skills in
    .agents/skills) and the working protocol as a marked block in CLAUDE.md,
    AGENTS.md or GEMINI.md. Before a shell command that may run vibegit
    complete, abort or unlock, the agent asks you in its own permission
    prompt (not Codex). Every entry starts vibegit through one launcher,
    .git/vibegit/bin/vibegit, written for this interpreter (--scope user:
    also one in the state directory); without it the entries do nothing.
    Comments in Gemini's settings are kept; nothing is written through a
    symbolic link (a CLAUDE.md link to AGENTS.md gets the block in
    AGENTS.md).
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
