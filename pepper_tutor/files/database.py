"""The SQLite foundation under the stores: the learner store, the practice history, game night.

One way to open a database file, to change it, and to treat one that cannot be used. Only
damage is damage:

- :func:`connect` gives a connection with the shared settings: a busy timeout (a second
  window or process waits its turn instead of failing), ``synchronous=NORMAL`` unless asked
  for ``FULL`` (in WAL mode a committed change survives the program crashing; ``FULL`` also
  survives a power cut), foreign keys enforced, and no implicit transactions
  (``isolation_level=None``): every change is an explicit :func:`transaction`. The connection
  may move between threads (a notebook kernel runs widget callbacks in another thread than
  the cell that made the widget; a server has its worker threads): the store's lock keeps one
  at a time. ``read_only`` opens it with ``mode=ro``: nothing can be written through it.
  Only a regular file (or none yet) is opened: a FIFO, a folder or a device in a store's
  place (or its ``-wal``, ``-shm`` or ``-journal``) is refused at once with
  :class:`NotAFile`, where SQLite would hang on the FIFO;
- :func:`transaction` is one ``BEGIN IMMEDIATE`` ... ``COMMIT``: the write lock is taken at
  the start, so two writers queue up instead of one failing half way, and an error rolls
  everything in the block back;
- :func:`look` reads a file through a read-only connection before anything is written to it:
  it passes ``PRAGMA quick_check``, and is new (no tables), ours (a :class:`Schema`'s tables,
  at a version this code knows) or newer (written by a later version). A file that is not a
  database, fails the check or is someone else's raises :class:`DamagedDatabase`;
- :func:`open_store` is the policy. A damaged file is renamed aside under a unique name
  (:func:`set_aside`: ``NAME.damaged-TIMESTAMP-XXXX``, with its ``-wal`` and ``-shm`` files)
  and a fresh one is started. Anything else is not damage and nothing is renamed or written:
  a busy file (another program holds it past the wait), a full disk or an I/O error is
  "cannot save now, nothing changed" (:func:`fault` tells them apart, :func:`trouble` words
  them); a read-only file is opened read-only; a newer one is left alone. The store words
  what happened for its reader (:class:`Opening`).

Waits: :data:`BUSY_TIMEOUT` (30 s) where nobody is watching; :data:`PERSON_WAIT` (5 s) where
a person waits for the answer (the learner store, the practice history), so a database browser
holding the file makes the tutor say so within seconds instead of seeming to hang.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import stat
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from urllib.parse import quote

from . import browser_home
from .reading import file_kind
from .runtime import in_browser

__all__ = ["BUSY_TIMEOUT", "PERSON_WAIT", "DamagedDatabase", "Unavailable", "NotAFile", "Schema",
           "Opening", "Fault", "Column", "Columns", "missing_columns", "bad_value", "unfit",
           "regular_file", "connect", "transaction", "look", "fault",
           "trouble", "set_aside", "open_store"]

#: Seconds a connection waits for another's write lock before giving up.
BUSY_TIMEOUT = 30.0
#: The wait where a person is waiting for the next question or hand.
PERSON_WAIT = 5.0

#: What went wrong with a database, by what it means for the file.
Fault = Literal["damaged", "read_only", "busy", "full", "io"]

# SQLite's primary result codes (the low byte of the extended code in ``sqlite_errorcode``).
_CODES: dict[int, Fault] = {
    3: "read_only",   # SQLITE_PERM
    5: "busy",        # SQLITE_BUSY
    6: "busy",        # SQLITE_LOCKED
    8: "read_only",   # SQLITE_READONLY
    10: "io",         # SQLITE_IOERR
    11: "damaged",    # SQLITE_CORRUPT
    13: "full",       # SQLITE_FULL
    14: "io",         # SQLITE_CANTOPEN: a folder or -shm that cannot be made, not damage
    26: "damaged",    # SQLITE_NOTADB
}


class DamagedDatabase(sqlite3.DatabaseError):
    """The file fails SQLite's own check, or is a database of something else."""


class Unavailable(sqlite3.OperationalError):
    """A store that could not be opened for writing (:attr:`Opening.problem` in words), with
    the :data:`Fault` that stopped it."""

    def __init__(self, words: str, kind: Fault | None) -> None:
        super().__init__(words)
        self.kind = kind


class NotAFile(Unavailable):
    """A store's path (or its ``-wal``, ``-shm`` or ``-journal`` file) that is there but is
    not a regular file: a FIFO, a directory, a device, a socket. SQLite would block forever
    on a FIFO and fail with a bare "disk I/O error" on a directory; it is refused before
    anything opens it, and it is never renamed aside (it is not a damaged database)."""

    def __init__(self, words: str) -> None:
        super().__init__(words, "io")


#: The files SQLite opens beside a database.
_BESIDE = ("", "-wal", "-shm", "-journal")


def regular_file(path: Path) -> None:
    """Raise :class:`NotAFile` when ``path`` or a file SQLite would open beside it exists and
    is not a regular file (a symlink to a regular file is one). Absent is fine: SQLite makes
    it. Looked at with ``stat``, which never blocks, not ``open``."""
    for suffix in _BESIDE:
        each = Path(f"{path}{suffix}")
        try:
            mode = os.stat(each).st_mode
        except FileNotFoundError:
            continue
        except OSError as err:
            raise NotAFile(f"{each} cannot be looked at ({err.strerror or err})") from None
        if not stat.S_ISREG(mode):
            raise NotAFile(f"{each} is {file_kind(mode)}, not a regular file: a database "
                           "must be a regular file (move it away to start a new one)")


@dataclass(frozen=True)
class Schema:
    """A store's tables: how a database of this store is recognised and made.

    ``tables`` are the tables every database of the store has (a file with tables, but not
    these, is someone else's); ``sql`` makes them (``CREATE ... IF NOT EXISTS``, run in one
    transaction), a ``meta (key, value)`` table among them, where ``version`` is written
    (key ``schema``; a file of ours without that row is version 1)."""

    tables: frozenset[str]
    sql: str
    version: int = 1


#: What a value of a column may be: SQLite keeps any value in any column (a text where a
#: number was declared, a NULL where the other program's table allowed one), so a file from
#: elsewhere is checked value by value, never trusted for its declarations.
Kind = Literal["integer", "real", "text"]


@dataclass(frozen=True)
class Column:
    """One column of a store's table and the values it may hold: ``integer``, ``real`` (an
    integer is a real too) between ``low`` and ``high``, or ``text`` of ``low`` to ``high``
    characters; never NULL."""

    name: str
    kind: Kind
    low: float = 0
    high: float = 10_000

    def sql(self, table: str) -> str:
        """A condition true when the column's value in ``table`` is one it may hold."""
        c = f'{table}."{self.name}"'
        if self.kind == "text":
            return f"(typeof({c}) = 'text' AND length({c}) BETWEEN {self.low!r} AND " \
                   f"{self.high!r})"
        types = "'integer'" if self.kind == "integer" else "'integer', 'real'"
        return f"(typeof({c}) IN ({types}) AND {c} BETWEEN {self.low!r} AND {self.high!r})"

    def expected(self) -> str:
        if self.kind == "text":
            return f"text of {self.low:g} to {self.high:g} characters"
        what = "a whole number" if self.kind == "integer" else "a number"
        return f"{what} from {self.low:g} to {self.high:g}"


Columns = dict[str, tuple[Column, ...]]


def missing_columns(con: sqlite3.Connection, table: str, columns: tuple[Column, ...],
                    db: str = "main") -> list[str]:
    """The names of ``columns`` that ``db.table`` lacks."""
    have = {r[1] for r in con.execute(f'PRAGMA "{db}".table_info("{table}")')}
    return [c.name for c in columns if c.name not in have]


def unfit(con: sqlite3.Connection, tables: Columns, prefix: str = "", db: str = "main"
          ) -> str | None:
    """What keeps ``tables`` (named ``prefix + table`` in ``db``) from being a store's, in
    words: a table missing or not a plain table (a view, a virtual table), a column missing,
    a value its column does not hold (:func:`bad_value`); None when they are fit."""
    kinds = dict(con.execute(f'SELECT name, sql FROM "{db}".sqlite_master '
                             "WHERE type IN ('table', 'view')"))
    for table, columns in tables.items():
        name = prefix + table
        if name not in kinds:
            return f"it has no table {name}"
        if not str(kinds[name] or "").lstrip().upper().startswith("CREATE TABLE"):
            return f"its {name} is not a plain table"
        missing = missing_columns(con, name, columns, db)
        if missing:
            return f"its table {name} has no column {', '.join(missing)}"
        bad = bad_value(con, name, columns, db, name)
        if bad is not None:
            return bad
    return None


def bad_value(con: sqlite3.Connection, table: str, columns: tuple[Column, ...],
              db: str = "main", name: str | None = None) -> str | None:
    """The first value of ``db.table`` that is not one its column may hold, in words naming
    the table (as ``name``), the column, the value and what was expected; None when every
    value is. One query: the check runs in SQLite, without reading the rows into Python."""
    if not columns:
        return None
    conds = [c.sql(f'"{db}"."{table}"') for c in columns]
    cols = ", ".join(f'"{c.name}"' for c in columns)
    row = con.execute(f'SELECT {cols}, {", ".join(conds)} FROM "{db}"."{table}" '
                      f'WHERE NOT ({" AND ".join(conds)}) LIMIT 1').fetchone()
    if row is None:
        return None
    n = len(columns)
    for column, value, good in zip(columns, row[:n], row[n:], strict=True):
        if not good:
            shown = repr(value)
            shown = shown if len(shown) <= 40 else f"{shown[:37]}..."
            return (f"a row of the table {name or table} has {column.name} {shown}, expected "
                    f"{column.expected()}")
    return None  # not reached: the row was selected because one condition failed


def connect(path: Path, *, timeout: float = BUSY_TIMEOUT,
            synchronous: Literal["NORMAL", "FULL"] = "NORMAL",
            read_only: bool = False) -> sqlite3.Connection:
    """A connection to ``path`` with the shared settings (see the module). Raises
    :class:`NotAFile` at once, before SQLite opens anything, for a path that is not a regular
    file (:func:`regular_file`)."""
    if str(path) != ":memory:":
        regular_file(path)
    if read_only:
        con = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True, timeout=timeout,
                              isolation_level=None, check_same_thread=False)
    else:
        con = sqlite3.connect(path, timeout=timeout, isolation_level=None,
                              check_same_thread=False)
    try:
        con.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        if not read_only:
            con.execute(f"PRAGMA synchronous = {synchronous}")
        con.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        con.close()
        raise
    return con


@contextmanager
def transaction(con: sqlite3.Connection,
                lock: threading.Lock | threading.RLock | None = None
                ) -> Iterator[sqlite3.Connection]:
    """One ``BEGIN IMMEDIATE`` transaction: committed when the block ends, rolled back (and the
    error raised again) when it fails. ``lock``, when given, is held throughout."""
    with lock if lock is not None else nullcontext():
        con.execute("BEGIN IMMEDIATE")
        try:
            yield con
        except BaseException:
            if con.in_transaction:  # SQLite may have rolled back already (a full disk)
                con.execute("ROLLBACK")
            raise
        try:
            con.execute("COMMIT")
        except BaseException:
            # A COMMIT that fails (busy past the wait, a full disk) leaves the transaction
            # open: roll it back so that the connection holds no lock and nothing half-done.
            if con.in_transaction:
                with suppress(sqlite3.Error):
                    con.execute("ROLLBACK")
            raise
        _committed(con)


def _committed(con: sqlite3.Connection) -> None:
    """In a browser tab, the folder of a database just changed is copied to IndexedDB where
    this Python keeps it (:mod:`~pepper_tutor.files.browser_home`)."""
    if in_browser():
        row = con.execute("PRAGMA database_list").fetchone()
        if row is not None and row[2]:
            browser_home.saved(Path(row[2]))


def fault(err: sqlite3.Error) -> Fault | None:
    """What an error means for the file: damaged, read-only, busy, full or an I/O error; None
    for anything else (a mistake in the program, a constraint)."""
    if isinstance(err, DamagedDatabase):
        return "damaged"
    if isinstance(err, Unavailable):
        return err.kind
    code = getattr(err, "sqlite_errorcode", None)
    if isinstance(code, int) and (code & 0xFF) in _CODES:
        return _CODES[code & 0xFF]
    text = str(err).lower()  # an error raised without a code
    if "locked" in text or "busy" in text:
        return "busy"
    if "readonly" in text or "read-only" in text:
        return "read_only"
    if "full" in text:
        return "full"
    if "malformed" in text or "not a database" in text:
        return "damaged"
    return None


def trouble(err: sqlite3.Error, path: Path, timeout: float = BUSY_TIMEOUT) -> str:
    """The error in a person's words, naming the file: "another program is using ..."."""
    kind = fault(err)
    if isinstance(err, Unavailable):
        return str(err)  # already in words
    if kind == "busy":
        return (f"another program is using {path} (waited {timeout:g} s): close it (a "
                "database browser with unsaved changes?) and go on")
    if kind == "full":
        return f"the disk that holds {path} is full"
    if kind == "read_only":
        return f"{path} is read-only"
    if kind == "io":
        return f"{path} cannot be read or written ({err})"
    if kind == "damaged":
        return f"{path} is damaged ({err})"
    return f"{path}: {err}"


@dataclass(frozen=True)
class Look:
    """What a read-only look at a file found."""

    state: Literal["missing", "new", "ours", "newer"]
    version: int = 0


def look(path: Path, schema: Schema, *, timeout: float = BUSY_TIMEOUT) -> Look:
    """Read ``path`` without writing anything (see the module). Raises
    :class:`DamagedDatabase` for a file that is not a database of this store, and the
    ``OperationalError`` of a busy file or an I/O error."""
    if not path.exists():  # a FIFO or a folder exists: connect refuses it (NotAFile)
        return Look("missing")
    con = connect(path, timeout=timeout, read_only=True)  # NotAFile for a FIFO, a folder...
    try:
        return _look(con, schema)
    except UnicodeDecodeError:  # a name or a value SQLite holds as text that is not UTF-8
        raise DamagedDatabase("it is not a pepper-tutor database (its names are not "
                              "text)") from None
    finally:
        con.close()


def _look(con: sqlite3.Connection, schema: Schema) -> Look:
    """What :func:`look` finds through ``con``."""
    row = con.execute("PRAGMA quick_check").fetchone()
    if row is None or row[0] != "ok":
        # SQLite's report spans lines ("*** in database main ***\nPage 1: ..."): one
        # line, for a message that is one line
        raise DamagedDatabase(" ".join(str(row[0] if row else "no answer").split()))
    tables = {r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
    if not tables:
        return Look("new")
    if not schema.tables <= tables:
        raise DamagedDatabase("it is not a pepper-tutor database (its tables: "
                              f"{', '.join(sorted(tables)[:6])})")
    version = 1
    if "meta" in tables:
        try:
            found = con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        except sqlite3.OperationalError as err:
            if fault(err) is not None:
                raise
            raise DamagedDatabase("it is not a pepper-tutor database (another program's "
                                  "meta table)") from None
        if found is not None:
            try:
                version = int(found[0])
            except (TypeError, ValueError):
                raise DamagedDatabase(f"its schema version {found[0]!r} is not one "
                                      "pepper-tutor writes") from None
    return Look("newer" if version > schema.version else "ours", version)


def set_aside(path: Path) -> Path:
    """Rename a damaged ``path`` (and its ``-wal`` and ``-shm`` files) to a unique name beside
    it, never replacing an earlier one; the new name. Raises ``OSError`` when the file itself
    cannot be moved."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}-{secrets.token_hex(3)}")
    os.rename(path, aside)
    for suffix in ("-wal", "-shm"):
        extra = Path(f"{path}{suffix}")
        if extra.exists():
            with suppress(OSError):
                os.rename(extra, Path(f"{aside}{suffix}"))
    return aside


@dataclass
class Opening:
    """What :func:`open_store` found and did, for the store to say in its own words.

    ``state``: ``ready`` (read and write), ``read_only`` (read through a ``mode=ro``
    connection; nothing can be saved), ``not_now`` (busy, full or an I/O error: nothing was
    changed; try again later), ``newer`` (written by a later version: left alone, neither read
    nor written), ``stuck`` (damaged and could not be moved aside, or not a regular file:
    :class:`NotAFile`)."""

    state: Literal["ready", "read_only", "not_now", "newer", "stuck"] = "stuck"
    #: each damaged file moved away: why it could not be read, where it is now
    set_aside: list[tuple[str, Path]] = field(default_factory=list)
    #: why it is not ready, in a person's words naming the file
    problem: str | None = None
    #: the file's schema version, when it is newer
    version: int = 0
    #: what stopped it, when it is not ready
    fault: Fault | None = None
    #: the read-only look passed: the file can be read even when it cannot be written now
    readable: bool = False

    @property
    def ready(self) -> bool:
        return self.state == "ready"


def _journal_mode(con: sqlite3.Connection, mode: str, timeout: float) -> None:
    """Set the journal mode, waiting up to ``timeout`` for another connection doing the
    same. SQLite answers a switch of mode that meets another connection's switch "database
    is locked" at once, without the busy wait (two windows opening a new learner file
    together: 18 times in 600 tries), so the wait is made here."""
    deadline = time.monotonic() + timeout
    pause = 0.005
    while True:
        try:
            con.execute(f"PRAGMA journal_mode = {mode}")
            return
        except sqlite3.OperationalError as err:
            if fault(err) != "busy" or time.monotonic() >= deadline:
                raise
        time.sleep(pause)
        pause = min(0.1, pause * 2)


def _setup(con: sqlite3.Connection, schema: Schema) -> None:
    """The tables and the version row, in one transaction: a crash half way leaves a new file,
    not one with some of our tables (which would look like someone else's). The version row
    is written each time (never downgraded: a newer file is not opened for writing), so a
    file that cannot be written says so now, not at the learner's first answer."""
    version = ("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', "
               f"'{schema.version}');")
    try:
        con.executescript(f"BEGIN IMMEDIATE;\n{schema.sql}\n{version}\nCOMMIT;")
        _committed(con)
    except BaseException:
        if con.in_transaction:
            with suppress(sqlite3.Error):
                con.execute("ROLLBACK")
        raise


def open_store(path: Path, schema: Schema, *, timeout: float = BUSY_TIMEOUT) -> Opening:
    """Look at ``path`` (:func:`look`) before writing anything, then put it in WAL mode and
    make its tables; the policy of the module. The folder must exist."""
    opening = Opening()
    for _attempt in range(2):
        try:
            seen = look(path, schema, timeout=timeout)
            opening.readable = seen.state != "missing"
            if seen.state == "newer":
                opening.readable = False
                opening.state, opening.version = "newer", seen.version
                opening.problem = (f"{path} was written by a newer pepper-tutor (schema "
                                   f"{seen.version}; this one knows {schema.version})")
                return opening
            con = connect(path, timeout=timeout)
            try:
                if seen.state == "missing":
                    # Made by this connection just now (or by another process meanwhile):
                    # look again before writing to it.
                    look(path, schema, timeout=timeout)
                    opening.readable = True
                _journal_mode(con, browser_home.journal_mode(path), timeout)
                _setup(con, schema)
            finally:
                con.close()
        except NotAFile as err:
            # Neither damage to set aside nor a fault that passes: it stays as it is.
            opening.state, opening.fault, opening.problem = "stuck", err.kind, str(err)
            opening.readable = False
            return opening
        except sqlite3.Error as err:
            kind = fault(err)
            if kind != "damaged":
                opening.fault = kind
                opening.problem = trouble(err, path, timeout)
                opening.state = "read_only" if kind == "read_only" and path.exists() \
                    else "not_now"
                return opening
            try:
                opening.set_aside.append((str(err), set_aside(path)))
            except OSError as move:
                opening.state = "stuck"
                opening.problem = (f"{path} cannot be read ({err}) and could not be moved "
                                   f"aside ({move.strerror or move})")
                if path.exists():
                    return opening
            continue
        opening.state, opening.problem, opening.readable = "ready", None, True
        break
    return opening
