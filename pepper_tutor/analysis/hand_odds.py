"""What a hand's side takes, measured: the calling model's count against double-dummy play.

:func:`.calling.hand_tricks` counts what players count at the table (bowers, trumps, aces,
guarded kings), and :func:`.calling.side_estimate` adds a fixed share for the partner or the
exchange. Measured against double-dummy play of 40,000 dealt hands
(``python -m pepper_tutor.bench hand_odds``: the hand's best-rated trump named, the rest of the
deal at random, the bidder leading, the defenders playing), that estimate runs short by about
half a trick with a partner and a whole trick alone with the exchange for the hands that bid: a
hand the model counts 3 tricks on its own (4.1 with a partner, 3.55 alone) takes 4.7 either way.
A club player bidding by it bid four hands in ten and made 97% of its contracts, which is
underbidding.

The shared estimate is left as it is (the advice's auction reading and the drills stand on
it); the computer players' bidding reads the measured shares instead (:data:`SHARES`): for the
hand's own count to the half trick, how often its side takes 0, 1, ... 6 tricks with a partner
and alone with the exchange. :func:`contract_value` turns those shares into the bid's expected
points by the table's own scoring, and :func:`valued_call` bids the call worth most.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.calls import Bid
from ..engine.rules import RuleSet
from ..engine.scoring import score_hand
from .calling import hand_tricks
from .view import SeatView

__all__ = ["SHARES", "WAYS", "measured_for", "own_count", "trick_shares", "contract_value",
           "valued_call"]

# The side's double-dummy tricks (shares of 0..6) by the hand's own count (its best trump's
# calling.hand_tricks), rounded to the half trick from 0.5 to 5.0; measured by
# `python -m pepper_tutor.bench hand_odds --hands 40000 --seed 7` (the hands per row in the
# comments).
SHARES: dict[str, dict[float, tuple[float, ...]]] = {
    "partner": {
        0.5: (0.148, 0.296, 0.259, 0.185, 0.037, 0.037, 0.037),  # 27
        1.0: (0.122, 0.168, 0.234, 0.212, 0.146, 0.090, 0.028),  # 1,233
        1.5: (0.031, 0.118, 0.189, 0.231, 0.218, 0.145, 0.067),  # 4,910
        2.0: (0.002, 0.042, 0.141, 0.225, 0.257, 0.202, 0.130),  # 10,314
        2.5: (0.000, 0.010, 0.092, 0.187, 0.263, 0.261, 0.188),  # 9,458
        3.0: (0.000, 0.001, 0.025, 0.131, 0.248, 0.319, 0.277),  # 8,688
        3.5: (0.000, 0.000, 0.004, 0.054, 0.233, 0.315, 0.395),  # 3,436
        4.0: (0.000, 0.000, 0.000, 0.010, 0.105, 0.376, 0.509),  # 1,562
        4.5: (0.000, 0.000, 0.000, 0.000, 0.006, 0.333, 0.660),  # 312
        5.0: (0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 1.000),  # 60
    },
    "alone": {
        0.5: (0.222, 0.481, 0.148, 0.111, 0.037, 0.000, 0.000),  # 27
        1.0: (0.123, 0.270, 0.303, 0.243, 0.049, 0.011, 0.001),  # 1,233
        1.5: (0.019, 0.105, 0.268, 0.329, 0.214, 0.059, 0.005),  # 4,910
        2.0: (0.001, 0.030, 0.139, 0.291, 0.343, 0.161, 0.035),  # 10,314
        2.5: (0.000, 0.008, 0.051, 0.222, 0.365, 0.285, 0.068),  # 9,458
        3.0: (0.000, 0.002, 0.016, 0.080, 0.285, 0.462, 0.156),  # 8,688
        3.5: (0.000, 0.000, 0.002, 0.026, 0.124, 0.523, 0.324),  # 3,436
        4.0: (0.000, 0.000, 0.000, 0.013, 0.049, 0.270, 0.668),  # 1,562
        4.5: (0.000, 0.000, 0.000, 0.000, 0.026, 0.154, 0.821),  # 312
        5.0: (0.000, 0.000, 0.000, 0.000, 0.000, 0.200, 0.800),  # 60
    },
}
WAYS = tuple(SHARES)


def measured_for(rules: RuleSet) -> bool:
    """Whether the computer players bid by the shares at ``rules``'s table: four players in
    two partnerships with the exchange (where they were measured), paying a made bid what
    was bid. Where a made bid scores every trick taken (the simple rules, ``score what you
    get``), the lowest bid would always look best: what it is worth hangs on the others'
    overcalls, which the shares do not value."""
    if not (rules.partnerships and rules.players == 4 and rules.has_exchange):
        return False
    side, other = rules.sides[0], rules.sides[1]
    made = score_hand(rules, Bid(rules.minimum_bid), side, {side: 5, other: 1}).points
    return made[side] == rules.minimum_bid


def own_count(rules: RuleSet, hand: Sequence[int]) -> float:
    """The hand's own count in its best-rated trump (or no trump), the row it is read by."""
    return max(hand_tricks(hand, trump, rules.left_bower) for trump in range(5))


def trick_shares(rules: RuleSet, hand: Sequence[int], way: str) -> tuple[float, ...]:
    """How often the side of a bidder holding ``hand`` takes 0..6 tricks, ``way`` being
    ``partner`` or ``alone`` (with the exchange), as measured (:data:`SHARES`)."""
    row = min(5.0, max(0.5, round(own_count(rules, hand) * 2) / 2))
    return SHARES[way][row]


def contract_value(rules: RuleSet, bid: Bid, shares: Sequence[float]) -> float:
    """The bidders' expected points less the defenders' for ``bid`` when the side takes
    0..6 tricks with ``shares``, by the table's scoring (the defenders playing)."""
    side, other = rules.sides[0], rules.sides[1]
    value = 0.0
    for tricks, share in enumerate(shares):
        if share:
            points = score_hand(rules, bid, side, {side: tricks, other: 6 - tricks}).points
            value += share * (points[side] - points[other])
    return value


def valued_call(view: SeatView) -> Bid:
    """The legal bid worth most to this seat's side by :func:`contract_value`, over the
    better way of playing it; a pass when no bid is worth more than nothing (a pass leaves
    the hand to the others or throws it in). Big pepper, played without the exchange, is
    never valued by these shares, so never bid; a dealer who must bid bids the least it
    may when nothing is worth more."""
    rules = view.rules
    hand = [c.index for c in view.hand]
    ways = [trick_shares(rules, hand, way) for way in WAYS]
    bids = [b for b in view.legal if isinstance(b, Bid) and b is not Bid.PASS]
    best, worth = None, 0.0
    for bid in bids:
        if bid is Bid.BIG_PEPPER:
            continue
        value = max(contract_value(rules, bid, shares) for shares in ways)
        if value > worth:
            best, worth = bid, value
    if best is not None:
        return best
    return Bid.PASS if Bid.PASS in view.legal else min(bids)
