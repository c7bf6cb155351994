"""Grading the cards of a hand against perfect play (double dummy), and decisions against
the sampled advice.

Before each card the position is solved with every hand visible, for the side of the player
to move; a card that leaves that side fewer tricks than the best card would "costs" the
difference. The grade is a finding with the facts, marked with the usual glyphs.

A decision made without seeing the other hands (a call, the declaration, the exchange, the
defense, a card) is graded by :func:`grade_decision` against the advice: by the net points it
loses against the best option, with the loss's 95% interval paired over the same deals, and
a grade only as severe as that interval allows (:func:`grade_for_interval`: the interval's
near end, and "too close to call", at worst an Inaccuracy, when it spans from a good choice
to a mistake). :func:`grade_choice` deals enough deals (:data:`GRADING_SAMPLES`), seeded
from the position, so that the same choice graded twice gets the same grade.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from ..engine.cards import Card
from ..engine.seats import Seat
from ..engine.state import HandState, IllegalActionError, Phase
from .advice.auction import SolvedDeals
from .advice.calls import advise_bid
from .advice.dispatch import advise
from .advice.report import Advice, OptionAdvice
from .solver import TranspositionTable, solve_state
from .view import SeatView

__all__ = ["CardGrade", "grade_card", "glyph_for_cost", "GradingTables", "Grade", "ERRORS",
           "GRADE_THRESHOLDS", "THRESHOLDS", "DecisionGrade", "grade_decision",
           "grade_for_loss", "grade_for_interval", "grade_choice", "GRADING_SAMPLES", "SURE"]

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
    and allow the card: else :class:`~pepper_tutor.engine.state.IllegalActionError`, a
    ``ValueError``, with the state as it was)."""
    if not isinstance(state, HandState):
        raise IllegalActionError(f"grade_card grades a card of a HandState, not "
                                 f"{type(state).__name__}")
    seat = state.to_act
    if state.phase is not Phase.PLAY or seat is None:
        raise IllegalActionError(f"grade_card grades a card in play; the hand is "
                                 f"{state.phase}")
    if type(card) is not Card:
        raise IllegalActionError(f"grade_card grades a Card, not {type(card).__name__}")
    legal = [c for c in state.legal_actions() if isinstance(c, Card)]
    if card not in legal:
        raise IllegalActionError(f"{seat.word} may not play the {card.display} now (the "
                                 f"cards allowed: {' '.join(c.display for c in legal)})")
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
    interval, and the grade the interval allows (see :func:`grade_decision`). ``close``:
    the interval spans too many grades to call (the grade is then an Inaccuracy at worst,
    the near end of what the figures allow)."""

    grade: Grade
    loss: float
    low: float
    high: float
    chosen: str  # the option's label
    best: str
    close: bool = False
    samples: int = 0  # the deals the loss was measured on

    def __str__(self) -> str:
        if self.grade is Grade.BEST and self.loss == 0.0:
            return f"Best: {self.chosen}"
        close = ", too close to call" if self.close else ""
        return (f"{self.grade}: {self.chosen} loses {self.loss:.2f} points on average "
                f"(95% interval {self.low:.2f} to {self.high:.2f}{close}) against {self.best}")


def grade_for_loss(loss: float) -> Grade:
    """The grade of a choice that loses ``loss`` expected points against the best."""
    for limit, grade in THRESHOLDS:
        if loss < limit:
            return grade
    return Grade.BLUNDER


SURE = GRADE_THRESHOLDS[2]
"""The loss at which an error is a Mistake: a choice is called good (Best or Good) only when
its interval stays below it, and a Mistake or Blunder only when its interval starts at it or
above; in between the grade is at most an Inaccuracy."""


def grade_for_interval(low: float, high: float) -> tuple[Grade, bool]:
    """The grade a loss interval allows, and whether it is too close to call.

    A grade is only as severe as the interval allows: the choice gets the grade of the
    interval's near end (``low``, the least it may lose), and where the interval spans
    several grades:

    - its near end is below :data:`SURE` but its far end is not, so it may be a good
      choice or a mistake: too close to call, graded an Inaccuracy;
    - otherwise the near end's grade stands (a Mistake needs the whole interval at or
      above :data:`SURE`; a Good, the whole interval below it).

    So two gradings of the same choice on different deals can give Best or Good on one
    and Mistake or Blunder on the other only if their 95% intervals do not overlap."""
    near = grade_for_loss(max(low, 0.0))
    if near in (Grade.BEST, Grade.GOOD) and high >= SURE:
        return Grade.INACCURACY, True
    return near, False


def grade_decision(advice: Advice, option: OptionAdvice | object) -> DecisionGrade:
    """Grade ``option`` (one of the advice's options, or the action taken: a card, a bid, a
    trump, ...) by the expected points it loses against the best option (by net where
    known, else by points), graded by its interval (:func:`grade_for_interval`).

    The loss and its interval are paired over the deals both options were solved on (the
    advice's :attr:`~.advice.report.OptionAdvice.loss`); where the advice has no paired figure,
    the two options' own intervals are combined as if independent, which errs wide."""
    if not isinstance(option, OptionAdvice):
        found = advice.choice(option)
        if found is None:
            raise ValueError(f"the advice has no option for {option}")
        option = found
    best = advice.best
    if option is best or option.label == best.label:
        return DecisionGrade(Grade.BEST, 0.0, 0.0, 0.0, option.label, best.label,
                             samples=advice.samples)
    paired = option.loss
    if paired is not None:
        loss, low, high, n = max(0.0, paired.mean), paired.low, paired.high, paired.samples
    else:
        mine = option.net if option.net is not None and best.net is not None else option.score
        top = best.net if option.net is not None and best.net is not None else best.score
        loss = max(0.0, top.mean - mine.mean)
        half = math.hypot(top.half_width, mine.half_width)
        low, high, n = loss - half, loss + half, min(top.samples or mine.samples,
                                                     mine.samples or top.samples)
    grade, close = grade_for_interval(low, high)
    return DecisionGrade(grade, loss, low, high, option.label, best.label, close, n)


GRADING_SAMPLES = 200
"""Deals the grading of a decision deals by default: enough that a grade holds still across
seeds (bid advice over 200 deals takes well under a second compiled)."""


def grade_choice(state: HandState | SeatView, action: object, samples: int = GRADING_SAMPLES,
                 seed: int | None = None, solved: SolvedDeals | None = None,
                 advice: Advice | None = None) -> tuple[DecisionGrade, Advice]:
    """Grade ``action`` for the seat to act in ``state`` (before it is applied): the advice
    over ``samples`` deals seeded from the position (and ``seed``, to draw another set),
    so the same choice in the same position always gets the same grade; then
    :func:`grade_decision`. Returns the grade and the advice it was read from.

    One advice a decision, whichever choice is graded: a call's or a declaration's advice
    solves every option on every deal (no option dropped once shown worse), so grading any
    two choices of one decision, or asking the hint, reads the same best option with the
    same figures. (Grading each call on the first advice's deals with only its own trump
    and the best solved again could find another best than the hint's: in 2 of 40 auctions
    measured, one choice's grade named a best the others' did not.)

    ``solved`` (bids only) reads what an earlier advice solved on the same deals: the first
    deals of a grading over more deals are those of one over fewer (seeded alike), so the
    coach's refinement solves only the deals it adds; the grade is the same as without it.
    ``advice``: the decision's advice, where the caller already has it (over the same
    ``samples``, ``seed`` and ``solved``), for grading several actions of one decision; a
    call's advice that dropped options is solved again on every deal (what it solved read
    back)."""
    if solved is None:
        solved = SolvedDeals()  # what the first advice solved, for the second (bids only)
    if advice is None:
        advice = advise(state, samples=samples, seed=seed, solved=solved, drop_worse=False)
    if advice.decision in ("bid", "declare") and any(
            0 < o.score.samples < advice.samples for o in (*advice.options, *advice.candidates)):
        advice = advise_bid(state, samples, seed, drop_worse=False, solved=solved)
    return grade_decision(advice, action), advice
