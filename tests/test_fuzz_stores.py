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
import sqlite3
import tempfile
from collections import Counter
from collections.abc import Iterator
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
COUNTS: Counter[str] = Counter()

OPS = ("miss", "right", "progress", "lock", "unlock", "full", "room", "reopen", "bad_card",
       "bad_lesson", "bad_answer")


@pytest.fixture(scope="module", autouse=True)
def report_counts() -> Iterator[None]:
    yield
    if FUZZING:
        print(f"\nstore fuzz: {COUNTS['sequences']} sequences, {COUNTS['operations']} "
              f"operations, {COUNTS['faults']} faults")


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
