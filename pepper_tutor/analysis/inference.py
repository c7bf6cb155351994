"""Dealing the cards a seat cannot see into a whole hand that fits its view.

:func:`deal_for_view` turns a :class:`~pepper_tutor.analysis.view.SeatView` into a
:class:`~pepper_tutor.engine.state.HandState` at the same moment of the same hand: the seat's
own cards and everything public are as seen, the other hands are dealt at random among the
layouts that fit (the cards each seat played, the suits it showed void in, the exchange),
and the history is replayed over that deal. An exchange the seat did not see is the one the
rules make (the partner sends its highest trump, the bidder lays aside the lowest card of its
shortest plain suit), as the players make it: before the bidder and the partner have played,
their hands are dealt as they were dealt and the exchange replayed; after, a deal is kept in
proportion to how many cards of the bidder's could have been the one sent. The advice does
not need one: it takes the view itself and deals the unseen cards as it samples, so a
computer player's decision deals them once. A whole hand that fits is for what needs one:
a hand played on from a position (:mod:`.playing_out`), a puzzle's layout, the tests that
redeal the hidden cards to show that a player reads nothing hidden.

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
from collections.abc import Sequence
from typing import TypeVar

from ..engine.calls import Bid, Mode
from ..engine.cards import DECK
from ..engine.state import HandState, Phase
from .calling import auction_weight
from .dealing import Dealer, discard_rule, send_rule, void_masks
from .signals import fits_signals, shown_calls
from .view import SeatView

__all__ = ["deal_for_view", "declaration", "pick_by_weight"]

T = TypeVar("T")


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


def pick_by_weight(weighted: Sequence[tuple[float, T]], rng: random.Random) -> T:
    """One of ``weighted``'s items in proportion to its weight (importance resampling), by
    one draw of ``rng``."""
    x = rng.random() * sum(w for w, _ in weighted)
    for weight, item in weighted:
        x -= weight
        if x < 0.0:
            return item
    return weighted[-1][1]


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
    # An exchange this seat did not see, before the bidder or the partner has played a card:
    # their hands are dealt as they were dealt and the exchange is made by the rules (the
    # players make it so), as the advice deals them. Dealt as they are now instead, a lone
    # bidder read from a bid of 5 came out weaker than the bid says: the exchange's card
    # from the partner was missing from its strength.
    before_exchange = (passed_at is not None and discard_seen is None and passed_seen is None
                       and not played[bidder] and not played[partner])
    if before_exchange:
        buckets = [(6, 0) if s in (bidder, partner) else (view.held[s], voids[s])
                   for s in others]
        buckets.append((len(pool) - sum(k for k, _ in buckets), 0))
    dealer = Dealer(pool, buckets)
    shown = shown_calls(view.rules, view.calls, me)
    rules_trump = int(view.trump) if view.trump is not None else 4
    left = view.rules.left_bower

    Layout = tuple[float, list[list[int]], dict[int, int]]
    first: Layout | None = None
    chosen: Layout | None = None
    likely: list[Layout] = []
    for _ in range(max(1, tries)):
        deal = dealer.deal(rng)
        current = {s: deal[k] + known_in.get(s, []) for k, s in enumerate(others)}
        current[me] = [c.index for c in view.hand]
        dealt = {s: current[s] + played[s] for s in range(n)}
        filled: dict[int, int] = {}
        # how likely the exchange this deal implies is by the rules' discard and send (a
        # hidden exchange is the one the rules make: the players make it so)
        rules_weight = 1.0
        if before_exchange:
            assert discard_at is not None and passed_at is not None
            filled[discard_at] = discard_rule(dealt[bidder], rules_trump, left)
            filled[passed_at] = send_rule(dealt[partner], rules_trump, left)
        elif discard_at is not None:
            discard = discard_seen if discard_seen is not None else deal[len(others)][0]
            filled[discard_at] = discard
            if passed_at is not None:
                final = dealt[bidder]
                could = [passed_seen] if passed_seen is not None else [
                    c for c in final if send_rule([*dealt[partner], c], rules_trump, left) == c]
                could = [c for c in could if discard_seen is not None or discard_rule(
                    [*(x for x in final if x != c), discard], rules_trump, left) == discard]
                # Each card that could have been sent is another layout as dealt: weighed by
                # how many there are, the layouts as dealt come out equally likely.
                rules_weight = len(could) / 6 if passed_seen is None else float(bool(could))
                passed = rng.choice(could) if could else rng.choice(final)
                filled[passed_at] = passed
                dealt[bidder] = [c for c in final if c != passed] + [discard]
                dealt[partner] = dealt[partner] + [passed]
            else:
                dealt[bidder] = dealt[bidder] + [discard]
                if discard_seen is None:
                    rules_weight = float(discard_rule(dealt[bidder], rules_trump, left)
                                         == discard)
        dealt[me] = [c.index for c in view.dealt]
        weight = rules_weight
        if auction and weight:
            weight *= auction_weight(view.rules, int(view.dealer), view.calls,
                                     {s: dealt[s] for s in others}, declaration(view))
        if shown and not fits_signals(view.rules, shown, dealt):
            weight = 0.0
        layout = (weight, [sorted(dealt[s]) for s in range(n)], filled)
        if first is None:
            first = layout
        if (not auction and not shown and rules_weight == 1.0) or rng.random() < weight:
            chosen = layout
            break
        if weight > 0.0:
            likely.append(layout)
    if chosen is None:
        # Calls too unlikely to meet by chance in ``tries`` deals: one of the deals that
        # could have made them, in proportion to how likely (as the advice's sampling does);
        # only where none could (a bid signal the cards cannot back), the first dealt.
        chosen = pick_by_weight([(layout[0], layout) for layout in likely], rng) \
            if likely else first
    assert chosen is not None
    _, hands, filled = chosen
    state = HandState(view.rules, view.dealer, hands)
    for i, action in enumerate(view.actions):
        if action is None:
            action = DECK[filled[i]]
        state.apply(action)
    if state.phase is not view.phase or (view.phase is not Phase.SCORED
                                         and state.to_act != view.to_act):
        raise AssertionError("the replayed hand does not reach the view's position")
    return state
