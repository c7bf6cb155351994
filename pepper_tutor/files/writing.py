"""The one way the project replaces a file: whole or not at all, and only a regular file.

Every file the package writes goes through :func:`write_text`, :func:`write_bytes` or
:func:`write_new` (``annotate -o PATH``, the practice table's records, the rulebook cache,
the screened-drills data file, the compiled search):

- the text goes to a temporary file in the same folder, is flushed to disk, then renamed over
  the target, so a crash or Ctrl-C leaves the old file or the new one, never half of one;
- PATH must be a regular file or a path that does not exist yet. A FIFO, a device, a
  directory or a socket is refused (replacing ``/dev/null`` with a file is never wanted);
- a **symlink is refused**, with where it points: write to the real path if that is what is
  meant. Writing through links would let a link planted in a shared folder redirect a save;
  so is a path a person gave (``-o``, ``--out``, ``--save``) through a **symlinked
  folder** (any folder of the path as given; root's links at the top of the file
  system, the system's own layout, excepted);
- an **empty path** or one **ending in a slash** names no file and is refused (the slash
  would otherwise be dropped and a file made with the folder's name);
- a file with more than one hard link is refused, because replacing it would quietly split
  it from its other names;
- the **command's own input** is refused (``annotate rec.yaml -o rec.yaml`` would replace the
  record with its annotation): the caller names its inputs, compared by resolved path and by
  device and inode, so another spelling or a link to the same file is caught too;
- a file **the user could not write** is refused (no write access, or its write bit off for
  its owner, which the rename would otherwise get round: replacing needs only the folder);
- the target's permission bits are kept (and its owner, when we may set it); a new file gets
  the usual ``0666`` less the umask, like any file a program creates;
- temporary files left by a save that was killed (``.NAME.PID.TOKEN.tmp``, TOKEN 16 hex
  digits) are removed by the next save to the same path, once their process is gone or they
  are an hour old. The match is exact, read from the right, so the temp file of a live save
  to ``report.2024`` is never taken for a dead one of ``report``.

:func:`write_new` is for files that must never replace anything (the practice table's
records): the whole file is written to a temp file first, then linked to its final name,
which fails if that name is taken by anything at all (a file, a planted symlink, a FIFO), so
the caller moves on to its next name and nothing is followed, opened or overwritten.

The checks and the rename are not one atomic step: a path swapped for a link or a FIFO in
between is replaced by the new file, never written through.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import secrets
import stat
import sys
import time
from collections.abc import Iterable
from pathlib import Path

from .reading import file_kind

__all__ = ["WriteError", "write_text", "write_bytes", "write_new", "check_target", "check_folder",
           "replace_refusal", "stale_temp_files"]

STALE_AFTER = 3600.0  # seconds: a temp file this old is left over whatever its process


class WriteError(ValueError):
    """The path cannot be written safely; the message says why and what to do."""


PathLike = str | Path


def write_text(path: PathLike, text: str, encoding: str = "utf-8", *,
               inputs: Iterable[PathLike] = (), through_links: bool = True) -> None:
    """Replace (or create) ``path`` with ``text``; see the module for the policy.
    ``inputs``: the files the command read, which it must never replace.
    ``through_links=False`` (for a path a person gave: ``-o``, ``--out``) also refuses a
    path through a symlinked folder; the program's own paths under the home folder may
    pass a link the user made there."""
    write_bytes(path, text.encode(encoding), inputs=inputs, through_links=through_links)


def write_bytes(path: PathLike, data: bytes, *, inputs: Iterable[PathLike] = (),
                through_links: bool = True) -> None:
    """Replace (or create) ``path`` with ``data``; see the module for the policy."""
    target = Path(path)
    name = str(path)
    folder = _folder(target, name, through_links)
    info, mode = _checked(target, name, inputs)
    for old in stale_temp_files(target):
        with contextlib.suppress(OSError):
            old.unlink()
    tmp = _write_temp(folder, target, name, data, mode, info)
    try:
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_folder(folder)


def check_target(path: PathLike, *, inputs: Iterable[PathLike] = (),
                 through_links: bool = True) -> None:
    """Raise :class:`WriteError` now if :func:`write_text` would refuse ``path``, so a
    command says so before its work rather than after it."""
    _folder(Path(path), str(path), through_links)
    _checked(Path(path), str(path), inputs)


def check_folder(path: PathLike) -> None:
    """Raise :class:`WriteError` now unless ``path`` can take new files from
    :func:`write_new`: a folder, or a path that does not exist yet under a folder this
    user may write in (it is made on the first save). A file, ``/dev/null``, a FIFO, a
    symlink or a path through a symlinked folder is refused, so that a command told to save
    there says so before its work, rather than warning after it that nothing was saved."""
    name = str(path)
    if name == "":
        raise WriteError("'': an empty path names no folder; give a folder to save in")
    where = Path(path)
    linked = _linked_folder(where)
    if linked is not None:
        raise WriteError(f"{name}: {'this' if linked == where else f'the folder {linked}'} "
                         f"is a symlink (to {os.readlink(linked)}); give the real path to "
                         "save there")
    existing = where
    while not os.path.lexists(existing) and existing.parent != existing:
        existing = existing.parent
    try:
        info = os.stat(existing)
    except OSError as err:
        raise WriteError(f"{name}: cannot save here: {err.strerror}") from None
    if not stat.S_ISDIR(info.st_mode):
        shown = name if existing == where else f"{existing} (on the way to {name})"
        raise WriteError(f"{shown}: this is {file_kind(info.st_mode)}; expected a folder to "
                         "save the records in (or a new folder's path)")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise WriteError(f"{name}: cannot save here: the folder {existing} is not writable "
                         "for you")


def _checked(target: Path, name: str,
             inputs: Iterable[PathLike]) -> tuple[os.stat_result | None, int]:
    """The checks before a replace: what is at ``target`` now, and the mode to give it."""
    try:
        info: os.stat_result | None = os.lstat(target)
    except FileNotFoundError:
        info = None
    except OSError as err:
        raise WriteError(f"{name}: cannot write here: {err.strerror}") from None
    _refuse_inputs(target, name, info, inputs)
    if info is None:
        return None, 0o666 & ~_umask()
    if stat.S_ISLNK(info.st_mode):
        raise WriteError(f"{name}: this is a symlink (to {os.readlink(target)}); give the "
                         "real path to write there")
    if not stat.S_ISREG(info.st_mode):
        raise WriteError(f"{name}: this is {file_kind(info.st_mode)}; expected a regular "
                         "file or a new path")
    if info.st_nlink > 1:
        raise WriteError(f"{name}: this file has {info.st_nlink} hard links; replacing it "
                         "would split them, so write to a new path")
    refusal = replace_refusal(info, _euid(), _groups(), os.access(target, os.W_OK))
    if refusal:
        raise WriteError(f"{name}: {refusal}")
    return info, stat.S_IMODE(info.st_mode)


def write_new(folder: PathLike, names: Iterable[str], data: bytes, attempts: int = 1000) -> Path:
    """Write ``data`` as a new file in ``folder`` under the first of ``names`` that is free,
    never replacing or following anything that is there; returns its path. A name taken
    meanwhile by another process is skipped like any other (the link is the atomic test)."""
    where = Path(folder)
    mode = 0o666 & ~_umask()
    for tried, file_name in enumerate(names):
        if tried >= attempts:
            break
        if os.sep in file_name or file_name in ("", ".", ".."):
            raise WriteError(f"{file_name!r}: not a file name")
        target = where / file_name
        if os.path.lexists(target):
            continue
        tmp = _write_temp(_folder(target, str(target)), target, str(target), data, mode, None)
        try:
            _link(tmp, target)
        except FileExistsError:
            continue
        except OSError as err:
            if err.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
                raise WriteError(f"{target}: cannot write here: {err.strerror}") from None
            if not _create_exclusive(target, data, mode):  # a folder without hard links
                continue
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        _sync_folder(where)
        return target
    raise WriteError(f"{where}: no free name for a new file after {attempts} tries")


def _link(source: str, target: Path) -> None:
    """``os.link``; where the platform has none (a browser tab's Python, Pyodide) the error
    of a folder without hard links, so the caller creates the file exclusively instead."""
    if not hasattr(os, "link"):
        raise OSError(errno.ENOTSUP, "hard links are not supported here")
    os.link(source, target, follow_symlinks=False)


def replace_refusal(info: os.stat_result, euid: int | None, groups: Iterable[int],
                    writable: bool) -> str | None:
    """Why a user may not replace the regular file ``info`` describes, or None.

    ``writable`` is ``os.access(path, os.W_OK)``; it passes everything for root, so the write
    bit that applies is read as well: the owner's for its owner and for root (a file made
    read-only stays so), else the group's or the others'. Replacing needs only the folder's
    write permission, which is why the file's own is asked here."""
    mode = stat.S_IMODE(info.st_mode)
    if euid is None or euid in (0, info.st_uid):  # (no uids on Windows: its read-only flag)
        bit = stat.S_IWUSR
    elif info.st_gid in set(groups):
        bit = stat.S_IWGRP
    else:
        bit = stat.S_IWOTH
    if writable and mode & bit:
        return None
    return (f"this file is read-only for you (mode {mode:04o}); it is not replaced: make it "
            "writable or write to a new path")


_TOKEN = re.compile(r"[0-9a-f]{16}")


def stale_temp_files(target: Path) -> list[Path]:
    """Temporary files of earlier saves to ``target`` whose process is gone (or that are
    older than STALE_AFTER seconds). Never our own process's, never anything but our own
    user's regular files, and only names that are exactly ``.NAME.PID.TOKEN.tmp``."""
    pattern = re.compile(re.escape(f".{_name_part(target.name)}.") + r"([0-9]{1,10})\."
                         + _TOKEN.pattern + re.escape(".tmp"))
    found = []
    now = time.time()
    euid = _euid()
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return []
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if match is None:
            continue
        pid = int(match.group(1))
        if pid == os.getpid():
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode) or (euid is not None and info.st_uid != euid):
            continue
        if now - info.st_mtime > STALE_AFTER or not _alive(pid):
            found.append(Path(entry.path))
    return found


def _name_part(name: str) -> str:
    """The target's name as it appears in its temp files: as is, or for a name so long the
    temp name would pass the usual 255-byte limit, a short prefix and a digest of it."""
    if len(os.fsencode(name)) <= 200:
        return name
    return f"{name[:40]}~{hashlib.sha256(os.fsencode(name)).hexdigest()[:24]}"


def _write_temp(folder: Path, target: Path, name: str, data: bytes, mode: int,
                info: os.stat_result | None) -> str:
    """The whole of ``data`` in a new temp file beside ``target``, on disk; its path."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    tmp = ""
    for _ in range(100):
        tmp = os.path.join(folder, f".{_name_part(target.name)}.{os.getpid()}."
                                   f"{secrets.token_hex(8)}.tmp")
        try:
            fd = os.open(tmp, flags, 0o600)
            break
        except FileExistsError:
            continue
        except OSError as err:
            raise WriteError(f"{name}: cannot write in {folder}: {err.strerror}") from None
    else:
        raise WriteError(f"{name}: cannot make a temporary file in {folder}")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if hasattr(os, "fchmod"):
                os.fchmod(fh.fileno(), mode)
                if info is not None and hasattr(os, "fchown"):
                    with contextlib.suppress(OSError):  # only root may give files away
                        os.fchown(fh.fileno(), info.st_uid, info.st_gid)
            os.fsync(fh.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def _create_exclusive(target: Path, data: bytes, mode: int) -> bool:
    """Where hard links are not supported: create the final name exclusively and write it;
    False if the name is taken. A failed write removes the partial file."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(target, flags, mode)
    except FileExistsError:
        return False
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            os.fsync(fh.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(target)
        raise
    return True


def _refuse_inputs(target: Path, name: str, info: os.stat_result | None,
                   inputs: Iterable[PathLike]) -> None:
    """Refuse ``target`` if it is one of the command's input files: the same resolved path,
    or (for an existing target) the same device and inode."""
    real = os.path.realpath(target)
    for given in inputs:
        source = os.fspath(given)
        same = os.path.realpath(source) == real
        if not same and info is not None:
            try:
                other = os.stat(source)
                mine = os.stat(target)
            except OSError:
                continue
            same = (other.st_dev, other.st_ino) == (mine.st_dev, mine.st_ino)
        if same:
            raise WriteError(f"{name}: this is the command's input file ({source}); writing "
                             "there would replace it, so give another output path")


def _folder(target: Path, name: str, through_links: bool = True) -> Path:
    """The folder the file goes in, once the path as given is a file's: not empty, not
    ending in a slash (that names a folder: ``Path`` would drop the slash and write a file
    of the folder's name), and unless ``through_links``, through no symlinked folder (see
    :func:`_linked_folder`)."""
    if name == "":
        raise WriteError("'': an empty path names no file; give a file name (or - for the "
                         "screen)")
    if name.endswith(("/", os.sep)) or (os.altsep and name.endswith(os.altsep)):
        raise WriteError(f"{name}: this names a folder; expected a file's path")
    folder = target.parent
    if not folder.is_dir():
        raise WriteError(f"{name}: the folder {folder} does not exist")
    linked = None if through_links else _linked_folder(folder)
    if linked is not None:
        raise WriteError(f"{name}: the folder {linked} is a symlink (to "
                         f"{os.readlink(linked)}); give the real path to write there")
    return folder


def _linked_folder(folder: Path) -> Path | None:
    """The first folder of the path as given that is a symlink, or None. A link at the
    top of the file system owned by root is the system's own layout (macOS's ``/var`` and
    ``/tmp``, a merged ``/bin``), which only root can make; any other is refused as a
    linked file is: a link planted in a shared folder would otherwise redirect the write,
    or a folder moved aside for a link between the check and the rename."""
    path = folder
    while True:
        try:
            info: os.stat_result | None = os.lstat(path)
        except OSError:  # not there yet (a folder to be made): its parents still count
            info = None
        if info is not None and stat.S_ISLNK(info.st_mode) and not (
                path.parent == Path(path.anchor) and path.anchor != "" and info.st_uid == 0):
            return path
        if path.parent == path:
            return None
        path = path.parent


def _euid() -> int | None:
    return os.geteuid() if hasattr(os, "geteuid") else None


def _groups() -> list[int]:
    if not hasattr(os, "getgroups"):
        return []
    return [os.getegid(), *os.getgroups()]


def _alive(pid: int) -> bool:
    if sys.platform == "win32":
        return True  # no cheap check: the age rule cleans up
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, but is someone else's
    return True


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); harmless where folders cannot be opened."""
    if sys.platform == "win32":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
