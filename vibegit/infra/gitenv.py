"""The environment vibegit runs git in. Its own module, importing nothing,
so the lock check's quick path (handlers/quicklock.py) shares it with
``git`` without loading that module."""

from __future__ import annotations

import os

# Variables git exports to hooks that would point our git calls elsewhere.
# GIT_DIR and GIT_WORK_TREE are not among them: they say which repository a
# hook runs for (a bare-repository dotfiles set-up has no .git to find), so
# they are kept, made absolute (``pin_repo_env``).
HOOK_GIT_VARS = (
    "GIT_INDEX_FILE",
    "GIT_PREFIX",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_QUARANTINE_PATH",
)
IN_HOOK = "VIBEGIT_IN_HOOK"  # set while vibegit runs git: its own hooks stay quiet then


def pin_repo_env() -> None:
    """Make GIT_DIR and GIT_WORK_TREE absolute, as seen from here: git hands
    hooks ``GIT_WORK_TREE=.`` and vibegit runs git from other directories."""
    for var in ("GIT_DIR", "GIT_WORK_TREE"):
        value = os.environ.get(var)
        if value:
            os.environ[var] = os.path.abspath(value)


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without the variables git exports to hooks
    (they would point git at another index or directory), plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in HOOK_GIT_VARS}
    env.update(extra)
    return env
