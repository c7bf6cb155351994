"""Computer players: every decision of a hand, from what one seat may see.

A player is any object with ``decide(view) -> action`` (:class:`Player`); it is given a
:class:`~pepper_tutor.analysis.view.SeatView` and nothing else, so it cannot read a hidden
card. :func:`make_player` builds one of three levels:

- ``beginner``: rules of thumb a new player uses (count trumps and aces to bid, lead aces,
  follow low, win cheaply, never trump a partner on purpose), with beginner mistakes made
  on purpose now and then (overbidding, discarding carelessly, playing high for no reason);
  never an illegal action.
- ``club``: sound heuristics for the auction and the exchange (:mod:`.calling`), and sampled
  double-dummy play for the defense and every card (the unseen cards dealt at random).
- ``expert``: every decision from sampled double-dummy advice with auction-aware dealing
  (deals kept in proportion to how likely the other seats were to make their calls), its
  bids and trumps taken at the low side of their estimates (:func:`cautious_best`).

:func:`play_hand` seats players round a :class:`~pepper_tutor.engine.state.HandState` and plays
it to the end.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.cards import DECK
from ..engine.ranking import EFFECTIVE_SUIT, TRICK_RANK, TRUMP_OF, trump_code, winner_of
from ..engine.seats import Seat
from ..engine.state import Action, HandState, Phase
from .calling import hand_tricks, hand_value, opening, quick_count, side_estimate, trump_count
from .dealing import discard_rule, send_rule
from .view import SeatView, view_of

if TYPE_CHECKING:
    from .advice import Advice, OptionAdvice

__all__ = ["LEVELS", "DEFAULT_LEVEL", "Player", "BeginnerPlayer", "ClubPlayer", "ExpertPlayer",
           "make_player", "play_hand", "cautious_best"]

LEVELS = ("beginner", "club", "expert")
DEFAULT_LEVEL = "club"


@runtime_checkable
class Player(Protocol):
    """Anything that can take a seat: ``decide`` returns one of ``view.legal``."""

    level: str

    def decide(self, view: SeatView) -> Action: ...


def make_player(level: str = DEFAULT_LEVEL, seed: int | random.Random | None = None,
                samples: int | None = None) -> Player:
    """A computer player of ``level`` (``beginner``, ``club`` or ``expert``); the same seed
    gives the same decisions.

    ``samples`` caps how many deals the sampling levels solve for any one decision (default:
    the level's own counts, see :class:`ClubPlayer` and :class:`ExpertPlayer`). The player
    decides by the same steps, only on fewer deals, so it plays worse and faster: the
    legality tests use it to play thousands of hands. The beginner samples nothing."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    key = str(level).strip().lower()
    if samples is not None and samples < 1:
        raise ValueError(f"a player needs at least one sample a decision, not {samples}")
    if key == "beginner":
        return BeginnerPlayer(rng)
    if key == "club":
        return ClubPlayer(rng, samples)
    if key == "expert":
        return ExpertPlayer(rng, samples)
    raise ValueError(f"{level!r} is not a level (expected one of {', '.join(LEVELS)})")


def play_hand(state: HandState, players: Mapping[Seat, Player] | Sequence[Player],
              scores: Mapping[str, int] | None = None,
              on_decision: Callable[[HandState, Action], None] | None = None) -> HandState:
    """Play ``state`` to the end, each seat deciding from its own view; ``on_decision(state,
    action)`` is called before each action is applied. Returns the same (finished) state."""
    while not state.is_terminal():
        seat = state.to_act
        assert seat is not None
        player = players[seat] if isinstance(players, Mapping) else players[int(seat)]
        action = player.decide(view_of(state, seat, scores))
        if on_decision is not None:
            on_decision(state, action)
        state.apply(action)
    return state


# ---- helpers on card indices ---------------------------------------------------------------


def _indices(cards: Sequence[Action]) -> list[int]:
    return [c.index for c in cards]  # type: ignore[union-attr]


# The helpers below take a ranking code (engine.ranking.trump_code: the trump, and whether
# the table promotes its left bower), so every table lookup follows the table's switch.


def _code(view: SeatView) -> int:
    """The ranking code of the hand's trump (4, no trump, until one is named)."""
    return 4 if view.trump is None else trump_code(view.trump, view.rules.left_bower)


def _power(card: int, led: int, code: int) -> int:
    """How strong a card is in a trick led in suit ``led``: trumps top, off-suit -1."""
    s = EFFECTIVE_SUIT[code][card]
    r = TRICK_RANK[code][card]
    return r + 10 if s == TRUMP_OF[code] else r if s == led else -1


def _is_trump(card: int, code: int) -> bool:
    return EFFECTIVE_SUIT[code][card] == TRUMP_OF[code]  # no trump (4) matches no suit


def _order(card: int, code: int) -> tuple[int, int]:
    """Weakest first: plain cards by rank, then trumps by rank."""
    return (TRICK_RANK[code][card] + (10 if _is_trump(card, code) else 0), card)


def _trick_state(view: SeatView) -> tuple[list[int], int, int]:
    """The current trick's cards, the seat winning it so far (-1 if empty), the led suit."""
    trump = _code(view)
    cards = [c.index for _, c in view.trick]
    if not cards:
        return cards, -1, -1
    win = winner_of(cards, trump)
    return cards, int(view.trick[win][0]), EFFECTIVE_SUIT[trump][cards[0]]


def _same_side(view: SeatView, seat: int) -> bool:
    return view.side_of(seat) == view.side_of(view.seat)


def _bid_for(view: SeatView, estimate: float, least: float = 0.0) -> Bid:
    """The call for a side estimate: the highest bid at or under it, if one is allowed;
    below ``least`` a pass."""
    legal = [a for a in view.legal if isinstance(a, Bid)]
    bids = [b for b in legal if b is not Bid.PASS]
    wanted: Bid | None = None
    if estimate < least:
        return Bid.PASS if Bid.PASS in legal else bids[0]
    for b in bids:
        if b.is_pepper:
            if b is Bid.LITTLE_PEPPER and estimate >= 6.9 and view.rules.partnerships:
                wanted = b
            continue
        if int(b) <= math.floor(estimate):
            wanted = b
    if wanted is None and estimate >= 5.5:  # above the ladder's top numeric bid
        numeric = [b for b in bids if not b.is_pepper]
        wanted = numeric[-1] if numeric else None
    if wanted is not None:
        return wanted
    return Bid.PASS if Bid.PASS in legal else bids[0]  # the stuck dealer bids the least


def _heuristic_card(view: SeatView, rng: random.Random | None = None,
                    slip: float = 0.0) -> int:
    """Rules of thumb for a card; with probability ``slip`` a beginner's careless card."""
    trump = _code(view)
    legal = _indices(view.legal)
    if len(legal) == 1:
        return legal[0]
    cards, winner, led = _trick_state(view)
    careless = rng is not None and rng.random() < slip
    if not cards:
        if careless:
            assert rng is not None
            return rng.choice(legal)
        aces = [c for c in legal if TRICK_RANK[trump][c] == 5 and not _is_trump(c, trump)]
        trumps = [c for c in legal if _is_trump(c, trump)]
        if view.on_bidding_side and trumps and len(trumps) >= 2:
            return max(trumps, key=lambda c: _order(c, trump))  # draw the trumps
        if aces:
            return aces[0]
        return min(legal, key=lambda c: _order(c, trump))
    best = max(_power(c, led, trump) for c in cards)
    if careless:
        return max(legal, key=lambda c: _order(c, trump))  # plays high for no reason
    if _same_side(view, winner):
        return min(legal, key=lambda c: _order(c, trump))  # partner has it: follow low
    beating = [c for c in legal if _power(c, led, trump) > best]
    if beating:
        return min(beating, key=lambda c: _power(c, led, trump))  # win as cheaply as it can
    return min(legal, key=lambda c: _order(c, trump))


# ---- beginner -------------------------------------------------------------------------------


class BeginnerPlayer:
    """Counts trumps and aces, leads aces, follows low; slips now and then on purpose."""

    level = "beginner"
    SLIP = 0.12  # how often a beginner makes one of its mistakes

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def _best_suit(self, hand: Sequence[int], left_bower: bool) -> int:
        """The suit with the best count (trumps and side aces), the estimate breaking ties."""
        return max(range(4), key=lambda t: (quick_count(hand, t, left_bower),
                                            hand_tricks(hand, t, left_bower)))

    def decide(self, view: SeatView) -> Action:
        hand = _indices(view.hand)
        phase = view.phase
        rng = self.rng
        left_bower = view.rules.left_bower
        if phase is Phase.AUCTION:
            count = quick_count(hand, self._best_suit(hand, left_bower), left_bower)
            # With a partner a beginner bids its count; alone it bids one less.
            estimate = float(count if view.partner is not None else count - 1)
            if rng.random() < self.SLIP:
                estimate += 1  # the classic mistake: overbidding
            return _bid_for(view, min(estimate, 6.0))
        if phase is Phase.DECLARE_TRUMP:
            suit = self._best_suit(hand, left_bower)
            if (trump_count(hand, suit, left_bower) <= 1
                    and hand_tricks(hand, 4) > hand_tricks(hand, suit, left_bower)):
                return Trump.NT
            return Trump(suit)
        if phase is Phase.DECLARE_MODE:
            code = _code(view)
            strong = trump_count(hand, TRUMP_OF[code], left_bower) >= 4 and any(
                TRICK_RANK[code][c] == 6 for c in hand)
            return Mode.EXCHANGE if strong else Mode.PARTNER
        if phase is Phase.DISCARD or phase is Phase.SEND:
            trump = int(view.trump) if view.trump is not None else 4
            if rng.random() < self.SLIP:
                return DECK[rng.choice(hand)]  # careless: any card
            rule = discard_rule if phase is Phase.DISCARD else send_rule
            return DECK[rule(hand, trump, left_bower)]
        if phase is Phase.DEFENSE:
            if Defense.SURRENDER not in view.legal:
                return Defense.PLAY
            weak = trump_count(hand, TRUMP_OF[_code(view)], left_bower) == 0 and not any(
                c % 6 == 5 for c in hand)
            if rng.random() < self.SLIP:
                weak = not weak
            return Defense.SURRENDER if weak and view.high_bid >= Bid.FOUR else Defense.PLAY
        if phase is Phase.PLAY:
            return DECK[_heuristic_card(view, rng, self.SLIP)]
        raise ValueError(f"there is no decision to make: the hand is {phase}")


# ---- club and expert ------------------------------------------------------------------------


def _heuristic_call(view: SeatView) -> Action:
    """Auction, trump and way of playing from the calling model's estimates."""
    hand = _indices(view.hand)
    rules = view.rules
    if view.phase is Phase.AUCTION:
        return _bid_for(view, hand_value(rules, hand)[0], opening(rules))
    if view.phase is Phase.DECLARE_TRUMP:
        return Trump(hand_value(rules, hand)[1])
    trump = int(view.trump) if view.trump is not None else 4
    alone = side_estimate(rules, hand, trump, alone=True) - 0.4
    with_partner = side_estimate(rules, hand, trump)
    # Alone only when the hand makes the bid by itself with the exchange's help.
    enough = alone >= view.high_bid.tricks
    return Mode.EXCHANGE if enough and alone >= with_partner else Mode.PARTNER


class _SamplingPlayer:
    """Decides with sampled double-dummy advice where its level says so."""

    level = "club"
    play_samples = 10
    defense_samples = 16
    bid_samples = 0  # 0: bid by the calling model
    exchange_samples = 0  # 0: discard and send by the rules
    auction = False
    caution = 0.0  # calls: see cautious_best

    def __init__(self, rng: random.Random, samples: int | None = None) -> None:
        self.rng = rng
        if samples is not None:  # a cap: a count of 0 (decide by heuristics) stays 0
            for name in ("play_samples", "defense_samples", "bid_samples",
                         "exchange_samples"):
                setattr(self, name, min(getattr(self, name), samples))

    def _advice(self, view: SeatView, samples: int) -> Action:
        from .advice import advise  # advice imports the solver: load it when first needed

        # Bids and trumps are taken cautiously; how to play them (partner or alone) by the
        # plain mean: playing alone varies less from deal to deal, so a cautious ranking
        # sent the expert alone in over half its contracts (the analysis: about a third).
        cautious = view.phase in (Phase.AUCTION, Phase.DECLARE_TRUMP)

        # The advice takes the view itself and deals the unseen cards from it as it samples
        # (reading the auction when the level does): the decision deals them once.
        if view.phase is Phase.AUCTION or view.phase is Phase.DECLARE_TRUMP:
            from .advice import advise_bid

            # Solve only the trumps the hand could name: the two likeliest suits and no
            # trump; the others are never the best choice and cost as much to solve.
            hand = _indices(view.hand)
            suits = sorted(range(4),
                           key=lambda t: -hand_tricks(hand, t, view.rules.left_bower))[:2]
            advice = advise_bid(view, samples, seed=self.rng, auction=self.auction,
                                until_clear=True, trumps=[Trump(t) for t in (*suits, 4)])
        else:
            advice = advise(view, samples, seed=self.rng, auction=self.auction,
                            until_clear=True)
        best = cautious_best(advice, self.caution) if cautious else advice.best
        for value in (best.card, best.defense):
            if value is not None:
                return value
        if view.phase is Phase.AUCTION:
            assert best.bid is not None
            return best.bid
        if view.phase is Phase.DECLARE_TRUMP:
            assert best.trump is not None
            return best.trump
        assert best.mode is not None
        return best.mode

    def decide(self, view: SeatView) -> Action:
        phase = view.phase
        if len(view.legal) == 1:
            return view.legal[0]
        if phase in (Phase.AUCTION, Phase.DECLARE_TRUMP, Phase.DECLARE_MODE):
            if self.bid_samples:
                return self._advice(view, self.bid_samples)
            return _heuristic_call(view)
        if phase is Phase.DISCARD or phase is Phase.SEND:
            if self.exchange_samples:
                return self._advice(view, self.exchange_samples)
            trump = int(view.trump) if view.trump is not None else 4
            rule = discard_rule if phase is Phase.DISCARD else send_rule
            return DECK[rule(_indices(view.hand), trump, view.rules.left_bower)]
        if phase is Phase.DEFENSE:
            return self._advice(view, self.defense_samples)
        if phase is Phase.PLAY:
            if len(view.hand) <= 1:
                return view.legal[0]
            return self._advice(view, self.play_samples)
        raise ValueError(f"there is no decision to make: the hand is {phase}")


def cautious_best(advice: Advice, caution: float) -> OptionAdvice:
    """The call whose points, less ``caution`` times its 95% interval's half-width, are
    highest. Among a dozen contracts estimated on a few dozen deals, the one that looks
    best is often one whose deals happened to fall well (the winner's curse), and
    double-dummy play flatters the bidder, who in a real hand cannot see the cards: taking
    each option at the low side of its estimate keeps a player from bidding on luck. In
    duplicate matches against the club player it took the expert from +0.4 and -0.2 points
    a hand (both intervals across zero) to +1.3 and +1.2 (from +0.6 at the lowest) on the
    same two sets of 120 deals."""
    def worth(option: OptionAdvice) -> float:
        estimate = option.net if option.net is not None else option.score
        return estimate.mean - caution * estimate.half_width

    return max(advice.options, key=worth)  # ties keep the advice's own order


class ClubPlayer(_SamplingPlayer):
    """Sound bidding by the calling model; defense and every card by sampled double-dummy
    play over random deals of the unseen cards."""

    level = "club"


class ExpertPlayer(_SamplingPlayer):
    """Every decision by sampled double-dummy advice over auction-aware deals; each bid and
    trump is ranked by its points less one half-width of their interval
    (:func:`cautious_best`)."""

    level = "expert"
    play_samples = 16
    defense_samples = 30
    bid_samples = 40
    exchange_samples = 12
    auction = True
    caution = 1.0
