"""Every file vibegit writes, and never through a symbolic link.

A write names a *root* the user chose (the work tree's top, the git dir,
the trust store) and a path below it. Each component below the root is
opened with ``O_NOFOLLOW`` relative to its parent's descriptor, so a link
planted anywhere on the way (by a snapshot, a clone, an agent) refuses the
write, in one line, instead of sending it elsewhere. Replacements are atomic
(a scratch file beside the target, then a rename). The root itself is the
user's path and is followed as given.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from vibegit.errors import BadInput

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from typing import TypeAlias

# A root or a path as the caller has it: a string, or pathlib's (not imported
# here: pathlib and what it imports cost milliseconds at every start).
StrPath: TypeAlias = "str | os.PathLike[str]"

TEMP = ".vibegit-tmp-"  # the scratch file of a write, beside its target until the rename
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW
# Descriptor-relative calls: every POSIX system. Elsewhere each component is
# checked with lstat before it is used (a race remains there, not here).
_AT = {os.open, os.stat, os.unlink, os.mkdir, os.rmdir, os.rename} <= os.supports_dir_fd


def parts(rel: StrPath) -> list[str]:
    """The components of a path relative to a root; nothing that climbs out."""
    text = os.fspath(rel).replace("\\", "/")
    if text.startswith("/") or "\0" in text:
        raise BadInput(f"{text[:80]!r}: not a path relative to the repository")
    found = [p for p in text.split("/") if p not in ("", ".")]
    if ".." in found:
        raise BadInput(f"{text[:80]!r}: climbs out of the repository ('..')")
    return found


class Dir:
    """An open directory: names inside it are used without following links."""

    def __init__(self, path: str, fd: int | None) -> None:
        self.path, self.fd = path, fd

    def at(self, name: str) -> str:
        """``name`` inside, as a path (for messages, and where no descriptor is held)."""
        return os.path.join(self.path, name)

    def stat(self, name: str) -> os.stat_result | None:
        try:
            if self.fd is not None:
                return os.stat(name, dir_fd=self.fd, follow_symlinks=False)
            return os.lstat(self.at(name))
        except FileNotFoundError:
            return None

    def open(self, name: str, flags: int, mode: int = 0o644) -> int:
        if self.fd is not None:
            return os.open(name, flags | _NOFOLLOW, mode, dir_fd=self.fd)
        st = self.stat(name)
        if st is not None and stat.S_ISLNK(st.st_mode):
            raise OSError(errno.ELOOP, "is a symbolic link", self.at(name))
        return os.open(self.at(name), flags, mode)

    def sub(self, name: str) -> Dir:
        if self.fd is not None:
            return Dir(self.at(name), os.open(name, _DIR_FLAGS, dir_fd=self.fd))
        st = self.stat(name)
        if st is None or not stat.S_ISDIR(st.st_mode):
            raise OSError(errno.ENOTDIR, "not a directory", str(self.at(name)))
        return Dir(self.at(name), None)

    def mkdir(self, name: str) -> None:
        os.mkdir(name, 0o777, dir_fd=self.fd) if self.fd is not None else os.mkdir(self.at(name))

    def unlink(self, name: str) -> None:
        os.unlink(name, dir_fd=self.fd) if self.fd is not None else os.unlink(self.at(name))

    def rmdir(self, name: str) -> None:
        os.rmdir(name, dir_fd=self.fd) if self.fd is not None else os.rmdir(self.at(name))

    def listdir(self) -> list[str]:
        return os.listdir(self.fd) if self.fd is not None else os.listdir(self.path)

    def rename(self, name: str, to: Dir, new: str) -> None:
        if self.fd is not None and to.fd is not None:
            os.rename(name, new, src_dir_fd=self.fd, dst_dir_fd=to.fd)
        else:
            os.rename(self.at(name), to.at(new))

    def symlink(self, target: str, name: str) -> None:
        os.symlink(target, name, dir_fd=self.fd) if self.fd is not None else os.symlink(target, self.at(name))

    def readlink(self, name: str) -> str:
        return os.readlink(name, dir_fd=self.fd) if self.fd is not None else os.readlink(self.at(name))

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)

    # Whole files by name in this directory (the module's functions of the
    # same name open the directory, then call these): many files of one
    # directory cost one walk from the root, not one each.

    def read_file(self, name: str, limit: int) -> bytes | None:
        """The bytes of the regular file ``name``; None when nothing (or no
        file) is there. A link, or a file over ``limit`` bytes, is an error."""
        st = self.stat(name)
        if st is not None and stat.S_ISLNK(st.st_mode):
            raise _link(self.at(name))
        if st is None or not stat.S_ISREG(st.st_mode):
            return None
        if st.st_size > limit:
            raise BadInput(f"{self.at(name)}: too large ({st.st_size} bytes, at most {limit})")
        try:
            fd = self.open(name, os.O_RDONLY)
        except FileNotFoundError:
            return None
        try:
            data = _read_all(fd, st.st_size, limit)
        finally:
            os.close(fd)
        if len(data) > limit:
            raise BadInput(f"{self.at(name)}: too large (over {limit} bytes)")
        return data

    def write_file(self, name: str, data: bytes, mode: int | None = None) -> None:
        """Replace ``name`` with ``data`` in one rename; ``mode`` defaults to
        the old file's, else 0o644. A link there refuses the write."""
        st = self.stat(name)
        if st is not None and stat.S_ISLNK(st.st_mode):
            raise _link(self.at(name))
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise BadInput(f"{self.at(name)}: is not a regular file; not replacing it")
        if mode is None:
            mode = st.st_mode & 0o7777 if st is not None else 0o644
        tmp = f".{name}{TEMP}{os.urandom(4).hex()}"
        fd = self.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            try:
                _write_all(fd, data)
                os.fchmod(fd, mode)
            finally:
                os.close(fd)
            self.rename(tmp, self, name)
        except BaseException:
            try:
                self.unlink(tmp)
            except OSError:
                pass
            raise

    def remove_file(self, name: str) -> bool:
        """Delete the file or link ``name`` (a link itself, never its target); False when nothing was there."""
        st = self.stat(name)
        if st is None:
            return False
        if stat.S_ISDIR(st.st_mode):
            raise BadInput(f"{self.at(name)}: is a directory; not removing it")
        self.unlink(name)
        return True

    def remove_leftovers(self, names: Iterable[str]) -> None:
        """The scratch files of writes to ``names`` that a killed process left
        behind (call it where no other writer of them can be running: under
        the store's lock)."""
        prefixes = tuple(f".{name}{TEMP}" for name in names)
        for child in self.listdir():
            st = self.stat(child) if child.startswith(prefixes) else None
            if st is not None and stat.S_ISREG(st.st_mode):
                self.unlink(child)


def _read_all(fd: int, size: int, limit: int) -> bytes:
    """What ``fd`` holds to its end, or its first ``limit + 1`` bytes when it
    holds more (``size``: the length it had, read in one call if it still has it)."""
    found = [os.read(fd, min(size, limit) + 1)]
    total = len(found[0])
    while total <= limit:
        more = os.read(fd, min(1 << 20, limit + 1 - total))
        if not more:
            break
        found.append(more)
        total += len(more)
    return found[0] if len(found) == 1 else b"".join(found)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _link(path: str) -> BadInput:
    return BadInput(f"{path}: is a symbolic link; vibegit never reads or writes through links (remove it)")


@contextmanager
def opendir(root: StrPath, rel: StrPath = "", *, create: bool = False) -> Iterator[Dir]:
    """The directory ``root/rel``, no link followed below ``root``; missing
    directories are made when ``create`` (FileNotFoundError otherwise)."""
    top = os.fspath(root)
    here = Dir(top, os.open(top, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)) if _AT else None)
    try:
        for name in parts(rel):
            st = here.stat(name)
            if st is None:
                if not create:
                    raise FileNotFoundError(errno.ENOENT, "no such directory", here.at(name))
                here.mkdir(name)
                st = here.stat(name)
            if st is not None and stat.S_ISLNK(st.st_mode):
                raise _link(here.at(name))
            if st is None or not stat.S_ISDIR(st.st_mode):
                raise NotADirectoryError(errno.ENOTDIR, "not a directory", here.at(name))
            try:
                inner = here.sub(name)
            except OSError as err:  # it became a link meanwhile
                if err.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise _link(here.at(name)) from None
                raise
            here.close()
            here = inner
        yield here
    finally:
        here.close()


def _split(rel: StrPath) -> tuple[str, str]:
    names = parts(rel)
    if not names:
        raise BadInput(f"{os.fspath(rel)!r}: names no file")
    return "/".join(names[:-1]), names[-1]


def lstat(root: StrPath, rel: StrPath) -> os.stat_result | None:
    """What stands at ``root/rel`` (a link is reported, not followed); None
    when nothing does. A link among the parents is an error."""
    parent, name = _split(rel)
    try:
        with opendir(root, parent) as d:
            return d.stat(name)
    except (FileNotFoundError, NotADirectoryError):
        return None


def write(root: StrPath, rel: StrPath, data: bytes, mode: int | None = None) -> None:
    """Replace ``root/rel`` with ``data`` in one rename (missing directories
    made); ``mode`` defaults to the old file's, else 0o644. A link at the
    target or on the way refuses the write."""
    parent, name = _split(rel)
    with opendir(root, parent, create=True) as d:
        d.write_file(name, data, mode)


def append(root: StrPath, rel: StrPath, data: bytes) -> None:
    """Add ``data`` at the end of ``root/rel`` (made when missing)."""
    parent, name = _split(rel)
    with opendir(root, parent, create=True) as d:
        try:
            fd = d.open(name, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        except OSError as err:
            if err.errno == errno.ELOOP:
                raise _link(d.at(name)) from None
            raise
        with os.fdopen(fd, "ab") as f:
            f.write(data)


def read(root: StrPath, rel: StrPath, limit: int) -> bytes | None:
    """The bytes of the regular file ``root/rel``; None when nothing (or no
    file) is there. A link (there or on the way) or a file over ``limit``
    bytes is an error."""
    parent, name = _split(rel)
    try:
        with opendir(root, parent) as d:
            return d.read_file(name, limit)
    except (FileNotFoundError, NotADirectoryError):
        return None


def remove(root: StrPath, rel: StrPath) -> bool:
    """Delete the file or link ``root/rel`` (a link itself, never its
    target); False when nothing was there."""
    parent, name = _split(rel)
    try:
        with opendir(root, parent) as d:
            return d.remove_file(name)
    except (FileNotFoundError, NotADirectoryError):
        return False


def remove_tree(root: StrPath, rel: StrPath) -> None:
    """Delete ``root/rel`` whatever it is, a directory with all it holds;
    links inside are removed as links, never followed."""
    parent, name = _split(rel)
    with opendir(root, parent) as d:
        _remove_in(d, name)


def _remove_in(d: Dir, name: str) -> None:
    st = d.stat(name)
    if st is None:
        return
    if not stat.S_ISDIR(st.st_mode):
        d.unlink(name)
        return
    inner = d.sub(name)
    try:
        for child in inner.listdir():
            _remove_in(inner, child)
    finally:
        inner.close()
    d.rmdir(name)


def remove_empty_dirs(root: StrPath, rel: StrPath) -> None:
    """Remove ``root/rel`` and its parents below ``root`` while they are empty directories."""
    names = parts(rel)
    while names:
        try:
            with opendir(root, "/".join(names[:-1])) as d:
                d.rmdir(names[-1])
        except (OSError, BadInput):
            return
        names.pop()


def rename(root: StrPath, src: StrPath, dst: StrPath, *, overwrite: bool = False) -> None:
    """Move ``src`` to ``dst`` (both below ``root``, no link on the way); ``dst``
    must not exist, unless ``overwrite`` (a file, replaced in one rename)."""
    src_parent, src_name = _split(src)
    dst_parent, dst_name = _split(dst)
    with opendir(root, src_parent) as s, opendir(root, dst_parent, create=True) as d:
        there = d.stat(dst_name)
        if there is not None and not (overwrite and stat.S_ISREG(there.st_mode)):
            raise BadInput(f"{d.at(dst_name)}: exists already; not replacing it")
        s.rename(src_name, d, dst_name)


def symlink(root: StrPath, rel: StrPath, target: str) -> None:
    """Make the link ``root/rel`` → ``target`` (missing directories made); nothing may stand there."""
    parent, name = _split(rel)
    with opendir(root, parent, create=True) as d:
        d.symlink(target, name)


def inventory(root: StrPath, rel: StrPath, digest: bool = True) -> dict[str, str]:
    """Everything at and below ``root/rel`` (no link followed), by path: a
    file's SHA-256 and exec bit (``digest``), a link's target, a directory,
    or something else; two equal inventories mean a faithful copy."""
    found: dict[str, str] = {}
    parent, name = _split(rel)
    with opendir(root, parent) as d:
        _inventory(d, name, "/".join(parts(rel)), found, digest)
    return found


def _inventory(d: Dir, name: str, path: str, found: dict[str, str], digest: bool) -> None:
    st = d.stat(name)
    if st is None:
        return
    if stat.S_ISLNK(st.st_mode):
        found[path] = "link " + d.readlink(name)
    elif stat.S_ISREG(st.st_mode) and not digest:
        found[path] = "file"
    elif stat.S_ISREG(st.st_mode):
        import hashlib  # here: only a digest needs it, and it costs milliseconds at start-up

        sha = hashlib.sha256()
        with os.fdopen(d.open(name, os.O_RDONLY), "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                sha.update(block)
        found[path] = f"file {'x' if st.st_mode & 0o111 else '-'} {sha.hexdigest()}"
    elif stat.S_ISDIR(st.st_mode):
        found[path] = "dir"
        inner = d.sub(name)
        try:
            for child in sorted(inner.listdir()):
                _inventory(inner, child, f"{path}/{child}", found, digest)
        finally:
            inner.close()
    else:
        found[path] = "other"


def copy(src: StrPath, rel: StrPath, dst: StrPath) -> None:
    """Copy ``src/rel`` (all below it too) to ``dst/rel``: bytes and exec bits,
    links as links; nothing followed on either side. ``dst/rel`` must not exist."""
    parent, name = _split(rel)
    with opendir(src, parent) as s, opendir(dst, parent, create=True) as d:
        _copy(s, d, name)


def _copy(s: Dir, d: Dir, name: str) -> None:
    st = s.stat(name)
    if st is None:
        return
    if stat.S_ISLNK(st.st_mode):
        d.symlink(s.readlink(name), name)
    elif stat.S_ISREG(st.st_mode):
        with os.fdopen(s.open(name, os.O_RDONLY), "rb") as f_in:
            out = d.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, st.st_mode & 0o777 | 0o600)
            with os.fdopen(out, "wb") as f_out:
                for block in iter(lambda: f_in.read(1 << 20), b""):
                    f_out.write(block)
    elif stat.S_ISDIR(st.st_mode):
        d.mkdir(name)
        inner_s, inner_d = s.sub(name), d.sub(name)
        try:
            for child in inner_s.listdir():
                _copy(inner_s, inner_d, child)
        finally:
            inner_s.close()
            inner_d.close()
    else:
        raise BadInput(f"{s.at(name)}: not a file, link or directory; not copying it")


def free_name(root: StrPath, rel: str, suffix: str, data: bytes | None = None) -> str | None:
    """``rel + suffix``, or ``rel + suffix + ".2"`` … the first that is free, so
    a side file never replaces an older one; None when one already holds ``data``."""
    for n in range(1, 1000):
        name = f"{rel}{suffix}" + (f".{n}" if n > 1 else "")
        st = lstat(root, name)
        if st is None:
            return name
        if data is not None and stat.S_ISREG(st.st_mode) and read(root, name, len(data) + 1) == data:
            return None
    raise BadInput(f"{os.path.join(root, rel)}{suffix}: a thousand side files already; clear some away")


def remove_leftovers(root: StrPath, rel: StrPath) -> None:
    """The scratch files of writes to ``root/rel`` that a killed process left
    behind (call it where no other writer of it can be running: under the store's lock)."""
    parent, name = _split(rel)
    try:
        with opendir(root, parent) as d:
            d.remove_leftovers([name])
    except (FileNotFoundError, NotADirectoryError):
        return


def relative(path: StrPath, root: StrPath) -> str | None:
    """``path`` relative to ``root`` when it lies below it (compared as written, not resolved)."""
    at, top = os.path.normpath(path), os.path.normpath(root)
    if at == top:
        return "."
    inside = top if top.endswith("/") else top + "/"  # "/": the root directory
    return at[len(inside) :] if at.startswith(inside) else None
