"""Two choices played out to the end by players who cannot see the cards: the valuation the
puzzle miner checks its answers by, since the advice's double-dummy figures can be wrong
exactly where it looks."""

from __future__ import annotations

import pytest

from pepper_tutor.analysis.playing_out import LADDER, PlayedOut, ladder_player, play_out
from pepper_tutor.engine.calls import Mode
from pepper_tutor.teaching.puzzles.puzzle import position_of

# North bid 5 over West's 4 and named spades, holding the right bower, the king and queen of
# spades and the ace of diamonds; East holds the left bower and the ace of spades, South
# (partner) two low spades and nothing else. Double-dummy play with partner makes the 5 more
# often than the exchange does (the shipped bank once taught "with partner" here); played
# out by players who cannot see the cards, the exchange scores more, and by every level.
BID_FIVE_IN_SPADES = {
    "format": "pepper-hand/1", "rules": "standard", "dealer": "S",
    "deal": {"N": ["9C", "TD", "AD", "JS", "QS", "KS"], "E": ["JC", "KC", "JD", "KD", "JH", "AS"],
             "S": ["TC", "9D", "TH", "QH", "9S", "TS"], "W": ["QC", "AC", "QD", "9H", "KH", "AH"]},
    "auction": [4, 5, "pass", "pass"], "trump": "S"}


def test_the_same_name_plays_the_same_deals_and_deal_zero_is_the_position_s_own() -> None:
    state = position_of(BID_FIVE_IN_SPADES)
    once = play_out(state, Mode.PARTNER, Mode.EXCHANGE, 3, "same", "reference")
    assert once == play_out(state, Mode.PARTNER, Mode.EXCHANGE, 3, "same", "reference")
    other = play_out(state, Mode.PARTNER, Mode.EXCHANGE, 3, "other", "reference")
    assert other.diffs[0] == once.diffs[0]
    assert all(d == int(d) for d in once.diffs)  # whole points of one hand


@pytest.mark.parametrize("name", ["first", "second"])
def test_with_partner_loses_to_the_exchange_when_players_who_cannot_see_play_it(name: str
                                                                                ) -> None:
    state = position_of(BID_FIVE_IN_SPADES)
    for level in ("reference", "expert"):
        played = play_out(state, Mode.PARTNER, Mode.EXCHANGE, 32, name, level)
        assert played.mean < 0, (level, played.mean, played.half_width)


def test_an_interval_below_zero_is_a_contradiction_a_tie_is_not() -> None:
    assert PlayedOut((-5.0, -6.0, -4.0)).contradicted
    assert not PlayedOut((0.0, 0.0, 0.0)).contradicted
    assert not PlayedOut((-5.0, 6.0, -4.0)).contradicted  # below zero on average, not clearly


def test_every_level_of_the_ladder_can_sit_and_no_other() -> None:
    assert [type(ladder_player(level, 1)).__name__ for level in LADDER]
    with pytest.raises(ValueError, match="level must be one of"):
        play_out(position_of(BID_FIVE_IN_SPADES), Mode.PARTNER, Mode.EXCHANGE, 1, "x", "pro")
