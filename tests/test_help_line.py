"""The terminal's help line is said once, and the colon only where it applies (issue 38).

The colon clause ("Here s is an answer: put : before a command ...") belongs on a step where
a command's letter answers the question (a seat step reads s as South); every other step of
every lesson and every quiz kind gets the commands alone, and only the first time."""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from rich.console import Console

from pepper_tutor.apps.tutor import ASK_COMMANDS, Tutor
from pepper_tutor.rulebook.feedback import AnswerError
from pepper_tutor.teaching.drills.quiz import QUIZ_KINDS, make_question
from pepper_tutor.teaching.learner.store import LearnerStore
from pepper_tutor.teaching.lessons.files import all_lessons
from pepper_tutor.teaching.questions.commands import STEP_COMMANDS, command_help
from pepper_tutor.teaching.questions.steps import Step

STEPS = [step for lesson in all_lessons() for step in lesson.answerable_steps]
QUESTIONS = [make_question(kind, random.Random(7), 1) for kind in QUIZ_KINDS]


def _reads(step: Step[Any], text: str) -> bool:
    try:
        step.parse(text)
    except (AnswerError, ValueError):
        return False
    return True


def _tutor(tmp_path: Any) -> Tutor:
    return Tutor(LearnerStore("kim", tmp_path), Console(file=io.StringIO(), width=100))


@pytest.mark.parametrize("step", STEPS + QUESTIONS,
                         ids=[f"{s.kind}-{i}" for i, s in enumerate(STEPS + QUESTIONS)])
def test_the_colon_is_named_only_where_a_letter_answers(step: Step[Any], tmp_path: Any) -> None:
    letters = [x for c in STEP_COMMANDS for x in (*c.short, *c.prefixed) if x.isalpha()]
    clash = [x for x in letters if _reads(step, x)]
    line = _tutor(tmp_path).step_help(step)
    if clash:
        assert f"Here {clash[0]} is an answer: type :{clash[0]} for the command." in line
    else:
        assert "is an answer" not in line and ": type :" not in line
    assert "S is South where South played" not in line
    # the commands and the colon in under 30 words, after what to type
    assert len(re.findall(r"[a-z]+", line.removeprefix(step.example()), re.I)) <= 25


def test_a_seat_step_names_the_colon_and_a_card_step_does_not(tmp_path: Any) -> None:
    seat = next(s for s in STEPS if s.kind == "trick-winner" and bool(getattr(s, "seats", None)))
    tutor = _tutor(tmp_path)
    assert "Here s is an answer" in tutor.step_help(seat)
    score = next(s for s in STEPS if s.kind == "score")
    assert "is an answer" not in _tutor(tmp_path).step_help(score)


def test_the_commands_are_said_once_a_session(tmp_path: Any) -> None:
    tutor = _tutor(tmp_path)
    score = [s for s in STEPS if s.kind == "score"]
    first = tutor.step_help(score[0])
    assert command_help(STEP_COMMANDS) in first
    again = tutor.step_help(score[1])
    assert "hint (h)" not in again and again == score[1].example() + "."
    # the colon, where it first applies, without the commands again; then not again
    seats = [s for s in STEPS if s.kind == "trick-winner" and getattr(s, "seats", None)]
    note = "Here s is an answer: type :s for the command."
    assert tutor.step_help(seats[0]) == f"{seats[0].example()}. {note}"
    assert tutor.step_help(seats[1]) == f"{seats[1].example()}."
    # a list of commands not yet shown is shown once
    assert command_help(ASK_COMMANDS) in tutor.step_help(score[0], ASK_COMMANDS)
