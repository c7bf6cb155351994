"""What one seat may see of a hand: the only thing a computer player is given.

A :class:`SeatView` is built from a :class:`~pepper_tutor.engine.state.HandState` by
:func:`view_of` and holds the seat's own cards, the calls, the trump and way of playing, the
cards of the exchange the seat took part in, the cards played, the rule set and the match
scores. It holds no reference to the state, so a player that decides from a view cannot read
a hidden card: the other hands, an exchange card it did not see and the undealt cards are
simply not there. Everything in it is immutable.

``actions`` is the hand's history as this seat saw it: every action in order, with the
bidder's discard and the partner's card replaced by ``None`` for the seats that did not see
them. Replaying it over a deal of the unseen cards gives back the same position
(:func:`pepper_tutor.analysis.inference.deal_for_view` does that).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.cards import Card
from ..engine.rules import RuleSet
from ..engine.seats import Seat
from ..engine.state import Action, HandState, Phase, Trick

__all__ = ["SeatView", "view_of"]


@dataclass(frozen=True)
class SeatView:
    """One seat's knowledge of a hand at the moment it must decide (or any other moment)."""

    seat: Seat
    rules: RuleSet
    dealer: Seat
    phase: Phase
    to_act: Seat | None
    dealt: tuple[Card, ...]  # the six cards this seat was dealt
    hand: tuple[Card, ...]  # the cards it holds now
    calls: tuple[tuple[Seat, Bid], ...]
    high_bid: Bid
    bidder: Seat | None
    trump: Trump | None
    mode: Mode | None
    discard: Card | None  # only for the bidder, who made it
    passed: Card | None  # only for the bidder and the partner who passed it
    defense: Defense | None
    sitting_out: Seat | None
    tricks: tuple[Trick, ...]  # finished tricks
    trick: tuple[tuple[Seat, Card], ...]  # the cards of the current trick so far
    held: tuple[int, ...]  # how many cards each seat holds now (public: count the plays)
    won: tuple[int, ...]  # tricks taken by each seat so far
    legal: tuple[Action, ...]  # the seat's legal actions (empty when it is not its turn)
    actions: tuple[Action | None, ...]  # the history as this seat saw it
    scores: Mapping[str, int] = field(default_factory=dict)  # match totals before the hand

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def partner(self) -> Seat | None:
        """This seat's partner, in partnerships."""
        return self.seat.partner if self.rules.partnerships and self.players == 4 else None

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card played so far, in order."""
        return tuple(c for t in self.tricks for c in t.cards) + tuple(c for _, c in self.trick)

    def side_of(self, seat: Seat | int) -> str:
        return self.rules.side_of(int(seat))

    @property
    def on_bidding_side(self) -> bool:
        return self.bidder is not None and self.side_of(self.bidder) == self.side_of(self.seat)


def _masked_history(state: HandState, seat: int, bidder: int) -> tuple[Action | None, ...]:
    """The history with the exchange cards this seat did not see replaced by ``None``."""
    history: list[Action | None] = list(state.history)
    if state.mode is Mode.EXCHANGE:
        at = len(state.calls) + 2  # calls, trump, mode, then the discard and the card passed
        if seat != bidder and at < len(history):
            history[at] = None
        if seat not in (bidder, (bidder + 2) % 4) and at + 1 < len(history):
            history[at + 1] = None
    return tuple(history)


def view_of(state: HandState, seat: Seat | int | None = None,
            scores: Mapping[str, int] | None = None) -> SeatView:
    """What ``seat`` (default: the seat to act) may see of ``state`` now. A state that is
    no HandState or a seat that is no seat at its table is a ``ValueError``."""
    if not isinstance(state, HandState):
        raise ValueError(f"view_of reads a HandState, not {type(state).__name__}")
    if seat is not None and (type(seat) is not Seat and type(seat) is not int):
        raise ValueError(f"a seat is a Seat or its number, not {type(seat).__name__}")
    if scores is not None and not (isinstance(scores, Mapping) and all(
            isinstance(k, str) and type(v) is int for k, v in scores.items())):
        raise ValueError("scores map each side to its whole points, such as {'NS': 12}")
    if seat is None:
        if state.to_act is None:
            raise ValueError("the hand is over: name the seat whose view you want")
        seat = state.to_act
    s = int(seat)
    if not 0 <= s < state.players:
        raise ValueError(f"seat {Seat(s) if 0 <= s < 4 else s} is not at a "
                         f"{state.players}-player table")
    now = state.snapshot()
    bidder = now.bidder
    sees_discard = s == bidder
    sees_passed = s == bidder or (bidder >= 0 and s == (bidder + 2) % 4)
    to_act = state.to_act
    return SeatView(
        seat=Seat(s), rules=state.rules, dealer=state.dealer, phase=state.phase,
        to_act=to_act, dealt=tuple(state.dealt(Seat(s))), hand=tuple(state.hand(Seat(s))),
        calls=tuple(state.calls), high_bid=state.high_bid, bidder=state.bidder,
        trump=state.trump, mode=state.mode,
        discard=state.discard if sees_discard else None,
        passed=state.passed if sees_passed else None,
        defense=state.defense, sitting_out=state.sitting_out,
        tricks=tuple(state.tricks),
        trick=tuple(state.current_trick),
        held=tuple(len(h) for h in now.hands),
        won=now.won,
        legal=tuple(state.legal_actions()) if to_act == s else (),
        actions=_masked_history(state, s, bidder),
        scores=dict(scores or {}),
    )
