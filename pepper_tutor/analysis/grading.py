"""Grading the cards of a hand against perfect play (double dummy).

Before each card the position is solved with every hand visible, for the side of the player
to move; a card that leaves that side fewer tricks than the best card would "costs" the
difference. The grade is a finding with the facts, marked with the usual glyphs.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.cards import Card
from ..engine.seats import Seat
from ..engine.state import HandState
from .solver import TranspositionTable, solve_state

__all__ = ["CardGrade", "grade_card", "glyph_for_cost", "GradingTables"]

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

    @property
    def message(self) -> str:
        who = "+".join(str(s) for s in self.side)
        best = " or ".join(c.display for c in self.best)
        plural = "s" if self.cost != 1 else ""
        return (f"{self.seat.word}'s {self.card.display} costs {self.cost} trick{plural} "
                f"against perfect play: with the {best} {who} can take {self.with_best}, "
                f"after the {self.card.display} only {self.with_card}.")


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
