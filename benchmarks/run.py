"""Run every performance benchmark and print one table:
path, measured median, baseline median (same run), ratio, budget, pass/fail.

    python benchmarks/run.py [--quick] [--python PATH]

vibegit, its hooks and every ``python -c pass`` baseline run under one
install like the README's, built once for the whole run: a fresh venv in a
temporary directory with this checkout installed by pip, not editable
(``--python PATH``: an interpreter that already has vibegit installed).
The output's header names it and its ``python -c pass`` median.

Exit status 1 when a budget is missed. Results of a full run on the
project's machine are kept in docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import events, framework, hooks, mcpcalls, scale, secrets, snapshot, startup, sync, trees, workflows
from benchmarks.common import python_option, results, use


def machine() -> str:
    git = subprocess.run(["git", "--version"], capture_output=True, text=True).stdout.strip()
    return (
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {git}, "
        f"{platform.system()} {platform.release()}"
    )


def main() -> int:
    parser = python_option(argparse.ArgumentParser(description="Run every vibegit benchmark."))
    parser.add_argument("--quick", action="store_true", help="smaller sizes and fewer runs (a smoke test)")
    args = parser.parse_args()
    quick = args.quick
    use(args.python)  # one install for every script
    rows = []
    # mcpcalls last: it adds the MCP SDK to the install the others measure
    for module in (hooks, framework, startup, events, workflows, snapshot, trees, secrets, scale, sync, mcpcalls):
        print(f"running {module.__name__} …", file=sys.stderr, flush=True)
        os.sync()  # the group before it (100,000 files made and deleted) writes back before this one is timed
        rows += module.measure(quick)
    print(f"Machine: {machine()}\n")
    print(results(rows))
    return 0 if all(r.passed for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
