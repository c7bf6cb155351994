"""The daily deal's board: each day's deals as the learner played them, against par.

One SQLite file, ``daily.sqlite`` in the tutor's home folder, on the SQLite foundation
(:mod:`pepper_tutor.files.database`: its connection settings, its transaction and its
damaged-file policy, as every store's). A deal's first result stands: the daily is played
once, as it falls. A damaged file is set aside and a new board started (:attr:`warning` says
so); a busy, full or read-only file never ends the session: the result is not kept and
:attr:`warning` says why.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

from ...files.database import PERSON_WAIT, Schema, connect, open_store, transaction, trouble
from ...files.home import tutor_home

__all__ = ["DailyBoard", "DealRow", "DayRow", "board_path"]

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

    def _open(self) -> bool:
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
        if not self.path.exists():
            return []
        db = connect(self.path, timeout=PERSON_WAIT, read_only=True)
        db.row_factory = sqlite3.Row
        try:
            return db.execute(sql, args).fetchall()
        except sqlite3.OperationalError as err:
            self.warning = f"your daily board cannot be read: {trouble(err, self.path)}"
            return []
        finally:
            db.close()

    def add(self, day: date, deal: int, net: int, par: int, contract: str) -> bool:
        """Keep deal ``deal``'s (from 1) result; False when the day already has one for it
        (the first stands) or the file cannot take it (:attr:`warning` says why)."""
        try:
            if not self._open():
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
        return [DealRow(int(r["deal"]), int(r["net"]), int(r["par"]), str(r["contract"]))
                for r in self._rows("SELECT * FROM deals WHERE day = ? ORDER BY deal",
                                    (day.isoformat(),))]

    def days(self, last: int = 14) -> list[DayRow]:
        """The last ``last`` days played, the newest first: deals, net points and par."""
        rows = self._rows("SELECT day, COUNT(*) AS n, SUM(net) AS net, SUM(par) AS par "
                          "FROM deals GROUP BY day ORDER BY day DESC LIMIT ?", (last,))
        return [DayRow(str(r["day"]), int(r["n"]), int(r["net"]), int(r["par"]))
                for r in rows]
