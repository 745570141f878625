"""The store's file lock (flock(2) on POSIX): it excludes filelock's lock on
the same file both ways, waits, and gives up with one line after its timeout;
without fcntl filelock's lock serves, and without flock its soft lock."""

from __future__ import annotations

from pathlib import Path

import pytest
from filelock import FileLock, Timeout

from vibegit.errors import GitError
from vibegit.infra import git, store


def test_the_store_lock_and_filelock_exclude_each_other(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    found = git.find_repo(repo)
    with store.locked(found), pytest.raises(Timeout):
        FileLock(store.lock_path(found), timeout=0.1).acquire()
    monkeypatch.setattr(store, "LOCK_TIMEOUT", 0.2)
    held = r"another vibegit process holds .*vibegit\.lock for over 0s"
    with FileLock(store.lock_path(found), timeout=1), pytest.raises(GitError, match=held), store.locked(found):
        pass
    with store.locked(found):  # free again, and the file stays for the next one
        assert Path(store.lock_path(found)).is_file()


def test_without_fcntl_filelocks_lock_serves(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not POSIX: no flock of the store's own; filelock's lock excludes the same way."""
    found = git.find_repo(repo)
    monkeypatch.setattr(store, "_flock", lambda path, held: None)
    monkeypatch.setattr(store, "LOCK_TIMEOUT", 0.2)
    with store.locked(found), pytest.raises(Timeout):
        FileLock(store.lock_path(found), timeout=0.1).acquire()
    held = pytest.raises(GitError, match="another vibegit process holds")
    with FileLock(store.lock_path(found), timeout=1), held, store.locked(found):
        pass


def test_a_file_system_without_flock_gets_the_soft_lock(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """flock refused (an NFS without its lock daemon): filelock's FileLock would
    be flock too, so the soft lock serves, and its timeout names the file."""
    import errno
    import fcntl
    import threading

    def refused(fd: int, how: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    found = git.find_repo(repo)
    monkeypatch.setattr(store, "_FLOCK_UNSUPPORTED", [])
    monkeypatch.setattr(fcntl, "flock", refused)
    monkeypatch.setattr(store, "LOCK_TIMEOUT", 0.3)
    entered = threading.Event()
    leave = threading.Event()

    def hold() -> None:
        with store.locked(found):
            entered.set()
            leave.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert entered.wait(5)
        soft = f"{store.lock_path(found)}.soft"
        with pytest.raises(GitError, match=f"if no vibegit runs, delete {soft}"), store.locked(found):
            pass
    finally:
        leave.set()
        holder.join()
    with store.locked(found):  # free again
        pass
