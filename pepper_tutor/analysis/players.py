"""Computer players: every decision of a hand, from what one seat may see.

A player is any object with ``decide(view) -> action`` (:class:`Player`); it is given a
:class:`~pepper_tutor.analysis.view.SeatView` and nothing else, so it cannot read a hidden
card. :func:`make_player` builds one of three levels:

- ``beginner``: rules of thumb a new player uses (count trumps and aces to bid, lead aces,
  follow low, win cheaply, never trump a partner on purpose), with the mistakes a new
  player makes now and then (overbidding by a trick, surrendering a thin hand, sending an
  ace instead of a trump, playing high for no reason), never those no player makes: it
  never surrenders holding a bower, never bids a pepper without the cards for it, never
  discards a bower; never an illegal action.
- ``club``: bids the call worth most by the measured shares of tricks such hands take
  double-dummy (:mod:`.hand_odds`; over its partner, and at tables unlike the measured
  ones, by the calling model, :mod:`.calling`); the way of playing from a short sampled
  analysis of the two ways (the exchange unless the analysis finds partner clearly better,
  by the *going alone* setting); sampled double-dummy play for the defense and every card
  (the unseen cards dealt at random).
- ``expert``: every decision but the exchange from sampled double-dummy advice with
  auction-aware dealing (deals kept in proportion to how likely the other seats were to
  make their calls), its bids and trumps taken at the low side of their estimates
  (:func:`cautious_best`). Both sampling levels make the exchange by the rules (the
  partner sends its highest trump, the bidder discards the lowest card of its shortest
  plain suit, :mod:`.dealing`): double-dummy play, seeing every card, finds a queen of
  trumps worth a king and a plain ace worth a trump on most deals, so sampled advice sent
  a weaker card in about half the sends, and cost the expert 0.21 points a hand (95%:
  0.09 to 0.34) over 1,000 duplicate deals against the club player.

Neither sampling level bids over its own partner's standing bid unless the bid is clearly
worth more: the club player, when the calling model counts a trick and a half more than
partner's bid; the expert, only when the near end of the bid's gain over the pass (which
the advice values as partner's contract played out; :func:`over_partner_gain`) is at least
:data:`CLEARLY` points (read again over more deals where its first look cannot tell), and
the bid clearly beats partner's contract made (:func:`partner_floor`). Where the analysis
finds several cards worth the same they follow the table's conventions (:func:`conventions`):
lead trumps when you called them, lead the left bower to your partner the maker, return your
partner's suit, and keep an ace rather than lead it into a lone bidder, who has likely made
themselves void with the exchange.

Where the table plays bid signals (the ``signals`` switch), every level keeps them: a 2
only with an ace, a 3 only with a red jack and a black jack, stepping down to a 2 or a pass
where its judgement says otherwise (:mod:`.signals`); and every deal it imagines of the
unseen cards gives the other seats' 2s and 3s the cards they show.

The *going alone* setting (:data:`ALONE_SETTINGS`, ``make_player(..., alone=...)``):
``analysis`` (the default) takes the exchange unless the analysis finds playing with partner
clearly better: more than its 95% interval and at least :data:`CLEARLY` points;
``rarely`` takes the exchange only when the analysis finds *it* clearly better (the beginner:
only holding both bowers and four trumps). The two ways are valued over the same few dozen
deals, and playing with partner varies more from deal to deal, so on a close call it comes
out ahead by luck more often than the exchange does (the winner's curse, as for bids, see
:func:`cautious_best`): taking partner on any lead, the club player's partner contracts were
predicted to make 76% of the time and made 65% (237 contracts against the reference player),
its exchange contracts 84% and 87%. Taking partner only when clearly better gained the club
player 0.18 points a hand (95%: 0.12 to 0.23, 2,000 duplicate deals against the reference
player) and the expert 0.35 (0.22 to 0.49, 700 deals against that club player), paired.

:func:`play_hand` seats players round a :class:`~pepper_tutor.engine.state.HandState` and plays
it to the end.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.cards import DECK, Card
from ..engine.ranking import EFFECTIVE_SUIT, TRICK_RANK, TRUMP_OF, trump_code, winner_of
from ..engine.scoring import score_hand
from ..engine.seats import Seat
from ..engine.state import Action, HandState, Phase
from .calling import hand_tricks, hand_value, opening, quick_count, side_estimate, trump_count
from .dealing import discard_rule, send_rule
from .hand_odds import measured_for, valued_call
from .signals import signal_call
from .view import SeatView, view_of

if TYPE_CHECKING:
    from .advice.report import Advice, OptionAdvice
    from .advice.tally import Estimate

__all__ = ["LEVELS", "DEFAULT_LEVEL", "ALONE_SETTINGS", "DEFAULT_ALONE", "CLEARLY", "Player",
           "BeginnerPlayer", "ClubPlayer", "ExpertPlayer", "make_player", "play_hand",
           "cautious_best", "partner_floor", "over_partner_gain", "conventions", "CONVENTIONS",
           "INDIFFERENT"]

LEVELS = ("beginner", "club", "expert")
DEFAULT_LEVEL = "club"
ALONE_SETTINGS = ("analysis", "rarely")  # see the module notes: going alone
DEFAULT_ALONE = "analysis"
CLEARLY = 1.0  # points a choice must lead by, beyond its interval, to be clearly better
INDIFFERENT = 0.1  # cards worth the same to within this (net points) leave room for habit


@runtime_checkable
class Player(Protocol):
    """Anything that can take a seat: ``decide`` returns one of ``view.legal``."""

    level: str

    def decide(self, view: SeatView) -> Action: ...


def make_player(level: str = DEFAULT_LEVEL, seed: int | random.Random | None = None,
                samples: int | None = None, alone: str = DEFAULT_ALONE) -> Player:
    """A computer player of ``level`` (``beginner``, ``club`` or ``expert``); the same seed
    gives the same decisions.

    ``samples`` caps how many deals the sampling levels solve for any one decision (default:
    the level's own counts, see :class:`ClubPlayer` and :class:`ExpertPlayer`). The player
    decides by the same steps, only on fewer deals, so it plays worse and faster: the
    legality tests use it to play thousands of hands. The beginner samples nothing.
    ``alone``: the going-alone setting, one of :data:`ALONE_SETTINGS`."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    key = str(level).strip().lower()
    if samples is not None and samples < 1:
        raise ValueError(f"a player needs at least one sample a decision, not {samples}")
    way = str(alone).strip().lower()
    if way not in ALONE_SETTINGS:
        raise ValueError(f"{alone!r} is not a going-alone setting (expected one of "
                         f"{', '.join(ALONE_SETTINGS)})")
    if key == "beginner":
        return BeginnerPlayer(rng, way)
    if key == "club":
        return ClubPlayer(rng, samples, way)
    if key == "expert":
        return ExpertPlayer(rng, samples, way)
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


def _keeping_signals(view: SeatView, call: Action) -> Action:
    """``call``, kept to the table's bid signals where it plays them: every level bids a 2
    only with an ace and a 3 only with a jack of each colour (:func:`.signals.signal_call`
    says what it bids instead)."""
    if not view.rules.signals_on or not isinstance(call, Bid):
        return call
    legal = [a for a in view.legal if isinstance(a, Bid)]
    return signal_call(view.rules, [c.index for c in view.dealt], call, legal)


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
    """Counts trumps and aces, leads aces, follows low; slips now and then on purpose, the
    way new players do, never the way no player does."""

    level = "beginner"
    SLIP = 0.12  # how often a beginner makes one of its mistakes

    def __init__(self, rng: random.Random, alone: str = DEFAULT_ALONE) -> None:
        self.rng = rng
        self.alone = alone

    def _best_suit(self, hand: Sequence[int], left_bower: bool) -> int:
        """The suit with the best count (trumps and side aces), the estimate breaking ties."""
        return max(range(4), key=lambda t: (quick_count(hand, t, left_bower),
                                            hand_tricks(hand, t, left_bower)))

    def _bid(self, view: SeatView, hand: Sequence[int]) -> Action:
        left_bower = view.rules.left_bower
        suit = self._best_suit(hand, left_bower)
        count = quick_count(hand, suit, left_bower)
        code = trump_code(suit, left_bower)
        bowers = sum(1 for c in hand if TRICK_RANK[code][c] >= 5 and _is_trump(c, code))
        # A pepper only with the cards a new player sees one in: every card a trump or an
        # ace, both bowers among them (a slip never adds a pepper).
        if count >= 6 and bowers >= 2 and view.rules.partnerships:
            pepper = [b for b in view.legal if b is Bid.LITTLE_PEPPER]
            if pepper:
                return pepper[0]
        # With a partner a beginner bids its count; alone it bids one less.
        estimate = float(count if view.partner is not None else count - 1)
        if self.rng.random() < self.SLIP:
            estimate += 1  # the classic mistake: overbidding by a trick
        return _bid_for(view, min(estimate, 6.0))

    def _defend(self, view: SeatView, hand: Sequence[int]) -> Action:
        if Defense.SURRENDER not in view.legal:
            return Defense.PLAY
        code = _code(view)
        trumps = [c for c in hand if _is_trump(c, code)]
        if any(TRICK_RANK[code][c] >= 5 for c in trumps):
            return Defense.PLAY  # a bower is a trick, or nearly: no player gives it up
        aces = [c for c in hand if c % 6 == 5 and c not in trumps]
        weak = not trumps and not aces
        if self.rng.random() < self.SLIP:
            # The slips people make: giving up a thin hand (one low trump or one ace), or
            # playing on with nothing at all.
            weak = not weak if len(trumps) + len(aces) <= 1 else weak
        return Defense.SURRENDER if weak and view.high_bid >= Bid.FOUR else Defense.PLAY

    def _exchange_card(self, view: SeatView, hand: Sequence[int]) -> Action:
        left_bower = view.rules.left_bower
        trump = int(view.trump) if view.trump is not None else 4
        code = _code(view)
        rule = discard_rule if view.phase is Phase.DISCARD else send_rule
        card = rule(hand, trump, left_bower)
        if self.rng.random() < self.SLIP:
            plain = [c for c in hand if not _is_trump(c, code)]
            if view.phase is Phase.SEND and plain:
                # Sends its best plain card, an ace if it has one, instead of a trump.
                card = max(plain, key=lambda c: _order(c, code))
            elif view.phase is Phase.DISCARD:
                # Discards carelessly, but never a bower.
                card = self.rng.choice([c for c in hand if TRICK_RANK[code][c] < 5
                                        or not _is_trump(c, code)] or hand)
        return DECK[card]

    def decide(self, view: SeatView) -> Action:
        hand = _indices(view.hand)
        phase = view.phase
        left_bower = view.rules.left_bower
        if phase is Phase.AUCTION:
            return _keeping_signals(view, self._bid(view, hand))
        if phase is Phase.DECLARE_TRUMP:
            suit = self._best_suit(hand, left_bower)
            if (trump_count(hand, suit, left_bower) <= 1
                    and hand_tricks(hand, 4) > hand_tricks(hand, suit, left_bower)):
                return Trump.NT
            return Trump(suit)
        if phase is Phase.DECLARE_MODE:
            code = _code(view)
            trumps = [c for c in hand if _is_trump(c, code)]
            ranks = {TRICK_RANK[code][c] for c in trumps}
            need = {6, 5} if self.alone == "rarely" else {6}
            strong = len(trumps) >= 4 and need <= ranks
            return Mode.EXCHANGE if strong else Mode.PARTNER
        if phase is Phase.DISCARD or phase is Phase.SEND:
            return self._exchange_card(view, hand)
        if phase is Phase.DEFENSE:
            return self._defend(view, hand)
        if phase is Phase.PLAY:
            return DECK[_heuristic_card(view, self.rng, self.SLIP)]
        raise ValueError(f"there is no decision to make: the hand is {phase}")


# ---- club and expert ------------------------------------------------------------------------


def _partner_standing(view: SeatView) -> Bid | None:
    """Partner's standing bid, when partner holds it and this seat may pass."""
    if view.partner is not None and view.bidder == view.partner and Bid.PASS in view.legal:
        return view.high_bid
    return None


def partner_floor(view: SeatView) -> float | None:
    """What partner's standing contract is worth to this seat's side, in net points: made
    with its bid's tricks and one more for each plain ace this seat holds (up to six), the
    defenders taking the rest. A bid over partner must clearly beat it: partner will name
    its own trump, and the aces take their tricks in it all the same. ``None`` when partner
    does not hold the bid."""
    bid = _partner_standing(view)
    if bid is None:
        return None
    rules = view.rules
    side = view.side_of(view.seat)
    other = next(s for s in rules.sides if s != side)
    aces = sum(1 for c in view.hand if c.index % 6 == 5)
    tricks = min(6, bid.tricks + aces)
    points = score_hand(rules, bid, side, {side: tricks, other: 6 - tricks}).points
    return float(points[side] - points[other])


def _heuristic_call(view: SeatView) -> Action:
    """Auction and trump from the calling model's estimates (the way of playing is the
    sampled analysis's, see :meth:`_SamplingPlayer._mode`)."""
    hand = _indices(view.hand)
    rules = view.rules
    if view.phase is Phase.AUCTION:
        estimate = hand_value(rules, hand)[0]
        standing = _partner_standing(view)
        if standing is not None and estimate < standing.tricks + 1.5:
            return Bid.PASS  # partner's contract stands: raise it only with a trick to spare
        if standing is None and measured_for(rules):
            # The model's estimate runs a half to a whole trick short of what such hands
            # take (analysis.hand_odds): bid by the measured shares of tricks instead. Over
            # partner a pass is worth partner's contract, not nothing, so the old rule stays.
            return valued_call(view)
        return _bid_for(view, estimate, opening(rules))
    trump = int(view.trump) if view.trump is not None else 4
    if view.phase is Phase.DECLARE_TRUMP:
        return Trump(hand_value(rules, hand)[1])
    alone = side_estimate(rules, hand, trump, alone=True) - 0.4
    with_partner = side_estimate(rules, hand, trump)
    enough = alone >= view.high_bid.tricks
    return Mode.EXCHANGE if enough and alone >= with_partner else Mode.PARTNER


def _worth(option: OptionAdvice) -> Estimate:
    return option.net if option.net is not None else option.score


def over_partner_gain(advice: Advice, bid: OptionAdvice, passing: OptionAdvice) -> Estimate:
    """What ``bid`` over partner's standing bid gains against ``passing`` (which leaves
    partner's contract to be played), with its 95% interval: paired over the same deals
    where ``bid`` is the advice's best (the pass's :attr:`~.advice.report.OptionAdvice.paired`,
    which makes no allowance for the best being picked on those deals: the rule's
    :data:`CLEARLY` was set by it), else the two options' own intervals combined as if
    independent, which errs wide."""
    from .advice.tally import Estimate

    if bid.label == advice.best.label and passing.paired is not None:
        return passing.paired
    x, y = _worth(bid), _worth(passing)
    gain = x.mean - y.mean
    half = math.hypot(x.half_width, y.half_width)
    return Estimate(gain, gain - half, gain + half, min(x.samples, y.samples))


def _clearly_better(a: OptionAdvice, b: OptionAdvice) -> bool:
    """``a`` beats ``b`` by more than the wider of their 95% intervals and :data:`CLEARLY`."""
    x, y = _worth(a), _worth(b)
    return x.mean - y.mean > max(x.half_width, y.half_width, CLEARLY)


_TRUMP_LEAD, _LEFT_TO_MAKER, _RETURN, _KEEP_ACE = CONVENTIONS = (
    "lead-trumps-as-maker", "left-bower-to-maker", "return-partners-suit",
    "no-ace-into-lone-bidder")


def conventions(view: SeatView) -> dict[str, int]:
    """The cards the table's conventions lead now (``{convention: card index}``), for the
    seat on lead: the maker leads trumps (its highest); the maker's partner, playing with
    the maker, leads the left bower; a seat whose partner led a plain suit earlier returns
    it (its highest card of it); against a lone bidder a defender holding a plain ace leads
    something else (its lowest other plain card). Empty when not on lead."""
    if view.trick or not view.legal or view.phase is not Phase.PLAY or view.trump is None:
        return {}
    code = _code(view)
    legal = _indices(view.legal)
    out: dict[str, int] = {}
    trumps = [c for c in legal if _is_trump(c, code)]
    if view.bidder == view.seat and trumps:
        out[_TRUMP_LEAD] = max(trumps, key=lambda c: _order(c, code))
    if view.partner is not None and view.bidder == view.partner and view.mode is Mode.PARTNER:
        left = [c for c in trumps if TRICK_RANK[code][c] == 5]
        if left:
            out[_LEFT_TO_MAKER] = left[0]
    if view.partner is not None:
        led = [EFFECTIVE_SUIT[code][t.cards[0].index] for t in view.tricks
               if t.leader == view.partner]
        for suit in led:
            mine = [c for c in legal if EFFECTIVE_SUIT[code][c] == suit
                    and not _is_trump(c, code)]
            if mine:
                out[_RETURN] = max(mine, key=lambda c: _order(c, code))
                break
    lone = view.bidder is not None and not view.on_bidding_side and (
        view.mode is Mode.EXCHANGE or view.sitting_out is not None)
    plain = [c for c in legal if not _is_trump(c, code)]
    if lone and any(TRICK_RANK[code][c] == 5 for c in plain):
        others = [c for c in plain if TRICK_RANK[code][c] != 5]
        if others:
            out[_KEEP_ACE] = min(others, key=lambda c: _order(c, code))
    return out


def _by_convention(view: SeatView, advice: Advice) -> Card | None:
    """Among the cards the analysis finds worth the same as its best (to within
    :data:`INDIFFERENT`), the one a convention leads, if any (in the order of
    :data:`CONVENTIONS`)."""
    best = _worth(advice.best).mean
    tied = {o.card.index for o in advice.options
            if o.card is not None and best - _worth(o).mean <= INDIFFERENT}
    if len(tied) < 2:
        return None
    for card in conventions(view).values():
        if card in tied:
            return DECK[card]
    return None


class _SamplingPlayer:
    """Decides with sampled double-dummy advice where its level says so."""

    level = "club"
    play_samples = 10
    defense_samples = 16
    bid_samples = 0  # 0: bid by the calling model
    mode_samples = 40  # the way of playing: the exchange or partner, over sampled deals
    exchange_samples = 0  # 0: discard and send by the rules (sampled advice did worse)
    auction = False
    caution = 0.0  # calls: see cautious_best
    over_partner_samples = 120  # a second look at a bid over partner that may be clear

    def __init__(self, rng: random.Random, samples: int | None = None,
                 alone: str = DEFAULT_ALONE) -> None:
        self.rng = rng
        self.alone = alone
        if samples is not None:  # a cap: a count of 0 (decide by heuristics) stays 0
            for name in ("play_samples", "defense_samples", "bid_samples",
                         "exchange_samples", "mode_samples", "over_partner_samples"):
                setattr(self, name, min(getattr(self, name), samples))

    def _analysis(self, view: SeatView, samples: int) -> Advice:
        from .advice.dispatch import advise  # advice imports the solver: load it when first needed

        # The advice takes the view itself and deals the unseen cards from it as it samples
        # (reading the auction when the level does): the decision deals them once.
        if view.phase is Phase.AUCTION or view.phase is Phase.DECLARE_TRUMP:
            from .advice.calls import advise_bid

            # Solve only the trumps the hand could name: the two likeliest suits and no
            # trump; the others are never the best choice and cost as much to solve.
            hand = _indices(view.hand)
            suits = sorted(range(4),
                           key=lambda t: -hand_tricks(hand, t, view.rules.left_bower))[:2]
            return advise_bid(view, samples, seed=self.rng, auction=self.auction,
                              until_clear=True, trumps=[Trump(t) for t in (*suits, 4)])
        return advise(view, samples, seed=self.rng, auction=self.auction, until_clear=True)

    def _advice(self, view: SeatView, samples: int) -> Action:
        advice = self._analysis(view, samples)
        phase = view.phase
        if phase is Phase.DECLARE_MODE:
            return self._way(advice)
        # Bids and trumps are taken cautiously; how to play them (partner or alone) by the
        # setting (_way; see the module notes: going alone).
        cautious = phase in (Phase.AUCTION, Phase.DECLARE_TRUMP)
        best = cautious_best(advice, self.caution) if cautious else advice.best
        if phase is Phase.AUCTION and not self._over_partner(view, advice, best):
            return Bid.PASS
        if phase is Phase.PLAY:
            habit = _by_convention(view, advice)
            if habit is not None:
                return habit
        for value in (best.card, best.defense):
            if value is not None:
                return value
        if phase is Phase.AUCTION:
            return best.bid if best.bid is not None else Bid.PASS
        assert best.trump is not None
        return best.trump

    def _over_partner(self, view: SeatView, advice: Advice, best: OptionAdvice) -> bool:
        """Whether to keep a bid over partner's standing bid: only when it is clearly worth
        more than the pass, which the advice values as partner's contract played out (the
        near end of the gain's 95% interval, :func:`over_partner_gain`, at least
        :data:`CLEARLY`; where the interval holds that figure, read again over
        :attr:`over_partner_samples` deals at the bid's trump), and the bid's own interval
        clears both the pass and partner's contract made with this seat's aces
        (:func:`partner_floor`) by :data:`CLEARLY`."""
        floor = partner_floor(view)
        if floor is None or best.bid in (None, Bid.PASS):
            return True
        passing = next((o for o in advice.options if o.label == "pass"), None)
        if passing is not None:
            # The bid's own interval alone let a bid a little better than partner's through
            # whenever the pass's figure happened low: the gain is read over the same deals.
            gain = over_partner_gain(advice, best, passing)
            if gain.low < CLEARLY <= gain.high and best.trump is not None:
                # It may be clear: look again over more deals, at the bid's trump only,
                # rather than leave partner a contract the analysis would clearly top.
                from .advice.calls import advise_bid

                advice = advise_bid(view, self.over_partner_samples, seed=self.rng,
                                    auction=self.auction, trumps=[best.trump])
                best, passing = advice.best, advice.option("pass")
                if best.bid in (None, Bid.PASS):
                    return False
                gain = over_partner_gain(advice, best, passing)
            if gain.low < CLEARLY:
                return False
            floor = max(floor, _worth(passing).mean)
        worth = _worth(best)
        return worth.mean - max(worth.half_width, CLEARLY) > floor

    def _way(self, advice: Advice) -> Mode:
        """The exchange unless partner is clearly better, or with ``rarely`` the exchange
        only when it is clearly better (see the module notes: going alone)."""
        exchange = next((o for o in advice.options if o.mode is Mode.EXCHANGE), None)
        partner = next((o for o in advice.options if o.mode is Mode.PARTNER), None)
        if exchange is None or partner is None:
            mode = advice.best.mode
            return mode if mode is not None else Mode.PARTNER
        if self.alone == "rarely":
            return Mode.EXCHANGE if _clearly_better(exchange, partner) else Mode.PARTNER
        return Mode.PARTNER if _clearly_better(partner, exchange) else Mode.EXCHANGE

    def decide(self, view: SeatView) -> Action:
        phase = view.phase
        if len(view.legal) == 1:
            return view.legal[0]
        if phase in (Phase.AUCTION, Phase.DECLARE_TRUMP):
            call = (self._advice(view, self.bid_samples) if self.bid_samples
                    else _heuristic_call(view))
            return _keeping_signals(view, call)
        if phase is Phase.DECLARE_MODE:
            samples = self.bid_samples or self.mode_samples
            return self._advice(view, samples) if samples else _heuristic_call(view)
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
    """Bids by the measured shares of tricks (:mod:`.hand_odds`); the way of playing, the
    defense and every card by sampled double-dummy play over random deals of the unseen
    cards."""

    level = "club"


class ExpertPlayer(_SamplingPlayer):
    """Every decision by sampled double-dummy advice over auction-aware deals, but the
    exchange, which is made by the rules (see the module notes); each bid and trump is
    ranked by its points less one half-width of their interval (:func:`cautious_best`)."""

    level = "expert"
    play_samples = 16
    defense_samples = 30
    bid_samples = 40
    auction = True
    caution = 1.0
