"""Property, end to end: one person's laptop, desktop and a second clone on
the laptop's host (same host name), and a teammate with a workflow of her
own, on one remote, resuming, taking over, pausing, recording, fetching and
syncing in any order. vibegit never says "resumed" on a copy the remote has
moved past, the resumer then holds the lock, the teammate is never stopped,
and once everyone has synced only one clone holds the workflow: the others
are refused, and the advice they get (sync, resume) works."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.helpers import Result, git, machine_id, ok_as, remote_with_laptop, vg_as

pytestmark = pytest.mark.slow

PERSON = ("laptop", "desktop", "twin")  # twin: a second clone on the laptop's host
HOST = {"laptop": "laptop", "desktop": "desktop", "twin": "laptop", "alice": "alice"}
OPS = st.lists(
    st.tuples(
        st.sampled_from([*PERSON, "alice"]),
        st.sampled_from(["resume", "resume", "force", "pause", "task", "task", "sync", "sync", "fetch"]),
    ),
    max_size=10,
)
_TEMPLATE: dict[str, Path] = {}


def as_host(name: str, where: Path, *args: str) -> Result:
    return vg_as(HOST[name], where, *args)


def ok(name: str, where: Path, *args: str) -> Result:
    return ok_as(HOST[name], where, *args)


def template(factory: pytest.TempPathFactory) -> Path:
    if "t" not in _TEMPLATE:
        root = factory.mktemp("holders")
        _, laptop = remote_with_laptop(root)
        ok("laptop", laptop, "start", "vibe-code", "--goal", "g")
        ok("laptop", laptop, "sync")
        for name in ("desktop", "twin", "alice"):
            git(root, "clone", "-q", str(root / "remote.git"), name)
        git(root / "alice", "switch", "-q", "-c", "alice")
        ok("alice", root / "alice", "start", "alices", "--goal", "her own")
        ok("alice", root / "alice", "sync")
        _TEMPLATE["t"] = root
    return _TEMPLATE["t"]


def lock_of(name: str, where: Path) -> dict[str, object] | None:
    data = json.loads(ok(name, where, "status", "--json", "--workflow", "vibe-code").out)
    return data["lock"]


def holds(name: str, where: Path, *, here: bool = False) -> bool:
    """Whether that clone holds the lock (``here``: in that very worktree; the
    template's clones were copied here, so their first locks name the template's)."""
    lock = lock_of(name, where)
    held = bool(lock and lock["locked"] and lock.get("machine") == machine_id(where))
    return held and (not here or (lock or {}).get("worktree") == str(where))


def sync_all(place: dict[str, Path]) -> str:
    """Everyone syncs until all agree: the one tip."""
    for _ in range(3):
        for name, where in place.items():
            ok(name, where, "sync")
        tips = {git(where, "rev-parse", "vibegit/state") for where in place.values()}
        if len(tips) == 1:
            return tips.pop()
    raise AssertionError(f"no agreement after three rounds: {tips}")


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(OPS)
@example(  # the story: the laptop paused, the desktop took over and synced, the laptop fetched
    [
        *[("laptop", "pause"), ("laptop", "sync"), ("desktop", "resume"), ("desktop", "task"), ("desktop", "sync")],
        *[("laptop", "fetch"), ("laptop", "resume"), ("laptop", "sync"), ("laptop", "resume"), ("laptop", "force")],
    ]
)
@example(  # two clones on one host take turns
    [
        *[("twin", "resume"), ("twin", "sync"), ("laptop", "task"), ("laptop", "fetch"), ("laptop", "task")],
        *[("laptop", "sync"), ("laptop", "resume"), ("twin", "task"), ("alice", "task"), ("alice", "sync")],
    ]
)
def test_one_holder_whatever_the_order(
    tmp_path_factory: pytest.TempPathFactory, hermetic: Path, ops: list[tuple[str, str]]
) -> None:
    root = tmp_path_factory.mktemp("run")
    shutil.copytree(template(tmp_path_factory), root, dirs_exist_ok=True, symlinks=True)
    remote = root / "remote.git"
    place = {name: root / name for name in (*PERSON, "alice")}
    for where in place.values():
        git(where, "remote", "set-url", "origin", str(remote))
    for step, (name, kind) in enumerate(ops):
        where = place[name]
        if name == "alice":
            args = ("task", "add", f"T-{step:03d}", "hers") if kind in ("task", "resume", "force", "pause") else ()
            result = ok(name, where, *args) if args else ok(name, where, "sync")
            continue
        if kind == "fetch":
            git(where, "fetch", "-q", "origin")
            continue
        there = git(remote, "rev-parse", "-q", "--verify", "vibegit/state", check=False)
        args = {
            "resume": ("resume",),
            "force": ("resume", "--force"),
            "pause": ("pause", "--workflow", "vibe-code"),
            "task": ("task", "add", f"T-{step:03d}", f"{name} {step}", "--workflow", "vibe-code"),
            "sync": ("sync",),
        }[kind]
        result = as_host(name, where, *args)
        assert result.code in (0, 1), (name, args, result.out, result.err)
        assert "Traceback" not in result.err
        if kind in ("resume", "force") and result.code == 0:
            if kind == "resume" and "already running here" not in result.out:
                stale = git(
                    where,
                    "rev-list",
                    "--count",
                    "--grep=Vibegit-Workflow: vibe-code",
                    there,
                    "^vibegit/state",
                )
                assert stale == "0", f"{name} resumed a copy {stale} event(s) behind the remote"
            assert holds(name, where, here=True), (name, result.out)
        if kind == "resume" and result.code == 1 and "not resumed" in result.err:
            assert "'vibegit sync'" in result.err and "'vibegit resume --force'" in result.err

    sync_all(place)
    holders = [name for name in PERSON if holds(name, place[name])]
    assert len(holders) <= 1, holders
    lock = lock_of("laptop", place["laptop"])
    for name in PERSON:
        if name in holders or not (lock and lock["locked"]):
            continue
        refused = as_host(name, place[name], "task", "add", "T-999", "x", "--workflow", "vibe-code")
        assert refused.code == 1 and "taken over on" in refused.err, refused
        assert "'vibegit resume'" in refused.err
        break
    else:
        return
    ok(name, place[name], "sync")
    ok(name, place[name], "resume", "--force")  # the working tree may hold that clone's own older work
    assert holds(name, place[name], here=True)
    ok(name, place[name], "task", "add", "T-999", "x", "--workflow", "vibe-code")
