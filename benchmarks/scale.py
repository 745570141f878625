"""Budgets of issue 16 for what grows with the history: the first ``sync``
of a long state branch, a ``sync`` of two sides that diverged, the secret
scan of a big change, memory at 10,000 events, and the objects an event
leaves before a gc.

- first ``vibegit sync`` of 10,000 events (nothing pushed or scanned yet),
  against a plain ``git push --no-verify`` of the same ref: at most 2 ×;
- ``vibegit sync`` of 1,000 events on each side of a divergence (fetch,
  merge, scan, push), against a plain ``git fetch`` + ``git push`` of the
  same commits: at most 2 ×;
- ``vibegit secrets check`` of a checkpoint holding a 50 MB change (nothing
  scanned yet), against the ``git diff`` that prints that change: at most 1 ×;
- max RSS of vibegit's own process in ``vibegit status`` and in that first
  ``sync`` at 10,000 events, against the same at about 10 events: at most 1.5 ×;
- bytes the object store grows by per event before any gc (loose objects and
  the packs vibegit makes): at most 4 KiB.

Every history has distinct content in every event (the notes and the board
change each time, as an agent's do). Each run of either side starts from the
same fresh state (new remotes, copies of the clone, no scan record); the two
sides alternate. Rows print min / median / max and the load average.

    python benchmarks/scale.py [--quick] [--python PATH]
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import Row, hermetic_env, hooks_installed, run_alone, sh
from benchmarks.events import base_repo, started

VIBEGIT = ["vibegit"]
STATE = "refs/heads/vibegit/state"
SYNC_RATIO = 2.0
SCAN_RATIO = 1.0
RSS_RATIO = 1.5
BYTES_PER_EVENT = 4096
WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "parser",
    "cache",
    "index",
    "tree",
    "blob",
    "commit",
    "scan",
    "rule",
    "push",
    "fetch",
    "merge",
    "test",
]


def add_events(repo: Path, env: dict[str, str], events: int, seed: int) -> None:
    """``events`` state commits on the tip, each with its own notes and board
    (about 3 KB of new text an event), written by ``git fast-import``."""
    tip = sh(repo, "git", "rev-parse", STATE, env=env).strip()
    flow = sh(repo, "git", "ls-tree", "--name-only", f"{STATE}:workflows/", env=env).split()[0]
    rnd = random.Random(seed)
    out = []
    for i in range(events):
        notes = "# Active context\n\n## Goal\nmeasure\n\n## Notes\n" + "".join(
            f"- step {seed}-{i}-{j}: {' '.join(rnd.choices(WORDS, k=8))} {rnd.getrandbits(48):x}\n" for j in range(30)
        )
        board = "# Kanban\n\n## Doing\n" + "".join(
            f"- [ ] T-{seed}-{i}-{j}: {' '.join(rnd.choices(WORDS, k=6))}\n" for j in range(12)
        )
        msg = f"vibegit: context step {seed}-{i}\n\nVibegit-Event: context\nVibegit-Workflow-Id: {flow}\n".encode()
        out.append(b"commit %s\ncommitter bench <bench@example.com> %d +0000\n" % (STATE.encode(), 1736676000 + i))
        out.append(b"data %d\n%s\n" % (len(msg), msg))
        if i == 0:
            out.append(f"from {tip}\n".encode())
        for name, text in (("active_context.md", notes), ("kanban.md", board)):
            data = text.encode()
            out.append(f"M 100644 inline workflows/{flow}/{name}\n".encode() + b"data %d\n%s\n" % (len(data), data))
    sh(repo, "git", "fast-import", "--quiet", env=env, input=b"".join(out))


def wall(cwd: Path, env: dict[str, str], *args: str, ok: tuple[int, ...] = (0,)) -> float:
    """Wall time (ms) of one command."""
    start = time.perf_counter()
    proc = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = (time.perf_counter() - start) * 1000
    if proc.returncode not in ok:
        raise SystemExit(f"benchmark step failed ({proc.returncode}): {' '.join(args)}: {proc.stderr.decode()[-400:]}")
    return elapsed


# The peak of vibegit's own process, read where it ends: the kernel carries a
# process's max RSS over from its parent (this benchmark holds big histories).
_OWN = (
    "import sys\nfrom vibegit.main import main\n"
    "code = main(sys.argv[1:])\n"
    "peak = [line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM:')]\n"
    "print(code, peak[0], file=sys.stderr)\n"
)


def own_rss(cwd: Path, env: dict[str, str], *args: str) -> int:
    """Peak RSS (KiB) of vibegit's own process running ``vibegit ARGS`` (not the git processes it starts; Linux)."""
    proc = subprocess.run(["python", "-c", _OWN, *args], cwd=cwd, env=env, capture_output=True)
    code, rss = proc.stderr.decode().split()[-2:]
    if code != "0":
        raise SystemExit(f"benchmark step failed ({code}): vibegit {' '.join(args)}: {proc.stderr.decode()[-400:]}")
    return int(rss)


Step = tuple[Callable[[], None], Callable[[], float]]  # untimed set-up, timed run


def alternate(a: Step, b: Step, runs: int) -> tuple[list[float], list[float]]:
    """Each side ``runs`` times, alternately, each run after its own set-up (one warm-up each first)."""
    out: tuple[list[float], list[float]] = ([], [])
    for i in range(runs + 1):
        for side, (setup, run) in enumerate((a, b)):
            setup()
            result = run()
            if i:
                out[side].append(result)
    return out


def spread(values: list[float], unit: str = "ms") -> str:
    scale, fmt = (1000.0, "{:.2f} s") if unit == "ms" else (1024.0, "{:.0f} MiB")
    lo, mid, hi = (fmt.format(v / scale) for v in (min(values), statistics.median(values), max(values)))
    return f"{lo} / {mid} / {hi}"


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def timed_row(path: str, a: list[float], base: str, b: list[float], limit: float, before: str) -> Row:
    """A ratio row of the medians of two sides' runs, their spread and the load before and after."""
    ma, mb = statistics.median(a), statistics.median(b)
    label = f"{path} [min/median/max {spread(a)} vs {spread(b)}; {before}, after {load()}]"
    return Row(label, ma, base, mb, f"≤ {limit:g}×", ma <= limit * mb)


def reset_clone(repo: Path, env: dict[str, str], url: Path, tip: str) -> None:
    """The state as before any sync: ``tip``, no fetched copy, no scan record, remote ``url`` empty."""
    shutil.rmtree(url, ignore_errors=True)
    sh(url.parent, "git", "init", "-q", "--bare", str(url), env=env)
    sh(repo, "git", "update-ref", STATE, tip, env=env)
    for ref in ("refs/vibegit/remote/origin", "refs/remotes/origin/vibegit/state"):
        sh(repo, "git", "update-ref", "-d", ref, env=env)
    (repo / ".git" / "vibegit.scanned").unlink(missing_ok=True)


def first_sync(root: Path, env: dict[str, str], events: int, runs: int) -> tuple[Row, list[int]]:
    """The first sync of ``events`` events against a plain push; also its max RSS (KiB)."""
    repo = base_repo(root / "long", env)
    started(repo, env, 3)
    add_events(repo, env, events, 1)
    hooks_installed(repo, env)  # hooks as a user has them (vibegit's own stays quiet in a sync)
    tip = sh(repo, "git", "rev-parse", STATE, env=env).strip()
    ours, plain = root / "ours.git", root / "plain.git"
    sh(repo, "git", "remote", "add", "origin", str(ours), env=env)
    before = load()
    a, b = alternate(
        (lambda: reset_clone(repo, env, ours, tip), lambda: wall(repo, env, *VIBEGIT, "sync")),
        (
            lambda: reset_clone(repo, env, plain, tip),
            lambda: wall(repo, env, "git", "push", "-q", "--no-verify", str(plain), STATE),
        ),
        runs,
    )
    row = timed_row(f"first sync of {events:,} events", a, "git push of the same ref", b, SYNC_RATIO, before)
    rss = []
    for _ in range(runs):
        reset_clone(repo, env, ours, tip)
        rss.append(own_rss(repo, env, "sync"))
    return row, rss


def divergent_sync(root: Path, env: dict[str, str], events: int, runs: int) -> Row:
    """Two clones ``events`` events apart each way: B's sync against B's plain fetch + push."""
    a = base_repo(root / "a", env)
    started(a, env, 3)
    origin = root / "origin.git"
    sh(root, "git", "init", "-q", "--bare", str(origin), env=env)
    sh(a, "git", "remote", "add", "origin", str(origin), env=env)
    sh(a, "git", "push", "-q", "origin", "HEAD", env=env)
    sh(a, *VIBEGIT, "sync", env=env)
    b = root / "b"
    sh(root, "git", "clone", "-q", str(origin), str(b), env=env)
    hooks_installed(b, env)
    sh(b, *VIBEGIT, "sync", env=env)  # B has the state and scanned it
    add_events(a, env, events, 2)
    sh(a, *VIBEGIT, "sync", env=env)
    add_events(b, env, events, 3)
    work, remote = root / "b-run", root / "origin-run.git"

    def fresh() -> None:
        for path, source in ((work, b), (remote, origin)):
            shutil.rmtree(path, ignore_errors=True)
            shutil.copytree(source, path, symlinks=True)
        sh(work, "git", "remote", "set-url", "origin", str(remote), env=env)

    def plain() -> float:
        fetched = wall(work, env, "git", "fetch", "-q", "origin", f"+{STATE}:refs/remotes/origin/state")
        return fetched + wall(work, env, "git", "push", "-q", "--no-verify", "origin", f"{STATE}:refs/heads/b-state")

    before = load()
    ours, theirs = alternate((fresh, lambda: wall(work, env, *VIBEGIT, "sync")), (fresh, plain), runs)
    shutil.rmtree(work, ignore_errors=True)
    return timed_row(
        f"sync of {events:,} divergent events per side", ours, "git fetch + git push", theirs, SYNC_RATIO, before
    )


def big_change(root: Path, env: dict[str, str], mib: int, runs: int) -> Row:
    """A checkpoint whose snapshot changes ``mib`` MiB of code-like text
    (every file rewritten with new lines), scanned cold, against ``git diff``."""
    repo = base_repo(root / "big", env)
    rnd = random.Random(7)
    files = mib * 8  # 128 KiB a file

    def text(salt: int, i: int) -> str:
        lines = []
        while sum(map(len, lines)) < 128 * 1024:
            name = "_".join(rnd.choices(WORDS, k=2))
            lines.append(
                rnd.choice(
                    (
                        f"def {name}_{salt}(value, key=None):\n",
                        f"    {name} = compute({rnd.getrandbits(32)}, '{rnd.choice(WORDS)}')  # {salt}\n",
                        f"    if token_{name} is None: return {rnd.random():.6f}\n",
                        f"# see https://example.org/{name}/{i} for the {rnd.choice(WORDS)} rules\n",
                        f"    self.{name}[{i}] = url_for('{name}', page={rnd.randrange(99)})\n",
                    )
                )
            )
        return "".join(lines)

    for i in range(files):
        path = repo / "src" / f"m{i // 100:02d}" / f"f{i:04d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text(0, i))
    sh(repo, "git", "add", "-A", env=env)
    sh(repo, "git", "commit", "-q", "-m", "code", env=env)
    started(repo, env, 3)
    for i in range(files):
        (repo / "src" / f"m{i // 100:02d}" / f"f{i:04d}.py").write_text(text(1, i))
    sh(repo, *VIBEGIT, "checkpoint", env=env)
    snap = sh(repo, "git", "rev-parse", f"{STATE}:workflows/", env=env).strip()
    flow = sh(repo, "git", "ls-tree", "--name-only", snap, env=env).split()[0]
    snapshot = sh(repo, "git", "rev-parse", f"{STATE}:workflows/{flow}/snapshot", env=env).strip()
    record = repo / ".git" / "vibegit.scanned"
    before = load()
    ours, theirs = alternate(
        (lambda: record.unlink(missing_ok=True), lambda: wall(repo, env, *VIBEGIT, "secrets", "check")),
        (lambda: None, lambda: wall(repo, env, "git", "diff", "--no-ext-diff", "HEAD", snapshot)),
        runs,
    )
    name = f"secret scan of a {mib} MB change ({files:,} files)"
    return timed_row(name, ours, "git diff printing it", theirs, SCAN_RATIO, before)


def status_rss(root: Path, env: dict[str, str], events: int, runs: int) -> tuple[list[int], list[int]]:
    """Max RSS (KiB) of ``vibegit status`` after ``events`` events and after about 10."""
    long, short = base_repo(root / "rss-long", env), base_repo(root / "rss-short", env)
    for repo in (long, short):
        started(repo, env, 3)
    add_events(long, env, events, 4)
    add_events(short, env, 10, 5)
    return [own_rss(long, env, "status") for _ in range(runs)], [own_rss(short, env, "status") for _ in range(runs)]


def rss_row(path: str, long: list[int], short: list[int]) -> Row:
    ml, ms = statistics.median(long), statistics.median(short)
    label = f"{path} [min/median/max {spread(long, 'KiB')} vs {spread(short, 'KiB')}]"
    return Row(label, ml * 1024, "after ~10 events", ms * 1024, f"≤ {RSS_RATIO:g}×", ml <= RSS_RATIO * ms, "B")


def bytes_per_event(root: Path, env: dict[str, str], events: int) -> float:
    """What the object store grows by per event of a realistic mix, before any gc."""
    repo = base_repo(root / "growth", env)

    def size() -> int:
        time.sleep(1)  # a packing started in the background by the last event ends
        return sum(f.stat().st_blocks * 512 for f in (repo / ".git" / "objects").rglob("*") if f.is_file())

    started(repo, env, 0)
    before = size()
    made = int(sh(repo, "git", "rev-list", "--count", STATE, env=env))
    code = (
        "from vibegit.main import main\nimport io, contextlib\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"  for i in range({events // 4}):\n"
        "    t = f'T-{i:04d}'\n"
        "    assert main(['task', 'add', t, f'implement part {i} of the feature']) == 0\n"
        "    assert main(['task', 'start', t]) == 0\n"
        "    assert main(['context', '--last', f'worked on {t} ({i})', '--next', f'the tests of part {i}']) == 0\n"
        "    assert main(['task', 'done', t]) == 0\n"
    )
    subprocess.run(["python", "-c", code], cwd=repo, env=env, check=True)
    made = int(sh(repo, "git", "rev-list", "--count", STATE, env=env)) - made
    return (size() - before) / made


def measure(quick: bool = False) -> list[Row]:
    runs = 3 if quick else 5
    events = 1_000 if quick else 10_000
    tmp = Path(tempfile.mkdtemp(prefix="vibegit-bench-scale-"))
    try:
        env = hermetic_env(tmp)
        rows: list[Row] = []
        row, sync_rss = first_sync(tmp / "first", env, events, runs)
        rows.append(row)
        _, small_rss = first_sync(tmp / "first-small", env, 10, runs)
        rows.append(rss_row(f"max RSS: first sync of {events:,} events", sync_rss, small_rss))
        shutil.rmtree(tmp / "first", ignore_errors=True)
        long, short = status_rss(tmp / "rss", env, events, runs)
        rows.append(rss_row(f"max RSS: status after {events:,} events", long, short))
        rows.append(divergent_sync(tmp / "diverged", env, 200 if quick else 1_000, runs))
        rows.append(big_change(tmp / "change", env, 10 if quick else 50, runs))
        per_event = bytes_per_event(tmp / "bytes", env, 200 if quick else 1_000)
        rows.append(
            Row(
                "object store growth per event before gc (loose objects and packs)",
                per_event,
                "-",
                0,
                f"≤ {BYTES_PER_EVENT} B",
                per_event <= BYTES_PER_EVENT,
                unit="B",
            )
        )
        return rows
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    return run_alone(measure, __doc__ or "", "smaller sizes, fewer runs")


if __name__ == "__main__":
    raise SystemExit(main())
