"""The terminal lesson loop: quitting a lesson goes back to the menu, and "Press Enter" takes
only Enter (issue 23, item 5). Driven through the tutor's own input function."""

import io

from rich.console import Console

from pepper_tutor.apps.tutor import run_tutor
from pepper_tutor.teaching.learner.store import LearnerStore
from pepper_tutor.teaching.lessons.files import find_lesson
from pepper_tutor.teaching.lessons.session import LessonSession
from tests.answering import right_answer

LESSON = find_lesson("bowers")


def drive(home, monkeypatch, replies, name=None):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(home))
    out = io.StringIO()
    asked: list[str] = []
    feed = iter(replies)

    def reply(prompt: str) -> str:
        asked.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    code = run_tutor(name, "kim", console=Console(file=out, width=100), input_fn=reply)
    return code, out.getvalue(), asked


def test_quitting_a_lesson_returns_to_the_menu(tmp_path, monkeypatch):
    code, text, asked = drive(tmp_path, monkeypatch, ["1", "q", "q"])
    assert code == 0
    menus = [p for p in asked if p.startswith("Lesson number or id")]
    assert len(menus) == 2  # the menu again after the lesson was left
    assert "Lesson paused" in text and "Progress saved" in text


def test_junk_at_press_enter_is_not_taken_as_enter(tmp_path, monkeypatch):
    first = LESSON.steps[0]
    assert not first.answerable
    code, text, asked = drive(tmp_path, monkeypatch, ["xyz", "q"], name="bowers")
    assert code == 0
    assert "'xyz' is not a choice here" in text
    assert [p.startswith("Press Enter to go on") for p in asked] == [True, True]
    # the step was not passed over: the lesson still stands at its first step
    assert LessonSession(LESSON, LearnerStore("kim", tmp_path)).position == 0


def test_junk_after_an_answer_is_asked_again_and_more_opens_the_whole_panel(
        tmp_path, monkeypatch):
    steps = LESSON.steps
    k = next(i for i, s in enumerate(steps) if s.answerable)
    replies = [""] * k + [right_answer(steps[k]), right_answer(steps[k]), "more", "", "q"]
    code, text, asked = drive(tmp_path, monkeypatch, replies, name="bowers")
    assert code == 0 and "is not a choice here" in text
    after = [p for p in asked if p.startswith("Press Enter for the next step")]
    assert len(after) == 3  # the answer typed twice and "more" did not move on
    assert LessonSession(LESSON, LearnerStore("kim", tmp_path)).position == k + 1
