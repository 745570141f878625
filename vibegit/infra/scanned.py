"""What the secret scan has read and found nothing in, by object id, so that
each blob and commit message is scanned once in its life (a push costs in
proportion to what is new, not to the history's length).

The record is ``<git common dir>/vibegit.scanned``, shared by the worktrees:
one line per write of up to ``LINE`` objects, ``<check> <oid> <oid> …``, the
check a hash of those ids and of the rules that read them (core/credentials.py
as it is): one hash a line, so reading 30,000 ids costs a few milliseconds,
not one hash each. Only objects with no hit at all are recorded: a hit is
looked for again each time, as the allowlist may have changed. The file is
read as untrusted: a line that is damaged, cut short or written under other
rules is not believed (its objects are scanned again), and a file that is a
link, unreadable or over ``MAX_BYTES`` counts as empty. A lost record costs a
rescan, never a finding.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from vibegit.core import credentials
from vibegit.infra import git

NAME = "vibegit.scanned"  # beside the store's lock, vibegit.lock
MAX_BYTES = 64 << 20  # about a million objects; beyond it the record starts again
LINE = 1024  # ids a line (one write: appends of two processes do not mix)
_key: bytes | None = None
_ID_BYTES = (git.HEX + " ").encode()  # what a line of ids is made of


def path(repo: git.Repo) -> str:
    return os.path.join(repo.common_dir, NAME)


def rules_key() -> bytes:
    """What the record's checks are made with: the rules' source (a new
    vibegit with other rules believes no line of an older one)."""
    global _key
    if _key is None:
        try:
            with open(credentials.__file__, "rb") as f:
                source = f.read()
        except OSError:
            source = repr(credentials.RULES).encode()
        _key = git.digest("blake2b", b"vibegit-scanned 3\0" + source)
    return _key


def _check(ids: str) -> str:
    """The check of a line's ids (as written: separated by spaces)."""
    return git.digest("blake2b", rules_key() + ids.encode()).hex()[:16]


def _read(repo: git.Repo) -> bytes:
    try:
        fd = os.open(path(repo), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return b""
    try:
        with os.fdopen(fd, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError:
        return b""
    return b"" if len(data) > MAX_BYTES else data


def load(repo: git.Repo) -> dict[str, None]:
    """The objects recorded as scanned clean under these rules (the keys: a
    dict takes a fifth of a set's memory for tens of thousands of ids)."""
    found: dict[str, None] = {}
    for line in _read(repo).decode("ascii", errors="replace").split("\n"):
        check, _, ids = line.partition(" ")
        if ids and check == _check(ids):  # only ever compared with real object ids
            found.update(dict.fromkeys(ids.split(" ")))
    return found


def lines(oids: Iterable[str]) -> list[bytes]:
    """The record's lines for ``oids`` (``LINE`` ids a line; anything else is left out), packed: a
    byte that says an id's size, then the ids as bytes (half their text's memory: a first sync
    holds tens of thousands until it ends), to ``append`` once a scan has finished."""
    found = list(oids)
    out = []
    for start in range(0, len(found), LINE):
        chunk = found[start : start + LINE]
        ids = " ".join(chunk)
        if _only_ids(ids, len(chunk)):  # one look a line
            groups = [ids]
        else:  # the ids of each size apart (one repository has one)
            valid = [oid for oid in chunk if git.is_oid(oid)]
            groups = [" ".join(oid for oid in valid if len(oid) == width) for width in (40, 64)]
        out += [bytes((len(group.partition(" ")[0]) // 2,)) + bytes.fromhex(group) for group in groups if group]
    return out


def ids_of(packed: bytes) -> str:
    """The ids of a packed line (``lines``), a space between each two."""
    return packed[1:].hex(" ", packed[0])


def _only_ids(ids: str, n: int) -> bool:
    """Whether ``ids`` is ``n`` object ids (``git.is_oid``), a space between each two:
    told by a few looks at the whole line (a first sync records tens of thousands)."""
    return any(
        len(ids) == n * (width + 1) - 1
        and ids.count(" ") == n - 1
        and ids[width :: width + 1] == " " * (n - 1)
        and ids.isascii()
        and not ids.encode("ascii").translate(None, _ID_BYTES)  # C's look at each byte (str.strip: 20x slower)
        for width in (40, 64)
    )


def _line(packed: bytes) -> bytes:
    ids = ids_of(packed)
    return f"{_check(ids)} {ids}\n".encode()


def add(repo: git.Repo, oids: Iterable[str]) -> None:
    """Record ``oids`` as scanned clean (appended; a record that cannot be written is not kept)."""
    append(repo, lines(oids))


def append(repo: git.Repo, written: list[bytes]) -> None:
    """Append ``written`` (packed lines, from ``lines``) to the record, each made its text as it is
    written, a whole line a write."""
    if not written:
        return
    target = path(repo)
    try:
        if os.path.isfile(target) and os.stat(target).st_size > MAX_BYTES:
            os.unlink(target)  # full: start again
        fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError:
        return
    try:
        for packed in written:  # a whole line per write: appends of two processes do not mix
            os.write(fd, _line(packed))
    except OSError:
        pass
    finally:
        os.close(fd)
