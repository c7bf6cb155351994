"""Property-based fuzzing of the learner store under faults: random sequences of answers,
lesson saves and reopenings, mixed with another program locking the file, a full disk and
rows that cannot be read. The oracle: nothing is raised, nothing is set aside, every warning
names the file, and every answer is in the store at the end except those a session gave up
on (still unsaved when it closed while the fault lasted) and rows spoiled on purpose.

Bounded like tests/test_fuzz.py: a small derandomized run in the suite; ``make fuzz``
(``PEPPER_FUZZ=1``) runs :data:`FUZZ_EXAMPLES` sequences and prints the count.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pepper_tutor.teaching.learner.store as learner_store
from pepper_tutor.teaching.learner.attempts import Attempt, LessonProgress
from pepper_tutor.teaching.learner.progress import progress_summary
from pepper_tutor.teaching.learner.store import DB_NAME, LearnerStore

FUZZING = os.environ.get("PEPPER_FUZZ") == "1"
FUZZ_EXAMPLES = 1_000
CI_EXAMPLES = 15
IMPORT_EXAMPLES = 3_000
CI_IMPORT_EXAMPLES = 25
COUNTS: Counter[str] = Counter()

OPS = ("miss", "right", "progress", "lock", "unlock", "full", "room", "reopen", "bad_card",
       "bad_lesson", "bad_answer")


@pytest.fixture(scope="module", autouse=True)
def report_counts() -> Iterator[None]:
    yield
    if FUZZING:
        print(f"\nstore fuzz: {COUNTS['sequences']} sequences, {COUNTS['operations']} "
              f"operations, {COUNTS['faults']} faults")
        for name in ("puzzle store", "daily board", "game night"):
            print(f"{name} fuzz: {COUNTS[f'{name} sequences']} sequences, "
                  f"{COUNTS[f'{name} operations']} operations")
        print(f"progress import fuzz: {COUNTS['imports']} files, {COUNTS['refused']} refused, "
              f"{COUNTS['loaded']} loaded, {COUNTS['not ValueError']} exceptions other than "
              f"ValueError, {COUNTS['other ValueError']} other ValueErrors")


@settings(max_examples=FUZZ_EXAMPLES if FUZZING else CI_EXAMPLES, derandomize=not FUZZING,
          deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(OPS), max_size=25))
def test_random_faults_lose_nothing_and_set_nothing_aside(ops: list[str]) -> None:
    COUNTS["sequences"] += 1
    old_wait = learner_store.PERSON_WAIT
    learner_store.PERSON_WAIT = 0.01  # a busy file gives up at once here
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        try:
            _run(home, ops)
        finally:
            learner_store.PERSON_WAIT = old_wait


def unsaved_answers(store: LearnerStore) -> int:
    return sum(1 for what, _ in store._unsaved if what == "your answer")


def _run(home: Path, ops: list[str]) -> None:
    path = home / DB_NAME
    store = LearnerStore("fuzz", home)
    holder: sqlite3.Connection | None = None
    recorded = given_up = spoiled = 0

    def spoil(sql: str) -> int:
        con = sqlite3.connect(path, timeout=0.01)
        try:
            changed = con.execute(sql).rowcount
            con.commit()
            return changed
        except sqlite3.OperationalError:  # locked by the holder: nothing spoiled
            return 0
        finally:
            con.close()

    for op in ops:
        COUNTS["operations"] += 1
        if op in ("miss", "right"):
            rule = "play.trick-winner" if op == "miss" else "play.follow-suit"
            store.record(Attempt("quiz", "tricks", op == "right", (rule,),
                                 missed=(rule,) if op == "miss" else ()))
            recorded += 1
        elif op == "progress":
            store.save_progress("bowers", LessonProgress(queue=("a",), position=0))
        elif op == "lock" and holder is None and path.exists():
            COUNTS["faults"] += 1
            holder = sqlite3.connect(path, isolation_level=None)
            holder.execute("BEGIN EXCLUSIVE")
        elif op == "unlock" and holder is not None:
            holder.execute("ROLLBACK")
            holder.close()
            holder = None
        elif op == "full" and store.ok:
            COUNTS["faults"] += 1
            con = store._connection()
            pages = con.execute("PRAGMA page_count").fetchone()[0]
            con.execute(f"PRAGMA max_page_count = {max(pages, 1)}")
        elif op == "room" and store.ok:
            store._connection().execute("PRAGMA max_page_count = 1073741823")
        elif op == "reopen":
            store.close()
            given_up += unsaved_answers(store)  # the session ended while the fault lasted
            store = LearnerStore("fuzz", home)
        elif op == "bad_card" and holder is None:
            COUNTS["faults"] += 1
            spoil("UPDATE review_cards SET card = '{\"x\": 1}'")
        elif op == "bad_lesson" and holder is None:
            COUNTS["faults"] += 1
            spoil("UPDATE lessons SET state = '[]'")
        elif op == "bad_answer" and holder is None:
            COUNTS["faults"] += 1
            spoiled += spoil("UPDATE answers SET rules = '{' WHERE id = "
                             "(SELECT MAX(id) FROM answers WHERE rules != '{')")
        progress_summary(store)  # reading never raises, whatever the file holds now
        for text in store.warnings:
            assert str(path) in text or str(home) in text or text.startswith(
                "your progress is not being saved"), text
    if holder is not None:
        holder.execute("ROLLBACK")
        holder.close()
    store._connection().execute("PRAGMA max_page_count = 1073741823")
    store.close()
    given_up += unsaved_answers(store)
    assert not [p for p in home.iterdir() if ".damaged-" in p.name]
    final = LearnerStore("fuzz", home)
    assert len(final.answers()) == recorded - given_up - spoiled
    final.close()


# ---- the progress import: random stores, mutated, with code in them ---------------------------

PUZZLE_TABLES = ("meta", "learners", "puzzles", "attempts", "theme_cards")
ALL_TABLES = ("meta", "learners", "lessons", "answers", "review_cards", "seen",
              *(f"puzzles_{t}" for t in PUZZLE_TABLES))
VALUES = st.one_of(
    st.none(), st.integers(-(2**63), 2**63 - 1), st.floats(), st.text(max_size=30),
    st.binary(max_size=20), st.sampled_from(["[]", "{}", "2026-12-02T10:00:00+00:00", "1",
                                             "999", "x" * 200_000, " ann", "ann"]))
MUTATIONS = st.one_of(
    st.tuples(st.just("trigger"), st.sampled_from(ALL_TABLES),
              st.sampled_from(["INSERT", "UPDATE", "DELETE"]),
              st.sampled_from(["BEFORE", "AFTER"])),
    st.tuples(st.just("view"), st.sampled_from(ALL_TABLES)),
    st.tuples(st.just("table"), st.sampled_from(["notes", "sqlite_stat1", "answers2"])),
    st.tuples(st.just("index"), st.sampled_from(ALL_TABLES), st.integers(0, 8)),
    st.tuples(st.just("value"), st.sampled_from(ALL_TABLES), st.integers(0, 8), VALUES),
    st.tuples(st.just("drop column"), st.sampled_from(ALL_TABLES), st.integers(0, 8)),
    st.tuples(st.just("drop table"), st.sampled_from(ALL_TABLES)),
    st.tuples(st.just("insert"), st.sampled_from(ALL_TABLES), st.lists(VALUES, max_size=9)),
    st.tuples(st.just("flip"), st.integers(0, 1 << 16), st.integers(0, 255)),
    st.tuples(st.just("truncate"), st.integers(0, 1 << 16)),
    st.tuples(st.just("wal"), st.just(0)),
)


def _source(answers: int, learners: int, puzzles: int) -> bytes:
    """A progress file as an export writes it (cached: many examples share one)."""
    key = (answers, learners, puzzles)
    if key not in _SOURCES:
        from pepper_tutor.teaching.progress_file import progress_bytes
        from pepper_tutor.teaching.puzzles.store import PuzzleStore, store_path

        with tempfile.TemporaryDirectory() as folder:
            home = Path(folder)
            stores = [LearnerStore(f"l{n}", home) for n in range(learners)]
            for i in range(answers):
                stores[i % learners].record(Attempt(
                    "quiz", "tricks", i % 3 == 0, ("play.trick-winner",),
                    missed=() if i % 3 == 0 else ("play.trick-winner",)))
                stores[i % learners].saw(f"position {i}")
            if answers:
                stores[0].save_progress("bowers", LessonProgress(queue=("a",), position=0))
            ratings = PuzzleStore("l0", home)
            for i in range(puzzles):
                ratings.record(f"p{i}", ("ruff", "draw-trumps")[i % 2], 1500.0, i % 2 == 1)
            ratings.close()
            _SOURCES[key] = progress_bytes(stores[0], store_path(home))
            for store in stores:
                store.close()
    return _SOURCES[key]


_SOURCES: dict[tuple[int, int, int], bytes] = {}
_MINE: dict[str, bytes] = {}
# A folder in memory where the machine has one: a store syncs each change to the disk, and
# thousands of imports would spend their time waiting on it.
MEMORY = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None


def _mine() -> dict[str, bytes]:
    """The learner's own stores before an import: one answer and no puzzle yet (closed)."""
    if not _MINE:
        from pepper_tutor.teaching.puzzles.store import PuzzleStore

        with tempfile.TemporaryDirectory() as folder:
            mine = LearnerStore("me", Path(folder))
            mine.record(Attempt("quiz", "tricks", True, ("play.follow-suit",)))
            mine.close()
            PuzzleStore("me", Path(folder)).close()
            _MINE.update({p.name: p.read_bytes() for p in Path(folder).iterdir()})
    return _MINE


def _columns(con: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in con.execute(f'PRAGMA table_info("{table}")')]


def _mutate(path: Path, mutation: tuple[object, ...]) -> None:
    """One change to the file; a change SQLite refuses (the file is already broken, a
    column that is not there) is skipped: the file is fuzzed as it is."""
    kind = mutation[0]
    if kind in ("flip", "truncate", "wal"):
        data = bytearray(path.read_bytes())
        if kind == "flip" and data:
            data[int(mutation[1]) % len(data)] = int(mutation[2])  # type: ignore[call-overload]
        elif kind == "truncate":
            del data[int(mutation[1]) % (len(data) + 1):]  # type: ignore[call-overload]
        elif len(data) > 20:
            data[18:20] = b"\x02\x02"
        path.write_bytes(bytes(data))
        return
    con = sqlite3.connect(path, isolation_level=None)
    con.text_factory = lambda data: data.decode("utf-8", "replace")
    try:
        table = str(mutation[1])
        cols = _columns(con, table)
        col = f'"{cols[int(mutation[2]) % len(cols)]}"' if cols and len(mutation) > 2 \
            and isinstance(mutation[2], int) else '"x"'
        con.execute("CREATE TABLE IF NOT EXISTS marker (what TEXT)")
        if kind == "trigger":
            con.execute(f'CREATE TRIGGER "t{secrets.token_hex(3)}" {mutation[3]} {mutation[2]} '
                        f"ON \"{table}\" BEGIN INSERT INTO marker VALUES ('ran'); "
                        f"DELETE FROM answers; UPDATE meta SET value = '999'; END")
        elif kind == "view":
            con.execute(f'CREATE VIEW "v{secrets.token_hex(3)}" AS SELECT * FROM "{table}"')
        elif kind == "table":
            con.execute(f'CREATE TABLE IF NOT EXISTS "{table}" (a, b)')
            con.execute(f'INSERT INTO "{table}" VALUES (1, 2)')
        elif kind == "index":
            con.execute(f'CREATE INDEX "i{secrets.token_hex(3)}" ON "{table}" ({col})')
        elif kind == "value":
            con.execute(f'UPDATE "{table}" SET {col} = ?', (mutation[3],))
        elif kind == "drop column":
            con.execute(f'ALTER TABLE "{table}" DROP COLUMN {col}')
        elif kind == "drop table":
            con.execute(f'DROP TABLE "{table}"')
        elif kind == "insert":
            values = list(mutation[2])  # type: ignore[call-overload]
            values = (values + [None] * len(cols))[:len(cols)]
            con.execute(f'INSERT INTO "{table}" VALUES ({", ".join("?" for _ in cols)})',
                        values)
    except (sqlite3.Error, UnicodeDecodeError):
        pass
    finally:
        con.close()


def _tables(path: Path) -> set[str]:
    con = sqlite3.connect(path)
    try:
        return {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        con.close()


def _rows(path: Path, tables: tuple[str, ...], prefix: str = "") -> dict[str, list[str]]:
    """The rows of ``tables`` (the store's columns only), as text, sorted."""
    from pepper_tutor.teaching.learner.store import COLUMNS as LEARNER
    from pepper_tutor.teaching.puzzles.store import COLUMNS as PUZZLES

    columns = {**LEARNER, **{f"puzzles_{t}": c for t, c in PUZZLES.items()}} if prefix \
        else {**PUZZLES, **LEARNER} if "answers" in tables else PUZZLES
    con = sqlite3.connect(path)
    con.text_factory = lambda data: data.decode("utf-8", "replace")  # as the import reads
    try:
        # a number as a float: a REAL column holds the file's whole number 1500 as 1500.0
        return {t: sorted(repr(tuple(float(v) if isinstance(v, int) else v for v in r))
                          for r in con.execute(
            f'SELECT {", ".join(c.name for c in columns[prefix + t])} FROM "{prefix}{t}"'))
            for t in tables}
    finally:
        con.close()


@settings(max_examples=IMPORT_EXAMPLES if FUZZING else CI_IMPORT_EXAMPLES,
          derandomize=not FUZZING, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.integers(0, 6), st.integers(1, 2), st.integers(0, 3),
       st.lists(MUTATIONS, max_size=4))
def test_a_progress_import_is_the_old_store_or_the_whole_new_one(
        answers: int, learners: int, puzzles: int, mutations: list[tuple[object, ...]]
        ) -> None:
    from pepper_tutor.teaching.progress_file import ProgressFileRefused, load_progress
    from pepper_tutor.teaching.puzzles.store import PuzzleStore, store_path

    COUNTS["imports"] += 1
    with tempfile.TemporaryDirectory(dir=MEMORY) as folder:
        home, upload = Path(folder) / "home", Path(folder) / "upload.sqlite"
        upload.write_bytes(_source(answers, learners, puzzles))
        for mutation in mutations:
            _mutate(upload, mutation)
        sent = upload.read_bytes()
        home.mkdir()
        for name, data in _mine().items():
            (home / name).write_bytes(data)
        mine = LearnerStore("me", home)
        before = {p.name: p.read_bytes() for p in home.iterdir()}
        try:
            loaded = load_progress(mine, upload, "upload.sqlite", store_path(home))
        except ProgressFileRefused as refused:
            COUNTS["refused"] += 1
            assert "upload.sqlite" in str(refused) and "\n" not in str(refused)
            assert {p.name: p.read_bytes() for p in home.iterdir()} == before  # the old one
            return
        except ValueError:
            COUNTS["other ValueError"] += 1  # a refusal, but not the one that names the file
            raise
        except Exception:
            COUNTS["not ValueError"] += 1
            raise
        finally:
            assert upload.read_bytes() == sent  # nothing was written into the file
        COUNTS["loaded"] += 1
        # the whole new one: every row of the file's tables, nothing of its code or extras
        fixed = Path(folder) / "fixed.sqlite"
        fixed.write_bytes(sent[:18] + b"\x01\x01" + sent[20:] if sent[18:20] == b"\x02\x02"
                          else sent)
        # seen: a table schema 2 added, which a file may lack (dropped) and still load
        learner_tables = ("learners", "lessons", "answers", "review_cards",
                          *(("seen",) if "seen" in _tables(fixed) else ()))
        assert _rows(home / DB_NAME, learner_tables) == _rows(fixed, learner_tables, "")
        if loaded.puzzles == "loaded":
            assert _rows(store_path(home), PUZZLE_TABLES[1:]) == _rows(
                fixed, PUZZLE_TABLES[1:], "puzzles_")
        for path in (home / DB_NAME, store_path(home)):
            con = sqlite3.connect(path)
            kinds = {r[0] for r in con.execute("SELECT type FROM sqlite_master")}
            assert "marker" not in {r[0] for r in con.execute(
                "SELECT name FROM sqlite_master")}
            con.close()
            assert kinds <= {"table", "index"}
        store = LearnerStore(loaded.learners[0] if loaded.learners else "me", home)
        count = len(store.answers())
        assert store.warning is None and store.record(Attempt("quiz", "tricks", True, ()))
        assert len(store.answers()) == count + 1  # no trigger came: the next answer adds one
        store.close()
        ratings = PuzzleStore("me", home)
        assert ratings.refused is None and ratings.warning is None
        ratings.close()


# ---- the puzzle store, the daily board and game night under the same faults ------------------

STORE_OPS = ("write", "write", "write", "lock", "unlock", "full", "room", "reopen", "spoil",
             "repair")


class _Holder:
    """Another program holding a file's write lock (a database browser with unsaved edits)."""

    def __init__(self) -> None:
        self.con: sqlite3.Connection | None = None

    def lock(self, path: Path) -> bool:
        if self.con is not None or not path.exists():
            return False
        self.con = sqlite3.connect(path, isolation_level=None, timeout=0.01)
        try:
            self.con.execute("BEGIN EXCLUSIVE")
        except sqlite3.OperationalError:
            self.con.close()
            self.con = None
            return False
        return True

    def unlock(self) -> None:
        if self.con is not None:
            self.con.execute("ROLLBACK")
            self.con.close()
            self.con = None


def _spoil(path: Path, sql: str) -> bool:
    con = sqlite3.connect(path, timeout=0.01)
    try:
        changed = con.execute(sql).rowcount > 0
        con.commit()
        return changed
    except sqlite3.OperationalError:  # locked: nothing spoiled
        return False
    finally:
        con.close()


def _full(con: sqlite3.Connection | None) -> None:
    if con is not None:
        pages = con.execute("PRAGMA page_count").fetchone()[0]
        con.execute(f"PRAGMA max_page_count = {max(pages, 1)}")


def _room(con: sqlite3.Connection | None) -> None:
    if con is not None:
        con.execute("PRAGMA max_page_count = 1073741823")


def _fuzzed(name: str) -> Callable[[Callable[[Path, list[str]], None]],
                                   Callable[[list[str]], None]]:
    """A store's fault sequence as a property test: the ops in a fresh folder, counted."""
    def make(run: Callable[[Path, list[str]], None]) -> Callable[[list[str]], None]:
        @settings(max_examples=FUZZ_EXAMPLES if FUZZING else CI_EXAMPLES,
                  derandomize=not FUZZING, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow])
        @given(st.lists(st.sampled_from(STORE_OPS), max_size=25))
        def test(ops: list[str]) -> None:
            COUNTS[f"{name} sequences"] += 1
            COUNTS[f"{name} operations"] += len(ops)
            with tempfile.TemporaryDirectory(dir=MEMORY) as folder:
                run(Path(folder), ops)
                assert not [p for p in Path(folder).iterdir() if ".damaged-" in p.name]
        return test
    return make


@pytest.fixture(autouse=True)
def short_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy file gives up at once here, not after the 5 s a person waits."""
    import pepper_tutor.apps.night.store as night_store
    import pepper_tutor.teaching.practice.daily_board as daily_board
    import pepper_tutor.teaching.puzzles.store as puzzle_store

    for module in (puzzle_store, daily_board):
        monkeypatch.setattr(module, "PERSON_WAIT", 0.01)
    monkeypatch.setattr(night_store, "BUSY_TIMEOUT", 0.01)


@_fuzzed("puzzle store")
def _puzzles_under_faults(home: Path, ops: list[str]) -> None:
    from pepper_tutor.teaching.puzzles.store import PuzzleStore

    def opened() -> PuzzleStore:
        store = PuzzleStore("fuzz", home)
        for said in (store.warning, str(store.refused or "")):
            assert not said or str(store.path) in said, said
        return store
    store, holder, saved, spoiled = opened(), _Holder(), 0, False
    for n, op in enumerate(ops):
        kept = store.refused is None and store.warning is None  # the file, not memory
        store.warning = None
        if op == "write":
            result = store.record(f"p{n}", "ruff", 1500.0, solved=n % 2 == 0)
            assert result.first
            if store.warning is None and kept:
                saved += 1
            else:
                assert store.warning is None or str(store.path) in store.warning
                store.warning = store.warning or "in memory"
        elif op == "lock":
            COUNTS["faults"] += holder.lock(store.path)
        elif op == "unlock":
            holder.unlock()
        elif op == "full" and kept:
            COUNTS["faults"] += 1
            _full(store._con)
        elif op == "room" and kept:
            _room(store._con)
        elif op == "reopen" and holder.con is None:
            store.close()
            store = opened()
        elif op == "spoil" and holder.con is None:
            COUNTS["faults"] += 1
            spoiled |= _spoil(store.path, "UPDATE puzzles SET rating = 'x'")
        elif op == "repair" and holder.con is None and spoiled:
            spoiled = not _spoil(store.path, "UPDATE puzzles SET rating = 1500 "
                                             "WHERE typeof(rating) = 'text'")
        if store.refused is None and store.warning is None:
            store.themes()  # reading never raises
    holder.unlock()
    store.close()
    if spoiled:
        assert opened().refused is not None
        _spoil(store.path, "UPDATE puzzles SET rating = 1500 WHERE typeof(rating) = 'text'")
    final = opened()
    assert final.refused is None and final.warning is None
    assert len(final.tried()) == saved
    final.close()


test_the_puzzle_store_under_faults_loses_nothing_it_said_it_kept = _puzzles_under_faults


@_fuzzed("daily board")
def _daily_under_faults(home: Path, ops: list[str]) -> None:
    from datetime import date, timedelta

    from pepper_tutor.teaching.practice.daily_board import BoardUnreadable, DailyBoard

    path = home / "daily.sqlite"
    board, holder, saved, spoiled = DailyBoard(path), _Holder(), 0, False
    for n, op in enumerate(ops):
        board.warning = None
        if op == "write":
            if board.add(date(2026, 1, 1) + timedelta(days=n), 1, n, -n, "N 4"):
                saved += 1
            else:
                assert board.warning is not None and str(path) in board.warning
        elif op == "lock":
            COUNTS["faults"] += holder.lock(path)
        elif op == "unlock":
            holder.unlock()
        elif op == "reopen":
            board = DailyBoard(path)
        elif op == "spoil" and holder.con is None and path.exists():
            COUNTS["faults"] += 1
            spoiled |= _spoil(path, "UPDATE deals SET net = 'x'")
        elif op == "repair" and holder.con is None and spoiled:
            spoiled = not _spoil(path, "UPDATE deals SET net = -par")
        try:
            board.days(last=100)
        except BoardUnreadable as err:  # the one refusal reading allows: naming the file
            assert spoiled and str(path) in str(err)
    holder.unlock()
    if spoiled:
        _spoil(path, "UPDATE deals SET net = -par")
    assert sum(d.deals for d in DailyBoard(path).days(last=100)) == saved


test_the_daily_board_under_faults_loses_nothing_it_said_it_kept = _daily_under_faults


@_fuzzed("game night")
def _night_under_faults(home: Path, ops: list[str]) -> None:
    from pepper_tutor.apps.night.store import NightError, NightStore
    from pepper_tutor.files.database import fault

    path = home / "friday.sqlite"
    store: NightStore | None = NightStore(path)
    holder, saved = _Holder(), 0
    for n, op in enumerate(ops):
        if op == "write" and store is not None:
            try:
                store.join(f"p{n}")
                saved += 1
            except sqlite3.Error as err:  # the server's 503: busy or full, nothing half-done
                assert fault(err) in ("busy", "full"), err
        elif op == "lock":
            COUNTS["faults"] += holder.lock(path)
        elif op == "unlock":
            holder.unlock()
        elif op == "full" and store is not None:
            COUNTS["faults"] += 1
            _full(store._db)
        elif op == "room" and store is not None:
            _room(store._db)
        elif op == "reopen":
            if store is not None:
                store.close()
            try:
                store = NightStore(path)
            except NightError as err:  # busy: the night does not start, the file is as it was
                assert str(path) in str(err) and holder.con is not None
                store = None
    holder.unlock()
    if store is not None:
        store.close()
    final = NightStore(path)
    assert final.warning is None and len(final.players()) == saved
    final.close()


test_game_night_under_faults_loses_nothing_it_said_it_kept = _night_under_faults
