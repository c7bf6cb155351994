"""One answer, one transaction: the answer row, its review cards and the lesson's progress are
written together by LearnerStore.record, from every kind of session."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pepper_tutor.teaching.drills.quiz import QuizSession
from pepper_tutor.teaching.learner.attempts import Attempt, LessonProgress
from pepper_tutor.teaching.learner.review_cards import ReviewDeck
from pepper_tutor.teaching.learner.store import LearnerStore
from pepper_tutor.teaching.lessons.files import find_lesson
from pepper_tutor.teaching.lessons.session import LessonSession
from pepper_tutor.teaching.review.session import ReviewSession
from tests.answering import right_answer, wrong_answer


@pytest.fixture
def transactions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every BEGIN sent to SQLite by a connection opened from here on."""
    began: list[str] = []
    real = sqlite3.connect

    def connect(*args: object, **kwargs: object) -> sqlite3.Connection:
        con = real(*args, **kwargs)  # type: ignore[arg-type]
        con.set_trace_callback(
            lambda sql: began.append(sql) if sql.lstrip().upper().startswith("BEGIN") else None)
        return con

    monkeypatch.setattr(sqlite3, "connect", connect)
    return began


def _one_transaction(began: list[str], act: object) -> None:
    before = len(began)
    act()  # type: ignore[operator]
    assert len(began) - before == 1, began[before:]


def test_a_wrong_lesson_answer_is_one_transaction_with_its_card_and_progress(
        tmp_path: Path, transactions: list[str]) -> None:
    store = LearnerStore("ann", tmp_path)
    session = LessonSession(find_lesson("bowers"), store)
    while not session.step.answerable:
        session.next()
    step = session.step
    _one_transaction(transactions, lambda: session.answer(wrong_answer(step)))
    (row,) = store.answers("lesson")
    assert not row.correct and row.item == f"bowers/{step.id}"
    assert {i.rule for i in ReviewDeck(store).items()} == set(row.rules)
    saved = store.lesson("bowers")
    assert saved is not None and saved.mistakes == {step.id: 1}
    # a second try is judged and saves the progress, still in one transaction, not counted
    _one_transaction(transactions, lambda: session.answer(right_answer(step)))
    assert len(store.answers("lesson")) == 1
    assert step.id in store.lesson("bowers").done  # type: ignore[union-attr]


def test_a_quiz_answer_and_a_review_answer_are_one_transaction_each(
        tmp_path: Path, transactions: list[str]) -> None:
    store = LearnerStore("bo", tmp_path)
    quiz = QuizSession("tricks", seed=4, store=store)
    q = quiz.question
    _one_transaction(transactions, lambda: quiz.answer(wrong_answer(q)))
    assert [a.correct for a in store.answers("quiz")] == [False]
    missed = {i.rule for i in ReviewDeck(store).items()}
    assert missed
    later = datetime.now(UTC) + timedelta(days=2)
    review = ReviewSession(store, seed=1, at=later)
    item, asked = review.item, review.question
    assert item is not None and asked is not None
    before = ReviewDeck(store).items()
    _one_transaction(transactions, lambda: review.answer(right_answer(asked)))
    after = {i.rule: i for i in ReviewDeck(store).items()}
    assert after[item.rule].due > {i.rule: i for i in before}[item.rule].due  # pushed out
    assert [a.item for a in store.answers("review")] == [item.rule]


def test_an_answer_whose_card_cannot_be_written_keeps_nothing(tmp_path: Path) -> None:
    store = LearnerStore("cy", tmp_path)
    progress = LessonProgress(queue=("a", "b"), position=1, done=frozenset({"a"}))
    attempt = Attempt("lesson", "mini/a", False, ("rank.left-bower",),
                      missed=("rank.left-bower",), origin="lesson mini/a", lesson="mini",
                      progress=progress)
    con = sqlite3.connect(tmp_path / "learners.sqlite")
    con.execute("CREATE TRIGGER no_cards BEFORE INSERT ON review_cards "
                "BEGIN SELECT RAISE(ABORT, 'the card cannot be written'); END")
    con.commit()
    assert store.record(attempt) is False
    assert store.warning and "could not save your answer" in store.warning
    assert store.answers() == [] and store.lesson("mini") is None  # nothing half-saved
    con.execute("DROP TRIGGER no_cards")
    con.commit()
    con.close()
    assert store.record(attempt)
    assert len(store.answers()) == 1 and len(ReviewDeck(store).items()) == 1
    assert store.lesson("mini") == progress


def test_lesson_progress_round_trips_and_merges_like_two_windows() -> None:
    mine = LessonProgress(queue=("a", "b", "c"), position=2, done=frozenset({"a"}),
                          mistakes={"a": 1}, run=0, finished_runs=1, solved=frozenset({"a"}))
    assert LessonProgress.from_json(mine.to_json()) == mine
    theirs = LessonProgress(queue=("a", "b", "c"), position=1, done=frozenset({"b"}),
                            mistakes={"a": 2, "b": 1}, solved=frozenset({"b"}), replays=0)
    merged = mine.merged_with(theirs)
    assert merged.position == 2 and merged.done == {"a", "b"}
    assert merged.mistakes == {"a": 2, "b": 1} and merged.solved == {"a", "b"}
    replayed = LessonProgress(queue=("a", "b", "c"), run=1, replays=1)
    assert mine.merged_with(replayed).run == 1  # the other window started a replay
    assert mine.merged_with(replayed).finished_runs == 1  # and the record only grows
    with pytest.raises(ValueError):
        LessonProgress.from_json({"record": 3})
