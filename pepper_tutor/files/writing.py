"""The one way the project replaces a file: whole or not at all, and only a regular file.

Every file the package writes goes through :func:`write_text` or :func:`write_bytes`
(``annotate -o PATH``, the score sheet, the practice table's records, the rulebook cache,
the screened-drills data file, the compiled search):

- the text goes to a temporary file in the same folder, is flushed to disk, then renamed over
  the target, so a crash or Ctrl-C leaves the old file or the new one, never half of one;
- PATH must be a regular file or a path that does not exist yet. A FIFO, a device, a
  directory or a socket is refused (replacing ``/dev/null`` with a file is never wanted);
- a **symlink is refused**, with where it points: write to the real path if that is what is
  meant. Writing through links would let a link planted in a shared folder redirect a save;
- a file with more than one hard link is refused, because replacing it would quietly split
  it from its other names;
- the target's permission bits are kept (and its owner, when we may set it); a new file gets
  the usual ``0666`` less the umask, like any file a program creates;
- temporary files left by a save that was killed (``.NAME.PID.xxxx.tmp``) are removed by the
  next save to the same path, once their process is gone or they are an hour old.

The checks and the rename are not one atomic step: a path swapped for a link or a FIFO in
between is replaced by the new file, never written through.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
import time
from pathlib import Path

from .reading import file_kind

__all__ = ["WriteError", "write_text", "write_bytes", "stale_temp_files"]

STALE_AFTER = 3600.0  # seconds: a temp file this old is left over whatever its process


class WriteError(ValueError):
    """The path cannot be written safely; the message says why and what to do."""


def write_text(path: str | Path, text: str, encoding: str = "utf-8") -> None:
    """Replace (or create) ``path`` with ``text``; see the module for the policy."""
    write_bytes(path, text.encode(encoding))


def write_bytes(path: str | Path, data: bytes) -> None:
    """Replace (or create) ``path`` with ``data``; see the module for the policy."""
    target = Path(path)
    name = str(path)
    try:
        info: os.stat_result | None = os.lstat(target)
    except FileNotFoundError:
        info = None
    except OSError as err:
        raise WriteError(f"{name}: cannot write here: {err.strerror}") from None
    if info is not None:
        if stat.S_ISLNK(info.st_mode):
            raise WriteError(f"{name}: this is a symlink (to {os.readlink(target)}); give the "
                             "real path to write there")
        if not stat.S_ISREG(info.st_mode):
            raise WriteError(f"{name}: this is {file_kind(info.st_mode)}; expected a regular "
                             "file or a new path")
        if info.st_nlink > 1:
            raise WriteError(f"{name}: this file has {info.st_nlink} hard links; replacing it "
                             "would split them, so write to a new path")
        mode = stat.S_IMODE(info.st_mode)
    else:
        mode = 0o666 & ~_umask()
    folder = target.parent
    if not folder.is_dir():
        raise WriteError(f"{name}: the folder {folder} does not exist")
    for old in stale_temp_files(target):
        with contextlib.suppress(OSError):
            old.unlink()
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.{os.getpid()}.",
                                   suffix=".tmp")
    except OSError as err:
        raise WriteError(f"{name}: cannot write in {folder}: {err.strerror}") from None
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
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_folder(folder)


def stale_temp_files(target: Path) -> list[Path]:
    """Temporary files of earlier saves to ``target`` whose process is gone (or that are
    older than STALE_AFTER seconds). Never our own process's, never anything but files."""
    prefix, suffix = f".{target.name}.", ".tmp"
    found = []
    now = time.time()
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return []
    for entry in entries:
        if not (entry.name.startswith(prefix) and entry.name.endswith(suffix)):
            continue
        pid_text = entry.name[len(prefix):].split(".", 1)[0]
        if not pid_text.isdigit() or int(pid_text) == os.getpid():
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        if now - info.st_mtime > STALE_AFTER or not _alive(int(pid_text)):
            found.append(Path(entry.path))
    return found


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
