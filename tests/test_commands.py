"""Commands or answers: a line that answers the step in front of the learner is the answer.

Each front end is driven through its real loop with an input function: ``S`` where South
played the winning card is South, in a quiz, a lesson step and a review."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from rich.console import Console

from pepper_tutor.apps.tutor import Tutor, run_quiz
from pepper_tutor.engine.seats import Seat
from pepper_tutor.teaching.learner.review_cards import ReviewDeck
from pepper_tutor.teaching.learner.store import LearnerStore
from pepper_tutor.teaching.lessons.files import find_lesson
from pepper_tutor.teaching.lessons.session import LessonSession
from pepper_tutor.teaching.questions.commands import STEP_COMMANDS, answers, read_command
from pepper_tutor.teaching.questions.steps import TrickWinnerStep
from pepper_tutor.teaching.review.session import ReviewSession


def _inputs(*replies: str):  # type: ignore[no-untyped-def]
    it = iter(replies)
    return lambda _prompt: next(it)


def _south_wins(step: object) -> bool:
    return (isinstance(step, TrickWinnerStep) and bool(step.seats)
            and step.seats[step.trick.index(step.winner())] is Seat.S)


def test_s_answers_a_quiz_where_south_wins(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path))
    out = io.StringIO()
    run_quiz("tricks", seed=5, count=1, console=Console(file=out, width=100),
             input_fn=_inputs("S"), learner="sam")
    text = out.getvalue()
    assert "Right." in text and "1/1 right" in text
    assert [a.correct for a in LearnerStore("sam", tmp_path).answers("quiz")] == [True]


def test_s_answers_a_lesson_step_where_south_wins(tmp_path: Path) -> None:
    store = LearnerStore("sam", tmp_path)
    session = LessonSession(find_lesson("following-suit"), store)
    while not _south_wins(session.step):
        session.next()
    step = session.step
    assert step is not None
    out = io.StringIO()
    tutor = Tutor(store, Console(file=out, width=100), _inputs("S", ""))
    assert tutor.run_step(session, step) == "moved"
    assert "Right." in out.getvalue() and step.id in session.done


def test_s_answers_a_review_where_south_wins(tmp_path: Path) -> None:
    def missed_once(home: Path) -> LearnerStore:
        store = LearnerStore("sam", home)
        ReviewDeck(store).missed(["play.trick-winner"], "quiz tricks",
                                 at=datetime.now(UTC) - timedelta(hours=2))
        return store

    # Each seed is looked at in a store of its own: a review remembers the positions it has
    # dealt, so looking in the learner's store would change what its review deals.
    seed = next(s for s in range(200)
                if _south_wins(ReviewSession(missed_once(tmp_path / f"probe{s}"), s).question))
    store = missed_once(tmp_path / "sam")
    out = io.StringIO()
    tutor = Tutor(store, Console(file=out, width=100), _inputs("S"))
    assert tutor.review(seed)
    assert "Review done: 1 of 1 right" in out.getvalue()


def test_a_command_where_it_answers_nothing_and_the_colon_always() -> None:
    assert read_command("hint", STEP_COMMANDS, lambda _r: False) == "hint"
    assert read_command("  Q ", STEP_COMMANDS, lambda _r: False) == "quit"
    assert read_command("q", STEP_COMMANDS, lambda _r: True) is None  # the queen, say
    assert read_command("s", STEP_COMMANDS, lambda _r: False) is None  # never a bare skip
    assert read_command(":s", STEP_COMMANDS, lambda _r: True) == "skip"
    assert read_command(":q", STEP_COMMANDS, lambda _r: True) == "quit"
    assert read_command("JH", STEP_COMMANDS, lambda _r: True) is None
    lesson = find_lesson("following-suit")
    south = next(s for s in lesson.steps if _south_wins(s))
    assert read_command("S", STEP_COMMANDS, answers(south.parse)) is None


def test_rules_takes_free_words_and_names_the_left_bower_first(
        capsys: pytest.CaptureFixture[str]) -> None:
    from pepper_tutor.apps.cli import main
    from pepper_tutor.rulebook.book import get_rulebook

    assert get_rulebook().search("left bower")[0].id == "rank.left-bower"
    assert main(["--ascii", "rules", "left", "bower"]) == 0
    out = capsys.readouterr().out
    assert out.index("rank.left-bower") < out.index("rank.trump") if "rank.trump" in out \
        else "rank.left-bower" in out
    assert main(["rules", "bowr"]) == 2
    assert "did you mean" in capsys.readouterr().err
    assert main(["rules", ""]) == 2
