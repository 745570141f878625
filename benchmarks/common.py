"""Shared pieces of the benchmarks: the install under test, timing by
medians, one row per budget.

Every budget is a ratio against a baseline measured in the same run on the
same machine (absolute times are noisy); runs of the two sides interleave so
drift hits both alike.

vibegit, its hooks and every ``python -c pass`` baseline run under one
install like the README's: a fresh venv (``python -m venv`` from the
interpreter running the benchmark) with this checkout installed by pip, not
editable, bytecode compiled as pip leaves it, built once per process in a
temporary directory (``install``); ``--python PATH`` takes an interpreter
that already has vibegit installed instead (``use``). Commands run by name
(``vibegit``, ``python``, ``git``) with that venv's bin first on PATH, as a
user types them, and nothing on PYTHONPATH.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_FILES = (
    "pyproject.toml",
    "README.md",
    ".pre-commit-hooks.yaml",
    "bin/vibegit",
    "hooks/vibegit-hook",
)  # with vibegit/
# What changes how an interpreter starts or where it finds vibegit; a user's install has none of it.
UNSET = ("PYTHONPATH", "PYTHONHOME", "PYTHONDONTWRITEBYTECODE", "PYTHONSTARTUP", "VIRTUAL_ENV")


@dataclass(frozen=True)
class Install:
    python: Path  # the venv's bin/python (not resolved: the venv is in its path)
    how: str  # for the header
    built: bool = False  # built by this run (a benchmark may add to it), not given with --python

    @property
    def bin(self) -> Path:
        return self.python.parent


_install: Install | None = None


def package_copy(dest: Path) -> Path:
    """This checkout's package files (working tree, as they are now) copied to
    ``dest`` (the benchmarks' install, the pre-commit framework's test repository)."""
    for name in PACKAGE_FILES:
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, dest / name)
    shutil.copytree(ROOT / "vibegit", dest / "vibegit", ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def _plain_env() -> dict[str, str]:
    """This process's environment without UNSET and without the benchmark's own venv on PATH."""
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    own = str(Path(sys.prefix) / "bin") if sys.prefix != sys.base_prefix else None
    env["PATH"] = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p and p != own)
    return env


def _step(what: str, *args: str | Path, env: dict[str, str], cwd: Path | None = None) -> None:
    proc = subprocess.run([str(a) for a in args], env=env, cwd=cwd, capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"benchmark install failed: {what}: {proc.stderr.strip()[-800:]}")


def _build() -> Install:
    """A fresh venv with this checkout installed by pip (not editable), in a temporary directory
    removed at exit. Built from a copy of the package files, so the checkout gets no build/."""
    tmp = Path(tempfile.mkdtemp(prefix="vibegit-bench-install-"))
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    env = _plain_env()  # PYTHONDONTWRITEBYTECODE unset: pip compiles the bytecode as for a user
    print(f"building the install under test in {tmp} …", file=sys.stderr, flush=True)
    source = package_copy(tmp / "source")
    _step("python -m venv", sys.executable, "-m", "venv", tmp / "venv", env=env)
    python = tmp / "venv" / "bin" / "python"
    how = "pip install <checkout>"
    proc = subprocess.run([python, "-m", "pip", "install", "-q", source], env=env, capture_output=True, text=True)
    if proc.returncode:  # building needs what the registry lacks: a wheel built here, dependencies from the registry
        print(f"pip install failed ({proc.stderr.strip()[-300:]}); building a wheel instead", file=sys.stderr)
        wheels = tmp / "wheels"
        wheel = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", wheels, source]
        _step("pip wheel", *wheel, env=env)
        _step("pip install <wheel>", python, "-m", "pip", "install", "-q", *sorted(wheels.glob("*.whl")), env=env)
        how = "pip wheel --no-deps <checkout>, then pip install <wheel>"
    package, compiled, total = _vibegit_of(python)
    if compiled < total:
        raise SystemExit(f"benchmark install failed: bytecode for {compiled} of {total} modules in {package}")
    how = f"a fresh venv (python -m venv), {how}: not editable, bytecode {compiled}/{total} by pip"
    return Install(python, how, built=True)


_BYTECODE = """\
import importlib.util, pathlib, vibegit
sources = list(pathlib.Path(vibegit.__file__).parent.rglob("*.py"))
print(vibegit.__file__, sum(pathlib.Path(importlib.util.cache_from_source(str(p))).is_file() for p in sources), len(sources))
"""


def _vibegit_of(python: Path) -> tuple[Path, int, int]:
    """Where ``python`` imports vibegit from, and how many of its modules have bytecode, of how many."""
    with tempfile.TemporaryDirectory() as empty:  # python -c puts its cwd first on sys.path
        proc = subprocess.run([python, "-c", _BYTECODE], cwd=empty, env=_plain_env(), capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"{python}: vibegit is not installed there: {proc.stderr.strip()[-300:]}")
    where, compiled, total = proc.stdout.split()
    return Path(where).parent, int(compiled), int(total)


def use(python: str | None = None) -> Install:
    """The install under test: ``python`` (an interpreter with vibegit installed), or else one built here."""
    global _install
    if python is not None:
        found = shutil.which(python) if os.sep not in python else python
        if not found or not os.access(found, os.X_OK):
            raise SystemExit(f"--python {python}: no such interpreter")
        at = Path(found).absolute()
        if not (at.parent / "vibegit").is_file():
            raise SystemExit(f"--python {python}: no vibegit command beside it ({at.parent / 'vibegit'})")
        package, compiled, total = _vibegit_of(at)
        odd = "" if "site-packages" in package.parts else " (not installed in site-packages: editable or PYTHONPATH)"
        _install = Install(at, f"given with --python; vibegit from {package}{odd}; bytecode {compiled}/{total}")
    elif _install is None:
        _install = _build()
    return _install


def install() -> Install:
    return use()


def hermetic_env(home: Path) -> dict[str, str]:
    """No user config, fixed identity; the install's bin first on PATH, nothing on PYTHONPATH."""
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n[gc]\n\tauto = 0\n")
    env = {k: v for k, v in _plain_env().items() if not k.startswith(("GIT_", "VIBEGIT_"))}
    env.update(
        HOME=str(home),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=str(home / ".gitconfig"),
        GIT_AUTHOR_NAME="bench",
        GIT_AUTHOR_EMAIL="bench@example.com",
        GIT_COMMITTER_NAME="bench",
        GIT_COMMITTER_EMAIL="bench@example.com",
        PATH=f"{install().bin}{os.pathsep}{env['PATH']}",
    )
    for name in ("python", "vibegit"):  # by name, as a user types them: the install's
        if shutil.which(name, path=env["PATH"]) != str(install().bin / name):
            raise SystemExit(f"benchmark set-up failed: '{name}' on PATH is not the install's ({install().bin})")
    return env


def hooks_installed(repo: Path, env: dict[str, str], *args: str) -> None:
    """``vibegit install ARGS`` in ``repo``, then check each shim starts the install's interpreter."""
    sh(repo, "vibegit", "install", *args, env=env)
    hooks = Path(sh(repo, "git", "rev-parse", "--git-path", "hooks", env=env).strip())
    hooks = hooks if hooks.is_absolute() else repo / hooks
    baked = [m.group(1) for f in hooks.iterdir() for m in re.finditer(r"^VIBEGIT_PYTHON=(.*)$", f.read_text(), re.M)]
    wanted = [str(install().python)]
    if not baked or any(shlex.split(value) != wanted for value in baked):
        raise SystemExit(f"benchmark set-up failed: shims in {hooks} start {baked}, not {wanted[0]}")


_CALL = """\
import importlib, json, sys
import vibegit  # the install's, before the checkout joins sys.path
sys.path.append(sys.argv[1])
module, _, name = sys.argv[2].partition(":")
print(json.dumps(getattr(importlib.import_module(module), name)(*json.loads(sys.argv[3]))))
"""


def call(env: dict[str, str], target: str, *args: object) -> object:
    """``module:function(*args)`` of the benchmarks run in the install's interpreter (vibegit
    imported from the install; the checkout last on sys.path for ``benchmarks`` and ``tests``),
    for what is timed inside Python; its JSON result (the last line it prints)."""
    proc = subprocess.run(
        ["python", "-c", _CALL, str(ROOT), target, json.dumps(args)],
        cwd=env["HOME"],  # python -c puts its cwd first on sys.path: not the checkout
        env=env,
        capture_output=True,
        text=True,
    )
    if proc.returncode:
        raise SystemExit(f"benchmark step failed: {target}: {proc.stderr.strip()[-800:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def header(runs: int = 21) -> str:
    """Which interpreter and install ran, and its ``python -c pass`` median (a hermetic HOME)."""
    with tempfile.TemporaryDirectory(prefix="vibegit-bench-header-") as tmp:
        env = hermetic_env(Path(tmp))
        go = run_cmd(Path(tmp), env, "python", "-c", "pass")
        go()
        median = statistics.median(timed(go) for _ in range(runs))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"Install under test: {install().python} ({install().how}); "
        f"python -c pass there: median {median:.1f} ms of {runs} runs (load {load})"
    )


def results(rows: list[Row]) -> str:
    """The header line, then the table."""
    return f"{header()}\n\n{table(rows)}"


def python_option(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument(
        "--python",
        metavar="PATH",
        help="an interpreter that already has vibegit installed, instead of a fresh venv with this checkout",
    )
    return parser


def sh(cwd: Path, *args: str, env: dict[str, str] | None = None, input: bytes | None = None) -> str:
    proc = subprocess.run(args, cwd=cwd, env=env, input=input, capture_output=True)
    if proc.returncode:
        raise SystemExit(f"benchmark set-up failed: {' '.join(args)}: {proc.stderr.decode()[-500:]}")
    return proc.stdout.decode()


def base_repo(path: Path, env: dict[str, str], name: str, text: str, branch: str) -> Path:
    """A new repository at ``path``: branch main with one commit holding file
    ``name``, and ``branch`` beside it at the same commit."""
    path.mkdir(parents=True)
    sh(path, "git", "init", "-q", "-b", "main", env=env)
    (path / name).write_text(text)
    sh(path, "git", "add", "-A", env=env)
    sh(path, "git", "commit", "-q", "-m", "base", env=env)
    sh(path, "git", "branch", branch, env=env)
    return path


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def paired(a: Callable[[], object], b: Callable[[], object], runs: int) -> tuple[float, float]:
    """Medians (ms) of ``a`` and ``b``, run alternately after a warm-up each."""
    a()
    b()
    ta, tb = [], []
    for _ in range(runs):
        ta.append(timed(a))
        tb.append(timed(b))
    return statistics.median(ta), statistics.median(tb)


def run_cmd(cwd: Path, env: dict[str, str], *args: str, ok: tuple[int, ...] = (0,)) -> Callable[[], None]:
    def go() -> None:
        proc = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if proc.returncode not in ok:
            raise SystemExit(f"benchmark step failed ({proc.returncode}): {' '.join(args)}")

    return go


# The budgets of the commands, each written once (ratios to the venv's own
# python -c pass, timed in the same loop): a new Python per command has
# floors of about 2.0 x (a read's git processes) and 2.4 x (an event's);
# the resident MCP server has none.
CLI_EVENT = 4.0  # one event from the CLI: task add, phase, context, task done
CLI_READ = 3.5  # a read from the CLI: status, status --json, list
BLOCKED = 4.5  # a git commit refused by the one lock check, its message shown
MCP_EVENT = 1.0  # one tool call on a running vibegit mcp: an event (task_add)
MCP_READ = 0.5  # ... a read (status)


@dataclass
class Row:
    path: str
    measured: float  # ms, or bytes for sizes
    baseline_name: str
    baseline: float
    budget: str
    passed: bool
    unit: str = "ms"  # "ms", "ms/MiB", "count", or bytes

    @property
    def ratio(self) -> float:
        return self.measured / self.baseline if self.baseline else float("nan")


def ratio_row(path: str, measured: float, baseline_name: str, baseline: float, limit: float) -> Row:
    return Row(path, measured, baseline_name, baseline, f"≤ {limit:g}×", measured <= limit * baseline)


def table(rows: list[Row]) -> str:
    head = ("path", "measured", "baseline", "baseline median", "ratio", "budget", "result")
    body = []
    for r in rows:
        fmt = {
            "ms": lambda v: f"{v:.1f} ms",
            "ms/MiB": lambda v: f"{v:.1f} ms/MiB",
            "count": lambda v: f"{v:.0f}",
        }.get(r.unit, lambda v: f"{v:,.0f} B")
        body.append(
            (
                r.path,
                fmt(r.measured),
                r.baseline_name,
                fmt(r.baseline) if r.baseline else "-",
                f"{r.ratio:.2f}" if r.baseline else "-",
                r.budget,
                "pass" if r.passed else "FAIL",
            )
        )
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return "\n".join(lines)


def run_alone(measure: Callable[[bool], list[Row]], doc: str, quick_help: str) -> int:
    """A benchmark script run by itself: ``--quick``, ``--python``, the header and its rows, exit 1 when one fails."""
    parser = python_option(argparse.ArgumentParser(description=doc.splitlines()[0]))
    parser.add_argument("--quick", action="store_true", help=quick_help)
    args = parser.parse_args()
    use(args.python)
    rows = measure(args.quick)
    print(results(rows))
    return 0 if all(r.passed for r in rows) else 1


def quiet_objects(repo: Path, env: dict[str, str]) -> None:
    """Wait for vibegit's background repack to end, then pack everything into
    one pack, as after a gc: the timed runs then share no CPU with it, and two
    repositories compared hold their objects alike."""
    wait_for_repack(repo)
    sh(repo, "git", "repack", "-a", "-d", "-q", env=env)


def wait_for_repack(repo: Path, timeout: float = 60) -> None:
    """Until no ``git repack`` runs in ``repo`` (vibegit starts one in the
    background every 16 events), at most ``timeout`` seconds (Linux's /proc;
    elsewhere it does not wait). The tests' fsck waits the same way."""
    top = os.path.realpath(repo)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(_repacks_in(pid, top) for pid in _pids()):
        time.sleep(0.05)


def _pids() -> list[str]:
    try:
        return [pid for pid in os.listdir("/proc") if pid.isdigit()]
    except OSError:
        return []


def _repacks_in(pid: str, top: str) -> bool:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        return b"repack" in command and os.path.realpath(f"/proc/{pid}/cwd") == top
    except OSError:
        return False
