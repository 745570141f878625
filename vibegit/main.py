"""The console entry point: the hook fast path, or the CLI, and the one
place where errors become one line (and, when unexpected, a log file and exit 3)."""

from __future__ import annotations

import gc
import os
import sys

from vibegit.errors import UNEXPECTED, VibegitError, log_unexpected

# Imported by main: the rest loads once a hook has started its first git processes
# (handlers), or a verb has parsed its line (verbs), so they run while it loads.


SHORT_HOOKS = ("pre-commit", "reference-transaction", "post-checkout")  # each a few milliseconds of work


def main(argv: list[str] | None = None) -> int:
    hook = _booted_hook(argv)
    if hook:
        gc.disable()  # as a fast verb's (verbs.run): the process ends with the hook
    code = _main(argv, hook)
    if _ends_now(argv, hook):
        _end_now(code)
    return code


def _ends_now(argv: list[str] | None, hook: bool) -> bool:
    """Whether the process ends with this command, without the interpreter's
    teardown (``_end_now``): a short hook a shim booted, or the vibegit
    script's short command (``verbs.ending``)."""
    verbs = sys.modules.get("vibegit.verbs")
    return hook or (argv is None and verbs is not None and verbs.ending)


def _booted_hook(argv: list[str] | None) -> bool:
    """A short git hook run by a shim's boot code (``python -E -c BOOT HOOK
    ARGS``, shims/boot.py: its process ends with the hook), not a call in
    a process that goes on."""
    return (
        argv is not None
        and argv[:1] == ["hook"]
        and argv[1:2] != []
        and argv[1] in SHORT_HOOKS
        and bool(sys.flags.ignore_environment)
        and sys.argv[:1] == ["-c"]
        and argv[1:] == sys.argv[1:]
    )


def _end_now(code: int) -> None:
    """End the vibegit command's process after a short command, without the
    interpreter's teardown of every module and object (a tenth of a task
    add's instructions): what that teardown does that matters, the exit
    handlers and the standard streams' buffers, is done first. A stream that
    cannot be flushed (a closed pipe) leaves the usual end to say so."""
    import atexit

    run_exit_handlers = getattr(atexit, "_run_exitfuncs", None)  # CPython's; elsewhere the usual end
    if run_exit_handlers is None:
        return
    run_exit_handlers()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code)


def _main(given: list[str] | None, hook: bool = False) -> int:
    ends = given is None  # the vibegit command's own call (bin/vibegit): the process ends with it
    argv = sys.argv[1:] if given is None else given
    messages = sys.modules.get("vibegit.core.messages")  # loaded later, while git works, in a new process
    if messages is not None:
        messages.reset()  # English until --lang or vibegit.lang says otherwise (a run before may have changed it)
    for stream in (sys.stdout, sys.stderr):  # a path that is not UTF-8 is shown escaped, never a crash
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    from vibegit.infra.gitlite import end_early, pin_repo_env

    pin_repo_env()  # GIT_DIR=… GIT_WORK_TREE=… vibegit …: the same repository from any directory
    try:
        if argv[:1] == ["hook"]:
            from vibegit.handlers import main as hook_main  # no typer, no GitPython

            return hook_main(argv[1:])
        from vibegit import verbs

        verbs.ending = ends
        code = verbs.run(argv)  # the verbs agents call most, without typer when the line is plain
        if code is not None:
            return code
        from vibegit.cli import run

        return run(argv)
    except VibegitError as err:
        from vibegit.core.text import clean

        # A git failure (exit 3) is unexpected too: it gets the log path.
        where = f" (details in {log_unexpected(argv)})" if err.code == UNEXPECTED else ""
        print(f"vibegit: {clean(str(err), one_line=False)}{where}", file=sys.stderr)  # it may quote what came in
        return err.code
    except KeyboardInterrupt:
        print("vibegit: interrupted", file=sys.stderr)
        return 130
    except Exception as err:  # the one catch-all: no traceback for users
        from vibegit.core.text import clean

        where = log_unexpected(argv)
        said = clean(f"{type(err).__name__}: {err}", one_line=False)
        print(f"vibegit: unexpected error: {said} (details in {where})", file=sys.stderr)
        return UNEXPECTED
    finally:
        from vibegit.infra.git import close_readers

        # A command's git readers end with it (callers in process run many); a process
        # that ends at once leaves them to end on their own (each reads our pipe's end).
        close_readers(wait=not _ends_now(given, hook))
        end_early()
