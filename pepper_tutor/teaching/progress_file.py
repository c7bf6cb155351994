"""A learner's progress as one file to download, and loaded back: where the browser keeps
nothing for long (a private window, a cleared site), or to carry it to another machine.

The file is a learner store (SQLite, rollback-journal mode, so it is one self-contained file)
holding the learner store's tables, with the puzzle store's tables beside them as
``puzzles_<table>`` (the two stores cannot share a file: both have a ``learners`` table). The
terminal tutor reads such a file as its learner store and leaves those tables alone.

A progress file is data, never code. Loading one (:func:`load_progress`):

1. refuses a file that is not a regular file or is over :data:`PROGRESS_LIMIT`;
2. copies it to a scratch folder and opens the copy read-only, with the schema untrusted;
3. refuses it if it holds a trigger or a view (a file this module writes has none), is not a
   pepper-tutor progress file, or was written by a newer version; checks every table it
   takes against the store's columns (:data:`~.learner.store.COLUMNS`,
   :data:`~.puzzles.store.COLUMNS`: each value's type and range, in SQLite) and the rows
   against each other (each answer's learner is in the file, a name is a name, a puzzle
   review card can be read);
4. copies the rows, column by column, into fresh stores made from this version's own schema:
   any other table, index or object of the file is never carried over, and nothing of the
   file runs (the rows are read with ``SELECT`` and written with ``INSERT``);
5. and only when everything, the puzzle tables included, was read, puts the fresh stores in
   place of the learner's.

A file refused at any step raises :class:`ProgressFileRefused` (a ``ValueError``) with one
line naming the file and what is wrong, and the learner's progress is as it was. Exporting
(:func:`progress_bytes`) writes through the same copy and checks, so a file it writes is one
the import takes.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import stat
import tempfile
import time
import unicodedata
from collections.abc import Iterator
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..files import browser_home
from ..files.database import (
    Column,
    Columns,
    NotAFile,
    connect,
    fault,
    look,
    transaction,
    trouble,
    unfit,
)
from ..files.reading import LoadError, file_kind, read_bytes
from ..files.writing import write_bytes
from .learner.store import COLUMNS as LEARNER_COLUMNS
from .learner.store import LATER_TABLES, STORE, LearnerStore
from .puzzles.store import COLUMNS as PUZZLE_COLUMNS
from .puzzles.store import SCHEMA as PUZZLES
from .puzzles.store import unreadable as puzzles_unreadable

__all__ = ["FILE_NAME", "PROGRESS_LIMIT", "ProgressFileRefused", "Loaded", "progress_bytes",
           "load_progress"]

#: The name a downloaded progress file is offered under.
FILE_NAME = "pepper-progress.sqlite"
#: The largest progress file taken: years of answers are a few MB, and the file is read whole
#: (in a browser tab, into its memory).
PROGRESS_LIMIT = 64 * 1024 * 1024  # 64 MB
MB = 1024 * 1024
#: Seconds after which a scratch folder is another process's that was killed, not one at work.
STALE_SCRATCH = 600
PREFIX = "puzzles_"
# The learner tables in the order their rows are copied: a row's learner before the row.
_LEARNER_ORDER = ("learners", "lessons", "answers", "review_cards", "seen")
_SQL_TYPE = {"integer": "INTEGER", "real": "REAL", "text": "TEXT"}


class ProgressFileRefused(ValueError):
    """The file is not one to load; the message says why, naming it."""


@dataclass(frozen=True)
class Loaded:
    """What a progress file brought: its learners, most answers first, and whether the puzzle
    ratings came too (``loaded``), were not in it (``none``) or were left because a newer
    version wrote them (``newer``)."""

    learners: tuple[str, ...]
    puzzles: Literal["loaded", "none", "newer"] = "none"


def _line(why: object) -> str:
    """``why`` on one line: SQLite's own reports span several."""
    return " ".join(str(why).split())


# ---- reading a file's tables as data ---------------------------------------------------------

def _learners_checked(src: sqlite3.Connection) -> str | None:
    """The learner tables' rows against each other (the columns are checked already)."""
    for (name,) in src.execute("SELECT name FROM learners"):
        if unicodedata.normalize("NFC", name.strip()) != name:
            return f"the learner name {name[:40]!r} is not one pepper-tutor writes"
    tables = {r[0] for r in src.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for table in ("lessons", "answers", "review_cards", "seen"):
        if table not in tables:  # a table a later version added (checked present before)
            continue
        row = src.execute(f"SELECT learner FROM {table} WHERE learner NOT IN "
                          "(SELECT id FROM learners) LIMIT 1").fetchone()
        if row is not None:
            return f"a row of the table {table} names learner {row[0]}, who is not in the file"
    return None


def _unreadable_rows(path: Path) -> str | None:
    """A row of the learner store at ``path`` that the store itself cannot read (an answer's
    time, its rules, a lesson's progress, a review card), as the store words it: read by the
    store's own readers, so the import takes exactly what the store reads."""
    with closing(connect(path, read_only=True)) as con:
        names = [r[0] for r in con.execute("SELECT name FROM learners ORDER BY id")]
    for learner in names:
        store = LearnerStore(learner, path.parent)
        try:
            store.answers()
            store.lessons()
            store.review_cards()
        finally:
            store.close()
        if store.warnings:  # "PATH: answer 3 in the table answers cannot be read (...); ..."
            return store.warnings[0].removeprefix(f"{path}: ").rsplit("; ", 1)[0]
    return None


def _learner_tables(src: sqlite3.Connection) -> Columns:
    """The learner store's tables that ``src`` is to hold: all of them, but a table a later
    schema version added (:data:`~.learner.store.LATER_TABLES`) only when it is there, so a
    file an older version wrote still loads."""
    have = {r[0] for r in src.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return {t: c for t, c in LEARNER_COLUMNS.items() if t in have or t not in LATER_TABLES}


def _copy(src: sqlite3.Connection, dest: sqlite3.Connection, tables: Columns,
          order: tuple[str, ...], src_prefix: str = "", dest_prefix: str = "") -> None:
    """The rows of ``tables`` (checked already), column by column, from ``src`` into the
    same tables of ``dest``, in ``order`` (a table of ``order`` not in ``tables`` is
    skipped). Nothing but ``SELECT`` runs on ``src``."""
    for table in order:
        if table not in tables:
            continue
        cols = ", ".join(f'"{c.name}"' for c in tables[table])
        marks = ", ".join("?" for _ in tables[table])
        rows = src.execute(f'SELECT {cols} FROM "{src_prefix}{table}"')
        dest.executemany(f'INSERT INTO "{dest_prefix}{table}" ({cols}) VALUES ({marks})', rows)


def _puzzle_tables_sql() -> str:
    """The puzzle store's tables as a progress file holds them, ``puzzles_<table>``."""
    def column(c: Column) -> str:
        return f'"{c.name}" {_SQL_TYPE[c.kind]} NOT NULL'
    return "\n".join(f"CREATE TABLE {PREFIX}{table} ({', '.join(map(column, columns))});"
                     for table, columns in PUZZLE_COLUMNS.items())


def _new_store(path: Path, sql: str, version: int, more: str = "") -> sqlite3.Connection:
    """A fresh database at ``path`` made from this version's ``sql`` (and ``more``), one
    file (rollback journal), its schema version written."""
    con = connect(path)
    try:
        # A scratch file: nothing is waited onto the disk until the whole of it is written
        # in the store's place (write_bytes syncs that).
        con.execute("PRAGMA journal_mode = DELETE")
        con.execute("PRAGMA synchronous = OFF")
        con.executescript(f"BEGIN;\n{sql}\n{more}\nINSERT OR REPLACE INTO meta (key, value) "
                          f"VALUES ('schema', '{int(version)}');\nCOMMIT;")
    except BaseException:
        con.close()
        raise
    return con


@contextmanager
def _scratch(home: Path) -> Iterator[Path]:
    """A folder of its own beside the store (the same disk: the swap is a rename), removed
    afterwards whatever happened."""
    home.mkdir(parents=True, exist_ok=True)
    for old in home.glob(".import-*"):  # left by a process killed half way
        with suppress(OSError):
            if time.time() - old.stat().st_mtime > STALE_SCRATCH:
                shutil.rmtree(old, ignore_errors=True)
    place = Path(tempfile.mkdtemp(prefix=".import-", dir=home))
    try:
        yield place
    finally:
        shutil.rmtree(place, ignore_errors=True)


# ---- export ------------------------------------------------------------------------------

def progress_bytes(store: LearnerStore, puzzles: Path | None = None) -> bytes:
    """The learner store as one SQLite file's bytes, with the tables of the puzzle store at
    ``puzzles`` where there is one: the tables and columns the import takes, nothing else."""
    store.flush()
    with _scratch(store.home) as place:
        out = place / FILE_NAME
        with closing(_new_store(out, STORE.sql, STORE.version, _puzzle_tables_sql())
                     ) as dest, transaction(dest):
            if store.path.exists():
                with closing(connect(store.path, read_only=True)) as src:
                    _copy(src, dest, _learner_tables(src), _LEARNER_ORDER)
            if puzzles is not None and puzzles.exists():
                with closing(connect(puzzles, read_only=True)) as src:
                    _copy(src, dest, PUZZLE_COLUMNS, tuple(PUZZLE_COLUMNS), dest_prefix=PREFIX)
        return read_bytes(out, PROGRESS_LIMIT)


# ---- import ------------------------------------------------------------------------------

def _upload_copy(upload: Path, name: str, place: Path) -> Path:
    """``upload`` copied into ``place``, after the checks of a file (a regular file, within
    the limit, an SQLite database), in rollback-journal mode so that it opens read-only
    alone."""
    try:
        info = os.stat(upload)
    except OSError as err:
        raise ProgressFileRefused(f"{name} cannot be read ({err.strerror or err})") from None
    if not stat.S_ISREG(info.st_mode):
        raise ProgressFileRefused(f"{name} is {file_kind(info.st_mode)}, not a progress file")
    if info.st_size > PROGRESS_LIMIT:
        raise ProgressFileRefused(f"{name} is {info.st_size / MB:.1f} MB: a progress file is "
                                  f"at most {PROGRESS_LIMIT // MB} MB")
    try:
        data = read_bytes(upload, PROGRESS_LIMIT)  # checks again: the file may have changed
    except LoadError as err:
        why = err.problems[0].message if err.problems else str(err)
        raise ProgressFileRefused(f"{name} cannot be loaded: {why}") from None
    if len(data) < 100 or not data.startswith(b"SQLite format 3\x00"):
        raise ProgressFileRefused(f"{name} is not a pepper-tutor progress file (it is not an "
                                  "SQLite database)")
    if data[18:20] == b"\x02\x02":
        # A WAL-mode header: its log did not come with it; read it as a one-file database.
        data = data[:18] + b"\x01\x01" + data[20:]
    copy = place / "upload.sqlite"
    write_bytes(copy, data)
    return copy


def _read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection that trusts nothing in the file's schema (SQLite then refuses
    to run any function a view, a trigger or a default of the file calls, should one ever be
    reached) and can write nothing."""
    con = connect(path, read_only=True)
    # Text that is not UTF-8 is read with U+FFFD in place of the bad bytes: what is copied
    # is then text, and the checks see it as such.
    con.text_factory = lambda data: data.decode("utf-8", "replace")
    con.execute("PRAGMA trusted_schema = OFF")
    con.execute("PRAGMA query_only = ON")
    return con


def _code_in(src: sqlite3.Connection) -> str | None:
    """A trigger or a view in the file: code, which a progress file never holds."""
    row = src.execute("SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view') "
                      "ORDER BY type, name LIMIT 1").fetchone()
    return None if row is None else (f"it holds a {row[0]}, {str(row[1])[:40]!r}: a progress "
                                     "file holds data, never code")


def _read(upload: Path, name: str, place: Path, want_puzzles: bool
          ) -> tuple[Path, Path | None, Literal["loaded", "none", "newer"]]:
    """The fresh learner store (and puzzle store, when the file brings one) built in
    ``place`` from the file's rows; raises :class:`ProgressFileRefused`."""
    def refuse(why: str) -> ProgressFileRefused:
        return ProgressFileRefused(f"{name} is not a pepper-tutor progress file "
                                   f"({_line(why)})")

    copy = _upload_copy(upload, name, place)
    try:
        seen = look(copy, STORE)
    except sqlite3.Error as err:  # a copy of our own: nobody else holds it, only damage
        raise refuse(str(err)) from None
    if seen.state == "newer":
        raise ProgressFileRefused(f"{name} was written by a newer pepper-tutor")
    if seen.state != "ours":
        raise ProgressFileRefused(f"{name} holds no progress")
    learners = place / "learners.sqlite"
    puzzles_out: Path | None = None
    puzzles: Literal["loaded", "none", "newer"] = "none"
    with closing(_read_only(copy)) as src:
        learner_tables = _learner_tables(src)
        why = _code_in(src) or unfit(src, learner_tables) or _learners_checked(src)
        if why is not None:
            raise refuse(why)
        tables = {r[0] for r in src.execute("SELECT name FROM sqlite_master "
                                            "WHERE type = 'table'")}
        carried = {PREFIX + t for t in PUZZLE_COLUMNS} & tables
        if carried and want_puzzles:
            lacking = sorted({PREFIX + t for t in PUZZLE_COLUMNS} - carried)
            if lacking:
                raise refuse(f"it has some of the puzzle tables but not {lacking[0]}")
            why = unfit(src, {"meta": PUZZLE_COLUMNS["meta"]}, PREFIX)
            if why is not None:
                raise refuse(why)
            version = src.execute(f"SELECT value FROM {PREFIX}meta WHERE key = 'schema'"
                                  ).fetchone()
            number = "1" if version is None else str(version[0])
            if not re.fullmatch(r"[1-9][0-9]{0,8}", number):  # not "²", "-1" or "1e999"
                raise refuse(f"its puzzle schema version {number[:20]!r} is not one "
                             "pepper-tutor writes")
            if int(number) > PUZZLES.version:
                puzzles = "newer"
            else:
                why = puzzles_unreadable(src, prefix=PREFIX)
                if why is not None:
                    raise refuse(why)
                puzzles = "loaded"
        with closing(_new_store(learners, STORE.sql, STORE.version)) as dest, \
                transaction(dest):
            _copy(src, dest, learner_tables, _LEARNER_ORDER)
        why = _unreadable_rows(learners)
        if why is not None:
            raise refuse(why)
        if puzzles == "loaded":
            puzzles_out = place / "puzzles.sqlite"
            with closing(_new_store(puzzles_out, PUZZLES.sql, PUZZLES.version)) as dest, \
                    transaction(dest):
                _copy(src, dest, PUZZLE_COLUMNS, tuple(t for t in PUZZLE_COLUMNS if t != "meta"),
                      src_prefix=PREFIX)
    return learners, puzzles_out, puzzles


def _swap(fresh: Path, target: Path) -> None:
    """``target`` replaced by the whole of ``fresh`` (one rename), its old log files gone
    first: a log left beside the new file would be played into it."""
    data = read_bytes(fresh, 2 * PROGRESS_LIMIT)
    for suffix in ("-wal", "-shm", "-journal"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    write_bytes(target, data)
    browser_home.saved(target)  # no transaction wrote it: the browser copy is asked here


def load_progress(store: LearnerStore, upload: Path, name: str,
                  puzzles: Path | None = None) -> Loaded:
    """Replace ``store``'s file with the progress the file at ``upload`` (shown as ``name``)
    holds, and the puzzle store at ``puzzles`` (closed by the caller) with the ratings it
    carries, after reading all of it (see the module). ``store`` is closed: open a new one
    on the same home. Raises :class:`ProgressFileRefused` and changes nothing when the file
    is not one to load."""
    with _scratch(store.home) as place:
        try:
            learners, puzzle_store, brought = _read(upload, name, place, puzzles is not None)
            with closing(connect(learners, read_only=True)) as con:
                names = tuple(r[0] for r in con.execute(
                    "SELECT l.name FROM learners l LEFT JOIN answers a ON a.learner = l.id "
                    "GROUP BY l.id ORDER BY COUNT(a.id) DESC, l.id"))
        except ProgressFileRefused:
            raise
        except NotAFile as err:  # the store's own folder: not the file's fault
            raise ProgressFileRefused(f"{name} was not loaded: {err}") from None
        except sqlite3.IntegrityError as err:
            raise ProgressFileRefused(f"{name} is not a pepper-tutor progress file (its rows "
                                      f"break a rule of the store: {_line(err)})") from None
        except sqlite3.Error as err:
            if fault(err) in ("busy", "full", "io", "read_only"):  # the tutor's own folder
                raise ProgressFileRefused(f"{name} was not loaded: "
                                          f"{_line(trouble(err, store.home))}") from None
            raise ProgressFileRefused(f"{name} is not a pepper-tutor progress file "
                                      f"({_line(err)})") from None
        except (OSError, LoadError) as err:
            raise ProgressFileRefused(f"{name} was not loaded: the tutor's folder "
                                      f"{store.home} cannot take it ({_line(err)})") from None
        store.close()
        if puzzle_store is not None and puzzles is not None:
            _swap(puzzle_store, puzzles)
        _swap(learners, store.path)
    return Loaded(names, brought)
