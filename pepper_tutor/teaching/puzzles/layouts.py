"""One sampled layout where the tempting answer fails and the best one succeeds.

Shown after a miss ("here is a layout your J♠ loses to"): the unseen cards dealt to fit the
seat's view and the auction (:func:`~pepper_tutor.analysis.inference.deal_for_view`), each
answer applied, the hand taken to its play by the same rules the advice assumes (the way of
playing the option names, the discard and the card sent by the exchange rules, the defenders
playing), then solved double dummy. A layout is kept where the best answer's net points beat
the tempting one's, first choosing one where the contract's fate differs (made with one,
set with the other). Calls in the auction have no layout: the rest of the auction would
have to be invented.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ...analysis.dealing import discard_rule, send_rule
from ...analysis.inference import deal_for_view
from ...analysis.solver import bidding_side, solve_state
from ...analysis.view import view_of
from ...engine.calls import Defense, Mode
from ...engine.cards import DECK
from ...engine.scoring import score_hand
from ...engine.state import Action, HandState, Phase

__all__ = ["Outcome", "outcome", "find_layout", "TRIES"]

TRIES = 60  # layouts dealt before giving up


@dataclass(frozen=True)
class Outcome:
    """What one answer leads to on one layout, for the side deciding."""

    tricks: int  # the bidding side's tricks with best play after the answer
    net: float  # the deciding side's points less the other side's
    made: bool | None  # the contract made (None: surrendered)


def _to_play(state: HandState, mode: Mode | None) -> None:
    """Take the hand from its declaration to the play by the advice's assumptions."""
    while state.phase not in (Phase.PLAY, Phase.SCORED) and not state.is_terminal():
        phase = state.phase
        seat = state.to_act
        assert seat is not None
        if phase is Phase.DECLARE_MODE:
            state.apply(mode or Mode.PARTNER)
        elif phase in (Phase.DISCARD, Phase.SEND):
            trump = int(state.trump) if state.trump is not None else 4
            hand = [c.index for c in state.hand(seat)]
            rule = discard_rule if phase is Phase.DISCARD else send_rule
            state.apply(DECK[rule(hand, trump, state.rules.left_bower)])
        elif phase is Phase.DEFENSE:
            state.apply(Defense.PLAY)
        else:
            raise ValueError(f"no layout for a hand in the {phase} phase")


def outcome(state: HandState, action: Action, mode: Mode | None = None) -> Outcome:
    """Apply ``action`` to a copy of the whole hand ``state`` and solve what follows."""
    seat = state.to_act
    assert seat is not None
    side = state.rules.side_of(seat)
    after = state.copy()
    after.apply(action)
    _to_play(after, mode)
    bidder = after.bidder
    assert bidder is not None
    bidders = state.rules.side_of(bidder)
    if after.is_terminal():  # surrendered
        score = after.score
        assert score is not None
        tricks = 0
    else:
        solution = solve_state(after, side_seats=bidding_side(after), card_values=False)
        tricks = solution.total
        won = {s: 0 for s in state.rules.sides}
        won[bidders] = tricks
        for s in state.rules.sides:
            if s != bidders:
                won[s] = 6 - tricks
        score = score_hand(state.rules, after.high_bid, bidders, won)
    mine = score.points[side]
    others = [v for s, v in score.points.items() if s != side]
    return Outcome(tricks, mine - sum(others) / len(others), score.made)


def find_layout(state: HandState, best: Action, tempting: Action, seed: str,
                best_mode: Mode | None = None, tempting_mode: Mode | None = None,
                tries: int = TRIES) -> dict[str, object] | None:
    """A layout (the hands at the decision) where ``best`` beats ``tempting``, with both
    outcomes; ``None`` for a call in the auction or when no layout in ``tries`` shows it."""
    if state.phase is Phase.AUCTION or not state.rules.partnerships:
        return None
    rng = random.Random(seed)
    view = view_of(state)
    fallback: dict[str, object] | None = None
    for _ in range(tries):
        whole = deal_for_view(view, rng, auction=True)
        good = outcome(whole, best, best_mode)
        bad = outcome(whole, tempting, tempting_mode)
        if good.net <= bad.net:
            continue
        found = {"hands": {str(s): " ".join(str(c) for c in whole.hand(s))
                           for s in whole.seats},
                 "best": {"tricks": good.tricks, "net": good.net, "made": good.made},
                 "tempting": {"tricks": bad.tricks, "net": bad.net, "made": bad.made}}
        if good.made != bad.made:
            return found
        fallback = fallback or found
    return fallback
