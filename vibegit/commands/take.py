"""``take``: write the configuration ``resume`` withheld from the checkpoint's
snapshot (core/configfiles.py says what is configuration), once a person
has seen the difference (``--diff``) and said yes.

Configuration runs commands or steers an agent, and the snapshot comes
from the state branch, which anyone who can push to the remote writes: so
taking it is a person's decision (``app.person_confirms``: refused where an
agent runs the command, asked on a terminal, ``--yes`` outside agents), and
what stands at those paths now is saved first where one printed command
brings it back.
"""

from __future__ import annotations

import shlex

from vibegit import app
from vibegit.core import workflows
from vibegit.core.messages import t
from vibegit.core.text import escape_path, unescape_path
from vibegit.errors import OK, BadInput, Refused
from vibegit.infra import git, machine, snapshot, store


def take(paths: list[str], diff: bool, yes: bool, workflow: str | None) -> int:
    ctx = app.enter()
    repo = ctx.repo
    e = app.facts(ctx)
    loaded = store.read_state(repo, ctx.settings)
    target = workflows.choose(loaded.index, e, workflow)
    current = store.flow(repo, git.reader(repo), loaded, target.id) if target else loaded.fresh()
    k = current.state.checkpoint
    label = current.id or "-"
    if k is None or not k.snapshot:
        raise Refused(t("take.nothing", workflow=label))
    stored = next((x.oid for x in current.tree if x.name == store.SNAPSHOT and x.mode == "40000"), None)
    if stored != k.snapshot:
        raise BadInput(t("resume.bad_snapshot", snap=k.snapshot[:12], branch=ctx.settings.state_branch))
    base = git.tree_of(repo, k.commit)
    p = snapshot.plan(repo, k.snapshot, base, ctx.settings.mirror_dir, snapshot.hooks_dirs(repo, ctx.config))
    chosen = _chosen(p, [unescape_path(path) for path in paths])
    listed = ", ".join(escape_path(path) for path in chosen)
    if diff:
        shown = git.run(
            ["diff", "--no-ext-diff", "--no-color", base or snapshot.empty_tree(repo), k.snapshot, "--", *chosen],
            cwd=repo.toplevel,
        ).stdout
        app.say(shown.decode(errors="replace").rstrip("\n") or t("take.no_difference", paths=listed))
        return OK
    which = f" --workflow {current.id}" if current.id else ""
    app.person_confirms(
        t("take.confirm", n=len(chosen), paths=listed),
        yes,
        t("take.not_confirmed"),
        f"vibegit take{which} {' '.join(shlex.quote(path) for path in paths)}",
    )
    remove = snapshot.standing(repo, chosen)
    if remove:
        backup = snapshot.save(repo, remove, machine.now().replace(":", "").replace("-", ""))
        saved = ", ".join(escape_path(path) for path in remove)
        app.say(t("resume.saved", n=len(remove), paths=saved, backup=backup, restore=snapshot.put_back(repo, backup)))
    writes = [path for path in chosen if p.wanted[path].new is not None]
    deletes = [path for path in chosen if p.wanted[path].new is None]
    snapshot.apply(repo, p, k.snapshot, writes, deletes, remove)
    app.say(t("take.taken", n=len(chosen), paths=listed, written=len(writes), deleted=len(chosen) - len(writes)))
    return OK


def _chosen(p: snapshot.Plan, asked: list[str]) -> list[str]:
    """The withheld paths ``asked`` names (a path, or a directory holding some)."""
    held = sorted(p.configuration)
    chosen: dict[str, None] = {}
    for path in asked:
        path = path.strip("/")
        found = [h for h in held if h == path or h.startswith(path + "/")]
        if not path or not found:
            shown = ", ".join(escape_path(h) for h in held[:20]) + (" …" if len(held) > 20 else "")
            known = t("take.known", paths=shown) if held else t("take.none_known")
            raise BadInput(t("take.not_withheld", path=escape_path(path), known=known))
        chosen.update(dict.fromkeys(found))
    return sorted(chosen)
