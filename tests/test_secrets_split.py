"""A big secret scan splits its rule work with a second process
(infra/scansplit.py): the findings are the single-process scan's, hit for
hit, in the same order, on the same lines; a worker that dies or answers
garbage fails the scan in one line (nothing taken as clean); Ctrl-C ends both
processes and leaves none behind."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import Machines, git, remote_with_laptop
from tests.secrets_corpus.generate import rsa_pem
from vibegit import app
from vibegit.core import credentials
from vibegit.infra import git as vgit
from vibegit.infra import scansplit, secretscan

GHP = "ghp_" + "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4"
AWS = "AKIA" + "Z7Q2M4X8R6T1W3YP"
NETRC = "machine api.example.com\n  login deploy\n  password Hx9sK2mQ4pLw\n"
SECRETS = (f"token = '{GHP}'\n", f"aws_access_key_id = {AWS}\n", NETRC, f"GITHUB_TOKEN={GHP[:-2]}Zq\n")
WORDS = ("alpha", "beta", "parser", "cache", "index", "tree", "blob", "commit", "scan", "rule", "push", "fetch")
NEVER = 1 << 60  # a threshold no scan reaches: the single-process scan


def code(rnd: random.Random, size: int) -> str:
    """About ``size`` characters of code-like lines, no credential in them."""
    lines, n = [], 0
    while n < size:
        name = "_".join(rnd.choices(WORDS, k=2))
        line = rnd.choice(
            (
                f"def {name}(value, key=None):\n",
                f"    {name} = compute({rnd.getrandbits(32)}, '{rnd.choice(WORDS)}')\n",
                f"# see https://example.org/{name} for the rules\n",
            )
        )
        lines.append(line)
        n += len(line)
    return "".join(lines)


def with_secrets(rnd: random.Random, size: int, count: int) -> str:
    parts = [code(rnd, size // (count + 1)) for _ in range(count + 1)]
    return "".join(p + (SECRETS[i % len(SECRETS)] if i < count else "") for i, p in enumerate(parts))


def big_change(root: Path) -> None:
    """About 6 MiB of new work: small files (a secret in every other one),
    streamed ones (UTF-8 with CJK text, UTF-16, Latin-1) with secrets on
    both sides of a window's cut and in the overlap, binary, CJK."""
    rnd = random.Random(11)
    src = root / "src" / "gen"
    src.mkdir(parents=True)
    for i in range(60):
        (src / f"m{i:02d}.py").write_text(with_secrets(rnd, 40_000 + rnd.randrange(40_000), i % 2 * (1 + i % 3)))
    cut = credentials.CHUNK  # a window ends at the last newline before CHUNK + OVERLAP - OVERLAP
    head = code(rnd, cut - 3000)
    big = head + rsa_pem() + code(rnd, 5000) + f"x = '{GHP}'\n" + with_secrets(rnd, 2 * cut, 7)
    (root / "big.txt").write_text(big)
    cjk = "".join(f"# 第{i}行：解析器与缓存\n{code(rnd, 60)}" for i in range(12_000))
    (root / "cjk.py").write_text(cjk[: cut // 2] + f"key = '{GHP}'\n" + cjk + NETRC + cjk[:5000])
    (root / "wide.txt").write_bytes(("\ufeff" + with_secrets(rnd, 400_000, 3)).encode("utf-16-le"))
    (root / "latin.txt").write_bytes(("café = 'crème'\n" + with_secrets(rnd, 300_000, 2)).encode("latin-1"))
    (root / "small-latin.txt").write_bytes(f"na\xefve = 1\ntoken = '{GHP}'\n".encode("latin-1"))
    (root / "blob.bin").write_bytes(b"\x89PNG\0\0\x01" * 2000 + f"\0token={GHP}\0".encode() + b"\xff\0" * 3000)


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids of the workers forked while the test runs."""
    started: list[int] = []
    real = os.fork

    def fork() -> int:
        pid = real()
        if pid:
            started.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", fork)
    return started


def scan(laptop: Path, parallel: int) -> list[secretscan.Finding]:
    (Path(git(laptop, "rev-parse", "--git-common-dir")).resolve() / "vibegit.scanned").unlink(missing_ok=True)
    scansplit.PARALLEL = parallel
    try:
        ctx = app.open_repo(laptop)
        return secretscan.scan(ctx.repo, ctx.settings)
    finally:
        vgit.close_readers()


def gone(pid: int) -> bool:
    """Reaped: no process, not even a zombie, has this pid."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.fixture
def checkpointed(tmp_path: Path, m: Machines) -> Path:
    _, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    big_change(laptop)
    m.ok("laptop", laptop, "checkpoint")
    return laptop


@pytest.mark.parametrize("queue", [scansplit.QUEUE, 1, NEVER])
def test_the_split_scan_finds_what_the_single_scan_finds(
    checkpointed: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int], m: Machines, queue: int
) -> None:
    monkeypatch.setattr(scansplit, "PARALLEL", scansplit.PARALLEL)
    monkeypatch.setattr(scansplit, "QUEUE", queue)  # as it comes; one piece at a time; the worker takes all
    alone = scan(checkpointed, NEVER)
    assert not forks
    split = scan(checkpointed, 0)
    assert len(forks) == 1 and gone(forks[0])
    assert split == alone
    places = {(f.path, f.line) for f in alone}
    assert {p for p in places if p[0].startswith("src/gen/")} and ("small-latin.txt", 2) in places
    for name in ("big.txt", "cjk.py", "wide.txt", "latin.txt", "blob.bin"):
        assert any(f.path == name for f in alone), name
    assert sum(f.path == "big.txt" for f in alone) >= 9  # the key across the cut, the token in the overlap, 7 more

    scansplit.PARALLEL = 0  # the command says the same, line for line
    split_out = m("laptop", checkpointed, "secrets", "check")
    scansplit.PARALLEL = NEVER
    alone_out = m("laptop", checkpointed, "secrets", "check")
    assert split_out.code == alone_out.code == 1 and split_out.err == alone_out.err


def test_only_a_big_scan_starts_a_worker(tmp_path: Path, forks: list[int], m: Machines) -> None:
    _, laptop = remote_with_laptop(tmp_path)
    m.ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
    rnd = random.Random(3)
    (laptop / "src" / "app.py").write_text(f"TOKEN = '{GHP}'\n" + code(rnd, 300_000))
    m.ok("laptop", laptop, "checkpoint")
    check = m("laptop", laptop, "secrets", "check")
    assert check.code == 1 and "src/app.py:1" in check.err
    assert not forks  # a push's or a hook's scan: one process
    (laptop / "data.txt").write_text(code(rnd, scansplit.PARALLEL + (1 << 20)))
    m.ok("laptop", laptop, "checkpoint")
    check = m("laptop", laptop, "secrets", "check")
    assert check.code == 1 and "src/app.py:1" in check.err
    assert len(forks) == 1 and gone(forks[0])


def test_no_process_to_be_had_means_a_scan_in_one(checkpointed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scansplit, "PARALLEL", NEVER)
    alone = scan(checkpointed, NEVER)

    def refused() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refused)
    assert scan(checkpointed, 0) == alone


def in_worker(monkeypatch: pytest.MonkeyPatch, name: str, replacement: Callable[..., object]) -> None:
    """``scansplit.<name>`` replaced in the worker only (it is forked with this module as it is)."""
    parent = os.getpid()
    real = getattr(scansplit, name)

    def either(*args: object) -> object:
        return replacement(real, *args) if os.getpid() != parent else real(*args)

    monkeypatch.setattr(scansplit, name, either)


def dies_on_its_second_piece(real: Callable[..., object], *args: object) -> object:
    answered = getattr(dies_on_its_second_piece, "answered", 0)
    dies_on_its_second_piece.answered = answered + 1  # type: ignore[attr-defined]
    if answered:
        os.kill(os.getpid(), signal.SIGKILL)
    return real(*args)


def error_of_two_lines(real: Callable[..., object], *args: object) -> object:
    raise ValueError("two\nlines")


UNREAD = "sent an answer that could not be read"
GARBAGE: list[tuple[str, Callable[..., bytes], str]] = [
    ("not a frame", lambda real, found: b"R\x03\x00\x00\x00abc", UNREAD),
    ("a tag nobody sends", lambda real, found: b"X" + real(found)[1:], "answered what was not asked"),
    ("fewer lists than pieces", lambda real, found: b"R\x00\x00\x00\x00", UNREAD),
    ("a kind no rule has", lambda real, found: real([[credentials.Hit(1, "kind?", 0, 3, "abc")]] * len(found)), UNREAD),
    ("a span not its value", lambda real, found: real([[credentials.Hit(1, "GitHub token", 0, 9, "a")]]), UNREAD),
    ("a frame cut short, then a clean exit", lambda real, found: real(found)[:-1], ""),
]


@pytest.mark.parametrize(
    ("name", "replacement", "why"),
    [
        ("run_group", dies_on_its_second_piece, "was killed by signal 9"),
        ("run_window", lambda real, *args: 1 / 0, "failed: ZeroDivisionError"),
        ("run_window", error_of_two_lines, "failed: ValueError: two lines"),
        *[("_encode_hits", bad, why) for _, bad, why in GARBAGE],
    ],
    ids=["killed mid-scan", "an error of its own", "an error of two lines", *[what for what, _, _ in GARBAGE]],
)
def test_a_worker_that_fails_fails_the_scan_in_one_line(
    checkpointed: Path,
    monkeypatch: pytest.MonkeyPatch,
    forks: list[int],
    m: Machines,
    name: str,
    replacement: Callable[..., object],
    why: str,
) -> None:
    monkeypatch.setattr(scansplit, "PARALLEL", 0)
    monkeypatch.setattr(scansplit, "QUEUE", NEVER)  # every piece goes to the worker
    in_worker(monkeypatch, name, replacement)
    record = Path(git(checkpointed, "rev-parse", "--git-common-dir")).resolve() / "vibegit.scanned"
    record.unlink(missing_ok=True)
    check = m("laptop", checkpointed, "secrets", "check")
    assert check.code == 1, check
    assert "could not finish: its second process" in check.err and why in check.err, check.err
    assert len(check.err.strip().splitlines()) == 1 and "Traceback" not in check.err
    assert "Nothing in what" not in check.out  # never "clean"
    assert not record.exists()  # nothing recorded as scanned
    assert len(forks) == 1 and gone(forks[0])


def test_a_push_of_the_state_branch_is_refused_when_the_worker_fails(
    checkpointed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int], m: Machines
) -> None:
    monkeypatch.setattr(scansplit, "PARALLEL", 0)
    in_worker(monkeypatch, "run_group", dies_on_its_second_piece)
    tip = git(checkpointed, "rev-parse", "vibegit/state")
    pushed = f"refs/heads/vibegit/state {tip} refs/heads/vibegit/state {'0' * len(tip)}\n"
    hook = m("laptop", checkpointed, "hook", "pre-push", "origin", str(tmp_path / "remote.git"), input=pushed)
    assert hook.code == 1 and "could not finish" in hook.err and "not pushing vibegit/state" in hook.err
    assert len(hook.err.strip().splitlines()) == 1
    assert len(forks) == 1 and gone(forks[0])


_INTERRUPTED = """\
import os, sys, time
from vibegit.infra import scansplit
from vibegit.main import main
scansplit.PARALLEL = 0
parent = os.getpid()
def stuck(real):
    def run(*piece):
        if os.getpid() != parent:  # the worker, holding its first piece until Ctrl-C ends the scan
            with open(sys.argv[1] + ".tmp", "w") as f:
                f.write(str(os.getpid()))
            os.rename(sys.argv[1] + ".tmp", sys.argv[1])
            time.sleep(600)
        return real(*piece)
    return run
scansplit.run_group, scansplit.run_window = stuck(scansplit.run_group), stuck(scansplit.run_window)
sys.exit(main(["secrets", "check"]))
"""


_BROKEN = """\
import os, sys
from vibegit.infra import scansplit
from vibegit.main import main
scansplit.PARALLEL, scansplit.QUEUE = 0, 1 << 60
real_fork, real_group, calls = os.fork, scansplit.Split.group, []
def fork():
    pid = real_fork()
    if pid:
        open(sys.argv[1], "w").write(str(pid))
    return pid
def group(self, blobs):
    calls.append(1)
    if len(calls) == 5:
        raise RuntimeError("a bug of ours")
    return real_group(self, blobs)
os.fork, scansplit.Split.group = fork, group
sys.exit(main(["secrets", "check"]))
"""


def test_an_error_of_this_process_mid_scan_ends_it_and_its_worker(checkpointed: Path, tmp_path: Path) -> None:
    """The worker holds nothing of git's: the reader's end waits for no one but this process."""
    marker = tmp_path / "worker.pid"
    proc = subprocess.run(
        [sys.executable, "-c", _BROKEN, str(marker)], cwd=checkpointed, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 3 and "unexpected error: RuntimeError: a bug of ours" in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert gone(int(marker.read_text()))


@pytest.mark.skipif(not hasattr(os, "fork") or not hasattr(os, "killpg"), reason="POSIX: fork, process groups")
def test_ctrl_c_ends_the_scan_and_its_worker(checkpointed: Path, tmp_path: Path) -> None:
    marker = tmp_path / "worker.pid"
    proc = subprocess.Popen(
        [sys.executable, "-c", _INTERRUPTED, str(marker)],
        cwd=checkpointed,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own group, as a terminal's foreground job
    )
    deadline = time.monotonic() + 300  # a loaded machine is slow; the scan cannot end without the worker
    while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marker.exists(), proc.communicate(timeout=60) if proc.poll() is not None else "no worker after 300 s"
    worker = int(marker.read_text())  # written by the worker itself, once it had a piece (it never answers it)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does: the whole group
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "Traceback" not in err, (out, err)  # as any command interrupted
    assert gone(worker)


HEADS = {"utf-8": "# 解析器与缓存\n", "utf-16": "# 解析器 café\n", "latin-1": "# café crème\n"}


def blob(repo: Path, data: bytes) -> str:
    proc = subprocess.run(
        ["git", "hash-object", "-w", "--stdin"], cwd=repo, input=data, capture_output=True, check=True
    )
    return proc.stdout.decode().strip()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(
            st.integers(0, 300_000),  # size
            st.lists(st.integers(0, len(SECRETS) - 1), max_size=4),  # secrets in it
            st.sampled_from(["utf-8", "utf-16", "latin-1"]),
        ),
        min_size=1,
        max_size=12,
    ),
    st.sampled_from([1, 1 << 16, scansplit.QUEUE, NEVER]),
    st.sampled_from([1, 1 << 12, secretscan.GROUP]),  # many groups, each settled when its answer is in
)
def test_any_blobs_split_any_way_give_the_same_hits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, blobs: list[tuple[int, list[int], str]], queue: int, group: int
) -> None:
    repo = tmp_path / "blobs"
    if not repo.exists():
        git(tmp_path, "init", "-q", str(repo))
    rnd = random.Random(len(blobs))
    oids = []
    for size, secrets, codec in blobs:
        parts = [code(rnd, size // (len(secrets) + 1)) for _ in range(len(secrets) + 1)]
        text = HEADS[codec] + "".join(p + SECRETS[s] for p, s in zip(parts, secrets, strict=False)) + parts[-1]
        oids.append(blob(repo, text.encode(codec)))
    monkeypatch.setattr(scansplit, "QUEUE", queue)
    monkeypatch.setattr(secretscan, "GROUP", group)
    found = {}
    for parallel in (NEVER, 0):
        with vgit.CatFile(vgit.find_repo(repo), pipe=secretscan.PIPE) as cat, monkeypatch.context() as mp:
            mp.setattr(scansplit, "PARALLEL", parallel)
            wanted = list(dict.fromkeys(oids))
            found[parallel] = secretscan._scan_blobs(zip(wanted, cat.each(wanted), strict=True))
    assert found[0] == found[NEVER]
    assert all(hits != [] for hits in found[0].values())  # a clean blob is not kept
