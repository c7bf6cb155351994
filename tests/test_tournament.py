"""The tournament bench: duplicate matches, the paired rates beside the analysis, the make
rates by class of contract, and what it prints."""

from __future__ import annotations

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
