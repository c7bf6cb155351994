"""An exact double-dummy solver for the play phase: every hand visible, best play by all.

Given a position (the cards each seat still holds, the cards already in the current trick,
who plays next, the trump and who sits out) and the side being maximised (the bidding team,
or one seat in cutthroat), :func:`solve` returns the most tricks that side takes from here
when everyone plays perfectly, the other seats together minimising, and the value of each
legal card for the player to move. The annotator grades cards by it ("this card costs a
trick") and :mod:`pepper_tutor.advice` solves sampled deals with it.

This module is the solver's public face: the position and result types, :func:`solve`,
:func:`takes_at_least` and the readers of a :class:`~pepper_tutor.state.HandState`. The
search itself (the tables derived from the ranking tables, the null-window closures and
the root that drives them) moved to :mod:`pepper_tutor.solver_search`, whose docstring
tells how it stays fast in pure Python.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import DECK, Card, CardLike
from .seats import Seat
from .solver_search import _STRENGTH, NO_TRUMP, _Root

if TYPE_CHECKING:
    from .state import HandState

__all__ = [
    "Position",
    "CardValue",
    "Solution",
    "TranspositionTable",
    "solve",
    "takes_at_least",
    "position_from_state",
    "solve_state",
    "bidding_side",
]


# ---- the public values ---------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A play-phase position with every hand visible.

    ``hands`` has one entry per seat (``players`` of them), each the card indices that seat
    still holds; the seat that sits out (``out``) must hold nothing here. ``trick`` lists the
    ``(seat, card)`` pairs already played to the current trick, in play order. ``to_play``
    is the seat whose turn it is; ``trump`` is 0-3 for a suit or 4 for no trump; ``side``
    is the set of seats whose tricks are counted (maximised); everyone else minimises.
    """

    hands: tuple[tuple[int, ...], ...]
    trick: tuple[tuple[int, int], ...]
    to_play: int
    trump: int
    side: frozenset[int]
    players: int = 4
    out: int | None = None

    def __post_init__(self) -> None:
        problem = self._problem()
        if problem:
            raise ValueError(f"not a valid play position: {problem}")

    def _problem(self) -> str | None:
        if self.players not in (2, 3, 4) or len(self.hands) != self.players:
            return f"{len(self.hands)} hands for {self.players} players"
        if not 0 <= self.trump <= NO_TRUMP:
            return f"trump {self.trump} is not 0-3 or 4 (no trump)"
        if self.out is not None and (self.players != 4 or not 0 <= self.out < 4):
            return f"seat {self.out} cannot sit out with {self.players} players"
        active = self.active_seats
        if self.out is not None and self.hands[self.out]:
            return f"seat {self.out} sits out but holds cards"
        cards = [c for h in self.hands for c in h] + [c for _, c in self.trick]
        if len(set(cards)) != len(cards) or not all(0 <= c < 24 for c in cards):
            return "a card is repeated or is not an index 0..23"
        if not self.side or not self.side <= set(range(self.players)):
            return f"the maximised side {sorted(self.side)} is not a set of seats in play"
        if self.to_play not in active:
            return f"seat {self.to_play} is not in play"
        played = [s for s, _ in self.trick]
        if len(played) >= len(active) or len(set(played)) != len(played):
            return "the current trick is full or has a seat twice"
        seat = self.to_play
        for s in reversed(played):  # the trick must run clockwise up to the seat to play
            seat = active[(active.index(seat) - 1) % len(active)]
            if s != seat:
                return "the current trick's seats are not in turn before the seat to play"
        left = len(self.hands[self.to_play])
        for s in active:
            expected = left - (1 if s in played else 0)
            if len(self.hands[s]) != expected:
                return f"seat {s} holds {len(self.hands[s])} cards, expected {expected}"
        return None

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats that play cards, clockwise from seat 0."""
        return tuple(s for s in range(self.players) if s != self.out)

    @property
    def tricks_left(self) -> int:
        """Tricks still to finish, the current one included."""
        return len(self.hands[self.to_play])

    @classmethod
    def from_cards(cls, hands: Sequence[Iterable[CardLike | int]], to_play: Seat | str | int,
                   trump: int | str, side: Iterable[Seat | str | int],
                   trick: Iterable[tuple[Seat | str | int, CardLike | int]] = (),
                   out: Seat | str | int | None = None) -> Position:
        """A position from card text (``"JH"``), cards or indices, and seat names.

        >>> p = Position.from_cards([["JH"], ["9S"], ["AH"], ["TC"]], "N", "H", "NS")
        >>> solve(p).tricks
        1
        """
        from .calls import Trump

        def idx(card: CardLike | int) -> int:
            return card if isinstance(card, int) else Card.parse(card).index

        def seat(s: Seat | str | int) -> int:
            return int(Seat.parse(s))

        if isinstance(side, str) and side.upper() in ("NS", "EW"):
            side = list(side.upper())
        return cls(hands=tuple(tuple(idx(c) for c in h) for h in hands),
                   trick=tuple((seat(s), idx(c)) for s, c in trick),
                   to_play=seat(to_play),
                   trump=trump if isinstance(trump, int) else int(Trump.parse(trump)),
                   side=frozenset(seat(s) for s in side), players=len(hands),
                   out=None if out is None else seat(out))


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
    :class:`~pepper_tutor.state.HandState` (0 otherwise), so ``total`` is its final count.
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


class TranspositionTable:
    """Bounds on the tricks still to come at trick boundaries, shared between searches.

    Keys are rank-relative (per suit, who holds the cards still in play, from the top down,
    and who leads), so an entry holds for any deal with the same trump, seats in play and
    maximised side: one table may serve every position of a hand (the annotator) and every
    sampled deal of an advice run. :meth:`prepare` clears it when that context changes, and
    when it grows past ``max_entries``.
    """

    __slots__ = ("_context", "lower", "max_entries", "upper")

    def __init__(self, max_entries: int = 2_000_000) -> None:
        self.lower: dict[int, int] = {}
        self.upper: dict[int, int] = {}
        self.max_entries = max_entries
        self._context: tuple[int, int, int | None, frozenset[int]] | None = None

    def __len__(self) -> int:
        return len(self.lower.keys() | self.upper.keys())

    def clear(self) -> None:
        self.lower.clear()
        self.upper.clear()
        self._context = None

    def prepare(self, position: Position) -> None:
        """Keep the entries if they hold for this position; else start afresh."""
        context = (position.trump, position.players, position.out, position.side)
        if (context != self._context
                or len(self.lower) + len(self.upper) > self.max_entries):
            self.clear()
            self._context = context


def solve(position: Position, table: TranspositionTable | None = None,
          card_values: bool = True) -> Solution:
    """The most tricks ``position.side`` takes from here, and each legal card's value.

    Pass the same ``table`` to solve successive positions of one hand, or many deals of one
    kind, faster (it clears itself when a position does not fit it). ``card_values=False``
    returns the value alone, saving the one or two searches each card group needs.
    """
    table = table if table is not None else TranspositionTable()
    root = _Root(position, table)
    side = tuple(Seat(s) for s in sorted(position.side))
    to_play = Seat(position.to_play)
    maximising = bool(root.ours[root.seat])
    if root.left == 0:
        return Solution(0, to_play, maximising, side, ())
    best = root.converge(root.test, 0, root.left, (root.left + 1) // 2)
    values: list[CardValue] = []
    if card_values:
        for group in root.groups(root.legal()):
            # A card is at best as good as the best play, and most cards are: start there.
            if maximising:
                v = root.converge(root.after(group[0]), 0, best, best)
            else:
                v = root.converge(root.after(group[0]), best, root.left, best)
            cost = best - v if maximising else v - best
            values.extend(CardValue(DECK[c], v, cost) for c in group)
        values.sort(key=lambda cv: (cv.cost, -_STRENGTH[position.trump][cv.card.index]))
    return Solution(best, to_play, maximising, side, tuple(values))


def takes_at_least(position: Position, tricks: int,
                   table: TranspositionTable | None = None) -> bool:
    """Whether ``position.side`` takes at least ``tricks`` more tricks with best play.

    One null-window search: cheaper than :func:`solve` when only a threshold matters (does
    the bidder take all six for a pepper?)."""
    table = table if table is not None else TranspositionTable()
    return _Root(position, table).test(tricks) >= tricks


# ---- reading a HandState -----------------------------------------------------------------


def position_from_state(state: HandState, side_seats: Collection[Seat | int] | None = None
                        ) -> Position:
    """The position of a :class:`~pepper_tutor.state.HandState` in the play phase.

    ``side_seats`` defaults to the bidding side: the bidder and, in partnerships, the partner
    (who may be sitting out: only seats in play count)."""
    from .state import Phase

    if state.phase is not Phase.PLAY:
        raise ValueError(f"the solver needs a hand in the play phase, not {state.phase}")
    out = state._out if state._out >= 0 else None
    if side_seats is None:
        side_seats = bidding_side(state)
    hands = tuple(() if s == out else tuple(state._hands[s]) for s in range(state.players))
    return Position(hands=hands,
                    trick=tuple(zip(state._trick_seats, state._trick, strict=True)),
                    to_play=state._to_act, trump=state._trump,
                    side=frozenset(int(s) for s in side_seats), players=state.players,
                    out=out)


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
    position = position_from_state(state, side_seats)
    solution = solve(position, table, card_values)
    won = sum(state._won[s] for s in position.side)
    return Solution(solution.tricks, solution.to_play, solution.maximising, solution.side,
                    solution.values, won)
