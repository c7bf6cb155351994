"""Review cards: one per rule a learner missed, scheduled by FSRS.

Every missed lesson step and quiz question makes (or lapses) the card of each rule it missed;
`fsrs <https://pypi.org/project/fsrs/>`_ says when each card is due again. What a review then
asks is in :mod:`~pepper_tutor.teaching.review.session`.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ...rulebook.book import get_rulebook
from ...rulebook.feedback import Feedback
from ..questions.steps import Step
from .attempts import Attempt
from .scheduling import due_and_state
from .store import LearnerStore

__all__ = ["ReviewDeck", "ReviewItem", "question_rules", "missed_rules"]



def question_rules(step: Step[Any]) -> tuple[str, ...]:
    """The rules a question tests: those it cites and those its right answer rests on."""
    ids = list(step.cited)
    with suppress(TypeError, ValueError, AttributeError, IndexError):
        # a step that explains only a given answer cites enough
        ids += list(step.explain_right(None)[1])
    book = get_rulebook()
    return tuple(r for r in dict.fromkeys(ids) if r in book)


def missed_rules(step: Step[Any], feedback: Feedback) -> tuple[str, ...]:
    """The rules a wrong answer missed: those the feedback names, else those the step tests."""
    book = get_rulebook()
    named = tuple(r for r in dict.fromkeys(feedback.rule_ids) if r in book)
    return named or question_rules(step)


@dataclass(frozen=True)
class ReviewItem:
    rule: str
    due: datetime
    origin: str  # where it was first missed: "lesson bowers/left-1", "quiz tricks"
    lapses: int
    state: str  # learning, review, relearning

    @property
    def title(self) -> str:
        return get_rulebook().get(self.rule).title


def aware(at: datetime | None) -> datetime:
    return at if at is not None else datetime.now(UTC)


class ReviewDeck:
    """The learner's review cards, one per rule, scheduled by FSRS."""

    def __init__(self, store: LearnerStore):
        self.store = store

    def missed(self, rules: Sequence[str], origin: str, at: datetime | None = None) -> bool:
        """Rules missed outside a counted answer: a new card for each, or a lapse of the card
        it has. (A session's own misses go with the answer, in its :class:`Attempt`.)"""
        return self.store.record(Attempt("review", origin, False, counts=False,
                                         missed=tuple(rules), origin=origin, at=at))

    def reviewed(self, rule: str, correct: bool, at: datetime | None = None) -> bool:
        """A due card rated outside a counted answer: right pushes it further out, wrong
        brings it back soon."""
        return self.store.record(Attempt("review", rule, correct, counts=False, reviewed=rule,
                                         at=at))

    def items(self) -> list[ReviewItem]:
        out = []
        for rule, (text, origin, lapses) in self.store.review_cards().items():
            due, state = due_and_state(text)
            out.append(ReviewItem(rule, due, origin, lapses, state))
        return sorted(out, key=lambda i: i.due)

    def due(self, at: datetime | None = None) -> list[ReviewItem]:
        now = aware(at)
        return [i for i in self.items() if i.due <= now]
