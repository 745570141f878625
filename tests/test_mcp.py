"""``vibegit mcp`` end to end with the MCP SDK's own client over stdio: the
tools record events through the usual pipeline, and completion, abort and
unlock ask the user through elicitation (accept, decline, cancel, a client
that cannot ask)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import VG, git, start_workflow, subjects

mcp = pytest.importorskip("mcp")
from mcp import ClientSession, StdioServerParameters, stdio_client, types  # noqa: E402


def failed(result: Any) -> bool:
    return bool(getattr(result, "is_error", None) or getattr(result, "isError", False))  # mcp 2.x, 1.x


def text_of(result: Any) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


def session(repo: Path, answer: str | None, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """Start ``vibegit mcp`` in ``repo`` as an agent does, make ``calls`` in
    order; elicitations get ``answer`` (None: the client declares no elicitation)."""
    asked: list[str] = []

    async def on_elicit(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        if answer == "accept":
            return types.ElicitResult(action="accept", content={"confirm": True})
        return types.ElicitResult(action=answer)  # type: ignore[arg-type]

    async def run() -> list[Any]:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "vibegit", "mcp"], cwd=str(repo), env=dict(os.environ)
        )
        out: list[Any] = []
        async with stdio_client(params) as (read, write):
            kwargs: dict[str, Any] = {} if answer is None else {"elicitation_callback": on_elicit}
            async with ClientSession(read, write, **kwargs) as client:
                await client.initialize()
                for name, args in calls:
                    if name == "resource":
                        out.append((await client.read_resource("vibegit://state")).contents[0].text)
                    elif name == "list":
                        out.append(sorted(t.name for t in (await client.list_tools()).tools))
                    else:
                        out.append(await client.call_tool(name, args))
        out.append(asked)
        return out

    return asyncio.run(run())


def test_the_tools_and_the_state_resource(repo: Path, vg: VG) -> None:
    start_workflow(vg)
    tools, added, started, ctx, state, report, bad, asked = session(
        repo,
        "accept",
        [
            ("list", {}),
            ("task_add", {"task_id": "T-009", "title": "Docs"}),
            ("task_start", {"task_id": "T-009"}),
            ("context", {"last": "wrote the docs outline", "next": "fill in the install section"}),
            ("resource", {}),
            ("status", {}),
            ("task_done", {"task_id": "T-404"}),
        ],
    )
    assert {"status", "task_add", "task_start", "task_done", "context", "checkpoint", "pause", "complete"} <= set(tools)
    assert {"abort", "unlock"} <= set(tools)
    assert not failed(added) and not failed(started) and not failed(ctx)
    data = json.loads(state)
    assert data["context"]["next_action"] == "fill in the install section"
    assert any(t["id"] == "T-009" and t["status"] == "doing" for t in data["tasks"])
    assert "Session recovery" in text_of(report)
    assert failed(bad) and "unknown task 'T-404'" in text_of(bad)
    assert asked == []
    assert any("T-009" in s for s in subjects(repo))


def finished(vg: VG) -> None:
    start_workflow(vg, then=(("task", "start", "T-001"), ("task", "done", "T-001")))
    for task_id in [t["id"] for t in json.loads(vg("task", "list", "--json").out) if t["status"] != "done"]:
        assert vg("task", "done", task_id).code == 0


@pytest.mark.parametrize("answer", ["decline", "cancel", None])
def test_completion_is_recorded_only_on_the_users_accept(repo: Path, vg: VG, answer: str | None) -> None:
    finished(vg)
    before = subjects(repo)
    result, state, asked = session(repo, answer, [("complete", {}), ("resource", {})])
    assert failed(result) and json.loads(state)["workflow"]["status"] == "running"
    assert subjects(repo) == before  # nothing recorded
    if answer is None:
        assert asked == [] and "confirm in a terminal with 'vibegit complete'" in text_of(result)
    else:
        assert len(asked) == 1 and "Mark the workflow" in asked[0]
        assert ("declined" if answer == "decline" else "cancelled") in text_of(result)


def test_complete_abort_and_unlock_on_an_accept(repo: Path, vg: VG) -> None:
    finished(vg)
    result, state, asked = session(repo, "accept", [("complete", {}), ("resource", {})])
    assert not failed(result), text_of(result)
    assert json.loads(state)["workflow"]["status"] == "completed" and len(asked) == 1
    assert "Vibegit-Confirmation: confirmed by the user through the client" in git(
        repo, "log", "-1", "--format=%B", "vibegit/state"
    )

    assert vg("start", "second", "--goal", "more").code == 0
    result, asked = session(repo, "accept", [("abort", {})])
    assert not failed(result) and "Abort the workflow" in asked[0]
    assert "Vibegit-Confirmation: confirmed by the user through the client" in git(
        repo, "log", "-1", "--format=%B", "vibegit/state"
    )
    assert vg("start", "third", "--goal", "again").code == 0
    assert vg("task", "add", "T-001", "one").code == 0
    early, result, asked = session(repo, "accept", [("complete", {}), ("unlock", {"reason": "wrong branch"})])
    assert failed(early) and "tasks not done" in text_of(early)  # refused before the user is asked
    assert not failed(result) and len(asked) == 1 and "Release the lock" in asked[0]


def test_without_the_sdk_one_line_and_exit_1(repo: Path) -> None:
    code = "import sys; sys.modules['mcp'] = None; from vibegit.main import main; sys.exit(main(['mcp']))"
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.strip() == "vibegit: vibegit mcp needs the MCP SDK: pip install 'vibegit[mcp]'"


def test_the_user_is_asked_in_chinese(repo: Path, vg: VG) -> None:
    git(repo, "config", "vibegit.lang", "zh")
    finished(vg)
    result, report, asked = session(repo, "decline", [("complete", {}), ("status", {})])
    assert failed(result) and "用户拒绝了：未记录任何内容" in text_of(result)
    assert len(asked) == 1 and "将工作流 'vibe-code' 标记为完成" in asked[0]
    assert "## 🔄 会话恢复" in text_of(report)
    [cannot, _] = session(repo, None, [("abort", {})])
    assert failed(cannot) and "此客户端无法询问用户" in text_of(cannot)
