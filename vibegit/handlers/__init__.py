"""``vibegit hook NAME``: what git hooks and agent hooks call.

A dispatch table from hook name to the function that handles it, in a module
of this package imported only when called. The raw shims in hooks/ already
decided, without starting Python, that there is something to do; the
pre-commit framework calls these unconditionally. Nothing here imports
typer, GitPython or filelock, except post-rewrite, which records an event.

Git hooks never fail a git command because vibegit broke: every error
becomes one line and exit 0. The exception is the lock check (pre-commit,
reference-transaction), whose job is to block: it fails closed, and any
error of its own blocks the commit too (``VIBEGIT_ALLOW=1`` lets it
through). The marker vibegit sets on the git commands it starts (IN_HOOK)
quiets the other hooks only: anyone can set it, so the lock check ignores
it (vibegit's own ref updates move the state branch, which it skips). The
agents' hooks never crash the agent.
"""

from __future__ import annotations

import os
import sys

from vibegit.errors import OK, BadInput, VibegitError
from vibegit.infra import gitlite

GIT_HOOKS = ("post-checkout", "pre-commit", "pre-push", "post-rewrite", "reference-transaction")
LOCK_HOOKS = ("pre-commit", "reference-transaction")  # they fail closed
# The hooks whose first steps find the repository, read its settings and
# the state branch: those git processes start before the handler's modules
# load (gitlite.start_repo_reads), and run meanwhile.
READ_AT_ONCE = ("pre-commit", "reference-transaction", "post-checkout")

HOOKS = {  # hook name -> "module:function" under vibegit.handlers
    "pre-commit": "pre_commit:run",
    "post-checkout": "post_checkout:run",
    "pre-push": "pre_push:run",
    "post-rewrite": "post_rewrite:run",
    "reference-transaction": "reference_transaction:run",
    "session-start": "agents:session_start",  # agent hooks
    "stop": "agents:stop",
    "pre-compact": "agents:pre_compact",
    "prompt": "agents:prompt",
    "pre-tool": "agents:pre_tool",
}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in HOOKS:
        got = f"{argv[0]!r:.40}" if argv else "nothing"
        raise BadInput(f"vibegit hook: got {got}; expected one of: {', '.join(HOOKS)}")
    name, args = argv[0], argv[1:]
    if name in GIT_HOOKS:
        if os.environ.get(gitlite.IN_HOOK) and name not in LOCK_HOOKS:
            return OK  # a git command started by vibegit itself (the state push); never the lock check's way out
        gitlite.pin_repo_env()  # GIT_DIR / GIT_WORK_TREE name the repository (a bare dotfiles set-up)
        for var in gitlite.HOOK_GIT_VARS:  # ours run on other refs, in the same repository
            os.environ.pop(var, None)
        os.environ[gitlite.IN_HOOK] = "1"
        if name in READ_AT_ONCE and (name != "reference-transaction" or args[:1] == ["prepared"]):
            gitlite.start_repo_reads()  # in the environment just made, which they are taken in
    import importlib

    module, function = HOOKS[name].split(":")
    try:
        handler = getattr(importlib.import_module(f"vibegit.handlers.{module}"), function)
        code: int = handler(args)
        return code
    except VibegitError as err:
        if name in LOCK_HOOKS:
            from vibegit.handlers.lockcheck import failed

            return failed(str(err))
        from vibegit.core.text import clean

        print(f"vibegit: {name} hook: {clean(str(err), one_line=False)} (git goes on)", file=sys.stderr)
    except Exception as err:  # never break git: one line, a log, exit 0
        from vibegit.errors import log_unexpected

        where = log_unexpected(["hook", *argv])
        if name in LOCK_HOOKS:
            from vibegit.handlers.lockcheck import failed

            return failed(f"{type(err).__name__}: {err} (details in {where})")
        from vibegit.core.text import clean

        print(
            f"vibegit: {name} hook failed: {type(err).__name__}: {clean(str(err), one_line=False)} "
            f"(details in {where}; git goes on)",
            file=sys.stderr,
        )
    return OK
