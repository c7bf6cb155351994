"""The lesson runtime: tries, reveal, requeue, hints, and progress that survives a restart."""

import pytest

from pepper_tutor.rulebook.book import get_rule
from pepper_tutor.rulebook.feedback import AnswerError
from pepper_tutor.teaching.learner.attempts import LessonProgress
from pepper_tutor.teaching.learner.store import LearnerStore as ProgressStore
from pepper_tutor.teaching.lessons.files import parse_lesson
from pepper_tutor.teaching.lessons.session import LessonSession

LESSON = parse_lesson("""format: pepper-lesson/1
id: mini
title: Mini
steps:
  - kind: explain
    id: intro
    text: Hearts are trumps.
  - kind: trick-winner
    id: left
    trump: H
    trick: [JD, AH, 9S, QH]
  - kind: rank
    id: order
    trump: H
    cards: [AH, JD, JH]
  - kind: score
    id: four
    bid: 4
    tricks: 4
""", "mini.yaml")


def answers(session):
    step = session.step
    return {"left": "JD", "order": "JH JD AH", "four": "NS 4 EW 2"}[step.id]


def test_a_wrong_answer_comes_back_later_and_reveal_after_two_tries(tmp_path):
    s = LessonSession(LESSON, ProgressStore("ann", tmp_path))
    assert not s.step.answerable and s.can_advance
    s.next()
    fb = s.answer("AH")
    assert not fb.correct and not fb.revealed and not s.can_advance
    fb = s.answer("QH")
    assert fb.revealed and s.can_advance and "the J♦ wins" in fb.text
    assert s.queue[-1] == "left" and s.queue.count("left") == 2
    s.next()
    s.answer(answers(s))
    s.next()
    s.answer(answers(s))
    s.next()
    assert s.is_review and s.step.id == "left"
    assert s.answer("JD").correct
    s.next()
    assert s.finished and s.progress() == (3, 3)
    assert s.mistakes == {"left": 2}


def test_hint_ladder_ends_in_the_answer_and_counts_as_reveal(tmp_path):
    s = LessonSession(LESSON, ProgressStore("bo", tmp_path))
    s.next()
    levels = [s.hint() for _ in range(4)]
    assert [lvl for lvl, _ in levels] == [1, 2, 3, 3]
    # the rule's text, in a player's words: no id outside the rule ids view
    assert get_rule("rank.left-bower").text in levels[1][1] and "J♦" in levels[2][1]
    assert "[rank.left-bower]" not in levels[1][1]
    assert s.status.revealed and s.answer("JD").correct
    assert "left" not in s.done  # shown the answer: it must be earned again in review


def test_unreadable_answers_count_nothing():
    s = LessonSession(LESSON)
    s.next()
    with pytest.raises(AnswerError):
        s.answer("banana")
    assert s.status.tries == 0


def test_progress_survives_a_restart(tmp_path):
    store = ProgressStore("cy", tmp_path)
    s = LessonSession(LESSON, store)
    s.next()
    s.answer("JD")
    s.next()
    again = LessonSession(LESSON, ProgressStore("cy", tmp_path))
    assert again.position == 2 and again.done == {"left"} and again.step.id == "order"
    assert ProgressStore("cy", tmp_path).lesson("mini").position == 2


def test_progress_for_a_changed_lesson_starts_over(tmp_path):
    store = ProgressStore("ed", tmp_path)
    store.save_progress("mini", LessonProgress(queue=("gone",), position=1))
    assert LessonSession(LESSON, store).position == 0


def _finish(s):
    while not s.finished:
        if s.step.answerable:
            s.answer(answers(s))
        s.next()


def test_a_finished_lesson_reopens_finished_and_a_replay_keeps_the_record(tmp_path):
    s = LessonSession(LESSON, ProgressStore("gus", tmp_path))
    s.next()
    s.answer("AH")  # one mistake on the way
    _finish(s)
    looked = LessonSession(LESSON, ProgressStore("gus", tmp_path))
    assert looked.finished and looked.finished_runs == 1 and looked.progress() == (3, 3)
    del looked  # opening and leaving changes nothing
    again = LessonSession(LESSON, ProgressStore("gus", tmp_path))
    assert again.finished and again.mistakes == {"left": 1}
    again.replay()
    assert again.position == 0 and again.is_replay and again.done == set()
    resumed = LessonSession(LESSON, ProgressStore("gus", tmp_path))
    assert resumed.replays == 1 and resumed.ever_solved == {"left", "order", "four"}
    _finish(resumed)
    final = LessonSession(LESSON, ProgressStore("gus", tmp_path))
    assert final.finished_runs == 2 and final.replays == 1
    assert final.record_text() == "finished 2 times (1 replay); 3 of 3 steps solved"


def test_back_to_a_solved_step_keeps_next_open(tmp_path):
    s = LessonSession(LESSON, ProgressStore("hal", tmp_path))
    s.next()
    s.answer("JD")
    s.next()
    s.back()
    assert s.step.id == "left" and s.can_advance
    s.next()
    assert s.step.id == "order" and not s.can_advance


def test_a_full_count_says_the_missed_steps_still_to_come_back():
    """'solved 8 of 8' while missed steps are queued said the lesson was done (issue 38)."""
    from pepper_tutor.teaching.lessons.files import find_lesson
    from tests.answering import right_answer, wrong_answer

    lesson = find_lesson("bowers")
    session = LessonSession(lesson)
    missed = 0
    while not session.is_review:
        step = session.step
        if step.answerable and missed < 3:
            session.answer(wrong_answer(step))
            missed += 1
        if step.answerable:
            session.answer(right_answer(step))
        session.next()
    done, total = session.progress()
    assert done == total  # each was solved at its second try
    assert session.progress_text() == f"solved {total} of {total} · 3 missed steps to try again"
    session.answer(right_answer(session.step))
    session.next()
    assert session.progress_text().endswith("· 2 missed steps to try again")
    while not session.finished:
        session.answer(right_answer(session.step))
        session.next()
    assert session.progress_text() == f"solved {total} of {total}"
