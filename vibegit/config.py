"""Settings read from git config (``vibegit.*``), validated once."""
from __future__ import annotations

from dataclasses import dataclass

from vibegit.errors import BadInput
from vibegit.files import check_relative_path

DEFAULT_STATE_BRANCH = "vibegit/state"
DEFAULT_MIRROR = "project_document/.ai_state"
BLOCK_POLICIES = ("always", "other-branches", "never")
LANGS = ("en", "zh")  # the report's headings: English, or as in the skill document


@dataclass(frozen=True)
class Settings:
    state_branch: str = DEFAULT_STATE_BRANCH
    mirror_dir: str = DEFAULT_MIRROR
    block_commits: str = "always"
    lang: str = "en"  # of reports that take no --lang: hooks, agents' session start

    @property
    def state_ref(self) -> str:
        return f"refs/heads/{self.state_branch}"


def settings(config: dict[str, str]) -> Settings:
    branch = config.get("vibegit.statebranch", DEFAULT_STATE_BRANCH).strip()
    if branch.startswith("refs/heads/"):
        branch = branch[len("refs/heads/") :]
    if not branch or any(c in branch for c in " ~^:?*[\\\0\n") or ".." in branch or branch.endswith("/"):
        raise BadInput(f"git config vibegit.stateBranch: {branch!r:.60} is not a valid branch name")
    mirror = config.get("vibegit.mirrordir", DEFAULT_MIRROR).strip().rstrip("/")
    check_relative_path(mirror, "git config vibegit.mirrorDir")
    if mirror.split("/")[0] == ".git":
        raise BadInput("git config vibegit.mirrorDir: must not be inside .git")
    policy = config.get("vibegit.blockcommits", "always").strip().lower()
    if policy not in BLOCK_POLICIES:
        raise BadInput(f"git config vibegit.blockCommits: {policy!r:.40} is not one of: {', '.join(BLOCK_POLICIES)}")
    lang = config.get("vibegit.lang", "en").strip().lower()
    if lang not in LANGS:
        raise BadInput(f"git config vibegit.lang: {lang!r:.20} is not one of: {', '.join(LANGS)}")
    return Settings(branch, mirror, policy, lang)
