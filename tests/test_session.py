"""The lesson runtime: tries, reveal, requeue, hints, and progress that survives a restart."""

import json

import pytest

from pepper_tutor.rulebook.feedback import AnswerError
from pepper_tutor.teaching.lessons import parse_lesson
from pepper_tutor.teaching.progress import ProgressStore
from pepper_tutor.teaching.session import LessonSession

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
    assert "[rank.left-bower]" in levels[1][1] and "J♦" in levels[2][1]
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
    data = json.loads((tmp_path / "cy.json").read_text())
    assert data["format"] == "pepper-progress/1" and data["lessons"]["mini"]["position"] == 2


def test_a_corrupt_progress_file_is_set_aside_not_fatal(tmp_path):
    (tmp_path / "di.json").write_text("{not json")
    store = ProgressStore("di", tmp_path)
    assert store.warning and "damaged" in store.warning
    assert list(tmp_path.glob("di.corrupt-*.json"))
    s = LessonSession(LESSON, store)
    s.next()
    s.answer("JD")
    assert json.loads((tmp_path / "di.json").read_text())["lessons"]["mini"]["done"] == ["left"]


def test_progress_for_a_changed_lesson_starts_over(tmp_path):
    store = ProgressStore("ed", tmp_path)
    store.lesson("mini").update({"queue": ["gone"], "position": 1})
    assert LessonSession(LESSON, store).position == 0


def test_writes_are_atomic(tmp_path, monkeypatch):
    store = ProgressStore("fay", tmp_path)
    s = LessonSession(LESSON, store)
    s.next()
    s.answer("JD")
    before = (tmp_path / "fay.json").read_text()

    def boom(*_a, **_k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("pepper_tutor.teaching.progress.os.replace", boom)
    s.next()
    assert store.warning and "could not save" in store.warning
    assert (tmp_path / "fay.json").read_text() == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".fay")]
