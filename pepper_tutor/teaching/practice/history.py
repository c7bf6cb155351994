"""The practice table's history: every hand played and the coach's grade of each decision.

One SQLite file, ``table.sqlite`` in the tutor's home folder
(:func:`pepper_tutor.files.home.tutor_home`), kept apart from the lesson store and created with
the first hand kept, on the SQLite foundation (:mod:`pepper_tutor.files.database`: its
connection settings, its transaction, its damaged-file policy, the same as every store's).
Each finished hand is written in one transaction (the hand and its decisions together, or
nothing). A damaged file, or someone else's database, is set aside and a new history started
(:attr:`TableHistory.warning` says so). A busy file (another program holds it past
:data:`~pepper_tutor.files.database.PERSON_WAIT`, 5 s: a person waits for the next deal), a
full disk or an I/O error never ends the session: the hand is kept in memory and saved with
the next one, or at :meth:`TableHistory.flush` when the table closes, and the warning says so.
A read-only history is shown and not added to; a newer one is left alone
(:class:`HistoryUnreadable`).

The learner's figures are points lost per decision, by kind (bidding, exchange, defence,
play), over all hands and hand by hand.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ...analysis.grading import ERRORS
from ...files.database import PERSON_WAIT, Schema, connect, fault, open_store, transaction, trouble
from ...files.home import tutor_home
from .coach import KINDS

__all__ = ["TableHistory", "KindFigures", "HandRow", "SavedMatch", "history_path",
           "HistoryUnreadable"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
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
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    rules TEXT NOT NULL,
    seat TEXT NOT NULL,
    level TEXT NOT NULL,
    totals TEXT NOT NULL,
    dealer TEXT NOT NULL,
    hands INTEGER NOT NULL,
    overtime INTEGER NOT NULL DEFAULT 0,
    winner TEXT,
    deal TEXT,
    actions TEXT
);
CREATE TABLE IF NOT EXISTS match_hands (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    hand_id INTEGER NOT NULL REFERENCES hands(id)
);
"""
# Files from before the meta table have only these two: they are still ours. Version 2 added
# the matches (what a resume needs) as new tables only, so a version-1 file opens as it is and
# gains them: ``CREATE TABLE IF NOT EXISTS`` changes nothing it already holds.
STORE = Schema(frozenset({"hands", "decisions"}), SCHEMA, version=2)

#: One finished hand as add_hand takes it, kept while the file cannot take it.
PendingHand = tuple[str, str, str, str, str, int, list[tuple[str, str, str, float]], str | None]


class HistoryUnreadable(ValueError):
    """The history file is one this program must leave alone (newer, or damaged and stuck)."""


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


@dataclass(frozen=True)
class SavedMatch:
    """A match as a resume needs it: the totals, whose deal it is, the hands counted, and the
    hand in progress (its deal, ``{seat: [card, ...]}``, and its actions so far) if any.
    ``id`` is 0 for a match not yet written."""

    rules: str
    seat: str
    level: str
    totals: dict[str, int]
    dealer: str
    hands: int
    overtime: bool = False
    winner: str | None = None
    deal: dict[str, list[str]] | None = None
    actions: tuple[str, ...] = ()
    id: int = 0
    started_at: str = ""

    @property
    def summary(self) -> str:
        """The match in a few words: "2 hands played, NS 12, EW 5"."""
        score = ", ".join(f"{side} {p}" for side, p in self.totals.items())
        played = f"{self.hands} hand{'s' if self.hands != 1 else ''} played"
        return f"{played}, {score}" + (" (a hand in progress)" if self.deal else "")


class TableHistory:
    """The history file (created with the first hand kept). Raises
    :class:`HistoryUnreadable` for a file it must leave alone (written by a newer version, or
    damaged and impossible to move aside); everything else is said in :attr:`warning`."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or history_path()
        self.warning: str | None = None
        self._set_up = False
        self._read_only = False
        self._unsaved: list[PendingHand] = []  # hands the file could not take yet, in order
        if self.path.exists():
            self._open()

    def _open(self) -> bool:
        """Check the file and make its tables (see the module); True when hands can be
        added."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        opening = open_store(self.path, STORE, timeout=PERSON_WAIT)
        for why, aside in opening.set_aside:
            self.warning = (f"your practice history was damaged ({why}); it is kept as "
                            f"{aside} and a new one was started")
        if opening.state in ("newer", "stuck"):
            raise HistoryUnreadable(f"{opening.problem}: the practice history was left as it "
                                    "is, and this session keeps no history")
        if opening.state == "read_only":
            self._read_only = True
            self.warning = (f"{opening.problem}: your practice history is shown, but no new "
                            "hand is added to it")
        elif opening.state == "not_now":
            self.warning = (f"cannot open your practice history now: {opening.problem}; "
                            "nothing changed, and your hands are kept until it can be saved")
        self._set_up = opening.ready
        return self._set_up

    @property
    def unsaved(self) -> int:
        """Hands kept in memory because the file could not take them yet."""
        return len(self._unsaved)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """A connection for one use (no lock is held between hands), closed after it."""
        db = connect(self.path, timeout=PERSON_WAIT)
        try:
            yield db
        finally:
            db.close()

    def add_hand(self, rules: str, seat: str, level: str, contract: str, points: int,
                 decisions: Iterable[tuple[str, str, str, float]], record: str | None = None
                 ) -> int | None:
        """One finished hand and its graded decisions ``(kind, action, grade, loss)``, in
        one transaction; its id. None when the file cannot take it now: it is kept and saved
        before the next hand (or by :meth:`flush`), and :attr:`warning` says so."""
        when = datetime.now(UTC).isoformat(timespec="seconds")
        self._unsaved.append((when, rules, seat, level, contract, points,
                              [(k, a, g, float(loss)) for k, a, g, loss in decisions], record))
        return self.flush()

    def flush(self) -> int | None:
        """Save the hands kept in memory, oldest first; the id of the last one saved when all
        are, else None (and :attr:`warning` says why)."""
        if self._read_only:
            lost, self._unsaved = len(self._unsaved), []
            self.warning = (f"{self.path} is read-only: {lost} hand{'s' if lost != 1 else ''} "
                            "could not be added to your practice history")
            return None
        hand_id: int | None = None
        while self._unsaved:
            try:
                if not self._set_up and not self._open():
                    return None
                hand_id = self._insert(self._unsaved[0])
            except HistoryUnreadable as err:  # it became a newer file meanwhile: keep them
                self.warning = str(err)
                return None
            except sqlite3.Error as err:
                kind = fault(err)
                if kind == "read_only":
                    self._read_only = True
                    return self.flush()
                if kind not in ("busy", "full", "io"):
                    self._unsaved.pop(0)  # it can never be saved: say so, keep the others
                    self.warning = (f"could not add a hand to {self.path} ({err}); it is "
                                    "not in your practice history")
                    continue
                waiting = len(self._unsaved)
                self.warning = (f"cannot save to your practice history now: "
                                f"{trouble(err, self.path, PERSON_WAIT)}; nothing changed, "
                                f"and {waiting} hand{'s are' if waiting != 1 else ' is'} kept "
                                "to be saved with the next one")
                return None
            self._unsaved.pop(0)
        return hand_id

    def _insert(self, hand: PendingHand) -> int:
        when, rules, seat, level, contract, points, decisions, record = hand
        with self._connect() as db, transaction(db):
            cur = db.execute("INSERT INTO hands (played_at, rules, seat, level, "
                             "contract, points, record) VALUES (?, ?, ?, ?, ?, ?, ?)",
                             (when, rules, seat, level, contract, points, record))
            hand_id = cur.lastrowid
            assert hand_id is not None
            db.executemany("INSERT INTO decisions (hand_id, kind, action, grade, loss) "
                           "VALUES (?, ?, ?, ?, ?)",
                           [(hand_id, k, a, g, loss) for k, a, g, loss in decisions])
        return hand_id

    def figures(self) -> list[KindFigures]:
        """Points lost per decision by kind, over every hand."""
        if not self.path.exists():
            return []
        with self._connect() as db:
            rows = db.execute(
                "SELECT kind, COUNT(*), AVG(loss), SUM(grade IN "
                f"({', '.join('?' for _ in ERRORS)})) FROM decisions GROUP BY kind",
                [str(g) for g in ERRORS]).fetchall()
        found = {r[0]: KindFigures(r[0], r[1], r[2] or 0.0, r[3] or 0) for r in rows}
        return [found[k] for k in KINDS if k in found]

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

    # ---- matches (what a resume needs) -----------------------------------------------------

    def save_match(self, match: SavedMatch, hand_id: int | None = None) -> int | None:
        """Write ``match`` (a new row when its id is 0) and link ``hand_id``, a hand just
        added, to it, in one transaction; the match's id, or None when the file cannot take
        it now (nothing changed; :attr:`warning` says why). A resume is a convenience: a
        match that could not be saved never stops the hand."""
        if self._read_only:
            return None
        when = datetime.now(UTC).isoformat(timespec="seconds")
        row = (when, match.rules, match.seat, match.level, json.dumps(match.totals),
               match.dealer, match.hands, int(match.overtime), match.winner,
               None if match.deal is None else json.dumps(match.deal),
               json.dumps(list(match.actions)))
        try:
            if not self._set_up and not self._open():
                return None
            with self._connect() as db, transaction(db):
                if match.id:
                    db.execute("UPDATE matches SET updated_at = ?, rules = ?, seat = ?, "
                               "level = ?, totals = ?, dealer = ?, hands = ?, overtime = ?, "
                               "winner = ?, deal = ?, actions = ? WHERE id = ?",
                               (*row, match.id))
                    match_id = match.id
                else:
                    cur = db.execute("INSERT INTO matches (started_at, updated_at, rules, seat, "
                                     "level, totals, dealer, hands, overtime, winner, deal, "
                                     "actions) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                     (when, *row))
                    assert cur.lastrowid is not None
                    match_id = cur.lastrowid
                if hand_id is not None:
                    db.execute("INSERT INTO match_hands (match_id, hand_id) VALUES (?, ?)",
                               (match_id, hand_id))
        except (HistoryUnreadable, sqlite3.Error) as err:
            self.warning = (f"the match could not be saved for a resume now ({err}); your "
                            "hands are kept in the history as usual")
            return None
        return match_id

    def unfinished_match(self, rules: str | None = None) -> SavedMatch | None:
        """The match played last that nobody has won yet (under ``rules``, if given): the one
        to offer to resume."""
        if not self.path.exists():
            return None
        query = ("SELECT id, started_at, rules, seat, level, totals, dealer, hands, overtime, "
                 "winner, deal, actions FROM matches WHERE winner IS NULL"
                 + (" AND rules = ?" if rules else "") + " ORDER BY updated_at DESC, id DESC "
                 "LIMIT 1")
        try:
            with self._connect() as db:
                row = db.execute(query, (rules,) if rules else ()).fetchone()
        except sqlite3.Error:
            return None
        if row is None:
            return None
        (match_id, started, rules_name, seat, level, totals, dealer, hands, overtime, winner,
         deal, actions) = row
        try:
            return SavedMatch(rules_name, seat, level, dict(json.loads(totals)), dealer,
                              int(hands), bool(overtime), winner,
                              None if deal is None else dict(json.loads(deal)),
                              tuple(json.loads(actions or "[]")), int(match_id), started)
        except (TypeError, ValueError):  # a row this program did not write: nothing to offer
            return None

    def match_hands(self, match_id: int) -> list[HandRow]:
        """The hands counted for a match, oldest first."""
        if not self.path.exists():
            return []
        with self._connect() as db:
            rows = db.execute(
                "SELECT h.id, h.played_at, h.contract, h.points, COUNT(d.kind), "
                "COALESCE(AVG(d.loss), 0), h.record FROM match_hands m JOIN hands h ON "
                "h.id = m.hand_id LEFT JOIN decisions d ON d.hand_id = h.id WHERE "
                "m.match_id = ? GROUP BY h.id ORDER BY h.id", (match_id,)).fetchall()
        return [HandRow(*r) for r in rows]
