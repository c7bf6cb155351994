"""What a question shows: the one value every renderer reads.

A :class:`Situation` holds the facts of a position put to a learner (trump, the trick so far,
the hand, the auction, the bid, the tricks taken, the score...), each field empty when the
question does not show it. The terminal, the notebook and the projector draw it; nothing else
about a step reaches them. Its :attr:`~Situation.key` is stable text (the same position gives
the same key in every run), which is how a drill or a review knows it asked a position before.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum

from ...engine.calls import Bid, Defense, Trump
from ...engine.cards import Card
from ...engine.seats import Seat

__all__ = ["Situation", "Sides"]

# (side, number) pairs in the order a question shows them: "NS 3, EW 3"
Sides = tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Situation:
    trump: Trump | None = None
    cards: tuple[Card, ...] = ()  # cards shown to be ranked or explained
    trick: tuple[Card, ...] = ()  # the trick so far, the lead first
    seats: tuple[Seat, ...] = ()  # who played each card of the trick
    after: tuple[Card, ...] = ()  # cards played after the learner's
    hand: tuple[Card, ...] = ()  # the learner's hand
    dealer: Seat | None = None
    auction: tuple[Bid, ...] | None = None  # the calls so far (None: no auction shown)
    seat: Seat | None = None  # the learner's seat in the auction
    bid: Bid | None = None  # the winning bid
    bidder: Seat | None = None
    role: str | None = None  # in the exchange: "bidder" or "partner"
    tricks: Sides = ()  # tricks taken, by side
    defense: Defense | None = None  # the defenders' choice
    before: Sides = ()  # the totals before this hand, by side
    points: Sides = ()  # this hand's points, by side
    overtime: bool = False  # the extra hand after a shared finish

    @property
    def key(self) -> str:
        """Stable text of every field that is shown: the position's identity."""
        parts = []
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None or value == () or value is False:
                continue
            parts.append(f"{f.name}={_text(value)}")
        return ";".join(parts)

    @property
    def shows_auction(self) -> bool:
        return self.auction is not None and self.dealer is not None


def _text(value: object) -> str:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return value.name
    if isinstance(value, tuple):
        return " ".join(_text(v) for v in value) if not (value and isinstance(value[0], tuple)) \
            else ",".join(f"{k}:{n}" for k, n in value)
    return str(value)
