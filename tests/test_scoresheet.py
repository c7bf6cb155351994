"""The score sheet core against the engine's scoring, its refusals, and crash-safe saving."""


import pytest

from pepper_tutor import Bid, Seat, get_ruleset, score_hand
from pepper_tutor.records.hand_record import parse_record
from pepper_tutor.records.scoresheet import EntryError, ScoreSheet

from . import reference

CONFIGS = [("standard", {}), ("standard", {"score_what_you_get": True}),
           ("standard", {"dirty_clubs": True}), ("standard", {"minimum_bid": 3}),
           ("standard", {"minimum_bid": 4, "all_pass": "dealer_must_bid"}),
           ("simple", {}), ("cutthroat", {"players": 4, "partnerships": True})]


@pytest.mark.parametrize("preset,switches", CONFIGS, ids=[f"{p}{s}" for p, s in CONFIGS])
def test_points_follow_the_engine_for_every_bid_and_trick_count(preset, switches, tmp_path):
    rules = get_ruleset(preset, **switches, target=10_000)
    sheet = ScoreSheet(rules, "W")
    running = {"NS": 0, "EW": 0}
    for bid in rules.ladder:
        for t in range(7):
            bidder = sheet.next_dealer.next()
            side = rules.side_of(bidder)
            mode = "partner" if rules.has_exchange and bid is not Bid.BIG_PEPPER else None
            hand = sheet.add_simple(bidder, bid, "S", mode,
                                    "play" if rules.has_surrender else None, bidder_tricks=t)
            other = "EW" if side == "NS" else "NS"
            tricks = {side: t, other: 6 - t}
            expect = score_hand(rules, bid, side, tricks).points
            assert hand.score.points == expect
            assert expect == reference.score(preset, str(bid), side, tricks, False,
                                             rules.score_what_you_get)
            for s in running:
                running[s] += expect[s]
            assert sheet.totals == running


def test_cutthroat_three_players_by_seat(tmp_path):
    sheet = ScoreSheet("cutthroat", "S")
    hand = sheet.add_simple("N", 2, "NT", tricks={"N": 3, "E": 2, "S": 1})
    assert hand.score.points == {"N": 3, "E": 2, "S": 1}
    assert sheet.next_dealer is Seat.N  # with three players the deal goes S -> N -> E


@pytest.mark.parametrize("args,message", [
    (("N", 7, "H", "partner", "play"), "7 is not a bid"),
    (("N", 3, "H", "partner", "play", 7), "cannot take 7 tricks"),
    (("N", 3, "H", None, "play", 3), "took the exchange or played with partner"),
    (("N", "BP", "H", "exchange", "play", 6), "big pepper is always played alone"),
    (("N", 3, None, "partner", "play", 3), "a trump suit or no trump"),
    (("N", 3, "H", "partner", None, 3), "played or surrendered"),
])
def test_mistakes_are_refused_with_the_reason(tmp_path, args, message):
    sheet = ScoreSheet("standard", "W")
    bidder, bid, trump, mode, defense, *rest = args
    with pytest.raises(EntryError, match=message):
        sheet.add_simple(bidder, bid, trump, mode, defense,
                         bidder_tricks=rest[0] if rest else None)
    assert sheet.entries == []


def test_switch_refusals(tmp_path):
    low = ScoreSheet(get_ruleset("standard", minimum_bid=3), "W")
    with pytest.raises(EntryError, match="2 is not a bid at this table"):
        low.add_simple("N", 2, "H", "partner", "play", bidder_tricks=3)
    dirty = ScoreSheet(get_ruleset("standard", dirty_clubs=True), "W")
    with pytest.raises(EntryError, match="dirty clubs"):
        dirty.add_simple("N", 2, "C", "partner", "surrender")
    stuck = ScoreSheet(get_ruleset("standard", all_pass="dealer_must_bid"), "W")
    with pytest.raises(EntryError, match="cannot be thrown in"):
        stuck.add_simple(None, None)


def test_tie_case_then_the_extra_hand_decides(tmp_path):
    sheet = ScoreSheet(get_ruleset("standard", target=8), "W")
    sheet.add_simple("N", 3, "H", "partner", "play", bidder_tricks=3)   # 3 / 3
    sheet.add_simple("E", 2, "S", "partner", "play", bidder_tricks=4)   # 5 / 5
    sheet.add_simple(None, None)                                       # thrown in
    hand = sheet.add_simple("N", 3, "C", "partner", "play", bidder_tricks=3)  # 8 / 8
    assert hand.status.overtime and sheet.winner is None
    sheet.add_simple("E", 4, "D", "exchange", "play", bidder_tricks=5)  # 9 / 12
    assert sheet.winner == "EW" and sheet.totals == {"NS": 9, "EW": 12}
    with pytest.raises(EntryError, match="the match is over"):
        sheet.add_simple("S", 1, "H", "partner", "play", bidder_tricks=1)
    sheet.undo()
    assert sheet.winner is None and sheet.status.overtime


def test_exports(tmp_path):
    sheet = ScoreSheet("standard", "W")
    sheet.add_simple("N", 4, "H", "exchange", "play", bidder_tricks=5)
    sheet.add_simple(None, None)
    csv = sheet.to_csv().splitlines()
    assert csv[0].startswith("hand,dealer,bidder,bid") and csv[1].startswith("1,W,N,4,H")
    records = [parse_record(t, f"hand-{i}.yaml") for i, t in enumerate(sheet.to_records())]
    assert records[0].extras["x-score-sheet"]["points"] == {"NS": 4, "EW": 1}
    assert [str(e.value) for e in records[1].auction] == ["pass"] * 4


def test_a_bidder_with_a_pass_bid_is_refused_with_the_reason():
    sheet = ScoreSheet("standard", "W")
    with pytest.raises(EntryError, match="North is given as the bidder with no bid"):
        sheet.add_simple("N", None, "H", "partner", "play", 3)
    with pytest.raises(EntryError, match="bidder with no bid"):
        sheet.add_simple("N", "pass")
    assert sheet.entries == []
    sheet.add_simple(None, None)  # everyone passed: a throw-in
    assert sheet.entries[0].thrown_in
