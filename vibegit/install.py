"""``vibegit install`` / ``uninstall``: the raw git hooks (SPEC §8).

Hooks go where git really looks (``git rev-parse --git-path hooks``, which
honours ``core.hooksPath`` and linked worktrees). Each is a small POSIX sh
shim, recognised as ours by its second line. A hook vibegit did not write is
never overwritten: it is renamed to ``NAME.vibegit-chained`` (same bytes,
same mode) and our shim calls it with the same arguments and input, and
propagates its exit code. ``uninstall`` renames it back, so the directory is
as it was. A directory that install had to create is recorded in the shims
and removed again when it is empty.

The shim asks the state branch, with two git processes and no Python,
whether there is anything to do; only then it starts the interpreter that
ran ``vibegit install`` (baked in; ``vibegit`` on PATH as the fallback).
"""
from __future__ import annotations

import json
import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from vibegit import __version__, git
from vibegit.errors import OK, BadInput, Refused
from vibegit.paths import write_atomic

HOOK_NAMES = ("post-checkout", "pre-commit", "pre-push", "post-rewrite")
MARK = "# vibegit-hook: "  # the second line of every shim we write
CREATED = "# vibegit-created-dirs: "
CHAINED = ".vibegit-chained"

# Run by the baked interpreter: a vibegit that cannot even be imported is one line, not a failed commit.
BOOT = (
    "import sys\n"
    "try:\n"
    "    from vibegit.main import main\n"
    "    import vibegit.hook\n"
    "except Exception as err:\n"
    '    sys.stderr.write("vibegit: %s hook skipped: cannot import vibegit with %s (%s); '
    'reinstall it, or run vibegit uninstall\\n" % (sys.argv[1], sys.executable, err))\n'
    "    sys.exit(0)\n"
    'sys.exit(main(["hook"] + sys.argv[1:]))\n'
)

HEAD = """\
#!/bin/sh
{mark}{name}
{created}# Written by 'vibegit install'; 'vibegit uninstall' removes it and puts back
# the hook it chained, if any ({name}{chained_suffix} beside this file).
# The state branch is asked in sh first, so git pays no Python start-up
# when no workflow is active.
VIBEGIT_PYTHON={python}
hook={name}
case $0 in */*) chained=${{0%/*}}/$hook{chained_suffix} ;; *) chained=./$hook{chained_suffix} ;; esac
[ -x "$chained" ] || chained=

state_branch() {{
	[ -z "$VIBEGIT_IN_HOOK" ] || return 1  # a git command that vibegit itself started
	branch=refs/heads/vibegit/state
	git config --get vibegit.stateBranch >/dev/null || return 0  # unset: no subshell to read it
	branch=$(git config --get vibegit.stateBranch)
	branch=refs/heads/${{branch#refs/heads/}}
}}

run_vibegit() {{
	if [ -n "$VIBEGIT_PYTHON" ] && [ -x "$VIBEGIT_PYTHON" ]; then
		"$VIBEGIT_PYTHON" -c '{boot}' "$hook" "$@"
	elif command -v vibegit >/dev/null 2>&1; then
		command vibegit hook "$hook" "$@"
	else
		echo "vibegit: $hook hook skipped: vibegit not found (${{VIBEGIT_PYTHON:-no interpreter recorded}}, none on PATH); reinstall it, or run 'vibegit uninstall'" >&2
	fi
}}

check() {{  # only the lock check's own refusal may fail the git command
	wanted "$@" || return 0
	run_vibegit "$@"
	rc=$?
	case $hook:$rc in
	*:0) return 0 ;;
	pre-commit:1|pre-push:1) exit 1 ;;  # the lock check; credentials in the pushed state branch
	esac
	echo "vibegit: $hook hook exited $rc; git goes on" >&2
}}
"""

TAIL = {
    "pre-commit": """
wanted() {  # a lock file exists only while a workflow runs or is paused
	state_branch && git cat-file -e "$branch:workflow.lock" 2>/dev/null
}

check "$@"
[ -z "$chained" ] || exec "$chained" "$@"
exit 0
""",
    "post-checkout": """
wanted() {  # branch checkouts only (flag 1); file checkouts stay silent
	[ "$3" = 1 ] && state_branch && git cat-file -e "$branch:workflow.lock" 2>/dev/null
}

check "$@"
[ -z "$chained" ] || exec "$chained" "$@"
exit 0
""",
    "post-rewrite": """
wanted() {
	state_branch && git cat-file -e "$branch:workflow.lock" 2>/dev/null
}

if [ -z "$chained" ]; then
	check "$@"
	exit 0
fi
input=$(cat; echo .)  # both read git's "<old> <new>" lines
input=${input%.}
printf '%s' "$input" | check "$@"
printf '%s' "$input" | "$chained" "$@"
""",
    "pre-push": """
wanted() {  # the state branch travels whenever it exists
	state_branch && git rev-parse -q --verify "$branch^{commit}" >/dev/null
}

if [ -z "$chained" ]; then
	check "$@"
	exit 0
fi
input=$(cat; echo .)  # both read git's ref lines; the state goes only if the chained hook agrees
input=${input%.}
printf '%s' "$input" | "$chained" "$@" || exit $?
printf '%s' "$input" | check "$@" || exit 1  # check runs in a subshell here: pass its refusal on
exit 0
""",
}


def script(name: str, python: str = "", created: Sequence[str] = ()) -> str:
    """The shim for hook ``name``; ``python`` empty means ``vibegit`` on PATH."""
    if "'" in BOOT:
        raise AssertionError("BOOT must fit in single quotes")
    return HEAD.format(
        mark=MARK,
        name=name,
        created=f"{CREATED}{json.dumps(list(created))}\n" if created else "",
        chained_suffix=CHAINED,
        python=shlex.quote(python),
        boot=BOOT,
    ) + TAIL[name]


def hooks_dir(cwd: Path | None = None) -> Path:
    here = Path(cwd or Path.cwd())
    proc = git.run(["rev-parse", "--git-path", "hooks"], cwd=here, check=False)
    if proc.returncode:
        raise BadInput(f"{here}: not inside a git repository (run 'git init' or cd into one)")
    return Path(os.path.normpath(here / proc.stdout.decode().strip()))


def _head(path: Path) -> str | None:
    """The first lines of a regular file, or None (a link or a directory is never ours)."""
    if path.is_symlink() or not path.is_file():
        return None
    with path.open("rb") as f:
        return f.read(512).decode(errors="replace")


def is_ours(path: Path) -> bool:
    head = _head(path)
    return head is not None and len(head.split("\n")) > 1 and head.split("\n")[1].startswith(MARK)


def _created(path: Path) -> list[str]:
    for line in (_head(path) or "").split("\n")[:4]:
        if line.startswith(CREATED):
            try:
                dirs = json.loads(line[len(CREATED) :])
            except ValueError:
                return []
            return [d for d in dirs if isinstance(d, str)]
    return []


def _names(hooks: Sequence[str] | None) -> list[str]:
    if not hooks:
        return list(HOOK_NAMES)
    for name in hooks:
        if name not in HOOK_NAMES:
            raise BadInput(f"--hook {name!r:.40}: use one of {', '.join(HOOK_NAMES)}")
    return list(dict.fromkeys(hooks))


def _missing_dirs(directory: Path) -> list[Path]:
    missing = []
    probe = directory
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    return missing


@dataclass(frozen=True)
class Plan:
    name: str
    action: str  # new | chain | update | same
    text: str


def say(text: str) -> None:
    print(text, flush=True)


def install(hooks: Sequence[str] | None = None, python: str | None = None, cwd: Path | None = None) -> int:
    names = _names(hooks)
    python = sys.executable if python is None else python
    directory = hooks_dir(cwd)
    if directory.exists() and not directory.is_dir():
        raise BadInput(f"{directory}: the hooks path git uses is not a directory")
    missing = _missing_dirs(directory)
    created = [str(d) for d in missing]
    plans: list[Plan] = []
    problems: list[str] = []
    for name in names:
        path, chained = directory / name, directory / (name + CHAINED)
        if is_ours(path):
            text = script(name, python, _created(path))
            plans.append(Plan(name, "same" if path.read_text() == text else "update", text))
        elif os.path.lexists(path):
            if os.path.lexists(chained):
                problems.append(f"{path} is not vibegit's and {chained.name} exists too; "
                                f"move one of them away, then run 'vibegit install' again")
            plans.append(Plan(name, "chain", script(name, python, created)))
        else:
            plans.append(Plan(name, "new", script(name, python, created)))
    if problems:
        raise Refused("; ".join(problems) + " (nothing was changed)")
    for d in reversed(missing):
        d.mkdir()
    for plan in plans:
        path = directory / plan.name
        if plan.action == "same":
            say(f"{plan.name}: already installed, unchanged")
            continue
        if plan.action == "chain":
            framework = "File generated by pre-commit" in (_head(path) or "")
            os.rename(path, directory / (plan.name + CHAINED))
        write_atomic(path, plan.text.encode(), 0o755)
        if plan.action == "chain":
            say(f"{plan.name}: installed; your existing hook was renamed to {plan.name}{CHAINED} "
                f"(bytes and mode kept) and {_order(plan.name)}")
            if framework:
                say(f"{plan.name}: that hook is the pre-commit framework's; listing vibegit in "
                    ".pre-commit-config.yaml instead is the other way (see the README)")
        elif plan.action == "update":
            say(f"{plan.name}: updated")
        else:
            say(f"{plan.name}: installed")
    for d in reversed(missing):
        say(f"created {d} (uninstall removes it again when empty)")
    shim_python = python or "'vibegit' on PATH"
    say(f"Hooks in {directory} run vibegit {__version__} with {shim_python}. Undo with 'vibegit uninstall'.")
    return OK


def _order(name: str) -> str:
    if name == "pre-push":
        return "it runs first, with the same arguments and input; the state branch is pushed only if it succeeds"
    if name == "pre-commit":
        return "it runs after vibegit's lock check, with the same arguments; its exit code decides as before"
    return "it runs after vibegit's, with the same arguments and input; its exit code is the hook's"


def uninstall(hooks: Sequence[str] | None = None, cwd: Path | None = None) -> int:
    names = _names(hooks)
    directory = hooks_dir(cwd)
    created: set[str] = set()
    for name in names:
        path, chained = directory / name, directory / (name + CHAINED)
        if is_ours(path):
            created.update(_created(path))
            if os.path.lexists(chained):
                os.replace(chained, path)
                say(f"{name}: removed; your hook is back from {name}{CHAINED}")
            else:
                path.unlink()
                say(f"{name}: removed")
        elif os.path.lexists(path):
            if is_ours(directory / f"{name}.legacy"):
                say(f"{name}: the pre-commit framework's hook now runs vibegit's as {name}.legacy; "
                    "run 'pre-commit uninstall' first, then 'vibegit uninstall'")
            else:
                say(f"{name}: not vibegit's hook, left alone")
        else:
            say(f"{name}: not installed")
    for d in sorted(created, key=len, reverse=True):
        try:
            Path(d).rmdir()  # only when empty
            say(f"removed {d}, which install had created")
        except OSError:
            pass
    return OK


def write_shipped(directory: Path) -> None:
    """Regenerate the repository's hooks/ (shims that find ``vibegit`` on PATH)."""
    for name in HOOK_NAMES:
        write_atomic(directory / name, script(name).encode(), 0o755)


if __name__ == "__main__":  # python -m vibegit.install, from the repository root
    write_shipped(Path("hooks"))
