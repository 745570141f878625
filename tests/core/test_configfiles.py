"""What is configuration (it runs something or steers an agent): one list,
one question, and the table docs/security.md shows held equal to the list."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from vibegit.core.configfiles import CONFIGURATION, is_configuration, why

SECURITY = Path(__file__).resolve().parents[2] / "docs" / "security.md"


@pytest.mark.parametrize(
    "path",
    [
        ".mcp.json",
        ".claude/settings.json",
        ".claude/commands/vibe-start.md",
        "CLAUDE.md",
        "packages/api/CLAUDE.md",  # read when an agent works there
        "packages/api/.claude/settings.local.json",
        "AGENTS.md",
        "GEMINI.md",
        ".gemini/settings.json",
        ".codex/config.toml",
        ".cursor/rules/x.mdc",
        ".github/copilot-instructions.md",
        ".github/instructions/py.instructions.md",
        ".vscode/tasks.json",
        ".envrc",
        "services/.envrc",
        ".gitattributes",
        ".gitmodules",
        ".lfsconfig",
        ".pre-commit-config.yaml",
        "lefthook.yml",
        "lefthook-local.yml",
        ".lefthook.yml",
        ".lefthook/pre-commit/check.sh",
        ".husky/pre-commit",
        ".husky/_/husky.sh",
        ".lintstagedrc.json",
        ".vibegit/hooks.yaml",
        ".vibegit/secrets-allow",
        # aliases a case-insensitive or normalising file system would see as the same name
        ".VIBEGIT/hooks.yaml",
        ".vibegit./hooks.yaml",
        ".vibegit /hooks.yaml",
        ".vi\u200cbegit/hooks.yaml",
        ".Claude/settings.json",
        "claude.md",
        ".MCP.JSON",
    ],
)
def test_configuration(path: str) -> None:
    assert is_configuration(path), path


@pytest.mark.parametrize(
    "path",
    [
        "src/app.py",
        "README.md",
        "docs/claude.md.txt",
        "notes/CLAUDE.md.bak",
        ".github/workflows/ci.yml",  # runs on the remote once you push it, like any code you commit
        "package.json",
        "mylefthook.yml",
        "src/.gitattributes.example",
        ".githooks/pre-commit",  # only where git takes hooks from it
        "hooks/pre-commit",
    ],
)
def test_not_configuration(path: str) -> None:
    assert not is_configuration(path), path


def test_the_hooks_directory_git_uses_is_configuration_whatever_its_name() -> None:
    assert why(".githooks/pre-commit", (".githooks",)) == "git: the hooks it runs (core.hooksPath)"
    assert is_configuration("tools/hooks/post-checkout", ("tools/hooks",))
    assert is_configuration("Tools/Hooks/post-checkout", ("tools/hooks",))  # as the file system sees it
    assert is_configuration(".githooks", (".githooks",))  # the directory itself (a link put there)
    assert not is_configuration("tools/hooksmith.py", ("tools/hooks",))
    assert not is_configuration("src/app.py", (".githooks", "scripts/git-hooks"))


def _table() -> list[tuple[str, str]]:
    text = SECURITY.read_text()
    start = text.index("<!-- configuration: begin -->")
    end = text.index("<!-- configuration: end -->")
    rows = []
    for line in text[start:end].splitlines():
        found = re.fullmatch(r"\| `([^`]+)` \| (.+) \|", line.strip())
        if found:
            rows.append((found.group(1), found.group(2)))
    return rows


def test_the_security_doc_lists_exactly_the_configuration() -> None:
    assert _table() == [(e.pattern, e.why) for e in CONFIGURATION]
