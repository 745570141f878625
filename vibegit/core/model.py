"""The state model: closed sets as enums, records as frozen records (``core/records.py``).

Shapes follow the Session Manager skill's ``session.yaml``; ``extra`` keeps
keys we do not know so hand-added data survives every event.
"""

from __future__ import annotations

from enum import Enum

from vibegit.core.messages import PHASE_TITLES
from vibegit.core.records import field, frozen
from vibegit.core.text import HEX, spelled

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from typing import Any


class Phase(str, Enum):
    R1 = "R1"
    I = "I"  # noqa: E741 - the skill's name for the innovate phase
    P = "P"
    E = "E"
    R2 = "R2"

    @property
    def long_name(self) -> str:
        return PHASE_TITLES[self.value]


class Status(str, Enum):
    INIT = "init"
    RUNNING = "running"
    PAUSED = "paused"
    COMPLETED = "completed"
    FAILED = "failed"
    ABORTED = "aborted"


ACTIVE = (Status.RUNNING, Status.PAUSED)


class ModeType(str, Enum):
    WORKFLOW = "workflow"
    PAUSED = "paused"
    CONVERSATION = "conversation"


class TaskStatus(str, Enum):
    TODO = "todo"
    DOING = "doing"
    DONE = "done"


@frozen
class Session:
    id: str = ""
    created_at: str = ""
    updated_at: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


@frozen
class Mode:
    type: ModeType = ModeType.CONVERSATION
    workflow_name: str | None = None
    phase: Phase | None = None
    step: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@frozen
class PhaseVisit:
    """One entry into a phase: the completion report lists them."""

    phase: Phase
    step: str | None = None
    at: str = ""


@frozen
class Workflow:
    status: Status = Status.INIT
    started_at: str | None = None
    branch: str | None = None  # the branch it was started on: it belongs there
    current_task: str | None = None
    id: str = ""  # unique among the workflows of the state branch: name-xxxxxx
    worktree: str | None = None  # where it was started: it belongs there on a detached HEAD
    phases: tuple[PhaseVisit, ...] = ()  # every phase entered, in order
    ended_at: str | None = None  # completed, aborted, unlocked or failed at
    error: str = ""  # why it failed (vibegit fail)
    removed_tasks: tuple[str, ...] = ()  # ids taken out by hand: never given again
    lessons: tuple[str, ...] = ()  # what completion recorded into memory
    extra: dict[str, Any] = field(default_factory=dict)


@frozen
class Question:
    """An open question (``answer`` None) or an answered one; its id is never given again."""

    id: int
    text: str
    asked_at: str = ""
    answer: str | None = None
    answered_at: str = ""


@frozen
class Context:
    goal: str = ""
    last_action: str = ""
    next_action: str = ""
    pending_questions: tuple[Question, ...] = ()
    answered_questions: tuple[Question, ...] = ()
    last_question_id: int = 0  # the highest question id ever given
    extra: dict[str, Any] = field(default_factory=dict)

    def next_question_id(self) -> int:
        return max([self.last_question_id, *(q.id for q in (*self.pending_questions, *self.answered_questions))]) + 1


@frozen
class Checkpoint:
    commit: str | None = None
    branch: str | None = None
    snapshot: str | None = None
    file: str | None = None
    line: int | None = None
    line_text: str | None = None  # the anchored line's content, to find it again
    action: str = ""
    created_at: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


@frozen
class Lock:
    locked: bool
    workflow: str
    locked_at: str
    reason: str
    unlock_conditions: tuple[str, ...]
    paused: bool = False
    host: str = ""  # the holder's host name: a label for people
    worktree: str = ""
    machine: str = ""  # the holder's clone (``Env.machine``); "" in a lock written before clones had ids
    extra: dict[str, Any] = field(default_factory=dict)

    def held_here(self, env: Env, *, clone_only: bool = False) -> bool:
        """Whether this clone (and, unless ``clone_only``, this worktree) holds it."""
        return held_here(self.machine, self.host, self.worktree, env, clone_only=clone_only)

    def elsewhere(self, env: Env, *, clone_only: bool = False) -> bool:
        """Held (locked) by a holder it names, and that is not here: another clone (or worktree)."""
        return self.locked and bool(self.machine or self.host) and not self.held_here(env, clone_only=clone_only)

    @property
    def holder(self) -> str:
        """Who holds it, for people: host:worktree."""
        return f"{self.host or '?'}:{self.worktree or '?'}"


@frozen
class Task:
    id: str
    title: str
    status: TaskStatus = TaskStatus.TODO


class MemoryCategory(str, Enum):
    # Order is the report's: what must never happen comes first.
    FORBIDDEN_ACTION = "forbidden_action"
    USER_PREFERENCE = "user_preference"
    CODE_PATTERN = "code_pattern"
    PROJECT_KNOWLEDGE = "project_knowledge"


@frozen
class MemoryEntry:
    id: str
    category: MemoryCategory
    text: str
    created_at: str = ""
    source: str | None = None  # the watched doc a learned entry came from
    heading: str | None = None  # the doc's heading above the item
    extra: dict[str, Any] = field(default_factory=dict)


@frozen
class Memory:
    """What all workflows share: ``memory.yaml`` (entries survive workflows;
    ``learned`` maps each watched doc to the blob id it was last learned
    from) and the knowledge docs (``conventions.md``, ``decisions.md``)."""

    entries: tuple[MemoryEntry, ...] = ()
    learned: dict[str, str] = field(default_factory=dict)
    last_id: int = 0  # the highest M-NNN ever given: ids are never reused, also after a removal
    docs: dict[str, str] = field(default_factory=dict)  # the knowledge docs (conventions.md …): name -> text
    extra: dict[str, Any] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.entries or self.learned or self.last_id or self.docs or self.extra)


@frozen
class State:
    session: Session = Session()
    mode: Mode = Mode()
    workflow: Workflow = Workflow()
    context: Context = Context()
    checkpoint: Checkpoint | None = None
    lock: Lock | None = None
    tasks: tuple[Task, ...] = ()
    notes: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    memory: Memory = Memory()

    @property
    def total_tasks(self) -> int:
        return len(self.tasks)

    @property
    def completed_tasks(self) -> int:
        return sum(t.status is TaskStatus.DONE for t in self.tasks)

    def task(self, task_id: str) -> Task | None:
        return next((t for t in self.tasks if t.id == task_id), None)


@frozen
class Env:
    """Facts of the moment an event happens, gathered by the caller."""

    now: str
    host: str = ""  # this machine's name: a label for people
    worktree: str = ""
    head: str | None = None
    branch: str | None = None
    new_session_id: str = ""
    nonce: str = ""  # random hex, for a new workflow's id
    machine: str = ""  # this clone's id (kept in its git directory): what tells holders apart


def is_machine_id(value: str) -> bool:  # a clone's id: random hex
    return spelled(value, 64, first=HEX, rest=HEX, shortest=16)


def held_here(machine: str, host: str, worktree: str, env: Env, *, clone_only: bool = False) -> bool:
    """The one rule of who holds a lock: is a lock recorded as held by clone
    ``machine`` (on ``host``) in ``worktree`` held here? A holder is one clone
    (its machine id; the host name is only a label, so two clones on one host,
    or two machines of one name, are two holders) and the worktree in it. A
    lock written before clones had ids matches by host name and worktree.
    ``clone_only``: by this clone in any of its worktrees (they share one
    state branch). A lock that names no holder at all is nobody's here."""
    if machine:
        ours = machine == env.machine
    else:
        ours = bool(host) and host == env.host
    return ours and (clone_only or worktree == env.worktree)


@frozen
class Event:
    """What one lifecycle step did: the commit message is made from it."""

    name: str
    summary: str
    task: str | None = None
    details: tuple[str, ...] = ()  # extra trailer lines, "Key: value"
    docs: tuple[str, ...] = ()  # the docs that changed (onDocChange runs once for each)
    lessons: tuple[str, ...] = ()  # what was learned (onLearn gets them)


Result = tuple[State, Event]  # what every transition returns
