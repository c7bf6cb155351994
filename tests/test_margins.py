"""``bench margins``: a ladder margin split by contract adds up to the ladder's figure."""

from __future__ import annotations

import pytest

from pepper_tutor import Bid, Defense, HandState, Mode, Seat, Trump
from pepper_tutor.bench import margins
from pepper_tutor.bench.tournament import _Stats, duplicate


@pytest.mark.parametrize(("first", "second", "deals", "seed"), [
    ("club", "beginner", 24, 1), ("reference", "beginner", 24, 5), ("ceiling", "reference", 3, 2)])
def test_the_split_adds_up_to_the_ladders_figure_on_the_same_deals(first, second, deals, seed):
    m = margins.margin(first, second, deals, seed)
    stats = {first: _Stats(), second: _Stats()}
    ladder = duplicate(first, second, deals, seed, stats)
    assert m.total == pytest.approx(ladder.mean)
    assert m.total - m.half == pytest.approx(ladder.low)
    assert sum(share for _, _, share in m.rows) == pytest.approx(m.total)
    assert sum(hands for _, hands, _ in m.rows) == 2 * deals
    assert sum(m.by_bidder().values()) == pytest.approx(m.total)
    # every contract the ladder counted for a level is one of that level's rows
    for level in (first, second):
        bid = sum(h for c, h, _ in m.rows if c.startswith(f"{level}: "))
        assert bid == stats[level].contracts


HANDS = {"N": "JH JD AH KH QH 10H", "E": "9C 10C QC KC AC JC", "S": "9D 10D QD KD AD 9H",
         "W": "9S 10S QS KS AS JS"}


def _dealt() -> HandState:
    return HandState.from_hands({seat: cards.split() for seat, cards in HANDS.items()},
                                dealer="W")


def test_a_contract_is_named_by_its_bidders_level_bid_way_and_end():
    state = _dealt()
    levels = {Seat.N: "club", Seat.S: "club", Seat.E: "beginner", Seat.W: "beginner"}
    state.apply(Bid(4))
    for _ in range(3):
        state.apply(Bid.PASS)
    state.apply(Trump.H)
    state.apply(Mode.PARTNER)
    state.apply(Defense.SURRENDER)
    assert margins.contract_of(state, levels) == "club: 4, with partner, surrendered"


def test_thrown_in_hands_are_their_own_row():
    state = _dealt()
    for _ in range(4):
        state.apply(Bid.PASS)
    assert margins.contract_of(state, {}) == margins.THROWN_IN


@pytest.mark.parametrize(("args", "said"), [
    (["--pairs", "ceiling:grandmaster"], "grandmaster is not two of"),
    (["--deals", "1"], "--deals: 2 to 10,000 deals"),
    (["--rows", "0"], "--rows: at least 1"),
    (["--executor", "ray"], "ray")])
def test_the_command_refuses_bad_arguments_by_name(args, said, capsys):
    with pytest.raises(SystemExit) as stopped:
        margins.main(["--deals", "4", *args])
    assert stopped.value.code == 2
    assert said in capsys.readouterr().err


def test_the_report_names_the_pairing_its_interval_and_who_bid(capsys):
    margins.main(["--pairs", "club:beginner", "--deals", "6", "--executor", "local:1",
                  "--rows", "3"])
    out = capsys.readouterr().out
    assert out.startswith("club vs beginner, 6 deals (each twice, seats swapped): ")
    assert "by who bid: club's contracts " in out and "beginner's contracts " in out
    assert "more kinds of contract" in out


def test_big_pepper_is_named_alone_it_has_no_way_of_playing_to_declare():
    state = _dealt()
    levels = {Seat.N: "ceiling", Seat.S: "ceiling", Seat.E: "club", Seat.W: "club"}
    state.apply(Bid.BIG_PEPPER)
    for _ in range(3):
        state.apply(Bid.PASS)
    state.apply(Trump.H)
    state.apply(Defense.SURRENDER)
    assert margins.contract_of(state, levels) == "ceiling: big pepper, alone, surrendered"
