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

from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler, State

from ...rulebook.book import get_rulebook
from ...rulebook.feedback import Feedback
from ..questions.steps import Step
from .store import LearnerStore

__all__ = ["ReviewDeck", "ReviewItem", "question_rules", "missed_rules"]

SCHEDULER = Scheduler(enable_fuzzing=False)  # the same answers, the same schedule


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

    def _rate(self, rule: str, rating: Rating, origin: str, at: datetime | None,
              create: bool) -> bool:
        when = aware(at)

        def update(old: str | None) -> tuple[str, str, bool]:
            if old is None:
                if not create:
                    raise _NoCard
                card = FsrsCard()
            else:
                card = FsrsCard.from_json(old)
            lapsed = old is not None and rating is Rating.Again
            card, _log = SCHEDULER.review_card(card, rating, review_datetime=when)
            return card.to_json(), card.due.isoformat(), lapsed
        try:
            return self.store.update_card(rule, update, origin)
        except _NoCard:
            return False

    def missed(self, rules: Sequence[str], origin: str, at: datetime | None = None) -> None:
        """A wrong answer: a new card for each rule, or a lapse of the card it has."""
        for rule in rules:
            self._rate(rule, Rating.Again, origin, at, create=True)

    def reviewed(self, rule: str, correct: bool, at: datetime | None = None) -> None:
        """A review answered: right pushes the card further out, wrong brings it back soon."""
        self._rate(rule, Rating.Good if correct else Rating.Again, "", at, create=False)

    def items(self) -> list[ReviewItem]:
        out = []
        for rule, (text, origin, lapses) in self.store.review_cards().items():
            card = FsrsCard.from_json(text)
            out.append(ReviewItem(rule, card.due, origin, lapses, State(card.state).name.lower()))
        return sorted(out, key=lambda i: i.due)

    def due(self, at: datetime | None = None) -> list[ReviewItem]:
        now = aware(at)
        return [i for i in self.items() if i.due <= now]


class _NoCard(Exception):
    pass
