"""Which rules a learner can meet in a question: per step, per lesson, per quiz kind.

A rule is reachable from a question when the question cites it (its hint ladder and reveal
quote it) or when some answer a learner can give gets feedback resting on it. For judgement
steps the analysis is not run: a legal answer the author wrote no note for is explained from
the analysis, which rests on ``analysis.double-dummy``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from pepper_tutor.engine.cards import NotationError
from pepper_tutor.rulebook.book import get_rulebook
from pepper_tutor.rulebook.feedback import AnswerError
from pepper_tutor.teaching.lessons.files import Lesson
from pepper_tutor.teaching.questions.choice_steps import ChoiceStep
from pepper_tutor.teaching.questions.steps import Step

__all__ = ["step_rule_ids", "lesson_rule_ids", "quiz_rule_ids", "explained_rule_ids",
           "rulebook_ids"]


def rulebook_ids() -> list[str]:
    return [r.id for r in get_rulebook()]


def _answers(step: Step[Any]) -> list[Any]:
    return [o.value for o in step.options()] + list(step.wrong)


def step_rule_ids(step: Step[Any]) -> set[str]:
    """The rules this question step can put in front of a learner."""
    if not step.answerable:
        return set()
    ids = set(step.cited) | set(step.reveal().rule_ids)
    for raw in _answers(step):
        try:
            if isinstance(step, ChoiceStep):
                answer = step.parse(raw)
                verdict = step.verdict(answer)
                ids.update(verdict.rule_ids)
                if (verdict.legal and answer not in step.accept and step.has_analysis
                        and not step.wrong.get(step.key(answer))):
                    ids.add("analysis.double-dummy")
            else:
                ids.update(step.judge(raw).rule_ids)
        except (AnswerError, NotationError, ValueError):
            continue
    return ids


def lesson_rule_ids(lessons: Iterable[Lesson]) -> set[str]:
    return {rid for lesson in lessons for step in lesson.steps for rid in step_rule_ids(step)}


def explained_rule_ids(lessons: Iterable[Lesson]) -> set[str]:
    """Rules cited by explain steps: where a rule cannot be asked, the lesson says why."""
    return {rid for lesson in lessons for step in lesson.steps if not step.answerable
            for rid in step.cited}


def quiz_rule_ids(kinds: Sequence[str], questions: int = 40, seed: int = 1,
                  per_kind: dict[str, int] | None = None) -> dict[str, set[str]]:
    """For each quiz kind, the rules its generated questions reach (``questions`` of each,
    or ``per_kind[kind]``)."""
    from pepper_tutor.teaching.drills.quiz import make_question

    out: dict[str, set[str]] = {}
    for kind in kinds:
        rng = random.Random(seed)
        ids: set[str] = set()
        for n in range(1, (per_kind or {}).get(kind, questions) + 1):
            q = make_question(kind, rng, n)
            ids |= set(q.rule_ids) | step_rule_ids(q)
        out[kind] = ids
    return out
