"""Settings read from git config (``vibegit.*``), validated once."""

from __future__ import annotations

from collections.abc import Callable

from vibegit.core.records import frozen
from vibegit.core.text import check_relative_path
from vibegit.errors import BadInput

DEFAULT_STATE_BRANCH = "vibegit/state"
DEFAULT_MIRROR = "project_document/.ai_state"
KNOWLEDGE_DOCS = ("conventions.md", "decisions.md")  # in the mirror folder; they travel on the state branch
BLOCK_POLICIES = ("always", "other-branches", "never")
LANGS = ("en", "zh")  # the report's headings: English, or as in the skill document


@frozen
class Settings:
    state_branch: str = DEFAULT_STATE_BRANCH
    mirror_dir: str = DEFAULT_MIRROR
    block_commits: str = "always"
    lang: str = "en"  # of reports that take no --lang: hooks, agents' session start
    remote: str | None = None  # where the state branch belongs; None: the upstream's remote, else origin
    sync_timeout: float = 30.0  # seconds sync keeps trying while other pushes win the race
    sync_backoff: float = 0.2  # the bound of sync's first wait between tries (doubling, jittered)

    @property
    def state_ref(self) -> str:
        return f"refs/heads/{self.state_branch}"


def settings(config: dict[str, str], fallback: Callable[[str], None] | None = None) -> Settings:
    """The settings, each checked; a bad value is a clear error.

    With ``fallback`` (the hook path, where a typo must not switch the lock
    check off), a bad value is reported through it and the safe default used
    instead: ``always`` for blockCommits. Only a bad stateBranch still stops,
    since no branch could be read then."""

    def bad(message: str, default: str) -> str:
        if fallback is None:
            raise BadInput(message)
        fallback(f"{message}; using {default!r}")
        return default

    branch = config.get("vibegit.statebranch", DEFAULT_STATE_BRANCH).strip()
    if branch.startswith("refs/heads/"):
        branch = branch[len("refs/heads/") :]
    if not branch_name_ok(branch):
        raise BadInput(f"git config vibegit.stateBranch: {branch!r:.60} is not a valid branch name")
    mirror = config.get("vibegit.mirrordir", DEFAULT_MIRROR).strip().rstrip("/")
    try:
        check_relative_path(mirror, "git config vibegit.mirrorDir")
        if mirror.split("/")[0] == ".git":
            raise BadInput("git config vibegit.mirrorDir: must not be inside .git")
    except BadInput as err:
        mirror = bad(str(err), DEFAULT_MIRROR)
    policy = config.get("vibegit.blockcommits", "always").strip().lower()
    if policy not in BLOCK_POLICIES:
        policy = bad(
            f"git config vibegit.blockCommits: {policy!r:.40} is not one of: {', '.join(BLOCK_POLICIES)}", "always"
        )
    lang = config.get("vibegit.lang", "en").strip().lower()
    if lang not in LANGS:
        lang = bad(f"git config vibegit.lang: {lang!r:.20} is not one of: {', '.join(LANGS)}", "en")
    remote = config.get("vibegit.remote", "").strip() or None
    if remote is not None and (remote.startswith("-") or len(remote) > 100 or any(c <= " " for c in remote)):
        remote = bad(f"git config vibegit.remote: {remote!r:.60} is not a remote name", "") or None
    timeout = _seconds(config, "vibegit.synctimeout", "syncTimeout", 30.0, 3600.0, bad)
    backoff = _seconds(config, "vibegit.syncbackoff", "syncBackoff", 0.2, 60.0, bad)
    return Settings(branch, mirror, policy, lang, remote, timeout, backoff)


def branch_name_ok(name: str) -> bool:
    """Whether ``refs/heads/NAME`` is a ref name git takes."""
    return ref_name_ok(f"refs/heads/{name}")


def ref_name_ok(name: str) -> bool:
    """Whether ``name`` (a whole ref name, ``refs/...``) is one git takes
    (``git check-ref-format``'s rules; tests/test_contracts.py holds them to
    git's on generated names)."""
    if not name or name.endswith((".", "/")) or name.startswith("/"):
        return False
    if any(c in name for c in " ~^:?*[\\") or any(c < " " or c == "\x7f" for c in name):
        return False
    if ".." in name or "//" in name or "@{" in name:
        return False
    return not any(part.startswith(".") or part.endswith(".lock") for part in name.split("/"))


def _seconds(
    config: dict[str, str], key: str, name: str, default: float, most: float, bad: Callable[[str, str], str]
) -> float:
    """A number of seconds from 0 to ``most``."""
    raw = config.get(key, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 <= value <= most:  # NaN too
        return float(
            bad(f"git config vibegit.{name}: {raw!r:.20} is not a number of seconds from 0 to {most:g}", str(default))
        )
    return value
