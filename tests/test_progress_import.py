"""A progress file is data, never code (issue 35): what a hostile or broken file cannot do to
the learner's progress, and the file an export writes being exactly the one the import takes.

Each refused file leaves the learner store and the puzzle store byte for byte as they were;
each file that loads leaves a store with this version's own tables only (no trigger, view,
extra table or foreign index of the file) that goes on saving answers."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from pepper_tutor.teaching.learner.attempts import Attempt
from pepper_tutor.teaching.learner.store import LearnerStore
from pepper_tutor.teaching.progress_file import (
    PROGRESS_LIMIT,
    ProgressFileRefused,
    load_progress,
    progress_bytes,
)
from pepper_tutor.teaching.puzzles.store import PuzzleStore, store_path
from tests.deadline import in_time

MISS = Attempt("quiz", "tricks", False, ("play.trick-winner",), missed=("play.trick-winner",),
               origin="quiz tricks")
RIGHT = Attempt("quiz", "tricks", True, ("play.follow-suit",))


def progress(home: Path, answers: int, learner: str = "ann", puzzles: int = 1) -> LearnerStore:
    """A learner with ``answers`` answers, a review card and ``puzzles`` puzzle attempts."""
    store = LearnerStore(learner, home)
    for i in range(answers):
        assert store.record(MISS if i % 2 else RIGHT)
        store.saw(f"position {i}")
    ratings = PuzzleStore(learner, home)
    for i in range(puzzles):
        ratings.record(f"p{i}", "draw-trumps", 1500.0, solved=i % 2 == 1)
    ratings.close()
    return store


def exported(tmp_path: Path, answers: int = 3, learner: str = "bea") -> Path:
    """A progress file as an export writes it, with ``answers`` answers and a puzzle."""
    source = progress(tmp_path / f"source-{learner}", answers, learner)
    out = tmp_path / f"{learner}.sqlite"
    out.write_bytes(progress_bytes(source, store_path(source.home)))
    source.close()
    return out


def changed(path: Path, *sql: str) -> Path:
    con = sqlite3.connect(path, isolation_level=None)
    for each in sql:
        con.executescript(each)
    con.close()
    return path


def snapshot(home: Path) -> dict[str, bytes]:
    """The stores' files as they are (closed, so the log is folded in)."""
    return {p.name: p.read_bytes() for p in sorted(home.iterdir()) if p.is_file()}


@pytest.fixture
def mine(tmp_path: Path) -> tuple[LearnerStore, Path]:
    """A learner with five answers and a puzzle rating, the stores closed and snapshotted."""
    store = progress(tmp_path / "mine", 5)
    store.close()
    return LearnerStore("ann", tmp_path / "mine"), tmp_path / "mine"


def refused(store: LearnerStore, home: Path, upload: Path, match: str) -> None:
    """The file is refused with ``match`` in the message, naming it, and nothing changed."""
    store.close()
    before = snapshot(home)
    with pytest.raises(ProgressFileRefused, match=match) as caught:
        load_progress(store, upload, upload.name, store_path(home))
    assert upload.name in str(caught.value)
    assert "\n" not in str(caught.value)
    assert snapshot(home) == before
    assert not [p for p in home.iterdir() if p.name.startswith(".import")]
    again = LearnerStore("ann", home)
    assert len(again.answers()) == 5 and again.warning is None
    again.close()


def loads(store: LearnerStore, home: Path, upload: Path) -> LearnerStore:
    loaded = load_progress(store, upload, upload.name, store_path(home))
    return LearnerStore(loaded.learners[0], home)


def objects(path: Path) -> set[tuple[str, str]]:
    con = sqlite3.connect(path)
    try:
        return {(r[0], r[1]) for r in con.execute(
            "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")}
    finally:
        con.close()


# ---- code in the file ----------------------------------------------------------------------

@pytest.mark.parametrize("sql, what", [
    # the issue's: the next answer took the learner from 5 answers to 1
    ("CREATE TRIGGER wipe AFTER INSERT ON answers BEGIN DELETE FROM answers WHERE "
     "id < NEW.id; END", "trigger"),
    # the issue's: marked the store "newer", and nothing was shown or saved from then on
    ("CREATE TRIGGER newer AFTER INSERT ON answers BEGIN UPDATE meta SET value = '999' "
     "WHERE key = 'schema'; END", "trigger"),
    ("CREATE VIEW everything AS SELECT * FROM answers", "view"),
    ("CREATE TRIGGER mark BEFORE DELETE ON learners BEGIN INSERT INTO answers "
     "(learner, at, source, item, rules, correct) VALUES (1, 'x', 'x', 'x', '[]', 0); END",
     "trigger"),
])
def test_a_file_with_a_trigger_or_a_view_is_refused_and_nothing_changes(
        tmp_path: Path, mine: tuple[LearnerStore, Path], sql: str, what: str) -> None:
    refused(*mine, changed(exported(tmp_path), sql), f"it holds a {what}")


def test_extra_tables_and_indexes_are_never_carried_over(
        tmp_path: Path, mine: tuple[LearnerStore, Path]) -> None:
    upload = changed(exported(tmp_path),
                     "CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('hello')",
                     "CREATE INDEX odd ON answers (item, at)",
                     "CREATE INDEX odd_puzzles ON puzzles_attempts (theme)")
    store, home = mine
    store = loads(store, home, upload)
    assert store.learner == "bea" and len(store.answers()) == 3
    want = objects(home / "learners.sqlite")
    assert ("table", "notes") not in want and ("index", "odd") not in want
    assert {t for t, _ in want} <= {"table", "index"}
    assert objects(home / "puzzles.sqlite") == objects(PuzzleStore("x", tmp_path / "n").path)
    assert store.record(MISS) and len(store.answers()) == 4  # and it goes on saving
    store.close()


# ---- a bad table or value ------------------------------------------------------------------

def _rebuilt(table: str, keep: str) -> str:
    """``table`` made again with only the columns ``keep``: an older or foreign file."""
    return (f"CREATE TABLE t_new AS SELECT {keep} FROM {table}; DROP TABLE {table}; "
            f"ALTER TABLE t_new RENAME TO {table}")


BAD: list[tuple[str, str]] = [
    # the issue's: it loaded, every later save failed and progress showed 0
    (_rebuilt("answers", "id, learner, at, item"), "its table answers has no column source"),
    ("UPDATE puzzles_meta SET value = 'soon' WHERE key = 'schema'",
     "puzzle schema version 'soon'"),
    (_rebuilt("puzzles_attempts", "learner, puzzle"),
     "its table puzzles_attempts has no column theme"),
    ("UPDATE puzzles_learners SET rating = 'high'",
     "puzzles_learners has rating 'high', expected a number"),
    (_rebuilt("puzzles_learners", "name, NULL AS rating, deviation, volatility, best_streak"),
     "puzzles_learners has rating None"),
    ("UPDATE puzzles_learners SET deviation = -3", "deviation -3"),
    ("UPDATE puzzles_puzzles SET rating = 9e999", "rating inf"),
    ("UPDATE puzzles_theme_cards SET card = '{}'", "review card of the theme 'draw-trumps'"),
    ("DROP TABLE puzzles_theme_cards", "not puzzles_theme_cards"),
    (_rebuilt("learners", "id, name, created") + "; INSERT INTO learners VALUES (1, 'bo', 'x')",
     "break a rule of the store"),
    ("UPDATE answers SET correct = 7", "correct 7, expected a whole number from 0 to 1"),
    ("UPDATE answers SET learner = 99", "names learner 99, who is not in the file"),
    ("UPDATE review_cards SET lapses = 'many'", "lapses 'many'"),
    ("UPDATE learners SET name = ' bea'", "learner name ' bea'"),
    ("INSERT INTO lessons SELECT id, 'bowers', x'7b7d', 'x' FROM learners",
     r"lessons has state b'\{\}', expected text"),
    (f"UPDATE answers SET item = '{'x' * 20_000}'", r"item 'xxx.*\.\.\., expected text"),
    ("UPDATE meta SET value = 'one' WHERE key = 'schema'", "schema version 'one'"),
    # what the store itself cannot read (it would skip the row with a warning)
    ("UPDATE answers SET at = '0'", r"answer 1 in the table answers cannot be read \(Invalid "
     r"isoformat string: '0'\)"),
    ("UPDATE answers SET rules = '{x'", "answer 1 in the table answers cannot be read"),
    ("UPDATE review_cards SET card = '{}'", "the review card of rule 'play.trick-winner' in "
     "the table review_cards cannot be read"),
    ("UPDATE puzzles_meta SET value = '²' WHERE key = 'schema'", "puzzle schema version '²'"),
    ("DROP TABLE review_cards; CREATE VIRTUAL TABLE review_cards USING "
     "fts5(learner, rule, card, due, origin, lapses)", "review_cards is not a plain table"),
]


@pytest.mark.parametrize("sql, match", BAD)
def test_a_bad_table_or_value_is_refused_before_anything_changes(
        tmp_path: Path, mine: tuple[LearnerStore, Path], sql: str, match: str) -> None:
    refused(*mine, changed(exported(tmp_path), sql), match)


def test_a_file_too_big_says_the_limit(tmp_path: Path, mine: tuple[LearnerStore, Path]
                                       ) -> None:
    upload = exported(tmp_path)
    with open(upload, "ab") as f:  # sparse: 270 MB on paper, nothing on disk
        f.truncate(270 * 1024 * 1024)
    refused(*mine, upload, f"is 270.0 MB: a progress file is at most "
                           f"{PROGRESS_LIMIT // (1024 * 1024)} MB")


@pytest.mark.parametrize("make", [os.mkfifo, os.mkdir])
def test_a_fifo_or_a_folder_is_refused_at_once(tmp_path: Path, mine: tuple[LearnerStore, Path],
                                               make: Callable[[Path], None]) -> None:
    upload = tmp_path / "upload.sqlite"
    make(upload)
    in_time(lambda: refused(*mine, upload, "not a progress file"))


@pytest.mark.parametrize("content", [b"", b"SQLite format 3\x00" + b"\x00" * 200,
                                     b"my shopping list\n" * 20])
def test_a_file_that_is_no_database_is_refused(tmp_path: Path, mine: tuple[LearnerStore, Path],
                                               content: bytes) -> None:
    upload = tmp_path / "notes.sqlite"
    upload.write_bytes(content)
    refused(*mine, upload, "notes.sqlite is not a pepper-tutor progress file")


# ---- what does load ------------------------------------------------------------------------

def test_export_writes_exactly_what_import_reads(tmp_path: Path) -> None:
    upload = exported(tmp_path, answers=7)
    home = tmp_path / "here"
    store = loads(LearnerStore("ann", home), home, upload)
    again = tmp_path / "again.sqlite"
    again.write_bytes(progress_bytes(store, store_path(home)))

    def rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
        con = sqlite3.connect(path)
        try:
            names = [r[0] for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
            return {n: sorted(con.execute(f"SELECT * FROM {n}"), key=repr) for n in names}
        finally:
            con.close()
    first, second = rows(upload), rows(again)
    assert first == second
    assert len(first["answers"]) == 7 and len(first["puzzles_attempts"]) == 1
    assert len(first["seen"]) == 7  # the positions shown travel with the answers
    assert store.has_seen("position 6") and not store.has_seen("position 7")
    assert objects(upload) == objects(again)
    assert {t for t, _ in objects(upload)} <= {"table", "index"}
    store.close()


def test_a_file_the_older_export_wrote_still_loads(tmp_path: Path) -> None:
    """The export before issue 35: a backup of the learner store with the puzzle tables added
    by ``CREATE TABLE puzzles_x AS SELECT *``, in WAL mode as the store was."""
    source = progress(tmp_path / "old", 4, "cy")
    source.close()
    old = tmp_path / "old.sqlite"
    src = sqlite3.connect(source.path)
    dest = sqlite3.connect(old)
    src.backup(dest)
    src.close()
    dest.execute("ATTACH DATABASE ? AS p", (str(store_path(source.home)),))
    for table in ("meta", "learners", "puzzles", "attempts", "theme_cards"):
        dest.execute(f"CREATE TABLE puzzles_{table} AS SELECT * FROM p.{table}")
    dest.commit()
    dest.execute("DETACH DATABASE p")
    dest.execute("PRAGMA journal_mode = WAL")  # a header that says WAL, and no log with it
    dest.close()
    Path(f"{old}-wal").unlink(missing_ok=True)
    Path(f"{old}-shm").unlink(missing_ok=True)
    home = tmp_path / "here"
    store = loads(LearnerStore("ann", home), home, old)
    assert store.learner == "cy" and len(store.answers()) == 4
    assert len(PuzzleStore("cy", home).tried()) == 1


def test_a_file_of_schema_1_without_the_seen_table_still_loads(tmp_path: Path) -> None:
    """A progress file written before the positions shown were kept (schema 1)."""
    upload = changed(exported(tmp_path, answers=3),
                     "DROP TABLE seen; UPDATE meta SET value = '1' WHERE key = 'schema'")
    home = tmp_path / "here"
    store = loads(LearnerStore("ann", home), home, upload)
    assert store.learner == "bea" and len(store.answers()) == 3
    assert not store.has_seen("position 0")
    store.saw("position 0")
    assert LearnerStore("bea", home).has_seen("position 0") and store.warning is None


@pytest.mark.parametrize("sql, match", [
    ("UPDATE seen SET key = 'short' WHERE rowid = 1", "has key 'short', expected text of 32 to 32"),
    ("PRAGMA foreign_keys = OFF; UPDATE seen SET learner = 99", "table seen names learner 99"),
    ("ALTER TABLE seen DROP COLUMN at", "its table seen has no column at"),
])
def test_a_bad_seen_table_is_refused(tmp_path: Path, mine: tuple[LearnerStore, Path], sql: str,
                                     match: str) -> None:
    refused(*mine, changed(exported(tmp_path), sql), match)


def test_a_file_without_puzzles_leaves_the_ratings_alone(
        tmp_path: Path, mine: tuple[LearnerStore, Path]) -> None:
    upload = changed(exported(tmp_path), *(f"DROP TABLE puzzles_{t}" for t in (
        "meta", "learners", "puzzles", "attempts", "theme_cards")))
    store, home = mine
    ratings = store_path(home).read_bytes()
    loaded = load_progress(store, upload, upload.name, store_path(home))
    assert loaded.puzzles == "none" and store_path(home).read_bytes() == ratings


def test_a_newer_puzzle_schema_leaves_the_ratings_alone(
        tmp_path: Path, mine: tuple[LearnerStore, Path]) -> None:
    upload = changed(exported(tmp_path),
                     "UPDATE puzzles_meta SET value = '99' WHERE key = 'schema'",
                     "ALTER TABLE puzzles_learners DROP COLUMN best_streak")
    store, home = mine
    ratings = store_path(home).read_bytes()
    loaded = load_progress(store, upload, upload.name, store_path(home))
    assert loaded.puzzles == "newer" and store_path(home).read_bytes() == ratings
    assert len(LearnerStore("bea", home).answers()) == 3


# ---- what the learner sees: the page and the notebook say the one line ---------------------

def test_the_page_and_the_notebook_show_the_refusal_and_keep_the_progress(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import html
    import json
    import re

    from pepper_tutor.apps.notebook import ProgressFileWidget
    from pepper_tutor.apps.web import WebApp

    upload = changed(exported(tmp_path), "CREATE TRIGGER \"<b>wipe</b>\" AFTER INSERT ON answers "
                     "BEGIN DELETE FROM answers; END")
    app = WebApp(home=tmp_path / "page", seed=5)
    app.handle("quiz", "tricks", {})
    app.handle("reveal", "", {})
    reply = json.loads(app.handle("import", str(upload), {"name": "bea.sqlite"}))
    words = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", reply["html"])))
    assert ("Not loaded: bea.sqlite is not a pepper-tutor progress file (it holds a trigger, "
            "'<b>wipe</b>': a progress file holds data, never code). Your progress here is "
            "unchanged.") in words
    assert "<b>wipe</b>" not in reply["html"]  # the file's text is escaped
    assert len(app.store.answers()) == 1

    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path / "notebook"))
    widget = ProgressFileWidget("ann")
    assert widget.store.record(MISS)
    widget.load(upload.read_bytes(), "bea.sqlite")
    assert "Not loaded:</b> bea.sqlite is not a pepper-tutor progress file (it holds a " \
        "trigger, &#x27;&lt;b&gt;wipe&lt;/b&gt;&#x27;" in widget.feedback.value
    assert len(LearnerStore("ann", tmp_path / "notebook").answers()) == 1
