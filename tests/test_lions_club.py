"""The Lions Club preset and its switches: the no-trump lead, the dumped dealer, the target
of 31, the sheet's scoring, and the bid signals as a rule set value."""

from __future__ import annotations

import pytest

from pepper_tutor import (
    Bid,
    Defense,
    HandState,
    Mode,
    Phase,
    RuleSetError,
    Seat,
    Trump,
    get_ruleset,
    score_hand,
)
from pepper_tutor.engine.scoring import game_status
from pepper_tutor.engine.signals import holds_shown, shown_by
from pepper_tutor.rulebook.book import get_rulebook


def _auction(rules, calls, dealer="W", seed=1):
    state = HandState.deal(rules, Seat.parse(dealer), rng=seed)
    for call in calls:
        state.apply(Bid.parse(call))
    return state


def _to_play(state, trump, mode=Mode.PARTNER):
    state.apply(trump)
    if state.phase is Phase.DECLARE_MODE:
        state.apply(mode)
    if state.phase is Phase.DISCARD:
        state.apply(state.legal_actions()[0])
        state.apply(state.legal_actions()[0])
    if state.phase is Phase.DEFENSE:
        state.apply(Defense.PLAY)
    assert state.phase is Phase.PLAY
    return state


# ---- the preset and the switches ------------------------------------------------------------


def test_the_preset_sets_the_sheets_switches():
    rules = get_ruleset("lions-club")
    assert (rules.target, rules.nt_lead, rules.dumped_dealer, rules.signals) == (
        31, "left_of_bidder", True, "lions")
    assert rules.name == "lions-club" and rules.to_mapping() == "lions-club"
    assert rules.ladder == get_ruleset("standard").ladder and rules.has_surrender
    assert set(rules.rule_ids) == {"preset.lions-club", "variant.nt-lead",
                                   "variant.dumped-dealer", "variant.bid-signals"}
    text = rules.summary()
    assert text.startswith("Lions Club Pepper") and "game to 31" in text
    assert "bidder's left leads" in text and "dumped" in text and "shows an ace" in text
    assert get_ruleset({"preset": "Lions-Club", "target": 42}).name == "lions-club+target=42"


def test_each_switch_works_on_its_own_in_the_standard_game():
    rules = get_ruleset("standard", nt_lead="left_of_bidder", dumped_dealer=True,
                        signals="lions")
    assert rules.name == "standard+nt_lead=left_of_bidder+dumped_dealer+signals=lions"
    assert get_ruleset(rules.to_mapping()) == rules
    assert get_ruleset("simple", dumped_dealer=True).dealer_minimum is Bid.THREE
    assert get_ruleset("lions-club", signals="none").rule_ids[-1] == "variant.dumped-dealer"
    for rid in rules.rule_ids:
        assert rid in get_rulebook()


@pytest.mark.parametrize("preset,switches,message", [
    ("standard", {"nt_lead": "dealer"}, "nt_lead must be bidder or left_of_bidder"),
    ("standard", {"signals": "italian"}, "signals must be none or lions"),
    ("standard", {"dumped_dealer": "yes"}, "dumped_dealer must be true or false"),
    ("cutthroat", {"dumped_dealer": True}, "dumped_dealer belongs to the one-round auction"),
    ("cutthroat", {"signals": "lions"}, "signals are a partnership agreement"),
    ("lions-club", {"all_pass": "dealer_must_bid"}, "dumped_dealer already makes the dealer"),
    ("lions-club", {"players": 3}, "four-player game"),
])
def test_switches_that_do_not_fit_are_refused_with_the_reason(preset, switches, message):
    with pytest.raises(RuleSetError, match=message):
        get_ruleset(preset, **switches)


def test_signals_in_cutthroat_pairs_are_allowed():
    assert get_ruleset("cutthroat", partnerships=True, signals="lions").signals_on


# ---- variant.nt-lead -----------------------------------------------------------------------


@pytest.mark.parametrize("mode", [Mode.PARTNER, Mode.EXCHANGE])
def test_at_no_trump_the_bidders_left_leads(mode):
    state = _to_play(_auction("lions-club", ["pass", "3", "pass", "pass"]), Trump.NT, mode)
    assert state.bidder is Seat.E and state.to_act is Seat.S and state.leader is Seat.S
    assert state.check(state.legal_actions()[0]).legal
    wrong = state.check(state.hand(Seat.E)[0], Seat.E)
    assert not wrong.legal and "turn" in wrong.explanation


def test_with_a_trump_suit_the_bidder_leads_and_the_standard_game_keeps_its_lead():
    assert _to_play(_auction("lions-club", ["pass", "3", "pass", "pass"]),
                    Trump.S).to_act is Seat.E
    assert _to_play(_auction("standard", ["pass", "3", "pass", "pass"]),
                    Trump.NT).to_act is Seat.E


def test_a_big_pepper_at_no_trump_is_led_into_by_the_left():
    state = _auction("lions-club", ["BP", "pass", "pass", "pass"])
    state.apply(Trump.NT)
    state.apply(Defense.PLAY)
    assert state.to_act is Seat.E and state.sitting_out is Seat.S


def test_the_nt_lead_in_three_handed_cutthroat_is_the_next_seat():
    rules = get_ruleset("cutthroat", players=3, nt_lead="left_of_bidder")
    state = HandState.deal(rules, Seat.S, rng=2)
    state.apply(Bid.TWO)  # North
    state.apply(Bid.PASS)
    state.apply(Bid.PASS)
    state.apply(Trump.NT)
    assert state.phase is Phase.PLAY and state.to_act is Seat.E


def test_the_lead_survives_undo_and_copy():
    state = _to_play(_auction("lions-club", ["2", "pass", "pass", "pass"]), Trump.NT)
    first = state.legal_actions()[0]
    other = state.copy()
    state.apply(first)
    state.undo()
    assert state.to_act is Seat.E and other.to_act is Seat.E


# ---- variant.dumped-dealer -----------------------------------------------------------------


def test_a_dumped_dealer_must_bid_three_or_more():
    state = _auction("lions-club", ["pass", "pass", "pass"])
    assert state.dealer_must_bid_now()
    assert state.legal_actions() == [Bid.THREE, Bid.FOUR, Bid.FIVE, Bid.SIX,
                                     Bid.LITTLE_PEPPER, Bid.BIG_PEPPER]
    for call in ("pass", "1", "2"):
        verdict = state.check(call)
        assert not verdict.legal and verdict.rule_ids[0] == "variant.dumped-dealer"
        assert "dumped" in verdict.explanation and "at least 3" in verdict.explanation
    assert state.check("3").legal


def test_a_dealer_who_was_bid_to_may_pass_or_bid_low():
    state = _auction("lions-club", ["1", "pass", "pass"])
    assert Bid.PASS in state.legal_actions() and Bid.TWO in state.legal_actions()
    assert not state.dealer_must_bid_now()


def test_the_opponents_of_a_dumped_dealer_may_not_surrender():
    state = _auction("lions-club", ["pass", "pass", "pass", "4"])
    assert state.dealer_dumped()
    state.apply(Trump.H)
    state.apply(Mode.PARTNER)
    assert state.phase is Phase.DEFENSE and state.legal_actions() == [Defense.PLAY]
    verdict = state.check("surrender")
    assert not verdict.legal and verdict.rule_ids[0] == "variant.dumped-dealer"
    assert "must play" in verdict.explanation


def test_a_dealer_who_outbid_someone_may_be_surrendered_to():
    state = _auction("lions-club", ["1", "pass", "pass", "4"])
    assert not state.dealer_dumped()
    state.apply(Trump.H)
    state.apply(Mode.PARTNER)
    assert Defense.SURRENDER in state.legal_actions()


def test_a_stuck_dealer_without_the_switch_may_be_surrendered_to():
    rules = get_ruleset("standard", all_pass="dealer_must_bid")
    state = _auction(rules, ["pass", "pass", "pass", "1"])
    state.apply(Trump.H)
    state.apply(Mode.PARTNER)
    assert Defense.SURRENDER in state.legal_actions()


def test_the_dumped_minimum_never_lowers_a_higher_table_minimum():
    rules = get_ruleset("standard", dumped_dealer=True, minimum_bid=4)
    state = _auction(rules, ["pass", "pass", "pass"])
    assert min(state.legal_actions()) is Bid.FOUR


# ---- game to 31 and the sheet's scoring ---------------------------------------------------


def test_the_game_is_to_31():
    rules = get_ruleset("lions-club")
    assert game_status(rules, {"NS": 31, "EW": 30}).winner == "NS"
    assert not game_status(rules, {"NS": 30, "EW": 30}).over
    assert game_status(rules, {"NS": 31, "EW": 33}).overtime


@pytest.mark.parametrize("bid,tricks,surrendered,points", [
    ("3", 3, False, {"NS": 3, "EW": 3}),  # get what you bid, not what you get
    ("3", 5, False, {"NS": 3, "EW": 1}),
    ("4", 2, False, {"NS": -4, "EW": 4}),  # set: loses the bid, defenders score their tricks
    ("4", 6, False, {"NS": 4, "EW": -4}),  # defenders who play and take none lose the bid
    ("LP", 6, False, {"NS": 7, "EW": -7}),
    ("LP", 5, False, {"NS": -7, "EW": 7}),
    ("BP", 6, False, {"NS": 14, "EW": -14}),
    ("BP", 4, False, {"NS": -14, "EW": 14}),
    ("5", 0, True, {"NS": 5, "EW": 0}),
])
def test_scoring_follows_the_sheet(bid, tricks, surrendered, points):
    rules = get_ruleset("lions-club")
    won = {"NS": 0, "EW": 0} if surrendered else {"NS": tricks, "EW": 6 - tricks}
    assert score_hand(rules, Bid.parse(bid), "NS", won, surrendered).points == points


# ---- what the signals show ------------------------------------------------------------------


def test_what_a_two_and_a_three_show():
    lions, plain = get_ruleset("lions-club"), get_ruleset("standard")
    assert shown_by(lions, Bid.TWO) == "an ace"
    assert shown_by(lions, Bid.THREE) == "a red jack and a black jack"
    assert shown_by(lions, Bid.FOUR) is None and shown_by(plain, Bid.TWO) is None
    jacks = [2, 8]  # J♣ J♦
    assert holds_shown(lions, Bid.THREE, jacks)
    assert not holds_shown(lions, Bid.THREE, [8, 14])  # two red jacks
    assert not holds_shown(lions, Bid.TWO, jacks) and holds_shown(lions, Bid.TWO, [23])
    assert holds_shown(plain, Bid.TWO, jacks)  # no agreement, nothing shown


def test_a_hand_record_at_no_trump_is_led_from_the_bidders_left():
    """The annotator replays a Lions Club no-trump hand from the bidder's left, and a record
    that has the bidder lead says whose lead it was."""
    from pathlib import Path

    from pepper_tutor.records.hand_record import LoadError, parse_record

    text = (Path(__file__).parents[1] / "pepper_tutor/data/hands/no-trump.yaml").read_text()
    parse_record(text, "standard.yaml")  # the bidder, West, leads in the standard game
    with pytest.raises(LoadError) as err:
        parse_record(text.replace("rules: standard", "rules: lions-club"), "lions.yaml")
    assert "North leads the first trick" in str(err.value.problems[0])
