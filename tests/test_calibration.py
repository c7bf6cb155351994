"""The calibration measured from strong play (issue 32, item 2): the table is the fit of the
expert's contracts recorded in tests/data, its make rates are those of play in every class
of contracts large enough to tell, and a choice between two ways of playing that
double-dummy play makes certain both ways is not turned by it."""

from __future__ import annotations

from pathlib import Path

import pytest

from pepper_tutor.analysis.advice import OptionAdvice, advise
from pepper_tutor.analysis.calibration import MADE, POOLED, TABLE, Record, fit, smoothed
from pepper_tutor.bench.calibration import ENOUGH, TARGET, Contract, classes
from pepper_tutor.engine.calls import Bid, Mode, Trump
from pepper_tutor.engine.state import HandState, Phase

RECORDS = Path(__file__).parent / "data" / "calibration-expert.jsonl"


def _contracts() -> list[Contract]:
    return [Contract.from_json(line) for line in RECORDS.read_text().splitlines() if line]


def test_the_shipped_table_is_the_fit_of_the_experts_contracts() -> None:
    contracts = _contracts()
    assert len(contracts) >= 2000
    assert fit(c.record for c in contracts) == TABLE
    # every contract knows the other way's double-dummy count, so the made rows are measured
    assert sum(c.other >= 0 for c in contracts) > 0.9 * len(contracts)


def test_predicted_make_rates_are_within_three_points_of_play_in_every_large_class() -> None:
    """Each contract predicted by the table fitted on the other half (by seed): the
    calibrated make rate against the make rate in play, per class of contract."""
    rows = classes(_contracts())
    large = [r for r in rows if r.contracts >= ENOUGH]
    assert len(large) >= 8, [r.name for r in large]
    assert {"all", "trump partner", "trump exchange", "nt partner"} <= {r.name for r in large}
    for r in large:
        assert abs(r.gap) <= TARGET, (r.name, r.contracts, r.played, r.advice)
    # double-dummy play flatters the bidders, which the calibration corrects
    everyone = rows[0]
    assert everyone.name == "all" and everyone.dd - everyone.played > 2 * TARGET / 3


def test_the_made_row_is_measured_on_contracts_made_both_ways_played_alone() -> None:
    """Partner contracts lost more often than exchange ones at the same count: each way
    keeps its own row, and the row the advice reads where both ways make (MADE) is measured
    on the contracts double-dummy play made both ways, played alone with the exchange."""
    records: list[Record] = (
        [("trump partner", 4, 3, 4, True)] * 30 + [("trump partner", 4, 4, 4, True)] * 10
        + [("trump exchange", 4, 4, 4, True)] * 40
        + [("trump exchange", 4, 3, 4, False)] * 20)  # not made with the partner
    table = fit(records)
    partner, exchange, made = (smoothed(table, f"trump {way}", 4, 4)
                               for way in (*POOLED, MADE))
    assert sum(partner[4:]) < sum(exchange[4:]) < sum(made[4:])
    alone = fit(r for r in records if r[0] == "trump exchange" and r[-1])
    assert made == pytest.approx(smoothed(alone, "trump exchange", 4, 4))
    # a count no contract made both ways had (below the bid) reads the exchange's row
    assert smoothed(table, f"trump {MADE}", 3, 4) == smoothed(table, "trump exchange", 3, 4)
    assert smoothed(table, f"nt {MADE}", 4, 4)[4] == 1.0  # never measured: double-dummy


def _mode_decision(deal: dict[str, str], bid: Bid, trump: Trump) -> HandState:
    """North opens ``bid`` over the dealer West, the others pass, and names ``trump``."""
    state = HandState.from_hands({s: h.split() for s, h in deal.items()}, dealer="W")
    for call in (bid, Bid.PASS, Bid.PASS, Bid.PASS):
        state.apply(call)
    state.apply(trump)
    assert state.phase is Phase.DECLARE_MODE
    return state


# North's contracts that double-dummy play makes on every deal South's and the defenders'
# hands are drawn for, with the partner and alone with the exchange alike (constructed from
# random deals, checked below): in the first two double-dummy play puts the partner a little
# ahead, in the last two the exchange.
CERTAIN = [
    ({"N": "KD 9H JH KH AH KS", "E": "9C JC 9D AD TH QH", "S": "TC QC 9S TS JS AS",
      "W": "KC AC TD JD QD QS"}, Bid.THREE, Trump.H),
    ({"N": "KD KH 9S JS KS AS", "E": "AD 9H TH AH TS QS", "S": "9C TC QC AC JD JH",
      "W": "JC KC 9D TD QD QH"}, Bid.THREE, Trump.S),
    ({"N": "JD KD JH QH AH AS", "E": "JC QC QD 9H 9S QS", "S": "KC AD TH TS JS KS",
      "W": "9C TC AC 9D TD KH"}, Bid.FOUR, Trump.H),
    ({"N": "AD KH 9S TS JS KS", "E": "JC TD QD 9H JH AH", "S": "9C TC AC 9D TH QH",
      "W": "QC KC JD KD QS AS"}, Bid.THREE, Trump.S),
]
TURN = 0.3  # points: below this a choice is graded Good at worst (analysis.grading)


@pytest.mark.slow
@pytest.mark.parametrize("deal, bid, trump", CERTAIN)
@pytest.mark.parametrize("seed", [0, 1])
def test_a_choice_double_dummy_makes_certain_both_ways_is_not_turned(
        deal: dict[str, str], bid: Bid, trump: Trump, seed: int) -> None:
    state = _mode_decision(deal, bid, trump)
    plain = {o.mode: o for o in advise(state, samples=120, seed=seed, drop_worse=False,
                                       calibrated=False).options}
    assert all(o.makes == 1.0 for o in plain.values())  # certain both ways
    calibrated = {o.mode: o for o in advise(state, samples=120, seed=seed,
                                            drop_worse=False).options}

    def lead(by: dict[Mode | None, OptionAdvice]) -> float:
        net = {m: o.net.mean for m, o in by.items() if o.net is not None}
        return net[Mode.EXCHANGE] - net[Mode.PARTNER]

    dd, cal = lead(plain), lead(calibrated)
    # the calibration may narrow or widen double-dummy's lead, but never hands the other
    # way a lead of TURN or more (the club players' table once gave the exchange 2.2)
    assert cal * dd >= 0 or abs(cal) < TURN, (dd, cal)
    assert abs(cal - dd) < 1.0, (dd, cal)
