"""The ceiling: an all-seeing player, the top rung of the strength ladder.

No person plays like this. It sees every hand (it is handed the live
:class:`~pepper_tutor.engine.state.HandState` with :meth:`CeilingPlayer.see`) and makes every
choice double-dummy on the real cards, so the distance from a level to it is how much that
level leaves on the table, not a figure of the analysis's own sampling. What it assumes:

- **Cards**: the best card of the exact double-dummy solution for its side.
- **Calls, the exchange and the defense**: each legal choice is followed to the start of play,
  where the real deal is solved double-dummy and scored by the engine. Along the way every
  later choice of the contract (trump, way of playing, the discard, the card sent, play or
  surrender) is made best for the side that makes it, the other side's against it; in the
  auction the other seats pass when they may (they cannot be read ahead), and a dealer who
  must bid bids best for its side.

Its choices are therefore exact for the contract it reaches, and optimistic about the
auction. The engine applies every action, so every rule set with two partnerships works,
switches included.
"""

from __future__ import annotations

from collections.abc import Hashable

from ..engine.calls import Bid
from ..engine.cards import Card
from ..engine.scoring import score_hand
from ..engine.seats import Seat
from ..engine.state import Action, HandState, Phase
from .position import TranspositionTable
from .solver import bidding_side, solve_state
from .view import SeatView

__all__ = ["AllSeeing", "CeilingPlayer"]


class AllSeeing:
    """A player that must be shown the hand itself before it decides (the ceiling)."""

    def see(self, state: HandState) -> None:  # pragma: no cover - overridden
        raise NotImplementedError


class CeilingPlayer(AllSeeing):
    """Decides double-dummy on the real cards (see the module notes)."""

    level = "ceiling"

    def __init__(self) -> None:
        self._state: HandState | None = None
        self._table = TranspositionTable()
        self._tricks: dict[Hashable, int] = {}

    def see(self, state: HandState) -> None:
        """Take the hand this player sits at (kept by reference, so it follows the play)."""
        if not state.rules.partnerships or state.players != 4:
            raise ValueError(f"the ceiling plays two partnerships, not {state.rules.name}")
        self._state = state
        self._tricks = {}

    def decide(self, view: SeatView) -> Action:
        state = self._state
        if state is None or state.to_act != view.seat:
            raise ValueError("the ceiling decides only at a hand it was shown, on its turn")
        if len(view.legal) == 1:
            return view.legal[0]
        mine = state.rules.side_of(view.seat)
        if state.phase is Phase.PLAY:
            side = [seat for seat in state.seats if state.rules.side_of(seat) == mine]
            best: Card = solve_state(state, side, self._table).best_cards[0]
            return best
        return max(state.legal_actions(), key=lambda a: self._after(state, a, view.seat))

    # ---- following a choice to the start of play ----------------------------------------------

    def _after(self, state: HandState, action: Action, me: Seat) -> float:
        after = state.copy()
        after.apply(action)
        return self._value(after, me)

    def _value(self, state: HandState, me: Seat) -> float:
        """``me``'s side's points less the other side's, from ``state`` on."""
        rules = state.rules
        mine = rules.side_of(me)
        if state.is_terminal():
            score = state.score
            if score is None:  # thrown in
                return 0.0
            return float(sum(p if side == mine else -p for side, p in score.points.items()))
        if state.phase is Phase.PLAY:
            assert state.bidder is not None
            bidders = rules.side_of(state.bidder)
            tricks = self._play_tricks(state)
            points = score_hand(rules, state.high_bid, bidders,
                                {side: tricks if side == bidders else 6 - tricks
                                 for side in rules.sides}).points
            return float(sum(p if side == mine else -p for side, p in points.items()))
        mover = state.to_act
        assert mover is not None
        legal = state.legal_actions()
        if state.phase is Phase.AUCTION and mover != me and Bid.PASS in legal:
            return self._after(state, Bid.PASS, me)
        values = [self._after(state, a, me) for a in legal]
        return max(values) if rules.side_of(mover) == mine else min(values)

    def _play_tricks(self, state: HandState) -> int:
        """The bidding side's tricks with best play from the start of play (solved once per
        layout of the cards)."""
        now = state.snapshot()
        key = (now.hands, now.to_act, now.trump, now.out, state.bidder)
        found = self._tricks.get(key)
        if found is None:
            found = solve_state(state, bidding_side(state), self._table,
                                card_values=False).total
            self._tricks[key] = found
        return found
