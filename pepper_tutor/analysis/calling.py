"""The one model of how strong a hand is, and of how people bid, for the computer players,
the sampling and the drills. Every count follows the rule set's switches: a jack is a
trump (the left bower) only where the table plays with it.

:func:`hand_tricks` guesses how many tricks a hand takes with a given trump by counting what
players count at the table (bowers, trumps, aces, guarded kings); :func:`side_estimate` adds
what a partner or the exchange is worth; :func:`hand_value` is the best of those over the
trumps and ways of playing.

:func:`call_likelihood` turns that guess into how likely a seat was to make the call it
made: the seat is modelled as bidding its estimate plus a normal error of spread
:data:`SPREAD`, so a pass says "my estimate is below the next bid" and a bid of 4 says
"my estimate is about 4". Auction-aware sampling (:mod:`.dealing`) keeps each sampled deal
with that likelihood (relative to the most likely hand for the call), which is rejection
sampling from the deals in proportion to how likely they were to have made the calls seen.
Once the high bidder has named its trump (and its way of playing), its bids are read in
that trump and way (:func:`declared_value`), not in whatever suit the hand is best in: a
little pepper in spades says strong spades. The relative likelihood is taken against the
likeliest hand the estimate can reach (:func:`scale_top`): the pepper windows lie above the
strongest hand's estimate, and measured against a hand that cannot exist every deal looked
unlikely, so that the sampling ran out of tries and fell back to random deals.

What follows a call, by the same model (:mod:`.advice` values every call by it):
:func:`model_call` is the call of a seat whose estimate plus error is a given value (the
very windows :func:`call_likelihood` reads, so the calls a deal is sampled with and the
calls it goes on with agree), :func:`model_declaration` the trump and way of playing that
seat names, and :func:`model_surrenders` whether the defenders give a contract up.

The quick counts a player makes at the table, before any estimate: :func:`trump_count` (the
trumps held), :func:`quick_count` (trumps and outside aces, a beginner's count),
:func:`trump_strength` (the trumps' ranks added up: which suit to name, :func:`best_suit`,
:func:`top_suits`), and :func:`count_tricks` (the tricks a player counts on in that suit), with
:func:`counted_call`, the call that count leads to.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Container, Iterator, Mapping, Sequence

from ..engine.calls import Bid
from ..engine.ranking import EFFECTIVE_SUIT, TRICK_RANK, TRUMP_OF, trump_code
from ..engine.rules import RuleSet
from ..engine.seats import Seat

__all__ = ["SPREAD", "hand_tricks", "side_estimate", "hand_value", "call_likelihood",
           "bid_level", "opening", "auction_weight", "counted_calls", "call_window",
           "declared_value", "scale_top",
           "model_call", "model_declaration",
           "model_surrenders", "trump_count", "quick_count",
           "trump_strength", "best_suit", "top_suits", "count_tricks", "counted_call"]

SPREAD = 0.8
"""Standard deviation, in tricks, of a bidder's error around the model's estimate."""

# Worth in tricks of a trump by trick rank (9, 10, Q, K, A, left bower, right bower).
_TRUMP_WORTH = (0.35, 0.35, 0.45, 0.55, 0.75, 0.85, 1.0)
_NT_ACE, _NT_GUARDED_KING, _NT_KING = 0.9, 0.55, 0.2
_PLAIN_ACE, _PLAIN_KING_WITH_ACE = 0.65, 0.3
_PARTNER = 1.1  # what a partner's hand adds on average
_EXCHANGE = 0.55  # what the partner's best card adds to a lone bidder


def hand_tricks(hand: Sequence[int], trump: int, left_bower: bool = True) -> float:
    """Tricks the hand is worth on its own with ``trump`` (0-3, or 4 for no trump), ranked
    by the table's left-bower switch."""
    code = trump_code(trump, left_bower)
    suits, ranks = EFFECTIVE_SUIT[code], TRICK_RANK[code]
    # The suits in which the hand holds an ace (trick rank 5; in the trump suit that is
    # the left bower, never asked about), worked out once rather than per king.
    aced = {suits[d] for d in hand if ranks[d] == 5}
    total = 0.0
    if trump == 4:
        for c in hand:
            r = ranks[c]
            if r == 5:
                total += _NT_ACE
            elif r == 4:
                s = suits[c]
                total += _NT_GUARDED_KING if s in aced or sum(
                    1 for d in hand if suits[d] == s) >= 2 else _NT_KING
        return total
    trumps = 0
    for c in hand:
        s = suits[c]
        if s == trump:
            trumps += 1
            total += _TRUMP_WORTH[ranks[c]]
        elif ranks[c] == 5:
            total += _PLAIN_ACE
        elif ranks[c] == 4 and s in aced:
            total += _PLAIN_KING_WITH_ACE
    if trumps >= 3:
        total += 0.3 * (trumps - 2)  # long trumps take tricks by length and ruffing
    return total


# ---- the quick counts: trumps, aces, and the tricks a player counts on ----------------------


def _trumps(hand: Sequence[int], code: int) -> list[int]:
    suits, trump = EFFECTIVE_SUIT[code], TRUMP_OF[code]  # no trump (4) matches no suit
    return [c for c in hand if suits[c] == trump]


def trump_count(hand: Sequence[int], trump: int, left_bower: bool = True) -> int:
    """How many trumps the hand holds with ``trump`` (0-3, or 4 for no trump: none)."""
    return len(_trumps(hand, trump_code(trump, left_bower)))


def quick_count(hand: Sequence[int], trump: int, left_bower: bool = True) -> int:
    """A beginner's count for a suit: the trumps held, plus the aces on the side."""
    code = trump_code(trump, left_bower)
    trumps = _trumps(hand, code)
    return len(trumps) + sum(1 for c in hand if c % 6 == 5 and c not in trumps)


def trump_strength(rules: RuleSet, hand: Sequence[int], trump: int) -> int:
    """The ranks of the hand's trumps in ``trump`` (0-3) added up, each counted from 8 so
    that length tells as well as height: a player's measure of which suit to name."""
    code = trump_code(trump, rules.left_bower)
    return sum(TRICK_RANK[code][c] + 8 for c in _trumps(hand, code))


def best_suit(rules: RuleSet, hand: Sequence[int]) -> int:
    """The suit (0-3) whose trumps rank highest in total: a player's first pick."""
    return max(range(4), key=lambda t: trump_strength(rules, hand, t))


def top_suits(rules: RuleSet, hand: Sequence[int], k: int = 2) -> tuple[int, ...]:
    """The ``k`` suits (0-3) the hand is strongest in, strongest first."""
    return tuple(sorted(range(4), key=lambda t: -trump_strength(rules, hand, t))[:k])


@functools.cache
def _places(code: int) -> dict[int, int]:
    """Each trump's place in its suit's order, counted from the lowest: its trick rank, except
    that without the left bower the right bower stands just above the ace, not a rank
    higher (so that "the top trumps in an unbroken run" reads the same with either switch)."""
    ladder = sorted(TRICK_RANK[code][c] for c in range(24)
                    if EFFECTIVE_SUIT[code][c] == TRUMP_OF[code])
    return {rank: i for i, rank in enumerate(ladder)}


def count_tricks(rules: RuleSet, hand: Sequence[int]) -> int:
    """Tricks a player counts on in their best suit: the bowers and top trumps, outside
    aces, half a trick for other trumps, and one for the exchange."""
    code = trump_code(best_suit(rules, hand), rules.left_bower)
    trumps = _trumps(hand, code)
    place = _places(code)
    ranks = sorted((place[TRICK_RANK[code][c]] for c in trumps), reverse=True)
    top = sum(1 for k, r in enumerate(ranks) if r >= max(ranks) - k and k < 3) if ranks else 0
    aces = sum(1 for c in hand if c % 6 == 5 and c not in trumps)
    return top + aces + (len(ranks) - top) // 2 + 1


def counted_call(rules: RuleSet, hand: Sequence[int], legal: Sequence[Bid]) -> Bid:
    """What a player who counts their tricks calls, of the ``legal`` calls: that many if it
    tops the standing bid and is at least 2, else pass (a stuck dealer bids the least
    allowed)."""
    want = Bid(min(6, count_tricks(rules, hand)))
    if want >= 2 and want in legal:
        return want
    return Bid.PASS if Bid.PASS in legal else min(b for b in legal if b is not Bid.PASS)


# ---- what a side may expect ------------------------------------------------------------------


def side_estimate(rules: RuleSet, hand: Sequence[int], trump: int, alone: bool = False
                  ) -> float:
    """Tricks the bidder's side may expect: the hand, plus a partner's share or, alone
    with the exchange, the partner's best card."""
    own = hand_tricks(hand, trump, rules.left_bower)
    if rules.partnerships and rules.players == 4:
        if alone and rules.has_exchange:
            return own + _EXCHANGE
        return own + _PARTNER
    return own


def hand_value(rules: RuleSet, hand: Sequence[int]) -> tuple[float, int, bool]:
    """``(estimate, trump, alone)``: the best trump and way of playing, and its estimate."""
    best = (-1.0, 0, False)
    ways = (False, True) if rules.has_exchange else (False,)
    partner = rules.partnerships and rules.players == 4
    for trump in range(5):
        # once a trump: the ways differ by a constant
        own = hand_tricks(hand, trump, rules.left_bower)
        for alone in ways:
            # the same sums as side_estimate, which the auction's sampling calls by the
            # thousand through here
            e = (own + (_EXCHANGE if alone and rules.has_exchange else _PARTNER)
                 if partner else own)
            if alone:
                e -= 0.4  # alone pays only when it makes: prefer partner at equal strength
            if e > best[0]:
                best = (e, trump, alone)
    return best


def declared_value(rules: RuleSet, hand: Sequence[int], trump: int, alone: bool | None
                   ) -> float:
    """The estimate of a bidder who named ``trump`` and played ``alone`` (with the
    exchange; ``None``: not yet declared, the better way), on :func:`hand_value`'s scale."""
    ways = (alone,) if alone is not None else (
        (False, True) if rules.has_exchange else (False,))
    return max(side_estimate(rules, hand, trump, way) - (0.4 if way else 0.0) for way in ways)


@functools.lru_cache(maxsize=32)
def scale_top(rules: RuleSet) -> float:
    """The highest estimate :func:`hand_value` gives: six top trumps of one suit, which rate
    at least as high as any hand with an outside ace in their place."""
    code = trump_code(3, rules.left_bower)
    trumps = sorted((c for c in range(24) if EFFECTIVE_SUIT[code][c] == 3),
                    key=lambda c: -TRICK_RANK[code][c])
    return hand_value(rules, trumps[:6])[0]


def bid_level(bid: Bid) -> float:
    """Where a call sits on the estimate scale: a bid of n at n, the peppers above 6."""
    if bid is Bid.PASS:
        return 0.0
    return {Bid.LITTLE_PEPPER: 6.5, Bid.BIG_PEPPER: 7.0}.get(bid, float(int(bid)))


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def opening(rules: RuleSet) -> float:
    """The least estimate a seat opens the bidding with: lower bids are legal, but a side
    that expects fewer tricks than this does better letting the others bid."""
    return 3.0 if rules.partnerships else 2.0


def _interval(rules: RuleSet, high: Bid, call: Bid, forced: bool) -> tuple[float, float]:
    """The range of ``estimate + error`` that leads to ``call`` over the high bid so far
    (``forced``: of a dealer who must bid, from the least such a dealer may bid)."""
    above = list(rules.dealer_bids) if forced else [b for b in rules.ladder if b > high]
    if not above:
        return (-math.inf, math.inf)
    if call is Bid.PASS:
        return (-math.inf, max(bid_level(above[0]), opening(rules)))
    i = above.index(call)
    low = -math.inf if (forced and i == 0) else bid_level(call)
    top = bid_level(above[i + 1]) if i + 1 < len(above) else math.inf
    if forced and i == 0:
        top = max(top, opening(rules))  # the stuck dealer bids the least with a weak hand
    return (low, top)


def _mass(low: float, top: float, centre: float) -> float:
    return _phi((top - centre) / SPREAD) - _phi((low - centre) / SPREAD)


@functools.lru_cache(maxsize=1024)
def _window(rules: RuleSet, high: Bid, call: Bid, forced: bool) -> tuple[float, float, float]:
    """The interval of a call and the likelihood of the hand likeliest to make it: the
    same for every hand, and auction-aware sampling asks for them by the thousand."""
    low, top = _interval(rules, high, call, forced)
    if low == -math.inf:
        return low, top, 1.0  # a weak enough hand makes it surely
    # The likeliest hand sits mid-window, or as high as an estimate goes where the window
    # (a pepper's) lies above that: the relative likelihood is against a hand that exists.
    centre = min(scale_top(rules), (low + top) / 2 if top < math.inf else math.inf)
    return low, top, _mass(low, top, centre)


def call_likelihood(rules: RuleSet, hand: Sequence[int], high: Bid, call: Bid,
                    forced: bool = False, declared: tuple[int, bool | None] | None = None
                    ) -> float:
    """How likely a seat holding ``hand`` was to make ``call`` when the high bid was
    ``high``, relative to the hand most likely to make it (so in 0..1). ``forced``: the
    dealer stuck with the bid, for whom passing was not allowed. ``declared``: the trump
    (0-4) and way of playing (alone, or ``None`` if not yet declared) the seat went on to
    name, in which its bid is read (:func:`declared_value`)."""
    low, top, best = _window(rules, high, call, forced)
    if low == -math.inf and top == math.inf:
        return 1.0
    estimate = (hand_value(rules, hand)[0] if declared is None
                else declared_value(rules, hand, *declared))
    return min(1.0, _mass(low, top, estimate) / best)


def auction_weight(rules: RuleSet, dealer: int, calls: Sequence[tuple[Seat, Bid]],
                   hands: Mapping[int, Sequence[int]],
                   declared: tuple[int, bool | None] | None = None) -> float:
    """The likelihood (0..1, relative) of the calls seen, for the seats whose dealt hands
    are given; seats not in ``hands`` (the viewer) do not count. ``declared``: the high
    bidder's trump and way of playing, once named, in which its bids are read."""
    weight = 1.0
    for s, high, call, forced, named in counted_calls(rules, dealer, calls, hands, declared):
        weight *= call_likelihood(rules, hands[s], high, call, forced, named)
        if weight == 0.0:
            return 0.0
    return weight


def counted_calls(rules: RuleSet, dealer: int, calls: Sequence[tuple[Seat, Bid]],
                  seats: Container[int], declared: tuple[int, bool | None] | None = None
                  ) -> Iterator[tuple[int, Bid, Bid, bool, tuple[int, bool | None] | None]]:
    """The calls :func:`auction_weight` reads, in order, by the ``seats`` counted: each as
    ``(seat, high, call, forced, named)``, the arguments of its :func:`call_likelihood`
    (the native sampling reads the same walk, :mod:`.advice.native_sampling`)."""
    high = Bid.PASS
    bidder = -1
    last = next((int(s) for s, c in reversed(calls) if c is not Bid.PASS), -1)
    for seat, call in calls:
        s = int(seat)
        if s in seats:
            forced = (rules.dealer_must_bid and s == dealer and bidder < 0
                      and not rules.open_auction)
            named = declared if s == last and call is not Bid.PASS else None
            yield s, high, call, forced, named
        if call is not Bid.PASS:
            high, bidder = call, s


def call_window(rules: RuleSet, high: Bid, call: Bid, forced: bool
                ) -> tuple[float, float, float]:
    """``(low, top, best)``: the window of ``estimate + error`` that makes ``call`` and the
    likelihood of the hand likeliest to make it, by which :func:`call_likelihood` divides."""
    return _window(rules, high, call, forced)


# ---- what follows a call: the model's calls, declarations and defense ---------------------


def model_call(rules: RuleSet, value: float, high: Bid, forced: bool = False) -> Bid:
    """The call of a seat whose estimate plus error is ``value``, over the high bid
    ``high``: the first call (pass first) whose window of :func:`call_likelihood` holds it.
    A seat with a fixed value calls the same bid whatever lower bid stands, or passes."""
    above = rules.dealer_bids if forced else rules.bids_above[high]
    if not above:
        return Bid.PASS
    for call in ((Bid.PASS,) if not forced else ()) + above:
        low, top = _interval(rules, high, call, forced)
        if low <= value < top:
            return call
    return above[-1]


def model_declaration(rules: RuleSet, hand: Sequence[int], bid: Bid) -> tuple[int, bool]:
    """``(trump, alone)``: what the model's high bidder names and whether it goes alone
    (with the exchange; a big pepper is always alone, without one). The trump is the one
    :func:`hand_value` rates best; alone only when the hand makes the bid by itself with
    the exchange's help and that beats playing with the partner (the club player's rule)."""
    trump = hand_value(rules, hand)[1]
    if bid is Bid.BIG_PEPPER:
        return trump, rules.has_exchange
    if not rules.has_exchange:
        return trump, False
    alone = side_estimate(rules, hand, trump, alone=True) - 0.4
    return trump, alone >= bid.tricks and alone >= side_estimate(rules, hand, trump)


def model_surrenders(rules: RuleSet, defenders: Sequence[Sequence[int]], trump: int,
                     bid: Bid, dumped: bool = False) -> bool:
    """Whether the defenders, whose hands are given, give up ``bid`` in ``trump``. Playing
    costs them more than a surrender only when the bidders are likely to sweep (a numeric
    bid) or to make a pepper in at least three deals of four, so they give up a bid of 4
    or more only when together they expect under half a trick, and a pepper under one.
    ``dumped``: the bid is a dumped dealer's (:meth:`RuleSet.may_surrender`)."""
    if not rules.may_surrender(trump, dumped):
        return False
    expected = sum(hand_tricks(h, trump, rules.left_bower) for h in defenders)
    if bid.is_pepper:
        return expected < 1.0
    return bid >= Bid.FOUR and expected < 0.5
