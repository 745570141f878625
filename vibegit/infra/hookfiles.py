"""``vibegit install`` / ``uninstall``: the raw git hooks.

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
import re
import shlex
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from vibegit import __version__
from vibegit.errors import OK, BadInput, Refused
from vibegit.infra import fs, git

HOOK_NAMES = ("post-checkout", "pre-commit", "pre-push", "post-rewrite")
MARK = "# vibegit-hook: "  # the second line of every shim we write
CREATED = "# vibegit-created-dirs: "
CHAINED = ".vibegit-chained"


def _resource(name: str) -> str:
    return (resources.files("vibegit.infra") / "shims" / name).read_text(encoding="utf-8")


def script(name: str, python: str = "", created: Sequence[str] = ()) -> str:
    """The shim for hook ``name`` (shims/head.sh, then shims/NAME.sh); ``python``
    empty means ``vibegit`` on PATH."""
    boot = _resource("boot.py")  # run by the baked interpreter, inside single quotes
    if "'" in boot:
        raise AssertionError("shims/boot.py must fit in single quotes")
    values = {
        "@NAME@": name,
        "@CREATED@": f"{CREATED}{json.dumps(list(created))}\n" if created else "",
        "@CHAINED@": CHAINED,
        "@PYTHON@": shlex.quote(python),
        "@BOOT@": boot,
    }
    text = _resource("head.sh") + _resource(f"{name}.sh")
    return re.sub("|".join(values), lambda m: values[m.group(0)], text)


def hooks_dir(cwd: Path | None = None) -> Path:
    here = Path(cwd or Path.cwd())
    proc = git.run(["rev-parse", "--git-path", "hooks"], cwd=here, check=False)
    if proc.returncode:
        raise BadInput(f"{here}: not inside a git repository (run 'git init' or cd into one)")
    return Path(os.path.normpath(here / proc.stdout.decode().strip()))


def anchor(directory: Path, cwd: Path | None = None) -> tuple[Path, str]:
    """The root that hook files are written under, and the hooks directory
    below it. Inside the git dir: the git dir. Inside the working tree (a
    ``core.hooksPath`` like ``.husky``): the top directory, so a committed
    link on the way refuses the write. Anywhere else the user's
    ``core.hooksPath`` chose it: the directory itself."""
    proc = git.run(["rev-parse", "--absolute-git-dir", "--git-common-dir", "--show-toplevel"], cwd=cwd, check=False)
    lines = proc.stdout.decode().splitlines() if proc.returncode == 0 else []
    here = Path(cwd or Path.cwd())
    candidates = [Path(os.path.normpath(here / line)) for line in lines]
    for root in candidates:  # the git dirs first: they may lie inside the top directory
        rel = fs.relative(directory, root)
        if rel is not None:
            return root, "" if rel == "." else rel
    return directory, ""


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
    while not os.path.lexists(probe) and probe != probe.parent:
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
    root, rel = anchor(directory, cwd)
    found = fs.lstat(root, rel) if rel else None  # a link on the way there refuses the install
    if found is not None and stat.S_ISLNK(found.st_mode):
        raise BadInput(f"{directory}: is a symbolic link; vibegit never writes hooks through links (remove it)")
    if (found is not None and not stat.S_ISDIR(found.st_mode)) or (directory.exists() and not directory.is_dir()):
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
                problems.append(
                    f"{path} is not vibegit's and {chained.name} exists too; "
                    f"move one of them away, then run 'vibegit install' again"
                )
            plans.append(Plan(name, "chain", script(name, python, created)))
        else:
            plans.append(Plan(name, "new", script(name, python, created)))
    if problems:
        raise Refused("; ".join(problems) + " (nothing was changed)")
    if missing and rel:
        with fs.opendir(root, rel, create=True):
            pass
    elif missing:  # a core.hooksPath of the user's, outside the repository
        directory.mkdir(parents=True)
    for plan in plans:
        path = directory / plan.name
        if plan.action == "same":
            say(f"{plan.name}: already installed, unchanged")
            continue
        target = f"{rel}/{plan.name}" if rel else plan.name
        if plan.action == "chain":
            framework = "File generated by pre-commit" in (_head(path) or "")
            fs.rename(root, target, target + CHAINED)
        fs.write(root, target, plan.text.encode(), 0o755)
        if plan.action == "chain":
            say(
                f"{plan.name}: installed; your existing hook was renamed to {plan.name}{CHAINED} "
                f"(bytes and mode kept) and {_order(plan.name)}"
            )
            if framework:
                say(
                    f"{plan.name}: that hook is the pre-commit framework's; listing vibegit in "
                    ".pre-commit-config.yaml instead is the other way (see the README)"
                )
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
    root, rel = anchor(directory, cwd)
    created: set[str] = set()
    for name in names:
        path, chained = directory / name, directory / (name + CHAINED)
        target = f"{rel}/{name}" if rel else name
        if is_ours(path):
            created.update(_created(path))
            if os.path.lexists(chained):
                fs.rename(root, target + CHAINED, target, overwrite=True)
                say(f"{name}: removed; your hook is back from {name}{CHAINED}")
            else:
                fs.remove(root, target)
                say(f"{name}: removed")
        elif os.path.lexists(path):
            if is_ours(directory / f"{name}.legacy"):
                say(
                    f"{name}: the pre-commit framework's hook now runs vibegit's as {name}.legacy; "
                    "run 'pre-commit uninstall' first, then 'vibegit uninstall'"
                )
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
        fs.write(directory, name, script(name).encode(), 0o755)


if __name__ == "__main__":  # python -m vibegit.infra.hookfiles, from the repository root
    write_shipped(Path("hooks"))
