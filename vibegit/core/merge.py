"""Merging two lines of workflow state that diverged: data in, data out.

Three-way, against the merge base, field by field:

- a field changed on one side only takes that change;
- a field changed on both sides takes the newer side's value (the side whose
  ``session.updated_at`` is later; a checkpoint by its own ``created_at``);
- whole units are never mixed: a checkpoint (commit, snapshot, file:line go
  together) and the run state (status, mode type, lock) come from one side;
- tasks are united by id (status: furthest along wins, todo < doing < done;
  the title: newer wins); other lists (memory entries, open questions) are
  united too, dropping only what one side removed and the other left alone;
  two different entries added under the same id both stay (one renamed);
- the free notes of ``active_context.md`` are merged as text (the caller's
  ``merge_text``, ``git merge-file``), conflict markers kept if any;
- when the two sides run different workflows (another was started), the side
  that started the newer one wins wholesale; the other stays in history.

Every decision that was not a one-sided change is reported.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from vibegit.core.model import Memory, State, Task, TaskStatus
from vibegit.core.records import field, fields, is_record, mutable, replace

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from typing import Any, TypeVar

TextMerge = Callable[[str, str, str], "tuple[str, bool]"]  # base, ours, theirs -> merged, conflicted
ORDER = (TaskStatus.TODO, TaskStatus.DOING, TaskStatus.DONE)
_MISSING = object()


@mutable
class Context:
    here: str
    there: str
    theirs_newer: bool
    decisions: list[str] = field(default_factory=list)
    taken: list[str] = field(default_factory=list)  # fields taken from the other side, one-sided

    def newer(self) -> str:
        return self.there if self.theirs_newer else self.here


def _show(value: Any) -> str:
    if hasattr(value, "value") and not is_record(value):
        value = value.value
    text = repr(value) if not isinstance(value, str) else f"'{value}'"
    return text if len(text) <= 60 else text[:57] + "…"


def _key(item: Any) -> Any:
    return getattr(item, "id", item)


_HIGHEST = (".last_id", ".last_question_id")  # the highest id ever given: the higher side, never a lower one


def _value(base: Any, ours: Any, theirs: Any, path: str, ctx: Context) -> Any:
    if ours == theirs:
        return ours
    if path.endswith(_HIGHEST) and isinstance(ours, int) and isinstance(theirs, int):
        return max(ours, theirs)
    if base is not _MISSING and base == ours:
        ctx.taken.append(path)
        return theirs
    if base is not _MISSING and base == theirs:
        return ours
    if is_record(ours) and type(ours) is type(theirs):
        changes = {}
        for name in fields(ours):
            b = getattr(base, name) if type(base) is type(ours) else _MISSING
            changes[name] = _value(b, getattr(ours, name), getattr(theirs, name), f"{path}.{name}", ctx)
        return replace(ours, **changes)
    if isinstance(ours, dict) and isinstance(theirs, dict):
        b = base if isinstance(base, dict) else {}
        out: dict[Any, Any] = {}
        for k in [*ours, *[k for k in theirs if k not in ours]]:
            o, t, bb = ours.get(k, _MISSING), theirs.get(k, _MISSING), b.get(k, _MISSING)
            if o is _MISSING or t is _MISSING:
                present = t if o is _MISSING else o
                if bb is not _MISSING and bb == present:
                    continue  # removed on one side, untouched on the other
                out[k] = present
            else:
                out[k] = _value(bb, o, t, f"{path}.{k}", ctx)
        return out
    if isinstance(ours, tuple) and isinstance(theirs, tuple):
        return _union(base if isinstance(base, tuple) else (), ours, theirs, path, ctx)
    winner, loser = (theirs, ours) if ctx.theirs_newer else (ours, theirs)
    ctx.decisions.append(f"{path}: {_show(winner)} from {ctx.newer()} (newer) over {_show(loser)}")
    return winner


def _union(
    base: tuple[Any, ...], ours: tuple[Any, ...], theirs: tuple[Any, ...], path: str, ctx: Context
) -> tuple[Any, ...]:
    b = {_key(x): x for x in base}
    o = {_key(x): x for x in ours}
    t = {_key(x): x for x in theirs}
    out: list[Any] = []
    renamed: list[Any] = []
    for k in [*o, *[k for k in t if k not in o]]:
        if k in o and k in t:
            if k not in b and o[k] != t[k] and hasattr(o[k], "id"):
                out.append(o[k])  # two different things added under one id: keep both
                renamed.append(t[k])
                continue
            out.append(_value(b.get(k, _MISSING), o[k], t[k], f"{path}[{k}]", ctx))
            continue
        present = o[k] if k in o else t[k]
        if k in b and b[k] == present:
            continue  # removed on one side, untouched on the other
        out.append(present)
    used = {_key(x) for x in out} | {_key(x) for x in renamed}
    for item in renamed:
        new_id: Any = (
            max(u for u in used if isinstance(u, int)) + 1 if isinstance(item.id, int) else fresh_id(item.id, used)
        )
        used.add(new_id)
        ctx.decisions.append(f"{path}: both sides added {item.id}; the one from {ctx.there} is now {new_id}")
        out.append(replace(item, id=new_id))
    return tuple(out)


_NUMBERED = re.compile(r"(.*?)(\d+)\Z")


def fresh_id(taken_id: str, used: set[str]) -> str:
    """A new id for an item whose id the other side took: the next number of
    the same series (T-002 -> T-005 when T-004 is the highest), else -2, -3 …"""
    found = _NUMBERED.match(taken_id)
    if found:
        prefix, digits = found.groups()
        numbers = [int(m.group(2)) for u in used if (m := _NUMBERED.match(u)) and m.group(1) == prefix]
        candidate = f"{prefix}{max(numbers, default=0) + 1:0{len(digits)}d}"
        if candidate not in used:
            return candidate
    n = 2
    while f"{taken_id}-{n}" in used:
        n += 1
    return f"{taken_id}-{n}"


def _tasks(base: tuple[Task, ...], ours: tuple[Task, ...], theirs: tuple[Task, ...], ctx: Context) -> tuple[Task, ...]:
    b = {t.id: t for t in base}
    o = {t.id: t for t in ours}
    t = {x.id: x for x in theirs}
    out: list[Task] = []
    clashes: list[Task] = []
    for k in [*o, *[k for k in t if k not in o]]:
        if k in o and k in t and k not in b and o[k].title != t[k].title:
            out.append(o[k])  # two different tasks added under one id: both stay, one renumbered
            clashes.append(t[k])
            continue
        if k in o and k in t:
            mine, other = o[k], t[k]
            status = max(mine.status, other.status, key=ORDER.index)
            if mine.status != other.status:
                side = ctx.here if status is mine.status else ctx.there
                ctx.decisions.append(f"task {k}: {status.value} from {side} (furthest along)")
            title = _value(b[k].title if k in b else _MISSING, mine.title, other.title, f"task {k} title", ctx)
            out.append(Task(k, title, status))
        else:
            out.append(o.get(k) or t[k])  # a task is never dropped
    added = [k for k in t if k not in o]
    if added:
        ctx.decisions.append(f"tasks: united; from {ctx.there}: {', '.join(added)}")
    used = {x.id for x in out} | {x.id for x in clashes}
    for task in clashes:
        new_id = fresh_id(task.id, used)
        used.add(new_id)
        ctx.decisions.append(f"task {task.id}: both sides added one; the one from {ctx.there} is now {new_id}")
        out.append(replace(task, id=new_id))
    return tuple(out)


def _identity(state: State) -> tuple[Any, ...]:
    return (state.mode.workflow_name, state.workflow.started_at)


def _run_state(state: State) -> tuple[Any, ...]:
    return (state.workflow.status, state.mode.type, state.lock)


def _pick(base: State | None, ours: State, theirs: State, what: Callable[[State], Any], ctx: Context) -> State:
    """The side to take a whole unit from: the one that changed it, else the newer."""
    o, t = what(ours), what(theirs)
    if o == t or (base is not None and what(base) == t):
        return ours
    if base is not None and what(base) == o:
        return theirs
    return theirs if ctx.theirs_newer else ours


def merge(
    base: State | None,
    ours: State,
    theirs: State,
    *,
    here: str,
    there: str,
    now: str,
    merge_text: TextMerge,
) -> tuple[State, list[str]]:
    """The merged state and what was decided, in words."""
    ctx = Context(here, there, theirs.session.updated_at > ours.session.updated_at)
    if _identity(ours) != _identity(theirs):
        # The side that started the newer workflow (a side with none loses).
        started = Context(here, there, (theirs.workflow.started_at or "") > (ours.workflow.started_at or ""))
        side = _pick(base, ours, theirs, _identity, started)
        name = ctx.here if side is ours else ctx.there
        other = theirs if side is ours else ours
        kept = f"; {other.mode.workflow_name!r} stays in the history" if other.mode.workflow_name else ""
        ctx.decisions.append(
            f"workflow: {side.mode.workflow_name!r} (started {side.workflow.started_at}) from {name}{kept}"
        )
        b_memory = base.memory if base is not None else _MISSING
        merged = replace(side, memory=_value(b_memory, ours.memory, theirs.memory, "memory", ctx))
        return replace(merged, session=replace(merged.session, updated_at=now)), ctx.decisions

    # Status, mode type and lock are one unit: never "completed" with a lock.
    run = _pick(base, ours, theirs, _run_state, ctx)

    def norm(s: State) -> State:  # the units decided apart are left out of the field merge
        return replace(
            s,
            session=replace(s.session, updated_at=""),
            workflow=replace(s.workflow, status=run.workflow.status),
            mode=replace(s.mode, type=run.mode.type),
        )

    nb, no, nt = (norm(base) if base is not None else None), norm(ours), norm(theirs)
    changes: dict[str, Any] = {}
    for name in fields(State):
        if name in ("tasks", "notes", "checkpoint", "lock"):
            continue
        bv = getattr(nb, name) if nb is not None else _MISSING
        changes[name] = _value(bv, getattr(no, name), getattr(nt, name), name, ctx)
    changes["tasks"] = _tasks(base.tasks if base is not None else (), ours.tasks, theirs.tasks, ctx)

    # A checkpoint is one unit, the newer by its own time when both moved.
    ck_ctx = Context(
        here,
        there,
        (theirs.checkpoint.created_at if theirs.checkpoint else "")
        > (ours.checkpoint.created_at if ours.checkpoint else ""),
    )
    ck = _pick(base, ours, theirs, lambda s: s.checkpoint, ck_ctx)
    changes["checkpoint"] = ck.checkpoint
    if ours.checkpoint != theirs.checkpoint and (
        base is None or base.checkpoint not in (ours.checkpoint, theirs.checkpoint)
    ):
        ctx.decisions.append(f"checkpoint: the newer one, from {ctx.here if ck is ours else ctx.there}")
    elif ck is theirs and ours.checkpoint != theirs.checkpoint:
        ctx.taken.append("checkpoint")

    changes["lock"] = run.lock
    if _run_state(ours) != _run_state(theirs):
        holder = f", lock held by {run.lock.host}:{run.lock.worktree}" if run.lock and run.lock.locked else ""
        ctx.decisions.append(
            f"status: {run.workflow.status.value} from {ctx.here if run is ours else ctx.there}{holder}"
        )

    notes = ours.notes
    if ours.notes != theirs.notes:
        base_notes = base.notes if base is not None else ""
        notes, conflicted = merge_text(base_notes, ours.notes, theirs.notes)
        if conflicted:
            ctx.decisions.append("notes: both sides edited the same lines; conflict markers left in active_context.md")
        elif base_notes not in (ours.notes, theirs.notes):
            ctx.decisions.append("notes: both sides' edits merged as text")
    changes["notes"] = notes
    merged = replace(ours, **changes)
    current = merged.workflow.current_task
    if current and merged.task(current) is None:
        merged = replace(merged, workflow=replace(merged.workflow, current_task=None))
    if ctx.taken:
        taken = sorted({p.split(".")[0].split("[")[0] for p in ctx.taken})
        ctx.decisions.insert(0, f"from {ctx.there}: {', '.join(taken)} (changed there only)")
    return replace(merged, session=replace(merged.session, updated_at=now)), ctx.decisions


if TYPE_CHECKING:
    T = TypeVar("T")


def merge_files(
    base: dict[str, T], ours: dict[str, T], theirs: dict[str, T], theirs_newer: bool, there: str, decisions: list[str]
) -> list[T]:
    """Files of the state tree that are not state files, by name: three-way, the newer side when both changed."""
    out = []
    for name in sorted(set(ours) | set(theirs)):
        mine, other, was = ours.get(name), theirs.get(name), base.get(name)
        if mine == other or other == was:
            chosen = mine
        elif mine == was:
            chosen = other
        else:
            chosen = other if theirs_newer else mine
            decisions.append(f"{name}: changed on both sides; kept the newer, from {there if theirs_newer else 'here'}")
        if chosen is not None:
            out.append(chosen)
    return out


def merge_memory(
    base: Memory | None, ours: Memory, theirs: Memory, *, here: str, there: str, theirs_newer: bool
) -> tuple[Memory, list[str]]:
    """The memory all workflows share: entries united (two added under one id
    both stay, one renumbered), removals kept, an entry changed on both sides
    taken from the newer side."""
    ctx = Context(here, there, theirs_newer)
    merged = _value(base if base is not None else _MISSING, ours, theirs, "memory", ctx)
    return merged, ctx.decisions
