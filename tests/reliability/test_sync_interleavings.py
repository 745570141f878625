"""Property, end to end: any interleaving of events on two machines (tasks,
memory, questions, takeovers back and forth, syncs in any order), followed
by syncs until both agree, loses no task, memory entry, open question or
event. Real clones of one bare remote; vibegit runs in process as one host
or the other."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.helpers import fsck, git, ok_as, remote_with_laptop, run_git, vg_as
from vibegit.core.settings import settings as read_settings
from vibegit.infra import git as vgit
from vibegit.infra import store

pytestmark = pytest.mark.slow

HOSTS = ("laptop", "desktop")
OPS = st.lists(
    st.tuples(
        st.sampled_from(HOSTS),
        st.sampled_from(["task", "task", "memory", "question", "sync", "sync", "resume"]),
        st.integers(1, 4),
    ),
    max_size=12,
)

_TEMPLATE: dict[str, Path] = {}


def template(factory: pytest.TempPathFactory) -> Path:
    """A remote, the laptop that started the workflow and synced, the desktop that cloned it and synced."""
    if "t" not in _TEMPLATE:
        root = factory.mktemp("interleavings")
        _, laptop = remote_with_laptop(root)
        ok_as("laptop", laptop, "start", "vibe-code", "--goal", "g")
        ok_as("laptop", laptop, "task", "add", "T-001", "base task")
        ok_as("laptop", laptop, "sync")
        git(root, "clone", "-q", str(root / "remote.git"), "desktop")
        ok_as("desktop", root / "desktop", "sync")
        _TEMPLATE["t"] = root
    return _TEMPLATE["t"]


def contents(repo: Path) -> set[str]:
    """Every task title, memory text and open question of the state branch's tip."""
    r = vgit.find_repo(repo)
    cat = vgit.reader(r)
    loaded = store.load(r, cat, read_settings({}))
    found = {m.text for m in loaded.memory.entries}
    for flow in store.flows(r, cat, loaded):
        found |= {t.title for t in flow.state.tasks} | {q.text for q in flow.state.context.pending_questions}
    return found


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(OPS)
@example(  # one id added on both sides; memory on both sides; both syncs before either saw the other
    [
        *[("laptop", "task", 2), ("desktop", "task", 2), ("laptop", "memory", 1), ("desktop", "memory", 1)],
        *[("desktop", "sync", 1), ("laptop", "sync", 1), ("laptop", "question", 1), ("desktop", "question", 1)],
    ]
)
@example(  # the desktop takes over; the laptop, not yet told, goes on; then both sync
    [
        *[("desktop", "resume", 1), ("desktop", "task", 2), ("laptop", "task", 2), ("laptop", "sync", 1)],
        *[("desktop", "sync", 1), ("laptop", "task", 3), ("laptop", "resume", 1), ("laptop", "task", 4)],
    ]
)
def test_two_machines_lose_nothing_whatever_the_order(
    tmp_path_factory: pytest.TempPathFactory, hermetic: Path, ops: list[tuple[str, str, int]]
) -> None:
    root = tmp_path_factory.mktemp("run")
    shutil.copytree(template(tmp_path_factory), root, dirs_exist_ok=True)
    place = {host: root / host for host in HOSTS}
    for host in HOSTS:
        git(place[host], "remote", "set-url", "origin", str(root / "remote.git"))
    expected = {"base task"}
    events: list[str] = []
    for step, (host, kind, n) in enumerate(ops):
        where, text = place[host], f"{host} {kind} {step}"
        if kind == "task":
            result = vg_as(host, where, "task", "add", f"T-{n:03d}", text)
        elif kind == "memory":
            result = vg_as(host, where, "memory", "add", "project_knowledge", text)
        elif kind == "question":
            result = vg_as(host, where, "context", "--question", text)
        elif kind == "resume":
            result = vg_as(host, where, "resume")
        else:
            result = ok_as(host, where, "sync")
        assert result.code in (0, 1, 2) and "Traceback" not in result.err, result
        if result.code == 0 and kind in ("task", "memory", "question"):
            expected.add(text)
        if result.code == 0:
            events.append(git(where, "rev-parse", "vibegit/state"))

    for host in (*HOSTS, HOSTS[0]):
        ok_as(host, place[host], "sync")
    tips = {git(place[host], "rev-parse", "vibegit/state") for host in HOSTS}
    assert tips == {git(root / "remote.git", "rev-parse", "vibegit/state")}
    tip = tips.pop()
    for host in HOSTS:
        assert expected <= contents(place[host]), expected - contents(place[host])
    for commit in events:
        assert run_git(place["laptop"], "merge-base", "--is-ancestor", commit, tip).code == 0, commit
    fsck(place["laptop"], "--no-dangling")  # raises when fsck fails
