"""The daily deal's board: each day's deals as the learner played them, against par.

One SQLite file, ``daily.sqlite`` in the tutor's home folder, on the SQLite foundation
(:mod:`pepper_tutor.files.database`: its connection settings, its transaction and its
damaged-file policy, as every store's). A deal's first result stands: the daily is played
once, as it falls. A damaged file is set aside and a new board started (:attr:`warning` says
so) when a result is kept (:meth:`DailyBoard.open`); a busy, full or read-only file never ends
the session: the result is not kept and :attr:`warning` says why.

Reading the board (``play --daily --history``) writes nothing, so it cannot set a file aside:
a file that is not a daily board (damaged, another program's, a folder or a FIFO in its
place, written by a newer version) or a row that is not a result raises
:class:`BoardUnreadable`, a ``ValueError`` naming the file, which the command line prints
(exit status 2).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

from ...files.database import (
    PERSON_WAIT,
    DamagedDatabase,
    NotAFile,
    Schema,
    connect,
    fault,
    look,
    open_store,
    transaction,
    trouble,
)
from ...files.home import tutor_home

__all__ = ["DailyBoard", "DealRow", "DayRow", "BoardUnreadable", "board_path"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS deals (
    day TEXT NOT NULL,
    deal INTEGER NOT NULL,
    net INTEGER NOT NULL,
    par INTEGER NOT NULL,
    contract TEXT NOT NULL,
    played_at TEXT NOT NULL,
    PRIMARY KEY (day, deal)
);
"""
STORE = Schema(frozenset({"meta", "deals"}), SCHEMA)


class BoardUnreadable(ValueError):
    """The board's file cannot be read as a board; the message names it and says why."""


def board_path() -> Path:
    return tutor_home() / "daily.sqlite"


@dataclass(frozen=True)
class DealRow:
    deal: int  # from 1
    net: int
    par: int
    contract: str


@dataclass(frozen=True)
class DayRow:
    day: str
    deals: int
    net: int
    par: int

    @property
    def against_par(self) -> int:
        return self.net - self.par


class DailyBoard:
    """The board's file, made with the first result kept."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or board_path()
        self.warning: str | None = None
        self._ready = False

    def open(self) -> bool:
        """Check the file and make its tables, setting a damaged one aside (:attr:`warning`
        says so); True when results can be kept."""
        if self._ready:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        opening = open_store(self.path, STORE, timeout=PERSON_WAIT)
        for why, aside in opening.set_aside:
            self.warning = (f"your daily board was damaged ({why}); it is kept as {aside} "
                            "and a new one was started")
        if not opening.ready:
            self.warning = f"your daily board cannot be written: {opening.problem}"
        self._ready = opening.ready
        return self._ready

    def _rows(self, sql: str, args: tuple[object, ...]) -> list[sqlite3.Row]:
        """The rows ``sql`` selects; none for a board not made yet or busy (:attr:`warning`
        says so). Raises :class:`BoardUnreadable` for a file that is not a board."""
        try:
            seen = look(self.path, STORE, timeout=PERSON_WAIT)
            if seen.state in ("missing", "new"):
                return []
            if seen.state == "newer":
                raise BoardUnreadable(f"{self.path} was written by a newer pepper-tutor "
                                      f"(schema {seen.version}): update pepper-tutor to read "
                                      "your daily board")
            db = connect(self.path, timeout=PERSON_WAIT, read_only=True)
        except NotAFile as err:
            raise BoardUnreadable(f"your daily board: {err}") from None
        except sqlite3.Error as err:
            if isinstance(err, DamagedDatabase) or fault(err) == "damaged":
                raise BoardUnreadable(f"{self.path} cannot be read as your daily board "
                                      f"({err})") from None
            self.warning = f"your daily board cannot be read: {trouble(err, self.path)}"
            return []
        db.row_factory = sqlite3.Row
        try:
            return db.execute(sql, args).fetchall()
        except sqlite3.Error as err:
            if fault(err) in ("busy", "io", "full", "read_only"):
                self.warning = f"your daily board cannot be read: {trouble(err, self.path)}"
                return []
            raise BoardUnreadable(f"{self.path} cannot be read as your daily board ({err})"
                                  ) from None
        finally:
            db.close()

    def _checked(self, what: str, row: sqlite3.Row, ints: tuple[str, ...],
                 texts: tuple[str, ...]) -> None:
        """Raise :class:`BoardUnreadable` naming the file and the row unless each of ``ints``
        is a whole number and each of ``texts`` is text."""
        for col in ints:
            if type(row[col]) is not int:
                raise BoardUnreadable(f"{self.path}: {what} has {col} {row[col]!r}, not a "
                                      "whole number: the file is not a board pepper-tutor "
                                      "wrote (move it away to start a new one)")
        for col in texts:
            if not isinstance(row[col], str):
                raise BoardUnreadable(f"{self.path}: {what} has {col} {row[col]!r}, not text: "
                                      "the file is not a board pepper-tutor wrote (move it "
                                      "away to start a new one)")

    def add(self, day: date, deal: int, net: int, par: int, contract: str) -> bool:
        """Keep deal ``deal``'s (from 1) result; False when the day already has one for it
        (the first stands) or the file cannot take it (:attr:`warning` says why)."""
        try:
            if not self.open():
                return False
            db = connect(self.path, timeout=PERSON_WAIT)
            try:
                with transaction(db):
                    cur = db.execute(
                        "INSERT OR IGNORE INTO deals VALUES (?, ?, ?, ?, ?, ?)",
                        (day.isoformat(), deal, net, par, contract,
                         datetime.now(UTC).isoformat(timespec="seconds")))
            finally:
                db.close()
        except sqlite3.Error as err:
            self.warning = (f"this deal's result was not kept on your daily board: "
                            f"{trouble(err, self.path, PERSON_WAIT)}")
            return False
        return cur.rowcount == 1

    def deals(self, day: date) -> list[DealRow]:
        """The day's deals played, in order."""
        out = []
        for r in self._rows("SELECT deal, net, par, contract FROM deals WHERE day = ? "
                            "ORDER BY deal", (day.isoformat(),)):
            self._checked(f"deal {r['deal']!r} of {day.isoformat()}", r,
                          ("deal", "net", "par"), ("contract",))
            out.append(DealRow(r["deal"], r["net"], r["par"], r["contract"]))
        return out

    def days(self, last: int = 14) -> list[DayRow]:
        """The last ``last`` days played, the newest first: deals, net points and par."""
        rows = self._rows("SELECT day, COUNT(*) AS n, SUM(net) AS net, SUM(par) AS par "
                          "FROM deals GROUP BY day ORDER BY day DESC LIMIT ?", (last,))
        out = []
        for r in rows:
            self._checked(f"the day {r['day']!r}", r, ("n", "net", "par"), ("day",))
            out.append(DayRow(r["day"], r["n"], r["net"], r["par"]))
        return out
