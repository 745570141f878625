"""Many workflows at once: which one belongs where, and which one a command acts on.

A workflow belongs to where it was started: the branch it works on, or, on a
detached HEAD, the worktree. Any number run at once in one repository (one
per worktree and branch, one per teammate). The state branch keeps an index
of them (``Summary``) so that a command, a hook or ``vibegit list`` finds
the right one without reading every workflow.
"""

from __future__ import annotations

from vibegit.core.messages import t
from vibegit.core.model import ACTIVE, Env, Phase, State, Status, held_here
from vibegit.core.records import frozen
from vibegit.core.text import spelled
from vibegit.errors import BadInput, Refused

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from typing import Any

DETACHED = ".detached"  # the branch key of workflows started on a detached HEAD (no ref starts with ".")


@frozen
class Summary:
    """One workflow as the index lists it."""

    id: str
    name: str
    status: Status
    branch: str | None  # None: started on a detached HEAD, bound to ``worktree``
    worktree: str
    host: str = ""  # the host name of who holds its lock ("" without one)
    holder: str = ""  # the worktree that holds its lock
    machine: str = ""  # the clone that holds its lock (model.held_here)
    phase: Phase | None = None
    step: str | None = None
    done: int = 0
    total: int = 0
    updated_at: str = ""

    @property
    def active(self) -> bool:
        return self.status in ACTIVE

    def where(self) -> str:
        return t("where.branch", branch=self.branch) if self.branch else t("where.detached_in", worktree=self.worktree)

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "status": self.status.value,
            "branch": self.branch,
            "worktree": self.worktree,
            "host": self.host,
            "holder": self.holder,
            "machine": self.machine,
            "phase": self.phase.value if self.phase else None,
            "step": self.step,
            "done": self.done,
            "total": self.total,
            "updated_at": self.updated_at,
        }

    def held_here(self, env: Env, *, clone_only: bool = False) -> bool:
        """Whether its lock is held here: this clone (and, unless ``clone_only``, this worktree)."""
        return held_here(self.machine, self.host, self.holder, env, clone_only=clone_only)

    def label(self) -> str:
        held = t("workflows.held_by", host=self.host) if self.host else ""
        status = t(f"status.{self.status.value}")
        return t("workflows.label", name=self.name, id=self.id, status=status, where=self.where(), held=held)


def summarize(state: State) -> Summary:
    lock = state.lock
    return Summary(
        id=state.workflow.id,
        name=state.mode.workflow_name or state.workflow.id,
        status=state.workflow.status,
        branch=state.workflow.branch,
        worktree=state.workflow.worktree or "",
        host=lock.host if lock else "",
        holder=lock.worktree if lock else "",
        machine=lock.machine if lock else "",
        phase=state.mode.phase,
        step=state.mode.step,
        done=state.completed_tasks,
        total=state.total_tasks,
        updated_at=state.session.updated_at,
    )


def branch_key(branch: str | None) -> str:
    """The file name under ``branches/`` of the state tree for ``branch``: a
    tree entry with '/' and '%' escaped (the shims compute the same in sh)."""
    if branch is None:
        return DETACHED
    return branch.replace("%", "%25").replace("/", "%2F")


def bound_keys(index: tuple[Summary, ...]) -> dict[str, tuple[str, ...]]:
    """``branches/<key>`` -> ids of the active workflows bound there (the hooks' fast path)."""
    keys: dict[str, list[str]] = {}
    for s in index:
        if s.active:
            keys.setdefault(branch_key(s.branch), []).append(s.id)
    return {key: tuple(ids) for key, ids in sorted(keys.items())}


def belongs_here(s: Summary, env: Env) -> bool:
    """Bound to this worktree's branch, or (detached) to this worktree."""
    if env.branch is not None:
        return s.branch == env.branch
    return s.branch is None and s.worktree == env.worktree


def bound_here(index: tuple[Summary, ...], env: Env) -> Summary | None:
    """The active workflow of this worktree, if exactly one can be told: held
    here first, then held by this clone, then the only one bound here."""
    here = [s for s in index if s.active and belongs_here(s, env)]
    for narrower in (
        [s for s in here if s.held_here(env)],
        [s for s in here if s.held_here(env, clone_only=True)],
        here,
    ):
        if len(narrower) == 1:
            return narrower[0]
    return None


def ambiguous_here(index: tuple[Summary, ...], env: Env) -> list[Summary]:
    """Several active workflows bound here and none of them ours (teammates on a same-named branch)."""
    here = [s for s in index if s.active and belongs_here(s, env)]
    return here if len(here) > 1 and bound_here(index, env) is None else []


def find(index: tuple[Summary, ...], given: str) -> Summary:
    """``--workflow`` by id, or by name when only one active (or only one at all) has it."""
    exact = [s for s in index if s.id == given]
    if exact:
        return exact[0]
    named = [s for s in index if s.name == given]
    for narrower in ([s for s in named if s.active], named):
        if len(narrower) == 1:
            return narrower[0]
    if named:
        raise BadInput(t("workflows.several_named", given=given, named=_list(named)))
    known = _list(index) if index else t("lifecycle.none_yet")
    raise BadInput(t("workflows.no_such", given=given, known=known))


def choose(index: tuple[Summary, ...], env: Env, given: str | None) -> Summary | None:
    """The workflow a command acts on: ``--workflow``, else the one of this
    worktree; when none runs anywhere, the last one here (ended) or None (a
    command then says no workflow was started). Never one that runs
    elsewhere, silently."""
    if given is not None:
        return find(index, given)
    mine = bound_here(index, env)
    if mine is not None:
        return mine
    several = ambiguous_here(index, env)
    if several:
        raise Refused(t("workflows.several_here", here=_here(env), several=_list(several)))
    elsewhere = [s for s in index if s.active]
    if elsewhere:
        raise Refused(t("workflows.none_here", here=_here(env), elsewhere=_list(elsewhere)))
    return last_here(index, env)  # ended (the rules then say so), or None: none was ever started here


def last_here(index: tuple[Summary, ...], env: Env) -> Summary | None:
    """The most recent workflow that belonged here, whatever its status."""
    here = [s for s in index if belongs_here(s, env)]
    return max(here, key=lambda s: s.updated_at) if here else None


def shown_here(index: tuple[Summary, ...], env: Env) -> Summary | None:
    """What this worktree's mirror and reports show: its workflow, else the last one it had."""
    return bound_here(index, env) or last_here(index, env)


def mine_here(index: tuple[Summary, ...], env: Env) -> Summary | None:
    """An active workflow bound here and held by this clone: a new one may not start beside it."""
    return next((s for s in index if s.active and belongs_here(s, env) and s.held_here(env, clone_only=True)), None)


def others(index: tuple[Summary, ...], mine: str | None) -> list[Summary]:
    """The other workflows that run (or are paused) in the repository."""
    return [s for s in index if s.active and s.id != mine]


def others_line(rest: list[Summary]) -> str:
    """Them in one line ('' for none)."""
    shown = ", ".join(f"{s.name} {s.where()}" + (f" ({s.host})" if s.host else "") for s in rest[:8])
    more = t("workflows.and_more", n=len(rest) - 8) if len(rest) > 8 else ""
    return f"{shown}{more} (vibegit list)" if rest else ""


def is_workflow_id(value: str) -> bool:
    return spelled(value, 80) and ".." not in value


def new_id(name: str, nonce: str) -> str:
    """A new workflow's id: its name in safe characters (it names a directory of
    the state tree), and a random part, so two machines never pick the same."""
    import re  # only a new workflow names one

    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip(".-_")[:60] or "workflow"
    return f"{safe}-{nonce}" if nonce else safe


def check_id(value: str, what: str) -> str:
    if not is_workflow_id(value):
        raise BadInput(f"{what}: {value[:60]!r} is not a workflow id (letters, digits, '.', '_', '-')")
    return value


def _here(env: Env) -> str:
    return t("where.branch", branch=env.branch) if env.branch else t("where.this_detached", worktree=env.worktree)


def _list(items: list[Summary] | tuple[Summary, ...]) -> str:
    more = t("workflows.more", n=len(items) - 10) if len(items) > 10 else ""
    return "; ".join(s.label() for s in items[:10]) + more
