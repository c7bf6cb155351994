"""A learner's progress as one file to download, and loaded back: where the browser keeps
nothing for long (a private window, a cleared site), or to carry it to another machine.

The file is the learner store itself (SQLite), copied consistently (the write-ahead log folded
in, rollback-journal mode, so it is one self-contained file). Loading checks the file before
anything is replaced: a file that is not a pepper-tutor progress file, or one written by a
newer version, is refused with a reason and the progress in place is left as it was.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from ...files import browser_home
from ...files.database import DamagedDatabase, connect, look
from ...files.reading import read_bytes
from ...files.writing import write_bytes
from .store import STORE, LearnerStore

__all__ = ["FILE_NAME", "PROGRESS_LIMIT", "ProgressFileRefused", "Loaded", "progress_bytes",
           "load_progress"]

#: The name a downloaded progress file is offered under.
FILE_NAME = "pepper-progress.sqlite"
PROGRESS_LIMIT = 256 * 1024 * 1024  # read whole: years of answers are a few MB


class ProgressFileRefused(ValueError):
    """The file is not one to load; the message says why, naming it."""


@dataclass(frozen=True)
class Loaded:
    """What a progress file brought: its learners, most answers first."""

    learners: tuple[str, ...]


def progress_bytes(store: LearnerStore) -> bytes:
    """The learner store as one SQLite file's bytes (a consistent copy)."""
    store.flush()
    copy = store.home / ".export.sqlite"
    copy.unlink(missing_ok=True)
    try:
        with closing(connect(store.path, read_only=True)) as src, \
                closing(connect(copy)) as dest:
            src.backup(dest)
            dest.execute("PRAGMA journal_mode = DELETE")
        return read_bytes(copy, PROGRESS_LIMIT)
    finally:
        copy.unlink(missing_ok=True)


def load_progress(store: LearnerStore, upload: Path, name: str) -> Loaded:
    """Replace ``store``'s file with the progress file at ``upload`` (shown as ``name``), after
    checking it is one. The store is closed: open a new one on the same home. Raises
    :class:`ProgressFileRefused` and changes nothing when the file is not one to load."""
    try:
        seen = look(upload, STORE)
    except (DamagedDatabase, sqlite3.Error) as err:
        raise ProgressFileRefused(f"{name} is not a pepper-tutor progress file ({err})") \
            from None
    if seen.state == "newer":
        raise ProgressFileRefused(f"{name} was written by a newer pepper-tutor")
    if seen.state != "ours":
        raise ProgressFileRefused(f"{name} holds no progress")
    with closing(connect(upload, read_only=True)) as con:
        names = tuple(r[0] for r in con.execute(
            "SELECT l.name FROM learners l LEFT JOIN answers a ON a.learner = l.id "
            "GROUP BY l.id ORDER BY COUNT(a.id) DESC, l.id"))
    data = read_bytes(upload, PROGRESS_LIMIT)
    store.close()
    for suffix in ("-wal", "-shm", "-journal"):
        Path(f"{store.path}{suffix}").unlink(missing_ok=True)
    write_bytes(store.path, data)
    browser_home.saved(store.path)  # no transaction wrote it: the browser copy is asked here
    return Loaded(names)
