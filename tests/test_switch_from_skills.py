"""The issue's 'done when', in one story: a project with the skills' state
files committed switches to vibegit, works in Chinese, moves to a second
machine and back, and every step happens, with nothing learned lost and
nothing tracked overwritten without a word."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import (
    MIRROR,
    SKILL_KANBAN,
    SKILL_LOCK,
    SKILL_SESSION,
    Machines,
    clone,
    git,
    remote_with_laptop,
    run_git,
)


def test_from_the_skills_to_vibegit_in_chinese_across_two_machines(tmp_path: Path, m: Machines) -> None:
    remote, laptop = remote_with_laptop(tmp_path)
    mirror = laptop / MIRROR
    mirror.mkdir(parents=True)
    for name, text in (
        ("session.yaml", SKILL_SESSION),
        ("kanban.md", SKILL_KANBAN),
        ("workflow.lock", SKILL_LOCK),
        ("conventions.md", "# 约定\n- 禁止直接推送到 main\n- 函数必须有类型注解\n"),
    ):
        (mirror / name).write_text(text)
    git(laptop, "add", MIRROR)
    git(laptop, "commit", "-q", "-m", "the skills' state")
    git(laptop, "push", "-q", "origin", "main")
    git(laptop, "config", "vibegit.lang", "zh")

    status = m.ok("laptop", laptop, "status").out
    assert "vibe-code" in status and "'vibegit adopt'" in status
    adopted = m.ok("laptop", laptop, "adopt")
    assert "已从" in adopted.out and "已按 vibegit 格式重写" in adopted.out and "## 🔄 会话恢复" in adopted.out
    assert (mirror / "kanban.md").read_text().startswith("# 看板")
    m.ok("laptop", laptop, "install")
    m.ok("laptop", laptop, "context", "--question", "会话存在哪里？")
    m.ok("laptop", laptop, "pause")
    m.ok("laptop", laptop, "sync")

    desktop = clone(remote, tmp_path / "desktop")
    git(desktop, "config", "vibegit.lang", "zh")
    resumed = m.ok("desktop", desktop, "resume")
    assert "已从 laptop:" in resumed.out and "接管工作流" in resumed.out and "正在安装 vibegit 的钩子" in resumed.out
    assert "## 🔄 会话恢复" in resumed.out
    assert "重写了它们" in resumed.err and "git rm -r --cached" in resumed.err  # the tracked copies: said
    assert (desktop / MIRROR / "conventions.md").exists()
    (desktop / "x.txt").write_text("x\n")
    git(desktop, "add", "x.txt")
    blocked = run_git(desktop, "commit", "-q", "-m", "x")
    assert blocked.code != 0 and "提交被阻止" in blocked.err
    m.ok("desktop", desktop, "context", "--answer", "1", "--reply", "Postgres")  # the skill's own question
    m.ok("desktop", desktop, "context", "--answer", "2", "--reply", "Redis")
    m.ok("desktop", desktop, "task", "done", "T-002")
    m.ok("desktop", desktop, "task", "start", "T-003")
    m.ok("desktop", desktop, "task", "done", "T-003")
    m.ok("desktop", desktop, "sync")

    m.ok("laptop", laptop, "sync")
    taken = m.ok("laptop", laptop, "resume")
    assert "已从 desktop:" in taken.out and "接管工作流" in taken.out
    done = m.ok("laptop", laptop, "complete", "--yes", "--lesson", "会话放在 Redis")
    for part in (
        "## ✅ 工作流完成报告：vibe-code",
        "会话存在哪里？ → Redis",
        "用哪个数据库？ → Postgres",
        "- ✅ T-002: 实现登录API",
        "- E 4.3",
    ):
        assert part in done.out, part
    memory = {e["text"]: e["category"] for e in json.loads(m.ok("laptop", laptop, "memory", "list", "--json").out)}
    assert memory["禁止直接推送到 main"] == "forbidden_action"  # learned on adopt, never lost on the way
    assert memory["函数必须有类型注解"] == "project_knowledge"
    assert "会话放在 Redis" in memory and "会话存在哪里？ → Redis" in memory
    m.ok("laptop", laptop, "sync")
    m.ok("desktop", desktop, "sync")
    desktop_memory = {e["text"] for e in json.loads(m.ok("desktop", desktop, "memory", "list", "--json").out)}
    assert set(memory) == desktop_memory
