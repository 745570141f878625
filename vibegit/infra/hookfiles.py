"""``vibegit install`` / ``uninstall``: the raw git hooks.

Hooks go where git really looks (``git rev-parse --git-path hooks``, which
honours ``core.hooksPath`` and linked worktrees). Each is a small POSIX sh
shim, recognised as ours by its second line. The lock check is
``reference-transaction``: git runs it for every ref update, so every way a
commit reaches a branch meets it (``--no-verify`` included); ``pre-commit``
is an opt-in earlier check (before the editor opens).

Hooks vibegit did not write are never overwritten, and hook managers' files
are never renamed:

- a plain hook (yours, git-lfs's) is renamed to ``NAME.vibegit-chained``
  (same bytes, same mode) and our shim calls it with the same arguments and
  input; ``uninstall`` renames it back;
- the pre-commit framework's script stays; ours goes to ``NAME.legacy``,
  which the framework runs first (its "migration mode");
- husky's and lefthook's files stay; install prints the one line their
  configuration needs to call vibegit's copy of the hook.

A copy of every installed shim is kept in vibegit's own directory,
``<git common dir>/vibegit/hooks/``: the managers' lines call it (they do
nothing once it is gone), and its presence tells every vibegit command that
the lock check was installed, so one that went missing is reported.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Sequence

from vibegit import __version__
from vibegit.core.messages import t
from vibegit.core.records import frozen
from vibegit.core.text import escape_path
from vibegit.errors import OK, BadInput, Refused
from vibegit.infra import fs, git, output
from vibegit.infra.hookplace import (
    CHAINED,
    HOOK_NAMES,
    LEFTHOOK_OLD,
    LEGACY,
    LOCK_HOOK,
    PRIVATE,
    Place,
    head_of,
    installed,
    is_ours,
    owner,
    problem,
    runs,
)

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from vibegit.infra.fs import StrPath

DEFAULT_HOOKS = ("post-checkout", "reference-transaction", "pre-push", "post-rewrite")
CREATED = "# vibegit-created-dirs: "
MODE = 0o755  # every shim's, and vibegit's own copies'
FRAMEWORK_ENTRY = "vibegit-hook"  # the pre-commit framework's entry (hooks/, installed as a script)
FRAMEWORK_HOOKS = ("pre-commit", "post-checkout", "pre-push", "post-rewrite")  # .pre-commit-hooks.yaml's stages


def _resource(name: str) -> str:
    from importlib import resources  # install only: not on every command's lock-check warning

    return (resources.files("vibegit.infra") / "shims" / name).read_text(encoding="utf-8")


def _fill(
    text: str, python: str = "", name: str = "", created: Sequence[str] = (), paths: tuple[str, str] = ("", "")
) -> str:
    import json  # here: only install writes hooks (json and shlex cost milliseconds at every command's start)
    import shlex

    boot = _resource("boot.py")  # run by the baked interpreter, inside single quotes
    if "'" in boot:
        raise AssertionError("shims/boot.py must fit in single quotes")
    values = {
        "@NAME@": name,
        "@CREATED@": f"{CREATED}{json.dumps(list(created))}\n" if created else "",
        "@CHAINED@": CHAINED,
        "@PYTHON@": shlex.quote(python),
        "@BOOT@": boot,
        "@GIT_EXEC@": shlex.quote(paths[0]),
        "@GIT_SYSTEM@": shlex.quote(paths[1]),
        "@FRAMEWORK_HOOKS@": ", ".join(FRAMEWORK_HOOKS),
    }
    return re.sub("|".join(values), lambda m: values[m.group(0)], text)


def script(name: str, python: str = "", created: Sequence[str] = (), paths: tuple[str, str] = ("", "")) -> str:
    """The shim for hook ``name`` (shims/head.sh, NAME.early.sh if any, lib.sh,
    then NAME.sh); ``python`` empty means ``vibegit`` on PATH. ``paths``: git's
    exec path and system config file (``git_paths``), under which the shim
    reads the settings in sh; empty: ``git config`` always reads them."""
    early = f"{name}.early.sh"  # what may leave before the shared functions are parsed
    from importlib import resources

    has_early = (resources.files("vibegit.infra") / "shims" / early).is_file()
    text = (
        _resource("head.sh") + (_resource(early) if has_early else "") + _resource("lib.sh") + _resource(f"{name}.sh")
    )
    return _fill(text, python, name, created, paths)


def git_paths(cwd: StrPath | None = None) -> tuple[str, str]:
    """git's exec path and the system config file it reads (its editor, set to
    ``echo``, is handed that file's name); ("", "") when either is unknown."""
    env = {k: v for k, v in os.environ.items() if k not in ("GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM")}
    exec_path = git.run(["--exec-path"], cwd=cwd, check=False)
    system = git.run(["config", "--system", "--edit"], cwd=cwd, check=False, env={**env, "GIT_EDITOR": "echo"})
    found = [git.text(p.stdout).strip() if p.returncode == 0 else "" for p in (exec_path, system)]
    if not all(os.path.isabs(f) and "\n" not in f for f in found):
        return "", ""
    return found[0], found[1]


def _wanted(name: str) -> str:
    """The ``wanted`` function of hook ``name``'s shim (shims/NAME.sh), as it is written there."""
    found = re.search(r"^wanted\(\) \{.*?^\}\n", _resource(f"{name}.sh"), re.M | re.S)
    if found is None:
        raise AssertionError(f"shims/{name}.sh has no wanted() function")
    return found.group(0)


def framework_script() -> str:
    """``vibegit-hook NAME``, the pre-commit framework's entry: the raw shims'
    lib.sh and each hook's own ``wanted`` check, one ``case`` arm per hook,
    then vibegit on PATH only when the check says a workflow may be concerned."""
    arms = "".join(f"{name})\n{_wanted(name)};;\n" for name in FRAMEWORK_HOOKS)
    text = _resource("framework.head.sh") + _resource("lib.sh") + "\ncase $hook in\n" + arms
    return _fill(text + _resource("framework.tail.sh"))


def caller_line(name: str) -> str:
    """The one line a hook manager's configuration adds to run vibegit's copy
    of hook ``name``; it does nothing once vibegit is uninstalled."""
    return f'f="$(git rev-parse --git-common-dir)/vibegit/hooks/{name}"; [ ! -x "$f" ] || "$f" "$@"'


def place(cwd: StrPath | None = None) -> Place:
    here = os.fspath(cwd) if cwd else os.getcwd()
    lines, proc = git.rev_parse([["--git-path", "hooks"], ["--git-common-dir"], ["--absolute-git-dir"]], here)
    if proc.returncode or len(lines) < 3:
        raise BadInput(f"{here}: not inside a git repository (run 'git init' or cd into one)")
    shown = git.run(["config", "--show-origin", "--get", "core.hooksPath"], cwd=here, check=False)
    origin, _, value = git.text(shown.stdout).rstrip("\n").partition("\t")
    return Place(
        hooks=os.path.normpath(os.path.join(here, lines[0])),
        common=os.path.normpath(os.path.join(here, lines[1])),
        hooks_path=value if shown.returncode == 0 else None,
        origin=origin,
        top=_toplevel(here),
        git_dir=os.path.normpath(os.path.join(here, lines[2])),
    )


def _toplevel(here: str) -> str | None:
    try:
        return git.find_repo(here).toplevel
    except BadInput:
        return None  # a bare repository


def hooks_dir(cwd: StrPath | None = None) -> str:
    return place(cwd).hooks


@frozen
class Dir:
    """A hooks directory, written below ``root`` without following links."""

    path: str
    root: str
    rel: str

    def target(self, name: str) -> str:
        return f"{self.rel}/{name}" if self.rel else name

    def write(self, name: str, text: str) -> None:
        fs.write(self.root, self.target(name), text.encode("utf-8", "surrogateescape"), MODE)

    def rename(self, src: str, dst: str, overwrite: bool = False) -> None:
        fs.rename(self.root, self.target(src), self.target(dst), overwrite=overwrite)

    def remove(self, name: str) -> None:
        fs.remove(self.root, self.target(name))


def _dir(directory: str, where: Place) -> Dir:
    """``directory`` with the root its files are written under. Inside the
    git dir: the git dir. Inside the working tree (a ``core.hooksPath`` like
    ``.husky``): the top directory, so a committed link on the way refuses the
    write. Anywhere else the user's ``core.hooksPath`` chose it: the directory itself."""
    roots = [r for r in (where.git_dir, where.common, where.top) if r is not None]  # the git dirs first: inside the top
    for root in roots:
        rel = fs.relative(directory, root)
        if rel is not None:
            return Dir(directory, root, "" if rel == "." else rel)
    return Dir(directory, directory, "")


def _created(path: str) -> list[str]:
    for line in (head_of(path) or "").split("\n")[:4]:
        if line.startswith(CREATED):
            try:
                import json  # here: only uninstall reads the list back

                dirs = json.loads(line[len(CREATED) :])
            except ValueError:
                return []
            return [d for d in dirs if isinstance(d, str)]
    return []


def _names(hooks: Sequence[str] | None, default: Sequence[str] = DEFAULT_HOOKS) -> list[str]:
    if not hooks:
        return list(default)
    for name in hooks:
        if name not in HOOK_NAMES:
            raise BadInput(f"--hook {name!r:.40}: use one of {', '.join(HOOK_NAMES)}")
    return list(dict.fromkeys(hooks))


def _missing_dirs(directory: str) -> list[str]:
    missing = []
    probe = directory
    while not os.path.lexists(probe) and probe != os.path.dirname(probe):
        missing.append(probe)
        probe = os.path.dirname(probe)
    return missing


@frozen
class Plan:
    name: str
    action: str  # new | chain | update | mode | same | legacy | manager
    path: str  # the file our shim goes to (manager: the manager's file, left alone)
    text: str
    manager: str = ""


def say(text: str) -> None:
    """Print, with paths' control characters and stray bytes escaped (a directory name is never a terminal command)."""
    lines = (escape_path(line).replace("\\u0009", "\t") for line in text.split("\n"))
    print("\n".join(lines), file=output.stdout(), flush=True)


def _compared(path: str, text: str) -> str:
    """Our shim at ``path`` against what install writes: "same", "update" (its
    text differs) or "mode" (only its mode: git skips a hook it cannot run)."""
    with open(path, "rb") as f:
        if f.read() != text.encode("utf-8", "surrogateescape"):
            return "update"
    return "same" if stat.S_IMODE(os.lstat(path).st_mode) == MODE else "mode"


def _plan(
    name: str,
    directory: str,
    python: str,
    created: list[str],
    problems: list[str],
    paths: tuple[str, str],
    tracked: frozenset[str] = frozenset(),
) -> Plan:
    path = os.path.join(directory, name)
    who = owner(path)
    if name in tracked and who != "vibegit":  # the project's own hook: renaming or rewriting it dirties the tree
        return Plan(name, "tracked", path, script(name, python, (), paths), who)
    if who == "vibegit":
        text = script(name, python, _created(path), paths)
        return Plan(name, _compared(path, text), path, text)
    if who == "none":
        return Plan(name, "new", path, script(name, python, created, paths))
    if who == "pre-commit":  # the framework runs NAME.legacy first, with the same arguments
        legacy = os.path.join(directory, name + LEGACY)
        if os.path.lexists(legacy) and not is_ours(legacy) and os.path.lexists(legacy + CHAINED):
            problems.append(f"{legacy} is not vibegit's and {name + LEGACY}{CHAINED} exists too; move one of them away")
        text = script(name, python, (), paths)
        same = is_ours(legacy) and _compared(legacy, text) == "same"
        return Plan(name, "same" if same else "legacy", legacy, text, "pre-commit")
    if who in ("husky", "lefthook"):
        return Plan(name, "manager", path, script(name, python, (), paths), who)
    chained = os.path.join(directory, name + CHAINED)
    if os.path.lexists(chained):
        problems.append(f"{path} is not vibegit's and {name + CHAINED} exists too; move one of them away")
    return Plan(name, "chain", path, script(name, python, created, paths), who)


def install(hooks: Sequence[str] | None = None, python: str | None = None, cwd: StrPath | None = None) -> int:
    """Put vibegit's hooks where git runs them: ``hooks``, else the default
    ones and every other one installed before (each mended where it differs)."""
    names = _names(hooks)
    python = sys.executable if python is None else python
    where = place(cwd)
    if not hooks:
        names += [name for name in installed(where) if name not in names]
    directory = where.hooks
    hooks_at = _dir(directory, where)
    found = fs.lstat(hooks_at.root, hooks_at.rel) if hooks_at.rel else None  # a link on the way refuses
    if found is not None and stat.S_ISLNK(found.st_mode):
        raise BadInput(f"{directory}: is a symbolic link; vibegit never writes hooks through links (remove it)")
    if (found is not None and not stat.S_ISDIR(found.st_mode)) or (
        os.path.exists(directory) and not os.path.isdir(directory)
    ):
        raise BadInput(f"{directory}: the hooks path git uses is not a directory")
    missing = _missing_dirs(directory)
    created = list(missing)
    problems: list[str] = []
    paths = git_paths(cwd)
    in_tree = where.top is not None and hooks_at.root == where.top
    tracked = _tracked(where, hooks_at) if in_tree else frozenset()
    plans = [_plan(name, directory, python, created, problems, paths, tracked) for name in names]
    if problems:
        raise Refused("; ".join(problems) + ", then run 'vibegit install' again (nothing was changed)")
    if missing and hooks_at.rel:
        with fs.opendir(hooks_at.root, hooks_at.rel, create=True):
            pass
    elif missing:  # a core.hooksPath of the user's, outside the repository
        os.makedirs(directory)
    private = Dir(where.private, where.common, PRIVATE)
    for plan in plans:
        private.write(plan.name, script(plan.name, python, (), paths))
        _carry_out(plan, hooks_at)
    if in_tree:
        _exclude(where, hooks_at)
    for d in reversed(missing):
        say(f"created {d} (uninstall removes it again when empty)")
    if _is_husky(directory) and "pre-commit" not in names:
        say(
            f"husky: the lock check runs from {os.path.join(directory, LOCK_HOOK)} (husky leaves it alone). To check "
            f"before the editor opens too, for everyone with vibegit, add to "
            f"{os.path.join(os.path.dirname(directory), 'pre-commit')}:\n"
            f"    {caller_line('pre-commit')}\n"
            "  (and run 'vibegit install --hook pre-commit' here; it does nothing where vibegit is not installed)"
        )
    if where.hooks_path is not None:
        say(
            f"core.hooksPath is {where.hooks_path!r} (set in {where.origin or 'git config'}): "
            f"vibegit's hooks went there, where git runs them"
            + (" (husky's directory: its own files were left as they are)" if _is_husky(directory) else "")
        )
    shim_python = python or t("install.on_path")
    say(t("install.hooks_run", directory=directory, version=__version__, python=shim_python))
    return OK


def _is_husky(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, "h")) and os.path.basename(directory) == "_"


def _carry_out(plan: Plan, at: Dir) -> None:
    name, path, directory = plan.name, plan.path, at.path
    if plan.action == "same":
        say(t("install.hook_same", name=name))
        return
    if plan.action == "manager":
        say(_manager_advice(plan, directory))
        return
    if plan.action == "tracked":
        say(
            f"{name}: {path} is the project's (git tracks it): vibegit leaves it as it is. To run vibegit's "
            f"{name} too, add this line to it (safe to commit: it does nothing where vibegit is not installed):\n"
            f"    {caller_line(name)}"
        )
        return
    if plan.action == "legacy":
        base = os.path.basename(path)
        moved = os.path.lexists(path) and not is_ours(path)
        if moved:
            at.rename(base, base + CHAINED)
        at.write(base, plan.text)
        say(
            f"{name}: the pre-commit framework's hook stays; vibegit's runs before it as {base}"
            + (f" (the one that was there is now {base}{CHAINED}, and still runs)" if moved else "")
        )
        return
    if plan.action == "chain":
        at.rename(name, name + CHAINED)
    mode = stat.S_IMODE(os.lstat(path).st_mode) if plan.action == "mode" else MODE
    at.write(name, plan.text)
    if plan.action == "chain":
        whose = f"{plan.manager}'s" if plan.manager else "your existing"
        say(f"{name}: installed; {whose} hook was renamed to {name}{CHAINED} (bytes and mode kept) and {_order(name)}")
    elif plan.action == "update":
        say(t("install.hook_updated", name=name))
    elif plan.action == "mode":
        say(t("install.hook_mode", name=name, mode=f"{mode:o}", want=f"{MODE:o}"))
    else:
        say(t("install.hook_installed", name=name))


def _manager_advice(plan: Plan, directory: str) -> str:
    name = plan.name
    line = caller_line(name)
    if plan.manager == "husky":
        team = os.path.join(os.path.dirname(directory), name)
        return (
            f"{name}: husky's hook stays as it is (never renamed). To run vibegit's {name} through husky, "
            f"add this line to {team} (safe to commit: it does nothing where vibegit is not installed):\n"
            f"    {line}"
        )
    # lefthook runs 'run' with sh -c and no arguments: {0} is its word for git's; the hooks that read
    # git's input (the lock check's ref updates, pre-push's refs, post-rewrite's commits) need it passed on.
    line = line.replace('"$@"', "{0}")
    stdin = "\n          use_stdin: true" if name in ("pre-push", "post-rewrite", LOCK_HOOK) else ""
    return (
        f"{name}: lefthook's hook stays as it is (lefthook would move any other away). To run vibegit's "
        f"{name} through lefthook, add to lefthook-local.yml (or lefthook.yml):\n"
        f"    {name}:\n      commands:\n        vibegit:\n          run: '{line}'{stdin}"
    )


def _order(name: str) -> str:
    if name == "pre-push":
        return "it runs first, with the same arguments and input; the state branch is pushed only if it succeeds"
    if name in ("pre-commit", LOCK_HOOK):
        return "it runs after vibegit's lock check, with the same arguments and input; its exit code decides as before"
    return "it runs after vibegit's, with the same arguments and input; its exit code is the hook's"


def _remove(at: Dir, name: str, label: str) -> set[str]:
    """Remove our shim ``name`` in ``at``, putting back what it chained; the dirs install created."""
    created = set(_created(os.path.join(at.path, name)))
    chained = name + CHAINED
    if os.path.lexists(os.path.join(at.path, chained)):
        at.rename(chained, name, overwrite=True)
        say(f"{label}: removed; the hook it chained is back from {chained}")
    else:
        at.remove(name)
        say(f"{label}: removed")
    return created


def uninstall(hooks: Sequence[str] | None = None, cwd: StrPath | None = None) -> int:
    names = _names(hooks, HOOK_NAMES)
    where = place(cwd)
    created: set[str] = set()
    dirs = [_dir(where.hooks, where)]
    if where.default_hooks != where.hooks:
        dirs.append(Dir(where.default_hooks, where.common, "hooks"))
    private = Dir(where.private, where.common, PRIVATE)
    for name in names:
        found = False
        for at in dirs:
            for suffix in ("", LEGACY, LEFTHOOK_OLD):
                path = os.path.join(at.path, name + suffix)
                if is_ours(path):
                    label = name if at.path == where.hooks and not suffix else path
                    created |= _remove(at, name + suffix, label)
                    found = True
        path = os.path.join(where.hooks, name)
        who = owner(path)
        if who in ("husky", "lefthook") and os.path.exists(os.path.join(where.private, name)):
            say(f"{name}: the {who} line that calls vibegit's {name} does nothing now; remove it when you like")
        elif not found and who not in ("none", "vibegit"):
            say(f"{name}: not vibegit's hook, left alone")
        elif not found and hooks:
            say(f"{name}: not installed")
        if os.path.lexists(os.path.join(where.private, name)):
            private.remove(name)
    restored_lfs = [n for n in names if owner(os.path.join(where.hooks, n)) == "git-lfs"]
    lfs_gone = git.run(["config", "--get", "filter.lfs.process"], cwd=where.top, check=False).returncode != 0
    if restored_lfs and lfs_gone:
        say(
            f"git-lfs's hooks are in place again ({', '.join(restored_lfs)}), but git-lfs is no longer configured "
            "here: 'git lfs uninstall --local' removes them now (it left them while vibegit's were in front)"
        )
    if where.top is not None and dirs[0].root == where.top:
        _exclude(where, dirs[0])  # what of vibegit's is left there (after --hook), else no block at all
    else:
        _unexclude(where)
    for own in (where.private, os.path.dirname(where.private)):
        try:
            os.rmdir(own)
        except OSError:
            pass
    for d in sorted(created, key=len, reverse=True):
        try:
            os.rmdir(d)  # only when empty
            say(f"removed {d}, which install had created")
        except OSError:
            pass
    return OK


# -- a hooks directory inside the working tree: never dirtied -----------------------

EXCLUDED = "vibegit/exclude"  # under the git common dir: the text install added to info/exclude
_EXCLUDE_HEAD = "# vibegit's hook shims, kept out of 'git add' (vibegit uninstall takes these lines out)\n"


def _tracked(where: Place, at: Dir) -> frozenset[str]:
    """The hooks (by name) git tracks in ``at``, a hooks directory inside the working tree."""
    names = [f"{at.rel}/{name}{suffix}" for name in HOOK_NAMES for suffix in ("", LEGACY)]
    proc = git.run(["--literal-pathspecs", "ls-files", "-z", "--", *names], cwd=where.top, check=False)
    return frozenset(p.rsplit("/", 1)[-1] for p in git.text(proc.stdout).split("\0") if p)


def _pattern(rel: str) -> str:
    """``rel`` as an info/exclude line that matches it alone (from the top, no glob)."""
    escaped = re.sub(r"([\\*?\[])", r"\\\1", rel)
    return "/" + (escaped[:-1] + "\\ " if escaped.endswith(" ") else escaped)


def _exclude(where: Place, at: Dir) -> None:
    """List vibegit's files in ``at`` (its shims, the hooks they chain) in
    info/exclude, in one block of its own, so 'git add .' never takes them;
    the text added is kept beside, so uninstall takes out exactly that."""
    _unexclude(where)
    ours = [
        f
        for name in HOOK_NAMES
        for f in (name, name + CHAINED, name + LEGACY, name + LEGACY + CHAINED)
        if is_ours(os.path.join(at.path, f)) or (f.endswith(CHAINED) and os.path.lexists(os.path.join(at.path, f)))
    ]
    if not ours:
        return
    text = (fs.read(where.common, "info/exclude", 1 << 20) or b"").decode(errors="surrogateescape")
    block = _EXCLUDE_HEAD + "".join(_pattern(f"{at.rel}/{f}") + "\n" for f in ours)
    added = ("" if not text or text.endswith("\n") else "\n") + block
    fs.write(where.common, EXCLUDED, added.encode(errors="surrogateescape"))
    fs.append(where.common, "info/exclude", added.encode(errors="surrogateescape"))


def _unexclude(where: Place) -> None:
    """Take out of info/exclude the block ``_exclude`` added, byte for byte
    (its leading newline too when nothing was added after it)."""
    added = fs.read(where.common, EXCLUDED, 1 << 20)
    if added is None:
        return
    data = fs.read(where.common, "info/exclude", 1 << 20) or b""
    block = added.removeprefix(b"\n")
    if data.endswith(added):
        data = data[: len(data) - len(added)]
    elif block in data:
        data = data.replace(block, b"", 1)
    else:  # edited since: each line of ours that is still there, once
        lines = data.splitlines(keepends=True)
        for line in block.splitlines(keepends=True):
            if line in lines:
                lines.remove(line)
        data = b"".join(lines)
    fs.write(where.common, "info/exclude", data)
    fs.remove(where.common, EXCLUDED)


def outdated(where: Place) -> list[str]:
    """The hooks of ours that run but are not what ``vibegit install`` writes
    now (another version wrote them, their interpreter is gone, or a hand
    edit): each with the fix. An interpreter that still runs is kept (the
    same vibegit has many paths: python, python3, a venv's). Reads git's
    paths: for doctor, not every command."""
    paths = git_paths(where.top)
    found = []
    for name in installed(where):
        who, path = runs(where, name)
        if not is_ours(path) or problem(where, name):
            continue  # hook_problems names it
        python = interpreter(path)
        if python is None or (python and not os.access(python, os.X_OK)):
            python = sys.executable  # what install writes
        created = _created(path) if who == "vibegit" else ()
        with open(path, "rb") as f:
            outdated = f.read() != script(name, python, created, paths).encode("utf-8", "surrogateescape")
        if outdated:
            found.append(t("hooks.outdated", name=name, path=path))
    return found


def interpreter(path: str) -> str | None:
    """The Python the shim at ``path`` runs vibegit with ("": vibegit on PATH), as
    shims/head.sh's ``@PYTHON@`` line holds it; None when no such line is there."""
    import shlex  # doctor only

    line = next(x for x in _resource("head.sh").splitlines() if "@PYTHON@" in x)
    before, _, after = line.partition("@PYTHON@")
    for found in (head_of(path) or "").splitlines():
        if found.startswith(before) and found.endswith(after):
            try:
                words = shlex.split(found[len(before) : len(found) - len(after)])
            except ValueError:
                return None
            return words[0] if len(words) == 1 else "" if not words else None
    return None


def lfs_problem(where: Place, lfs_configured: bool) -> str | None:
    """git-lfs is set up here but its pre-push hook no longer runs (vibegit was there first)."""
    if not lfs_configured:
        return None
    for path in (os.path.join(where.hooks, "pre-push"), os.path.join(where.hooks, "pre-push" + CHAINED)):
        if "git lfs pre-push" in (head_of(path) or "") or "git-lfs pre-push" in (head_of(path) or ""):
            return None
    return t("hooks.lfs")


def write_shipped(directory: str) -> None:
    """Regenerate the repository's hooks/ (shims that find ``vibegit`` on PATH,
    and the pre-commit framework's entry)."""
    for name in HOOK_NAMES:
        fs.write(directory, name, script(name).encode(), 0o755)
    fs.write(directory, FRAMEWORK_ENTRY, framework_script().encode(), 0o755)


if __name__ == "__main__":  # python -m vibegit.infra.hookfiles, from the repository root
    write_shipped("hooks")
