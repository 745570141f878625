"""Configuration is code: the paths of a working tree whose content makes
something run, or steers an agent, with nobody running it on purpose (the
next ``git switch``, the next commit, opening the editor or the agent,
``cd`` into the directory).

A snapshot from the state branch is written by whoever can push there, and
resume restores it; so its version of these paths is withheld where it
differs from the checkpoint commit's, and a person takes it after seeing
the difference (``vibegit take``). The list is precise rather than broad:
your own uncommitted edits of these files come back the same way.

One list, ``CONFIGURATION``; one question, ``is_configuration``. The
directory git takes hooks from is set in git config (``core.hooksPath``),
so it is a parameter. docs/security.md shows the list as a table, held
equal to it by a test.
"""

from __future__ import annotations

from vibegit.core.records import NamedTuple


class Entry(NamedTuple):
    pattern: str  # a name (any depth; ``*`` any characters), or with a "/" inside, a path from the top
    why: str  # what runs it or reads it


CONFIGURATION: tuple[Entry, ...] = (
    # git, and what git runs
    Entry(".gitattributes", "git: filters and diff drivers it runs, git-lfs"),
    Entry(".gitmodules", "git: where submodules are fetched from"),
    Entry(".lfsconfig", "git-lfs: where LFS objects are pushed and fetched"),
    # hook managers: their configuration is read at every hook git runs
    Entry(".husky", "husky: the hooks git runs (core.hooksPath)"),
    Entry(".huskyrc*", "husky 4: the hooks it runs"),
    Entry("husky.config.*", "husky 4: the hooks it runs"),
    Entry(".pre-commit-config.yaml", "pre-commit: what runs at each commit"),
    Entry("lefthook*.yml", "lefthook: what runs at each hook"),
    Entry("lefthook*.yaml", "lefthook: what runs at each hook"),
    Entry("lefthook*.json", "lefthook: what runs at each hook"),
    Entry("lefthook*.toml", "lefthook: what runs at each hook"),
    Entry(".lefthook*", "lefthook: its configuration and scripts"),
    Entry(".overcommit.yml", "overcommit: what runs at each hook"),
    Entry(".lintstagedrc*", "lint-staged: what a commit hook runs on staged files"),
    Entry("lint-staged.config.*", "lint-staged: what a commit hook runs on staged files"),
    # agents: settings, hooks, MCP servers, instructions
    Entry(".mcp.json", "Claude Code and others: the MCP servers started"),
    Entry(".claude", "Claude Code: settings, hooks, commands, skills"),
    Entry(".gemini", "Gemini CLI: settings, hooks, MCP servers"),
    Entry(".codex", "Codex: configuration"),
    Entry(".cursor", "Cursor: rules, MCP servers"),
    Entry(".windsurf", "Windsurf: rules, workflows"),
    Entry(".roo", "Roo Code: rules, modes"),
    Entry(".continue", "Continue: configuration, MCP servers"),
    Entry(".amazonq", "Amazon Q: rules, MCP servers"),
    Entry(".kiro", "Kiro: steering, hooks"),
    Entry(".opencode", "opencode: agents, commands"),
    Entry("opencode.json", "opencode: configuration, MCP servers"),
    Entry(".aider.conf.yml", "aider: configuration"),
    Entry("CLAUDE.md", "Claude Code: instructions"),
    Entry("CLAUDE.local.md", "Claude Code: instructions"),
    Entry("AGENTS.md", "Codex, Cursor and others: instructions"),
    Entry("AGENT.md", "Amp and others: instructions"),
    Entry("GEMINI.md", "Gemini CLI: instructions"),
    Entry(".cursorrules", "Cursor: instructions"),
    Entry(".windsurfrules", "Windsurf: instructions"),
    Entry(".clinerules", "Cline: instructions"),
    Entry(".roomodes", "Roo Code: modes"),
    Entry(".github/copilot-instructions.md", "GitHub Copilot: instructions"),
    Entry(".github/instructions", "GitHub Copilot: instructions"),
    Entry(".github/prompts", "GitHub Copilot: prompts"),
    Entry(".github/chatmodes", "GitHub Copilot: chat modes"),
    # editors: tasks and launchers that run when a folder is opened
    Entry(".vscode", "VS Code: tasks run on opening, settings that start programs"),
    Entry(".idea", "JetBrains IDEs: run configurations, startup tasks"),
    Entry(".zed", "Zed: tasks, settings"),
    Entry(".devcontainer", "dev containers: commands run on creating and opening"),
    Entry(".nvim.lua", "Neovim: exrc, run on opening"),
    Entry(".nvimrc", "Neovim and Vim: exrc, run on opening"),
    Entry(".exrc", "Neovim and Vim: exrc, run on opening"),
    # the shell
    Entry(".envrc", "direnv: run on cd"),
    Entry("mise.toml", "mise: tasks and hooks run on cd"),
    Entry(".mise.toml", "mise: tasks and hooks run on cd"),
    Entry("mise.local.toml", "mise: tasks and hooks run on cd"),
    Entry(".mise.local.toml", "mise: tasks and hooks run on cd"),
    # vibegit
    Entry(".vibegit", "vibegit: lifecycle hooks, the secret scan's allowlist"),
)

HOOKS_WHY = "git: the hooks it runs (core.hooksPath)"

# Names are compared as a case-insensitive file system would see them (case,
# Unicode form, ignorable characters, trailing dots and spaces), so no alias
# of a listed name gets through.
_IGNORABLE = dict.fromkeys([*range(0x200B, 0x2010), *range(0x202A, 0x202F), *range(0x2060, 0x2070), 0xFEFF, 0x00AD])


def folded(name: str) -> str:
    """``name`` as a case-insensitive, normalising file system sees it."""
    import unicodedata

    text = unicodedata.normalize("NFC", name.translate(_IGNORABLE)).casefold()
    return text.rstrip(". ")


def _matches(pattern: str, name: str) -> bool:
    if "*" not in pattern:
        return pattern == name
    head, _, tail = pattern.partition("*")
    return len(name) >= len(head) + len(tail) and name.startswith(head) and name.endswith(tail)


_NAMES = tuple((folded(e.pattern), e) for e in CONFIGURATION if "/" not in e.pattern)
_PATHS = tuple(([folded(n) for n in e.pattern.split("/")], e) for e in CONFIGURATION if "/" in e.pattern)


def why(path: str, hooks_dirs: tuple[str, ...] = ()) -> str | None:
    """What runs ``path`` (a "/"-separated path from the top of the working
    tree) or reads it, or None when it is not configuration. A path below a
    listed one is configuration too (``.claude/settings.json``), as is one
    below the hooks directory git uses: ``hooks_dirs`` are its paths from
    the top (as set, and as resolved), none when it lies outside the tree."""
    names = [folded(n) for n in path.split("/")]
    for hooks in hooks_dirs:
        top = [folded(n) for n in hooks.split("/") if n not in ("", ".")]
        if top and names[: len(top)] == top:
            return HOOKS_WHY
    for parts, entry in _PATHS:
        if names[: len(parts)] == parts:
            return entry.why
    for name in names:
        for pattern, entry in _NAMES:
            if _matches(pattern, name):
                return entry.why
    return None


def is_configuration(path: str, hooks_dirs: tuple[str, ...] = ()) -> bool:
    return why(path, hooks_dirs) is not None
