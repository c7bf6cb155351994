"""Benchmarks of the analysis: the double-dummy solver and sampled advice.

Register these in the benchmark script (``python -m pepper_tutor.bench.timing``); each takes the
time budget in seconds and returns one line. Figures are for one process unless a line says
otherwise.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from ..analysis.solver import Position, TranspositionTable, solve, solve_state
from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.seats import Seat
from ..engine.state import HandState
from .timing import median_ms

__all__ = ["bench_solve", "bench_grade", "bench_advice", "benches"]


def _deals(count: int, seed: int, out: int | None = None) -> list[Position]:
    """Random full deals, the bidding side NS, N on lead, trumps and no trump in turn."""
    rng = random.Random(seed)
    positions = []
    for i in range(count):
        deck = list(range(24))
        rng.shuffle(deck)
        hands = tuple(() if s == out else tuple(sorted(deck[6 * s:6 * s + 6]))
                      for s in range(4))
        positions.append(Position(hands, (), 0, i % 5, frozenset({0, 2}), 4, out))
    return positions


def _median_over(positions: list[Position], card_values: bool) -> float:
    it = iter(positions)
    return median_ms(lambda: solve(next(it), card_values=card_values), len(positions))


def bench_solve(seconds: float) -> str:
    """Median time to solve a random full deal from the opening lead (fresh table each)."""
    count = max(50, min(400, int(seconds * 100)))
    four = _deals(count, 1)
    three = _deals(count, 2, out=2)  # an exchange hand: the partner sits out
    return (f"double-dummy solve of a full deal from the opening lead, {count} random deals: "
            f"4 hands median {_median_over(four, True):.2f} ms with every card's value "
            f"({_median_over(four, False):.2f} ms the value only); 3 hands "
            f"{_median_over(three, True):.2f} ms ({_median_over(three, False):.2f} ms)")


def _random_hand(seed: int) -> list[HandState]:
    """Every play position of a random hand (4-handed or exchange, by turns)."""
    rng = random.Random(seed)
    state = HandState.deal("standard", Seat.W, rng)
    mode = (Mode.PARTNER, Mode.EXCHANGE)[seed % 2]
    for action in (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS, Trump(seed % 5), mode):
        state.apply(action)
    if mode is Mode.EXCHANGE:
        state.apply(rng.choice(state.legal_actions()))
        state.apply(rng.choice(state.legal_actions()))
    state.apply(Defense.PLAY)
    positions = []
    while not state.is_terminal():
        positions.append(state.copy())
        state.apply(rng.choice(state.legal_actions()))
    return positions


def bench_grade(seconds: float) -> str:
    """The solver's share of grading a hand record: every card's value at every position of
    a hand, one table shared through the hand (what the annotator's ``--analyse`` needs)."""
    count = max(20, min(200, int(seconds * 40)))
    hands = [_random_hand(seed) for seed in range(count)]
    times = []
    for positions in hands:
        start = time.perf_counter()
        table = TranspositionTable()
        for state in positions:
            solve_state(state, table=table)
        times.append((time.perf_counter() - start) * 1000)
    return (f"solve every position of a hand with card values (grading), {count} random "
            f"hands: median {statistics.median(times):.1f} ms, worst {max(times):.1f} ms")


def bench_advice(seconds: float) -> str:
    """Seconds for bid advice over 200 sampled deals (5 trumps x partner / exchange / big
    pepper), in one process and in two."""
    from ..analysis.advice import advise_bid

    runs = max(1, min(5, int(seconds / 1.5)))
    lines = []
    for workers in (1, 2):
        times = []
        for seed in range(runs):
            state = HandState.deal("standard", Seat.W, random.Random(100 + seed))
            start = time.perf_counter()
            advise_bid(state, 200, seed=seed, workers=workers)
            times.append(time.perf_counter() - start)
        lines.append(f"{statistics.median(times):.2f} s with {workers} process"
                     f"{'es' if workers > 1 else ''}")
    return (f"bid advice over 200 samples, median of {runs} hand{'s' if runs > 1 else ''}: "
            + "; ".join(lines))


def benches() -> list[Callable[[float], str]]:
    return [bench_solve, bench_grade, bench_advice]


if __name__ == "__main__":
    for bench in benches():
        print(bench(2.0), flush=True)
