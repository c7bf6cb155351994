"""The learner's puzzles: ratings, attempts and the themes to bring back, in one SQLite file.

``puzzles.sqlite`` in the tutor's home folder (:func:`~pepper_tutor.files.home.tutor_home`),
on the SQLite foundation (:mod:`pepper_tutor.files.database`): a transaction per answer, a
damaged file set aside, a busy or read-only one never ending a session (at opening, the
answers are then kept in memory for this session only; an answer the file cannot take later
is rated but not kept; :attr:`PuzzleStore.warning` says so). A file that is not a regular
file, or whose tables hold values pepper-tutor never writes (a text or NULL rating, a column
missing, a review card that cannot be read: :func:`unreadable`), is never read as ratings:
:attr:`PuzzleStore.refused` names it and what is wrong (the terminal exits 2 with it).

One answer is one :meth:`PuzzleStore.record` (lila's ``PuzzleFinisher.apply``): on the
learner's first attempt at a puzzle it computes both new Glicko-2 ratings
(:mod:`.glicko`), stores the attempt, the learner's rating and the puzzle's; a miss gives
the puzzle's theme a review card (FSRS, :func:`~pepper_tutor.teaching.learner.scheduling.rate`)
so that the theme comes back, as a fresh puzzle, when it is due; a solve of a theme that has
a card rates the card recalled.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ...files.database import (
    PERSON_WAIT,
    Column,
    Columns,
    Schema,
    connect,
    fault,
    open_store,
    transaction,
    trouble,
    unfit,
)
from ...files.home import tutor_home
from ..learner.scheduling import due_and_state, rate
from ..learner.store import default_learner
from .glicko import Rating, game, toward

__all__ = ["PuzzleStore", "PuzzleStoreUnreadable", "AttemptResult", "ThemeResults", "store_path",
           "LEARNER_START", "SCHEMA", "COLUMNS", "unreadable"]

LEARNER_START = Rating(1500.0, 350.0, 0.06)
PUZZLE_DEVIATION = 300.0  # a new puzzle's RD: its seeded rating is a guess
LEGACY_LEARNER = "me"  # the name puzzles were kept under before they took the store's

SCHEMA = Schema(frozenset({"meta", "learners", "puzzles", "attempts", "theme_cards"}), """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS learners (
    name TEXT PRIMARY KEY, rating REAL NOT NULL, deviation REAL NOT NULL,
    volatility REAL NOT NULL, best_streak INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS puzzles (
    id TEXT PRIMARY KEY, rating REAL NOT NULL, deviation REAL NOT NULL,
    volatility REAL NOT NULL, plays INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS attempts (
    learner TEXT NOT NULL, puzzle TEXT NOT NULL, theme TEXT NOT NULL, solved INTEGER NOT NULL,
    first INTEGER NOT NULL, puzzle_rating REAL NOT NULL, learner_before REAL NOT NULL,
    learner_after REAL NOT NULL, at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS attempts_by_learner ON attempts (learner, puzzle);
CREATE TABLE IF NOT EXISTS theme_cards (
    learner TEXT NOT NULL, theme TEXT NOT NULL, card TEXT NOT NULL, due TEXT NOT NULL,
    missed_puzzle TEXT NOT NULL, PRIMARY KEY (learner, theme));
""")

_RATING, _DEVIATION, _VOLATILITY = (-10_000, 10_000), (0.0001, 10_000), (0.0001, 10)
_TEXT = 10_000
#: The values each table holds (:class:`~pepper_tutor.files.database.Column`): checked when
#: the store is opened and when a progress file brings the tables (:mod:`..progress_file`).
COLUMNS: Columns = {
    "meta": (Column("key", "text", 1, 100), Column("value", "text", 0, _TEXT)),
    "learners": (Column("name", "text", 1, 200), Column("rating", "real", *_RATING),
                 Column("deviation", "real", *_DEVIATION),
                 Column("volatility", "real", *_VOLATILITY),
                 Column("best_streak", "integer", 0, 1_000_000_000)),
    "puzzles": (Column("id", "text", 1, 200), Column("rating", "real", *_RATING),
                Column("deviation", "real", *_DEVIATION),
                Column("volatility", "real", *_VOLATILITY),
                Column("plays", "integer", 0, 1_000_000_000_000)),
    "attempts": (Column("learner", "text", 1, 200), Column("puzzle", "text", 1, 200),
                 Column("theme", "text", 1, 200), Column("solved", "integer", 0, 1),
                 Column("first", "integer", 0, 1), Column("puzzle_rating", "real", *_RATING),
                 Column("learner_before", "real", *_RATING),
                 Column("learner_after", "real", *_RATING), Column("at", "text", 1, 100)),
    "theme_cards": (Column("learner", "text", 1, 200), Column("theme", "text", 1, 200),
                    Column("card", "text", 2, _TEXT), Column("due", "text", 1, 100),
                    Column("missed_puzzle", "text", 1, 200)),
}


class PuzzleStoreUnreadable(ValueError):
    """A puzzle store whose tables or values are not ones pepper-tutor writes; the message
    names the file and the first thing wrong."""


def unreadable(con: sqlite3.Connection, db: str = "main", prefix: str = "") -> str | None:
    """What makes the puzzle tables in ``db`` (named ``prefix + table``) unusable, in words
    (a column missing, a value that is not one its column holds, a review card that cannot be
    read), or None."""
    why = unfit(con, COLUMNS, prefix, db)
    if why is not None:
        return why
    for theme, card in con.execute(f'SELECT theme, card FROM "{db}"."{prefix}theme_cards"'):
        try:
            due_and_state(card)
        except (ValueError, KeyError, TypeError, AttributeError) as err:
            return f"the review card of the theme {theme!r} cannot be read ({err})"
    return None


def _has_puzzles(con: sqlite3.Connection, learner: str) -> bool:
    return con.execute("SELECT 1 FROM learners WHERE name = ? UNION ALL SELECT 1 FROM "
                       "attempts WHERE learner = ? LIMIT 1", (learner, learner)
                       ).fetchone() is not None


def store_path(home: Path | None = None) -> Path:
    return (home or tutor_home()) / "puzzles.sqlite"


@dataclass(frozen=True)
class AttemptResult:
    """What one answer changed."""

    solved: bool
    first: bool  # the learner's first attempt at this puzzle: rated
    learner_before: Rating
    learner_after: Rating
    puzzle_before: Rating
    puzzle_after: Rating
    scheduled: datetime | None  # a miss: when the theme comes back
    at: datetime | None = None  # when the answer was given
    weight: float = 1.0  # how much of the game counted (less in a theme the learner chose)


@dataclass(frozen=True)
class ThemeResults:
    """A theme's first attempts, and its performance as lila's dashboard computes it: the
    mean rating of the puzzles tried, less 500, plus 1000 times the share solved."""

    theme: str
    tried: int
    solved: int
    puzzle_rating: float  # mean rating of the puzzles tried (as rated when tried)

    @property
    def performance(self) -> int:
        return round(self.puzzle_rating - 500 + 1000 * self.solved / self.tried)


class PuzzleStore:
    """One learner's puzzle ratings and history. ``learner`` names them; by default the
    name the learner store uses, so the lessons and the puzzles are one learner's."""

    def __init__(self, learner: str | None = None, home: Path | None = None,
                 path: Path | None = None) -> None:
        self.learner = learner or default_learner()
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)  # tests move it on
        self.path = path or store_path(home)
        self.warning: str | None = None
        #: why the file cannot be used at all (not a regular file, values pepper-tutor never
        #: writes): the terminal refuses to go on (exit 2); the pages play on in memory
        self.refused: PuzzleStoreUnreadable | None = None
        self._lock = threading.RLock()
        self._con: sqlite3.Connection | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            opening = open_store(self.path, SCHEMA, timeout=PERSON_WAIT)
        except OSError as err:
            opening = None
            self.warning = f"{self.path} cannot be used ({err.strerror or err})"
        if opening is not None and opening.ready:
            self._con = connect(self.path, timeout=PERSON_WAIT)
            why = unreadable(self._con)
            if why is not None:
                self._con.close()
                self._con = None
                self.refused = PuzzleStoreUnreadable(
                    f"{self.path}: {why}: it is not a puzzle store pepper-tutor wrote (move it "
                    "away to start a new one)")
                self.warning = str(self.refused)
        elif opening is not None:
            self.warning = opening.problem
            if opening.state == "stuck":
                self.refused = PuzzleStoreUnreadable(opening.problem or str(self.path))
        if self._con is None:  # answers are kept for this session only
            self._con = connect(Path(":memory:"), timeout=PERSON_WAIT)
            self._con.executescript(SCHEMA.sql)
            self.warning = (self.warning or "the puzzle store cannot be opened") + \
                "; this session's answers are not saved"
        elif learner is None:
            self._adopt(LEGACY_LEARNER)

    def _adopt(self, old: str) -> None:
        """Puzzles once kept under ``old`` (the name the terminal and the notebook used
        before they used the learner store's) become this learner's, if they have none."""
        if old == self.learner:
            return
        with self._lock:  # read first: most opens have nothing to adopt, and write nothing
            if not _has_puzzles(self._read(), old):
                return
        with self._tx() as con:
            if _has_puzzles(con, self.learner):
                return
            con.execute("UPDATE learners SET name = ? WHERE name = ?", (self.learner, old))
            for table in ("attempts", "theme_cards"):
                con.execute(f"UPDATE {table} SET learner = ? WHERE learner = ?",
                            (self.learner, old))

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        assert self._con is not None, "the store is closed"
        with transaction(self._con, self._lock) as con:
            yield con

    def _read(self) -> sqlite3.Connection:
        assert self._con is not None, "the store is closed"
        return self._con

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            yield self._read()

    # ---- ratings --------------------------------------------------------------------------

    def rating(self) -> Rating:
        with self._lock:
            row = self._read().execute(
                "SELECT rating, deviation, volatility FROM learners WHERE name = ?",
                (self.learner,)).fetchone()
        return Rating(*row) if row else LEARNER_START

    def puzzle_rating(self, puzzle_id: str, seeded: float) -> Rating:
        """The puzzle's rating: as stored, or its seeded rating with a wide deviation."""
        with self._lock:
            row = self._read().execute(
                "SELECT rating, deviation, volatility FROM puzzles WHERE id = ?",
                (puzzle_id,)).fetchone()
        return Rating(*row) if row else Rating(seeded, PUZZLE_DEVIATION, 0.06)

    def tried(self) -> set[str]:
        """The puzzles this learner has attempted."""
        with self._lock:
            rows = self._read().execute("SELECT DISTINCT puzzle FROM attempts WHERE learner = ?",
                                        (self.learner,)).fetchall()
        return {r[0] for r in rows}

    # ---- one answer -----------------------------------------------------------------------

    def record(self, puzzle_id: str, theme: str, seeded: float, solved: bool,
               at: datetime | None = None, weight: float = 1.0) -> AttemptResult:
        """Record an answer in one transaction: both ratings on a first attempt (each moved
        ``weight`` of the way the game moves it), the attempt, and the theme's review card."""
        when = at or self.clock()
        try:
            return self._record(puzzle_id, theme, seeded, solved, when, weight, save=True)
        except sqlite3.Error as err:
            if fault(err) not in ("busy", "full", "io", "read_only"):
                raise
            # Not saved (another program holds the file, a full disk): the answer is still
            # rated for the learner to see, and the store says why it was not kept.
            self.warning = (f"your answer was not saved: "
                            f"{trouble(err, self.path, PERSON_WAIT)}")
            return self._record(puzzle_id, theme, seeded, solved, when, weight, save=False)

    def _record(self, puzzle_id: str, theme: str, seeded: float, solved: bool,
                when: datetime, weight: float, save: bool) -> AttemptResult:
        with self._tx() if save else self._reading() as con:
            first = con.execute("SELECT 1 FROM attempts WHERE learner = ? AND puzzle = ?",
                                (self.learner, puzzle_id)).fetchone() is None
            me = self.rating()
            it = self.puzzle_rating(puzzle_id, seeded)
            me_after, it_after = game(me, it, solved) if first else (me, it)
            me_after, it_after = toward(me, me_after, weight), toward(it, it_after, weight)
            if not save:
                return AttemptResult(solved, first, me, me_after, it, it_after, None, when,
                                     weight if first else 0.0)
            if first:
                con.execute("INSERT OR REPLACE INTO learners (name, rating, deviation, "
                            "volatility, best_streak) VALUES (?, ?, ?, ?, COALESCE((SELECT "
                            "best_streak FROM learners WHERE name = ?), 0))",
                            (self.learner, me_after.rating, me_after.deviation,
                             me_after.volatility, self.learner))
                con.execute("INSERT INTO puzzles (id, rating, deviation, volatility, plays) "
                            "VALUES (?, ?, ?, ?, 1) ON CONFLICT(id) DO UPDATE SET "
                            "rating = excluded.rating, deviation = excluded.deviation, "
                            "volatility = excluded.volatility, plays = plays + 1",
                            (puzzle_id, it_after.rating, it_after.deviation,
                             it_after.volatility))
            con.execute("INSERT INTO attempts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (self.learner, puzzle_id, theme, int(solved), int(first), it.rating,
                         me.rating, me_after.rating, when.isoformat()))
            # A retry right after a miss shows nothing about tomorrow: only first attempts
            # rate the theme's card.
            scheduled = self._review(con, theme, puzzle_id, solved, when) if first else None
        return AttemptResult(solved, first, me, me_after, it, it_after, scheduled, when,
                             weight if first else 0.0)

    def _review(self, con: sqlite3.Connection, theme: str, puzzle_id: str, solved: bool,
                when: datetime) -> datetime | None:
        row = con.execute("SELECT card FROM theme_cards WHERE learner = ? AND theme = ?",
                          (self.learner, theme)).fetchone()
        rated = rate(row[0] if row else None, again=not solved, at=when, create=not solved)
        if rated is None:
            return None
        card, due, _lapsed = rated
        missed = puzzle_id if not solved else con.execute(
            "SELECT missed_puzzle FROM theme_cards WHERE learner = ? AND theme = ?",
            (self.learner, theme)).fetchone()[0]
        con.execute("INSERT OR REPLACE INTO theme_cards VALUES (?, ?, ?, ?, ?)",
                    (self.learner, theme, card, due, missed))
        return datetime.fromisoformat(due) if not solved else None

    def best_streak(self) -> int:
        with self._lock:
            row = self._read().execute("SELECT best_streak FROM learners WHERE name = ?",
                                       (self.learner,)).fetchone()
        return int(row[0]) if row else 0

    def save_streak(self, streak: int) -> int:
        """Keep the learner's best streak; returns the best so far (when the file cannot take
        it now, :attr:`warning` says so)."""
        try:
            return self._save_streak(streak)
        except sqlite3.Error as err:
            if fault(err) not in ("busy", "full", "io", "read_only"):
                raise
            self.warning = (f"your best streak was not saved: "
                            f"{trouble(err, self.path, PERSON_WAIT)}")
            return max(streak, self.best_streak())

    def _save_streak(self, streak: int) -> int:
        with self._tx() as con:
            con.execute("INSERT OR IGNORE INTO learners (name, rating, deviation, volatility) "
                        "VALUES (?, ?, ?, ?)", (self.learner, LEARNER_START.rating,
                                                LEARNER_START.deviation,
                                                LEARNER_START.volatility))
            con.execute("UPDATE learners SET best_streak = MAX(best_streak, ?) WHERE name = ?",
                        (streak, self.learner))
            row = con.execute("SELECT best_streak FROM learners WHERE name = ?",
                              (self.learner,)).fetchone()
        return int(row[0])

    # ---- what comes back, and the dashboard -----------------------------------------------

    def due_themes(self, at: datetime | None = None) -> list[tuple[str, str]]:
        """Themes whose review card is due: (theme, the puzzle missed), soonest first."""
        when = at or self.clock()
        with self._lock:
            rows = self._read().execute(
                "SELECT theme, card, missed_puzzle FROM theme_cards WHERE learner = ?",
                (self.learner,)).fetchall()
        due = []
        for theme, card, missed in rows:
            at_due, _state = due_and_state(card)
            if at_due <= when:
                due.append((at_due, theme, missed))
        return [(t, m) for _, t, m in sorted(due)]

    def scheduled(self) -> dict[str, datetime]:
        """Every theme with a review card, and when it is due."""
        with self._lock:
            rows = self._read().execute(
                "SELECT theme, card FROM theme_cards WHERE learner = ?",
                (self.learner,)).fetchall()
        return {t: due_and_state(c)[0] for t, c in rows}

    def themes(self) -> list[ThemeResults]:
        """Per theme, the first attempts: weakest performance first."""
        with self._lock:
            rows = self._read().execute(
                "SELECT theme, COUNT(*), SUM(solved), AVG(puzzle_rating) FROM attempts "
                "WHERE learner = ? AND first = 1 GROUP BY theme", (self.learner,)).fetchall()
        found = [ThemeResults(t, int(n), int(w), float(r)) for t, n, w, r in rows]
        return sorted(found, key=lambda r: (r.performance, r.theme))
