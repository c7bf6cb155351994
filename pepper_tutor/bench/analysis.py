"""Benchmarks of the analysis: the double-dummy solver and sampled advice.

Register these in the benchmark script (``python -m pepper_tutor.bench.timing``); each takes the
time budget in seconds and returns one line. Figures are for one process unless a line says
otherwise.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext

from ..analysis.solver import Position, TranspositionTable, solve, solve_state
from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.seats import Seat
from ..engine.state import HandState
from .timing import median_ms

__all__ = ["bench_solve", "bench_grade", "bench_advice", "bench_players", "bench_advice_memory",
           "bench_grade_choice", "benches"]


@contextmanager
def _pure_search() -> Iterator[None]:
    """Run the solver on the pure-Python search for a while, to set it beside the compiled
    build in one process (the solver picks its search once, at import)."""
    from ..analysis import search, solver

    chosen = solver._SearchRoot
    solver._SearchRoot = search._Root
    try:
        yield
    finally:
        solver._SearchRoot = chosen


def _search_name() -> str:
    from ..analysis.native import is_compiled

    return "compiled search" if is_compiled() else "pure-Python search (not compiled here)"


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
    from ..analysis.native import is_compiled

    pure = ""
    if is_compiled():
        with _pure_search():
            pure = (f"; the pure-Python search: 4 hands {_median_over(four, True):.2f} ms "
                    f"({_median_over(four, False):.2f} ms)")
    return (f"double-dummy solve of a full deal from the opening lead, {count} random deals, "
            f"{_search_name()}: 4 hands median {_median_over(four, True):.2f} ms with every "
            f"card's value ({_median_over(four, False):.2f} ms the value only); 3 hands "
            f"{_median_over(three, True):.2f} ms ({_median_over(three, False):.2f} ms){pure}")


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
    pepper), four ways paired on the same hands, their order rotated from hand to hand:
    every deal solved for every option; every deal solved for the options still in the race
    (the default: an option is dropped once shown worse than the best at 95%); stopping
    once the best option is clear (``until_clear``); and the default on the pure-Python
    search, where the compiled one is built. Then every option in two processes (dropping
    works in one process only)."""
    from ..analysis.advice import advise_bid
    from ..analysis.native import is_compiled

    runs = max(2, min(6, int(seconds / 1.5)))
    # (name, drop_worse, until_clear, pure)
    ways = [("every option", False, False, False), ("default", True, False, False),
            ("until clear", True, True, False)]
    if is_compiled():
        ways.append(("default, pure", True, False, True))
    times: dict[str, list[float]] = {name: [] for name, _, _, _ in ways}
    two: list[float] = []
    for seed in range(runs):
        state = HandState.deal("standard", Seat.W, random.Random(100 + seed))
        k = seed % len(ways)
        for name, drop_worse, until_clear, pure in ways[k:] + ways[:k]:
            with _pure_search() if pure else nullcontext():
                start = time.perf_counter()
                advise_bid(state, 200, seed=seed, drop_worse=drop_worse,
                           until_clear=until_clear)
                times[name].append(time.perf_counter() - start)
    for seed in range(max(1, runs // 2)):
        state = HandState.deal("standard", Seat.W, random.Random(100 + seed))
        start = time.perf_counter()
        advise_bid(state, 200, seed=seed, workers=2, drop_worse=False)
        two.append(time.perf_counter() - start)

    def fmt(values: list[float]) -> str:
        return (f"median {statistics.median(values):.2f} s "
                f"({min(values):.2f}-{max(values):.2f})")

    on_pure = (f"; the default on the pure-Python search {fmt(times['default, pure'])}"
               if "default, pure" in times else "")
    return (f"bid advice over 200 samples, {runs} hands, one process, {_search_name()}: "
            f"every deal, every option {fmt(times['every option'])}; every deal, options "
            f"shown worse dropped (default) {fmt(times['default'])}; until clear "
            f"{fmt(times['until clear'])}{on_pure}; every option with 2 processes {fmt(two)}")


def bench_players(seconds: float) -> str:
    """Time per decision of each computer player over whole random hands (every decision
    of the hand: auction, exchange, defense, cards), median and 95th percentile."""
    from ..analysis.players import LEVELS, make_player
    from ..analysis.view import view_of

    parts = []
    for level in LEVELS:
        hands = {"beginner": 40, "club": 6, "expert": 2}[level]
        hands = max(1, int(hands * seconds / 2))
        times: list[float] = []
        for h in range(hands):
            state = HandState.deal("standard", Seat(h % 4), random.Random(500 + h))
            players = [make_player(level, 10 * h + k) for k in range(4)]
            while not state.is_terminal():
                view = view_of(state)
                start = time.perf_counter()
                action = players[int(view.seat)].decide(view)
                times.append(time.perf_counter() - start)
                state.apply(action)
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        parts.append(f"{level} median {1000 * statistics.median(times):.1f} ms, p95 "
                     f"{1000 * p95:.0f} ms ({len(times)} decisions)")
    return "computer player decision time: " + "; ".join(parts)


def bench_advice_memory(seconds: float) -> str:
    """tracemalloc's peak for card advice as the sample count grows: the advice keeps
    counts per option, not per deal, so the peak should stay flat. A first untraced run
    fills the solver's bounded memos of suit runs."""
    import tracemalloc

    from ..analysis.advice import advise_play

    state = _random_hand(3)[4]
    advise_play(state, 200, seed=1)
    peaks = []
    for samples in (50, 200, 1000):
        tracemalloc.start()
        try:
            advise_play(state, samples, seed=1)
            peaks.append(tracemalloc.get_traced_memory()[1] / 1e6)
        finally:
            tracemalloc.stop()
    return (f"card advice peak memory (tracemalloc): {peaks[0]:.2f} MB for 50 samples, "
            f"{peaks[1]:.2f} MB for 200, {peaks[2]:.2f} MB for 1000")


def _auction_positions(count: int, seed: int) -> list[HandState]:
    """Auction decisions from random deals, after 0 to 3 calls by the club player."""
    from ..analysis.players import make_player
    from ..analysis.view import view_of

    rng = random.Random(seed)
    out = []
    for i in range(count):
        state = HandState.deal("standard", Seat(i % 4), random.Random(seed * 1000 + i))
        caller = make_player("club", i)
        for _ in range(rng.randrange(4)):
            state.apply(caller.decide(view_of(state)))
        out.append(state)
    return out


def bench_grade_choice(seconds: float) -> str:
    """Seconds to grade a call as the coach should (:func:`~..analysis.grading.grade_choice`:
    200 deals seeded from the position, every call valued by what follows it, the choice
    solved on every deal, reading back what the first advice solved), over auction
    decisions after 0 to 3 calls, a random legal call each: median and 95th percentile."""
    from ..analysis.grading import grade_choice

    count = max(6, min(40, int(seconds * 4)))
    rng = random.Random(5)
    times = []
    for state in _auction_positions(count, 11):
        action = rng.choice(state.legal_actions())
        start = time.perf_counter()
        grade_choice(state, action)
        times.append(time.perf_counter() - start)
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    return (f"grading a call over 200 deals ({_search_name()}, {count} auction decisions): "
            f"median {statistics.median(times):.2f} s, p95 {p95:.2f} s, worst "
            f"{times[-1]:.2f} s")


def benches() -> list[Callable[[float], str]]:
    return [bench_solve, bench_grade, bench_advice, bench_players, bench_advice_memory,
            bench_grade_choice]


if __name__ == "__main__":
    for bench in benches():
        print(bench(2.0), flush=True)
