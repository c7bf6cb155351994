"""The expert never bids over its own partner's standing bid unless the bid is clearly worth
more than the pass, which leaves partner's contract to be played: a hand a little better
than partner needs passes; a hand far stronger than partner's bid (both bowers and trump
length behind a 3) may raise."""

from __future__ import annotations

import pytest

from pepper_tutor.analysis.advice import advise_bid
from pepper_tutor.analysis.players import CLEARLY, make_player, over_partner_gain
from pepper_tutor.analysis.view import view_of
from pepper_tutor.engine.calls import Bid
from pepper_tutor.engine.cards import DECK
from pepper_tutor.engine.state import HandState

SEEDS = range(6)  # the expert's own dice: each draws its own sampled deals


def _behind_partners_three(north: str) -> HandState:
    """East deals, South bids 3, West passes: North, holding ``north``, is to call with
    partner's 3 standing. The other hands are any cards left (North sees only its own)."""
    mine = north.split()
    rest = [str(c) for c in DECK if str(c) not in mine]
    state = HandState.from_hands({"N": mine, "E": rest[:6], "S": rest[6:12], "W": rest[12:18]},
                                 "standard", "E")
    state.apply(Bid.THREE)
    state.apply(Bid.PASS)
    assert view_of(state).bidder == view_of(state).partner
    return state


# Hands a little better than partner's 3 needs: the analysis's best call is a 4, but by less
# than a clear margin over the pass once the two are read over the same deals (two aces; the
# right bower with the king and nine of spades beside three side honours: the same hand with
# the A♠ for the 9♠ is clearly better since the analysis reads partner's 3 as it is bid).
LITTLE_BETTER = ["TC AC 9D TD AD KS", "KC AC 9D AD 9H QS", "QC QD KH JS KS 9S"]


@pytest.mark.parametrize("hand", LITTLE_BETTER)
def test_a_hand_a_little_better_passes_partners_bid(hand):
    state = _behind_partners_three(hand)
    advice = advise_bid(state)
    gain = over_partner_gain(advice, advice.best, advice.option("pass"))
    assert advice.best.bid is not Bid.PASS and gain.mean > 0  # a little better, by the figures
    assert gain.low < CLEARLY  # not clearly
    calls = [make_player("expert", s).decide(view_of(state)) for s in SEEDS]
    assert calls == [Bid.PASS] * len(SEEDS)


# Hands clearly much better: both bowers and trump length (a pepper), and the right bower
# with three more hearts, whose 4 alone beats the pass by well over a point at the near end.
# With the last the expert used to leave partner's 3 in 2 of these 6 seeds: its own 40 deals
# read the gain over the pass as unclear, and it passed without looking again.
CLEARLY_BETTER = ["JS JC AS KS QS AH", "JS JC AS KS 9D 9H", "JC QD TH JH QH AH"]


@pytest.mark.parametrize("hand", CLEARLY_BETTER)
def test_a_hand_clearly_much_better_raises_partners_bid(hand):
    state = _behind_partners_three(hand)
    advice = advise_bid(state)
    assert over_partner_gain(advice, advice.best, advice.option("pass")).low >= CLEARLY
    calls = [make_player("expert", s).decide(view_of(state)) for s in SEEDS]
    assert all(isinstance(c, Bid) and c > Bid.THREE for c in calls), calls


def test_the_gain_over_the_pass_is_paired_for_the_best_and_errs_wide_for_another():
    state = _behind_partners_three("KC AC KD 9H JS AS")
    advice = advise_bid(state, samples=60, seed=1)
    passing = advice.option("pass")
    paired = over_partner_gain(advice, advice.best, passing)
    assert paired == passing.paired  # the figure without the pick allowance (issue 32, 4)
    other = next(o for o in advice.options if o.label not in (advice.best.label, "pass"))
    wide = over_partner_gain(advice, other, passing)
    x, y = other.net or other.score, passing.net or passing.score
    assert wide.mean == pytest.approx(x.mean - y.mean)
    assert wide.high - wide.low > max(x.high - x.low, y.high - y.low)
