"""The console entry point: the hook fast path, or the CLI, and the one
place where unexpected errors become one line, a log file and exit 3."""
from __future__ import annotations

import os
import sys
import time
import traceback
from pathlib import Path

from vibegit import __version__
from vibegit.errors import UNEXPECTED, VibegitError


def log_path() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "vibegit" / "error.log"


def log_unexpected(argv: list[str]) -> str:
    path = log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a") as f:
            f.write(f"--- {time.strftime('%Y-%m-%dT%H:%M:%S')} vibegit {__version__} "
                    f"python {sys.version.split()[0]} argv {argv!r}\n")
            f.write(traceback.format_exc())
        return str(path)
    except OSError:
        return "(could not write a log)"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv[:1] == ["hook"]:
            from vibegit.hook import main as hook_main  # no typer, no GitPython

            return hook_main(argv[1:])
        from vibegit.cli import run

        return run(argv)
    except VibegitError as err:
        # A git failure (exit 3) is unexpected too: it gets the log path.
        where = f" (details in {log_unexpected(argv)})" if err.code == UNEXPECTED else ""
        print(f"vibegit: {err}{where}", file=sys.stderr)
        return err.code
    except KeyboardInterrupt:
        print("vibegit: interrupted", file=sys.stderr)
        return 130
    except Exception as err:  # the one catch-all: no traceback for users
        where = log_unexpected(argv)
        print(f"vibegit: unexpected error: {type(err).__name__}: {err} (details in {where})", file=sys.stderr)
        return UNEXPECTED
