"""Nothing shown after a first wrong or unreadable answer gives the answer away (issue 37,
item 2): not the example under the question, not the message for an answer that cannot be
read, not the first miss. Over every lesson step and questions of every drill, checked in
every spelling the step's own reader accepts (``-4 3`` is ``NS -4 EW 3``)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from pepper_tutor.engine.rules import get_ruleset
from pepper_tutor.rulebook.feedback import AnswerError
from pepper_tutor.teaching.drills.quiz import JUDGEMENT_KINDS, QUIZ_KINDS, make_question
from pepper_tutor.teaching.drills.screened import ScreenedPool
from pepper_tutor.teaching.lessons.files import all_lessons
from pepper_tutor.teaching.questions.steps import Step
from tests.answering import any_wrong_answer

# answers no step reads, of every shape: words, numbers, a side's name with a verb, a bare
# rank, a bower's name, punctuation
UNREADABLE = ("xyz", "NS lose", "NS  lose", "3", "NS 3", "the nine", "the left bower",
              "5 4 3", "?", "ace of", "left", "seven", "we", "12 12 12", "north west")
# where a message gives an example of what to type
_EXAMPLE = re.compile(r"(?:such as|for example|or just|e\.g\.)\s*:?\s*([^;()]+)")


def _examples(text: str) -> list[str]:
    """The example answers ``text`` gives, each alternative on its own."""
    out = []
    for m in _EXAMPLE.finditer(text):
        for part in re.split(r",\s*or\s+|\s+or\s+|,\s*", m.group(1)):
            part = part.strip(" .")
            if part:
                out.append(part)
    return out


def _right(step: Step[Any], text: str) -> bool:
    try:
        return bool(step.is_right(step.parse(text)))
    except (ValueError, TypeError):
        return False


def _said_after_a_miss(step: Step[Any]) -> list[tuple[str, str]]:
    """(what, text) for each thing shown after an unreadable or a first wrong answer."""
    out = [("the example", step.example())]
    for raw in UNREADABLE:
        try:
            step.read(raw)
        except AnswerError as err:
            out.append((f"unreadable {raw!r}", str(err)))
    choices = [o.value for o in step.options()
               if not o.is_card and not _right(step, str(o.value))]
    wrong = [any_wrong_answer(step), *choices[:3]]
    for raw in wrong:
        try:
            fb = step.first_miss(raw)
        except AnswerError:
            continue
        if not fb.correct:
            out.append((f"first miss {raw!r}", " ".join(fb.facts)))
    return out


def _check(step: Step[Any], where: str) -> list[str]:
    forms = step.answer_forms()
    bad = []
    for what, text in _said_after_a_miss(step):
        # a first miss says nothing of the answer; a message for an unreadable answer may
        # list what the question shows (its cards, the seats, the calls), but an example
        # of what to type is never the answer nor a part of it
        if what.startswith("first miss") and forms.named_in(text):
            bad.append(f"{where}: {what} names the answer: {text}")
        for example in _examples(text):
            if _right(step, example) or forms.named_in(example):
                bad.append(f"{where}: {what} gives the answer as an example: {text}")
        if re.search(r"'[^']*\s{2,}[^']*'", text):
            bad.append(f"{where}: {what} quotes raw input: {text}")
    return bad


def test_no_lesson_step_gives_its_answer_away_after_a_miss() -> None:
    bad = [b for lesson in all_lessons() for s in lesson.answerable_steps
           for b in _check(s, f"{lesson.id}/{s.id}")]
    assert not bad, "\n".join(bad)


def _drill_questions(kind: str, count: int) -> list[Step[Any]]:
    rng = random.Random(f"given-away:{kind}")
    if kind in JUDGEMENT_KINDS:  # the screened positions the drill deals first
        pool = ScreenedPool.for_drill(kind, get_ruleset("standard"), rng)
        assert pool is not None
        drawn = [pool.draw(i + 1) for i in range(count)]
        return [q for q in drawn if q is not None]
    return [make_question(kind, rng, i + 1) for i in range(count)]


@pytest.mark.parametrize("kind", QUIZ_KINDS)
def test_no_drill_question_gives_its_answer_away_after_a_miss(kind: str) -> None:
    bad = [b for i, q in enumerate(_drill_questions(kind, 25))
           for b in _check(q, f"{kind} #{i}")]
    assert not bad, "\n".join(bad)


def test_the_score_example_is_never_the_answer() -> None:
    """Lesson 4 gave "NS -4 EW 3, or -4 3" as its example where that was the answer."""
    from pepper_tutor.teaching.lessons.files import find_lesson

    for lesson in all_lessons():
        for s in lesson.answerable_steps:
            if s.kind == "score":
                assert not _right(s, s.example().split("such as ")[1].split(",")[0]), s.id
    step = next(s for s in find_lesson("defending").answerable_steps if s.kind == "score")
    with pytest.raises(AnswerError) as err:
        step.read("NS  lose 3")
    assert "'NS lose' is not a side here" in str(err.value)
