"""The remotes: their names, URLs and the current branch's upstream, the
environment git talks to them in, and a push (fast-forward only, the user's
pre-push hooks run). Where sync keeps each remote's copy of the state
branch (``REMOTE_NS``)."""

from __future__ import annotations

from vibegit.core.records import NamedTuple
from vibegit.core.text import is_oid
from vibegit.errors import BadInput
from vibegit.infra.git.process import Repo, reason, run
from vibegit.infra.git.refs import head_branch
from vibegit.infra.gitlite import IN_HOOK, clean_env

REMOTE_NS = "refs/vibegit/remote/"  # where sync keeps each remote's state branch


def network_env() -> dict[str, str]:
    """For git talking to a remote: never prompt, and vibegit's own hooks stay quiet."""
    return clean_env(GIT_TERMINAL_PROMPT="0", **{IN_HOOK: "1"})


def remote_names(repo: Repo) -> list[str]:
    """Every remote's name (``git remote``)."""
    return repo.out("remote").split()


class Remotes(NamedTuple):
    urls: dict[str, str]  # every remote with a URL, and its URL
    upstream: str | None  # the remote of the current branch's upstream, if it has one


def remote_config(repo: Repo, config: dict[str, str] | None = None) -> Remotes:
    """The remotes and the current branch's upstream remote: from ``config``
    (``read_config``'s, which holds them: no process), else one ``git config``."""
    branch = head_branch(repo)
    if config is None:
        proc = repo.git("config", "-z", "--get-regexp", r"^(remote\..*\.url|branch\..*\.remote)$", check=False)
        pairs = [item.partition("\n")[::2] for item in proc.stdout.decode(errors="replace").split("\0")]
    else:
        pairs = list(config.items())
    urls: dict[str, str] = {}
    upstream = None
    for key, value in pairs:
        if key.startswith("remote.") and key.endswith(".url") and len(key) > len("remote..url"):
            urls.setdefault(key[len("remote.") : -len(".url")], value)
        elif branch is not None and key == f"branch.{branch}.remote":
            upstream = value
    return Remotes(urls, upstream)


class Pushed(NamedTuple):
    ok: bool
    flags: list[str]  # git push --porcelain flags: "=" up to date, "!" rejected
    detail: str  # git's last line of error, when not ok
    declined: bool = False  # a pre-push hook refused it
    hook_said: str = ""  # the last lines the hook printed
    summaries: tuple[str, ...] = ()  # each ref line's summary: "[rejected] (fetch first)", "[remote rejected] (…)"
    said: str = ""  # everything git printed on stderr


def push_ref(repo: Repo, ref: str, remote: str, verify: bool = True, commit: str = "") -> Pushed:
    """Push ``ref`` (or exactly ``commit``, the one a scan read) to the same
    name on ``remote``, fast-forward only.

    The user's own pre-push hooks run for it (``verify``; their scanners
    see what vibegit publishes too), vibegit's own stays quiet (IN_HOOK)."""
    if commit and not is_oid(commit):
        raise BadInput(f"git push: {commit!r:.60} is not an object id")
    env = network_env()
    args = [
        "push",
        "--porcelain",
        *([] if verify else ["--no-verify"]),
        "--end-of-options",
        remote,
        f"{commit or ref}:{ref}",
    ]
    proc = run(args, cwd=repo.toplevel, check=False, env=env)
    # --porcelain lines: "<flag>\t<from>:<to>\t<summary>"
    refs = [line.split("\t") for line in proc.stdout.decode(errors="replace").splitlines() if line[1:2] == "\t"]
    flags = [line[0][0] for line in refs]
    stderr = proc.stderr.decode(errors="replace")
    said = stderr.splitlines()
    # A pre-push hook that refuses leaves no ref line and no fatal error of git's own.
    declined = proc.returncode != 0 and not flags and not any(line.startswith("fatal:") for line in said)
    hook = [line for line in said if line.strip() and not line.startswith(("error: failed to push", "To "))]
    summaries = tuple(line[2] if len(line) > 2 else "" for line in refs)
    return Pushed(proc.returncode == 0, flags, reason(proc), declined, "\n".join(hook[-8:]), summaries, stderr)
