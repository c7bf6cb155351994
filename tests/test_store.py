"""The learner store: two windows at once, damaged files, failed saves, names, the old JSON."""

import multiprocessing
import sqlite3
import unicodedata

import pytest

from pepper_tutor.teaching.learner.attempts import Attempt
from pepper_tutor.teaching.learner.store import DB_NAME, LearnerStore
from pepper_tutor.teaching.lessons.files import find_lesson
from pepper_tutor.teaching.lessons.session import LessonSession


def _window(home: str, lesson_step: str, n: int, barrier) -> None:  # type: ignore[no-untyped-def]
    """One process: answers n quiz questions and solves one step of the same lesson."""
    from pathlib import Path

    store = LearnerStore("ann", Path(home))
    barrier.wait()
    for i in range(n):
        assert store.record(Attempt("quiz", "tricks", i % 2 == 0, ("play.trick-winner",)))
    session = LessonSession(find_lesson("bowers"), store)  # where the other window left it
    while session.position > 0:
        session.back()
    while session.step.id != lesson_step:
        session.next()
    from tests.answering import right_answer

    barrier.wait()  # both windows hold the lesson as it was before either answers

    assert session.answer(right_answer(session.step)).correct
    assert store.warning is None, store.warning


def test_two_processes_saving_the_same_learner_lose_nothing(tmp_path):
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(2)
    steps = ("hearts-top", "left-beats-ace")
    procs = [ctx.Process(target=_window, args=(str(tmp_path), step, 60, barrier))
             for step in steps]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    store = LearnerStore("ann", tmp_path)
    assert len(store.answers("quiz")) == 120
    assert sum(a.correct for a in store.answers("quiz")) == 60
    saved = store.lesson("bowers")
    assert saved is not None and set(steps) <= saved.done  # both windows' solved steps kept
    assert len(store.answers("lesson")) == 2


def test_a_damaged_store_is_set_aside_under_a_unique_name_never_overwritten(tmp_path):
    garbage = [b"not a database at all " * 50, b"SQLite format 3\x00" + b"\xff" * 3000]
    for i, junk in enumerate(garbage):
        (tmp_path / DB_NAME).write_bytes(junk)
        store = LearnerStore("bo", tmp_path)
        assert store.warning and "damaged" in store.warning and "kept as" in store.warning
        assert store.ok and store.record(Attempt("quiz", "score", True, ("score.made",)))
        store.close()
        aside = sorted(p for p in tmp_path.glob(f"{DB_NAME}.damaged-*")
                       if not p.name.endswith(("-wal", "-shm")))
        assert len(aside) == i + 1  # the second damaged file did not replace the first
        assert {p.read_bytes() for p in aside} == set(garbage[:i + 1])
    assert len(LearnerStore("bo", tmp_path).answers()) == 1


def test_a_foreign_sqlite_file_is_set_aside_too(tmp_path):
    con = sqlite3.connect(tmp_path / DB_NAME)
    con.execute("CREATE TABLE photos (x)")
    con.commit()
    con.close()
    before = (tmp_path / DB_NAME).read_bytes()
    store = LearnerStore("cy", tmp_path)
    assert store.warning and "not a pepper-tutor database" in store.warning
    (aside,) = tmp_path.glob(f"{DB_NAME}.damaged-*")
    assert aside.read_bytes() == before  # never written to: no schema, no WAL


def _read_only(store: LearnerStore) -> None:
    """From now on the store's connection refuses writes, as on a disk gone read-only (root
    ignores chmod, so a read-only folder cannot be made here)."""
    store._connection().execute("PRAGMA query_only = ON")


def test_a_failed_save_is_reported_not_raised(tmp_path):
    store = LearnerStore("di", tmp_path)
    _read_only(store)
    assert store.record(Attempt("quiz", "tricks", True, ())) is False
    assert store.warning and store.warning.startswith("cannot save your answer: ")
    assert f"{store.path} is read-only" in store.warning and not store.ok
    s = LessonSession(find_lesson("bowers"), store)
    s.next()  # the lesson goes on
    assert store.failed_saves == 2 and store.unsaved == 0  # read-only: nothing to retry


def test_a_home_that_cannot_be_made_says_nothing_will_be_saved(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    store = LearnerStore("ed", blocker / "home")
    assert not store.ok and "nothing will be saved" in (store.warning or "")
    assert store.record(Attempt("quiz", "tricks", True, ())) is False


@pytest.mark.parametrize(("a", "b"), [("José", "Jos"), ("Жора", "Жорa"), ("李雷", "李"),
                                      ("Zoë", "Zoe"), ("learner", "Learner")])
def test_names_differing_only_outside_ascii_are_different_learners(tmp_path, a, b):
    LearnerStore(a, tmp_path).record(Attempt("quiz", "tricks", True, ()))
    assert LearnerStore(b, tmp_path).answers() == []
    assert len(LearnerStore(a, tmp_path).answers()) == 1
    assert LearnerStore(a, tmp_path).learner == a


def test_the_same_name_typed_two_ways_is_one_learner(tmp_path):
    LearnerStore(unicodedata.normalize("NFC", "José"), tmp_path).record(
        Attempt("quiz", "tricks", True, ()))
    assert len(LearnerStore(unicodedata.normalize("NFD", "José"), tmp_path).answers()) == 1


def test_wal_mode_and_one_file_per_home(tmp_path):
    LearnerStore("fay", tmp_path).record(Attempt("quiz", "tricks", True, ()))
    LearnerStore("gus", tmp_path).record(Attempt("quiz", "tricks", True, ()))
    con = sqlite3.connect(tmp_path / DB_NAME)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert {r[0] for r in con.execute("SELECT name FROM learners")} == {"fay", "gus"}


def test_a_store_made_in_one_thread_saves_from_another(tmp_path):
    """A notebook kernel runs widget callbacks in another thread than the cell."""
    import threading

    store = LearnerStore("lu", tmp_path)
    assert store.lesson("bowers") is None
    results: list[bool] = []
    worker = threading.Thread(target=lambda: results.append(
        store.record(Attempt("quiz", "tricks", True, ()))))
    worker.start()
    worker.join()
    assert results == [True] and store.warning is None and len(store.answers()) == 1


# ---- the positions a learner was shown ---------------------------------------------------

def _shows(home: str, key: str) -> None:
    """Another process (a terminal, a notebook kernel) shows the learner a position."""
    from pathlib import Path

    store = LearnerStore("ann", Path(home))
    store.saw(key)
    store.close()


def test_a_position_shown_in_another_process_is_remembered(tmp_path):
    key = "trick|Who wins?|QH 9H JD AS|t=H"
    worker = multiprocessing.get_context("fork").Process(target=_shows,
                                                         args=(str(tmp_path), key))
    worker.start()
    worker.join(30)
    assert worker.exitcode == 0
    store = LearnerStore("ann", tmp_path)
    assert store.has_seen(key)
    assert not store.has_seen(key + " ") and not store.has_seen("")
    assert not LearnerStore("bea", tmp_path).has_seen(key)  # each learner their own
    assert store.warning is None


V1_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE learners (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created TEXT NOT NULL);
CREATE TABLE lessons (learner INTEGER NOT NULL REFERENCES learners(id), lesson TEXT NOT NULL,
    state TEXT NOT NULL, updated TEXT NOT NULL, PRIMARY KEY (learner, lesson));
CREATE TABLE answers (id INTEGER PRIMARY KEY, learner INTEGER NOT NULL REFERENCES learners(id),
    at TEXT NOT NULL, source TEXT NOT NULL, item TEXT NOT NULL, rules TEXT NOT NULL,
    correct INTEGER NOT NULL);
CREATE TABLE review_cards (learner INTEGER NOT NULL REFERENCES learners(id), rule TEXT NOT NULL,
    card TEXT NOT NULL, due TEXT NOT NULL, origin TEXT NOT NULL, lapses INTEGER NOT NULL,
    PRIMARY KEY (learner, rule));
INSERT INTO meta VALUES ('schema', '1');
INSERT INTO learners VALUES (1, 'ann', '2026-01-01T00:00:00+00:00');
INSERT INTO answers VALUES (1, 1, '2026-01-01T00:00:00+00:00', 'quiz', 'tricks',
    '["play.trick-winner"]', 1);
"""


def _version_1_store(home):
    home.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(home / DB_NAME)
    con.executescript(V1_SCHEMA)
    con.close()
    return home / DB_NAME


def test_a_store_of_schema_1_gains_the_seen_table_and_keeps_everything(tmp_path):
    path = _version_1_store(tmp_path)
    store = LearnerStore("ann", tmp_path)
    assert store.warning is None and store.ok
    assert [a.item for a in store.answers()] == ["tricks"]
    assert not store.has_seen("a position")
    store.saw("a position")
    store.close()
    con = sqlite3.connect(path)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("2",)
    assert con.execute("SELECT COUNT(*) FROM seen").fetchone() == (1,)
    con.close()
    assert LearnerStore("ann", tmp_path).has_seen("a position")


def test_a_read_only_store_of_schema_1_remembers_in_the_process_only(tmp_path, monkeypatch):
    """Read-only as tests/test_store_faults.py makes it (the tests run as root): every
    connection opened with ``mode=ro``."""
    from pepper_tutor.files import database
    from pepper_tutor.teaching.learner import store as learner_store

    path = _version_1_store(tmp_path)
    before = path.read_bytes()
    real = database.connect

    def connect(where, **kwargs):  # type: ignore[no-untyped-def]
        kwargs["read_only"] = True
        return real(where, **kwargs)

    monkeypatch.setattr(database, "connect", connect)
    monkeypatch.setattr(learner_store, "connect", connect)
    store = LearnerStore("ann", tmp_path)
    assert not store.ok and len(store.answers()) == 1
    assert not store.has_seen("a position")
    store.saw("a position")
    assert store.has_seen("a position") and store.failed_saves == 0
    assert "could not read" not in (store.warning or "")
    store.close()
    assert path.read_bytes() == before


def _open_new(home: str, barrier, answers) -> None:  # type: ignore[no-untyped-def]
    from pathlib import Path

    barrier.wait(timeout=60)  # a twin that died first must not leave this one waiting
    answers.put(LearnerStore("ann", Path(home)).warning)


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                    reason="150 pairs of spawned processes would take minutes")
def test_two_windows_opening_a_new_learner_file_at_once_both_open_it(tmp_path):
    """Both put the new file in WAL mode at the same moment: SQLite answers one of them
    "database is locked" at once, without its busy wait, and that window said it could
    not open the progress (waited 5 s), having waited 2 ms (5 times in 600 openings; a
    loaded CI met it). Over 150 pairs of fresh files, neither window warns."""
    ctx = multiprocessing.get_context("fork")
    warnings = []
    for i in range(150):
        home = tmp_path / str(i)
        home.mkdir()
        barrier, answers = ctx.Barrier(2), ctx.SimpleQueue()
        procs = [ctx.Process(target=_open_new, args=(str(home), barrier, answers))
                 for _ in range(2)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(120)
            assert p.exitcode == 0
        warnings += [w for w in (answers.get(), answers.get()) if w]
    assert not warnings, warnings[0]


def test_a_journal_mode_switch_met_by_another_waits_for_it_instead_of_failing() -> None:
    """The switch is tried again until the wait is over (SQLite does not wait there), and a
    fault other than a busy file is not waited on."""
    from pepper_tutor.files.database import _journal_mode

    class Busy:
        def __init__(self, times: int, error: str = "database is locked") -> None:
            self.times, self.error, self.tries = times, error, 0

        def execute(self, sql: str) -> None:
            self.tries += 1
            if self.tries <= self.times:
                raise sqlite3.OperationalError(self.error)

    con = Busy(3)
    _journal_mode(con, "WAL", 5.0)  # type: ignore[arg-type]
    assert con.tries == 4
    with pytest.raises(sqlite3.OperationalError):
        _journal_mode(Busy(1000), "WAL", 0.05)  # type: ignore[arg-type]
    other = Busy(1, "disk I/O error")
    with pytest.raises(sqlite3.OperationalError):
        _journal_mode(other, "WAL", 5.0)  # type: ignore[arg-type]
    assert other.tries == 1
