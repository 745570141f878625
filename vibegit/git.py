"""The git object layer: one subprocess helper, small named git needs.

Objects of the state branch are written straight into the object store (as
git-revise and dulwich do) so an event costs no subprocess per object; refs
move only by ``git update-ref NEW OLD``, a compare-and-swap.
"""
from __future__ import annotations

import hashlib
import os
import re
import subprocess
import tempfile
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, NamedTuple

from vibegit.errors import BadInput, GitError

# Variables git exports to hooks that would point our git calls elsewhere.
HOOK_GIT_VARS = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_PREFIX",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_QUARANTINE_PATH",
)
IN_HOOK = "VIBEGIT_IN_HOOK"  # set while vibegit runs git: its own hooks stay quiet then
REMOTE_NS = "refs/vibegit/remote/"  # where sync keeps each remote's state branch
FALLBACK_NAME = "vibegit"
FALLBACK_EMAIL = "vibegit@localhost"


_OID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def is_oid(text: object) -> bool:
    """A full object id (sha1 or sha256), nothing else: ids read from state
    files reach git command lines, where anything else could be an option."""
    return isinstance(text, str) and _OID.fullmatch(text) is not None


def run(
    args: list[str],
    *,
    cwd: Path | None = None,
    input: bytes | None = None,
    check: bool = True,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Run ``git ARGS``; with ``check``, a failure becomes one readable line."""
    proc = subprocess.run(
        ["git", *args],
        cwd=cwd,
        input=input,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    if check and proc.returncode != 0:
        raise GitError(f"git {' '.join(args[:3])} failed: {reason(proc)}")
    return proc


def reason(proc: subprocess.CompletedProcess[bytes]) -> str:
    """Git's own words for a failure: its fatal/error line, else its last line."""
    lines = [line.strip() for line in proc.stderr.decode(errors="replace").splitlines() if line.strip()]
    said = [line for line in lines if line.startswith(("fatal:", "error:"))]
    return (said or lines or [f"exit {proc.returncode}"])[-1]


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without the variables git exports to hooks
    (they would point git at another index or directory), plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in HOOK_GIT_VARS}
    env.update(extra)
    return env


def out(args: list[str], *, cwd: Path | None = None) -> str:
    return run(args, cwd=cwd).stdout.decode().strip()


@dataclass(frozen=True)
class Repo:
    toplevel: Path
    git_dir: Path
    common_dir: Path
    objects_dir: Path
    object_format: str

    @property
    def null_oid(self) -> str:
        return "0" * (64 if self.object_format == "sha256" else 40)

    def git(self, *args: str, check: bool = True, input: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        return run(list(args), cwd=self.toplevel, check=check, input=input)

    def out(self, *args: str) -> str:
        return self.git(*args).stdout.decode().strip()


def find_repo(cwd: Path | None = None) -> Repo:
    """The repository around ``cwd``; a clear error outside one."""
    proc = run(
        [
            "rev-parse",
            "--show-object-format",
            "--absolute-git-dir",
            "--git-common-dir",
            "--git-path",
            "objects",
            "--show-toplevel",
        ],
        cwd=cwd,
        check=False,
    )
    where = cwd or Path.cwd()
    lines = proc.stdout.decode().splitlines()
    if proc.returncode != 0 and b"work tree" in proc.stderr or 0 < len(lines) < 5:
        raise BadInput(f"{where}: vibegit needs a working tree; this is a bare repository or a .git dir")
    if proc.returncode != 0:
        raise BadInput(f"{where}: not inside a git repository (run 'git init' or cd into one)")
    here = Path(cwd or Path.cwd())
    fmt, git_dir, common, objects, top = lines[:5]
    return Repo(
        toplevel=Path(top),
        git_dir=Path(git_dir),
        common_dir=(here / common).resolve(),
        objects_dir=(here / objects).resolve(),
        object_format=fmt,
    )


def read_config(repo: Repo) -> dict[str, str]:
    """Every ``vibegit.*`` and ``user.*`` setting, keys lower-cased as git does."""
    proc = repo.git("config", "-z", "--get-regexp", r"^(vibegit|user)\.", check=False)
    config: dict[str, str] = {}
    for item in proc.stdout.decode(errors="replace").split("\0"):
        if item:
            key, _, value = item.partition("\n")
            config[key.lower()] = value
    return config


class Identity(NamedTuple):
    name: str
    email: str


def identity(config: dict[str, str], role: str = "COMMITTER") -> Identity:
    """The user's identity where set; a fixed fallback where not (fresh CI)."""
    name = os.environ.get(f"GIT_{role}_NAME") or config.get("user.name") or FALLBACK_NAME
    email = os.environ.get(f"GIT_{role}_EMAIL") or config.get("user.email") or FALLBACK_EMAIL
    return Identity(name.replace("<", "").replace(">", "").strip() or FALLBACK_NAME,
                    email.replace("<", "").replace(">", "").strip() or FALLBACK_EMAIL)


class CatFile:
    """One ``git cat-file --batch`` process for every read of an event."""

    def __init__(self, repo: Repo) -> None:
        self._proc = subprocess.Popen(
            ["git", "cat-file", "--batch"],
            cwd=repo.toplevel,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def get(self, rev: str) -> tuple[str, str, bytes] | None:
        """``(type, oid, content)`` of ``rev``, or None when it is missing."""
        assert self._proc.stdin and self._proc.stdout
        if "\n" in rev:
            return None
        self._proc.stdin.write(rev.encode() + b"\n")
        self._proc.stdin.flush()
        header = self._proc.stdout.readline().decode()
        parts = header.split()
        if len(parts) != 3:  # "<rev> missing" / "ambiguous"
            return None
        oid, kind, size = parts
        data = self._proc.stdout.read(int(size))
        self._proc.stdout.read(1)  # the newline after the content
        return kind, oid, data

    def close(self) -> None:
        if self._proc.stdin:
            self._proc.stdin.close()
        self._proc.wait()

    def __enter__(self) -> CatFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_object(repo: Repo, kind: str, data: bytes) -> str:
    """Store one loose object and return its id (sha1 or sha256, as the repo)."""
    raw = f"{kind} {len(data)}\0".encode() + data
    oid = hashlib.new(repo.object_format, raw).hexdigest()
    path = repo.objects_dir / oid[:2] / oid[2:]
    if path.exists():
        return oid
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix="tmp_obj_")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(zlib.compress(raw, 1))
        os.chmod(tmp, 0o444)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return oid


class TreeEntry(NamedTuple):
    mode: str  # "100644", "100755", "120000" or "40000"
    name: str
    oid: str


def write_tree(repo: Repo, entries: Iterable[TreeEntry]) -> str:
    # git orders entries by name, a tree's name compared as if it ended in "/".
    def key(e: TreeEntry) -> bytes:
        return e.name.encode() + (b"/" if e.mode == "40000" else b"")

    body = b"".join(
        f"{e.mode} {e.name}".encode() + b"\0" + bytes.fromhex(e.oid)
        for e in sorted(entries, key=key)
    )
    return write_object(repo, "tree", body)


def parse_tree(repo: Repo, data: bytes) -> list[TreeEntry]:
    size = 32 if repo.object_format == "sha256" else 20
    entries: list[TreeEntry] = []
    i = 0
    while i < len(data):
        nul = data.index(b"\0", i)
        mode, _, name = data[i:nul].decode(errors="surrogateescape").partition(" ")
        entries.append(TreeEntry(mode, name, data[nul + 1 : nul + 1 + size].hex()))
        i = nul + 1 + size
    return entries


def git_time() -> str:
    offset = -time.altzone if time.localtime().tm_isdst > 0 else -time.timezone
    sign = "+" if offset >= 0 else "-"
    offset = abs(offset)
    return f"{int(time.time())} {sign}{offset // 3600:02d}{offset % 3600 // 60:02d}"


def write_commit(
    repo: Repo,
    tree: str,
    parents: list[str],
    message: str,
    author: Identity,
    committer: Identity,
) -> str:
    stamp = git_time()
    lines = [f"tree {tree}"]
    lines += [f"parent {p}" for p in parents]
    lines.append(f"author {author.name} <{author.email}> {stamp}")
    lines.append(f"committer {committer.name} <{committer.email}> {stamp}")
    body = "\n".join(lines) + "\n\n" + message.rstrip("\n") + "\n"
    return write_object(repo, "commit", body.encode())


def update_ref(repo: Repo, ref: str, new: str, old: str | None, reason: str) -> bool:
    """Compare-and-swap ``ref`` from ``old`` (None: must not exist) to ``new``."""
    proc = repo.git(
        "update-ref", "--create-reflog", "-m", reason, ref, new, old or repo.null_oid, check=False
    )
    return proc.returncode == 0


def head_branch(repo: Repo) -> str | None:
    """The checked-out branch's short name, None when HEAD is detached."""
    proc = repo.git("symbolic-ref", "-q", "--short", "HEAD", check=False)
    return proc.stdout.decode().strip() or None


class Pushed(NamedTuple):
    ok: bool
    flags: list[str]  # git push --porcelain flags: "=" up to date, "!" rejected
    detail: str  # git's last line of error, when not ok


def push_ref(repo: Repo, ref: str, remote: str) -> Pushed:
    """Push ``ref`` to the same name on ``remote``, fast-forward only.

    --no-verify: the user's pre-push hooks vetted their own push; running them
    again for an orphan state ref would re-run test suites (the pre-commit
    framework would run its pre-push hooks on all files) and re-enter ours."""
    env = clean_env(GIT_TERMINAL_PROMPT="0", **{IN_HOOK: "1"})
    proc = run(["push", "--porcelain", "--no-verify", remote, f"{ref}:{ref}"], cwd=repo.toplevel, check=False, env=env)
    # --porcelain lines: "<flag>\t<from>:<to>\t<summary>"
    flags = [line[0] for line in proc.stdout.decode(errors="replace").splitlines() if line[1:2] == "\t"]
    return Pushed(proc.returncode == 0, flags, reason(proc))

