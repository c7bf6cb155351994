"""Dealing the cards a seat cannot see into a whole hand that fits its view.

:func:`deal_for_view` turns a :class:`~pepper_tutor.analysis.view.SeatView` into a
:class:`~pepper_tutor.engine.state.HandState` at the same moment of the same hand: the seat's
own cards and everything public are as seen, the other hands are dealt at random among the
layouts that fit (the cards each seat played, the suits it showed void in, the exchange),
and the history is replayed over that deal. The advice does not need one: it takes the view
itself and deals the unseen cards as it samples, so a computer player's decision deals them
once. A whole hand that fits is for what needs one, such as the tests that redeal the
hidden cards to show that a player reads nothing hidden.

With ``auction=True`` the deal is kept in proportion to how likely each other seat was to
make its calls with the hand dealt to it (:func:`~pepper_tutor.analysis.calling.call_likelihood`),
the high bidder's in the trump and way of playing it named (:func:`declaration`),
by rejection (:func:`~pepper_tutor.analysis.calling.auction_weight`). Where the table plays
bid signals, a deal is kept only where every other seat's 2 and 3 held what it shows
(:mod:`.signals`), with or without ``auction``; when none of ``tries`` deals can (a person
bid 2 without an ace), the first one dealt is kept.
"""

from __future__ import annotations

import random

from ..engine.calls import Bid, Mode
from ..engine.cards import DECK
from ..engine.state import HandState, Phase
from .calling import auction_weight
from .dealing import Dealer, void_masks
from .signals import fits_signals, shown_calls
from .view import SeatView

__all__ = ["deal_for_view", "declaration"]


def declaration(view: SeatView) -> tuple[int, bool | None] | None:
    """The high bidder's trump and way of playing (alone: with the exchange, or a big
    pepper's), once named, for :func:`~.calling.auction_weight`; ``None`` before."""
    if view.trump is None:
        return None
    if view.mode is not None:
        return int(view.trump), view.mode is Mode.EXCHANGE
    if view.high_bid is Bid.BIG_PEPPER or view.phase is not Phase.DECLARE_MODE:
        # a big pepper is played alone; past the declaration with no way named, there
        # was no choice (no exchange at this table)
        return int(view.trump), view.high_bid is Bid.BIG_PEPPER and view.rules.has_exchange
    return int(view.trump), None


def _exchange_slots(view: SeatView) -> tuple[int | None, int | None]:
    """History positions of the discard and the card passed, where they happened."""
    if view.mode is not Mode.EXCHANGE:
        return None, None
    at = len(view.calls) + 2
    discard = at if at < len(view.actions) else None
    passed = at + 1 if at + 1 < len(view.actions) else None
    return discard, passed


def deal_for_view(view: SeatView, rng: random.Random, auction: bool = False,
                  tries: int = 200) -> HandState:
    """A whole hand consistent with ``view`` (see the module notes), at the same moment."""
    me = int(view.seat)
    n = view.players
    bidder = int(view.bidder) if view.bidder is not None else -1
    partner = (bidder + 2) % 4 if bidder >= 0 and view.rules.partnerships and n == 4 else -1
    discard_at, passed_at = _exchange_slots(view)
    discard_seen = view.discard.index if view.discard is not None else None
    passed_seen = view.passed.index if view.passed is not None else None

    played: list[list[int]] = [[] for _ in range(n)]
    for t in view.tricks:
        for s, c in zip(t.seats, t.cards, strict=True):
            played[int(s)].append(c.index)
    for s, c in view.trick:
        played[int(s)].append(c.index)

    # Cards known to lie in another seat's current hand: the card this seat sent, until the
    # bidder plays it.
    known_in: dict[int, list[int]] = {}
    if passed_seen is not None and me != bidder and passed_seen not in played[bidder]:
        known_in[bidder] = [passed_seen]
    known = {c.index for c in view.dealt} | {c.index for c in view.hand}
    known |= {c for p in played for c in p}
    known |= {c for c in (discard_seen, passed_seen) if c is not None}
    pool = [c for c in range(24) if c not in known]
    voids = void_masks(view)
    others = [s for s in range(n) if s != me]
    buckets = [(view.held[s] - len(known_in.get(s, [])), voids[s]) for s in others]
    hidden_discard = discard_at is not None and discard_seen is None
    if hidden_discard:
        buckets.append((1, 0))
    buckets.append((len(pool) - sum(k for k, _ in buckets), 0))
    dealer = Dealer(pool, buckets)
    shown = shown_calls(view.rules, view.calls, me)

    best: tuple[float, list[list[int]], dict[int, int]] | None = None
    for _ in range(max(1, tries)):
        deal = dealer.deal(rng)
        current = {s: deal[k] + known_in.get(s, []) for k, s in enumerate(others)}
        current[me] = [c.index for c in view.hand]
        dealt = {s: current[s] + played[s] for s in range(n)}
        filled: dict[int, int] = {}
        if discard_at is not None:
            discard = discard_seen if discard_seen is not None else deal[len(others)][0]
            filled[discard_at] = discard
            if passed_at is not None:
                final = dealt[bidder]
                passed = passed_seen if passed_seen is not None else rng.choice(final)
                filled[passed_at] = passed
                dealt[bidder] = [c for c in final if c != passed] + [discard]
                dealt[partner] = dealt[partner] + [passed]
            else:
                dealt[bidder] = dealt[bidder] + [discard]
        dealt[me] = [c.index for c in view.dealt]
        weight = 1.0
        if auction:
            weight = auction_weight(view.rules, int(view.dealer), view.calls,
                                    {s: dealt[s] for s in others}, declaration(view))
        if shown and not fits_signals(view.rules, shown, dealt):
            weight = 0.0
        if best is None or weight > best[0]:
            best = (weight, [sorted(dealt[s]) for s in range(n)], filled)
        if (not auction and not shown) or rng.random() < weight:
            best = (weight, [sorted(dealt[s]) for s in range(n)], filled)
            break
    assert best is not None
    _, hands, filled = best
    state = HandState(view.rules, view.dealer, hands)
    for i, action in enumerate(view.actions):
        if action is None:
            action = DECK[filled[i]]
        state.apply(action)
    if state.phase is not view.phase or (view.phase is not Phase.SCORED
                                         and state.to_act != view.to_act):
        raise AssertionError("the replayed hand does not reach the view's position")
    return state
