"""Grading the cards of a hand against perfect play (double dummy).

Before each card the position is solved with every hand visible, for the side of the player
to move; a card that leaves that side fewer tricks than the best card would "costs" the
difference. The grade is a finding with the facts, marked with the usual glyphs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from ..engine.cards import Card
from ..engine.seats import Seat
from ..engine.state import HandState
from .advice import Advice, OptionAdvice
from .solver import TranspositionTable, solve_state

__all__ = ["CardGrade", "grade_card", "glyph_for_cost", "GradingTables", "Grade", "ERRORS",
           "GRADE_THRESHOLDS", "THRESHOLDS", "DecisionGrade", "grade_decision",
           "grade_for_loss"]

GradingTables = dict[frozenset[int], TranspositionTable]


def glyph_for_cost(cost: int) -> str:
    return "" if cost <= 0 else "?" if cost == 1 else "??"


@dataclass(frozen=True)
class CardGrade:
    seat: Seat
    card: Card
    cost: int
    best: tuple[Card, ...]
    side: tuple[Seat, ...]
    with_best: int  # the side's tricks in the whole hand with a best card, then best play
    with_card: int  # ... with the card played, then best play

    @property
    def glyph(self) -> str:
        return glyph_for_cost(self.cost)


def _side(state: HandState, seat: Seat) -> frozenset[int]:
    rules = state.rules
    if not rules.partnerships:
        return frozenset({int(seat)})
    return frozenset(int(s) for s in state.active_seats if s.team == seat.team)


def grade_card(state: HandState, card: Card, tables: GradingTables | None = None) -> CardGrade:
    """Grade ``card`` for the player to move in ``state`` (which must be in the play phase
    and allow the card)."""
    seat = state.to_act
    assert seat is not None
    side = _side(state, seat)
    table = None
    if tables is not None:
        table = tables.setdefault(side, TranspositionTable())
    solution = solve_state(state, side_seats=side, table=table)
    best_tricks = solution.won_before + max(v.tricks for v in solution.values)
    return CardGrade(seat, card, solution.cost(card), solution.best_cards,
                     tuple(Seat(s) for s in sorted(side)), best_tricks,
                     solution.won_before + solution.value(card))


# ---- grading a decision against sampled advice ----------------------------------------------

class Grade(StrEnum):
    """How good a decision was, by the expected points it loses against the best one: the
    one grade vocabulary of the coach, the table, its history and the drills. A ``StrEnum``,
    so a grade is its own text (``"Mistake"``) in a record, a JSON file or an SQL row."""

    BEST = "Best"
    GOOD = "Good"
    INACCURACY = "Inaccuracy"
    MISTAKE = "Mistake"
    BLUNDER = "Blunder"

    @property
    def glyph(self) -> str:
        """The annotation glyph a record carries for this grade (none for Best and Good)."""
        return _GLYPHS.get(self, "")

    @property
    def is_error(self) -> bool:
        """Inaccuracies, mistakes and blunders: the decisions the review comes back to."""
        return self in ERRORS


_GLYPHS = {Grade.INACCURACY: "?!", Grade.MISTAKE: "?", Grade.BLUNDER: "??"}
ERRORS = (Grade.INACCURACY, Grade.MISTAKE, Grade.BLUNDER)

GRADE_THRESHOLDS = (0.05, 0.3, 0.75, 1.5)
"""Expected points lost (against the best option) below which a choice is Best, Good,
Inaccuracy, Mistake; at or above the last it is a Blunder."""

THRESHOLDS: tuple[tuple[float, Grade], ...] = tuple(zip(GRADE_THRESHOLDS, Grade, strict=False))
"""Upper bounds (exclusive) of expected points lost, checked in order, with their grades."""


@dataclass(frozen=True)
class DecisionGrade:
    """How a choice compares with the analysis's best: expected points lost, with a 95%
    interval, and the grade by :data:`GRADE_THRESHOLDS`."""

    grade: Grade
    loss: float
    low: float
    high: float
    chosen: str  # the option's label
    best: str

    def __str__(self) -> str:
        if self.grade is Grade.BEST:
            return f"Best: {self.chosen}"
        return (f"{self.grade}: {self.chosen} loses {self.loss:.2f} points on average "
                f"(95% interval {self.low:.2f} to {self.high:.2f}) against {self.best}")


def grade_for_loss(loss: float) -> Grade:
    """The grade of a choice that loses ``loss`` expected points against the best."""
    for limit, grade in THRESHOLDS:
        if loss < limit:
            return grade
    return Grade.BLUNDER


def grade_decision(advice: Advice, option: OptionAdvice | object) -> DecisionGrade:
    """Grade ``option`` (one of the advice's options, or the action taken: a card, a bid, a
    trump, ...) by the expected points it loses against the best option (by net where
    known, else by points). The interval combines the two options' intervals as if
    independent, so it errs wide."""
    if not isinstance(option, OptionAdvice):
        found = advice.choice(option)
        if found is None:
            raise ValueError(f"the advice has no option for {option}")
        option = found
    best = advice.best
    mine = option.net if option.net is not None and best.net is not None else option.score
    top = best.net if option.net is not None and best.net is not None else best.score
    loss = max(0.0, top.mean - mine.mean)
    half = math.hypot(top.half_width, mine.half_width)
    if option is best:
        loss, half = 0.0, 0.0
    return DecisionGrade(grade_for_loss(loss), loss, loss - half, loss + half, option.label,
                         best.label)
