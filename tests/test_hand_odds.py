"""The measured shares of tricks (analysis.hand_odds) and the club player's bids by them: hands
whose right call holds under any sound reading of the cards."""

from __future__ import annotations

import random
import statistics

import pytest

from pepper_tutor import Bid, HandState, Seat
from pepper_tutor.analysis.calling import side_estimate
from pepper_tutor.analysis.hand_odds import (
    SHARES,
    WAYS,
    contract_value,
    measured_for,
    trick_shares,
    valued_call,
)
from pepper_tutor.analysis.players import make_player
from pepper_tutor.analysis.view import view_of
from pepper_tutor.engine.rules import get_ruleset

STANDARD = get_ruleset("standard")


def _north_opens(north: list[str], rules: str = "standard") -> HandState:
    """North, first to call, holds ``north``; the other cards are dealt in a fixed order."""
    deck = [rank + suit for suit in "HSDC" for rank in "9TQKAJ"]
    rest = [c for c in deck if c not in north]
    return HandState.from_hands({"N": north, "E": rest[:6], "S": rest[6:12],
                                 "W": rest[12:18]}, rules=rules, dealer="W")


def _club_call(state: HandState) -> Bid:
    assert state.to_act is not None
    call = make_player("club", 1).decide(view_of(state, state.to_act))
    assert isinstance(call, Bid)
    return call


def _mean(shares: tuple[float, ...]) -> float:
    return sum(t * s for t, s in enumerate(shares))


def test_each_row_of_shares_is_a_distribution_and_a_stronger_hand_takes_more():
    for way in WAYS:
        rows = SHARES[way]
        for shares in rows.values():
            assert len(shares) == 7 and sum(shares) == pytest.approx(1.0, abs=0.005)
        means = [_mean(rows[r]) for r in sorted(rows) if r >= 1.0]
        assert means == sorted(means), way


def test_the_measured_tricks_exceed_the_models_estimate_for_the_hands_that_bid():
    # What the shares are for: the calling model's side estimate runs short of what
    # double-dummy play takes for hands counted 2 to 4 tricks on their own.
    for own in (2.0, 2.5, 3.0, 3.5, 4.0):
        for way in WAYS:
            model = own + side_estimate(STANDARD, [], 0, alone=way == "alone")
            assert _mean(SHARES[way][own]) > model + 0.2, (own, way)


def test_a_contracts_value_follows_the_tables_scoring():
    sure_two = (0, 0, 1.0, 0, 0, 0, 0)
    # Bid 4, take 2: the bidders lose 4 and the defenders score their 4 tricks.
    assert contract_value(STANDARD, Bid.FOUR, sure_two) == -8.0
    sweep = (0, 0, 0, 0, 0, 0, 1.0)
    # A sweep: a 6 scores 6 and the swept defenders lose 6; little pepper 7 and 7.
    assert contract_value(STANDARD, Bid.SIX, sweep) == 12.0
    assert contract_value(STANDARD, Bid.LITTLE_PEPPER, sweep) == 14.0
    # The simple rules score the tricks taken and charge a miss 6.
    simple = get_ruleset("simple")
    assert contract_value(simple, Bid.FOUR, sure_two) == -6.0 - 4.0


def test_a_hand_with_both_bowers_the_ace_and_a_fourth_trump_bids_at_least_four():
    state = _north_opens(["JH", "JD", "AH", "9H", "9S", "9C"])
    call = _club_call(state)
    assert call is not Bid.PASS and not call.is_pepper and call >= Bid.FOUR


def test_the_top_five_trumps_and_an_ace_bid_little_pepper_never_big():
    # Six sure tricks alone: a sweep is worth more as a pepper than as a 6. Big pepper is
    # played without the exchange, which the shares do not measure, so it is never bid.
    state = _north_opens(["JH", "JD", "AH", "KH", "QH", "AS"])
    assert _club_call(state) is Bid.LITTLE_PEPPER


def test_junk_passes():
    state = _north_opens(["9H", "TS", "9C", "TC", "9D", "QS"])
    assert _club_call(state) is Bid.PASS


def test_a_stronger_hand_never_bids_less():
    # The right bower added to a hand's best suit never lowers the call.
    weaker = _club_call(_north_opens(["JD", "AH", "9H", "9S", "9C", "TC"]))
    stronger = _club_call(_north_opens(["JH", "JD", "AH", "9H", "9S", "9C"]))
    assert stronger is not Bid.PASS and stronger >= weaker


def test_the_club_keeps_partners_contract_with_an_ordinary_hand():
    # Partner (North) bids 4; South holds a fair hand, nowhere near a trick and a half more.
    state = HandState.from_hands({"N": ["JH", "JD", "AH", "9H", "9S", "9C"],
                                  "E": ["TS", "QS", "KS", "TD", "QD", "KD"],
                                  "S": ["KH", "QH", "AS", "TC", "QC", "9D"],
                                  "W": ["TH", "JS", "AD", "JC", "KC", "AC"]}, dealer="W")
    state.apply(Bid.FOUR)
    state.apply(Bid.PASS)
    assert _club_call(state) is Bid.PASS


def test_the_shares_apply_only_to_tables_they_were_measured_at():
    assert measured_for(STANDARD) and measured_for(get_ruleset("lions-club"))
    # Not without partners, nor where a made bid scores every trick taken: there a 1
    # would always look best.
    assert not measured_for(get_ruleset("cutthroat"))
    assert not measured_for(get_ruleset("simple"))
    assert not measured_for(get_ruleset("standard", score_what_you_get=True))
    # At a table without partners the club bids by the calling model, and legally.
    state = HandState.deal("cutthroat", None, 3)
    assert state.to_act is not None
    view = view_of(state, state.to_act)
    assert make_player("club", 1).decide(view) in view.legal


def test_the_valued_call_is_legal_for_a_dealer_who_must_bid():
    rules = "standard"
    for i in range(40):
        state = HandState.deal(rules, Seat(i % 4), random.Random(i))
        while state.to_act != state.dealer:
            state.apply(Bid.PASS)
        view = view_of(state, state.to_act)
        assert valued_call(view) in view.legal


@pytest.mark.slow
def test_the_shares_agree_with_a_fresh_double_dummy_sample():
    from pepper_tutor.bench.hand_odds import measure, shares

    rows = [measure((11, i)) for i in range(400)]  # another seed than the table's
    fresh = shares(rows)
    for way in WAYS:
        for own, (got, n) in fresh[way].items():
            if n >= 50:
                assert abs(_mean(got) - _mean(SHARES[way][own])) < 0.35, (way, own, n)
    # And by hand: a hand's shares are its row's.
    hand = [c.index for c in _north_opens(["JH", "JD", "AH", "9H", "9S", "9C"]).hand(Seat.N)]
    assert trick_shares(STANDARD, hand, "alone")[6] > 0.3
    assert statistics.fmean(r[2] for r in rows) > 2.5
