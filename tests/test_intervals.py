"""Honest intervals: what is picked on the deals (the best option, a bid's trump and way of
playing) is allowed for in the loss's interval, and two seeds' intervals for the same choice
hold together (issue 32, item 4)."""

from __future__ import annotations

import math
import random

import pytest

from pepper_tutor.analysis.advice.tally import (
    TalliedOption,
    Tally,
    in_the_race,
    loss_of_choice,
)


def _tally(columns: list[list[int]]) -> Tally:
    """A tally of one row per deal, ``columns[k][deal]`` the outcome of column ``k``."""
    tally = Tally(len(columns))
    for row in zip(*columns, strict=True):
        tally.add(row)
    return tally


def _options(width: int) -> list[TalliedOption]:
    return [TalliedOption(k, float) for k in range(width)]


def _loss(tally: Tally, options: list[TalliedOption], mine: list[TalliedOption]
          ) -> tuple[float, float, float]:
    found = loss_of_choice(tally, mine, in_the_race(tally, options))
    assert found is not None
    return found.mean, found.low, found.high


def test_options_worth_the_same_on_every_deal_lose_nothing() -> None:
    rng = random.Random(1)
    same = [rng.randrange(7) for _ in range(200)]
    tally = _tally([same, same])
    options = _options(2)
    assert _loss(tally, options, [options[0]]) == (0.0, 0.0, 0.0)
    assert _loss(tally, options, [options[1]]) == (0.0, 0.0, 0.0)


def test_a_choice_worse_on_every_deal_by_the_same_loses_exactly_that() -> None:
    rng = random.Random(2)
    good = [rng.randrange(1, 7) for _ in range(200)]
    tally = _tally([good, [g - 1 for g in good]])
    options = _options(2)
    assert _loss(tally, options, [options[1]]) == (1.0, 1.0, 1.0)
    assert _loss(tally, options, [options[0]]) == (0.0, 0.0, 0.0)


def _equal_options(seed: int, width: int = 12, deals: int = 200) -> Tally:
    """``width`` options alike in truth: each deal's worth plus noise of its own."""
    rng = random.Random(seed)
    base = [rng.randrange(2, 5) for _ in range(deals)]
    return _tally([[b + rng.choice((-1, 0, 0, 1)) for b in base] for _ in range(width)])


def test_among_options_alike_the_best_is_not_flattered_and_few_are_shown_worse() -> None:
    """Twelve options worth the same, over 20 seeds: the one the deals put first is an exact
    0 only by its own luck, so its interval reaches past 0; and an option is shown to lose
    (its near end above 0) about as rarely as a 95% interval allows, where paired against
    the deals' best alone (the best picked on the same deals) one in six was."""
    flagged_before = flagged = compared = 0
    for seed in range(20):
        tally = _equal_options(seed)
        options = _options(12)
        best = max(options, key=lambda o: o.mean(tally))
        mean, low, high = _loss(tally, options, [best])
        assert mean == 0.0 and low == 0.0 and high > 0.0
        for o in options:
            if o is best:
                continue
            compared += 1
            flagged += _loss(tally, options, [o])[1] > 0
            found = tally.paired(best, o)
            assert found is not None
            flagged_before += found[0].low > 0  # the old figure
    assert (compared, flagged, flagged_before) == (220, 10, 36)
    assert flagged <= 0.05 * compared < flagged_before


def test_a_bid_played_its_best_way_is_not_flattered_by_the_pick() -> None:
    """A bid in ten trumps and ways, each alike and worse than a pass by one trick's worth:
    the bid's loss is its best way's, picked on the deals, and its interval holds the truth
    (1) for every seed, where the best way's own paired figure (the pick valued on the
    deals it was picked on) often misses it."""
    missed_before = 0
    for seed in range(20):
        rng = random.Random(seed)
        base = [rng.randrange(2, 6) for _ in range(200)]
        ways = [[b - 1 + rng.choice((-1, 0, 0, 1)) for b in base] for _ in range(10)]
        tally = _tally([base, *ways])
        options = _options(11)
        _, low, high = _loss(tally, options, options[1:])
        assert low <= 1.0 <= high, (seed, low, high)
        pick = max(options[1:], key=lambda o: o.mean(tally))
        found = tally.paired(options[0], pick)
        assert found is not None
        missed_before += not found[0].low <= 1.0 <= found[0].high
    assert missed_before > 0


@pytest.mark.slow
def test_two_seeds_intervals_overlap_and_no_grade_moves_between_good_and_bad() -> None:
    """Decisions of every kind from random hands (a fixed seed), graded as the coach grades
    them over two independent seeds' deals: every action's two intervals overlap in at
    least 95% of the actions of each kind, and none moves between Best or Good and Mistake
    or Blunder (``python -m pepper_tutor.bench intervals`` measures it over 200 of each).
    Before the allowance for the pick, naming trumps held 93% with one grade moving."""
    from pepper_tutor.bench.intervals import KINDS, TARGET, compare, positions, summary

    for kind in KINDS:
        rows = []
        for i, state in enumerate(positions(kind, 15, seed=3)):
            rows += compare(kind, i, state, (1, 2), 200)
        found = summary(rows)
        assert found["overlap"] >= TARGET, (kind, found)
        assert found["flips"] == 0, (kind, found)


def test_a_drop_is_tested_over_all_its_looks_not_at_95_each_time() -> None:
    """Bid advice stops solving an option shown worse than the best, looking every ten
    deals; the test is repeated at each look, so it is made at the point that shares 95%
    over them. A difference that is clear at 95% once is not yet clear at that point."""
    from pepper_tutor.analysis.advice.solving import DROP_Z
    from pepper_tutor.analysis.advice.tally import _shown_worse

    assert DROP_Z > 3.0
    # Thirty deals where option 1 is a point and a half worse on average, with some spread.
    rng = random.Random(5)
    best = [rng.choice((2, 3, 4, 5, 6)) for _ in range(30)]
    other = [max(0, b - rng.choice((0, 1, 2, 3))) for b in best]
    tally = _tally([best, other])
    a, b = _options(2)
    mean, low, _, _ = tally.difference(a, b)
    assert mean > 1.0 and low > 0  # clear at 95%, once
    half = mean - low
    expected = mean - half * DROP_Z / 1.959963984540054 > 0
    assert _shown_worse(tally, a, b)
    assert _shown_worse(tally, a, b, DROP_Z) is expected
    # Worse on every deal by two: clear at any point.
    assert _shown_worse(_tally([[4] * 30, [2] * 30]), a, b, DROP_Z)


DROPPED_EARLY = """\
format: pepper-hand/1
rules: standard
dealer: E
deal:
  N: [QC, 9D, AD, 9H, KH, KS]
  E: [KC, AC, JD, KD, AH, JS]
  S: [TC, TD, TH, 9S, TS, AS]
  W: [9C, JC, QD, JH, QH, QS]
auction: [3, pass, pass, 4]
"""


@pytest.mark.slow
def test_two_seeds_name_the_same_best_trump_where_an_early_drop_split_them() -> None:
    """East names trumps for a 4 (found by ``bench intervals``): diamonds alone is worth
    about 4.4 points over either seed's 200 deals, no trump about 2.5. Tested at 95% from
    the tenth deal, one seed dropped diamonds after ten unlucky deals and graded no trump
    Best, the other graded it a Mistake."""
    from pepper_tutor.analysis.advice import advise
    from pepper_tutor.engine.calls import Mode, Trump
    from pepper_tutor.records.hand_record import parse_record, record_to_state

    state = record_to_state(parse_record(DROPPED_EARLY))
    for seed in (1, 2):
        best = advise(state, samples=200, seed=seed).best
        assert (best.trump, best.mode) == (Trump.D, Mode.EXCHANGE), seed


RED_TWINS = """\
format: pepper-hand/1
rules: standard
dealer: W
deal:
  N: [9C, QC, QD, TS, QS, AS]
  E: [9D, 9H, QH, KH, JS, KS]
  S: [TC, KC, JD, AD, JH, AH]
  W: [JC, AC, TD, KD, TH, 9S]
auction: [3, pass, 4, pass]
"""


@pytest.mark.slow
def test_hearts_and_diamonds_are_worth_the_same_where_the_hand_cannot_tell_them_apart() -> None:
    """South names trumps for a 4 holding both red jacks, both red aces and the K♣ 10♣:
    swap hearts and diamonds and the hand, the calls and every other seat's chances are the
    same, so any model values the two alike. Where double-dummy play makes a bid with the
    partner and alone alike, one calibration row reads both ways; decided for the whole
    option by whether every deal made it both ways, one deal in two hundred moved a trump
    by a point and a half, and two seeds graded hearts Best and a Mistake (found by
    ``bench intervals``). Read in proportion to the share of such deals, the twins stay
    together."""
    from pepper_tutor.analysis.advice import advise
    from pepper_tutor.engine.calls import Mode, Trump
    from pepper_tutor.records.hand_record import parse_record, record_to_state

    state = record_to_state(parse_record(RED_TWINS))
    for seed in (1, 2, 4):
        advice = advise(state, samples=200, seed=seed)
        hearts, diamonds = (next(o for o in advice.options
                                 if o.trump is t and o.mode is Mode.EXCHANGE)
                            for t in (Trump.H, Trump.D))
        assert hearts.net is not None and diamonds.net is not None
        assert abs(hearts.net.mean - diamonds.net.mean) < 0.5, (seed, hearts, diamonds)


def test_the_pooled_rows_weight_is_as_unsure_as_the_share_it_is_read_from() -> None:
    """A bid read partly by the pooled row (made both ways on 90% to all of its deals) is
    valued by a weight read from the very deals it is valued on: another seed's deals read
    another weight. The weight's standard error is none where the share is nowhere near the
    ramp, some even where every deal made it both ways (the next deals may not), most on
    the ramp, and less over more deals."""
    from pepper_tutor.analysis.advice.calls import _pooled_weight, _weight_spread

    assert _weight_spread(0.5, 200) == 0.0
    assert _weight_spread(0.8, 200) == 0.0
    at_all = _weight_spread(1.0, 200)
    on_ramp = _weight_spread(0.95, 200)
    assert 0.0 < at_all < on_ramp
    assert _weight_spread(0.95, 800) < on_ramp
    # about 1.5 points in a hundred of seed-to-seed spread in the share, as measured
    assert on_ramp == pytest.approx(math.sqrt(0.95 * 0.05 / 200) / 0.1, rel=0.25)
    assert _pooled_weight(0.95) == pytest.approx(0.5)


def test_a_spread_beyond_the_deals_widens_every_paired_difference_but_moves_no_mean() -> None:
    tally = _tally([[3, 4, 5, 4, 3, 5, 4, 4], [4, 4, 4, 3, 3, 4, 5, 4]])
    plain = [TalliedOption(0, float), TalliedOption(1, float)]
    unsure = [TalliedOption(0, float, 0.3), TalliedOption(1, float)]
    found, found_unsure = tally.paired(*plain), tally.paired(*unsure)
    assert found is not None and found_unsure is not None
    assert found_unsure[0].mean == found[0].mean
    assert found_unsure[0].half_width == pytest.approx(
        math.hypot(found[0].half_width, 1.959963984540054 * 0.3))
    assert _loss(tally, unsure, [unsure[1]])[2] > _loss(tally, plain, [plain[1]])[2]
