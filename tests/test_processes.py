"""Processes without ``subprocess`` (``gitlite.Child``, which starts every git
process) and the object ids vibegit computes itself."""

from __future__ import annotations

import ast
import os
import time
from pathlib import Path

import pytest

from benchmarks.common import wait_for_repack
from tests.helpers import VG, fsck, git
from vibegit.errors import GitError
from vibegit.infra import git as vgit
from vibegit.infra import gitlite
from vibegit.infra.git import objects, process, refs, remotes
from vibegit.infra.gitlite import DEVNULL, PIPE, Child

BIG = 300_000  # more than a pipe holds


def test_both_outputs_are_read_as_they_fill_and_a_long_input_is_written_whole(tmp_path: Path) -> None:
    both = Child(
        ["sh", "-c", f"head -c {BIG} /dev/zero; head -c {BIG} /dev/zero >&2; exit 3"], stdout=PIPE, stderr=PIPE
    )
    assert both.communicate() == (b"\0" * BIG, b"\0" * BIG) and both.wait() == 3
    data = os.urandom(3 * BIG)
    echo = Child(["cat"], stdin=PIPE, stdout=PIPE, stderr=PIPE)
    assert echo.communicate(data) == (data, b"") and echo.returncode == 0
    deaf = Child(["true"], stdin=PIPE, stdout=PIPE, stderr=PIPE)  # ends without reading: the input goes nowhere
    assert deaf.communicate(data) == (b"", b"") and deaf.returncode == 0


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_the_child_does_not_inherit_pythons_ignored_sigpipe() -> None:
    shown = Child(["sh", "-c", "grep SigIgn /proc/$$/status"], stdout=PIPE, stderr=DEVNULL)
    mask = int(shown.communicate()[0].split()[-1], 16)
    assert not mask & (1 << (13 - 1))  # SIGPIPE: a reader that stops ends the writer, as with subprocess


def test_git_runs_in_the_directory_asked_and_a_failure_is_one_line(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "sub").mkdir(parents=True)
    git(repo, "init", "-q")
    done = vgit.run(["rev-parse", "--show-prefix"], cwd=repo / "sub")
    assert done.stdout == b"sub/\n" and done.returncode == 0 and done.args == ["rev-parse", "--show-prefix"]
    with pytest.raises(GitError) as err:
        vgit.run(["rev-parse", "--verify", "nothing"], cwd=repo)
    assert str(err.value) == "git rev-parse --verify nothing failed: fatal: Needed a single revision"


def test_detached_housekeeping_is_reaped_once_it_ends(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    git(repo.parent, "init", "-q", str(repo))
    found = vgit.find_repo(repo)
    vgit.detach(found, "version")
    first = process._detached[-1]
    deadline = time.monotonic() + 30
    while not first.done() and time.monotonic() < deadline:
        time.sleep(0.01)
    vgit.detach(found, "version")
    assert first not in process._detached  # waited for: no zombie left in a long-running server


PACKAGE = Path(vgit.__file__).parent.parent.parent  # vibegit/
SPAWNS = {"Child", "posix_spawn", "posix_spawnp", "system", "popen", "fork_exec", "execv", "execvp", "execvpe"}


def _defined(module: object) -> set[str]:
    """The public names a module's own top-level statements define."""
    tree = ast.parse(Path(str(getattr(module, "__file__", ""))).read_text())
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {name for name in names if not name.startswith("_") and name != "TYPE_CHECKING"}


def test_the_git_layer_re_exports_every_public_name_of_its_modules() -> None:
    """Callers write ``git.NAME``: each module's public names are the package's,
    the same objects; only the layer's own plumbing is left out."""
    internal = {"start", "early_for"}  # starting a process, and the early one it may take: the layer's own
    for module in (process, objects, refs, remotes):
        for name in _defined(module) - internal:
            assert name in vgit.__all__ and getattr(vgit, name) is getattr(module, name), (module.__name__, name)
    assert all(hasattr(vgit, name) for name in vgit.__all__) and not internal & set(vgit.__all__)


def test_only_the_git_layer_starts_git() -> None:
    """One place starts a git process: ``git.process.start`` (and gitlite's
    early processes, which it takes). Nothing else spawns a process but
    through ``subprocess`` (a user's hook command, a Python probe), and no
    ``subprocess`` call there runs git."""
    allowed = {PACKAGE / "infra" / "gitlite.py", PACKAGE / "infra" / "git" / "process.py"}
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if called in SPAWNS and path not in allowed:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {called}")
            first = node.args[0] if node.args else None
            head = first.elts[0] if isinstance(first, ast.List) and first.elts else None
            if isinstance(head, ast.Constant) and head.value == "git" and path not in allowed:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} [git, …]")
    assert found == []


@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
def test_object_ids_are_gits_small_and_big(tmp_path: Path, object_format: str) -> None:
    repo = tmp_path / object_format
    git(tmp_path, "init", "-q", f"--object-format={object_format}", str(repo))
    found = vgit.find_repo(repo)
    for data in (b"", b"state\n", os.urandom(vgit.BUILT_IN_BYTES + 1)):  # small and big (the modules: below)
        (tmp_path / "blob").write_bytes(data)
        oid = vgit.write_object(found, "blob", data)
        assert oid == vgit.blob_id(found, data) == git(repo, "hash-object", str(tmp_path / "blob"))
        assert git(repo, "cat-file", "-s", oid) == str(len(data))


@pytest.mark.parametrize("algorithm", ["sha1", "sha256", "blake2b"])
def test_a_digest_is_hashlibs_whichever_module_makes_it(algorithm: str) -> None:
    """The first bytes a process hashes go to the interpreter's own module (no OpenSSL to
    load), the rest to hashlib: the same digests."""
    import hashlib
    import subprocess
    import sys

    new = objects._built_in(algorithm)
    assert new is not None  # this Python has it: the path a fresh process takes first
    for data in (b"", b"vibegit-scanned 2\0rules", os.urandom(4096), os.urandom(vgit.BUILT_IN_BYTES + 1)):
        assert bytes(new(data).digest()) == hashlib.new(algorithm, data).digest() == vgit.digest(algorithm, data)
    more = "in" if algorithm != "blake2b" else "not in"  # blake2b is the interpreter's own, as fast as OpenSSL's
    code = (
        "import sys\nfrom vibegit.infra import git\n"
        f"git.digest({algorithm!r}, bytes(1000))\nassert 'hashlib' not in sys.modules\n"
        f"git.digest({algorithm!r}, bytes(git.BUILT_IN_BYTES))\nassert 'hashlib' {more} sys.modules\n"
    )
    # -S -E: a process of its own (no site, no coverage that loads hashlib), vibegit from the checkout
    subprocess.run([sys.executable, "-S", "-E", "-c", code], check=True, cwd=PACKAGE.parent)


def test_no_git_on_path_is_one_line_that_says_so(tmp_path: Path) -> None:
    import subprocess
    import sys

    env = {**os.environ, "PATH": str(tmp_path / "empty"), "XDG_STATE_HOME": str(tmp_path / "state")}
    proc = subprocess.run(
        [sys.executable, "-m", "vibegit", "status"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 3 and proc.stdout == ""
    assert proc.stderr.startswith("vibegit: git was not found: install git, or put it on PATH (details in ")
    assert len(proc.stderr.splitlines()) == 1 and "Traceback" not in proc.stderr


def test_early_git_processes_serve_only_the_directory_and_environment_they_started_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fast verb starts rev-parse, config and cat-file before its modules
    load; they are taken only where the same command would answer the same."""
    a, b = tmp_path / "a", tmp_path / "b"
    for repo, lang in ((a, "de"), (b, "fr")):
        git(tmp_path, "init", "-q", str(repo))
        git(repo, "config", "vibegit.lang", lang)
    (a / "sub").mkdir()

    def started() -> list[Child]:
        return [child for _, _, child in gitlite._early.values()]

    monkeypatch.chdir(a / "sub")
    gitlite.start_repo_reads()
    early = started()
    assert len(early) == 3
    found = vgit.find_repo()
    assert found.toplevel == str(a) and vgit.read_config(found)["vibegit.lang"] == "de"
    vgit.reader(found)
    assert not gitlite._early  # all three taken
    vgit.close_readers()
    assert all(child.returncode == 0 for child in early)

    gitlite.start_repo_reads()
    early = started()
    monkeypatch.chdir(b)  # another directory: another repository
    found = vgit.find_repo()
    assert found.toplevel == str(b) and vgit.read_config(found)["vibegit.lang"] == "fr"

    monkeypatch.chdir(a)
    gitlite.start_repo_reads()
    found = vgit.find_repo()
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", "'vibegit.lang'='ja'")  # the environment changed since
    assert vgit.read_config(found)["vibegit.lang"] == "ja"
    gitlite.end_early()
    assert not gitlite._early
    assert all(child.returncode is not None for child in early)  # ended and reaped, none left behind
    vgit.close_readers()


def test_early_git_processes_say_nothing_outside_a_repository(tmp_path: Path) -> None:
    import subprocess
    import sys

    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state")}
    (tmp_path / "here").mkdir()
    proc = subprocess.run(
        [sys.executable, "-m", "vibegit", "status"], cwd=tmp_path / "here", env=env, capture_output=True, text=True
    )
    assert proc.returncode != 0 and proc.stdout == ""
    assert proc.stderr == f"vibegit: {tmp_path / 'here'}: not inside a git repository (run 'git init' or cd into one)\n"


def test_an_object_directory_removed_by_a_gc_meanwhile_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A detached ``git gc --auto`` prunes the fan-out directories it empties:
    removed between mkdir's "exists" and its check, mkdir says FileExistsError
    (seen in a run of 1,000 events)."""
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(repo))
    found = vgit.find_repo(repo)
    mkdir, raced = os.mkdir, []

    def racing(path: str, *args: object, **kwargs: object) -> None:
        if os.path.dirname(path) == found.objects_dir and not raced:
            raced.append(path)
            raise FileExistsError(17, "File exists", path)
        mkdir(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "mkdir", racing)
    oid = vgit.write_object(found, "blob", b"raced\n")
    assert raced and git(repo, "cat-file", "-p", oid) == "raced"


@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
def test_the_objects_of_a_packed_block_are_one_pack_git_reads_and_indexes_alike(
    tmp_path: Path, object_format: str
) -> None:
    """An event's objects go into one pack and its index (two new files, not
    a loose object and a fan-out directory each): the index is byte for byte
    the one ``git index-pack`` makes of the pack, a reader started before
    finds them, and fsck is clean."""
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", f"--object-format={object_format}", str(repo))
    found = vgit.find_repo(repo)
    cat = vgit.reader(found)
    assert cat.info("HEAD") is None
    person = vgit.Identity("A", "a@example.com")
    big = os.urandom((1 << 20) + 1)  # its size needs four bytes of the entry's header
    with vgit.packed(found):
        blobs = [vgit.write_object(found, "blob", data) for data in (b"", b"state\n", b"state\n", big)]
        tree = vgit.write_tree(found, [vgit.TreeEntry("100644", f"f{i}", oid) for i, oid in enumerate(blobs)])
        commit = vgit.write_commit(found, tree, [], "one pack\n", person, person)
        assert cat.info(commit) is None  # held back until the block ends
    assert sorted(os.listdir(found.objects_dir)) == ["info", "pack"]  # nothing loose
    index = next(Path(found.objects_dir).glob("pack/pack-*.idx"))
    (tmp_path / "copy.pack").write_bytes(index.with_suffix(".pack").read_bytes())
    git(repo, "index-pack", "-o", str(tmp_path / "copy.idx"), str(tmp_path / "copy.pack"))
    assert (tmp_path / "copy.idx").read_bytes() == index.read_bytes()
    assert git(repo, "verify-pack", str(index)) == ""
    assert cat.get(blobs[3]) == ("blob", blobs[3], big)
    assert git(repo, "log", "--format=%s", commit) == "one pack"
    git(repo, "update-ref", "refs/heads/main", commit)
    assert git(repo, "fsck", "--strict", "--no-progress") == ""
    vgit.close_readers()


def test_a_packed_block_that_raises_writes_nothing(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(repo))
    found = vgit.find_repo(repo)
    with pytest.raises(GitError), vgit.packed(found):
        vgit.write_object(found, "blob", b"never\n")
        raise GitError("the build failed")
    assert sorted(os.listdir(found.objects_dir)) == ["info", "pack"] and not os.listdir(
        os.path.join(found.objects_dir, "pack")
    )
    vgit.write_object(found, "blob", b"loose again\n")  # outside a block: a loose object
    assert len(os.listdir(found.objects_dir)) == 3


def test_an_event_writes_its_objects_as_one_pack_and_the_packs_are_rolled_up(repo: Path, vg: VG) -> None:
    """No loose object (nor fan-out directory) per event: each event adds one
    pack, which the packing every 16 events rolls into bigger ones."""
    assert vg("start", "vibe-code", "--goal", "packs").code == 0
    objects = repo / ".git" / "objects"
    loose = {d for d in os.listdir(objects) if len(d) == 2}  # the project's own, until a packing
    for i in range(40):
        assert vg("task", "add", f"T-{i}", f"task {i}").code == 0
    wait_for_repack(repo)
    assert {d for d in os.listdir(objects) if len(d) == 2} <= loose
    assert len(list((objects / "pack").glob("*.idx"))) < 16
    assert fsck(repo, "--strict") == ""
