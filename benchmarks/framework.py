"""Budget of issue 16 for the pre-commit framework path (the real framework
from PyPI, this checkout committed in a local repository as the hook repo):

- ``git commit`` with vibegit's ``vibegit-lock`` and no workflow ≤ 1.1 × the
  same commit with the framework's own no-op hook (``entry: "true"``) of the
  same language (``python``) in its place;
- ``git checkout`` of a branch with ``vibegit-startup``: the same.

The framework starts its own Python for every hook run (``python -m
pre_commit hook-impl``), and for every ``language: python`` hook it checks
the hook's virtualenv by starting that virtualenv's Python (``python -S``,
about 15–20 ms), whatever the hook does; vibegit's hooks need that language
(the framework installs vibegit with pip), so that cost is in the baseline,
and each row's name says what vibegit costs over a ``language: system``
no-op too. vibegit's entry is POSIX sh (hooks/vibegit-hook) that starts
vibegit only when a workflow may be concerned. The framework runs from a
venv of its own made for the run (``python -m venv``, ``pip install
pre-commit``, as pipx leaves it), so its interpreter starts as a user's
does on both sides. The variants run interleaved after a warm-up; min /
median / max and the load go to stderr.

    python benchmarks/framework.py [--quick] [--entry 'vibegit hook'] [--python PATH]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import (
    Row,
    base_repo,
    hermetic_env,
    package_copy,
    python_option,
    ratio_row,
    results,
    run_cmd,
    sh,
    use,
)
from benchmarks.hooks import toggling_checkout
from benchmarks.trees import interleaved, median, report, within

RATIO = 1.1
STAGES = "default_install_hook_types: [pre-commit, post-checkout]\n"
VIBEGIT_CONFIG = STAGES + textwrap.dedent("""\
    repos:
      - repo: {repo}
        rev: {rev}
        hooks:
          - id: vibegit-lock
          - id: vibegit-startup
    """)
NOOP_CONFIG = STAGES + textwrap.dedent("""\
    repos:
      - repo: local
        hooks:
          - id: noop
            name: no-op
            entry: "true"
            language: {language}
            always_run: true
            pass_filenames: false
            stages: [pre-commit, post-checkout]
    """)


def hook_repo(root: Path, env: dict[str, str], entry: str = "") -> tuple[Path, str]:
    """This checkout's package committed in a repository of its own (pre-commit needs a rev)."""
    dest = package_copy(root / "vibegit-hooks")
    if entry:
        hooks = dest / ".pre-commit-hooks.yaml"
        hooks.write_text(hooks.read_text().replace("entry: vibegit-hook ", f"entry: {entry} "))
    sh(dest, "git", "init", "-q", "-b", "main", env=env)
    sh(dest, "git", "add", "-A", env=env)
    sh(dest, "git", "commit", "-q", "-m", "vibegit under test", env=env)
    return dest, sh(dest, "git", "rev-parse", "HEAD", env=env).strip()


def framework(root: Path, env: dict[str, str]) -> Path:
    """pre-commit installed by pip in a fresh venv of its own in ``root`` (as pipx leaves it); its interpreter."""
    sh(root, sys.executable, "-m", "venv", str(root / "pre-commit-venv"), env=env)
    python = root / "pre-commit-venv" / "bin" / "python"
    sh(root, str(python), "-m", "pip", "install", "-q", "pre-commit", env=env)
    return python


def consumer(path: Path, env: dict[str, str], config: str, runner: Path) -> Path:
    """A small repository (branches main and other) with the framework (``runner``) installed from ``config``."""
    base_repo(path, env, ".pre-commit-config.yaml", config, "other")
    sh(path, str(runner), "-m", "pre_commit", "install", "--install-hooks", env=env)
    return path


def measure(quick: bool = False, entry: str = "") -> list[Row]:
    """``entry``: another entry for vibegit's hooks (``vibegit hook`` measures the Python-only path)."""
    runs = 7 if quick else 21
    tmp = Path(tempfile.mkdtemp(prefix="vibegit-bench-framework-"))
    try:
        env = hermetic_env(tmp)
        env["PRE_COMMIT_HOME"] = str(tmp / "pre-commit-home")
        repo, rev = hook_repo(tmp, env, entry)
        runner = framework(tmp, env)
        ours = consumer(tmp / "vibegit", env, VIBEGIT_CONFIG.format(repo=repo, rev=rev), runner)
        python_noop = consumer(tmp / "python-noop", env, NOOP_CONFIG.format(language="python"), runner)
        system_noop = consumer(tmp / "system-noop", env, NOOP_CONFIG.format(language="system"), runner)
        commit = ("git", "commit", "-q", "--allow-empty", "-m", "bench")
        rows = []
        for label, go in (
            ("git commit", lambda repo: run_cmd(repo, env, *commit)),
            ("git checkout", lambda repo: toggling_checkout(repo, env)),
        ):
            steps = {"vibegit": go(ours), "python no-op": go(python_noop), "system no-op": go(system_noop)}
            times = interleaved({name: (None, step) for name, step in steps.items()}, runs)
            report(f"{label} through the pre-commit framework", times)
            mine, base, system = times["vibegit"], times["python no-op"], times["system no-op"]
            added = f"+{median(mine) - median(system):.0f} ms over a system no-op"
            path = f"{label} through the pre-commit framework, no workflow ({added}){within(RATIO, mine, base)}"
            rows.append(ratio_row(path, median(mine), "the framework's no-op python hook", median(base), RATIO))
        return rows
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = python_option(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    parser.add_argument("--quick", action="store_true", help="7 runs per side (a smoke test)")
    parser.add_argument("--entry", default="", help="another entry for vibegit's hooks, e.g. 'vibegit hook' (before)")
    args = parser.parse_args(argv)
    use(args.python)
    rows = measure(args.quick, args.entry)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"vibegit through the pre-commit framework, medians (load {load})")
    print(results(rows))
    return 0 if all(r.passed for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
