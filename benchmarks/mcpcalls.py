"""The MCP budgets of issue 26: one tool call on a running ``vibegit mcp``,
against ``python -c pass`` of the same interpreter (the install under test,
with the MCP SDK added when this run built it; see common.py):

- a read (``status``) ≤ 0.5 ×;
- an event (``task_add``) ≤ 1.0 ×.

The server is started once in a repository with a running workflow, as an
agent starts it (``vibegit mcp`` by name, stdin and stdout pipes), and
spoken to by a plain JSON-RPC client here (a line out, the answer's line
back), so what is timed is the server's work and its SDK's, not a client
library's. Calls and ``python -c pass`` run interleaved after a warm-up;
each row is judged on medians; min / median / max go to stderr, and a row
whose verdict on the minimums differs is marked "inside the noise". Timed
in the same loop and printed, not judged: a floor, a ``tools/list`` round
trip (the SDK's own work for a request, running no tool), and the same
read and event from the CLI.

    python benchmarks/mcpcalls.py [--quick] [--python PATH]
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import MCP_EVENT, MCP_READ, ROOT, Row, hermetic_env, install, ratio_row, run_alone, run_cmd
from benchmarks.events import base_repo, started
from benchmarks.trees import interleaved, report, within


def with_sdk(env: dict[str, str]) -> None:
    """The MCP SDK in the install under test: added to the one this run
    built (the extra's requirement, from pyproject.toml), else required."""
    has = subprocess.run(["python", "-c", "import mcp"], cwd=env["HOME"], env=env, capture_output=True)
    if has.returncode == 0:
        return
    if not install().built:
        raise SystemExit(f"{install().python}: no MCP SDK there: pip install 'vibegit[mcp]' into it first")
    wanted = re.search(r'^mcp = \["([^"]+)"\]', (ROOT / "pyproject.toml").read_text(), re.M)
    if wanted is None:
        raise SystemExit("benchmark set-up failed: no mcp extra in pyproject.toml")
    print(f"adding {wanted.group(1)} to the install under test …", file=sys.stderr, flush=True)
    added = subprocess.run(["python", "-m", "pip", "install", "-q", wanted.group(1)], env=env, capture_output=True)
    if added.returncode:
        raise SystemExit(f"benchmark set-up failed: pip install {wanted.group(1)}: {added.stderr.decode()[-500:]}")


class Server:
    """``vibegit mcp`` running in ``repo``, spoken to in plain JSON-RPC lines."""

    def __init__(self, repo: Path, env: dict[str, str], log: Path) -> None:
        self.log = log
        with log.open("wb") as err:
            self.proc = subprocess.Popen(
                ["vibegit", "mcp"], cwd=repo, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err
            )
        self.ids = itertools.count(1)
        self.ask(
            "initialize",
            {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}},
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict[str, object]) -> None:
        assert self.proc.stdin
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def ask(self, method: str, params: dict[str, object]) -> dict[str, object]:
        """The answer to one request (notifications on the way are skipped)."""
        assert self.proc.stdout
        n = next(self.ids)
        self.send({"jsonrpc": "2.0", "id": n, "method": method, "params": params})
        while line := self.proc.stdout.readline():
            answer = json.loads(line)
            if answer.get("id") == n:
                if "error" in answer:
                    raise SystemExit(f"benchmark step failed: {method}: {answer['error']}")
                return answer["result"]  # type: ignore[no-any-return]
        raise SystemExit(f"benchmark step failed: vibegit mcp ended: {self.log.read_text()[-800:]}")

    def call(self, tool: str, **arguments: object) -> None:
        result = self.ask("tools/call", {"name": tool, "arguments": arguments})
        if result.get("isError"):
            raise SystemExit(f"benchmark step failed: {tool} {arguments}: {result.get('content')}")

    def close(self) -> None:
        assert self.proc.stdin
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def measure(quick: bool = False) -> list[Row]:
    runs = 7 if quick else 21
    tmp = Path(tempfile.mkdtemp(prefix="vibegit-bench-mcp-"))
    server = None
    try:
        env = hermetic_env(tmp)
        with_sdk(env)
        repo = base_repo(tmp / "repo", env)
        started(repo, env, 3)
        server = Server(repo, env, tmp / "mcp-stderr.log")
        ids = itertools.count()
        steps = {
            "python -c pass": (None, run_cmd(tmp, env, "python", "-c", "pass")),
            "floor: tools/list": (None, lambda: server.ask("tools/list", {})),
            "status": (None, lambda: server.call("status")),
            "task_add": (None, lambda: server.call("task_add", task_id=f"B-{next(ids):05d}", title="a task")),
            "cli: vibegit status": (None, run_cmd(repo, env, "vibegit", "status")),
            "cli: vibegit task add": (
                None,
                lambda: run_cmd(repo, env, "vibegit", "task", "add", f"B-{next(ids):05d}", "a task")(),
            ),
        }
        times = interleaved(steps, runs)
        report("mcp tool calls on a running server", times)
        base = times.pop("python -c pass")
        told = {name: times.pop(name) for name in list(times) if name.startswith(("floor: ", "cli: "))}
        print(
            "  not judged (median ÷ python -c pass): "
            + "; ".join(f"{name} {statistics.median(t) / statistics.median(base):.2f} ×" for name, t in told.items()),
            file=sys.stderr,
        )
        rows = []
        for name, measured in times.items():
            limit = MCP_READ if name == "status" else MCP_EVENT
            label = f"mcp: {'a read' if name == 'status' else 'an event'} ({name})" + within(limit, measured, base)
            rows.append(ratio_row(label, statistics.median(measured), "python -c pass", statistics.median(base), limit))
        return rows
    finally:
        if server is not None:
            server.close()
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    return run_alone(measure, __doc__ or "", "fewer runs")


if __name__ == "__main__":
    raise SystemExit(main())
