"""The tournament bench: duplicate matches, the paired rates beside the analysis, the make
rates by class of contract, and what it prints."""

from __future__ import annotations

import pytest

from pepper_tutor import Bid, HandState, Mode, Phase, Trump
from pepper_tutor.bench import tournament
from pepper_tutor.bench.tournament import _Stats, contract_class, duplicate, paired_rates


def test_a_contract_is_classed_by_trump_way_and_pepper():
    state = HandState.deal("standard", "W", 1)
    assert contract_class(state) is None  # no bid yet
    state.apply(Bid.FOUR)
    while state.phase is Phase.AUCTION:
        state.apply(Bid.PASS)
    state.apply(Trump.NT)
    state.apply(Mode.EXCHANGE)
    assert contract_class(state) == "no trump, alone"


def test_a_short_match_counts_every_level_decision_and_pairs_the_rates():
    stats = {level: _Stats() for level in ("beginner", "club", "expert")}
    pairing = duplicate("club", "beginner", 2, 3, stats)
    assert pairing.low <= pairing.mean <= pairing.high
    beginner = stats["beginner"]
    assert beginner.times and beginner.decisions
    rates = paired_rates(beginner.decisions, 2, 4, 1)
    assert [r.kind for r in rates] == list(tournament._KINDS)
    for r in rates:
        assert 0 <= r.level <= r.decisions <= 2 and 0 <= r.analysis <= r.decisions
    played = sum(s.contracts for s in stats.values())
    assert played >= 1 and all(sum(s.made.values()) <= sum(s.played.values())
                               for s in stats.values())


def test_the_printout_names_each_table(capsys):
    tournament.main(["--deals", "1", "--pairs", "club:beginner", "--analysis-decisions", "1",
                     "--samples", "4"])
    out = capsys.readouterr().out
    for words in ("points per hand", "the analysis's best", "surrenders holding a bower",
                  "by class of contract", "p95", "(the default level)"):
        assert words in out, words


def _figures(found: tournament.Tournament) -> tuple:
    """Everything a tournament prints but the times."""
    pairings = [(p.first, p.second, p.deals, p.mean, p.low, p.high) for p, _s in found.pairings]
    levels = {
        level: (s.contracts, s.alone, s.surrendered, dict(s.played), dict(s.made),
                s.bower_surrenders, s.thin_peppers, len(s.times),
                [(v.seat, v.phase, a) for v, a in s.decisions])
        for level, s in found.stats.items()}
    return pairings, levels, found.rates


def _tiny(executor: str | None) -> tuple:
    return _figures(tournament.tournament([("club", "beginner")], 3, 5, per_kind=2, samples=4,
                                          executor=executor))


def test_a_tiny_tournament_is_the_same_in_this_process_and_on_the_default_executor():
    here = _tiny(None)
    assert here == _tiny(tournament.DEFAULT_EXECUTOR)
    assert here[0][0][2] == 3 and any(r.decisions for r in here[2]["beginner"])


@pytest.mark.slow
def test_a_tiny_tournament_is_the_same_on_a_dask_local_cluster():
    pytest.importorskip("distributed")
    assert _tiny("dask-local:2") == _tiny(tournament.DEFAULT_EXECUTOR)


def test_the_command_refuses_an_executor_it_cannot_name(capsys):
    with pytest.raises(SystemExit):
        tournament.main(["--deals", "1", "--executor", "ray"])
    assert "--executor ray" in capsys.readouterr().err
