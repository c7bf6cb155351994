"""Everything a learner enters, in one SQLite database per ``$PEPPER_TUTOR_HOME``.

One file (``learners.sqlite``) holds every learner's lesson progress, each answer given (lessons,
quizzes, reviews) and the review cards. Every change is one transaction (``BEGIN IMMEDIATE``,
so two windows for the same learner queue up instead of overwriting each other) and the database
runs in WAL mode, so a reader never blocks a writer.

Names are stored as typed (normalised to Unicode NFC only, so that the same name typed two ways
is one learner): ``José`` and ``Jos``, ``Жора`` and ``李雷`` are different learners.

The connection settings, the transaction and the damaged-file policy are the SQLite
foundation's (:mod:`pepper_tutor.files.database`): a database that cannot be read is never
written over; it is renamed aside under a unique name
(``learners.sqlite.damaged-TIMESTAMP-XXXX``) and a fresh one is started, with a warning. A save
that fails (a read-only folder, a full disk) is reported in :attr:`LearnerStore.warning` and by
the return value; nothing is raised into a lesson.

One answer is one transaction: :meth:`LearnerStore.record` takes an
:class:`~pepper_tutor.teaching.learner.attempts.Attempt` and writes the answer, its review
cards and the lesson's progress together.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from ...files.database import connect, open_checked, transaction
from ...files.home import tutor_home
from .attempts import Attempt, LessonProgress
from .scheduling import rate

__all__ = ["LearnerStore", "default_learner", "DB_NAME", "AnswerRow"]

DB_NAME = "learners.sqlite"
SCHEMA_VERSION = 1

T = TypeVar("T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS learners (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS lessons (
    learner INTEGER NOT NULL REFERENCES learners(id), lesson TEXT NOT NULL,
    state TEXT NOT NULL, updated TEXT NOT NULL, PRIMARY KEY (learner, lesson));
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY, learner INTEGER NOT NULL REFERENCES learners(id),
    at TEXT NOT NULL, source TEXT NOT NULL, item TEXT NOT NULL, rules TEXT NOT NULL,
    correct INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS answers_by_learner ON answers (learner, at);
CREATE TABLE IF NOT EXISTS review_cards (
    learner INTEGER NOT NULL REFERENCES learners(id), rule TEXT NOT NULL,
    card TEXT NOT NULL, due TEXT NOT NULL, origin TEXT NOT NULL, lapses INTEGER NOT NULL,
    PRIMARY KEY (learner, rule));
"""


def default_learner() -> str:
    return os.environ.get("USER") or "learner"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _name(learner: str) -> str:
    name = unicodedata.normalize("NFC", learner.strip())
    if not name:
        raise ValueError("a learner needs a name")
    return name


@dataclass(frozen=True)
class AnswerRow:
    at: datetime
    source: str  # "lesson", "quiz" or "review"
    item: str  # "bowers/left-1", "tricks", "rank.left-bower"
    rules: tuple[str, ...]
    correct: bool


class LearnerStore:
    """One learner's view of the shared database. Cheap to make; opens a connection per use,
    so a notebook kernel and a terminal never hold a lock between changes."""

    def __init__(self, learner: str | None = None, home: Path | None = None):
        self.learner = _name(learner or default_learner())
        self.home = home or tutor_home()
        self.path = self.home / DB_NAME
        self.warning: str | None = None
        self.warnings: list[str] = []  # everything said since the store was opened
        self.failed_saves = 0
        self._id: int | None = None
        self._con: sqlite3.Connection | None = None
        self._lock = threading.RLock()
        self._ready = False
        self._prepare()

    # ---- opening ------------------------------------------------------------------------------

    def _warn(self, text: str) -> None:
        self.warning = text
        self.warnings.append(text)

    def _connect(self) -> sqlite3.Connection:
        return connect(self.path)

    def _prepare(self) -> None:
        try:
            self.home.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            self._warn(f"cannot create {self.home} ({err.strerror or err}); nothing will be "
                       "saved")
            return

        def setup(con: sqlite3.Connection) -> None:
            con.executescript(SCHEMA)
            con.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)",
                        (str(SCHEMA_VERSION),))

        opening = open_checked(self.path, "meta", setup)
        for why, aside in opening.set_aside:
            self._warn(f"your progress database was damaged ({why}); it is kept as {aside} "
                       "and a new one was started")
        if opening.stuck is not None:
            why, move = opening.stuck
            self._warn(f"your progress database {self.path} cannot be read ({why}) and could "
                       f"not be moved aside ({move}); nothing will be saved")
        if opening.read_only is not None:
            self._warn(f"cannot write to {self.path} ({opening.read_only}); your progress "
                       "will not be saved")
        self._ready = opening.ready

    @property
    def ok(self) -> bool:
        """True when changes are being saved."""
        return self._ready

    # ---- the transaction helper ---------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        """One connection per store, kept open: no transaction is ever left open on it, so it
        holds no lock between changes. WAL with synchronous=NORMAL: a committed change survives
        the program crashing; only a power cut can lose the last moments."""
        if self._con is None:
            self._con = self._connect()
        return self._con

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock, transaction(self._connection()) as con:
            yield con

    def _learner_id(self, con: sqlite3.Connection) -> int:
        if self._id is None:
            con.execute("INSERT OR IGNORE INTO learners (name, created) VALUES (?, ?)",
                        (self.learner, _now()))
            row = con.execute("SELECT id FROM learners WHERE name = ?",
                              (self.learner,)).fetchone()
            self._id = int(row[0])
        return self._id

    def change(self, what: str, fn: Callable[[sqlite3.Connection, int], T]) -> T | None:
        """Run ``fn(connection, learner_id)`` as one transaction. A failure is reported in
        :attr:`warning` ("could not save ...") and gives ``None``."""
        if not self._ready:
            self.failed_saves += 1
            if self.warning is None:
                self._warn("your progress is not being saved")
            return None
        try:
            with self._tx() as con:
                return fn(con, self._learner_id(con))
        except sqlite3.Error as err:
            self._id = None  # its insertion may have been rolled back
            self.failed_saves += 1
            self._warn(f"could not save {what} ({err})")
            return None

    def read(self, fn: Callable[[sqlite3.Connection, int], T], default: T) -> T:
        """Run ``fn(connection, learner_id)`` to read; ``default`` for a learner with nothing
        saved yet (reading never creates the learner)."""
        if not self._ready:
            return default
        try:
            with self._lock:
                con = self._connection()
                row = con.execute("SELECT id FROM learners WHERE name = ?",
                                  (self.learner,)).fetchone()
                return default if row is None else fn(con, int(row[0]))
        except sqlite3.Error as err:
            self._warn(f"could not read your progress ({err})")
            return default

    # ---- lessons ------------------------------------------------------------------------------

    def lesson(self, lesson_id: str) -> LessonProgress | None:
        """The saved progress of one lesson (None when never started, or unreadable)."""
        def get(con: sqlite3.Connection, me: int) -> LessonProgress | None:
            row = con.execute("SELECT state FROM lessons WHERE learner = ? AND lesson = ?",
                              (me, lesson_id)).fetchone()
            return None if row is None else self._progress(lesson_id, row[0])
        return self.read(get, None)

    def lessons(self) -> dict[str, LessonProgress]:
        """Every lesson this learner has started, with its progress."""
        def get(con: sqlite3.Connection, me: int) -> dict[str, LessonProgress]:
            out = {}
            for lesson_id, text in con.execute(
                    "SELECT lesson, state FROM lessons WHERE learner = ?", (me,)):
                progress = self._progress(lesson_id, text)
                if progress is not None:
                    out[lesson_id] = progress
            return out
        return self.read(get, {})

    def _progress(self, lesson_id: str, text: str) -> LessonProgress | None:
        try:
            data = json.loads(text)
            if not isinstance(data, dict):
                raise ValueError("not an object")
            return LessonProgress.from_json(data)
        except ValueError as err:
            self._warn(f"the saved progress of lesson {lesson_id!r} in {self.path} cannot be "
                       f"read ({err}); the lesson starts from the beginning")
            return None

    def save_progress(self, lesson_id: str, progress: LessonProgress) -> bool:
        """Save one lesson's progress (a hint, a reveal, a move to another step)."""
        return bool(self.change("your lesson progress",
                                lambda con, me: self._put_progress(con, me, lesson_id, progress)))

    def _put_progress(self, con: sqlite3.Connection, me: int, lesson_id: str,
                      progress: LessonProgress) -> bool:
        # Read and written in the same transaction: what another window saved meanwhile is
        # combined with this one's, not lost.
        row = con.execute("SELECT state FROM lessons WHERE learner = ? AND lesson = ?",
                          (me, lesson_id)).fetchone()
        stored = self._progress(lesson_id, row[0]) if row else None
        new = progress.merged_with(stored) if stored is not None else progress
        con.execute("INSERT INTO lessons VALUES (?, ?, ?, ?) ON CONFLICT (learner, lesson) "
                    "DO UPDATE SET state = excluded.state, updated = excluded.updated",
                    (me, lesson_id, json.dumps(new.to_json(), ensure_ascii=False), _now()))
        return True

    # ---- answers ------------------------------------------------------------------------------

    def record(self, attempt: Attempt) -> bool:
        """Everything one answer changes, in one transaction: the answer row, the review
        cards it makes, lapses or rates, and the lesson's progress. False (with
        :attr:`warning` set) when it could not be saved; then nothing of it was."""
        when = attempt.at or datetime.now(UTC)

        def put(con: sqlite3.Connection, me: int) -> bool:
            if attempt.counts:
                con.execute("INSERT INTO answers (learner, at, source, item, rules, correct) "
                            "VALUES (?, ?, ?, ?, ?, ?)",
                            (me, when.isoformat(timespec="seconds"), attempt.source,
                             attempt.item, json.dumps(list(attempt.rules)),
                             int(attempt.correct)))
            for rule in attempt.missed:
                self._rate(con, me, rule, True, attempt.origin, when, create=True)
            if attempt.reviewed is not None:
                self._rate(con, me, attempt.reviewed, not attempt.correct, "", when,
                           create=False)
            if attempt.lesson is not None and attempt.progress is not None:
                self._put_progress(con, me, attempt.lesson, attempt.progress)
            return True
        return bool(self.change("your answer" if attempt.counts else "your progress", put))

    def answers(self, source: str | None = None) -> list[AnswerRow]:
        def get(con: sqlite3.Connection, me: int) -> list[AnswerRow]:
            sql = "SELECT at, source, item, rules, correct FROM answers WHERE learner = ?"
            args: tuple[Any, ...] = (me,)
            if source:
                sql += " AND source = ?"
                args += (source,)
            return [AnswerRow(datetime.fromisoformat(r[0]), r[1], r[2], tuple(json.loads(r[3])),
                              bool(r[4])) for r in con.execute(sql + " ORDER BY id", args)]
        return self.read(get, [])

    # ---- review cards -------------------------------------------------------------------------

    def review_cards(self) -> dict[str, tuple[str, str, int]]:
        """rule id -> (the fsrs card as JSON, where it was first missed, lapses)."""
        def get(con: sqlite3.Connection, me: int) -> dict[str, tuple[str, str, int]]:
            return {r[0]: (r[1], r[2], int(r[3])) for r in con.execute(
                "SELECT rule, card, origin, lapses FROM review_cards WHERE learner = ? "
                "ORDER BY due", (me,))}
        return self.read(get, {})

    @staticmethod
    def _rate(con: sqlite3.Connection, me: int, rule: str, again: bool, origin: str,
              at: datetime, create: bool) -> None:
        row = con.execute("SELECT card FROM review_cards WHERE learner = ? AND rule = ?",
                          (me, rule)).fetchone()
        rated = rate(row[0] if row else None, again, at, create)
        if rated is None:
            return  # a review of a card that is not there (removed meanwhile): nothing to do
        card, due, lapsed = rated
        con.execute(
            "INSERT INTO review_cards VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (learner, rule) "
            "DO UPDATE SET card = excluded.card, due = excluded.due, "
            "lapses = review_cards.lapses + excluded.lapses",
            (me, rule, card, due, origin, int(lapsed)))

