"""Review cards: one per rule a learner missed, scheduled by FSRS.

Every missed lesson step and quiz question makes (or lapses) the card of each rule it missed;
`fsrs <https://pypi.org/project/fsrs/>`_ says when each card is due again. What a review then
asks is in :mod:`~pepper_tutor.teaching.review.session`.

A judgement missed (a legal call, trump, way of playing, exchange card or defence that the
analysis finds clearly worse, in a judgement drill or at the practice table) breaks no rule:
its card is keyed by the kind and theme of the judgement (:func:`judgement_key`:
``judgement.defend.surrender``, ``judgement.bid.pass``, ``judgement.exchange.partner``), and
a review brings it back as a fresh position of the same kind and theme.
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

__all__ = ["ReviewDeck", "ReviewItem", "question_rules", "missed_rules", "JUDGEMENT",
           "JUDGED", "judgement_key", "judgement_theme", "read_judgement", "judgement_title"]

JUDGEMENT = "judgement"  # the prefix of a judgement card's key
JUDGED = "analysis.double-dummy"  # the rule a judgement's feedback cites (the analysis)

# kind -> theme -> how a learner reads the card's title
_TITLES = {
    "bid": {"bid": "Judging a hand worth a bid", "pass": "Judging a hand to pass"},
    "declare": {"trump": "Judging which trump to name",
                "mode": "Judging the exchange or partner"},
    "exchange": {"bidder": "Judging the bidder's discard",
                 "partner": "Judging the card to send partner"},
    "defend": {"play": "Judging a contract to play against",
               "surrender": "Judging a contract to surrender to"},
}


def judgement_theme(kind: str, accept: Sequence[str], choose: str | None = None,
                    role: str | None = None) -> str:
    """The theme of a judgement position: a call's ``bid`` or ``pass``, declaring's
    ``trump`` or ``mode``, the exchange's ``bidder`` or ``partner``, defence's ``play`` or
    ``surrender`` (from the right answers, as text, and the position's own fields)."""
    if kind == "bid":
        return "pass" if list(accept) == ["pass"] else "bid"
    if kind == "declare":
        return choose or "trump"
    if kind == "exchange":
        return role or "bidder"
    return "surrender" if "surrender" in accept else "play"


def judgement_key(kind: str, theme: str) -> str:
    """``judgement.<kind>.<theme>``: the review card of a judgement missed."""
    return f"{JUDGEMENT}.{kind}.{theme}"


def read_judgement(key: str, origin: str = "") -> tuple[str, str | None] | None:
    """``(kind, theme)`` of a judgement card, or ``None``. Cards from before judgement keys
    (``analysis.double-dummy`` missed in a judgement drill, origin ``quiz defend``) read as
    that kind, any theme."""
    parts = key.split(".")
    if len(parts) == 3 and parts[0] == JUDGEMENT and parts[1] in _TITLES:
        return parts[1], parts[2]
    if key == JUDGED and origin.startswith("quiz "):
        kind = origin[len("quiz "):]
        if kind in _TITLES:
            return kind, None
    return None


def judgement_title(key: str) -> str | None:
    found = read_judgement(key)
    if found is None or found[1] is None:
        return None
    return _TITLES[found[0]].get(found[1])



def question_rules(step: Step[Any]) -> tuple[str, ...]:
    """The rules a question tests: those it cites and those its right answer rests on."""
    ids: tuple[str, ...] = step.cited
    with suppress(TypeError, ValueError, AttributeError, IndexError):
        # a step that explains only a given answer cites enough
        ids = step.rule_ids
    book = get_rulebook()
    return tuple(r for r in ids if r in book)


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
        return judgement_title(self.rule) or get_rulebook().get(self.rule).title


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
