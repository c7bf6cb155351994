"""Scripted terminal sessions of the tutor (pexpect drives a real pseudo-terminal)."""

import os
import sys

import pexpect
import pytest

from pepper_tutor.teaching.lessons.files import find_lesson

LESSON = find_lesson("bowers")


def spawn(home, *args):
    env = dict(os.environ, PEPPER_TUTOR_HOME=str(home), NO_COLOR="1", COLUMNS="100",
               TERM="dumb")
    return pexpect.spawn(sys.executable, ["-m", "pepper_tutor", *args], env=env,
                         encoding="utf-8", timeout=20, dimensions=(50, 100))


def right_answer(step):
    if step.kind == "rank":
        return " ".join(str(c) for c in step.order())
    if step.kind == "trick-winner":
        return str(step.winner())
    raise AssertionError(step.kind)


def wrong_answer(step):
    if step.kind == "rank":
        return " ".join(str(c) for c in reversed(step.order()))
    return next(str(c) for c in step.trick if c is not step.winner())


@pytest.mark.slow
def test_complete_a_lesson_with_one_mistake(tmp_path):
    child = spawn(tmp_path, "lesson", "bowers")
    mistake_made = False
    queue = [s for s in LESSON.steps]
    reviewed = []
    for step in queue:
        if not step.answerable:
            child.expect("Press Enter to go on")
            child.sendline("")
            continue
        child.expect("> ")
        if not mistake_made and step.kind == "trick-winner":
            child.sendline(wrong_answer(step))
            child.expect("Not quite")
            child.expect("> ")
            # a first miss names no rule: no id, no title ("The left bower" is the answer)
            assert "rank.left-bower" not in child.before
            assert "Rule: " not in child.before
            mistake_made = True
            reviewed.append(step)
        child.sendline(right_answer(step))
        child.expect("Right")
        child.expect("Press Enter for the next step")
        child.sendline("")
    for step in reviewed:  # the missed step comes back once at the end
        child.expect("once more")
        child.expect("> ")
        child.sendline(right_answer(step))
        child.expect("Right")
        child.expect("Press Enter for the next step")
        child.sendline("")
    child.expect("Lesson finished: 8 of 8 solved, 1 mistake")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
def test_interrupt_and_resume_from_saved_progress(tmp_path):
    child = spawn(tmp_path, "lesson", "bowers")
    for step in LESSON.steps[:3]:
        if not step.answerable:
            child.expect("Press Enter to go on")
            child.sendline("")
        else:
            child.expect("> ")
            child.sendline(right_answer(step))
            child.expect("Press Enter for the next step")
            child.sendline("")
    child.expect("step 4 of 10")
    child.expect("> ")
    child.sendcontrol("d")  # end of input: the tutor saves and leaves
    child.expect("Progress saved")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    again = spawn(tmp_path, "lesson", "bowers")
    again.expect(r"step 4 of 10 · solved 1 of 8")
    again.expect("> ")
    again.sendline("q")
    again.expect(pexpect.EOF)
    again.close()
    assert again.exitstatus == 0


@pytest.mark.slow
def test_menu_shows_progress_and_bad_input_is_refused(tmp_path):
    child = spawn(tmp_path)
    child.sendline("")  # no command: help
    child = spawn(tmp_path, "lesson")
    child.expect("Lesson number or id")
    child.sendline("99")
    child.expect("There is no lesson '99'")
    child.expect("Lesson number or id")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def _due_card(home, rule, learner):  # type: ignore[no-untyped-def]
    from datetime import UTC, datetime, timedelta

    from pepper_tutor.teaching.learner.review_cards import ReviewDeck
    from pepper_tutor.teaching.learner.store import LearnerStore

    store = LearnerStore(learner, home)
    ReviewDeck(store).missed([rule], "quiz legal", at=datetime.now(UTC) - timedelta(hours=2))
    return store


@pytest.mark.slow
def test_a_review_session_with_a_wrong_answer(tmp_path):
    import sqlite3

    from pepper_tutor.teaching.learner.review_cards import ReviewDeck
    from pepper_tutor.teaching.learner.store import DB_NAME, LearnerStore
    from pepper_tutor.teaching.review.session import ReviewSession
    from tests.answering import wrong_answer

    store = _due_card(tmp_path, "play.follow-suit", "Жора")
    # the same seed on a copy of the store: the position the tutor will ask (a preview on
    # the store itself would mark it seen, and the tutor would ask a new one)
    (tmp_path / "preview").mkdir()
    src, copy = sqlite3.connect(tmp_path / DB_NAME), sqlite3.connect(tmp_path / "preview" / DB_NAME)
    src.backup(copy)
    src.close()
    copy.close()
    preview = ReviewSession(LearnerStore("Жора", tmp_path / "preview"), seed=11)
    step = preview.question
    child = spawn(tmp_path, "review", "--learner", "Жора", "--seed", "11")
    child.expect("Review: 1 question")
    child.expect(r"a new\s+position")
    child.expect("Type every card you")
    child.expect("> ")
    child.sendline(wrong_answer(step))
    child.expect("Not quite")
    child.expect("The answer:")
    child.expect("Review done: 0 of 1 right")
    child.expect("Progress saved")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    (item,) = ReviewDeck(store).items()
    assert item.lapses == 1 and [a.source for a in store.answers()] == ["review"]

    progress = spawn(tmp_path, "progress", "--learner", "Жора")
    progress.expect("Progress · Жора")
    progress.expect("Rules mastered: 0 of")
    progress.expect("Streak: 1 day")
    progress.expect(pexpect.EOF)


@pytest.mark.slow
def test_a_finished_lesson_opens_finished_and_offers_a_replay(tmp_path):
    from pepper_tutor.teaching.learner.store import LearnerStore
    from pepper_tutor.teaching.lessons.session import LessonSession
    from tests.answering import right_answer as right

    store = LearnerStore("ann", tmp_path)
    s = LessonSession(LESSON, store)
    while not s.finished:
        if s.step.answerable:
            s.answer(right(s.step))
        s.next()
    child = spawn(tmp_path, "lesson", "bowers", "--learner", "ann")
    child.expect(r"You have finished this lesson: finished 1 time; 8 of 8 steps\s+solved")
    child.expect(r"Replay it\? Your record is kept")
    child.sendline("n")
    child.expect(pexpect.EOF)
    assert LessonSession(LESSON, LearnerStore("ann", tmp_path)).finished
    child = spawn(tmp_path, "lesson", "bowers", "--learner", "ann")
    child.expect("Replay it")
    child.sendline("y")
    child.expect("step 1 of 10")
    child.expect("Press Enter to go on")
    child.sendline("q")
    child.expect("Progress saved")
    child.expect(pexpect.EOF)
    again = LessonSession(LESSON, LearnerStore("ann", tmp_path))
    assert again.replays == 1 and again.finished_runs == 1 and not again.finished


@pytest.mark.slow
def test_a_failed_save_is_reported_in_the_terminal(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    child = spawn(blocker / "home", "quiz", "tricks", "--seed", "1", "--count", "1")
    child.expect("Warning: cannot create")
    child.expect("nothing will be saved")
    child.expect("> ")
    child.sendline("q")
    child.expect("Your progress was NOT saved")
    out = child.before or ""
    child.expect(pexpect.EOF)
    assert "Progress saved" not in out


def test_a_save_that_fails_midway_is_reported_and_never_called_saved(tmp_path, monkeypatch):
    import io

    from rich.console import Console

    from pepper_tutor.apps.tutor import run_tutor
    from pepper_tutor.teaching.learner.store import LearnerStore

    real = LearnerStore._prepare

    def prepare(self):  # type: ignore[no-untyped-def]
        real(self)  # opened fine; the disk turns read-only afterwards
        self._connection().execute("PRAGMA query_only = ON")
    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path))
    monkeypatch.setattr(LearnerStore, "_prepare", prepare)
    out = io.StringIO()
    replies = iter(["", "q"])
    run_tutor("bowers", "kim", console=Console(file=out, width=100),
              input_fn=lambda _p: next(replies))
    text = out.getvalue()
    assert "cannot save your lesson progress" in " ".join(text.split())
    assert "Your progress was NOT saved" in text and "Progress saved" not in text


@pytest.mark.slow
def test_the_first_question_shows_what_to_type_and_quiz_answers_are_saved(tmp_path):
    from pepper_tutor.teaching.learner.store import LearnerStore

    child = spawn(tmp_path, "quiz", "score", "--seed", "3", "--count", "2", "--learner", "李雷")
    child.expect(r"Type each side's points, the bidders first,\s+such as")
    child.expect("> ")
    child.sendline("reveal")
    child.expect("The answer")
    child.expect("> ")
    child.sendline("skip")
    child.expect("Done. 0/2 right")
    child.expect(pexpect.EOF)
    saved = LearnerStore("李雷", tmp_path).answers("quiz")
    assert [a.correct for a in saved] == [False, False] and LearnerStore(
        "李", tmp_path).answers() == []


def test_the_menu_offers_the_prerequisite_it_names_then_that_ones_own(tmp_path, monkeypatch):
    """The gate offers the lesson it says is missing (issue 38), and taking it, that
    lesson's own missing one: never a lesson it did not name."""
    import io

    from rich.console import Console

    from pepper_tutor.apps.tutor import run_tutor

    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path))
    out = io.StringIO()
    asked: list[str] = []
    replies = iter(["winning-tricks", "y", "y", "q", "q"])  # q leaves the lesson, then the menu

    def reply(prompt: str) -> str:
        asked.append(prompt)
        return next(replies)

    run_tutor(None, "lu", console=Console(file=out, width=120), input_fn=reply)
    text = out.getvalue()
    assert "Winning tricks builds on following-suit (Following suit), which you have not" in text
    assert asked[1].startswith("Start with following-suit (Following suit) instead?")
    assert "Following suit builds on bowers (Cards and the bowers)" in text
    assert asked[2].startswith("Start with bowers (Cards and the bowers) instead?")
    assert "Cards and the bowers · step 1 of 10" in text  # bowers comes before following-suit
