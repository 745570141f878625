"""``vibegit mcp`` end to end with the MCP SDK's own client over stdio: an
agent that has only the MCP server runs a whole workflow; each tool carries
its annotations and the CLI's parameters; calls in flight at once get their
own answers and nothing but JSON-RPC reaches stdout; completion, abort and
unlock ask the user through elicitation (accept, decline, cancel, an accept
without an answer, a client that cannot ask) and act on the workflow the
user was asked about, or on nothing."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import VG, git, start_workflow, subjects

mcp = pytest.importorskip("mcp")
from mcp import ClientSession, StdioServerParameters, stdio_client, types  # noqa: E402

from vibegit.cli import _command  # noqa: E402
from vibegit.commands.mcp import COMMANDS, HINTS, LEFT_OUT  # noqa: E402

Ask = Callable[[str], Awaitable[Any]]  # the user, asked: the answer (an ElicitResult)


def failed(result: Any) -> bool:
    return bool(getattr(result, "is_error", None) or getattr(result, "isError", False))  # mcp 2.x, 1.x


def text_of(result: Any) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


def answering(answer: str) -> Ask:
    async def ask(_question: str) -> Any:
        if answer == "accept":
            return types.ElicitResult(action="accept", content={"confirm": True})
        return types.ElicitResult(action=answer)  # type: ignore[arg-type]

    return ask


def server(repo: Path, wire: Path | None = None) -> StdioServerParameters:
    """``vibegit mcp`` started in ``repo`` as an agent starts it; ``wire``:
    a copy of everything it writes to stdout is kept there."""
    if wire is None:
        return StdioServerParameters(
            command=sys.executable, args=["-m", "vibegit", "mcp"], cwd=str(repo), env=dict(os.environ)
        )
    teed = '"$0" -m vibegit mcp | tee "$1"'
    return StdioServerParameters(
        command="sh", args=["-c", teed, sys.executable, str(wire)], cwd=str(repo), env=dict(os.environ)
    )


def connected(
    repo: Path,
    ask: Ask | None,
    use: Callable[[ClientSession], Awaitable[Any]],
    wire: Path | None = None,
) -> tuple[Any, list[str]]:
    """Run ``use(client)`` on a session with ``vibegit mcp`` in ``repo``; the
    user is asked through ``ask`` (None: the client declares no elicitation).
    Its result, and the questions asked."""
    asked: list[str] = []

    async def on_elicit(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        assert ask is not None
        return await ask(params.message)

    async def run() -> Any:
        async with stdio_client(server(repo, wire)) as (read, write):
            kwargs: dict[str, Any] = {} if ask is None else {"elicitation_callback": on_elicit}
            async with ClientSession(read, write, **kwargs) as client:
                await client.initialize()
                return await use(client)

    return asyncio.run(run()), asked


def session(repo: Path, answer: str | Ask | None, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """Make ``calls`` in order; elicitations get ``answer``. The results, then the questions asked."""
    ask = answering(answer) if isinstance(answer, str) else answer

    async def use(client: ClientSession) -> list[Any]:
        out: list[Any] = []
        for name, args in calls:
            if name == "resource":
                out.append((await client.read_resource("vibegit://state")).contents[0].text)  # type: ignore[union-attr]
            elif name == "tools":
                out.append((await client.list_tools()).tools)
            else:
                out.append(await client.call_tool(name, args))
        return out

    out, asked = connected(repo, ask, use)
    return [*out, asked]


def state_of(vg: VG, *args: str) -> Any:
    result = vg("status", "--json", *args)
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_the_tools_and_the_state_resource(repo: Path, vg: VG) -> None:
    start_workflow(vg)
    added, started, ctx, state, report, bad, asked = session(
        repo,
        "accept",
        [
            ("task_add", {"task_id": "T-009", "title": "Docs"}),
            ("task_start", {"task_id": "T-009"}),
            ("context", {"last": "wrote the docs outline", "next": "fill in the install section"}),
            ("resource", {}),
            ("status", {}),
            ("task_done", {"task_id": "T-404"}),
        ],
    )
    assert not failed(added) and not failed(started) and not failed(ctx)
    data = json.loads(state)
    assert data["context"]["next_action"] == "fill in the install section"
    assert any(t["id"] == "T-009" and t["status"] == "doing" for t in data["tasks"])
    assert "Session recovery" in text_of(report)
    assert failed(bad) and "vibegit: unknown task 'T-404'" in text_of(bad)
    assert asked == []
    assert any("T-009" in s for s in subjects(repo))


def _cli(words: tuple[str, ...]) -> dict[str, tuple[str, bool]]:
    """The CLI command's parameters: name -> (kind, required), by the names the tools use."""
    command = _command()
    for word in words:
        command = command.commands[word]
    params = {}
    for p in command.params:
        if p.param_type_name == "option":
            longest = max((o for o in p.opts if o.startswith("--")), key=len)
            name = longest[2:].replace("-", "_")
        else:
            name = p.name
        kind = "flag" if getattr(p, "is_flag", False) else "number" if p.type.name in ("int", "integer") else "text"
        params[name] = ("texts" if p.multiple else kind, p.required)
    return params


def _kind(schema: dict[str, Any]) -> str:
    types_ = {s.get("type") for s in schema.get("anyOf", [schema])} - {"null"}
    found = {"string": "text", "integer": "number", "boolean": "flag", "array": "texts"}
    [kind] = {found.get(x, "text" if "enum" in schema or x is None else str(x)) for x in types_}
    return kind


def test_every_tool_the_clis_parameters_and_annotations(repo: Path) -> None:
    [tools, _] = session(repo, None, [("tools", {})])
    listed = {tool.name: tool for tool in tools}
    assert set(listed) == set(HINTS)
    for name, tool in listed.items():
        schema = getattr(tool, "input_schema", None) or tool.inputSchema  # mcp 2.x, 1.x
        params = {p: (_kind(s), p in schema.get("required", [])) for p, s in schema["properties"].items()}
        cli = {p: v for p, v in _cli(COMMANDS[name]).items() if p not in LEFT_OUT.get(name, ())}
        assert params == cli, name
        hints = tool.annotations.model_dump(by_alias=True)  # camelCase, as on the wire
        assert hints["readOnlyHint"] is (name in ("status", "list", "task_list", "memory_list")), name
        assert hints["destructiveHint"] is (name in ("complete", "abort", "unlock", "memory_remove")), name
        assert hints["idempotentHint"] is not None and hints["openWorldHint"] is (name == "resume"), name
        assert tool.description and tool.description.strip(), name


def test_an_agent_with_only_the_mcp_server_runs_a_whole_workflow(repo: Path, vg: VG) -> None:
    results = session(
        repo,
        "accept",
        [
            ("start", {"workflow": "vibe-code", "goal": "ship the login"}),
            ("phase", {"to": "P", "step": "2"}),
            ("task_add", {"task_id": "T-001", "title": "model"}),
            ("task_start", {"task_id": "T-001"}),
            ("context", {"question": "Which database?"}),
            ("context", {"answer": 1, "reply": "SQLite"}),
            ("checkpoint", {"action": "writing the model"}),
            ("memory_add", {"category": "forbidden_action", "text": "never push to main"}),
            ("memory_list", {}),
            ("pause", {"action": "lunch"}),
            ("status", {"json": True}),
            ("resume", {}),
            ("task_done", {"task_id": "T-001"}),
            ("task_list", {"json": True}),
            ("list", {}),
            ("complete", {"lesson": ["SQLite is enough here"]}),
            ("status", {"lang": "zh"}),
        ],
    )
    *calls, asked = results
    for result in calls:
        assert not failed(result), text_of(result)
    text = [text_of(r) for r in calls]
    assert "M-001" in text[8] and "never push to main" in text[8]
    assert json.loads(text[10])["workflow"]["status"] == "paused"
    assert "Session recovery" in text[11]
    assert json.loads(text[13])[0]["status"] == "done"
    assert "vibe-code" in text[14]
    assert "completed" in text[15].lower()
    assert "工作流" in text[16]  # lang: the call's language, not the process's
    assert len(asked) == 1 and re.search(r"'vibe-code' \(vibe-code-\w+\)", asked[0])
    events = subjects(repo)
    for event in ("start", "phase", "task-add", "task-start", "context", "checkpoint", "memory-add", "pause"):
        assert any(f"vibegit: {event}" in s for s in events), event
    assert any("vibegit: resume" in s for s in events) and "vibegit: complete" in events[0]
    assert "SQLite is enough here" in vg("memory", "list").out


def test_calls_in_flight_get_their_own_answers_and_stdout_is_only_json_rpc(repo: Path, vg: VG, tmp_path: Path) -> None:
    start_workflow(vg)
    wire = tmp_path / "wire.jsonl"
    adds = [(f"B-{i:03d}", f"title of B-{i:03d}") for i in range(16)]

    async def use(client: ClientSession) -> list[Any]:
        calls = [client.call_tool("task_add", {"task_id": i, "title": title}) for i, title in adds]
        calls += [
            client.call_tool("memory_add", {"category": "code_pattern", "text": f"rule {i:03d}"}) for i in range(8)
        ]
        calls += [client.call_tool("status", {"lang": "zh" if i % 2 else "en"}) for i in range(8)]
        return list(await asyncio.gather(*calls))

    results, _ = connected(repo, None, use, wire)
    assert len(results) == 32
    for (task_id, title), result in zip(adds, results[:16], strict=True):
        said = text_of(result)
        assert not failed(result), said
        assert f"task-add: {task_id}: {title}" in said
        assert set(re.findall(r"B-\d{3}", said)) == {task_id}  # its own, no other call's
    for i, result in enumerate(results[16:24]):
        said = text_of(result)
        assert not failed(result) and said.count("✔") == 1 and f"code_pattern: rule {i:03d}" in said, said
    for i, result in enumerate(results[24:]):
        said = text_of(result)
        assert ("## 🔄 会话恢复" if i % 2 else "## 🔄 Session recovery") in said, said
        assert "✔" not in said
    lines = wire.read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 33
    for line in lines:
        assert json.loads(line)["jsonrpc"] == "2.0", line
    done = {t["id"] for t in json.loads(vg("task", "list", "--json").out)}
    assert {i for i, _ in adds} <= done


def finished(vg: VG) -> None:
    start_workflow(vg, then=(("task", "start", "T-001"), ("task", "done", "T-001")))
    for task_id in [t["id"] for t in json.loads(vg("task", "list", "--json").out) if t["status"] != "done"]:
        assert vg("task", "done", task_id).code == 0


@pytest.mark.parametrize("answer", ["decline", "cancel", None, "accept-empty", "accept-no"])
def test_completion_is_recorded_only_on_the_users_accept(repo: Path, vg: VG, answer: str | None) -> None:
    finished(vg)
    before = subjects(repo)

    async def ask(_question: str) -> Any:
        if answer == "accept-empty":
            return types.ElicitResult(action="accept")
        if answer == "accept-no":
            return types.ElicitResult(action="accept", content={"confirm": False})
        return types.ElicitResult(action=answer)  # type: ignore[arg-type]

    result, state, asked = session(repo, None if answer is None else ask, [("complete", {}), ("resource", {})])
    said = text_of(result)
    assert failed(result) and json.loads(state)["workflow"]["status"] == "running"
    assert subjects(repo) == before  # nothing recorded
    assert "nothing was recorded" in said
    if answer is None:
        assert asked == [] and "confirm in a terminal with 'vibegit complete'" in said
        return
    assert len(asked) == 1 and "Mark the workflow 'vibe-code' (vibe-code-" in asked[0]
    expected = {
        "decline": "the user declined",
        "cancel": "the user cancelled",
        "accept-empty": "the client answered 'accept' without the user's answer",
        "accept-no": "the user declined",
    }
    assert expected[answer] in said


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
    assert not failed(result) and "Abort the workflow 'second' (second-" in asked[0]
    assert "Vibegit-Confirmation: confirmed by the user through the client" in git(
        repo, "log", "-1", "--format=%B", "vibegit/state"
    )
    assert vg("start", "third", "--goal", "again").code == 0
    assert vg("task", "add", "T-001", "one").code == 0
    early, result, asked = session(repo, "accept", [("complete", {}), ("unlock", {"reason": "wrong branch"})])
    assert failed(early) and "vibegit: cannot complete: tasks not done: T-001" in text_of(early)  # before asking
    assert not failed(result) and len(asked) == 1 and "Release the lock" in asked[0]


def test_a_yes_acts_on_the_workflow_asked_about_or_on_nothing(repo: Path, vg: VG) -> None:
    """The user says yes to "Abort 'alpha' (id)?"; the branch changes while
    the question is open: 'beta' is not aborted. Then 'alpha' ends meanwhile:
    nothing is done either."""
    git(repo, "switch", "-q", "-c", "alpha")
    assert vg("start", "alpha", "--goal", "a").code == 0
    git(repo, "switch", "-q", "-c", "beta")
    assert vg("start", "beta", "--goal", "b").code == 0
    git(repo, "switch", "-q", "alpha")
    before = subjects(repo)

    async def switch_then_yes(_question: str) -> Any:
        git(repo, "switch", "-q", "beta")
        return types.ElicitResult(action="accept", content={"confirm": True})

    result, asked = session(repo, switch_then_yes, [("abort", {})])
    said = text_of(result)
    assert len(asked) == 1 and "Abort the workflow 'alpha' (alpha-" in asked[0]
    assert failed(result) and "the user confirmed 'alpha' (alpha-" in said and "now names 'beta' (beta-" in said
    assert "nothing was done" in said
    assert subjects(repo) == before
    assert state_of(vg, "--workflow", "alpha")["workflow"]["status"] == "running"
    assert state_of(vg, "--workflow", "beta")["workflow"]["status"] == "running"

    git(repo, "switch", "-q", "alpha")

    async def fail_then_yes(_question: str) -> Any:
        assert vg("fail", "the disk broke", cwd=repo).code == 0
        return types.ElicitResult(action="accept", content={"confirm": True})

    result, asked = session(repo, fail_then_yes, [("unlock", {})])
    said = text_of(result)
    assert failed(result) and "the user confirmed 'alpha' (alpha-" in said and "it is failed now" in said, said
    assert "vibegit: unlock" not in subjects(repo)[0]
    assert state_of(vg, "--workflow", "beta")["workflow"]["status"] == "running"


def test_the_resident_server_reads_the_settings_again_when_a_file_changes(repo: Path, vg: VG, tmp_path: Path) -> None:
    """The server finds the repository once and keeps its settings while the
    files they come from stay as they were; an include is read every time."""
    start_workflow(vg)
    extra = tmp_path / "extra.cfg"

    async def use(client: ClientSession) -> list[str]:
        said = [text_of(await client.call_tool("status", {}))]
        git(repo, "config", "vibegit.lang", "zh")
        said.append(text_of(await client.call_tool("status", {})))
        git(repo, "config", "--unset", "vibegit.lang")
        said.append(text_of(await client.call_tool("status", {})))
        extra.write_text("[vibegit]\n\tlang = zh\n")
        git(repo, "config", "include.path", str(extra))
        said.append(text_of(await client.call_tool("status", {})))
        extra.write_text("[vibegit]\n\tlang = en\n")
        said.append(text_of(await client.call_tool("status", {})))
        return said

    said, _ = connected(repo, None, use)
    chinese = ["## 🔄 会话恢复" in text for text in said]
    assert chinese == [False, True, False, True, False], said


def test_every_error_is_one_clear_line(repo: Path, vg: VG) -> None:
    start_workflow(vg)
    phase, task, memory, no_such = session(
        repo,
        None,
        [
            ("phase", {"to": "Z"}),
            ("task_start", {"task_id": "T-404"}),
            ("memory_remove", {"entry_id": "M-999"}),
            ("status", {"workflow": "nope"}),
        ],
    )[:4]
    for result in (phase, task, memory, no_such):
        said = text_of(result)
        assert failed(result) and re.search(r"vibegit: \S", said), said
        assert "Traceback" not in said and said.count("\n") == 0, said


def test_without_the_sdk_one_line_and_exit_1(repo: Path) -> None:
    code = "import sys; sys.modules['mcp'] = None; from vibegit.main import main; sys.exit(main(['mcp']))"
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.strip() == "vibegit: vibegit mcp needs the MCP SDK: pip install 'vibegit-state[mcp]'"


def test_the_user_is_asked_in_chinese(repo: Path, vg: VG) -> None:
    git(repo, "config", "vibegit.lang", "zh")
    finished(vg)
    result, report, asked = session(repo, "decline", [("complete", {}), ("status", {})])
    assert failed(result) and "用户拒绝了：未记录任何内容" in text_of(result)
    assert len(asked) == 1 and "将工作流 'vibe-code'（vibe-code-" in asked[0]
    assert "## 🔄 会话恢复" in text_of(report)
    [cannot, _] = session(repo, None, [("abort", {})])
    assert failed(cannot) and "此客户端无法询问用户" in text_of(cannot)
