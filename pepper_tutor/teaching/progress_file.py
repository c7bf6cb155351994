"""A learner's progress as one file to download, and loaded back: where the browser keeps
nothing for long (a private window, a cleared site), or to carry it to another machine.

The file is the learner store itself (SQLite), copied consistently (the write-ahead log folded
in, rollback-journal mode, so it is one self-contained file), with the puzzle store's tables
added as ``puzzles_<table>`` (the two stores cannot share a file: both have a ``learners``
table). The terminal tutor reads such a file as its learner store and leaves those tables
alone. Loading checks the file before anything is replaced: a file that is not a pepper-tutor
progress file, or one written by a newer version, is refused with a reason and the progress
in place is left as it was; a file without puzzle tables leaves the puzzle ratings alone.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..files import browser_home
from ..files.database import DamagedDatabase, connect, look
from ..files.reading import read_bytes
from ..files.writing import write_bytes
from .learner.store import STORE, LearnerStore
from .puzzles.store import SCHEMA as PUZZLES

__all__ = ["FILE_NAME", "PROGRESS_LIMIT", "ProgressFileRefused", "Loaded", "progress_bytes",
           "load_progress"]

#: The name a downloaded progress file is offered under.
FILE_NAME = "pepper-progress.sqlite"
PROGRESS_LIMIT = 256 * 1024 * 1024  # read whole: years of answers are a few MB


class ProgressFileRefused(ValueError):
    """The file is not one to load; the message says why, naming it."""


@dataclass(frozen=True)
class Loaded:
    """What a progress file brought: its learners, most answers first, and whether the puzzle
    ratings came too (``loaded``), were not in it (``none``) or were left because a newer
    version wrote them (``newer``)."""

    learners: tuple[str, ...]
    puzzles: Literal["loaded", "none", "newer"] = "none"


def progress_bytes(store: LearnerStore, puzzles: Path | None = None) -> bytes:
    """The learner store as one SQLite file's bytes (a consistent copy), with the tables of the
    puzzle store at ``puzzles`` where there is one."""
    store.flush()
    copy = store.home / ".export.sqlite"
    copy.unlink(missing_ok=True)
    try:
        with closing(connect(store.path, read_only=True)) as src, \
                closing(connect(copy)) as dest:
            src.backup(dest)
            dest.execute("PRAGMA journal_mode = DELETE")
            if puzzles is not None and puzzles.exists():
                _add_puzzles(dest, puzzles)
        return read_bytes(copy, PROGRESS_LIMIT)
    finally:
        copy.unlink(missing_ok=True)


def _add_puzzles(dest: sqlite3.Connection, puzzles: Path) -> None:
    dest.execute("ATTACH DATABASE ? AS p", (str(puzzles),))
    try:
        for table in sorted(PUZZLES.tables):
            dest.execute(f"CREATE TABLE puzzles_{table} AS SELECT * FROM p.{table}")
    finally:
        dest.execute("DETACH DATABASE p")


def _load_puzzles(upload: Path, puzzles: Path) -> Literal["loaded", "none", "newer"]:
    """The puzzle store at ``puzzles`` replaced by the tables ``upload`` carries, if any."""
    with closing(connect(upload, read_only=True)) as con:
        tables = {r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not {f"puzzles_{t}" for t in PUZZLES.tables} <= tables:
            return "none"
        row = con.execute("SELECT value FROM puzzles_meta WHERE key = 'schema'").fetchone()
    if row is not None and int(row[0]) > PUZZLES.version:
        return "newer"
    fresh = puzzles.with_name(".import-puzzles.sqlite")
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{fresh}{suffix}").unlink(missing_ok=True)
    try:
        with closing(connect(fresh)) as con:
            con.executescript(PUZZLES.sql)
            con.execute("ATTACH DATABASE ? AS up", (str(upload),))
            for table in sorted(PUZZLES.tables):
                con.execute(f"INSERT OR REPLACE INTO main.{table} SELECT * FROM "
                            f"up.puzzles_{table}")
            con.execute("DETACH DATABASE up")
        for suffix in ("-wal", "-shm", "-journal"):
            Path(f"{puzzles}{suffix}").unlink(missing_ok=True)
        write_bytes(puzzles, read_bytes(fresh, PROGRESS_LIMIT))
    finally:
        fresh.unlink(missing_ok=True)
    browser_home.saved(puzzles)
    return "loaded"


def load_progress(store: LearnerStore, upload: Path, name: str,
                  puzzles: Path | None = None) -> Loaded:
    """Replace ``store``'s file with the progress file at ``upload`` (shown as ``name``), after
    checking it is one, and the puzzle store at ``puzzles`` (closed by the caller) with the
    ratings it carries. ``store`` is closed: open a new one on the same home. Raises
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
    return Loaded(names, _load_puzzles(upload, puzzles) if puzzles is not None else "none")
