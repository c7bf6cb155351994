"""Only damage is damage: every store under the faults a real machine has.

Locked (another connection holding ``BEGIN EXCLUSIVE``, as a database browser with unsaved
edits does), full (``PRAGMA max_page_count`` on the store's own connection: SQLite then fails
exactly as on a full disk, ``SQLITE_FULL``, deterministically; and a real 1 MB tmpfs where
this machine lets the tests mount one), read-only, someone else's file, a newer schema, rows
that cannot be read, and ``kill -9`` between an answer and its review card.

Read-only: the tests run as root, where ``chmod`` stops no write. So a read-only file is made
by opening every connection with the URI ``mode=ro`` (SQLite then refuses each write with
``SQLITE_READONLY``, as for a file the user cannot write), and, where the file system allows
it, for real with ``chattr +i`` (which stops root too).
"""

from __future__ import annotations

import collections
import itertools
import multiprocessing
import os
import random
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path

import pytest

import pepper_tutor.apps.night.store as night_store
import pepper_tutor.files.database as database
import pepper_tutor.teaching.learner.store as learner_store
import pepper_tutor.teaching.practice.history as history_module
from pepper_tutor.apps.night.store import NightError, NightStore
from pepper_tutor.teaching.learner.attempts import Attempt, LessonProgress
from pepper_tutor.teaching.learner.progress import progress_summary
from pepper_tutor.teaching.learner.review_cards import ReviewDeck
from pepper_tutor.teaching.learner.store import DB_NAME, STORE, LearnerStore
from pepper_tutor.teaching.practice.daily_board import BoardUnreadable, DailyBoard
from pepper_tutor.teaching.practice.history import HistoryUnreadable, TableHistory
from pepper_tutor.teaching.practice.table import PracticeTable
from pepper_tutor.teaching.puzzles.store import PuzzleStore
from tests.deadline import in_time

MISS = Attempt("quiz", "tricks", False, ("play.trick-winner",), missed=("play.trick-winner",),
               origin="quiz tricks")
RIGHT = Attempt("quiz", "tricks", True, ("play.trick-winner",))


@pytest.fixture(autouse=True)
def short_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy file gives up after 0.2 s here, not the 5 s a person waits."""
    monkeypatch.setattr(learner_store, "PERSON_WAIT", 0.2)
    monkeypatch.setattr(history_module, "PERSON_WAIT", 0.2)


@contextmanager
def held(path: Path) -> Iterator[None]:
    """Another program holds the file's write lock (a database browser with unsaved edits)."""
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        con.execute("ROLLBACK")
        con.close()


def names(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


def fill(store: LearnerStore) -> None:
    """The disk is full from now on, for the store's connection."""
    con = store._connection()
    pages = con.execute("PRAGMA page_count").fetchone()[0]
    con.execute(f"PRAGMA max_page_count = {pages}")


def a_learner_with_progress(home: Path) -> LearnerStore:
    store = LearnerStore("ann", home)
    for _ in range(3):
        assert store.record(MISS)
    assert store.record(RIGHT)
    assert store.save_progress("bowers", LessonProgress(queue=("a", "b"), done=frozenset("a")))
    return store


# ---- locked ------------------------------------------------------------------------------------

def test_a_busy_store_says_cannot_save_now_and_keeps_the_answer(tmp_path: Path) -> None:
    store = a_learner_with_progress(tmp_path)
    before = names(tmp_path)
    with held(store.path):
        assert store.record(MISS) is False
        assert store.warning is not None
        assert store.warning.startswith("cannot save your answer now: another program is "
                                        f"using {store.path}")
        assert "nothing changed" in store.warning and store.unsaved == 1
        assert store.record(RIGHT) is False and store.unsaved == 2  # kept in order
        assert names(tmp_path) == before  # nothing set aside, -wal and -shm where they were
        assert len(store.answers()) == 4  # the progress is still shown
    assert store.record(RIGHT)  # saves the two kept answers first, then this one
    assert store.unsaved == 0
    assert [a.correct for a in LearnerStore("ann", tmp_path).answers()] == [
        False, False, False, True, False, True, True]
    assert LearnerStore("ann", tmp_path).review_cards()["play.trick-winner"][2] == 3


def test_answers_kept_while_busy_are_saved_at_close(tmp_path: Path) -> None:
    store = a_learner_with_progress(tmp_path)
    with held(store.path):
        assert store.record(MISS) is False
    store.close()
    assert len(LearnerStore("ann", tmp_path).answers()) == 5


def test_a_store_busy_at_opening_shows_the_progress_and_renames_nothing(tmp_path: Path) -> None:
    a_learner_with_progress(tmp_path).close()
    before = names(tmp_path)
    with held(tmp_path / DB_NAME):
        store = LearnerStore("ann", tmp_path)
        assert store.warning and "cannot open your progress now" in store.warning
        assert str(tmp_path / DB_NAME) in store.warning
        assert len(store.answers()) == 4 and store.lesson("bowers") is not None
        assert store.record(MISS) is False
        assert names(tmp_path) - {f"{DB_NAME}-wal", f"{DB_NAME}-shm"} == before
    assert store.record(MISS) and len(store.answers()) == 6


# ---- full ----------------------------------------------------------------------------------------

def test_a_full_disk_says_so_keeps_the_file_and_the_answer(tmp_path: Path) -> None:
    store = a_learner_with_progress(tmp_path)
    before = names(tmp_path)
    fill(store)
    big = Attempt("quiz", "tricks", False, tuple(f"rule.{i}" * 40 for i in range(200)),
                  missed=tuple(f"rule.{i}" * 40 for i in range(200)))
    assert store.record(big) is False
    assert store.warning and "the disk that holds" in store.warning
    assert str(store.path) in store.warning and "nothing changed" in store.warning
    assert names(tmp_path) == before and (tmp_path / DB_NAME).stat().st_size > 0
    assert len(store.answers()) == 4  # nothing half-written
    store._connection().execute("PRAGMA max_page_count = 1073741823")  # room again
    assert store.record(RIGHT)
    assert len(store.answers()) == 6 and len(store.review_cards()) == 201


def _mount_tmpfs(folder: Path, size: str) -> bool:
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                          capture_output=True)
    return done.returncode == 0


def test_a_real_full_disk_at_opening_renames_nothing(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    if not _mount_tmpfs(disk, "1m"):
        pytest.skip("cannot mount a tmpfs here")
    try:
        a_learner_with_progress(disk).close()
        (disk / "filler").write_bytes(b"")
        with suppress_full(), (disk / "filler").open("ab") as filler:
            while True:
                filler.write(b"\0" * 4096)
                filler.flush()
        before = names(disk)
        store = LearnerStore("ann", disk)
        # SQLite cannot even make the -shm file it reads a WAL database through: it says
        # so, and keeps the answer for later; nothing is renamed, nothing left at 0 bytes.
        assert store.warning and str(disk / DB_NAME) in store.warning
        assert "nothing changed" in store.warning
        assert store.record(MISS) is False and store.unsaved == 1
        assert names(disk) <= before | {f"{DB_NAME}-wal", f"{DB_NAME}-shm"}
        assert not any(".damaged-" in n for n in names(disk))
        assert (disk / DB_NAME).stat().st_size > 0
        (disk / "filler").unlink()  # room again: the kept answer goes in with the next
        assert store.record(RIGHT) and len(store.answers()) == 6
        store.close()
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


@contextmanager
def suppress_full() -> Iterator[None]:
    try:
        yield
    except OSError as err:
        assert err.errno == 28  # ENOSPC: the disk is full, as wanted


# ---- read-only -----------------------------------------------------------------------------------

@pytest.fixture
def read_only_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every connection of the foundation opens its file with ``mode=ro``."""
    real = database.connect

    def connect(path: Path, **kwargs: object) -> sqlite3.Connection:
        kwargs["read_only"] = True
        return real(path, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(database, "connect", connect)
    monkeypatch.setattr(learner_store, "connect", connect)


def test_a_read_only_store_shows_the_progress(tmp_path: Path, request: pytest.FixtureRequest
                                              ) -> None:
    a_learner_with_progress(tmp_path).close()
    before = (tmp_path / DB_NAME).read_bytes()
    request.getfixturevalue("read_only_files")
    store = LearnerStore("ann", tmp_path)
    assert store.warning == (f"{tmp_path / DB_NAME} is read-only: your progress is shown, but "
                             "nothing new will be saved")
    assert not store.ok
    assert len(store.answers()) == 4 and store.lesson("bowers") is not None
    assert progress_summary(store).practised  # not 0 progress
    assert store.record(MISS) is False
    assert (tmp_path / DB_NAME).read_bytes() == before
    assert not list(tmp_path.glob("*.damaged-*"))


def test_a_file_even_root_cannot_write_shows_the_progress(tmp_path: Path) -> None:
    a_learner_with_progress(tmp_path).close()
    path = tmp_path / DB_NAME
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here")
    try:
        store = LearnerStore("ann", tmp_path)
        assert len(store.answers()) == 4
        assert store.record(MISS) is False
        assert store.warning and f"{path} is read-only" in store.warning
        assert not list(tmp_path.glob("*.damaged-*"))
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


# ---- someone else's file, a newer one ------------------------------------------------------------

def test_a_foreign_file_with_its_own_meta_table_is_never_written(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE meta (version INTEGER)")  # another program's meta
    con.execute("INSERT INTO meta VALUES (7)")
    con.commit()
    con.close()
    before = path.read_bytes()
    store = LearnerStore("bo", tmp_path)
    assert store.warning and "not a pepper-tutor database" in store.warning
    (aside,) = tmp_path.glob(f"{DB_NAME}.damaged-*")
    assert aside.read_bytes() == before
    assert not list(tmp_path.glob(f"{DB_NAME}.damaged-*-wal"))  # no WAL was turned on in it
    assert store.record(RIGHT)


def _newer(path: Path, version: int = 2) -> bytes:
    """Mark ``path`` as written by a later version (``version``: above the store's own)."""
    con = sqlite3.connect(path)
    con.execute(f"UPDATE meta SET value = '{version}' WHERE key = 'schema'")
    con.execute("CREATE TABLE IF NOT EXISTS badges (x)")  # what a newer version might add
    con.commit()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return path.read_bytes()


def test_a_newer_store_is_neither_written_nor_set_aside(tmp_path: Path) -> None:
    a_learner_with_progress(tmp_path).close()
    newer = STORE.version + 1  # the store is at version 2 (the positions seen)
    before = _newer(tmp_path / DB_NAME, newer)
    store = LearnerStore("ann", tmp_path)
    assert store.warning and (f"written by a newer pepper-tutor (schema {newer}; this one "
                              f"knows {STORE.version})") in store.warning \
        and str(tmp_path / DB_NAME) in store.warning
    assert store.record(MISS) is False and store.save_progress("x", LessonProgress()) is False
    store.close()
    assert (tmp_path / DB_NAME).read_bytes() == before
    assert not list(tmp_path.glob("*.damaged-*"))


def test_a_newer_or_busy_night_does_not_start_and_is_left_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(night_store, "BUSY_TIMEOUT", 0.2)
    path = tmp_path / "friday.sqlite"
    NightStore(path).close()
    with held(path), pytest.raises(NightError, match="another program is using"):
        NightStore(path)
    before = _newer(path)
    with pytest.raises(NightError, match="newer pepper-tutor"):
        NightStore(path)
    assert path.read_bytes() == before and names(tmp_path) <= {
        "friday.sqlite", "friday.sqlite-wal", "friday.sqlite-shm"}


# ---- rows that cannot be read --------------------------------------------------------------------

def _spoil(path: Path, sql: str) -> None:
    con = sqlite3.connect(path)
    con.execute(sql)
    con.commit()
    con.close()


@pytest.mark.parametrize(("sql", "where"), [
    ("UPDATE review_cards SET card = '{}'", "the review card of rule 'play.trick-winner'"),
    ("UPDATE review_cards SET card = 'nope'", "the review card of rule 'play.trick-winner'"),
    ("UPDATE review_cards SET card = 42", "the review card of rule 'play.trick-winner'"),
    ("UPDATE lessons SET state = '[1]'", "the progress of lesson 'bowers'"),
    ("UPDATE lessons SET state = '{\"queue\": 5, \"done\": 3}'", "the progress of lesson"),
    ("UPDATE answers SET rules = '{' WHERE id = 2", "answer 2"),
    ("UPDATE answers SET rules = '5' WHERE id = 2", "answer 2"),
    ("UPDATE answers SET at = 'yesterday' WHERE id = 2", "answer 2"),
])
def test_one_bad_row_is_reported_and_skipped(tmp_path: Path, sql: str, where: str) -> None:
    a_learner_with_progress(tmp_path).close()
    _spoil(tmp_path / DB_NAME, sql)
    store = LearnerStore("ann", tmp_path)
    summary = progress_summary(store)  # what `pepper-tutor progress` shows: no crash
    ReviewDeck(store).items()
    store.lessons()
    assert store.warning is not None
    bad = [w for w in store.warnings if where in w]
    assert len(bad) == 1, store.warnings  # said once, however often it is read
    assert bad[0].startswith(f"{tmp_path / DB_NAME}: ") and "cannot be read" in bad[0]
    assert "card_id'" not in bad[0] or "is missing" in bad[0]  # never a bare 'card_id'
    assert len(store.answers()) >= 3 and summary is not None
    assert store.record(MISS)  # the learner goes on, and a miss makes the card anew
    assert "play.trick-winner" in store.review_cards()


def test_the_progress_command_survives_a_bad_card(tmp_path: Path) -> None:
    a_learner_with_progress(tmp_path).close()
    _spoil(tmp_path / DB_NAME, "UPDATE review_cards SET card = '{}'")
    env = {**os.environ, "PEPPER_TUTOR_HOME": str(tmp_path), "COLUMNS": "200"}
    for command in ("progress", "review"):
        done = subprocess.run(
            [os.sys.executable, "-m", "pepper_tutor.apps.cli", command, "--learner", "ann"],
            capture_output=True, text=True, env=env, input="quit\n", timeout=60)
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr and "internal error" not in done.stderr
        said = " ".join((done.stdout + done.stderr).split())
        assert "the review card of rule 'play.trick-winner' in the table review_cards cannot " \
            "be read ('card_id' is missing)" in said


# ---- the practice history ------------------------------------------------------------------------

def test_a_busy_history_keeps_the_hand_until_the_table_closes(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite"
    table = PracticeTable(seed=3, coach=False, history=TableHistory(path), auto=True,
                          level="beginner")
    assert table.history is not None
    table.history.add_hand("standard", "S", "club", "first", 1, [])
    with held(path):
        table.play_bots()
        table.finish_hand()
        assert table.history.unsaved == 1
        assert table.history.warning and "cannot save to your practice history now" in \
            table.history.warning and str(path) in table.history.warning
        assert names(tmp_path) <= {"table.sqlite", "table.sqlite-wal", "table.sqlite-shm"}
    table.close()  # at the end of the session: saved now
    assert table.history_news == ("Your practice history is saved again, with the 1 hand "
                                  "kept meanwhile.")
    assert TableHistory(path).hands()[0].contract == "first"
    assert len(TableHistory(path).hands()) == 2


def test_a_busy_history_through_the_table(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite"
    TableHistory(path).add_hand("standard", "S", "club", "before", 0, [])
    table = PracticeTable(seed=5, coach=False, history=TableHistory(path), auto=True,
                          level="beginner")
    with held(path):
        table.play_bots()
        table.finish_hand()  # not internal error: OperationalError, not exit 1
        assert table.history_news and "kept to be saved" in table.history_news
        table.new_hand()
        table.play_bots()
        table.finish_hand()
        assert table.history_news and "2 hands are kept" in table.history_news
    table.new_hand()
    table.play_bots()
    table.finish_hand()  # the kept hands go first
    assert table.history_news == ("Your practice history is saved again, with the 2 hands "
                                  "kept meanwhile.")
    assert len(TableHistory(path).hands()) == 4


def test_a_newer_history_raises_nothing_into_a_running_table(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite"
    history = TableHistory(path)
    history.add_hand("standard", "S", "club", "one", 0, [])
    _newer(path, 3)  # the history is at version 2 (its matches)
    history._set_up = False  # as if it had not been opened yet this session
    assert history.add_hand("standard", "S", "club", "two", 0, []) is None
    assert history.warning and "newer pepper-tutor" in history.warning
    with pytest.raises(HistoryUnreadable):
        TableHistory(path)


# ---- kill -9 between an answer and its review card -----------------------------------------------

def _answer_wrong_forever(home: str, seed: int) -> None:
    from pepper_tutor.teaching.drills.quiz import QuizSession
    from tests.answering import wrong_answer

    store = LearnerStore("kim", Path(home))
    quiz = QuizSession(kind=("tricks", "legal", "bowers")[seed % 3], seed=seed, store=store)
    while True:
        step = quiz.next_question()
        quiz.answer(wrong_answer(step))


def test_kill_9_between_an_answer_and_its_card_loses_nothing(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork")  # forked: no import time, so kills land in work
    rng = random.Random(27)
    answered = 0
    for cycle in range(15):
        child = ctx.Process(target=_answer_wrong_forever, args=(str(tmp_path), cycle))
        child.start()
        time.sleep(rng.uniform(0.02, 0.25))
        os.kill(child.pid or 0, signal.SIGKILL)
        child.join(10)
        assert child.exitcode == -signal.SIGKILL
        store = LearnerStore("kim", tmp_path)
        assert store.warning is None  # opens clean: nothing set aside
        con = sqlite3.connect(tmp_path / DB_NAME)
        assert con.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        con.close()
        answers = store.answers()
        assert len(answers) >= answered  # nothing committed was lost
        answered = len(answers)
        misses = collections.Counter(r for a in answers if not a.correct for r in a.rules)
        cards = store.review_cards()
        # Each miss of a rule made its card (the first) or lapsed it (each later one): an
        # answer row without its card change would break the count.
        assert {rule: cards[rule][2] for rule in misses} == {
            rule: n - 1 for rule, n in misses.items()}
        store.close()
    assert answered > 15  # the kills landed among answers, not only before the first



def test_a_busy_history_at_the_terminal_table_keeps_the_hand(tmp_path: Path) -> None:
    """`pepper-tutor play` with table.sqlite held by another program: once `internal error:
    OperationalError`, exit 1, and the hand's history lost."""
    import io

    from rich.console import Console

    from pepper_tutor.apps.table import TableApp, _action

    path = tmp_path / "table.sqlite"
    TableHistory(path).add_hand("standard", "S", "club", "before", 0, [])
    table = PracticeTable(seed=11, coach=False, history=TableHistory(path), level="beginner")
    out = io.StringIO()
    lock = held(path)
    lock.__enter__()
    after = 0

    def reply(prompt: str) -> str:
        nonlocal after
        if prompt.startswith("Enter: next hand"):
            after += 1
            if after == 1:
                return ""  # the next hand: this one's history cannot be saved now
            lock.__exit__(None, None, None)  # the other program lets go
            return "quit"
        return _action(table.legal()[0], True).plain

    code = TableApp(table, Console(file=out, width=200), reply, True).run()
    said = " ".join(out.getvalue().split())
    assert code == 0 and after == 2
    assert f"cannot save to your practice history now: another program is using {path}" \
        in said and "1 hand is kept to be saved with the next one" in said
    assert "Your practice history is saved again, with the 1 hand kept meanwhile." in said
    assert len(TableHistory(path).hands()) == 3


# ---- not a regular file: a FIFO, a folder, in any store's place ------------------------------

def _learner(path: Path) -> str:
    store = LearnerStore("ann", path.parent)
    assert store.record(MISS) is False and not store.ok
    store.close()
    return store.warning or ""


def _history(path: Path) -> str:
    with pytest.raises(HistoryUnreadable) as caught:
        TableHistory(path)
    return str(caught.value)


def _daily(path: Path) -> str:
    board = DailyBoard(path)
    assert board.add(date(2026, 12, 2), 1, 3, 1, "N 4") is False
    with pytest.raises(BoardUnreadable) as caught:
        board.days()
    return f"{board.warning} / {caught.value}"


def _puzzles(path: Path) -> str:
    store = PuzzleStore("ann", path=path)
    assert store.refused is not None
    store.record("p1", "draw-trumps", 1500.0, solved=False)  # kept for this session
    assert len(store.tried()) == 1
    store.close()
    return str(store.refused)


def _night(path: Path) -> str:
    with pytest.raises(NightError) as caught:
        NightStore(path)
    return str(caught.value)


STORES: dict[str, tuple[str, Callable[[Path], str]]] = {
    "learner store": (DB_NAME, _learner),
    "practice history": ("table.sqlite", _history),
    "daily board": ("daily.sqlite", _daily),
    "puzzle store": ("puzzles.sqlite", _puzzles),
    "game night": ("friday.sqlite", _night),
}


@pytest.mark.parametrize("store", sorted(STORES))
@pytest.mark.parametrize(("kind", "words"), [("fifo", "a FIFO (named pipe)"),
                                             ("folder", "a directory"),
                                             ("wal fifo", "a FIFO (named pipe)")])
def test_a_store_that_is_not_a_regular_file_is_refused_at_once(
        tmp_path: Path, store: str, kind: str, words: str) -> None:
    name, use = STORES[store]
    path = tmp_path / name
    if kind == "wal fifo":  # a good store, with a FIFO where SQLite opens its log
        sqlite3.connect(path).close()
        os.mkfifo(f"{path}-wal")
        shown = Path(f"{path}-wal")
    elif kind == "fifo":
        os.mkfifo(path)
        shown = path
    else:
        path.mkdir()
        shown = path
    said = str(in_time(lambda: use(path)))
    assert f"{shown} is {words}, not a regular file" in said, said
    assert names(tmp_path) == {p.name for p in [path, shown]}  # nothing renamed or made


def test_the_foundation_refuses_a_device_before_sqlite_opens_it() -> None:
    with pytest.raises(database.NotAFile, match="/dev/zero is a character device"):
        in_time(lambda: database.connect(Path("/dev/zero")))


# ---- kill -9 in the middle of the other stores' work, and of a progress import --------------

def _killed_again_and_again(work: Callable[[int, Callable[[], None]], None],
                            check: Callable[[], int], cycles: int = 10, seed: int = 35) -> int:
    """``work(cycle, done)`` in a forked process killed with SIGKILL at a random moment after
    its first unit of work (it calls ``done()`` after each: on a loaded machine a fixed delay
    could kill every child before it did anything), then ``check()`` (which asserts the store
    is whole and returns how much it holds: never less than before, nothing committed is
    lost), ``cycles`` times; the last count."""
    ctx = multiprocessing.get_context("fork")  # forked: no import time, so kills land in work
    rng = random.Random(seed)
    held = 0
    for cycle in range(cycles):
        started = ctx.Event()
        child = ctx.Process(target=work, args=(cycle, started.set))
        child.start()
        assert started.wait(60), "the child did no work in 60 s"
        time.sleep(rng.uniform(0.0, 0.2))
        os.kill(child.pid or 0, signal.SIGKILL)
        child.join(10)
        assert child.exitcode == -signal.SIGKILL
        count = check()
        assert count >= held
        held = count
    return held


def _whole(path: Path) -> None:
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    con.close()
    assert not list(path.parent.glob("*.damaged-*"))


def test_kill_9_in_the_puzzle_store_loses_nothing(tmp_path: Path) -> None:
    def work(cycle: int, done: Callable[[], None]) -> None:
        store = PuzzleStore("kim", tmp_path)
        for i in itertools.count():
            store.record(f"c{cycle}-{i}", ("draw-trumps", "ruff")[i % 2], 1400.0 + i,
                         solved=i % 3 == 0)
            done()

    def check() -> int:
        store = PuzzleStore("kim", tmp_path)
        assert store.warning is None and store.refused is None
        con = sqlite3.connect(store.path)
        firsts, plays = con.execute("SELECT (SELECT COUNT(*) FROM attempts WHERE first = 1), "
                                    "(SELECT COALESCE(SUM(plays), 0) FROM puzzles)").fetchone()
        con.close()
        assert firsts == plays  # each attempt with its puzzle's rating: one transaction
        store.close()
        _whole(store.path)
        return int(firsts)
    assert _killed_again_and_again(work, check) > 10


def test_kill_9_on_the_daily_board_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "daily.sqlite"

    def work(cycle: int, done: Callable[[], None]) -> None:
        board = DailyBoard(path)
        for i in itertools.count():
            assert board.add(date(2000 + cycle, 1, 1) + timedelta(days=i // 4), i % 4 + 1,
                             i, -i, "N 4")
            done()

    def check() -> int:
        board = DailyBoard(path)
        days = board.days(last=100_000)
        assert board.warning is None and board.open()
        assert all(d.net == -d.par for d in days)
        _whole(path)
        return sum(d.deals for d in days)
    assert _killed_again_and_again(work, check) > 10


def test_kill_9_at_game_night_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "friday.sqlite"

    def work(cycle: int, done: Callable[[], None]) -> None:
        store = NightStore(path)
        for i in itertools.count():
            store.join(f"p{cycle}-{i}")
            # each deal once a day (a deal already on the board is not written again)
            deal = cycle * 1_000_000 + i
            store.add_daily("2026-12-02", deal, {"N": f"p{cycle}-{i}"}, i, -i, "N 4", "{}")
            done()

    def check() -> int:
        store = NightStore(path)
        assert store.warning is None
        players = store.players()
        dealt = {d["seats"]["N"] for d in store.daily_deals("2026-12-02")}
        # a join, then its deal: a kill can come between the two, so each killed writer may
        # leave its last player without a deal, and only that one
        joined: dict[str, list[int]] = {}
        for player in players:
            cycle, i = player.name.removeprefix("p").split("-")
            joined.setdefault(cycle, []).append(int(i))
        for cycle, numbers in joined.items():
            missing = [i for i in numbers if f"p{cycle}-{i}" not in dealt]
            assert missing in ([], [max(numbers)]), (cycle, missing)
        store.close()
        _whole(path)
        return len(players)
    assert _killed_again_and_again(work, check) > 10


def test_kill_9_during_a_progress_import_leaves_the_old_or_the_new(tmp_path: Path) -> None:
    """Two progress files loaded in turn, killed anywhere: the stores open clean, each the
    whole of one file (3 answers and 1 puzzle, or 6 answers and 2 puzzles), never a mix of
    rows, and no scratch folder is left for long."""
    from pepper_tutor.teaching import progress_file
    from pepper_tutor.teaching.progress_file import load_progress, progress_bytes
    from pepper_tutor.teaching.puzzles.store import store_path

    files = []
    for answers, learner in ((3, "ann"), (6, "bea")):
        source = LearnerStore(learner, tmp_path / learner)
        for _ in range(answers):
            source.record(MISS)
        puzzles = PuzzleStore(learner, source.home)
        for i in range(answers // 3):
            puzzles.record(f"p{i}", "ruff", 1500.0, solved=False)
        puzzles.close()
        files.append(tmp_path / f"{learner}.sqlite")
        files[-1].write_bytes(progress_bytes(source, store_path(source.home)))
    home = tmp_path / "home"
    loaded: set[str] = set()

    def work(cycle: int, done: Callable[[], None]) -> None:
        progress_file.STALE_SCRATCH = 0  # each import clears what a killed one left
        for i in itertools.count(cycle):
            load_progress(LearnerStore("x", home), files[i % 2], "p.sqlite", store_path(home))
            done()

    def check() -> int:
        con = sqlite3.connect(home / DB_NAME) if (home / DB_NAME).exists() else None
        if con is None:
            return 0
        names = [r[0] for r in con.execute("SELECT name FROM learners ORDER BY name")]
        con.close()
        for learner, answers in (("ann", 3), ("bea", 6)):
            if learner in names:
                store = LearnerStore(learner, home)
                assert store.warning is None and len(store.answers()) == answers
                store.close()
        assert names in ([], ["ann"], ["bea"], ["ann", "x"], ["bea", "x"], ["x"])
        loaded.update(names)
        ratings = PuzzleStore("x", home)
        assert ratings.refused is None and ratings.warning is None
        con = sqlite3.connect(ratings.path)
        tried = con.execute("SELECT learner, COUNT(*) FROM attempts GROUP BY learner"
                            ).fetchall()
        con.close()
        assert tried in ([], [("ann", 1)], [("bea", 2)])  # one file's puzzles, whole
        ratings.close()
        _whole(home / DB_NAME)
        return 0
    _killed_again_and_again(work, check)
    assert loaded & {"ann", "bea"}  # the kills landed after imports, not only before
    scratch = list(home.glob(".import-*"))
    assert len(scratch) <= 1  # at most the last killed one's, cleared at the next import


def test_a_command_whose_progress_is_not_kept_ends_non_zero(tmp_path: Path, monkeypatch,
                                                          capsys) -> None:
    """A FIFO where the learner store belongs: the progress is shown (empty) with the
    warning, and the command's status says nothing is kept; a home of its own: 0."""
    from pepper_tutor.apps.cli import main

    fifo_home = tmp_path / "fifo"
    fifo_home.mkdir()
    os.mkfifo(fifo_home / "learners.sqlite")
    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(fifo_home))
    assert main(["progress"]) == 1
    assert "nothing will be saved" in capsys.readouterr().out.replace("\n", " ")
    assert main(["review"]) == 1
    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path / "fine"))
    assert main(["progress"]) == 0
    assert main(["review"]) == 0
