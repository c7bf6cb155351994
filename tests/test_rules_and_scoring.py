"""Presets, switches and every row of RULES-SPEC's scoring tables (score.* rules)."""

import pytest

from pepper_tutor import Bid, RuleSetError, get_ruleset, score_hand
from pepper_tutor.engine.scoring import game_status

from . import reference

BIDS = ["1", "2", "3", "4", "5", "6", "LP", "BP"]


def test_presets_by_name():
    std, simple, cut = (get_ruleset(n) for n in ("standard", "simple", "cutthroat"))
    assert (std.target, simple.target, cut.target) == (42, 30, 30)
    assert [str(b) for b in std.ladder] == BIDS
    assert [str(b) for b in simple.ladder] == ["1", "2", "3", "4", "5", "LP", "BP"]
    assert cut.ladder == simple.ladder and cut.open_auction and not std.open_auction
    assert not cut.has_exchange and not cut.has_surrender and cut.sides == ("N", "E", "S")
    assert std.sides == ("NS", "EW")


def test_switches_by_keyword_and_mapping():
    rules = get_ruleset("standard", dirty_clubs=True)
    assert rules.dirty_clubs and rules.name == "standard+dirty_clubs"
    assert get_ruleset({"preset": "standard", "dirty_clubs": True}) == rules
    assert get_ruleset(rules.to_mapping()) == rules
    stick = get_ruleset("standard", minimum_bid=3, dealer_must_bid=True)
    assert stick.dealer_must_bid and stick.ladder[0] is Bid.THREE
    assert get_ruleset("cutthroat", players=4, partnerships=True).sides == ("NS", "EW")
    assert get_ruleset("cutthroat", players=2).sides == ("N", "E")
    assert "variant.dirty-clubs" in rules.rule_ids and "preset.standard" in rules.rule_ids


def test_rulesets_are_immutable():
    rules = get_ruleset("standard")
    with pytest.raises(AttributeError):
        rules.target = 10  # type: ignore[misc]


@pytest.mark.parametrize("call,kw,message", [
    ("euchre", {}, "'euchre' is not a preset"),
    ("standard", {"dirty": True}, "'dirty' is not a switch"),
    ("standard", {"minimum_bid": 9}, "minimum_bid must be"),
    ("standard", {"players": 3}, "four-player game"),
    ("cutthroat", {"players": 5}, "2, 3 or 4 players"),
    ("cutthroat", {"partnerships": True, "players": 3}, "partnerships need four players"),
    ("cutthroat", {"dirty_clubs": True}, "dirty_clubs does nothing"),
    ("standard", {"all_pass": "shuffle"}, "all_pass must be"),
    ("simple", {"score_what_you_get": True}, "already scores"),
])
def test_bad_rulesets_are_refused_with_the_reason(call, kw, message):
    with pytest.raises(RuleSetError, match=message):
        get_ruleset(call, **kw)


def test_summary_is_readable():
    text = get_ruleset("standard", dirty_clubs=True, minimum_bid=3,
                       all_pass="dealer_must_bid").summary()
    assert "game to 42" in text and "dirty clubs" in text and "at least 3" in text
    assert "each for themselves" in get_ruleset("cutthroat").summary()


def _cases():
    for preset in ("standard", "simple"):
        rules = get_ruleset(preset)
        for bid in [str(b) for b in rules.ladder]:
            for t in range(7):
                yield preset, bid, t, False
            yield preset, bid, 0, True


@pytest.mark.parametrize("preset,bid,t,surrender", list(_cases()))
def test_every_row_of_the_partnership_tables(preset, bid, t, surrender):
    """score.bid, score.defenders, score.sweep, score.pepper, score.surrender, preset.simple."""
    rules = get_ruleset(preset)
    tricks = {"NS": 0, "EW": 0} if surrender else {"NS": t, "EW": 6 - t}
    got = score_hand(rules, Bid.parse(bid), "NS", tricks, surrender)
    assert got.points == reference.score(preset, bid, "NS", tricks, surrender)


def test_named_rows():
    std = get_ruleset("standard")
    assert score_hand(std, Bid.FOUR, "NS", {"NS": 5, "EW": 1}).points == {"NS": 4, "EW": 1}
    assert score_hand(std, Bid.FOUR, "NS", {"NS": 3, "EW": 3}).points == {"NS": -4, "EW": 3}
    assert score_hand(std, Bid.FOUR, "NS", {"NS": 6, "EW": 0}).points == {"NS": 4, "EW": -4}
    got = score_hand(std, Bid.LITTLE_PEPPER, "EW", {"NS": 1, "EW": 5})
    assert got.points == {"EW": -7, "NS": 7} and got.rules["NS"] == "score.pepper"
    assert score_hand(std, Bid.BIG_PEPPER, "EW", {"NS": 0, "EW": 6}).points == {"EW": 14,
                                                                              "NS": -14}
    got = score_hand(std, Bid.BIG_PEPPER, "EW", {"NS": 0, "EW": 0}, surrendered=True)
    assert got.points == {"EW": 14, "NS": 0} and got.made is None
    sweep = score_hand(std, Bid.TWO, "NS", {"NS": 6, "EW": 0})
    assert sweep.rules == {"NS": "score.bid", "EW": "score.sweep"}


def test_score_what_you_get():
    rules = get_ruleset("standard", score_what_you_get=True)
    got = score_hand(rules, Bid.THREE, "NS", {"NS": 5, "EW": 1})
    assert got.points == {"NS": 5, "EW": 1}
    assert got.rules["NS"] == "variant.score-what-you-get"
    assert score_hand(rules, Bid.THREE, "NS", {"NS": 2, "EW": 4}).points == {"NS": -3, "EW": 4}
    assert score_hand(rules, Bid.LITTLE_PEPPER, "NS", {"NS": 6, "EW": 0}).points == {
        "NS": 7, "EW": -7}


def test_simple_rows():
    simple = get_ruleset("simple")
    assert score_hand(simple, Bid.TWO, "NS", {"NS": 4, "EW": 2}).points == {"NS": 4, "EW": 2}
    assert score_hand(simple, Bid.FIVE, "NS", {"NS": 4, "EW": 2}).points == {"NS": -6, "EW": 2}
    assert score_hand(simple, Bid.BIG_PEPPER, "NS", {"NS": 5, "EW": 1}).points == {
        "NS": -12, "EW": 1}
    assert score_hand(simple, Bid.LITTLE_PEPPER, "NS", {"NS": 6, "EW": 0}).points == {
        "NS": 6, "EW": 0}
    assert score_hand(simple, Bid.LITTLE_PEPPER, "NS", {"NS": 0, "EW": 0}, True).points == {
        "NS": 6, "EW": 0}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bid", ["1", "3", "5", "LP", "BP"])
def test_cutthroat_rows(players, bid):
    """cutthroat.score: bidder tricks if made else minus the bid; others one a trick."""
    rules = get_ruleset("cutthroat", players=players)
    sides = rules.sides
    for t in range(7):
        rest = 6 - t
        tricks = {s: 0 for s in sides}
        tricks[sides[0]] = t
        tricks[sides[1]] = rest
        got = score_hand(rules, Bid.parse(bid), sides[0], tricks)
        assert got.points == reference.score("cutthroat", bid, sides[0], tricks, False)


def test_cutthroat_partnerships_score_by_pairs():
    rules = get_ruleset("cutthroat", players=4, partnerships=True)
    assert score_hand(rules, Bid.THREE, "NS", {"NS": 4, "EW": 2}).points == {"NS": 4, "EW": 2}


@pytest.mark.parametrize("totals,overtime,over,winner,overtime_after", [
    ({"NS": 42, "EW": 30}, False, True, "NS", False),     # game.target: exactly one reaches
    ({"NS": 41, "EW": 30}, False, False, None, False),
    ({"NS": 43, "EW": 42}, False, False, None, True),     # game.tie: both reach: one more hand
    ({"NS": 45, "EW": 41}, True, True, "NS", False),      # after the extra hand: higher wins
    ({"NS": 40, "EW": 41}, True, True, "EW", False),      # even below the target
    ({"NS": 44, "EW": 44}, True, False, None, True),      # exact tie: play on
    ({"NS": -50, "EW": 12}, False, False, None, False),   # scores may go negative
])
def test_end_of_game_rule(totals, overtime, over, winner, overtime_after):
    status = game_status(get_ruleset("standard"), totals, overtime)
    assert (status.over, status.winner, status.overtime) == (over, winner, overtime_after)


def test_end_of_game_three_players():
    rules = get_ruleset("cutthroat")
    assert game_status(rules, {"N": 31, "E": 30, "S": 2}).overtime
    assert game_status(rules, {"N": 31, "E": 12, "S": 2}).winner == "N"
    assert game_status(rules, {"N": 31, "E": 33, "S": 2}, overtime=True).winner == "E"
