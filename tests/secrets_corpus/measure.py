"""The corpus through the real pipeline: recall and false positives of the
secret scan, and its time per MiB of changed content. Used by
tests/test_secrets_corpus.py (which asserts the targets) and by the
benchmark row (benchmarks/secrets.py, which prints them).

1. Every corpus file (true and false) as uncommitted work in a repository,
   ``vibegit checkpoint``, then the scan a push would run: each true file must
   be refused on its line, the false ones not.
2. The same files committed and pushed, one unrelated edit, two moves,
   checkpoint, scan: nothing may be flagged (what the remote has is never
   new); and before that push, with the commit only here, every true file is
   refused (a commit never pushed is new to the remote, whatever the
   snapshot's base).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from tests.secrets_corpus.generate import false_files, write_true
from vibegit.core.settings import settings
from vibegit.infra import git, secretscan


class Report(NamedTuple):
    true_total: int
    missed: list[str]  # true files not refused on their line
    false_total: int
    false_flagged: list[str]  # "file:line kind" in the non-secret corpus
    committed_flagged: list[str]  # anything flagged once the corpus is committed, pushed and unchanged
    unpushed_missed: list[str]  # true files not refused while the commit holding them is not pushed
    mib: float  # changed content scanned in step 1
    seconds: float  # the best scan time of step 1
    read_seconds: float  # the best time to read the same blobs (git cat-file), for scale


def _run(cwd: Path, env: dict[str, str] | None, *args: str) -> None:
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(f"{' '.join(args)} failed ({proc.returncode}): {proc.stderr[-800:]}")


def _scan(repo_dir: Path) -> tuple[list[secretscan.Finding], Callable[[], object]]:
    repo = git.find_repo(repo_dir)
    conf = settings(git.read_config(repo))

    def once() -> list[secretscan.Finding]:
        return secretscan.scan(repo, conf, allowed=frozenset())

    return once(), once


def _repo(path: Path, env: dict[str, str] | None) -> Path:
    """A repository with the corpus in its working tree (and one commit without it)."""
    path.mkdir(parents=True)
    _run(path, env, "git", "init", "-q", "-b", "main")
    (path / "README.md").write_text("# corpus\n")
    _run(path, env, "git", "add", "-A")
    _run(path, env, "git", "commit", "-q", "-m", "initial")
    write_true(path / "true")
    (path / "false").mkdir()
    for f in false_files():
        shutil.copyfile(f, path / "false" / f.name)
    return path


def run(work: Path, env: dict[str, str] | None = None, runs: int = 3) -> Report:
    """Measure in ``work`` (an empty directory); ``env`` for the git and vibegit processes."""
    vibegit = (sys.executable, "-m", "vibegit")
    # 1. The corpus as uncommitted work.
    repo = _repo(work / "uncommitted", env)
    expected = write_true(work / "expected")
    _run(repo, env, *vibegit, "start", "corpus", "--goal", "measure the secret scan")
    _run(repo, env, *vibegit, "checkpoint")
    findings, again = _scan(repo)
    by_file: dict[str, set[int]] = {}
    for f in findings:
        by_file.setdefault(f.entry or f.path, set()).add(f.line)  # a name's finding: line 0 of its path
    missed = [e.name for e in expected if not by_file.get(f"true/{e.name}", set()) & set(e.lines)]
    false_flagged = [f"{f.path}:{f.line} {f.kind}" for f in findings if f.path.startswith("false/")]
    paths = [p.relative_to(repo).as_posix() for d in ("true", "false") for p in sorted((repo / d).iterdir())]
    changed = sum((repo / p).stat().st_size for p in paths)
    seconds = min(_timed(again) for _ in range(runs))
    snap = f"{git.resolve(git.find_repo(repo), 'refs/heads/vibegit/state')}:snapshot/"
    read_seconds = min(_timed(lambda: _read(repo, env, [snap + p for p in paths])) for _ in range(runs))

    # 2. The same content committed by the user, then a workflow with an unrelated edit; pushed, then not.
    repo = _repo(work / "committed", env)
    _run(work, env, "git", "init", "-q", "--bare", "-b", "main", str(work / "remote.git"))
    _run(repo, env, "git", "remote", "add", "origin", str(work / "remote.git"))
    _run(repo, env, "git", "push", "-q", "-u", "origin", "main")
    _run(repo, env, "git", "add", "-A")
    _run(repo, env, "git", "commit", "-q", "-m", "the corpus, committed")
    _run(repo, env, *vibegit, "start", "corpus", "--goal", "measure the secret scan")
    (repo / "README.md").write_text("# corpus\n\nan unrelated edit\n")
    (repo / "true" / "moved").mkdir()
    moved = ("id_rsa.pem", "aws_dotenv.env")  # moved, content unchanged
    for name in moved:
        (repo / "true" / name).rename(repo / "true" / "moved" / name)
    _run(repo, env, *vibegit, "checkpoint")
    unpushed = {f.entry or f.path for f in _scan(repo)[0]}
    unpushed_missed = [
        e.name for e in expected if f"true/{'moved/' if e.name in moved else ''}{e.name}" not in unpushed
    ]
    _run(repo, env, "git", "push", "-q", "origin", "main")
    committed = [f"{f.path}:{f.line} {f.kind}" for f in _scan(repo)[0]]
    return Report(
        len(expected),
        missed,
        len(false_files()),
        false_flagged,
        committed,
        unpushed_missed,
        changed / 2**20,
        seconds,
        read_seconds,
    )


def _timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _read(repo: Path, env: dict[str, str] | None, blobs: list[str]) -> None:
    subprocess.run(
        ["git", "cat-file", "--batch"], cwd=repo, env=env, input="\n".join(blobs).encode() + b"\n", capture_output=True
    )
