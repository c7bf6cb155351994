"""An exact double-dummy solver for the play phase: every hand visible, best play by all.

Given a position (the cards each seat still holds, the cards already in the current trick,
who plays next, the trump and who sits out) and the side being maximised (the bidding team,
or one seat in cutthroat), :func:`solve` returns the most tricks that side takes from here
when everyone plays perfectly, the other seats together minimising, and the value of each
legal card for the player to move. The annotator grades cards by it ("this card costs a
trick") and :mod:`pepper_tutor.analysis.advice` solves sampled deals with it.

This module is the solver's public face: the position and result types, :func:`solve`,
:func:`takes_at_least` and the readers of a :class:`~pepper_tutor.engine.state.HandState`. The
search itself (the tables derived from the ranking tables, the null-window closures and
the root that drives them) is in :mod:`pepper_tutor.analysis.search`, whose docstring
tells how it stays fast in pure Python; :mod:`pepper_tutor.analysis.native` runs the native
search in C (``_search_native.c``, the same search written for the machine) or the mypyc
build of the pure one, where one is built and up to date.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from ..engine.cards import DECK, Card, CardLike
from ..engine.seats import Seat
from .native import search_module
from .position import Position, TranspositionTable

if TYPE_CHECKING:
    from ..engine.state import HandState, Snapshot
    from . import search

# The native search when it is built and up to date, else the compiled build, else the same
# code in pure Python (see .native): all give the same answers.
_SearchRoot: type[search._Root] = search_module()._Root
_STRENGTH: list[list[int]] = search_module()._STRENGTH

__all__ = [
    "Position",
    "CardValue",
    "Solution",
    "TranspositionTable",
    "solve",
    "takes_at_least",
    "tricks_of",
    "position_from_state",
    "solve_state",
    "bidding_side",
]


# ---- the public values ---------------------------------------------------------------------


@dataclass(frozen=True)
class CardValue:
    """One legal card and the tricks the maximised side takes if it is played (then best
    play by all). ``cost`` is what the card gives away, seen from the player to move."""

    card: Card
    tricks: int
    cost: int


@dataclass(frozen=True)
class Solution:
    """The double-dummy result of a position.

    ``tricks`` counts the maximised side's tricks from here (the current trick included);
    ``won_before`` is what the side had already taken when the position comes from a
    :class:`~pepper_tutor.engine.state.HandState` (0 otherwise), so ``total`` is its final count.
    ``values`` holds each legal card of the player to move, best first (empty when
    ``card_values=False`` was asked for, or when no card is left).
    """

    tricks: int
    to_play: Seat
    maximising: bool  # the player to move belongs to the maximised side
    side: tuple[Seat, ...]
    values: tuple[CardValue, ...]
    won_before: int = 0

    @property
    def total(self) -> int:
        return self.won_before + self.tricks

    @property
    def best_cards(self) -> tuple[Card, ...]:
        return tuple(v.card for v in self.values if v.cost == 0)

    def value(self, card: CardLike) -> int:
        """Tricks for the side from here if ``card`` is played next; KeyError if not legal."""
        return self._of(card).tricks

    def cost(self, card: CardLike) -> int:
        """Tricks the player to move gives away by playing ``card`` rather than a best card."""
        return self._of(card).cost

    def _of(self, card: CardLike) -> CardValue:
        c = Card.parse(card)
        for v in self.values:
            if v.card is c:
                return v
        raise KeyError(f"{c} is not a legal card here (or card values were not computed)")

    def __str__(self) -> str:
        who = "+".join(str(s) for s in self.side)
        head = (f"{who} take {self.tricks} more trick{'s' if self.tricks != 1 else ''}"
                f" with best play ({self.total} in all); {self.to_play} to play")
        if not self.values:
            return head
        parts = [f"{v.card.display} {v.tricks}" + (f" (costs {v.cost})" if v.cost else "")
                 for v in self.values]
        return head + ": " + ", ".join(parts)


def solve(position: Position, table: TranspositionTable | None = None,
          card_values: bool = True, module: ModuleType | None = None) -> Solution:
    """The most tricks ``position.side`` takes from here, and each legal card's value.

    Pass the same ``table`` to solve successive positions of one hand, or many deals of one
    kind, faster (it clears itself when a position does not fit it). ``card_values=False``
    returns the value alone, saving the one or two searches each card group needs.
    ``module`` is the search to run: by default the compiled build where it is up to date,
    else the pure one (:mod:`.native` decides); naming one runs that build, as the checks
    that both give the same answers do.
    """
    table = table if table is not None else TranspositionTable()
    root = (_SearchRoot if module is None else module._Root)(position, table)
    try:
        return _solve(root, position, card_values)
    finally:
        root.release()


def _solve(root: search._Root, position: Position, card_values: bool) -> Solution:
    side = tuple(Seat(s) for s in sorted(position.side))
    to_play = Seat(position.to_play)
    maximising = bool(root.ours[root.seat])
    if root.left == 0:
        return Solution(0, to_play, maximising, side, ())
    best = root.converge(root.test, 0, root.left, (root.left + 1) // 2)
    values: list[CardValue] = []
    if card_values:
        # Every option in one call over the root's table (the native search runs it in C).
        for group, v in root.values(best):
            cost = best - v if maximising else v - best
            values.extend(CardValue(DECK[c], v, cost) for c in group)
        values.sort(key=lambda cv: (cv.cost, -_STRENGTH[position.code][cv.card.index]))
    return Solution(best, to_play, maximising, side, tuple(values))


def tricks_of(position: Position, table: TranspositionTable) -> int:
    """The most tricks ``position.side`` takes from here: :func:`solve`'s ``tricks`` without
    card values, and without building a :class:`Solution` (sampled advice asks for
    hundreds of thousands of values a minute, on positions it built itself)."""
    root = _SearchRoot(position, table)
    try:
        return root.converge(root.test, 0, root.left, (root.left + 1) // 2) if root.left else 0
    finally:
        root.release()


def takes_at_least(position: Position, tricks: int,
                   table: TranspositionTable | None = None) -> bool:
    """Whether ``position.side`` takes at least ``tricks`` more tricks with best play.

    One null-window search: cheaper than :func:`solve` when only a threshold matters (does
    the bidder take all six for a pepper?)."""
    table = table if table is not None else TranspositionTable()
    root = _SearchRoot(position, table)
    try:
        return root.test(tricks) >= tricks
    finally:
        root.release()


# ---- reading a HandState -----------------------------------------------------------------


def position_from_state(state: HandState, side_seats: Collection[Seat | int] | None = None
                        ) -> Position:
    """The position of a :class:`~pepper_tutor.engine.state.HandState` in the play phase.

    ``side_seats`` defaults to the bidding side: the bidder and, in partnerships, the partner
    (who may be sitting out: only seats in play count)."""
    return _position(state, state.snapshot(), side_seats)


def _position(state: HandState, now: Snapshot, side_seats: Collection[Seat | int] | None
              ) -> Position:
    from ..engine.state import Phase

    if state.phase is not Phase.PLAY:
        raise ValueError(f"the solver needs a hand in the play phase, not {state.phase}")
    out = now.out if now.out >= 0 else None
    if side_seats is None:
        side_seats = bidding_side(state)
    hands = now.hands if out is None else tuple(() if s == out else hand
                                                for s, hand in enumerate(now.hands))
    return Position(hands=hands, trick=now.trick, to_play=now.to_act, trump=now.trump,
                    side=frozenset(int(s) for s in side_seats), players=state.players,
                    out=out, left_bower=state.rules.left_bower)


def bidding_side(state: HandState) -> tuple[Seat, ...]:
    """The bidder and, in partnerships, the partner."""
    if state.bidder is None:
        raise ValueError("no one has bid yet")
    partner = state.partner_of_bidder
    return (state.bidder,) if partner is None else tuple(sorted((state.bidder, partner)))


def solve_state(state: HandState, side_seats: Collection[Seat | int] | None = None,
                table: TranspositionTable | None = None, card_values: bool = True) -> Solution:
    """:func:`solve` for a hand in the play phase; ``won_before`` counts the side's tricks
    already taken, so ``solution.total`` is its final count with best play."""
    now = state.snapshot()
    position = _position(state, now, side_seats)
    solution = solve(position, table, card_values)
    won = sum(now.won[s] for s in position.side)
    return Solution(solution.tricks, solution.to_play, solution.maximising, solution.side,
                    solution.values, won)
