"""Auction-aware dealing: the unseen hands are dealt in proportion to how likely they
were to make the calls seen."""

from __future__ import annotations

import random
import statistics

from pepper_tutor import Bid, HandState
from pepper_tutor.analysis.advice import advise_bid, advise_play
from pepper_tutor.analysis.calling import call_likelihood, hand_value
from pepper_tutor.analysis.inference import deal_for_view
from pepper_tutor.analysis.view import view_of
from pepper_tutor.engine.cards import Card
from pepper_tutor.engine.rules import get_ruleset
from pepper_tutor.engine.seats import Seat


def _idx(text: str) -> list[int]:
    return [Card.parse(c).index for c in text.split()]


def test_a_strong_hand_is_likelier_to_bid_five_than_a_weak_one():
    rules = get_ruleset("standard")
    strong = _idx("JH JD AH KH AS AC")
    weak = _idx("9C TC 9D TD 9S QS")
    assert call_likelihood(rules, strong, Bid.PASS, Bid.FIVE) > 0.01
    assert call_likelihood(rules, weak, Bid.PASS, Bid.FIVE) < 0.01
    assert call_likelihood(rules, weak, Bid.PASS, Bid.PASS) > 0.8
    # the stuck dealer may hold anything for the lowest bid
    assert call_likelihood(rules, weak, Bid.PASS, Bid.ONE, forced=True) > 0.8


def test_a_bid_of_five_makes_the_bidders_hand_stronger_in_the_deals():
    state = HandState.deal("standard", Seat.W, random.Random(4))
    state.apply(Bid.FIVE)  # North bids 5 (whatever North holds)
    view = view_of(state)  # East's view
    rules = state.rules
    rng = random.Random(1)

    def north(auction: bool) -> float:
        return statistics.fmean(
            hand_value(rules, [c.index for c in deal_for_view(view, rng, auction).dealt(Seat.N)])[0]
            for _ in range(150))

    assert north(True) > north(False) + 0.4


def test_advice_reads_the_auction_by_default_and_says_so():
    state = HandState.deal("standard", Seat.W, random.Random(4))
    state.apply(Bid.FIVE)
    advice = advise_bid(state, 12, seed=2)
    assert any(n.startswith("the auction is read") for n in advice.notes)
    plain = advise_bid(state, 12, seed=2, auction=False)
    assert any("not read" in n for n in plain.notes)


def test_until_clear_stops_early_on_an_obvious_card():
    # The opening lead: the advice stops once the best card is clear, and agrees with a
    # fixed-size run on the card (or ran all 400 deals).
    state = HandState.deal("standard", Seat.W, random.Random(7))
    for action in (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS):
        state.apply(action)
    from pepper_tutor.engine.calls import Defense, Mode, Trump

    for action in (Trump.H, Mode.PARTNER, Defense.PLAY):
        state.apply(action)
    advice = advise_play(state, 400, seed=1, until_clear=True)
    full = advise_play(state, 60, seed=1)
    assert advice.best.card == full.best.card or advice.samples == 400
    assert advice.samples <= 400


def test_clear_ignores_equivalent_options_and_waits_for_evidence():
    from pepper_tutor.analysis.advice import TalliedOption, Tally, is_clear

    def clear(rows: list[list[int]]) -> bool:
        tally = Tally(len(rows[0]))
        for row in rows:
            tally.add(row)
        return is_clear(tally, [TalliedOption(k, float) for k in range(len(rows[0]))])

    # two cards worth the same on every deal, a third worse: the best is clear
    assert clear([[2, 2, 0]] * 5 + [[2, 2, 1]] * 5)
    # two options that trade places: not clear
    assert not clear([[1, 0], [0, 1]] * 5)
    # one deal is not evidence
    assert not clear([[2, 0]])


def _lone_five_in_spades() -> HandState:
    """North bids 5 over three passes, names spades and takes the exchange; East, to speak
    for the defenders, saw neither the discard nor the card sent."""
    from pepper_tutor.engine.calls import Mode, Trump
    from pepper_tutor.engine.state import Phase

    hands = {"N": "JS JC AS KS AD 9H", "E": "9C TC QC KD QD 9D", "S": "QS TS 9S AC KH TH",
             "W": "KC JD TD JH QH AH"}
    state = HandState.from_hands({s: h.split() for s, h in hands.items()}, dealer="W")
    for call in (Bid.FIVE, Bid.PASS, Bid.PASS, Bid.PASS):
        state.apply(call)
    state.apply(Trump.S)
    state.apply(Mode.EXCHANGE)
    state.apply(Card.parse("9H"))  # North lays aside the 9♥
    state.apply(Card.parse("QS"))  # South sends the Q♠, its highest trump
    assert state.phase is Phase.DEFENSE and state.to_act == Seat.E
    return state


def test_an_exchange_a_defender_did_not_see_is_dealt_as_the_rules_make_it():
    """The bidder's and the partner's hands are dealt as they were dealt and the exchange
    replayed by the rules (the partner's highest trump sent, the bidder's lowest card of its
    shortest plain suit laid aside): the lone bidder the defenders imagine holds the card
    the partner sent. (Dealt as they are now, the card sent was any card of the bidder's
    hand, and a bidder read from a 5 came out weaker than the bid says.)"""
    from pepper_tutor.analysis.dealing import discard_rule, send_rule

    state = _lone_five_in_spades()
    view = view_of(state)
    rng = random.Random(3)
    for _ in range(40):
        deal = deal_for_view(view, rng, auction=True)
        bidder, partner = deal.dealt(Seat.N), deal.dealt(Seat.S)
        dealt_n, dealt_s = [c.index for c in bidder], [c.index for c in partner]
        assert deal.discard is not None and deal.passed is not None
        assert deal.discard.index == discard_rule(dealt_n, 3)
        assert deal.passed.index == send_rule(dealt_s, 3)
        assert set(deal.hand(Seat.E)) == set(state.hand(Seat.E))


def test_after_the_bidder_has_played_the_hidden_exchange_still_follows_the_rules():
    from pepper_tutor.analysis.dealing import discard_rule, send_rule
    from pepper_tutor.engine.calls import Defense
    from pepper_tutor.engine.state import Phase

    state = _lone_five_in_spades()
    state.apply(Defense.PLAY)
    while state.phase is Phase.DEFENSE:
        state.apply(Defense.PLAY)
    while state.to_act not in (Seat.E, Seat.W) or not any(state.hand(Seat.N)) or \
            len(state.hand(Seat.N)) == 6:
        state.apply(state.legal_actions()[0])
    view = view_of(state)
    rng = random.Random(5)
    for _ in range(20):
        deal = deal_for_view(view, rng, auction=True)
        dealt_n = [c.index for c in deal.dealt(Seat.N)]
        dealt_s = [c.index for c in deal.dealt(Seat.S)]
        assert deal.discard is not None and deal.passed is not None
        assert deal.discard.index == discard_rule(dealt_n, 3)
        assert deal.passed.index == send_rule(dealt_s, 3)
        assert set(deal.hand(view.seat)) == set(state.hand(view.seat))
