"""The SQLite foundation under the stores: the learner store, the practice history, game night.

One way to open a database file, to change it, and to treat one that cannot be read:

- :func:`connect` gives a connection with the shared settings: a busy timeout (a second
  window or process waits its turn instead of failing), ``synchronous=NORMAL`` unless asked
  for ``FULL`` (in WAL mode a committed change survives the program crashing; ``FULL`` also
  survives a power cut), foreign keys enforced, and no implicit transactions
  (``isolation_level=None``): every change is an explicit :func:`transaction`. The connection
  may move between threads (a notebook kernel runs widget callbacks in another thread than
  the cell that made the widget; a server has its worker threads): the store's lock keeps one
  at a time;
- :func:`transaction` is one ``BEGIN IMMEDIATE`` ... ``COMMIT``: the write lock is taken at
  the start, so two writers queue up instead of one failing half way, and an error rolls
  everything in the block back;
- :func:`check` refuses a file that fails ``PRAGMA quick_check`` or that holds tables but not
  the store's own (someone else's database at our path) with :class:`DamagedDatabase`;
- :func:`open_checked` is the damaged-file policy: a file that cannot be read is never
  written over; it is renamed aside under a unique name (:func:`set_aside`:
  ``NAME.damaged-TIMESTAMP-XXXX``, with its ``-wal`` and ``-shm`` files) and a fresh one is
  started. The store words what happened for its reader (:class:`Opening`).
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

__all__ = ["BUSY_TIMEOUT", "DamagedDatabase", "Opening", "connect", "transaction", "check",
           "set_aside", "open_checked", "is_read_only"]

#: Seconds a connection waits for another's write lock before giving up.
BUSY_TIMEOUT = 30.0


class DamagedDatabase(sqlite3.DatabaseError):
    """The file fails SQLite's own check, or is a database of something else."""


def connect(path: Path, *, timeout: float = BUSY_TIMEOUT,
            synchronous: Literal["NORMAL", "FULL"] = "NORMAL") -> sqlite3.Connection:
    """A connection to ``path`` with the shared settings (see the module)."""
    con = sqlite3.connect(path, timeout=timeout, isolation_level=None,
                          check_same_thread=False)
    try:
        con.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
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
        con.execute("COMMIT")


def check(con: sqlite3.Connection, marker: str) -> None:
    """Raise :class:`DamagedDatabase` unless the file passes ``PRAGMA quick_check`` and is new
    (no tables) or holds the table ``marker`` that every database of this store has."""
    row = con.execute("PRAGMA quick_check").fetchone()
    if row is None or row[0] != "ok":
        raise DamagedDatabase(str(row[0] if row else "no answer"))
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if tables and marker not in tables:
        raise DamagedDatabase("it is not a pepper-tutor database")


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


def is_read_only(err: sqlite3.Error) -> bool:
    """Whether an error says the file or its folder cannot be written (not that it is
    damaged)."""
    text = str(err).lower()
    return "readonly" in text or "read-only" in text or "unable to open" in text


@dataclass
class Opening:
    """What :func:`open_checked` found and did, for the store to say in its own words."""

    ready: bool = False
    #: each damaged file moved away: why it could not be read, where it is now
    set_aside: list[tuple[str, Path]] = field(default_factory=list)
    #: a damaged file that could not be moved: why it could not be read, why not moved
    stuck: tuple[str, str] | None = None
    #: the file or its folder cannot be written: the error
    read_only: str | None = None


def open_checked(path: Path, marker: str, setup: Callable[[sqlite3.Connection], object], *,
                 timeout: float = BUSY_TIMEOUT) -> Opening:
    """Check ``path`` (:func:`check`), put it in WAL mode and run ``setup`` (the schema) on it;
    a file that cannot be read is set aside and a fresh one started, once. The folder must
    exist."""
    opening = Opening()
    for _attempt in range(2):
        try:
            con = connect(path, timeout=timeout)
            try:
                check(con, marker)
                con.execute("PRAGMA journal_mode = WAL")
                setup(con)
            finally:
                con.close()
        except sqlite3.DatabaseError as err:  # OperationalError included
            if isinstance(err, sqlite3.OperationalError) and is_read_only(err):
                opening.read_only = str(err)
                return opening
            try:
                opening.set_aside.append((str(err), set_aside(path)))
            except OSError as move:
                opening.stuck = (str(err), str(move.strerror or move))
                if path.exists():
                    return opening
            continue
        opening.ready = True
        break
    return opening
