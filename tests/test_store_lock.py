"""The store's file lock (flock(2) on POSIX): it excludes filelock's lock on
the same file both ways, waits, and gives up with one line after its timeout."""

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
