"""Random full hands across every preset and switch keep the engine's invariants.

Each hand is played with random legal actions through the fast path; the finished hand is
then audited against the slow reference rules in ``reference.py``.
"""

import itertools
import random

import pytest

from pepper_tutor import Bid, Card, Defense, HandState, Match, Mode, Phase, Trump, get_ruleset
from pepper_tutor.engine.seats import Seat

from . import reference

CONFIGS = [
    ("standard", {}),
    ("standard", {"dirty_clubs": True}),
    ("standard", {"minimum_bid": 3, "all_pass": "dealer_must_bid"}),
    ("standard", {"minimum_bid": 4}),
    ("standard", {"score_what_you_get": True}),
    ("standard", {"left_bower": False}),
    ("simple", {}),
    ("cutthroat", {"players": 2}),
    ("cutthroat", {"players": 3}),
    ("cutthroat", {"players": 3, "left_bower": True}),
    ("cutthroat", {"players": 4}),
    ("cutthroat", {"players": 4, "partnerships": True}),
    ("lions-club", {}),
    ("standard", {"nt_lead": "left_of_bidder", "dumped_dealer": True, "minimum_bid": 4}),
]
HANDS_PER_CONFIG = 1500


def audit(state: HandState) -> None:
    rules = state.rules
    n = rules.players
    calls = state.calls
    assert calls[0][0] is state.dealer.next(n)
    if state.phase is Phase.THROWN_IN:
        assert all(b is Bid.PASS for _, b in calls) and not rules.dealer_must_bid
        return
    assert state.phase is Phase.SCORED
    bids = [b for _, b in calls if b is not Bid.PASS]
    assert bids == sorted(bids) and len(set(bids)) == len(bids)
    assert all(b in rules.ladder for b in bids)
    bidder, bid, trump = state.bidder, state.high_bid, state.trump
    assert bidder is not None and trump is not None
    t = str(trump)
    # Sitting out: the partner of a lone bidder.
    alone = state.mode is Mode.EXCHANGE or (rules.has_exchange and bid is Bid.BIG_PEPPER)
    assert state.sitting_out == (bidder.partner if alone else None)
    if bid is Bid.BIG_PEPPER or not rules.has_exchange:
        assert state.mode is None and state.discard is None
    # Card accounting: every one of the 24 cards is in exactly one place.
    played = [c for trick in state.tricks for c in trick.cards]
    places = played + [c for s in state.seats for c in state.hand(s)] + state.undealt
    places += [state.discard] if state.discard is not None else []
    assert sorted(c.index for c in places) == list(range(24))
    dumped = bidder is state.dealer and all(b is Bid.PASS for _, b in calls[:-1])
    if rules.dumped_dealer and dumped:
        assert bid >= max(3, rules.minimum_bid)  # variant.dumped-dealer
    if state.defense is Defense.SURRENDER:
        assert rules.has_surrender and not played
        assert not (rules.dirty_clubs and trump is Trump.C)
        assert not (rules.dumped_dealer and dumped)
    else:
        holding = {s: [str(c) for c in state.dealt(s)] for s in state.seats}
        if state.discard is not None:
            holding[bidder].remove(str(state.discard))
            holding[bidder].append(str(state.passed))
            holding[bidder.partner].remove(str(state.passed))
        assert len(state.tricks) == 6
        # variant.nt-lead: at no trump the bidder's left may lead the first trick.
        leader = (bidder.next(n) if trump is Trump.NT and rules.nt_lead == "left_of_bidder"
                  else bidder)
        for trick in state.tricks:
            assert trick.leader is leader and trick.seats[0] is leader
            assert len(trick.cards) == len(state.active_seats)
            assert list(trick.seats) == [s for s in leader.iter_from(n)
                                         if s in state.active_seats]
            cards = [str(c) for c in trick.cards]
            for seat, card in zip(trick.seats, cards, strict=True):
                led = None if seat is leader else cards[0]
                assert card in reference.legal(holding[seat], led, t, rules.left_bower)
                holding[seat].remove(card)
            assert trick.winning_index == reference.winner(cards, t, rules.left_bower)
            assert trick.winner is trick.seats[trick.winning_index]
            leader = trick.winner
    # The score follows the tables.
    won = state.tricks_won()
    assert sum(won.values()) == (0 if state.defense is Defense.SURRENDER else 6)
    assert state.score is not None
    table = "standard" if rules.preset == "lions-club" else rules.preset  # the sheet's own
    expect = reference.score(table, str(bid), rules.side_of(bidder), won,
                             state.defense is Defense.SURRENDER, rules.score_what_you_get)
    assert state.score.points == expect


def random_action(state: HandState, rng: random.Random, modest: bool = False):
    """A random legal action; the auction passes often, as real tables do. A modest bidder
    bids only the lowest bid open, so that random matches reach the target."""
    legal = state.legal_actions()
    if state.phase is Phase.AUCTION:
        if Bid.PASS in legal and rng.random() < 0.7:
            return Bid.PASS
        bids = [b for b in legal if b is not Bid.PASS]
        if modest and bids:
            return min(bids)
    return rng.choice(legal)


def probe(state: HandState, rng: random.Random) -> None:
    """The explaining path agrees with legal_actions on a random candidate of the phase."""
    legal = state.legal_actions()
    if state.phase is Phase.AUCTION:
        candidate = rng.choice(list(Bid))
    elif state.phase is Phase.DECLARE_TRUMP:
        candidate = rng.choice(list(Trump))
    elif state.phase is Phase.DECLARE_MODE:
        candidate = rng.choice(list(Mode))
    elif state.phase is Phase.DEFENSE:
        candidate = rng.choice(list(Defense))
    else:
        candidate = Card.from_index(rng.randrange(24))
    verdict = state.check(candidate)
    assert verdict.legal == (candidate in legal), (state, candidate, verdict.explanation)
    if not verdict.legal:
        assert verdict.rule_ids and verdict.facts and set(verdict.alternatives) == set(legal)


def check_fast_playouts(state: HandState, seed: int) -> None:
    """From a play-phase state: ``playout`` plays the very cards that repeated ``apply`` calls
    would with the same random numbers, ``random_tricks`` gives the same tricks without
    touching the state, and the finished hand passes the audit."""
    before = (list(state.history), state.tricks, state.tricks_won_by_seat(), state.to_act)
    won = state.random_tricks(random.Random(seed))
    assert (list(state.history), state.tricks, state.tricks_won_by_seat(),
            state.to_act) == before
    fast, slow = state.copy(), state.copy()
    fast.playout(random.Random(seed))
    rand = random.Random(seed).random
    while not slow.is_terminal():
        options = slow.legal_actions()
        slow.apply(options[int(rand() * len(options))])
    assert fast.history == slow.history and fast.tricks == slow.tricks
    assert fast.score == slow.score and fast.to_act == slow.to_act
    assert fast.leader == slow.leader
    assert [fast.tricks_won_by_seat()[s] for s in fast.seats] == won
    assert all(not fast.hand(s) for s in fast.active_seats)
    audit(fast)


@pytest.mark.parametrize("preset,switches", CONFIGS, ids=[f"{p}-{s}" for p, s in CONFIGS])
def test_random_hands_keep_every_invariant(preset, switches):
    rules = get_ruleset(preset, **switches)
    rng = random.Random(hash((preset, tuple(sorted(switches.items())))) & 0xFFFF)
    phases_seen = set()
    for i in range(HANDS_PER_CONFIG):
        state = HandState.deal(rules, Seat(i % rules.players), rng)
        while not state.is_terminal():
            phases_seen.add(state.phase)
            if i % 10 == 0:
                probe(state, rng)
                if state.phase is Phase.PLAY:
                    check_fast_playouts(state, i + len(state.history))
            state.apply(random_action(state, rng))
        phases_seen.add(state.phase)
        audit(state)
    assert Phase.PLAY in phases_seen and Phase.SCORED in phases_seen
    if rules.has_exchange:
        assert {Phase.DISCARD, Phase.SEND, Phase.DEFENSE} <= phases_seen
    if not rules.dealer_must_bid:
        assert Phase.THROWN_IN in phases_seen


def _reference_end(rules, results):
    """Walk the hands with the spec's end-of-game words; return the winner or None."""
    totals = {s: 0 for s in rules.sides}
    extra = False
    for points in results:
        if points is None:
            continue
        for s, v in points.items():
            totals[s] += v
        if extra:
            top = max(totals.values())
            leaders = [s for s in totals if totals[s] == top]
            if len(leaders) == 1:
                return leaders[0]
            continue
        reached = [s for s in totals if totals[s] >= rules.target]
        if len(reached) == 1:
            return reached[0]
        extra = len(reached) > 1
    return None


@pytest.mark.parametrize("preset,switches", CONFIGS[::2], ids=[p for p, _ in CONFIGS[::2]])
def test_random_matches_end_by_the_rule(preset, switches):
    rules = get_ruleset(preset, **switches)
    rng = random.Random(11)
    for _ in range(25):
        match = Match(rules, first_dealer=Seat(rng.randrange(rules.players)))
        dealers = []
        while not match.over:
            dealers.append(match.dealer)
            state = match.new_hand(rng)
            while not state.is_terminal():
                state.apply(random_action(state, rng, modest=True))
            match.record(state)
            assert len(match.results) < 2000, "a random match should end"
        assert all(b is a.next(rules.players) for a, b in itertools.pairwise(dealers))
        assert match.winner == _reference_end(rules, [r.points if not r.thrown_in else None
                                                      for r in match.results])
        # The game ended on the last hand and not before.
        assert _reference_end(rules, [r.points if not r.thrown_in else None
                                      for r in match.results[:-1]]) is None
