"""Drills beyond "who wins?": judgement drills and rules drills, generated from random deals.

Judgement drills (``bid``, ``declare``, ``exchange``, ``defend``) deal all four hands and put
the learner in a seat of an auction the computer players would make with them: every call
before the question is the club players' call (:func:`club_call`, the calling model), and
the trump named is theirs too (:func:`club_trump`); nobody bids 2
holding 10♥ 9♣ 10♦ 9♥ K♠ 9♠. The deal is kept with the step (``ChoiceStep.deal``) so the
auction can be checked. A position is kept only where the sampled analysis separates the
best answer from the rest by a clear margin: more than its 95% interval and at least
:data:`MARGIN` points.

The scoring varies from position to position (:func:`scorings`), and every question opens
with the rules it was analysed under (:func:`table_words`), so the learner reads them and
the answer never rests on rules left unsaid. A drill may aim at an answer class
(:func:`answer_class`, ``want``): the screened set aims at each class equally under each
scoring, so the scoring named in a header does not foretell the answer.

The right answer, and why every other answer is worse, come from the analysis in words
(:meth:`ChoiceStep.analysis_reason`). Drill sessions deal positions screened ahead of time
first (:mod:`~pepper_tutor.teaching.drills.screened`).

Rules drills (``table``: who calls first, who calls next, who leads, who deals next, how
many cards; ``game``: who has won) ask the rules no trick or score question reaches. Every
answer is computed by the engine.

Every question carries :attr:`Step.rule_ids`, the rules it tests.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ...analysis.calling import (
    count_tricks,
    model_declaration,
    top_suits,
    trump_strength,
)
from ...analysis.players import Player, make_player
from ...analysis.reasons import best_words
from ...analysis.view import view_of
from ...engine.calls import Bid, Defense, Mode, Trump
from ...engine.cards import DECK, Card, Rank
from ...engine.ranking import is_trump
from ...engine.rules import RuleSet, get_ruleset
from ...engine.scoring import score_hand
from ...engine.seats import Seat
from ...engine.state import HandState, Phase
from ..questions.choice_steps import (
    BidStep,
    ChoiceStep,
    DeclareStep,
    DefendStep,
    ExchangeStep,
    Valued,
    clearly_worse,
)
from ..questions.steps import GameStep, Step
from ..questions.table_steps import TableStep

__all__ = ["DRILL_SAMPLES", "MARGIN", "TableStep", "JUDGEMENT_DRILLS", "RULES_DRILLS",
           "TARGETS", "answer_class", "scorings", "table_words",
           "bid_drill", "declare_drill", "exchange_drill", "defend_drill", "table_drill",
           "game_drill", "variants_drill", "clear_best", "bid_step", "declare_step",
           "exchange_step", "defend_step", "settle"]

DRILL_SAMPLES = 24  # sampled deals per drill position: enough to screen, quick to answer
MARGIN = 1.0  # points the best answer must lead the next one by, besides the 95% interval
TRIES = 60  # random positions tried for a clear one (a few are usually enough)


def _indices(hand: Sequence[Card]) -> list[int]:
    return [c.index for c in hand]


# ---- the rules a position is dealt under, and what its answer is ------------------------------

# House rules a header names, in a player's words (the preset's own scoring comes first).
_HOUSE_WORDS: tuple[tuple[str, Callable[[RuleSet], str]], ...] = (
    ("score_what_you_get", lambda r: "a made bid scores every trick taken"),
    ("dirty_clubs", lambda r: "no surrender when clubs are trumps"),
    ("all_pass", lambda r: f"the dealer must bid at least {r.minimum_bid} if all pass"),
    ("minimum_bid", lambda r: f"bids start at {r.minimum_bid}"),
    ("left_bower", lambda r: "no left bower"),
    ("nt_lead", lambda r: "at no trump the bidder's left leads" if r.nt_lead != "bidder"
     else "the bidder leads at no trump"),
    ("dumped_dealer", lambda r: f"a dumped dealer bids {r.dealer_minimum.display} or more, "
     "and no surrender" if r.dumped_dealer else "no dumped dealer"),
    ("signals", lambda r: "a 2 bid shows an ace, a 3 a red and a black jack"
     if r.signals_on else "no bid signals"),
)


def table_words(rules: RuleSet) -> str:
    """The header of a judgement question: the scoring and every house rule the answer was
    analysed under, as "Simple scoring, game to 30." or "Standard scoring (a made bid
    scores every trick taken), game to 42."."""
    base = RuleSet.preset_defaults(rules.preset)
    house = [words(rules) for name, words in _HOUSE_WORDS
             if getattr(rules, name) != base[name]
             and not (name == "minimum_bid" and rules.dealer_must_bid)]
    extra = f" ({'; '.join(house)})" if house else ""
    return f"{rules.title} scoring{extra}, game to {rules.target}."


_PRESET_TABLES = ("standard", "simple")


def scorings(kind: str, rules: RuleSet) -> tuple[RuleSet, ...]:
    """The rule sets a drill of ``kind`` deals under at a table of ``rules``, drawn evenly:
    a preset as it is gets its own scoring twice and the other preset's once, so the scoring
    varies and the learner reads it; a table with house rules gets its own rules only.

    A defend drill at a preset table is dealt under the standard game's sweep rule only.
    Its contracts are the ones the players bid with the hands dealt, and where a made bid
    scores every trick (simple scoring) a surrender pays only against a bid of 1 or 2, which
    the players never open with: there every answer would be "play", and a header naming
    simple scoring would give it away."""
    own = next((p for p in _PRESET_TABLES if get_ruleset(p) == rules), None)
    if own is None:
        return (rules,)
    if kind == "defend":
        return (get_ruleset("standard"),)
    other = next(p for p in _PRESET_TABLES if p != own)
    return (get_ruleset(own), get_ruleset(own), get_ruleset(other))


# The answer classes a screened set aims at evenly (a class or its first part: the
# exchange aims at the role only and leaves the card to the deal, as a bidder lays aside a
# plain card and a partner sends what the hand has, under any scoring).
TARGETS: dict[str, tuple[str, ...]] = {
    "bid": ("pass", "bid"),
    # (playing with partner is seldom clearly best after a bid the players make: the
    # mode questions take what the analysis finds)
    "declare": ("trump:NT", "trump:suit", "mode:exchange"),
    "exchange": ("bidder", "partner"),
    "defend": ("play", "surrender"),
}


def _is_class(step: ChoiceStep[Any], want: str) -> bool:
    found = answer_class(step)
    return found == want or found.startswith(f"{want}:")


def answer_class(step: ChoiceStep[Any]) -> str:
    """What kind of answer a settled judgement step has: ``pass`` or ``bid``; ``trump:NT``,
    ``trump:suit``, ``mode:exchange`` or ``mode:partner``; the exchange's role and whether the
    card is a trump (``partner:trump``); ``play`` or ``surrender``."""
    if isinstance(step, BidStep):
        return "pass" if list(step.accept) == [Bid.PASS] else "bid"
    if isinstance(step, DeclareStep):
        if step.choose == "trump":
            return "trump:NT" if Trump.NT in step.accept else "trump:suit"
        return f"mode:{'exchange' if Mode.EXCHANGE in step.accept else 'partner'}"
    if isinstance(step, ExchangeStep):
        trumps = any(is_trump(c, step.trump, step.rules.left_bower) for c in step.accept)
        return f"{step.role}:{'trump' if trumps else 'plain'}"
    if isinstance(step, DefendStep):
        return "surrender" if Defense.SURRENDER in step.accept else "play"
    raise TypeError(f"not a judgement drill step: {step.kind}")


def _table(kind: str, rng: random.Random, rules: RuleSet, exact: bool) -> RuleSet:
    return rules if exact else rng.choice(scorings(kind, rules))


# ---- judgement drills ------------------------------------------------------------------------


def clear_best(step: ChoiceStep[Any]) -> list[Valued] | None:
    """The best answers when the analysis separates them from the rest (answers worth the
    same to within 0.25 points, such as two touching cards, count as one), else ``None``."""
    values = step.valued()
    if len(values) < 2:
        return None
    top = [v for v in values if values[0].worth.mean - v.worth.mean <= 0.25]
    rest = values[len(top):]
    if not rest:
        return None
    floor, runner = top[-1], rest[0]
    if not clearly_worse(floor, runner) or floor.worth.mean - runner.worth.mean < MARGIN:
        return None
    return top


def settle(step: ChoiceStep[Any]) -> bool:
    """Accept the analysis's clear best, with its reason in words; False if not clear."""
    top = clear_best(step)
    if top is None:
        return False
    step.accept = tuple(v.answer for v in top)
    runner = next(v for v in step.valued() if v.answer not in step.accept)
    # Short with a reveal (the wrong answer's own reason says the rest); in full when right.
    step.reason = best_words(step.choice_words(top[0].answer), step.choice_words(runner.answer),
                             top[0].worth.mean - runner.worth.mean)
    # Each accepted answer with its own reason: "Right." for the K♦ says why the K♦ is right,
    # not why the A♦ is.
    step.reasons = {}
    for v in top:
        own = best_words(step.choice_words(v.answer), step.choice_words(runner.answer),
                         v.worth.mean - runner.worth.mean)
        step.reasons[step.key(v.answer)] = f"{own[:-1]}: {step.right_facts(v, runner)}."
    return True


def _judgement(make: Any, rng: random.Random, want: str | None = None) -> ChoiceStep[Any]:
    """Positions from ``make(rng)`` until the analysis finds one clear (with ``want``, one
    of that :func:`answer_class`, or whose class it begins). ``make`` may return ``None``
    for a position a quick count already shows to be a close call (pre-screening: the
    analysis is the slow part)."""
    tries = TRIES if want is None else 3 * TRIES  # a class aimed at is rarer than any
    analysed = 0
    while analysed < tries:  # positions the quick count set aside do not count
        step: ChoiceStep[Any] | None = make(rng)
        if step is None:
            continue
        analysed += 1
        if settle(step) and (want is None or _is_class(step, want)):
            return step
    raise RuntimeError(f"no clear position{f' ({want})' if want else ''} in {tries} random "
                       "deals")


def _dealt(step: ChoiceStep[Any], hands: Sequence[Sequence[Card]]) -> ChoiceStep[Any]:
    """The step with the deal it came from, kept so its auction can be checked."""
    step.deal = tuple(tuple(h) for h in hands)
    return step


def _deal(rng: random.Random) -> list[list[Card]]:
    deck = list(DECK)
    rng.shuffle(deck)
    return [deck[i * 6:(i + 1) * 6] for i in range(4)]


_CLUB: list[Player] = []


def club_call(state: HandState) -> Bid:
    """The call the computer players (the club level: the calling model, no sampling) make
    for the seat to act, from what that seat may see."""
    if not _CLUB:
        _CLUB.append(make_player("club", seed=0))
    call = _CLUB[0].decide(view_of(state))
    assert isinstance(call, Bid)
    return call


def club_auction(rules: RuleSet, hands: Sequence[Sequence[Card]], dealer: Seat,
                 calls: int | None = None) -> HandState:
    """The deal with the club players' calls made, all of them or the first ``calls``."""
    state = HandState.from_hands({Seat(i): h for i, h in enumerate(hands)}, rules, dealer)
    while state.phase is Phase.AUCTION and (calls is None or len(state.calls) < calls):
        state.apply(club_call(state))
    return state


def sole_bid(rules: RuleSet, hands: Sequence[Sequence[Card]], dealer: Seat
             ) -> tuple[Seat, Bid] | None:
    """The bidder and bid when the club players' auction on this deal has one bid and
    every other call a pass (the auction the declare, exchange and defend questions name),
    else ``None``."""
    state = club_auction(rules, hands, dealer)
    bids = [(seat, call) for seat, call in state.calls if call is not Bid.PASS]
    return bids[0] if len(bids) == 1 else None


def club_trump(rules: RuleSet, hand: Sequence[Card], bid: Bid) -> Trump:
    """The trump the club players name with ``hand`` after winning with ``bid`` (the
    calling model's, as :func:`club_call`'s player decides it)."""
    return Trump(model_declaration(rules, _indices(hand), bid)[0])


_JUDGEMENT_CITE = ("analysis.double-dummy",)


def bid_step(n: int, rules: RuleSet, hand: Sequence[Card], dealer: Seat,
             auction: Sequence[Bid]) -> BidStep:
    """The bid drill's question for this hand, dealer and calls so far (not yet screened).
    The dealer, the calls and the seat are shown with the hand, so the question is short."""
    seat = Seat((dealer + 1 + len(auction)) % rules.players)
    partner = (f" You are {seat.word}; your partner is {seat.partner.word}."
               if rules.partnerships and rules.players == 4 else f" You are {seat.word}.")
    step = BidStep(id=f"bid-{n}", prompt=f"{table_words(rules)}{partner} What do you call?",
                   hand=tuple(hand), dealer=dealer,
                   auction=tuple(auction), rules=rules,
                   cite=("bid.must-top", "bid.ladder", *_JUDGEMENT_CITE))
    step.analysis_samples = DRILL_SAMPLES
    # The two suits the hand counts best in, and no trump: a third of the solving.
    step.analysis_trumps = (*(Trump(t) for t in top_suits(rules, _indices(step.hand))), Trump.NT)
    return step


def bid_drill(rng: random.Random, n: int, rules: RuleSet, hard: bool = True,
              want: str | None = None, exact: bool = False) -> Step[Any]:
    """Your call, after the callers before you bid what their cards count to. ``want``: an
    :func:`answer_class` to aim at; ``exact``: deal under ``rules`` itself, not one of its
    :func:`scorings`."""

    table = rules  # each position draws its scoring from the table's

    def make(rng: random.Random) -> ChoiceStep[Any] | None:
        rules = _table("bid", rng, table, exact)
        hands = _deal(rng)
        dealer = Seat(rng.randrange(4))
        # the calls before yours are the club players' with the hands dealt them
        state = club_auction(rules, hands, dealer, calls=rng.randrange(4))
        seat = state.to_act
        if state.phase is not Phase.AUCTION or seat is None:
            return None
        auction = [call for _, call in state.calls]
        standing = max((int(c) for c in auction), default=0)
        if abs(count_tricks(rules, _indices(hands[seat])) - (standing + 1)) == 1:
            return None  # one trick either side of the next bid: usually a close call
        return _dealt(bid_step(n, rules, hands[seat], dealer, auction), hands)

    return _judgement(make, rng, want)


def declare_step(n: int, rules: RuleSet, hand: Sequence[Card], bid: Bid, choose: str,
                 trump: Trump = Trump.H) -> DeclareStep:
    """The declare drill's question: name trumps (``choose="trump"``) after winning with
    ``bid``, or (``choose="mode"``) the exchange or partner after naming ``trump``."""
    if choose == "trump":
        alone = ("declare.big-pepper",) if bid is Bid.BIG_PEPPER else ()
        step = DeclareStep(id=f"declare-{n}", choose="trump", hand=tuple(hand), bid=bid,
                           rules=rules, prompt=f"{table_words(rules)} You are North; your "
                           f"partner is South. You won the bid with {bid.display}. "
                           "Which suit do you name as trumps, or no trump?",
                           cite=("declare.trump", *alone, *_JUDGEMENT_CITE))
        step.analysis_samples = DRILL_SAMPLES
        return step
    step = DeclareStep(id=f"declare-{n}", choose="mode", hand=tuple(hand), bid=bid,
                       trump=trump, rules=rules,
                       prompt=f"{table_words(rules)} You are North; your partner is South. "
                       f"You bid {bid.display} and named "
                       f"{trump.word}. Take "
                       "the exchange, or play with partner?",
                       cite=("declare.exchange", "declare.with-partner", *_JUDGEMENT_CITE))
    # Two ways in one trump: cheap to solve, so more deals to separate them.
    step.analysis_samples = 3 * DRILL_SAMPLES
    return step


def declare_drill(rng: random.Random, n: int, rules: RuleSet, hard: bool = True,
                  want: str | None = None, exact: bool = False) -> Step[Any]:
    """You won the bid: name trumps (or no trump), or choose the exchange or partner
    (``want`` and ``exact`` as for :func:`bid_drill`)."""

    table = rules  # each position draws its scoring from the table's

    def make(rng: random.Random) -> ChoiceStep[Any] | None:
        rules = _table("declare", rng, table, exact)
        hands = _deal(rng)
        # North, first to call after West's deal, bids and the others pass: as the club
        # players call with these hands (the auction the question's state replays)
        won = sole_bid(rules, hands, Seat.W)
        if won is None or won[0] is not Seat.N:
            return None
        bid, hand = won[1], tuple(hands[Seat.N])
        cards = _indices(hand)
        suits = sorted((trump_strength(rules, cards, t) for t in range(4)), reverse=True)
        trump_first = rng.random() < 0.5
        if want is not None:  # the question a class of answers belongs to
            trump_first = want.startswith("trump")
        if trump_first:
            if suits[0] - suits[1] < 20:
                return None  # two suits about as good: a close call the count can see
            return _dealt(declare_step(n, rules, hand, bid, "trump"), hands)
        if bid is Bid.BIG_PEPPER or not rules.has_exchange:
            return None  # no way of playing to choose
        trump = club_trump(rules, hand, bid)  # the trump they would name
        return _dealt(declare_step(n, rules, hand, bid, "mode", trump), hands)

    return _judgement(make, rng, want)


def _contract_words(bid: Bid, trump: Trump) -> str:
    """"4 in hearts", "3 in no trump", "big pepper in spades"."""
    return f"{bid.display} in {trump.word}"


def exchange_step(n: int, rules: RuleSet, hand: Sequence[Card], bid: Bid, role: str,
                  trump: Trump, bidder: Seat = Seat.N, dealer: Seat = Seat.W) -> ExchangeStep:
    """The exchange drill's question: the bidder's discard or the partner's card to send."""
    contract = _contract_words(bid, trump)
    head = f"{table_words(rules)} {dealer.word} deals. "
    if role == "bidder":
        prompt = (f"{head}You are {bidder.word}; your partner is {bidder.partner.word}. You "
                  f"bid {contract} and took the exchange. Which card do you lay face down?")
    else:
        prompt = (f"{head}You are {bidder.partner.word}. {bidder.word}, your partner, bid "
                  f"{contract} and took the exchange. Which card do you send?")
    step = ExchangeStep(id=f"exchange-{n}", role=role, hand=tuple(hand), trump=trump, bid=bid,
                        bidder=bidder, dealer=dealer, rules=rules, prompt=prompt,
                        cite=("declare.exchange", *_JUDGEMENT_CITE))
    step.analysis_samples = DRILL_SAMPLES
    return step


def exchange_drill(rng: random.Random, n: int, rules: RuleSet, hard: bool = True,
                   want: str | None = None, exact: bool = False) -> Step[Any]:
    """The exchange: which card the bidder lays aside, or which card the partner sends; any
    seat bids, any seat deals, no trump now and then (``want`` and ``exact`` as for
    :func:`bid_drill`)."""

    table = rules  # each position draws its scoring from the table's

    def make(rng: random.Random) -> ChoiceStep[Any] | None:
        rules = _table("exchange", rng, table, exact)
        hands = _deal(rng)
        dealer = Seat(rng.randrange(4))
        # one bid and passes and the trump named, as the club players would with these
        # hands (the club players choose the exchange by a sampled analysis: the drill
        # asks what follows it)
        won = sole_bid(rules, hands, dealer)
        if won is None or won[1] is Bid.BIG_PEPPER:
            return None
        bidder, bid = won
        trump = club_trump(rules, hands[bidder], bid)
        as_bidder = rng.random() < 0.5 if want is None else want.startswith("bidder")
        seat = bidder if as_bidder else bidder.partner
        return _dealt(exchange_step(n, rules, hands[seat], bid,
                                    "bidder" if as_bidder else "partner", trump, bidder,
                                    dealer), hands)

    return _judgement(make, rng, want)


def defend_step(n: int, rules: RuleSet, hand: Sequence[Card], bid: Bid, trump: Trump,
                mode: Mode, bidder: Seat = Seat.N, dealer: Seat = Seat.W) -> DefendStep:
    """The defend drill's question: play or surrender, for the defender on the bidder's
    left, against the contract, under the scoring its header names."""
    head = f"{table_words(rules)} {dealer.word} deals. "
    scoring = ("score.surrender", *(r for r in rules.rule_ids if r != "preset.standard"))
    if rules.scoring == "standard" and not rules.score_what_you_get:
        scoring = ("score.sweep",)
    how = (", alone with the six cards dealt" if bid is Bid.BIG_PEPPER
           else f" and chose to {mode.display}")
    me = bidder.next()
    step = DefendStep(id=f"defend-{n}", hand=tuple(hand), trump=trump, bid=bid, mode=mode,
                      bidder=bidder, dealer=dealer, rules=rules,
                      prompt=f"{head}{bidder.word} bid {_contract_words(bid, trump)}{how}; "
                      f"the others passed. You are {me.word}, on the bidder's left; your "
                      f"partner is {me.partner.word}. Play or surrender?",
                      cite=("defend.surrender", *scoring, *_JUDGEMENT_CITE))
    # One contract to play out per deal: cheap, so more deals (a surrender under the sweep
    # rule is a narrow call, and 24 deals let one in three through that 200 deals refuse).
    step.analysis_samples = 3 * DRILL_SAMPLES
    return step


def _swept(rules: RuleSet) -> bool:
    """The standard game's sweep rule: bidders who make their bid score just the bid."""
    return rules.scoring == "standard" and not rules.score_what_you_get


def defend_drill(rng: random.Random, n: int, rules: RuleSet, hard: bool = True,
                 want: str | None = None, exact: bool = False) -> Step[Any]:
    """Play or surrender against a contract, either answer about as often, any seat bidding,
    any seat dealing, in any trump or no trump, peppers included.

    The bid and the trump are the club players' with the hands dealt (one bid, the others
    passing); the way of playing is either. Playing is right in most deals, so a drill that
    aims at a surrender (``want``, else a coin toss) deals the defender nines, tens and
    jacks and no trump, the defender's partner passing first with no bid standing (a weak
    partner), and keeps the deal where the players bid 5 or more: under the standard
    game's sweep rule playing on costs more only when the defenders take no trick. Where a
    made bid scores every trick (simple scoring), a surrender pays only against a bid of 1
    or 2, which the players never open with, so there the drill asks about playing on.
    The analysis still decides, and a deal it does not find clear is dealt again.
    ``exact`` as for :func:`bid_drill`."""
    want = want or rng.choice(("play", "surrender"))
    tables = (rules,) if exact else scorings("defend", rules)
    if want == "surrender" and not any(_swept(t) for t in tables):
        # Where bidders who make their bid score every trick, a surrender pays only
        # against a bid of 1 or 2, which the players never open with: play it out.
        want = "play"

    def make(rng: random.Random) -> ChoiceStep[Any] | None:
        table = (rng.choice([t for t in tables if _swept(t)]) if want == "surrender"
                 else _table("defend", rng, rules, exact))
        bidder, dealer = Seat(rng.randrange(4)), Seat(rng.randrange(4))
        me = bidder.next()
        hands = _deal(rng)
        if want == "surrender":  # the defender's hand weak: no ace, king or queen
            low = (Rank.NINE, Rank.TEN, Rank.JACK)
            weak = rng.sample([c for c in DECK if c.rank in low], 6)
            rest = [c for c in DECK if c not in weak]
            rng.shuffle(rest)
            others = [rest[i * 6:(i + 1) * 6] for i in range(3)]
            hands = [weak if Seat(i) is me else others.pop() for i in range(4)]
            dealer = bidder.partner  # the defender's partner calls first, and passes
        # one bid and passes, the trump and the way of playing: the club players' with
        # these hands
        won = sole_bid(table, hands, dealer)
        if won is None or won[0] is not bidder:
            return None
        bid = won[1]
        if want == "surrender" and bid < Bid.FIVE:
            return None  # where a surrender can pay (see above): the analysis decides
        trump = club_trump(table, hands[bidder], bid)
        if want == "surrender" and any(is_trump(c, trump, table.left_bower)
                                       for c in hands[me]):
            return None
        mode = rng.choice((Mode.EXCHANGE, Mode.PARTNER))  # either way, as the prompt says
        if not table.has_surrender or (table.dirty_clubs and trump is Trump.C):
            return None
        return _dealt(defend_step(n, table, hands[me], bid, trump, mode, bidder, dealer),
                      hands)

    return _judgement(make, rng, want)


# ---- rules drills: the table's order and the end of the game ---------------------------------

def table_drill(rng: random.Random, n: int, rules: RuleSet, hard: bool = True) -> Step[Any]:
    """Who calls, leads or deals, and how many cards, under a random rule set."""
    preset = rng.choice(("standard", "standard", "cutthroat", "lions-club"))
    if preset == "cutthroat":
        table = get_ruleset("cutthroat", players=rng.choice((2, 3, 4)))
    elif preset == "lions-club":
        table = get_ruleset("lions-club")  # the dumped dealer, and no trump led from the left
    elif rng.random() < 0.3:
        table = get_ruleset("standard", minimum_bid=3, all_pass="dealer_must_bid")
    else:
        table = rules
    ask = rng.choice(TableStep.ASKS)
    players = table.players
    dealer = Seat(rng.randrange(players))
    name = (f"Cutthroat with {players} players" if table.preset == "cutthroat" else
            "Lions Club rules (a dealer everyone passed to must bid 3 or more; at no trump "
            "the bidder's left leads)" if table.preset == "lions-club" else
            "Stick the dealer (minimum bid 3)" if table.dealer_must_bid else "Standard rules")
    auction: list[Bid] = []
    said: list[str] = []
    state = TableStep(id="probe", rules=table, dealer=dealer)._state()
    calls = rng.randrange(1, 5) if ask == "next-call" else 0
    all_pass = rng.random() < 0.3  # the thrown-in hand, or the stuck dealer
    if ask == "next-call" and all_pass:
        calls = players
    if ask in ("leader", "next-player"):
        calls = 99
    while state.phase is Phase.AUCTION and len(auction) < calls:
        legal = [b for b in state.legal_actions() if isinstance(b, Bid)]
        quiet = ask == "next-call" and all_pass
        call = Bid.PASS if Bid.PASS in legal and (quiet or rng.random() < 0.55) else (
            rng.choice([b for b in legal if b is not Bid.PASS and b <= Bid.FIVE] or legal))
        if ask in ("leader", "next-player") and state.bidder is None and (
                len(auction) == players - 1) and call is Bid.PASS:
            call = min(b for b in legal if b is not Bid.PASS)  # someone must win the bid
        seat = state.to_act
        said.append(f"{seat.word if seat is not None else '?'} {call.display}")
        state.apply(call)
        auction.append(call)
    words = ", ".join(said)
    # At a table that leads no trump from the bidder's left, no trump half the time.
    trump = (Trump.NT if table.nt_lead != "bidder" and rng.random() < 0.5
             else Trump(rng.randrange(4)))
    mode = rng.choice((Mode.EXCHANGE, Mode.PARTNER)) if table.has_exchange else None
    if state.high_bid is Bid.BIG_PEPPER:
        mode = None  # big pepper is played alone, with no exchange: there is no way to choose
    step = TableStep(id=f"table-{n}", rules=table, ask=ask, dealer=dealer,
                     auction=tuple(auction), trump=trump, mode=mode,
                     played=rng.randrange(1, 3) if ask == "next-player" else 0)
    head = f"{name}. {dealer.word} deals."
    if ask == "first-call":
        step.prompt = f"{head} Who makes the first call?"
    elif ask == "next-call":
        step.prompt = (f"{head} The calls so far: {words}. Who calls next (or is the hand "
                       "thrown in, or the auction over)?")
    elif ask == "next-dealer":
        step.prompt = f"{head} When this hand is over, who deals the next one?"
    elif ask == "cards":
        # no example here: the line under the question gives one that is never the answer
        step.prompt = (f"{head} How many cards does each player hold, and how many of the 24 "
                       "are left out?")
    else:
        bidder = state.bidder
        how = f" and chose to {mode.display}" if mode is not None and state.high_bid is not (
            Bid.BIG_PEPPER) else ""
        step.prompt = (f"{head} The calls: {words}. {bidder.word if bidder else '?'} named "
                       f"{trump.word}{how}.")
        if ask == "leader":
            step.prompt += " Who leads to the first trick?"
        else:
            step.prompt += (f" {step.played} card{'s are' if step.played > 1 else ' is'} down "
                            "in the first trick. Who plays next?")
    return step


def game_drill(rng: random.Random, n: int, rules: RuleSet, hard: bool = True) -> Step[Any]:
    """After this hand, who has won, or does play go on? Near the target, ties included."""
    table = rules if rng.random() < 0.7 else get_ruleset("simple")
    target = table.target
    sides = table.sides
    before = {s: target - rng.randrange(1, 9) for s in sides}
    bid = rng.choice(table.ladder[:6])
    bidders = rng.choice(sides)
    took = min(6, max(0, bid.tricks + rng.choice((-2, -1, 0, 0, 1, 2))))
    tricks = {s: took if s == bidders else 6 - took for s in sides}
    points = dict(score_hand(table, bid, bidders, tricks, False).points)  # a real hand's
    overtime = rng.random() < 0.25
    if overtime:
        before = {s: target + rng.randrange(0, 4) for s in sides}
    step = GameStep(id=f"game-{n}", rules=table, before=before, points=points,
                    overtime=overtime,
                    cite=("game.extra-hand", "game.tie") if overtime else ())
    totals = ", ".join(f"{s} {before[s]}" for s in sides)
    hand = ", ".join(f"{s} {points[s]:+d}" for s in sides)
    step.prompt = (f"{table.title} game to {target}. "
                   f"Totals before this hand: {totals}"
                   + (" (this is the extra hand after both sides reached the target)"
                      if overtime else "") + f"; this hand: {hand}. Who has won, or play on?")
    return step


def variants_drill(rng: random.Random, n: int, rules: RuleSet, hard: bool = True) -> Step[Any]:
    """A hand's score under a preset or house rule: cutthroat (alone or in pairs), score
    what you get, the Lions Club's sheet, or the standard game itself."""
    from ..questions.steps import ScoreStep

    which = rng.choice(("cutthroat", "pairs", "what-you-get", "standard", "lions-club"))
    if which == "cutthroat":
        table = get_ruleset("cutthroat", players=rng.choice((2, 3, 4)))
        name, cite = f"Cutthroat with {table.players} players", ("preset.cutthroat",)
    elif which == "pairs":
        table = get_ruleset("cutthroat", partnerships=True)
        name, cite = "Cutthroat in partnerships", ("variant.partnerships",)
    elif which == "what-you-get":
        table = get_ruleset("standard", score_what_you_get=True)
        name, cite = "Standard, scoring what you get", ("variant.score-what-you-get",)
    elif which == "lions-club":
        table = get_ruleset("lions-club")
        name, cite = "Lions Club rules, game to 31", ("preset.lions-club",)
    else:
        table = get_ruleset("standard")
        name, cite = "The standard game", ("preset.standard",)
    bid = rng.choice(table.ladder[:6])
    bidder = Seat(rng.randrange(table.players))
    side = table.side_of(bidder)
    took = min(6, max(0, bid.tricks + rng.choice((-2, -1, 0, 0, 1, 2))))
    tricks = {s: 0 for s in table.sides}
    tricks[side] = took
    others = [s for s in table.sides if s != side]
    for _ in range(6 - took):
        tricks[rng.choice(others)] += 1
    step = ScoreStep(id=f"variants-{n}", rules=table, bid=bid, bidder=bidder, tricks=tricks)
    step.cite = tuple(dict.fromkeys((*cite, *step.default_cite())))
    who = "player" if len(table.sides) > 2 else "side"
    step.prompt = (f"{name}. {bidder.word} bid {bid.display}; tricks: "
                   f"{', '.join(f'{s} {t}' for s, t in tricks.items())}. What does each {who} "
                   "score?")
    return step


JUDGEMENT_DRILLS = {"bid": bid_drill, "declare": declare_drill, "exchange": exchange_drill,
                    "defend": defend_drill}
RULES_DRILLS = {"table": table_drill, "game": game_drill, "variants": variants_drill}
