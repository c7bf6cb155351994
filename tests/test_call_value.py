"""Every call valued by what follows it, and grades that hold still.

The positions are built so that the answer holds under any reasonable model of the other
hands: only the deciding seat's cards and the calls are fixed (the advice deals the rest).
"""

from __future__ import annotations

import random

import pytest

from pepper_tutor import Bid, HandState, Mode, Trump
from pepper_tutor.analysis.advice import advise, advise_bid
from pepper_tutor.analysis.calling import model_call
from pepper_tutor.analysis.grading import (
    Grade,
    grade_choice,
    grade_decision,
    grade_for_interval,
)
from pepper_tutor.analysis.players import make_player
from pepper_tutor.analysis.view import view_of
from pepper_tutor.engine.rules import get_ruleset
from pepper_tutor.engine.seats import Seat
from pepper_tutor.engine.state import Phase

GOOD = (Grade.BEST, Grade.GOOD)
BAD = (Grade.MISTAKE, Grade.BLUNDER)

# The cards of the seats other than the one deciding only fill the deal: the advice never
# reads them, it deals the unseen cards itself.
FILL = ["9H", "TS", "QS", "KD", "QD", "9S", "JS", "QH", "KC", "KS", "TH", "JC", "TC", "QC",
        "TD", "9D", "JH", "JD", "AH", "KH", "AS", "9C", "AC", "AD"]


def deal_for(seat: str, hand: list[str]) -> dict[str, list[str]]:
    rest = [c for c in FILL if c not in hand]
    seats = [s for s in "NESW" if s != seat]
    out = {seat: hand}
    for k, s in enumerate(seats):
        out[s] = rest[6 * k:6 * k + 6]
    return out


def position(seat: str, hand: list[str], dealer: str, calls: list[Bid]) -> HandState:
    state = HandState.from_hands(deal_for(seat, hand), dealer=dealer)
    for call in calls:
        state.apply(call)
    assert state.phase is Phase.AUCTION and str(state.to_act) == seat
    return state


def two_aces_behind_partners_four() -> HandState:
    """N deals; E passes, S (N's partner) bids 4, W passes: N holds two aces, little else."""
    return position("N", ["AC", "AD", "9H", "TS", "QD", "9C"], "N",
                    [Bid.PASS, Bid.FOUR, Bid.PASS])


def test_a_pass_is_worth_the_contract_it_leaves_standing() -> None:
    advice = advise_bid(two_aces_behind_partners_four(), 200)
    passed = advice.option("pass")
    # partner's 4 stands: the pass is worth it (points for NS on most deals), not 0
    assert passed.net is not None and passed.net.low > 0.5
    assert passed.net.samples == advice.samples == 200


def test_a_pass_leaving_partners_strong_contract_is_never_a_mistake() -> None:
    state = two_aces_behind_partners_four()
    for seed in (None, 1, 2):
        graded, advice = grade_choice(state, Bid.PASS, seed=seed)
        assert graded.grade not in BAD, (seed, str(graded), str(advice))


def test_after_three_passes_a_strong_hands_pass_is_a_mistake() -> None:
    # W deals: N, E, S pass; W holds both red bowers, the ace and king of hearts, an ace.
    state = position("W", ["JH", "JD", "AH", "KH", "AS", "9C"], "W",
                     [Bid.PASS, Bid.PASS, Bid.PASS])
    for seed in (None, 1):
        graded, advice = grade_choice(state, Bid.PASS, seed=seed)
        assert graded.grade in BAD, (seed, str(graded), str(advice))
        passed = advice.option("pass")
        assert passed.net is not None and passed.net.mean == 0.0  # thrown in: nothing


def test_junk_behind_an_opponents_bid_passes() -> None:
    # W deals: N (S's partner) passes, E bids 4; S holds nothing worth a trick.
    state = position("S", ["9H", "TS", "9S", "TD", "9D", "TC"], "W", [Bid.PASS, Bid.FOUR])
    for seed in (None, 3):
        graded, advice = grade_choice(state, Bid.PASS, seed=seed)
        assert advice.best.bid is Bid.PASS, str(advice)
        assert graded.grade is Grade.BEST
        overbid, _ = grade_choice(state, Bid.FIVE, seed=seed)
        assert overbid.grade in BAD, str(overbid)


def test_the_same_choice_graded_twice_gets_the_same_grade() -> None:
    first = grade_choice(two_aces_behind_partners_four(), Bid.FIVE)[0]
    # a take-back: the same position built again from its calls, and from the seat's view
    again = grade_choice(two_aces_behind_partners_four(), Bid.FIVE)[0]
    assert again == first
    view = view_of(two_aces_behind_partners_four())
    assert grade_choice(view, Bid.FIVE)[0] == first


def test_the_later_calls_follow_the_model_windows() -> None:
    rules = get_ruleset("standard")
    assert model_call(rules, 2.9, Bid.PASS) is Bid.PASS  # under the opening: pass
    assert model_call(rules, 3.2, Bid.PASS) is Bid.THREE
    assert model_call(rules, 4.5, Bid.FOUR) is Bid.PASS  # cannot top its own level
    assert model_call(rules, 5.1, Bid.FOUR) is Bid.FIVE
    assert model_call(rules, 7.5, Bid.SIX) is Bid.BIG_PEPPER
    stuck = get_ruleset("standard", all_pass="dealer_must_bid")
    assert model_call(stuck, 0.5, Bid.PASS, forced=True) is stuck.ladder[0]


def test_a_grade_is_only_as_severe_as_its_interval() -> None:
    assert grade_for_interval(0.0, 0.2) == (Grade.BEST, False)
    assert grade_for_interval(0.1, 0.5) == (Grade.GOOD, False)
    assert grade_for_interval(-0.4, 2.0) == (Grade.INACCURACY, True)  # too close to call
    assert grade_for_interval(0.8, 3.0) == (Grade.MISTAKE, False)  # by the near end
    assert grade_for_interval(1.6, 3.0) == (Grade.BLUNDER, False)


def test_labels_are_not_printed_over_a_handful_of_deals() -> None:
    graded, advice = grade_choice(two_aces_behind_partners_four(), Bid.SIX)
    assert advice.samples >= 200 and graded.samples >= 100


# ---- across seeds: no choice jumps from good to bad -------------------------------------------


def _decisions(count: int, seed: int) -> list[tuple[HandState, object]]:
    """Decisions from club self-play, each with a choice to grade: the player's own or, one
    time in two, another legal choice (so errors are graded too)."""
    rng = random.Random(seed)
    wanted = {"bid": count // 6, "declare": count // 12, "discard": count // 12,
              "send": count // 12, "defense": count // 8}
    wanted["play"] = count - sum(wanted.values())
    found: list[tuple[HandState, object]] = []
    have = dict.fromkeys(wanted, 0)
    hand = 0
    while any(have[k] < wanted[k] for k in wanted) and hand < 40 * count:
        hand += 1
        state = HandState.deal(get_ruleset("standard"), Seat(hand % 4), random.Random(
            seed * 10_007 + hand))
        players = [make_player("club", rng.randrange(1 << 30), samples=8) for _ in range(4)]
        while not state.is_terminal():
            seat = state.to_act
            assert seat is not None
            legal = state.legal_actions()
            action = players[int(seat)].decide(view_of(state, seat))
            kind = {Phase.AUCTION: "bid", Phase.DECLARE_TRUMP: "declare",
                    Phase.DECLARE_MODE: "declare", Phase.DISCARD: "discard",
                    Phase.SEND: "send", Phase.DEFENSE: "defense"}.get(state.phase, "play")
            if len(legal) > 1 and have[kind] < wanted[kind] and rng.random() < 0.5:
                choice = action if rng.random() < 0.5 else rng.choice(legal)
                found.append((state.copy(), choice))
                have[kind] += 1
            state.apply(action)
    return found


@pytest.mark.slow
def test_across_seeds_no_choice_jumps_between_good_and_bad() -> None:
    jumps = []
    decisions = _decisions(210, seed=5)
    assert len(decisions) >= 200
    for state, choice in decisions:
        one = grade_choice(state, choice, seed=1)[0]
        two = grade_choice(state, choice, seed=2)[0]
        if (one.grade in GOOD and two.grade in BAD) or (one.grade in BAD and two.grade in GOOD):
            jumps.append((state.phase, choice, str(one), str(two)))
    assert not jumps, jumps


def test_way_of_playing_is_valued_after_the_auction() -> None:
    # N bid 4 and named hearts with both bowers, ace, king: partner or alone, both valued.
    state = HandState.from_hands(deal_for("N", ["JH", "JD", "AH", "KH", "AS", "9C"]),
                                 dealer="W")
    for action in (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS, Trump.H):
        state.apply(action)
    advice = advise(state, 100)
    assert {o.mode for o in advice.options} == {Mode.PARTNER, Mode.EXCHANGE}
    assert all(o.loss is not None for o in advice.options)
    assert grade_decision(advice, advice.best.mode).grade is Grade.BEST


def test_the_calibration_smooths_measured_rows_towards_double_dummy() -> None:
    from pepper_tutor.analysis.calibration import PRIOR, fit, kind_of, smoothed

    records = [(kind_of(4, "partner"), 5, 4, 4)] * 6 + [(kind_of(4, "partner"), 5, 5, 4)] * 2
    table = fit(records)
    row = smoothed(table, "nt partner", 5)
    assert abs(sum(row) - 1.0) < 1e-12
    assert row[4] == 6 / (8 + PRIOR) and row[5] == (2 + PRIOR) / (8 + PRIOR)
    # a kind or a count never measured is taken as double-dummy
    assert smoothed(table, "trump exchange", 3)[3] == 1.0
    assert smoothed(table, "nt partner", 2)[2] == 1.0


def test_a_bids_own_row_decides_and_a_sparse_one_leans_on_the_bid_below() -> None:
    from pepper_tutor.analysis.calibration import PRIOR, SHRINK, fit, smoothed

    # 3s with six tricks double-dummy often end with four; 5s with six make
    records = ([("trump partner", 6, 4, 3)] * 40 + [("trump partner", 6, 6, 3)] * 10
               + [("trump partner", 6, 6, 5)] * 30 + [("trump partner", 6, 6, 4)] * 2)
    table = fit(records)
    pooled = smoothed(table, "trump partner", 6)
    five = smoothed(table, "trump partner", 6, 5)
    assert sum(pooled[5:]) < 0.6 < 0.9 < sum(five[5:])
    # the 4 was seen twice: its row leans on all contracts of the kind
    four = smoothed(table, "trump partner", 6, 4)
    assert four[6] == (2 + SHRINK * pooled[6]) / (2 + SHRINK)
    # a 6 never seen takes the 5's row as it is
    assert smoothed(table, "trump partner", 6, 6) == five
    assert pooled[6] == (42 + PRIOR) / (82 + PRIOR)
