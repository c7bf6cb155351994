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
