"""What the solver searches: a play-phase position with every hand visible, and the table of
bounds that searches share.

These are plain values with no search in them, so the search (:mod:`.search`) and the
solver's public face (:mod:`.solver`) both import them and neither imports the other back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence, Sized
from dataclasses import dataclass

from ..engine.cards import Card, CardLike
from ..engine.ranking import trump_code
from ..engine.seats import Seat

__all__ = ["NO_TRUMP", "Position", "TranspositionTable"]

NO_TRUMP = 4
"""The ``trump`` value of a no-trump position (suits are 0-3)."""


@dataclass(frozen=True)
class Position:
    """A play-phase position with every hand visible.

    ``hands`` has one entry per seat (``players`` of them), each the card indices that seat
    still holds; the seat that sits out (``out``) must hold nothing here. ``trick`` lists the
    ``(seat, card)`` pairs already played to the current trick, in play order. ``to_play``
    is the seat whose turn it is; ``trump`` is 0-3 for a suit or 4 for no trump; ``side``
    is the set of seats whose tricks are counted (maximised); everyone else minimises.
    ``left_bower`` is the rule set's switch: off, the jack of the trump colour keeps its
    suit (cutthroat's seed).
    """

    hands: tuple[tuple[int, ...], ...]
    trick: tuple[tuple[int, int], ...]
    to_play: int
    trump: int
    side: frozenset[int]
    players: int = 4
    out: int | None = None
    left_bower: bool = True

    @classmethod
    def trusted(cls, hands: tuple[tuple[int, ...], ...], trick: tuple[tuple[int, int], ...],
                to_play: int, trump: int, side: frozenset[int], players: int = 4,
                out: int | None = None, left_bower: bool = True) -> Position:
        """The same position without the checks: for sampled advice, which deals every
        hand itself and builds positions by the hundred thousand (the checks were a tenth
        of a graded call). Anything read from outside goes through the constructor."""
        position = object.__new__(cls)
        position.__dict__.update(hands=hands, trick=trick, to_play=to_play, trump=trump,
                                 side=side, players=players, out=out, left_bower=left_bower)
        return position

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
        # min and max rather than a test per card: the advice builds positions by the
        # thousand, and this check was a tenth of a graded call once the search was native
        if cards and (len(set(cards)) != len(cards) or min(cards) < 0 or max(cards) >= 24):
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
    def code(self) -> int:
        """The ranking tables' index for this trump and left-bower switch."""
        return trump_code(self.trump, self.left_bower)

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
                   out: Seat | str | int | None = None, left_bower: bool = True) -> Position:
        """A position from card text (``"JH"``), cards or indices, and seat names.

        >>> from pepper_tutor.analysis.solver import solve
        >>> p = Position.from_cards([["JH"], ["9S"], ["AH"], ["TC"]], "N", "H", "NS")
        >>> solve(p).tricks
        1
        """
        from ..engine.calls import Trump

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
                   out=None if out is None else seat(out), left_bower=left_bower)


class TranspositionTable:
    """Bounds on the tricks still to come at trick boundaries, shared between searches.

    Keys are rank-relative (per suit, who holds the cards still in play, from the top down,
    and who leads), so an entry holds for any deal with the same trump, seats in play and
    maximised side: one table may serve every position of a hand (the annotator) and every
    sampled deal of an advice run. :meth:`prepare` clears it when that context changes, and
    when it grows past ``max_entries``.

    ``lower`` and ``upper`` are the Python searches' bounds; ``native`` holds the native
    search's own (:mod:`.native`: a table of C entries it makes on first use), dropped with
    the rest when the context changes.
    """

    __slots__ = ("_context", "lower", "max_entries", "native", "upper")

    def __init__(self, max_entries: int = 2_000_000) -> None:
        self.lower: dict[int, int] = {}
        self.upper: dict[int, int] = {}
        self.max_entries = max_entries
        self.native: Sized | None = None
        self._context: tuple[int, int, int | None, frozenset[int]] | None = None

    def __len__(self) -> int:
        native = len(self.native) if self.native is not None else 0
        return len(self.lower.keys() | self.upper.keys()) + native

    def clear(self) -> None:
        self.lower.clear()
        self.upper.clear()
        self.native = None
        self._context = None

    def prepare(self, position: Position) -> None:
        """Keep the entries if they hold for this position; else start afresh."""
        context = (position.code, position.players, position.out, position.side)
        if (context != self._context
                or len(self.lower) + len(self.upper) > self.max_entries):
            self.clear()
            self._context = context
