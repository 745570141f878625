"""Lifecycle hook commands: configured locally, run with the event as
JSON on stdin and VIBEGIT_* variables, never from the state branch; the
project's .vibegit/hooks.yaml only once the user trusts it."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.helpers import VG, git, subjects, trust_hooks
from vibegit.core.messages import t
from vibegit.infra import userhooks

PY = sys.executable


def dump_hook(out: Path) -> str:
    """A hook command that appends its stdin and environment to ``out``."""
    script = (
        "import json,os,sys; d=json.load(sys.stdin); "
        "d['env']={k:v for k,v in os.environ.items() if k.startswith('VIBEGIT_')}; d['cwd']=os.getcwd(); "
        f"open({str(out)!r},'a').write(json.dumps(d)+chr(10))"
    )
    return f'"{PY}" -c "{script}"'


def seen(out: Path) -> list[dict]:
    return [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []


def test_on_task_complete_receives_the_event_json(repo: Path, vg: VG, tmp_path: Path) -> None:
    out = tmp_path / "hook.jsonl"
    git(repo, "config", "vibegit.hook.onTaskComplete", dump_hook(out))
    assert vg("start", "vibe-code", "--goal", "Auth").code == 0
    assert vg("task", "add", "T-001", "Data model").code == 0
    assert vg("task", "start", "T-001").code == 0
    assert seen(out) == []
    result = vg("task", "done", "T-001")
    assert result.code == 0
    assert "hook onTaskComplete ok" in result.err
    [event] = seen(out)
    state_tip = git(repo, "rev-parse", "refs/heads/vibegit/state")
    assert event["hook"] == "onTaskComplete" and event["event"] == "task-done"
    assert event["task"] == "T-001" and event["workflow"] == "vibe-code" and event["phase"] == "R1"
    assert event["commit"] == state_tip and event["progress"] == {"done": 1, "total": 1}
    assert event["env"] | {"VIBEGIT_HOOK_RUNNING": "1"} == {
        "VIBEGIT_HOOK": "onTaskComplete",
        "VIBEGIT_EVENT": "task-done",
        "VIBEGIT_WORKFLOW": "vibe-code",
        "VIBEGIT_PHASE": "R1",
        "VIBEGIT_TASK": "T-001",
        "VIBEGIT_COMMIT": state_tip,
        "VIBEGIT_STATUS": "running",
        "VIBEGIT_FILE": "",
        "VIBEGIT_LESSON": "",
        "VIBEGIT_HOOK_RUNNING": "1",
    }
    assert Path(event["cwd"]).resolve() == repo.resolve()


def test_a_hooks_git_commands_meet_vibegits_hooks(
    repo: Path, vg: VG, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run from a git hook of vibegit's (post-rewrite records an event), vibegit
    carries its in-hook marker; the user's command must not inherit it: its
    own git push is the user's, scanned by the pre-push hook like any other."""
    out = tmp_path / "hook.jsonl"
    git(repo, "config", "vibegit.hook.onTaskComplete", dump_hook(out))
    assert vg("start", "vibe-code", "--goal", "Auth").code == 0
    assert vg("task", "add", "T-001", "Data model").code == 0
    monkeypatch.setenv("VIBEGIT_IN_HOOK", "1")
    assert vg("task", "done", "T-001").code == 0
    [event] = seen(out)
    assert "VIBEGIT_IN_HOOK" not in event["env"]


def test_events_map_to_the_skills_hooks(repo: Path, vg: VG, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "hook.jsonl"
    (repo / ".vibegit").mkdir()
    (repo / ".vibegit" / "hooks.yaml").write_text(
        "".join(
            f"{name}: {json.dumps(dump_hook(out))}\n" for name in userhooks.HOOK_NAMES if name != "onBeforeComplete"
        )
    )
    trust_hooks(vg, monkeypatch)
    for args in (
        ("start", "w", "--goal", "g"),
        ("phase", "P"),
        ("task", "add", "T-1", "x"),
        ("task", "start", "T-1"),
        ("checkpoint",),
        ("pause",),
        ("resume",),
        ("task", "done", "T-1"),
        ("complete", "--yes", "--lesson", "Small steps"),
    ):
        assert vg(*args).code == 0, args
    assert vg("start", "w2", "--goal", "g").code == 0
    assert vg("fail", "it broke").code == 0
    (repo / "README.md").write_text("# Rules\n- One\n- Two\n")
    assert vg("learn").code == 0
    got = [(e["hook"], e["event"], e["env"]["VIBEGIT_PHASE"]) for e in seen(out)]
    assert got == [
        ("onInit", "start", "R1"),
        ("onContextLoad", "start", "R1"),
        ("onMemoryLoad", "start", "R1"),
        ("onPhaseEnter", "start", "R1"),
        ("onPhaseExit", "phase", "R1"),
        ("onPhaseEnter", "phase", "P"),
        ("onTodoUpdate", "task-add", "P"),
        ("onTaskStart", "task-start", "P"),
        ("onTodoUpdate", "task-start", "P"),
        ("onCheckpoint", "checkpoint", "P"),
        ("onPause", "pause", "P"),
        ("onCheckpoint", "pause", "P"),
        ("onResume", "resume", "P"),
        ("onContextLoad", "resume", "P"),
        ("onMemoryLoad", "resume", "P"),
        ("onTaskComplete", "task-done", "P"),
        ("onTodoUpdate", "task-done", "P"),
        ("onComplete", "complete", "P"),
        ("onLearn", "complete", "P"),
        ("onInit", "start", "R1"),
        ("onContextLoad", "start", "R1"),
        ("onMemoryLoad", "start", "R1"),
        ("onPhaseEnter", "start", "R1"),
        ("onError", "fail", "R1"),
        ("onDocChange", "learn", ""),
        ("onLearn", "learn", ""),
        ("onLearn", "learn", ""),
    ]
    assert {name for name, _, _ in got} | {"onBeforeComplete"} == set(userhooks.HOOK_NAMES)  # all sixteen
    events = seen(out)
    assert events[18]["lesson"] == "Small steps" and events[18]["env"]["VIBEGIT_LESSON"] == "Small steps"
    assert events[24]["file"] == "README.md" and events[24]["env"]["VIBEGIT_FILE"] == "README.md"
    assert [e["lesson"] for e in events[25:]] == ["One", "Two"]
    assert events[4]["previous_phase"] == "R1"


def test_a_failing_before_complete_keeps_the_workflow_running(repo: Path, vg: VG) -> None:
    git(repo, "config", "vibegit.hook.onBeforeComplete", "echo 'FAILED test_login'; exit 3")
    assert vg("start", "w", "--goal", "g").code == 0
    before = subjects(repo)
    result = vg("complete", "--yes", "--no-tasks")
    assert result.code == 1
    assert "FAILED test_login" in result.err
    assert "onBeforeComplete" in result.err and "exit 3" in result.err and "keeps running" in result.err
    assert subjects(repo) == before
    assert json.loads(vg("status", "--json").out)["workflow"]["status"] == "running"
    git(repo, "config", "vibegit.hook.onBeforeComplete", "true")
    assert vg("complete", "--yes", "--no-tasks").code == 0


def test_another_failing_hook_is_reported_and_recorded_and_the_event_kept(repo: Path, vg: VG) -> None:
    git(repo, "config", "vibegit.hook.onTaskStart", "echo boom >&2; exit 7")
    assert vg("start", "w", "--goal", "g").code == 0
    assert vg("task", "add", "T-1", "x").code == 0
    result = vg("task", "start", "T-1")
    assert result.code == 0
    assert "hook onTaskStart (echo boom >&2; exit 7) failed with exit 7: boom" in result.err
    assert subjects(repo)[:2] == [subjects(repo)[0], subjects(repo)[1]]
    assert subjects(repo)[0].startswith("vibegit: hook-failed onTaskStart")
    assert subjects(repo)[1].startswith("vibegit: task-start T-1")
    body = git(repo, "log", "-1", "--format=%B", "refs/heads/vibegit/state")
    assert "Vibegit-Hook: onTaskStart" in body and "Vibegit-Hook-Exit: 7" in body
    assert json.loads(vg("status", "--json").out)["workflow"]["current_task"] == "T-1"


def test_a_hook_that_hangs_is_stopped_at_the_timeout(repo: Path, vg: VG) -> None:
    git(repo, "config", "vibegit.hook.onInit", "sleep 30")
    git(repo, "config", "vibegit.hookTimeout", "0.5")
    result = vg("start", "w", "--goal", "g")
    assert result.code == 0
    assert "timed out after 0.5s" in result.err
    assert subjects(repo)[0].startswith("vibegit: hook-failed onInit")


def test_a_hook_calling_vibegit_does_not_run_hooks_again(
    repo: Path, vg: VG, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "hook.jsonl"
    (repo / ".vibegit").mkdir()
    (repo / ".vibegit" / "hooks.yaml").write_text(
        f"onCheckpoint:\n  - {json.dumps(dump_hook(out))}\n  - '\"{PY}\" -m vibegit checkpoint --action again'\n"
    )
    trust_hooks(vg, monkeypatch)
    assert vg("start", "w", "--goal", "g").code == 0
    assert vg("checkpoint").code == 0
    assert len(seen(out)) == 1  # the nested checkpoint was recorded without running hooks
    assert [s.split()[1] for s in subjects(repo)[:2]] == ["checkpoint", "checkpoint"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("onTaskDone: make test\n", ".vibegit/hooks.yaml:1: unknown hook 'onTaskDone'"),
        ("onInit: [1, 2]\n", ".vibegit/hooks.yaml:1: onInit: expected a command"),
        ("timeout: soon\n", ".vibegit/hooks.yaml:1: timeout: 'soon' is not a number"),
        ("onInit: 'x'\n  bad: [\n", ".vibegit/hooks.yaml:"),
    ],
)
def test_a_broken_hooks_file_cannot_be_trusted(
    repo: Path, vg: VG, text: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo / ".vibegit").mkdir()
    (repo / ".vibegit" / "hooks.yaml").write_text(text)
    monkeypatch.setenv("VIBEGIT_TRUST", "yes")
    result = vg("trust", "--yes")
    assert result.code == 2 and message in result.err, result.err
    assert not (Path(os.environ["XDG_DATA_HOME"]) / "vibegit" / "trust").exists()
    started = vg("start", "w", "--goal", "g")  # untrusted, so never parsed: it cannot stop vibegit either
    assert started.code == 0 and "not trusted" in started.err


def test_unknown_git_config_hook_is_exit_2(repo: Path, vg: VG) -> None:
    git(repo, "config", "vibegit.hook.onTaskDone", "make test")
    result = vg("start", "w", "--goal", "g")
    assert result.code == 2 and "git config vibegit.hook.ontaskdone: unknown hook" in result.err


def test_git_config_wins_over_the_file_and_an_empty_value_switches_it_off(
    repo: Path, vg: VG, monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo / ".vibegit").mkdir()
    (repo / ".vibegit" / "hooks.yaml").write_text("onInit: exit 9\nonPhaseEnter: exit 8\n")
    trust_hooks(vg, monkeypatch)
    git(repo, "config", "vibegit.hook.oninit", "true")
    git(repo, "config", "vibegit.hook.onPhaseEnter", "")
    result = vg("start", "w", "--goal", "g")
    assert result.code == 0 and "failed" not in result.err


def test_nothing_on_the_state_branch_is_executed(repo: Path, vg: VG, tmp_path: Path) -> None:
    """A hooks file committed to the state branch (or written into the mirror) is never run."""
    marker = tmp_path / "ran"
    assert vg("start", "w", "--goal", "g").code == 0
    blob = git(repo, "hash-object", "-w", "--stdin", input=f"onTaskStart: touch {marker}\n")
    tip = git(repo, "rev-parse", "refs/heads/vibegit/state")
    tree = git(repo, "mktree", input=git(repo, "ls-tree", tip) + f"\n100644 blob {blob}\thooks.yaml\n")
    git(repo, "update-ref", "refs/heads/vibegit/state", git(repo, "commit-tree", tree, "-p", tip, "-m", "x"))
    mirror = repo / "project_document" / ".ai_state"
    (mirror / ".vibegit").mkdir()
    (mirror / ".vibegit" / "hooks.yaml").write_text(f"onTaskStart: touch {marker}\n")
    assert vg("task", "add", "T-1", "x").code == 0
    assert vg("task", "start", "T-1").code == 0
    assert not marker.exists()


MARKER_HOOKS = "onInit: touch {marker}\nonTaskStart: touch {marker}\n"


def hooks_file(repo: Path, text: str) -> Path:
    (repo / ".vibegit").mkdir(exist_ok=True)
    path = repo / ".vibegit" / "hooks.yaml"
    path.write_text(text)
    return path


def test_an_untrusted_hooks_file_is_skipped_with_one_line(repo: Path, vg: VG, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    hooks_file(repo, MARKER_HOOKS.format(marker=marker))
    result = vg("start", "w", "--goal", "g")
    assert result.code == 0 and not marker.exists()
    said = [line for line in result.err.splitlines() if "not trusted" in line]
    assert said == ["vibegit: " + t("trust.skipped", "en", file=userhooks.HOOKS_FILE)]
    assert "run 'vibegit trust' after reading it" in said[0]
    assert "not trusted" not in vg("context", "--next", "x").err  # an event without hooks says nothing


def test_trust_shows_the_commands_records_them_and_a_change_needs_trust_again(
    repo: Path, vg: VG, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "ran"
    path = hooks_file(repo, MARKER_HOOKS.format(marker=marker))
    shown = trust_hooks(vg, monkeypatch).out
    assert f"onInit: touch {marker}" in shown and f"onTaskStart: touch {marker}" in shown
    entries = list((Path(os.environ["XDG_DATA_HOME"]) / "vibegit" / "trust").iterdir())
    [entry] = entries
    record = json.loads(entry.read_text())
    assert record["repository"] == str(repo) and record["file"] == ".vibegit/hooks.yaml"
    assert record["commands"]["onInit"] == [f"touch {marker}"] and len(record["sha256"]) == 64
    assert str(entry) in shown and not str(entry).startswith(str(repo))
    assert vg("start", "w", "--goal", "g").code == 0 and marker.exists()
    marker.unlink()
    path.write_text(MARKER_HOOKS.format(marker=marker) + "onPause: touch elsewhere\n")  # a pull, a checkout
    assert vg("task", "add", "T-1", "x").code == 0
    result = vg("task", "start", "T-1")
    assert "not trusted" in result.err and not marker.exists()
    assert "Trusted:" in trust_hooks(vg, monkeypatch).out
    assert "Already trusted" in trust_hooks(vg, monkeypatch).out
    assert vg("task", "add", "T-2", "y").code == 0
    assert vg("task", "start", "T-2").code == 0 and marker.exists()
    marker.unlink()
    forgot = vg("untrust")
    assert forgot.code == 0 and "Forgot 2 trusted version(s)" in forgot.out
    assert list((Path(os.environ["XDG_DATA_HOME"]) / "vibegit" / "trust").iterdir()) == []
    assert vg("task", "add", "T-3", "z").code == 0
    assert "not trusted" in vg("task", "start", "T-3").err and not marker.exists()


@pytest.mark.parametrize(
    "how, env",
    [
        ("--yes without VIBEGIT_TRUST", {}),
        ("--yes with VIBEGIT_TRUST=1", {"VIBEGIT_TRUST": "1"}),
        ("no terminal", {}),
        ("an agent's shell", {"CLAUDECODE": "1"}),
        ("an agent's shell", {"GEMINI_CLI": "1"}),
        ("--yes in an agent's shell that set VIBEGIT_TRUST", {"CODEX_THREAD_ID": "019a", "VIBEGIT_TRUST": "yes"}),
    ],
)
def test_an_agent_cannot_trust_for_the_user(
    repo: Path, vg: VG, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str, env: dict[str, str]
) -> None:
    marker = tmp_path / "ran"
    hooks_file(repo, MARKER_HOOKS.format(marker=marker))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    args = ("trust", "--yes") if how.startswith("--yes") else ("trust",)
    if how == "an agent's shell":  # even with a terminal, and a "y" waiting on it
        result = vg(*args, stdin=Terminal("y\n"))
    else:
        result = vg(*args, input="y\n")
    assert result.code == 1 and len(result.err.strip().splitlines()) == 1, result.err
    assert "nothing recorded" in result.err
    assert not (Path(os.environ["XDG_DATA_HOME"]) / "vibegit").exists()
    assert vg("start", "w", "--goal", "g").code == 0 and not marker.exists()


class Terminal:
    """A stdin that says it is a terminal (a person typing)."""

    def __init__(self, text: str) -> None:
        import io

        self._io = io.StringIO(text)

    def isatty(self) -> bool:
        return True

    def readline(self) -> str:
        return self._io.readline()


def test_a_person_at_a_terminal_trusts_by_answering(
    repo: Path, vg: VG, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "ran"
    hooks_file(repo, MARKER_HOOKS.format(marker=marker))
    declined = vg("trust", stdin=Terminal("n\n"))
    assert declined.code == 1 and "not trusted" in declined.err
    accepted = vg("trust", stdin=Terminal("y\n"))
    assert accepted.code == 0 and "Trusted" in accepted.out and "[y/N]" in accepted.err
    assert vg("start", "w", "--goal", "g").code == 0 and marker.exists()


def test_a_hooks_file_reached_through_a_link_is_never_run(
    repo: Path, vg: VG, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "ran"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "hooks.yaml").write_text(MARKER_HOOKS.format(marker=marker))
    (repo / ".vibegit").symlink_to(elsewhere, target_is_directory=True)
    monkeypatch.setenv("VIBEGIT_TRUST", "yes")
    refused = vg("trust", "--yes")
    assert refused.code == 2 and "symbolic link" in refused.err
    result = vg("start", "w", "--goal", "g")
    assert result.code == 0 and "not run" in result.err and "symbolic link" in result.err and not marker.exists()


def test_a_command_hiding_a_control_character_cannot_be_trusted(
    repo: Path, vg: VG, monkeypatch: pytest.MonkeyPatch
) -> None:
    hooks_file(repo, 'onInit: "echo hi\\rrm -rf ~"\n')
    monkeypatch.setenv("VIBEGIT_TRUST", "yes")
    result = vg("trust", "--yes")
    assert result.code == 2 and ".vibegit/hooks.yaml:1" in result.err and "control" in result.err
