"""The practice table's history: every hand played and the coach's grade of each decision.

One SQLite file, ``table.sqlite`` in the tutor's home folder
(:func:`pepper_tutor.files.home.tutor_home`), kept apart from the lesson store and created with
the first hand kept, on the SQLite foundation (:mod:`pepper_tutor.files.database`: its
connection settings, its transaction, its check). Each finished hand is written in one
transaction (the hand and its decisions together, or nothing). A file that cannot be read
(damaged, or someone else's database) is neither replaced nor set aside, unlike the learner
store: the table plays on without it, so it says so and keeps no history for the session.

The learner's figures are points lost per decision, by kind (bidding, exchange, defence,
play), over all hands and hand by hand.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ...files.database import check, connect, transaction
from ...files.home import tutor_home

__all__ = ["TableHistory", "KindFigures", "HandRow", "history_path", "HistoryUnreadable"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS hands (
    id INTEGER PRIMARY KEY,
    played_at TEXT NOT NULL,
    rules TEXT NOT NULL,
    seat TEXT NOT NULL,
    level TEXT NOT NULL,
    contract TEXT NOT NULL,
    points INTEGER NOT NULL,
    record TEXT
);
CREATE TABLE IF NOT EXISTS decisions (
    hand_id INTEGER NOT NULL REFERENCES hands(id),
    kind TEXT NOT NULL,
    action TEXT NOT NULL,
    grade TEXT NOT NULL,
    loss REAL NOT NULL
);
"""


def _prepare(db: sqlite3.Connection) -> None:
    db.execute("PRAGMA journal_mode = WAL")
    db.executescript(SCHEMA)


class HistoryUnreadable(ValueError):
    """The history file exists but is not a database this program can read."""


def history_path() -> Path:
    return tutor_home() / "table.sqlite"


@dataclass(frozen=True)
class KindFigures:
    kind: str
    decisions: int
    points_lost: float  # per decision, on average
    errors: int  # inaccuracies, mistakes and blunders


@dataclass(frozen=True)
class HandRow:
    id: int
    played_at: str
    contract: str
    points: int
    decisions: int
    points_lost: float  # per decision, on average
    record: str | None


class TableHistory:
    """The history file (created with the first hand kept). Raises
    :class:`HistoryUnreadable` for a file that is not such a database; it is left as it
    is."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or history_path()
        if self.path.exists():
            try:
                with self._connect() as db:
                    check(db, "hands")
                    _prepare(db)
            except sqlite3.DatabaseError as err:
                raise HistoryUnreadable(f"{self.path}: the practice history cannot be read "
                                        f"({err}); it was left untouched") from None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """A connection for one use (no lock is held between hands), closed after it."""
        db = connect(self.path)
        try:
            yield db
        finally:
            db.close()

    def add_hand(self, rules: str, seat: str, level: str, contract: str, points: int,
                 decisions: Iterable[tuple[str, str, str, float]], record: str | None = None
                 ) -> int:
        """One finished hand and its graded decisions ``(kind, action, grade, loss)``, in
        one transaction."""
        when = datetime.now(UTC).isoformat(timespec="seconds")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            _prepare(db)  # the tables first (executescript commits on its own)
            with transaction(db):
                cur = db.execute("INSERT INTO hands (played_at, rules, seat, level, "
                                 "contract, points, record) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                 (when, rules, seat, level, contract, points, record))
                hand_id = cur.lastrowid
                assert hand_id is not None
                db.executemany("INSERT INTO decisions (hand_id, kind, action, grade, loss) "
                               "VALUES (?, ?, ?, ?, ?)",
                               [(hand_id, k, a, g, float(loss)) for k, a, g, loss in decisions])
        return hand_id

    def figures(self) -> list[KindFigures]:
        """Points lost per decision by kind, over every hand."""
        if not self.path.exists():
            return []
        with self._connect() as db:
            rows = db.execute(
                "SELECT kind, COUNT(*), AVG(loss), SUM(grade IN ('Inaccuracy', 'Mistake', "
                "'Blunder')) FROM decisions GROUP BY kind").fetchall()
        found = {r[0]: KindFigures(r[0], r[1], r[2] or 0.0, r[3] or 0) for r in rows}
        return [found[k] for k in ("bidding", "exchange", "defence", "play") if k in found]

    def hands(self, last: int = 20) -> list[HandRow]:
        """The last hands, oldest first, each with its points lost per decision."""
        if not self.path.exists():
            return []
        with self._connect() as db:
            rows = db.execute(
                "SELECT h.id, h.played_at, h.contract, h.points, COUNT(d.kind), "
                "COALESCE(AVG(d.loss), 0), h.record FROM hands h LEFT JOIN decisions d ON "
                "d.hand_id = h.id GROUP BY h.id ORDER BY h.id DESC LIMIT ?", (last,)).fetchall()
        return [HandRow(*r) for r in reversed(rows)]
