"""The verbs agents call most (``status``, ``list``, ``task …``, ``context``,
``checkpoint``, ``phase``) and ``sync``, parsed without typer when the command line is plain.

Importing typer and building its click command costs more than the rest of
such a command. ``run`` parses a plain command line for one of these verbs
(known options, ``--opt value`` or ``--opt=value``, the right number of
arguments) and calls the same function the CLI calls (``cli.py`` calls the
ones below too); anything else (``--help``, an unknown or repeated option, a
missing argument, a value that is not a plain number, ``--``) returns None
and typer parses it, errors and all. ``tests/test_verbs.py`` compares these
options with typer's command, so the two cannot drift apart.
"""

from __future__ import annotations

import errno
import gc
import os
import sys
from collections.abc import Callable

from vibegit.infra.gitlite import start_repo_reads

# Option kinds: a flag (no value), a text value, a whole number.
FLAG, TEXT, NUMBER = "flag", "text", "number"
WORKFLOW = {"--workflow": ("workflow", TEXT), "-w": ("workflow", TEXT)}
JSON = {"--json": ("as_json", FLAG)}
LANG = {"--lang": ("lang", TEXT)}


def status(as_json: bool = False, lang: str | None = None, workflow: str | None = None, compare: bool = False) -> int:
    from vibegit.commands import status as status_

    return status_.status(as_json, lang, workflow, compare)


def list_workflows(as_json: bool = False) -> int:
    from vibegit.commands import status as status_

    return status_.list_(as_json)


def task_add(task_id: str, title: str, workflow: str | None = None) -> int:
    from vibegit.commands import task

    return task.add(task_id, title, workflow)


def task_start(task_id: str, workflow: str | None = None) -> int:
    from vibegit.commands import task

    return task.start(task_id, workflow)


def task_done(task_id: str, workflow: str | None = None) -> int:
    from vibegit.commands import task

    return task.done(task_id, workflow)


def task_list(as_json: bool = False, workflow: str | None = None) -> int:
    from vibegit.commands import task

    return task.list_(as_json, workflow)


def phase(to: str, step: str | None = None, workflow: str | None = None) -> int:
    from vibegit.commands import workflow as workflow_

    return workflow_.phase(to, step, workflow)


def context(
    last: str | None = None,
    next_: str | None = None,
    question: str | None = None,
    answer: int | None = None,
    reply: str | None = None,
    workflow: str | None = None,
) -> int:
    from vibegit.commands import context as context_

    return context_.context(last, next_, question, answer, workflow, reply)


def checkpoint(
    file: str | None = None,
    line: int | None = None,
    action: str | None = None,
    no_snapshot: bool = False,
    workflow: str | None = None,
) -> int:
    from vibegit.infra import snapshot

    with snapshot.begun(no_snapshot):  # git stages the working tree while the command's modules load
        from vibegit.commands import checkpoint as checkpoint_

        return checkpoint_.checkpoint(file, line, action, no_snapshot, workflow)


def sync(remote: str | None = None, redact: bool = False, no_verify: bool = False) -> int:
    from vibegit.infra import remote as remote_

    with remote_.begun(remote):  # the remote answers while the command's modules load
        from vibegit.commands import sync as sync_

        return sync_.sync(remote, redact, not no_verify)


# The command words, the function, its arguments' names (all required) and
# its options: name -> (parameter, kind). The names are the CLI's parameters.
Verb = tuple[Callable[..., int], tuple[str, ...], dict[str, tuple[str, str]]]
VERBS: dict[tuple[str, ...], Verb] = {
    ("status",): (status, (), {**JSON, **LANG, **WORKFLOW, "--compare": ("compare", FLAG)}),
    ("list",): (list_workflows, (), JSON),
    ("task", "add"): (task_add, ("task_id", "title"), WORKFLOW),
    ("task", "start"): (task_start, ("task_id",), WORKFLOW),
    ("task", "done"): (task_done, ("task_id",), WORKFLOW),
    ("task", "list"): (task_list, (), {**JSON, **WORKFLOW}),
    ("phase",): (phase, ("to",), {"--step": ("step", TEXT), **WORKFLOW}),
    ("context",): (
        context,
        (),
        {
            "--last": ("last", TEXT),
            "--next": ("next_", TEXT),
            "--question": ("question", TEXT),
            "--answer": ("answer", NUMBER),
            "--reply": ("reply", TEXT),
            **WORKFLOW,
        },
    ),
    ("checkpoint",): (
        checkpoint,
        (),
        {
            "--file": ("file", TEXT),
            "--line": ("line", NUMBER),
            "--action": ("action", TEXT),
            "--no-snapshot": ("no_snapshot", FLAG),
            **WORKFLOW,
        },
    ),
    ("sync",): (
        sync,
        (),
        {"--remote": ("remote", TEXT), "--redact": ("redact", FLAG), "--no-verify": ("no_verify", FLAG)},
    ),
}


def parse(argv: list[str]) -> tuple[Callable[..., int], dict[str, object]] | None:
    """The function and its keyword arguments for a plain command line of a
    fast verb; None for anything typer should see."""
    words = tuple(argv[:2]) if argv[:1] == ["task"] else tuple(argv[:1])
    verb = VERBS.get(words)
    if verb is None:
        return None
    run, names, options = verb
    given: dict[str, object] = {}
    args: list[str] = []
    rest = iter(argv[len(words) :])
    for token in rest:
        if not token.startswith("-"):
            args.append(token)
            continue
        name, eq, value = token.partition("=")
        if name not in options or (eq and not name.startswith("--")):
            return None  # --help, --, an unknown option, -wNAME: typer's
        param, kind = options[name]
        if param in given:
            return None  # given twice
        if kind == FLAG:
            if eq:
                return None
            given[param] = True
            continue
        if not eq:
            value = next(rest, "-")
            if value.startswith("-"):
                return None  # a missing value, or one that looks like an option
        if kind == NUMBER:
            if not (value.isascii() and value.isdigit()):
                return None
            given[param] = int(value)
        else:
            given[param] = value
    if len(args) != len(names):
        return None
    lang = given.get("lang")
    if lang is not None:
        from vibegit.core.settings import LANGS

        if lang not in LANGS:
            return None  # typer says what is wrong
    return run, {**dict(zip(names, args, strict=True)), **given}


# main sets it: the process ends with the command (the vibegit command's own call);
# run clears it for a command that keeps the usual end (sync), so main can end
# a short one at once (its objects need no teardown).
ending = False


def run(argv: list[str]) -> int | None:
    """Run a plain command line of a fast verb as the CLI would (the same
    exit codes for an end of input, an interrupt, a closed pipe); None: not one."""
    global ending
    parsed = parse(argv)
    if parsed is None:
        ending = False  # typer's command: the usual end
        return None
    function, kwargs = parsed
    # Its first git processes run while its modules load; a checkpoint's git add -A goes
    # before the reads (snapshot.begun starts them): it is the longest.
    start_repo_reads(reads=function is not checkpoint)
    if kwargs.get("lang") is not None:
        from vibegit.core import messages

        messages.use(str(kwargs["lang"]), force=True)  # as the CLI's --lang: the language of this whole run
    ending = ending and function is not sync
    if ending:
        # The process ends with this short command: its garbage goes with it.
        # The collector's passes over every object its imports made (and the
        # whole one at exit, which runs only while it is enabled) cost about
        # a millisecond; sync's work grows with the history, so it keeps them.
        gc.disable()
    try:
        return function(**kwargs)
    except EOFError:
        print(file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except OSError as err:
        if err.errno != errno.EPIPE:
            raise
        devnull = open(os.devnull, "w")  # noqa: SIM115 (what remains to print goes nowhere, as with typer)
        sys.stdout = sys.stderr = devnull
        raise SystemExit(1) from None
