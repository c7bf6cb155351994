"""Grading a call reads one advice a decision, every option solved on every deal; given a
first advice that dropped options, it reads back what that one solved (``advice.SolvedDeals``):
the same grade and advice as solving everything afresh, with no position solved twice."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable

import pytest

from pepper_tutor.analysis.advice import Advice, SolvedDeals, advise, advise_bid
from pepper_tutor.analysis.advice import auction as advice_module
from pepper_tutor.analysis.grading import grade_choice, grade_decision
from pepper_tutor.analysis.position import Position
from pepper_tutor.engine.calls import Bid
from pepper_tutor.engine.state import HandState

from .test_coach_grading import _auction

SAMPLES = 40  # enough for bid advice to drop options (it looks from the 10th deal)




def _full(state: HandState, seed: int | None) -> Advice:
    """The decision's one advice: every trump and way of playing solved on every deal."""
    return advise_bid(state, SAMPLES, seed, drop_worse=False)


def _dropped(advice: Advice, action: object) -> bool:
    option = advice.choice(action)
    return option is not None and 0 < option.score.samples < advice.samples


@pytest.mark.parametrize("seed, calls", [(21, 0), (24, 2), (26, 0), (27, 2), (29, 2)])
def test_every_call_is_graded_on_the_one_advice_of_its_decision(seed, calls):
    state = _auction(seed, calls)
    for grading_seed in (None, 7):
        full = _full(state, grading_seed)
        solved = SolvedDeals()
        first = advise(state, samples=SAMPLES, seed=grading_seed, solved=solved)
        actions = state.legal_actions()
        assert any(_dropped(first, a) for a in actions)  # a pruned first advice is filled in
        for action in actions:
            expected = (grade_decision(full, action), full)
            assert grade_choice(state, action, SAMPLES, grading_seed) == expected
            assert grade_choice(state, action, SAMPLES, grading_seed, solved, first) == \
                expected


class _Counted:
    """Every position the bid advice solves, counted, through the two solving seams."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.solved: Counter[tuple[Position, Hashable]] = Counter()
        # the advice module's own solving function (no hand's private attribute)
        tricks, sweeps = vars(advice_module)["_tricks"], advice_module.takes_at_least

        def counted_tricks(pos: Position, tables: object, name: Hashable) -> int:
            self.solved[pos, name] += 1
            return tricks(pos, tables, name)  # type: ignore[arg-type]

        def counted_sweeps(pos: Position, n: int, table: object) -> bool:
            self.solved[pos, ("sweep", n)] += 1
            return sweeps(pos, n, table)  # type: ignore[arg-type]

        monkeypatch.setattr(advice_module, "_tricks", counted_tricks)
        monkeypatch.setattr(advice_module, "takes_at_least", counted_sweeps)


def _a_bid_dropped_early() -> tuple[HandState, object]:
    """The first auction, after two of the club player's calls, where the advice's first pass
    stops solving a bid before its last deal (the club's calls decide where that is)."""
    for seed in range(20, 80):
        state = _auction(seed, 2)
        first = advise(state, samples=SAMPLES)
        dropped = [a for a in state.legal_actions() if isinstance(a, Bid) and _dropped(first, a)]
        if dropped:
            return state, dropped[-1]
    pytest.fail("no auction of seeds 20-79 where the advice drops a bid early")


def test_filling_in_a_pruned_advice_solves_only_what_it_did_not(monkeypatch):
    state, action = _a_bid_dropped_early()
    counted = _Counted(monkeypatch)
    _full(state, None)
    everything = Counter(counted.solved)  # what the one advice needs
    counted.solved.clear()
    solved = SolvedDeals()
    first = advise(state, samples=SAMPLES, solved=solved)
    assert _dropped(first, action)
    grade_choice(state, action, SAMPLES, solved=solved, advice=first)
    both = counted.solved
    assert all(n == 1 for n in both.values())  # no position solved twice
    assert set(both) == set(everything)  # and each one the full advice needs


def test_the_deals_a_pool_solves_are_kept_and_read_back_there():
    state = _auction(24, 2)
    here, pooled = SolvedDeals(), SolvedDeals()
    alone = advise_bid(state, 16, seed=3, drop_worse=False, solved=here)
    assert advise_bid(state, 16, seed=3, workers=2, drop_worse=False, solved=pooled) == alone
    assert pooled.found == here.found and len(here.found) == 16
    # The workers read the values handed to them: wrong ones change the report.
    for found in pooled.found.values():
        for name in found:
            found[name] = 0
    assert advise_bid(state, 16, seed=3, workers=2, drop_worse=False, solved=pooled) != alone
