"""Everything a learner enters, in one SQLite database per ``$PEPPER_TUTOR_HOME``.

One file (``learners.sqlite``) holds every learner's lesson progress, each answer given (lessons,
quizzes, reviews) and the review cards. Every change is one transaction (``BEGIN IMMEDIATE``,
so two windows for the same learner queue up instead of overwriting each other) and the database
runs in WAL mode, so a reader never blocks a writer.

Names are stored as typed (normalised to Unicode NFC only, so that the same name typed two ways
is one learner): ``José`` and ``Jos``, ``Жора`` and ``李雷`` are different learners.

The connection settings, the transaction and the damaged-file policy are the SQLite
foundation's (:mod:`pepper_tutor.files.database`), and only damage is damage: a file that is
not a database, fails SQLite's check or is someone else's is renamed aside under a unique name
(``learners.sqlite.damaged-TIMESTAMP-XXXX``) and a fresh one is started, with a warning. Nothing
else renames or writes over anything:

- a busy file (another program holds it past :data:`~pepper_tutor.files.database.PERSON_WAIT`,
  5 s, the wait of a person at the keyboard), a full disk or an I/O error: "cannot save ...
  now; nothing changed", and the change is kept in memory and saved with the next one that
  succeeds (or at :meth:`LearnerStore.close`);
- a read-only file is read (the progress is shown) and nothing is saved;
- a file written by a newer pepper-tutor is neither read nor written;
- one row that cannot be read (a review card, a lesson's progress, an answer) is reported
  with the file and the row and skipped.

All of it is said in :attr:`LearnerStore.warning` and by the return value; nothing is raised
into a lesson.

The positions a learner has been shown (a drill's question, a review's) are kept in the table
``seen``, one row per position (a digest of its identity or its cards), so a review calls a
position new only when it never was, whichever front end showed it and however long ago.

One answer is one transaction: :meth:`LearnerStore.record` takes an
:class:`~pepper_tutor.teaching.learner.attempts.Attempt` and writes the answer, its review
cards and the lesson's progress together.
"""

from __future__ import annotations

import hashlib
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

from ...files.database import (
    PERSON_WAIT,
    Column,
    Columns,
    Schema,
    Unavailable,
    connect,
    fault,
    open_store,
    transaction,
    trouble,
)
from ...files.home import tutor_home
from .attempts import Attempt, LessonProgress
from .scheduling import due_and_state, rate

__all__ = ["LearnerStore", "default_learner", "DB_NAME", "AnswerRow", "STORE", "COLUMNS",
           "LATER_TABLES", "seen_key"]

DB_NAME = "learners.sqlite"
#: 2 added the table ``seen``; a file of version 1 gets it when first opened for writing.
SCHEMA_VERSION = 2

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
CREATE TABLE IF NOT EXISTS seen (
    learner INTEGER NOT NULL REFERENCES learners(id), key TEXT NOT NULL, at TEXT NOT NULL,
    PRIMARY KEY (learner, key));
"""
#: The tables a later schema version added: a file of an older version lacks them and is
#: still ours (and a progress file written by an older version still loads).
LATER_TABLES = frozenset({"seen"})
# A file is recognised as ours by the tables of version 1.
STORE = Schema(frozenset({"meta", "learners", "lessons", "answers", "review_cards"}), SCHEMA,
               SCHEMA_VERSION)
_ID = 2**63 - 1
_TEXT = 10_000  # a name, a rule id, a lesson id, a time: far below, and far below harm
#: The values each table holds (:class:`~pepper_tutor.files.database.Column`): what a progress
#: file is checked against before a row of it is taken (:mod:`..progress_file`).
COLUMNS: Columns = {
    "meta": (Column("key", "text", 1, 100), Column("value", "text", 0, _TEXT)),
    "learners": (Column("id", "integer", 1, _ID), Column("name", "text", 1, 200),
                 Column("created", "text", 1, 100)),
    "lessons": (Column("learner", "integer", 1, _ID), Column("lesson", "text", 1, 200),
                Column("state", "text", 2, 1_000_000), Column("updated", "text", 1, 100)),
    "answers": (Column("id", "integer", 1, _ID), Column("learner", "integer", 1, _ID),
                Column("at", "text", 1, 100), Column("source", "text", 1, 100),
                Column("item", "text", 0, _TEXT), Column("rules", "text", 2, 100_000),
                Column("correct", "integer", 0, 1)),
    "review_cards": (Column("learner", "integer", 1, _ID), Column("rule", "text", 1, 200),
                     Column("card", "text", 2, _TEXT), Column("due", "text", 1, 100),
                     Column("origin", "text", 0, _TEXT),
                     Column("lapses", "integer", 0, 1_000_000_000)),
    "seen": (Column("learner", "integer", 1, _ID), Column("key", "text", 32, 32),
             Column("at", "text", 1, 100)),
}
# What a row that cannot be read raises on the way (bad JSON, a wrong shape, a bad date).
ROW_ERRORS = (ValueError, KeyError, TypeError, AttributeError)


# (database path, learner) -> the positions shown in this process (LearnerStore.saw): what a
# store that cannot save (read-only, busy) still remembers until the process ends.
_SHOWN: dict[tuple[str, str], set[str]] = {}


def seen_key(key: str) -> str:
    """The row a position is kept as: a digest of its identity or its cards (fixed length,
    whatever a prompt's length; the position itself is not needed, only whether it was)."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _put_seen(con: sqlite3.Connection, me: int, digests: list[str], when: str) -> None:
    con.executemany("INSERT OR IGNORE INTO seen (learner, key, at) VALUES (?, ?, ?)",
                    [(me, d, when) for d in digests])


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
        self.failed_saves = 0  # changes lost (not kept for later: see unsaved)
        self._id: int | None = None
        self._con: sqlite3.Connection | None = None
        self._lock = threading.RLock()
        self._ready = False  # the file is ours and set up: changes can be tried
        self._readable = False  # it can be read (ready, read-only, or busy at opening)
        self._read_only = False
        self._set_up = False  # its tables are made (not yet when it was busy at opening)
        # Changes that could not be saved yet (busy, full, an I/O error), oldest first: each
        # is tried again, in order, before the next change, and at close().
        self._unsaved: list[tuple[str, Callable[[sqlite3.Connection, int], Any]]] = []
        self._reported: set[tuple[str, str]] = set()  # rows already said to be unreadable
        self._prepare()

    # ---- positions shown ------------------------------------------------------------------

    def saw(self, *keys: str) -> None:
        """Note positions shown to this learner (a question's identity or its cards), so a
        review calls a position new only when it is (:meth:`has_seen`): saved in the table
        ``seen``, and kept in this process too (for every store of this learner and file)
        while the file cannot take them."""
        digests = self._remember_shown(keys)
        if not digests or not self.ok:  # read-only or not ours: remembered in this process
            return
        when = _now()

        def put(con: sqlite3.Connection, me: int) -> bool:
            _put_seen(con, me, digests, when)
            return True
        self.change("the positions you were shown", put)

    def _remember_shown(self, keys: tuple[str, ...]) -> list[str]:
        digests = [seen_key(k) for k in keys if k]
        _SHOWN.setdefault((str(self.path), self.learner), set()).update(digests)
        return digests

    def has_seen(self, key: str) -> bool:
        """Whether this learner was shown the position ``key`` (here or in another front
        end, in this process or an earlier one)."""
        if not key:
            return False
        digest = seen_key(key)
        if digest in _SHOWN.get((str(self.path), self.learner), ()):
            return True

        def look(con: sqlite3.Connection, me: int) -> bool:
            try:
                return con.execute("SELECT 1 FROM seen WHERE learner = ? AND key = ?",
                                   (me, digest)).fetchone() is not None
            except sqlite3.OperationalError as err:
                if "no such table" in str(err):  # a read-only file of version 1
                    return False
                raise
        return self.read(look, False)

    @property
    def keeps_progress(self) -> bool:
        """Whether what the learner does is kept: the file is ours to write and no change
        has been lost. A command ends with a non-zero status when it is not."""
        return self._ready and not self._read_only and self.failed_saves == 0

    # ---- opening ------------------------------------------------------------------------------

    def _warn(self, text: str) -> None:
        self.warning = text
        self.warnings.append(text)

    def _connect(self) -> sqlite3.Connection:
        return connect(self.path, timeout=PERSON_WAIT, read_only=self._read_only)

    def _prepare(self) -> None:
        try:
            self.home.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            self._warn(f"cannot create {self.home} ({err.strerror or err}); nothing will be "
                       "saved")
            return
        opening = open_store(self.path, STORE, timeout=PERSON_WAIT)
        for why, aside in opening.set_aside:
            self._warn(f"your progress database was damaged ({why}); it is kept as {aside} "
                       "and a new one was started")
        self._set_up = opening.ready
        self._readable = opening.readable
        if opening.state == "ready":
            self._ready = True
        elif opening.state == "read_only":
            self._read_only = True
            self._warn(f"{opening.problem}: your progress is shown, but nothing new will be "
                       "saved")
        elif opening.state == "not_now":
            # Not damage: the file is left as it is, and the tables are made at the first
            # change that can be saved.
            self._ready = True
            self._warn(f"cannot open your progress now: {opening.problem}; nothing changed, "
                       "and your answers are kept until it can be saved")
        elif opening.state == "newer":
            self._warn(f"{opening.problem}: it is left as it is, and your progress is neither "
                       "shown nor saved by this version (update pepper-tutor)")
        else:
            self._warn(f"your progress database {opening.problem}; nothing will be saved")

    @property
    def ok(self) -> bool:
        """True when changes are being saved."""
        return self._ready and not self._read_only

    @property
    def unsaved(self) -> int:
        """Changes kept in memory because the file could not take them yet."""
        return len(self._unsaved)

    # ---- the transaction helper ---------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        """One connection per store, kept open: no transaction is ever left open on it, so it
        holds no lock between changes. WAL with synchronous=NORMAL: a committed change survives
        the program crashing; only a power cut can lose the last moments."""
        if self._con is None:
            self._con = self._connect()
        return self._con

    def close(self) -> None:
        """Save what is still unsaved (one more try), then let the file go."""
        if self._unsaved:
            self.flush()
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

    def _run(self, fn: Callable[[sqlite3.Connection, int], T]) -> T:
        if not self._set_up:
            with self._lock:
                opening = open_store(self.path, STORE, timeout=PERSON_WAIT)
                if not opening.ready:
                    raise Unavailable(opening.problem or f"cannot open {self.path}",
                                      opening.fault)
                self._set_up = self._readable = True
        with self._tx() as con:
            return fn(con, self._learner_id(con))

    def flush(self) -> bool:
        """Try again to save the changes kept in memory, oldest first; True when none is left.
        """
        with self._lock:
            while self._unsaved:
                what, fn = self._unsaved[0]
                try:
                    self._run(fn)
                except sqlite3.Error as err:
                    self._id = None
                    self._failed(what, err, keep=None)
                    return False
                self._unsaved.pop(0)
            return True

    def _failed(self, what: str, err: sqlite3.Error,
                keep: Callable[[sqlite3.Connection, int], Any] | None) -> bool:
        """Say why ``what`` was not saved; True when it is kept to be saved later."""
        kind = fault(err)
        if kind == "read_only":
            self._read_only = True
            self.failed_saves += len(self._unsaved)  # it will not become writable now
            self._unsaved.clear()
            self._warn(f"cannot save {what}: {trouble(err, self.path, PERSON_WAIT)}; your "
                       "progress is shown, but nothing new will be saved")
            return False
        if kind in ("busy", "full", "io"):
            if keep is not None:
                self._unsaved.append((what, keep))
            waiting = len(self._unsaved)
            self._warn(f"cannot save {what} now: {trouble(err, self.path, PERSON_WAIT)}; "
                       f"nothing changed, and {waiting} unsaved change"
                       f"{'s are' if waiting != 1 else ' is'} kept to be saved when it can be")
            return True
        self._warn(f"could not save {what} in {self.path} ({err})")
        return False

    def change(self, what: str, fn: Callable[[sqlite3.Connection, int], T]) -> T | None:
        """Run ``fn(connection, learner_id)`` as one transaction. A failure is reported in
        :attr:`warning` ("cannot save ...") and gives ``None``; a busy, full or failing file
        keeps ``fn`` to run again before the next change (see the module)."""
        if not self._ready or self._read_only:
            self.failed_saves += 1
            if self.warning is None:
                self._warn("your progress is not being saved")
            return None
        with self._lock:
            if self._unsaved and not self.flush():
                if self._read_only:  # the kept ones were dropped: this one cannot wait
                    self.failed_saves += 1
                else:
                    self._unsaved.append((what, fn))  # after the older ones, in order
                return None
            try:
                return self._run(fn)
            except sqlite3.Error as err:
                self._id = None  # its insertion may have been rolled back
                if not self._failed(what, err, keep=fn):
                    self.failed_saves += 1
                return None

    def read(self, fn: Callable[[sqlite3.Connection, int], T], default: T) -> T:
        """Run ``fn(connection, learner_id)`` to read; ``default`` for a learner with nothing
        saved yet (reading never creates the learner)."""
        if not self._readable:
            return default
        try:
            with self._lock:
                con = self._connection()
                row = con.execute("SELECT id FROM learners WHERE name = ?",
                                  (self.learner,)).fetchone()
                return default if row is None else fn(con, int(row[0]))
        except sqlite3.Error as err:
            self._warn(f"could not read your progress: {trouble(err, self.path, PERSON_WAIT)}")
            return default

    def _bad_row(self, table: str, row: str, err: Exception, then: str) -> None:
        """Say once that one row cannot be read, naming the file and the row."""
        if (table, row) in self._reported:
            return
        self._reported.add((table, row))
        why = f"{err.args[0]!r} is missing" if isinstance(err, KeyError) and err.args \
            else str(err) or type(err).__name__
        self._warn(f"{self.path}: {row} in the table {table} cannot be read ({why}); {then}")

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

    def _progress(self, lesson_id: str, text: object) -> LessonProgress | None:
        try:
            if not isinstance(text, str | bytes):
                raise ValueError(f"not text but {type(text).__name__}")
            data = json.loads(text)
            if not isinstance(data, dict):
                raise ValueError("not an object")
            return LessonProgress.from_json(data)
        except ROW_ERRORS as err:
            self._bad_row("lessons", f"the progress of lesson {lesson_id!r}", err,
                          "the lesson starts from the beginning")
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
        cards it makes, lapses or rates, the lesson's progress and the position now seen.
        False (with :attr:`warning` set) when it could not be saved; then nothing of it
        was."""
        when = attempt.at or datetime.now(UTC)  # fixed now: a retried save keeps the time
        shown = self._remember_shown(attempt.seen)

        def put(con: sqlite3.Connection, me: int) -> bool:
            _put_seen(con, me, shown, when.isoformat(timespec="seconds"))
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
            out = []
            for r in con.execute(sql.replace("SELECT ", "SELECT id, ", 1) + " ORDER BY id",
                                 args):
                try:
                    rules = json.loads(r[4])
                    if not isinstance(rules, list) or not all(isinstance(x, str)
                                                              for x in rules):
                        raise ValueError("not a list of rule ids")
                    out.append(AnswerRow(datetime.fromisoformat(r[1]), str(r[2]), str(r[3]),
                                         tuple(rules), bool(r[5])))
                except ROW_ERRORS as err:
                    self._bad_row("answers", f"answer {r[0]}", err,
                                  "it is left out of your progress")
            return out
        return self.read(get, [])

    # ---- review cards -------------------------------------------------------------------------

    def review_cards(self) -> dict[str, tuple[str, str, int]]:
        """rule id -> (the fsrs card as JSON, where it was first missed, lapses)."""
        def get(con: sqlite3.Connection, me: int) -> dict[str, tuple[str, str, int]]:
            out = {}
            for r in con.execute("SELECT rule, card, origin, lapses FROM review_cards "
                                 "WHERE learner = ? ORDER BY due", (me,)):
                if self._card(r[0], r[1]) is not None:
                    out[str(r[0])] = (str(r[1]), str(r[2]), int(r[3]))
            return out
        return self.read(get, {})

    def _card(self, rule: str, text: object) -> str | None:
        """A stored card, or None (said once) when it cannot be read."""
        try:
            if not isinstance(text, str):
                raise ValueError(f"not text but {type(text).__name__}")
            due_and_state(text)
            return text
        except ROW_ERRORS as err:
            self._bad_row("review_cards", f"the review card of rule {rule!r}", err,
                          "it is skipped until you miss the rule again, which starts it anew")
            return None

    def _rate(self, con: sqlite3.Connection, me: int, rule: str, again: bool, origin: str,
              at: datetime, create: bool) -> None:
        row = con.execute("SELECT card FROM review_cards WHERE learner = ? AND rule = ?",
                          (me, rule)).fetchone()
        stored = None if row is None else self._card(rule, row[0])
        rated = rate(stored, again, at, create)
        if rated is None:
            return  # a review of a card that is not there (removed meanwhile): nothing to do
        card, due, lapsed = rated
        con.execute(
            "INSERT INTO review_cards VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (learner, rule) "
            "DO UPDATE SET card = excluded.card, due = excluded.due, "
            "lapses = review_cards.lapses + excluded.lapses",
            (me, rule, card, due, origin, int(lapsed)))

