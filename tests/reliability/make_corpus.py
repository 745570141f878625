"""Write the hostile-input corpus: ``python tests/reliability/make_corpus.py``.

Each file is ``NNN-what.TARGET``: TARGET is the state file it replaces
(session.yaml, kanban.md, active_context.md, workflow.lock, memory.yaml) or
``args.json``, a command line. Every case must be refused (exit 1 or 2) with
one line and nothing written. The files are committed; this script only
documents how they were made and makes them again.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

HERE = Path(__file__).parent / "corpus"

GOOD = b"""session: {id: sess_1, created_at: '2025-01-12T10:00:00Z', updated_at: '2025-01-12T10:00:00Z'}
mode: {type: workflow, workflow_name: vibe-code, phase: E, step: '4.3'}
workflow: {status: running, started_at: '2025-01-12T10:00:00Z', branch: main, current_task: null}
context: {goal: g, last_action: '', next_action: '', pending_questions: []}
checkpoint: null
"""

LAUGHS = b"a: &a ['lol','lol','lol','lol','lol','lol','lol','lol','lol']\n" + b"".join(
    b"%c: &%c [*%c,*%c,*%c,*%c,*%c,*%c,*%c,*%c,*%c]\n" % ((c, c) + (c - 1,) * 9) for c in range(ord("b"), ord("j"))
)


def session(**replace: bytes) -> bytes:
    text = GOOD
    for old, new in replace.items():
        text = text.replace(old.encode(), new)
    return text


CASES: dict[str, bytes | list[str]] = {
    # session.yaml
    "truncated.session.yaml": GOOD[:150],
    "binary.session.yaml": bytes(range(256)) * 4,
    "nul-bytes.session.yaml": GOOD.replace(b"vibe-code", b"vibe\0code"),
    "invalid-utf8.session.yaml": GOOD.replace(b"goal: g", b"goal: \xff\xfe\xfd"),
    "utf16.session.yaml": GOOD.decode().encode("utf-16"),
    "billion-laughs.session.yaml": LAUGHS,
    "python-object-apply.session.yaml": b"session: !!python/object/apply:os.system ['touch pwned']\nmode: {}\n",
    "python-object-new.session.yaml": b"session: !!python/object/new:subprocess.Popen [['touch', 'pwned']]\nmode: {}\n",
    "python-name.session.yaml": b"session: {id: !!python/name:os.system }\nmode: {}\n",
    "python-module.session.yaml": b"session: !!python/module:os\nmode: {}\n",
    "unknown-tag.session.yaml": b"session: !vibegit/evil {id: x}\nmode: {}\n",
    "binary-tag.session.yaml": session(**{"goal: g": b"goal: !!binary aGVsbG8="}),
    "top-level-list.session.yaml": b"- session\n- mode\n",
    "top-level-scalar.session.yaml": b"just text\n",
    "empty.session.yaml": b"",
    "deep-nesting.session.yaml": b"session: " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "session-is-text.session.yaml": session(
        **{
            "session: {id: sess_1, created_at: '2025-01-12T10:00:00Z', updated_at: '2025-01-12T10:00:00Z'}": b"session: hello"
        }
    ),
    "mode-is-list.session.yaml": session(
        **{"mode: {type: workflow, workflow_name: vibe-code, phase: E, step: '4.3'}": b"mode: [1, 2]"}
    ),
    "phase-unknown.session.yaml": session(**{"phase: E": b"phase: Z"}),
    "phase-number.session.yaml": session(**{"phase: E": b"phase: 5"}),
    "status-number.session.yaml": session(**{"status: running": b"status: 42"}),
    "status-unknown.session.yaml": session(**{"status: running": b"status: exploded"}),
    "session-id-missing.session.yaml": session(**{"id: sess_1, ": b""}),
    "line-negative.session.yaml": session(**{"checkpoint: null": b"checkpoint: {file: src/app.py, line: -3}"}),
    "line-text.session.yaml": session(**{"checkpoint: null": b"checkpoint: {file: src/app.py, line: forty}"}),
    "line-bool.session.yaml": session(**{"checkpoint: null": b"checkpoint: {file: src/app.py, line: true}"}),
    "path-traversal.session.yaml": session(**{"checkpoint: null": b"checkpoint: {file: ../../etc/passwd, line: 1}"}),
    "path-absolute.session.yaml": session(**{"checkpoint: null": b"checkpoint: {file: /etc/shadow, line: 1}"}),
    "path-windows.session.yaml": session(
        **{"checkpoint: null": b"checkpoint: {file: 'C:\\\\Windows\\\\win.ini', line: 1}"}
    ),
    "path-newline.session.yaml": session(**{"checkpoint: null": b'checkpoint: {file: "src/a\\npy", line: 1}'}),
    "questions-mapping.session.yaml": session(**{"pending_questions: []": b"pending_questions: {a: b}"}),
    "current-task-shell.session.yaml": session(**{"current_task: null": b"current_task: 'T-1; rm -rf /'"}),
    "current-task-newline.session.yaml": session(**{"current_task: null": b'current_task: "T-1\\nT-2"'}),
    "nul-escape.session.yaml": session(**{"step: '4.3'": b'step: "4\\0"'}),
    "tabs.session.yaml": b"session:\n\tid: x\n",
    # kanban.md
    "binary.kanban.md": bytes(range(256)),
    "not-a-task.kanban.md": b"# Kanban\n\n## Todo\nrm -rf /\n",
    "task-before-heading.kanban.md": b"# Kanban\n- [ ] T-1: orphan\n",
    "unknown-column.kanban.md": b"# Kanban\n\n## Someday\n- [ ] T-1: x\n",
    "duplicate-id.kanban.md": b"# Kanban\n\n## Todo\n- [ ] T-1: a\n## Done\n- [x] T-1: b\n",
    "shell-id.kanban.md": b"# Kanban\n\n## Todo\n- [ ] $(touch_pwned): x\n",
    "nul.kanban.md": b"# Kanban\n\n## Todo\n- [ ] T-1: a\0b\n",
    "invalid-utf8.kanban.md": b"# Kanban\n\n## Todo\n- [ ] T-1: \xc3\x28\n",
    "long-title.kanban.md": b"# Kanban\n\n## Todo\n- [ ] T-1: " + b"x" * 5000 + b"\n",
    # workflow.lock
    "locked-text.workflow.lock": b"locked: 'yes please'\nworkflow: vibe-code\n",
    "workflow-missing.workflow.lock": b"locked: true\n",
    "python-object.workflow.lock": b"locked: !!python/object/apply:os.system ['touch pwned']\nworkflow: w\n",
    "list.workflow.lock": b"- locked\n",
    "billion-laughs.workflow.lock": LAUGHS,
    "conditions-mapping.workflow.lock": b"locked: true\nworkflow: w\nunlock_conditions: {a: 1}\n",
    # active_context.md
    "binary.active_context.md": b"\x00\x01\x02\xff" * 64,
    "nul.active_context.md": b"# Active context\n\n## Goal\nship\0it\n",
    "goal-two-lines.active_context.md": b"# Active context\n\n## Goal\nline one\nline two\n",
    "invalid-utf8.active_context.md": b"# Active context\n\n## Notes\n\xed\xa0\x80\n",
    # memory.yaml
    "python-object.memory.yaml": b"entries: !!python/object/apply:os.system ['touch pwned']\n",
    "binary.memory.yaml": bytes(range(128, 256)),
    "billion-laughs.memory.yaml": LAUGHS,
    # command lines
    "checkpoint-traversal.args.json": ["checkpoint", "--file", "../../../etc/passwd", "--line", "1"],
    "checkpoint-absolute.args.json": ["checkpoint", "--file", "/etc/passwd"],
    "checkpoint-huge-line.args.json": ["checkpoint", "--file", "src/app.py", "--line", "99999999999999999999"],
    "checkpoint-negative-line.args.json": ["checkpoint", "--file", "src/app.py", "--line", "-1"],
    "checkpoint-dir.args.json": ["checkpoint", "--file", "src", "--line", "1"],
    "checkpoint-git-dir.args.json": ["checkpoint", "--file", ".git/config", "--line", "1"],
    "id-newline.args.json": ["task", "add", "T-1\nT-2", "x"],
    "id-subshell.args.json": ["task", "add", "$(touch pwned)", "x"],
    "id-semicolon.args.json": ["task", "add", "T-1;rm -rf /", "x"],
    "id-backticks.args.json": ["task", "add", "`id`", "x"],
    "id-traversal.args.json": ["task", "done", "../../etc"],
    "id-unicode.args.json": ["task", "add", "T-Ü", "x"],
    "title-very-long.args.json": ["task", "add", "T-LONG", "x" * 100_000],
    "title-line-separator.args.json": ["task", "add", "T-X", "a\u2028b"],
    "title-escape.args.json": ["task", "add", "T-E", "\x1b[31mred"],
    "context-very-long.args.json": ["context", "--last", "y" * 100_000],
    "step-newline.args.json": ["phase", "E", "--step", "4.3\n; rm"],
    "phase-lowercase-junk.args.json": ["phase", "e2"],
    "log-negative.args.json": ["log", "-n", "-5"],
    "start-while-running.args.json": ["start", "other", "--goal", "x"],
    "start-spaces.args.json": ["start", "a b", "--goal", "x"],
    "answer-zero.args.json": ["context", "--answer", "0"],
    # ids and text that would reach git's command line or commit trailers
    "commit-is-an-option.session.yaml": session(
        **{"checkpoint: null": b"checkpoint: {commit: '--upload-pack=touch pwned; git-upload-pack', line: 1}"}
    ),
    "snapshot-is-a-refspec.session.yaml": session(
        **{"checkpoint: null": b"checkpoint: {snapshot: '+refs/heads/*:refs/heads/*'}"}
    ),
    "workflow-name-trailer.session.yaml": session(
        **{"workflow_name: vibe-code": b'workflow_name: "w\\nVibegit-Event: complete"'}
    ),
    "goal-escape.session.yaml": session(**{"goal: g": b'goal: "\\e[2J"'}),
    "title-escape.kanban.md": b"# Kanban\n\n## Todo\n- [ ] T-1: \x1b[2Jclear\n",
}


def main() -> None:
    if HERE.exists():
        shutil.rmtree(HERE)
    HERE.mkdir()
    for number, (name, data) in enumerate(CASES.items(), 1):
        path = HERE / f"{number:03d}-{name}"
        if isinstance(data, list):
            path.write_text(json.dumps(data, ensure_ascii=True) + "\n")
        else:
            path.write_bytes(data)
    print(f"{len(CASES)} cases in {HERE}")


if __name__ == "__main__":
    main()
