"""``vibegit demo``: a whole workflow, a lost session, a clone elsewhere and a
resume, a second workflow in a linked worktree beside the first, played in
temporary repositories with the real commands."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from vibegit.core.agents import python_argv
from vibegit.errors import GitError
from vibegit.infra import git

APP = '''def login(user, password):
    """Check the password and open a session."""
    token = None
    return token
'''


def colour_wanted() -> bool:
    """Colours only on a terminal, and never with NO_COLOR set (https://no-color.org)."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


class Player:
    def __init__(self, root: Path) -> None:
        config = root / "gitconfig"
        config.write_text("[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n")
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
            "GIT_CONFIG_GLOBAL": str(config),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "Demo User",
            "GIT_AUTHOR_EMAIL": "demo@example.com",
            "GIT_COMMITTER_NAME": "Demo User",
            "GIT_COMMITTER_EMAIL": "demo@example.com",
        }
        self.colour = colour_wanted()

    def paint(self, code: str, text: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.colour else text

    def title(self, text: str) -> None:
        print("\n" + self.paint("1", f"━━ {text}"), flush=True)

    def run(self, cwd: Path, *args: str, host: str = "laptop", show: bool = True, ok: tuple[int, ...] = (0,)) -> str:
        if show:
            print(self.paint("36", f"{cwd.name}$ {' '.join(shlex.quote(a) for a in args)}"), flush=True)
        env = {**self.env, "VIBEGIT_HOST": host}
        proc: git.Done | subprocess.CompletedProcess[bytes]
        if args[0] == "git":
            proc = git.run(list(args[1:]), cwd=cwd, env=env, check=False)
        else:  # vibegit, as the user types it
            run = python_argv(sys.executable, "from vibegit.main import main;sys.exit(main(sys.argv[1:]))", *args[1:])
            proc = subprocess.run(run, cwd=cwd, env=env, capture_output=True)
        text = (proc.stdout + proc.stderr).decode(errors="replace").rstrip()
        if show and text:
            print(textwrap.indent(text, "  "), flush=True)
        if proc.returncode not in ok:
            raise GitError(f"demo step failed: {' '.join(args)} (exit {proc.returncode}): {text.splitlines()[-1:]}")
        return text


def run() -> int:
    with tempfile.TemporaryDirectory(prefix="vibegit-demo-") as tmp:
        root = Path(tmp)
        p = Player(root)
        print(f"vibegit demo in {root} (removed at the end)")

        p.title("1. A project with a remote")
        p.run(root, "git", "init", "-q", "--bare", "origin.git", show=False)
        laptop = root / "laptop"
        p.run(root, "git", "clone", "-q", str(root / "origin.git"), "laptop", show=False)
        (laptop / "src").mkdir()
        (laptop / "src" / "auth.py").write_text(APP)
        (laptop / "README.md").write_text("# shop\n\n## Rules\n- Never log passwords.\n")
        p.run(laptop, "git", "add", "-A", show=False)
        p.run(laptop, "git", "commit", "-q", "-m", "initial", show=False)
        p.run(laptop, "git", "push", "-q", "origin", "main", show=False)
        p.run(laptop, "vibegit", "install")

        p.title("2. The agent runs a workflow; every step is a commit on vibegit/state")
        p.run(laptop, "vibegit", "start", "vibe-code", "--goal", "Add a login API")
        p.run(laptop, "vibegit", "task", "add", "T-001", "Data model for users")
        p.run(laptop, "vibegit", "task", "add", "T-002", "Login endpoint")
        p.run(laptop, "vibegit", "task", "add", "T-003", "Tests for login")
        p.run(laptop, "vibegit", "phase", "E", "--step", "4.1")
        p.run(laptop, "vibegit", "task", "start", "T-001")
        p.run(laptop, "vibegit", "task", "done", "T-001")
        p.run(laptop, "vibegit", "task", "start", "T-002")
        (laptop / "src" / "auth.py").write_text(APP.replace("token = None", "token = issue_token(user)  # WIP"))
        p.run(laptop, "vibegit", "context", "--last", "user model done", "--next", "verify the password hash")
        p.run(
            laptop,
            "vibegit",
            "checkpoint",
            "--file",
            "src/auth.py",
            "--line",
            "3",
            "--action",
            "login skeleton written; password check next",
        )
        p.run(laptop, "git", "commit", "-am", "try to commit mid-workflow", ok=(0, 1, 128))

        p.title("3. The session dies: context compacted, terminal closed. A new session starts:")
        p.run(laptop, "vibegit", "status")

        p.title("4. Push, then clone on another machine and resume there")
        p.run(laptop, "git", "push", "origin", "main")
        desktop = root / "desktop"
        p.run(root, "git", "clone", "-q", str(root / "origin.git"), "desktop")
        p.run(desktop, "vibegit", "resume", host="desktop")
        p.run(desktop, "git", "diff", "--stat", host="desktop")
        p.run(desktop, "vibegit", "log", "-n", "4", host="desktop")

        p.run(desktop, "vibegit", "sync", host="desktop")

        p.title("5. A second agent, in a linked worktree on another branch, runs its own workflow beside it")
        p.run(desktop, "git", "worktree", "add", "-q", "-b", "docs", "../desktop-docs", host="desktop")
        docs = root / "desktop-docs"
        p.run(docs, "vibegit", "start", "vibe-docs", "--goal", "Document the login API", host="desktop")
        p.run(docs, "vibegit", "task", "add", "T-001", "API reference for /login", host="desktop")
        p.run(docs, "vibegit", "task", "start", "T-001", host="desktop")
        p.run(desktop, "vibegit", "task", "done", "T-002", host="desktop")
        p.run(docs, "vibegit", "list", host="desktop")
        p.run(docs, "vibegit", "sync", host="desktop")

        p.title("6. Back on the laptop, vibegit knows the workflow moved")
        p.run(laptop, "git", "fetch", "-q", "origin")
        p.run(laptop, "vibegit", "task", "done", "T-002", ok=(1,))
        print("\nDone. Try it in your own repository: vibegit start NAME --goal TEXT")
    return 0
