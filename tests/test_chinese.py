"""vibegit.lang zh (or --lang zh): the state files, the reports and the
command messages in Chinese as the skills write them, end to end."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import MIRROR, VG, bare_origin, git, run_git, workflow_path


def test_a_workflow_in_chinese_end_to_end(repo: Path, vg: VG) -> None:
    git(repo, "config", "vibegit.lang", "zh")
    started = vg("start", "vibe-code", "--goal", "实现用户认证")
    assert started.code == 0 and "已为 'vibe-code'" in started.out and "阶段 R1" in started.out
    assert vg("task", "add", "T-001", "数据模型").code == 0
    assert vg("task", "start", "T-001").code == 0
    assert vg("phase", "E", "--step", "4.3").code == 0
    (repo / "a.py").write_text("x = 1\n")
    assert vg("checkpoint", "--file", "a.py", "--line", "1", "--action", "写模型").code == 0
    mirror = repo / MIRROR
    assert (mirror / "session.yaml").read_text().startswith("# vibegit 会话状态")
    assert "工作流进行中" in (mirror / "workflow.lock").read_text()
    kanban = (mirror / "kanban.md").read_text()
    assert kanban.startswith("# 看板") and "## 进行中\n- [~] T-001: 数据模型" in kanban
    assert "## 目标\n实现用户认证" in (mirror / "active_context.md").read_text()
    checkpoint = (mirror / "checkpoint.md").read_text()
    assert checkpoint.startswith("# 断点信息") and "- 阶段: E，步骤 4.3" in checkpoint
    assert "# 看板" in git(repo, "show", workflow_path(repo, "kanban.md"))

    report = vg("status").out
    for heading in ("## 🔄 会话恢复", "### 当前状态", "### 上次进展", "### 下一步", "### 断点位置"):
        assert heading in report, heading
    refused = vg("complete", "--yes")
    assert refused.code == 1 and "无法完成：任务未完成：T-001" in refused.err
    bad = vg("task", "start", "T-404")
    assert bad.code == 2 and "未知任务 'T-404'" in bad.err

    assert vg("install").code == 0
    (repo / "b.txt").write_text("b\n")
    git(repo, "add", "b.txt")
    blocked = run_git(repo, "commit", "-q", "-m", "b")
    assert blocked.code != 0 and "提交被阻止" in blocked.err and "工作流 'vibe-code' 持有" in blocked.err
    assert "'vibegit pause'、'vibegit unlock' 或 'vibegit abort'" in blocked.err and " or " not in blocked.err
    assert "你的提交信息保存在提交 " in blocked.err

    assert "待解决问题 1：用哪个数据库？" in vg("context", "--question", "用哪个数据库？").out
    assert vg("context", "--answer", "1", "--reply", "Postgres").code == 0
    assert vg("task", "done", "T-001").code == 0
    done = vg("complete", "--yes")
    assert done.code == 0
    for part in ("## ✅ 工作流完成报告：vibe-code", "### 目标", "### 耗时", "### 决策", "用哪个数据库？ → Postgres"):
        assert part in done.out, part
    assert "锁已释放" in done.out
    assert (mirror / "completion.md").read_text().startswith("## ✅ 工作流完成报告")


def test_lang_on_the_command_line_wins_and_english_stays_the_default(repo: Path, vg: VG) -> None:
    started = vg("start", "w", "--goal", "g")
    assert "Lock taken for 'w'" in started.out
    assert (repo / MIRROR / "kanban.md").read_text().startswith("# Kanban")
    assert "## 🔄 会话恢复" in vg("status", "--lang", "zh").out
    refused = vg("--lang", "zh", "start", "x", "--goal", "g")
    assert refused.code == 1 and "无法在此开始工作流" in refused.err
    git(repo, "config", "vibegit.lang", "zh")
    assert "## 🔄 Session recovery" in vg("status", "--lang", "en").out


def test_sync_speaks_chinese(repo: Path, vg: VG, tmp_path: Path) -> None:
    bare_origin(repo, tmp_path)
    git(repo, "config", "vibegit.lang", "zh")
    assert vg("memory", "add", "user_preference", "用中文回答").code == 0
    pushed = vg("sync")
    assert pushed.code == 0 and "已将 vibegit/state 推送到 origin" in pushed.out
    assert "与 origin 一致" in vg("sync").out


def test_trust_and_untrust_speak_chinese(repo: Path, vg: VG, monkeypatch: pytest.MonkeyPatch) -> None:
    git(repo, "config", "vibegit.lang", "zh")
    (repo / ".vibegit").mkdir()
    (repo / ".vibegit" / "hooks.yaml").write_text("onInit: echo hi\ntimeout: 5\n")
    skipped = vg("start", "w", "--goal", "g")
    assert skipped.code == 0 and "vibegit: .vibegit/hooks.yaml：未信任：阅读后执行 'vibegit trust'" in skipped.err
    asked = vg("trust", input="y\n")  # no terminal to answer on
    assert asked.code == 1 and "不询问：没有可回答的终端" in asked.err and "未记录任何内容" in asked.err
    assert "会在 vibegit 的生命周期事件中运行这些命令：" in asked.out and "  超时：5s" in asked.out
    monkeypatch.setenv("VIBEGIT_TRUST", "yes")
    trusted = vg("trust", "--yes")
    assert trusted.code == 0 and "已信任：这些命令可以在此运行" in trusted.out
    assert "已信任；没有任何改变。" in vg("trust", "--yes").out
    forgot = vg("untrust")
    assert forgot.code == 0 and "已忘记此处 .vibegit/hooks.yaml 的 1 个已信任版本" in forgot.out
    assert "无需忘记" in vg("untrust").out


def test_secrets_speaks_chinese(repo: Path, vg: VG) -> None:
    git(repo, "config", "vibegit.lang", "zh")
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    assert "没有疑似凭据的值" in vg("secrets", "check").out
    (repo / "conf.env").write_text(
        "AWS_ACCESS_KEY_ID=" + "AKIA" + "Z7Q2M4X8R6T1W3YP\n"
    )  # put together: no key in the source
    assert vg("checkpoint").code == 0
    found = vg("secrets", "check")
    assert found.code == 1 and "vibegit/state 将发布的内容中有 1 个值疑似凭据" in found.err
    assert "conf.env:1：疑似 " in found.err
    assert "未推送任何内容" not in found.err  # check pushes nothing: it does not say so
    fp = found.err.split("指纹 ", 1)[1].split()[0]
    bad = vg("secrets", "allow", "not-a-fingerprint")
    assert bad.code == 2 and "不是指纹" in bad.err
    assert "已在 .vibegit/secrets-allow 中放行" in vg("secrets", "allow", fp).out
    assert "已在 .vibegit/secrets-allow 中放行。" in vg("secrets", "allow", fp).out
    assert vg("secrets", "check").code == 0


def test_doctor_speaks_chinese(repo: Path, vg: VG) -> None:
    git(repo, "config", "vibegit.lang", "zh")
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    assert vg("install").code == 0
    healthy = vg("doctor")
    assert healthy.code == 0 and "✔ vibegit/state 状态良好（" in healthy.out and "镜像可以解析" in healthy.out
    lock = repo / ".git" / "refs" / "heads" / "vibegit" / "state.lock"
    lock.write_text("")
    os.utime(lock, (1, 1))
    blocked = vg("doctor")
    assert (
        blocked.code == 1 and "阻止所有事件" in blocked.out and "执行 'vibegit doctor --repair' 删除它" in blocked.out
    )
    repaired = vg("doctor", "--repair")
    assert repaired.code == 0 and "已删除" in repaired.out and not lock.exists()


def test_install_speaks_chinese(repo: Path, vg: VG) -> None:
    git(repo, "config", "vibegit.lang", "zh")
    hooks = vg("install")
    assert (
        hooks.code == 0 and "reference-transaction：已安装" in hooks.out and "用 'vibegit uninstall' 撤销" in hooks.out
    )
    assert "reference-transaction：已安装，未改变" in vg("install").out
    assert vg("install", "--agent", "cursor").code == 0
    check = vg("install", "--check", "--agent", "cursor", "--agent", "codex")
    assert check.code == 1 and "Codex（project）：未安装" in check.out
    assert "Cursor（project）：已安装；" in check.out and "中的钩子：" in check.out
    assert "智能体的钩子通过 .git/vibegit/bin/vibegit 用 " in check.out
    bad = vg("install", "--mcp")
    assert bad.code == 2 and "--mcp 需与 --agent NAME 一起使用" in bad.err


def test_checkpoint_refusals_and_the_hooks_warning_speak_chinese(repo: Path, vg: VG) -> None:
    git(repo, "config", "vibegit.lang", "zh")
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    (repo / "a.py").write_text("x = 1\n")
    for args, said in (
        (("--file", "nope.py", "--line", "1"), "--file nope.py：工作区中没有这个文件"),
        (("--line", "1"), "--line 需与 --file 一起使用"),
        (("--file", "a.py", "--line", "5"), "--line 5：a.py 只有 1 行"),
        (("--file", "../x.py"), "--file ../x.py：在仓库 "),
    ):
        refused = vg("checkpoint", *args)
        assert refused.code == 2 and said in refused.err, (args, refused.err)
    assert vg("install").code == 0
    (repo / ".git" / "hooks" / "reference-transaction").chmod(0o644)
    warned = vg("status")
    assert "vibegit 的锁检查（reference-transaction）没有运行：" in warned.err and "不可执行" in warned.err
    assert "reference-transaction：权限为 644" in vg("install").out


def test_list_columns_line_up_in_chinese(repo: Path, vg: VG, tmp_path: Path) -> None:
    """The WHERE column says 位于 main: two columns a character on a terminal."""
    import unicodedata

    def width(text: str) -> int:
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)

    git(repo, "config", "vibegit.lang", "zh")
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    git(repo, "worktree", "add", "-q", "-b", "功能分支", str(tmp_path / "wt"))
    assert vg("start", "w2", "--goal", "g", cwd=tmp_path / "wt").code == 0
    lines = vg("list").out.splitlines()[:3]
    assert "位于 main" in lines[1] + lines[2] and "位于 功能分支" in lines[1] + lines[2]
    starts = {width(line[: line.index(word)]) for line, word in zip(lines, ("PHASE", "R1/1.1", "R1/1.1"), strict=True)}
    assert len(starts) == 1, lines  # each row's PHASE starts at the same column


def test_which_workflow_is_said_in_chinese(repo: Path, vg: VG) -> None:
    git(repo, "config", "vibegit.lang", "zh")
    assert vg("start", "vibe-code", "--goal", "g").code == 0
    git(repo, "switch", "-q", "-c", "other")
    refused = vg("resume")
    assert refused.code == 1 and "此处（位于 other）没有工作流在运行（其他地方：vibe-code（" in refused.err
    assert "进行中，位于 main" in refused.err and "也会切换到它的分支" in refused.err
    unknown = vg("status", "--workflow", "nope")
    assert unknown.code == 2 and "没有这个工作流（已有：vibe-code（" in unknown.err
