"""What the tests share: real repositories, real git, vibegit in process or
as a process, and the few set-ups many tests need. Fixtures are in
conftest.py; no test module imports another."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import pwd
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from benchmarks.common import wait_for_repack

MIRROR = "project_document/.ai_state"
STATE_REF = "refs/heads/vibegit/state"


@dataclass
class Result:
    code: int
    out: str
    err: str


VG = Callable[..., Result]  # vibegit in process: vg("task", "add", "T-1", "x", cwd=..., input=...)


def git(cwd: Path, *args: str, input: str | None = None, check: bool = True) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, input=input, capture_output=True, text=True)
    if check and proc.returncode:
        raise AssertionError(f"git {' '.join(args)} failed ({proc.returncode}): {proc.stderr}")
    return proc.stdout.strip()


def run_git(cwd: Path, *args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    """git as a user runs it, hooks and all; the exit code is the answer."""
    proc = subprocess.run(["git", *args], cwd=cwd, input=input, capture_output=True, text=True, env=env)
    return Result(proc.returncode, proc.stdout, proc.stderr)


def commit(cwd: Path, message: str = "work", *extra: str, env: dict[str, str] | None = None) -> Result:
    return run_git(cwd, "commit", "--allow-empty", "-m", message, *extra, env=env)


def init_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    (path / "README.md").write_text("# demo\n")
    (path / "src").mkdir()
    (path / "src" / "app.py").write_text("def login():\n    return None\n\n\ndef logout():\n    pass\n")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "initial")
    return path


def bare_origin(repo: Path, tmp_path: Path) -> Path:
    """A bare repository on disk as ``repo``'s origin (the "remote" of push tests)."""
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    return bare


def make_dirty(path: Path) -> None:
    """Staged, unstaged and untracked work, as a user mid-task has."""
    (path / "staged.txt").write_text("staged\n")
    git(path, "add", "staged.txt")
    (path / "src" / "app.py").write_text("def login():\n    return 'WIP'\n\n\ndef logout():\n    pass\n")
    (path / "notes.txt").write_text("untracked\n")


def vg_here(*args: str, cwd: Path) -> Result:
    """vibegit in process, in ``cwd``, without fixtures (for hypothesis tests)."""
    from vibegit.main import main

    out, err, before = io.StringIO(), io.StringIO(), os.getcwd()
    try:
        os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        os.chdir(before)
    return Result(code, out.getvalue(), err.getvalue())


def vg_as(host: str, where: Path, *args: str) -> Result:
    """``vg_here`` as machine ``host`` (VIBEGIT_HOST), for hypothesis tests."""
    saved = os.environ.get("VIBEGIT_HOST")
    os.environ["VIBEGIT_HOST"] = host
    try:
        return vg_here(*args, cwd=where)
    finally:
        os.environ.pop("VIBEGIT_HOST")
        if saved is not None:
            os.environ["VIBEGIT_HOST"] = saved


def ok_as(host: str, where: Path, *args: str) -> Result:
    result = vg_as(host, where, *args)
    assert result.code == 0, (host, args, result.out, result.err)
    return result


def vg_proc(*args: str, cwd: Path, input: str = "", env: dict[str, str] | None = None) -> Result:
    """Run the installed vibegit as a separate process."""
    proc = subprocess.run(
        [sys.executable, "-m", "vibegit", *args], cwd=cwd, input=input, capture_output=True, text=True, env=env
    )
    return Result(proc.returncode, proc.stdout, proc.stderr)


# A project README with rules under headings, and things that are not rules.
# The Session Manager skill's own state files, as its document shows them (in Chinese).
SKILL_SESSION = """\
# 会话状态 - 每次操作都要更新
session:
  id: "sess_20250112_001"
  created_at: "2025-01-12T10:00:00Z"
  updated_at: "2025-01-12T10:30:00Z"
mode:
  type: "workflow"
  workflow_name: "vibe-code"
  phase: "E"
  step: "4.3"
workflow:
  started_at: "2025-01-12T10:00:00Z"
  current_task: "T-002"
  total_tasks: 3
  completed_tasks: 1
  status: "running"
context:
  goal: "实现用户认证系统"
  last_action: "完成了数据模型设计"
  next_action: "实现API接口"
  pending_questions: ["用哪个数据库？"]
checkpoint:
  file: "src/api/auth.ts"
  line: 45
  action: "implementing login function"
"""

SKILL_LOCK = """\
locked: true
workflow: "vibe-code"
reason: "工作流执行中，需完成后才能切换"
unlock_conditions:
  - "所有TODO完成"
  - "用户通过寸止确认"
  - "用户主动解锁 /vibe-unlock"
"""

SKILL_KANBAN = """\
# 看板

## 待办
- [ ] T-003: 实现登出

## 进行中
- [~] T-002: 实现登录API

## 已完成
- [x] T-001: 数据模型设计
"""


README = """\
# demo

Intro text is not a rule.

- [Install](#install)
- [Usage](#usage)

## Conventions

- Use four spaces,
  never tabs.
- Type every function
* Keep commits small

```sh
- not a rule: inside code
```

## Release steps

1. Bump the version
2) Tag it
<!--
- a comment, not a rule
-->
"""


MID_TASK = (("task", "start", "T-002"), ("phase", "E", "--step", "4.3"))


def start_workflow(
    vg: VG,
    cwd: Path | None = None,
    *,
    goal: str = "Implement user auth",
    tasks: tuple[str, ...] = ("Data model", "Login API"),
    then: tuple[tuple[str, ...], ...] = MID_TASK,
) -> None:
    """Start ``vibe-code``, add ``tasks`` as T-001, T-002 …, then run ``then``
    (by default: start T-002, enter phase E step 4.3); each must succeed."""
    steps = (
        ("start", "vibe-code", "--goal", goal),
        *(("task", "add", f"T-{i:03d}", title) for i, title in enumerate(tasks, 1)),
        *then,
    )
    for args in steps:
        result = vg(*args, cwd=cwd)
        assert result.code == 0, (args, result.err)


def trust_hooks(vg: VG, monkeypatch: pytest.MonkeyPatch, cwd: Path | None = None) -> Result:
    """``vibegit trust --yes`` as a person's script runs it (VIBEGIT_TRUST=yes)."""
    with monkeypatch.context() as patch:
        patch.setenv("VIBEGIT_TRUST", "yes")
        result = vg("trust", "--yes", cwd=cwd)
    assert result.code == 0, result.err
    return result


def status_json(vg: VG, cwd: Path | None = None) -> dict:
    result = vg("status", "--json", cwd=cwd)
    assert result.code == 0, result.err
    return json.loads(result.out)


def workflow_dir(path: Path, *, ref: str = "vibegit/state", workflow: str = "") -> str:
    """``workflows/<id>`` of the one workflow of the state tree (or of the one whose id starts with ``workflow``)."""
    ids = [i for i in git(path, "ls-tree", "--name-only", f"{ref}:workflows").split() if i.startswith(workflow)]
    assert len(ids) == 1, ids
    return f"workflows/{ids[0]}"


def workflow_path(path: Path, name: str, *, ref: str = "vibegit/state", workflow: str = "") -> str:
    """``REF:workflows/<id>/NAME``, for git show."""
    return f"{ref}:{workflow_dir(path, ref=ref, workflow=workflow)}/{name}"


def commit_state(repo: Path, edit: dict[str, str | bytes | None], message: str = "hand edit") -> str:
    """A state commit made by hand on top of the tip (as a careless user, or a hostile
    pusher, might): ``edit`` maps paths of the state tree to new content, or None to remove."""
    env = dict(os.environ, GIT_INDEX_FILE=str(Path(git(repo, "rev-parse", "--absolute-git-dir")) / "hand-index"))
    subprocess.run(["git", "read-tree", "refs/heads/vibegit/state"], cwd=repo, env=env, check=True)
    for name, content in edit.items():
        if content is None:
            subprocess.run(["git", "rm", "-q", "-r", "--cached", name], cwd=repo, env=env, check=True)
            continue
        data = content.encode() if isinstance(content, str) else content
        blob = (
            subprocess.run(
                ["git", "hash-object", "-w", "--stdin"], cwd=repo, input=data, capture_output=True, check=True
            )
            .stdout.decode()
            .strip()
        )
        subprocess.run(
            ["git", "update-index", "--add", "--cacheinfo", f"100644,{blob},{name}"], cwd=repo, env=env, check=True
        )
    tree = subprocess.run(["git", "write-tree"], cwd=repo, env=env, check=True, capture_output=True, text=True)
    commit = git(repo, "commit-tree", tree.stdout.strip(), "-p", "refs/heads/vibegit/state", "-m", message)
    git(repo, "update-ref", "refs/heads/vibegit/state", commit)
    return commit


def state_ref(path: Path) -> str:
    return git(path, "rev-parse", "-q", "--verify", STATE_REF, check=False)


def drop_object(path: Path, oid: str) -> None:
    """Delete one object from the repository at ``path``, as a gc racing a
    snapshot would: its packs are unpacked into loose objects first (an
    event writes its objects as a pack)."""
    objects = path / ".git" / "objects"
    for pack in sorted((objects / "pack").glob("*.pack")):
        data = pack.read_bytes()
        for leftover in pack.parent.glob(pack.stem + ".*"):
            leftover.unlink()
        subprocess.run(["git", "unpack-objects", "-q"], cwd=path, input=data, check=True)
    loose = objects / oid[:2] / oid[2:]
    loose.chmod(0o644)
    loose.unlink()


def event_count(path: Path) -> int:
    return int(git(path, "rev-list", "--count", STATE_REF))


def events(path: Path) -> list[str]:
    """The event names of the state branch, newest first."""
    return git(path, "log", "--format=%(trailers:key=Vibegit-Event,valueonly)", STATE_REF).split()


def subjects(path: Path, fmt: str = "%s") -> list[str]:
    """One line per event of the state branch, newest first (none before the first)."""
    if not state_ref(path):
        return []
    return git(path, "log", f"--format={fmt}", STATE_REF).splitlines()


def user_view(path: Path) -> tuple[str, ...]:
    """What vibegit must never change: HEAD, the index file, status, file contents."""
    git_dir = Path(git(path, "rev-parse", "--absolute-git-dir"))
    index = git_dir / "index"
    index_hash = hashlib.sha256(index.read_bytes()).hexdigest() if index.exists() else "-"
    head = git(path, "rev-parse", "-q", "--verify", "HEAD", check=False)
    symbolic = git(path, "symbolic-ref", "-q", "HEAD", check=False)
    status = git(path, "--no-optional-locks", "status", "--porcelain", "-uall")
    files = []
    for top, dirs, names in os.walk(path):  # .git is never entered: a background repack changes it meanwhile
        dirs[:] = sorted(d for d in dirs if not (top == str(path) and d == ".git"))
        for name in sorted(names):
            f = Path(top) / name
            rel = f.relative_to(path).as_posix()
            if rel.startswith(MIRROR) or rel == ".git":
                continue
            if f.is_symlink():
                files.append(f"{rel}->{os.readlink(f)}")
            elif f.is_file():
                files.append(f"{rel}:{hashlib.sha256(f.read_bytes()).hexdigest()[:16]}")
    return (head, symbolic, index_hash, status, *sorted(files))


# -- across machines: a bare remote on disk, clones of it, each a "machine" named by VIBEGIT_HOST


def remote_with_laptop(tmp_path: Path) -> tuple[Path, Path]:
    """A bare remote and a first clone ("laptop") with one pushed commit on main."""
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    laptop = init_repo(tmp_path / "laptop")
    git(laptop, "remote", "add", "origin", str(remote))
    git(laptop, "push", "-q", "-u", "origin", "main")
    return remote, laptop


def clone(remote: Path, path: Path, *args: str) -> Path:
    git(path.parent, "clone", "-q", *args, str(remote), str(path))
    return path


MACHINE_FILE = "vibegit.machine"  # a clone's machine id, in its git common dir


def machine_id(path: Path) -> str:
    """The machine id of the clone at ``path`` ("" before vibegit made one)."""
    common = Path(git(path, "rev-parse", "--path-format=absolute", "--git-common-dir"))
    found = common / MACHINE_FILE
    return found.read_text().strip() if found.exists() else ""


@contextlib.contextmanager
def another_clone(path: Path) -> Iterator[None]:
    """While the block runs, the clone at ``path`` has another machine id: it
    is another holder, as a second clone of the same remote would be."""
    common = Path(git(path, "rev-parse", "--path-format=absolute", "--git-common-dir"))
    found = common / MACHINE_FILE
    saved = found.read_bytes() if found.exists() else None
    found.write_text(os.urandom(20).hex() + "\n")
    try:
        yield
    finally:
        if saved is None:
            found.unlink()
        else:
            found.write_bytes(saved)


class Machines:
    """Run vibegit in process as one machine or another."""

    def __init__(self, vg: VG, monkeypatch: pytest.MonkeyPatch) -> None:
        self.vg = vg
        self.monkeypatch = monkeypatch

    def __call__(self, host: str, where: Path, *args: str, input: str = "") -> Result:
        self.monkeypatch.setenv("VIBEGIT_HOST", host)
        return self.vg(*args, cwd=where, input=input)

    def ok(self, host: str, where: Path, *args: str) -> Result:
        result = self(host, where, *args)
        assert result.code == 0, (host, args, result.out, result.err)
        return result


# -- the hook managers people use, the real ones -------------------------------------------

TOOLS_DIR = Path(__file__).resolve().parent.parent / ".test-tools"  # cached between runs, ignored by git
NPM_TOOLS = ("lefthook@2", "husky@9")
UNREACHABLE = ("ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "ECONNREFUSED", "ECONNRESET", "network")


def npm_tools(where: Path = TOOLS_DIR, packages: tuple[str, ...] = NPM_TOOLS) -> Path:
    """The bin directory of lefthook and husky (or ``packages`` in their own
    directory ``where``), installed from the npm registry into a cache once
    (a file lock keeps parallel workers from racing). Skips the test only
    when npm or its registry cannot be reached, and never in CI (CI=true),
    where that is a failure."""
    from filelock import FileLock

    bin_dir = where / "node_modules" / ".bin"
    names = [p.rsplit("@", 1)[0] for p in packages]
    where.mkdir(parents=True, exist_ok=True)
    with FileLock(str(where / ".lock")):
        if not all((bin_dir / name).exists() for name in names):
            why = ""
            if not shutil_which("npm"):
                why = "npm is not installed"
            else:
                (where / "package.json").write_text('{"name": "vibegit-test-tools", "private": true}\n')
                proc = subprocess.run(
                    ["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", *packages],
                    cwd=where,
                    capture_output=True,
                    text=True,
                    # The machine's own npm settings (its user's home), a cache of ours.
                    env={
                        **os.environ,
                        "HOME": pwd.getpwuid(os.getuid()).pw_dir,
                        "npm_config_cache": str(TOOLS_DIR / ".npm"),
                    },
                )
                if proc.returncode:
                    if not any(word in proc.stderr for word in UNREACHABLE):
                        raise AssertionError(f"npm install {' '.join(packages)} failed: {proc.stderr[-2000:]}")
                    why = f"the npm registry is unreachable: {proc.stderr.strip().splitlines()[-1:]}"
            if why:
                if os.environ.get("CI"):
                    raise AssertionError(f"CI needs the real hook managers, but {why}")
                pytest.skip(why)
    return bin_dir


def husky8() -> Path:
    """husky 8 (5 to 8 work alike: core.hooksPath is the tracked .husky), in a directory of its own."""
    return npm_tools(TOOLS_DIR / "husky8", ("husky@8",))


def shutil_which(name: str) -> str | None:
    import shutil

    return shutil.which(name)


def fsck(repo: Path, *options: str) -> str:
    """``git fsck`` once vibegit's background packing (a ``git repack`` started
    every 16 events) has ended in ``repo``: a fsck meanwhile sees packs come
    and go ("index not opened"), as it would beside git's own auto gc."""
    wait_for_repack(repo)
    return git(repo, "fsck", "--no-progress", *options)
