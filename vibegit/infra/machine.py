"""Where and when this process runs: the clone's machine id and the host
name locks record, and the facts of the moment an event happens (time,
worktree, HEAD and branch)."""

from __future__ import annotations

import os
import time

from vibegit.core.model import Env, is_machine_id
from vibegit.core.text import escape_path
from vibegit.errors import BadInput
from vibegit.infra import fs, git
from vibegit.infra.gitlite import this_host

__all__ = ["this_host"]  # re-exported: where locks are held


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())  # not datetime: it costs a millisecond to import


def worktree_name(repo: git.Repo) -> str:
    """This worktree as locks record it: its path, escaped to one printable line
    (a path may hold any byte but NUL and "/"; the state files hold text)."""
    return escape_path(repo.toplevel)


MACHINE_FILE = "vibegit.machine"  # in the git common dir, beside vibegit.lock


def machine_id(repo: git.Repo, create: bool = True) -> str:
    """This clone's id: random hex kept in its git common dir (its linked
    worktrees share it; ``git clone`` copies nothing of a git dir, so every
    clone gets its own). Made on first need (``create``; else "" until then);
    read and written never through a link; a file that does not hold one is
    an error that says how to start again."""
    root = repo.common_dir
    data = fs.read(root, MACHINE_FILE, 1024)
    if data is None and create:
        data = _make(root)
    if data is None:
        return ""
    found = data.decode("ascii", errors="replace").strip()
    if not is_machine_id(found):
        raise BadInput(
            f"{os.path.join(root, MACHINE_FILE)}: not a vibegit machine id (16 to 64 hex digits); delete it and vibegit "
            "makes a new one (this clone is then a new holder: 'vibegit resume --force' takes its workflow back)"
        )
    return found


def _make(root: str) -> bytes:
    """A new id, written whole under a scratch name and linked into place, so
    a process that looks meanwhile finds none or all of it, and two that make
    one at once agree on the first."""
    made = (
        os.urandom(20).hex().encode() + b"\n"
    )  # 40 hex digits: the state files' YAML reads it as text, as an object id
    scratch = f"{MACHINE_FILE}{fs.TEMP}{os.urandom(4).hex()}"
    fs.write(root, scratch, made, 0o644)
    try:
        os.link(os.path.join(root, scratch), os.path.join(root, MACHINE_FILE), follow_symlinks=False)
    except FileExistsError:
        pass  # another process made it first: its id is the clone's
    except OSError:  # a file system without hard links: a rename, unless one stands there
        if fs.lstat(root, MACHINE_FILE) is None:
            fs.rename(root, scratch, MACHINE_FILE)
    finally:
        fs.remove(root, scratch)
    return fs.read(root, MACHINE_FILE, 1024) or made


def facts(repo: git.Repo) -> Env:
    """This moment: time, host, clone, worktree, HEAD and branch, fresh random ids."""
    stamp = now()
    return Env(
        now=stamp,
        machine=machine_id(repo),
        host=this_host(),
        worktree=worktree_name(repo),
        head=git.head_commit(repo),
        branch=git.head_branch(repo),
        new_session_id=f"sess_{stamp[:10].replace('-', '')}_{os.urandom(3).hex()}",  # secrets.token_hex(3), without its import
        nonce=os.urandom(3).hex(),
    )
