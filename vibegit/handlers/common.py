"""What the git hooks' handlers share."""

from __future__ import annotations

import sys

from vibegit.core import messages
from vibegit.core.settings import Settings, settings
from vibegit.infra import git


def open_for_hook() -> tuple[git.Repo, Settings]:
    """The repository and its settings; a bad setting is reported and its safe
    default used, so a typo never switches the lock check off."""
    repo = git.find_repo()
    conf = settings(git.read_config(repo), fallback=lambda message: print(f"vibegit: {message}", file=sys.stderr))
    messages.use(conf.lang)
    return repo, conf
