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
from contextlib import AbstractContextManager, contextmanager, nullcontext
from types import ModuleType

from ..analysis.solver import Position, TranspositionTable, solve, solve_state
from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.seats import Seat
from ..engine.state import HandState

__all__ = ["bench_solve", "bench_grade", "bench_advice", "bench_players", "bench_advice_memory",
           "bench_grade_choice", "benches"]


@contextmanager
def _using(module: ModuleType) -> Iterator[None]:
    """Run the solver on ``module``'s search for a while, to set the searches side by side
    in one process (the solver picks its search once, at import)."""
    from ..analysis import solver

    chosen = solver._SearchRoot
    solver._SearchRoot = module._Root
    try:
        yield
    finally:
        solver._SearchRoot = chosen


def _pure_search() -> AbstractContextManager[None]:
    from ..analysis import search

    return _using(search)


def _searches() -> dict[str, ModuleType]:
    """The searches built here and up to date, fastest first; the pure one always."""
    from ..analysis import native, search

    built = {"native": native.native_module(), "compiled": native.compiled_module()}
    return {**{k: m for k, m in built.items() if m is not None}, "pure": search}


def _search_name() -> str:
    from ..analysis.native import which

    return {"native": "native C search", "compiled": "compiled search"}.get(
        which(), "pure-Python search (nothing built here)")


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


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def _spread(values: list[float], digits: int = 3) -> str:
    return (f"{statistics.median(values):.{digits}f} "
            f"({min(values):.{digits}f}-{max(values):.{digits}f})")


def _nodes(positions: list[Position], card_values: bool) -> int:
    """The positions the native search visits solving these from fresh tables. The three
    searches search the same tree, node for node (the native one mirrors the pure one's
    bounds, table and move order; docs/analysis.md says how this was checked), so this is
    every search's count; without the native build, 0 (not counted)."""
    from ..analysis import native

    built = native.native_module()
    if built is None:
        return 0
    total = 0
    for p in positions:
        root = built._Root(p, TranspositionTable())
        best = root.converge(root.test, 0, root.left, (root.left + 1) // 2)
        if card_values:
            root.values(best)
        total += root.nodes
    return int(total)


def bench_solve(seconds: float) -> str:
    """Each search on the same random full deals from the opening lead, fresh table each,
    paired in one run: rounds of deals, each round timing every search on the same deals
    in rotated order. Per search: the median solve (value only, four hands), its 95th
    percentile, solves/s and nodes/s; with every card's value and on three hands (an
    exchange: the partner sits out), the median; and each search's time as a share of the
    reference solver's (the pure-Python search: the oracle every build is checked against),
    per round, median and range. Times are this process's CPU time: the machine is shared,
    and wall time would count other people's work too."""
    searches = _searches()
    rounds = 5
    per = max(20, min(200, int(seconds * 40)))
    times: dict[str, list[float]] = {k: [] for k in searches}  # ms per value-only solve
    totals: dict[str, list[float]] = {k: [] for k in searches}  # s per round
    ratios: dict[str, list[float]] = {k: [] for k in searches}
    nodes = 0
    for r in range(rounds):
        four = _deals(per, 10 + r)
        nodes += _nodes(four, False)
        names = list(searches)
        names = names[r % len(names):] + names[:r % len(names)]
        for name in names:
            start = time.process_time()
            for p in four:
                t = time.process_time()
                solve(p, card_values=False, module=searches[name])
                times[name].append((time.process_time() - t) * 1000)
            totals[name].append(time.process_time() - start)
        for name in searches:
            ratios[name].append(totals[name][-1] / totals["pure"][-1])
    four, three = _deals(per, 1), _deals(per, 2, out=2)
    parts = []
    for name, module in searches.items():
        solved = rounds * per
        spent = sum(totals[name])
        rate = f", {nodes / spent / 1e6:.2f} M nodes/s" if nodes else ""
        with_values = statistics.median(_times(four, True, module))
        on_three = statistics.median(_times(three, False, module))
        parts.append(f"{name}: median {statistics.median(times[name]):.3f} ms, p95 "
                     f"{_p95(times[name]):.3f} ms, {solved / spent:,.0f} solves/s{rate}, "
                     f"{_spread(ratios[name])}x the reference; with every card's value "
                     f"{with_values:.3f} ms; 3 hands {on_three:.3f} ms")
    return (f"double-dummy solve of a random full deal from the opening lead (CPU time), "
            f"value only, {rounds} rounds of {per} deals, paired (the reference solver: the "
            f"pure-Python search): " + "; ".join(parts))


def _times(positions: list[Position], card_values: bool, module: ModuleType) -> list[float]:
    out = []
    for p in positions:
        start = time.process_time()
        solve(p, card_values=card_values, module=module)
        out.append((time.process_time() - start) * 1000)
    return out


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
    from ..analysis.advice.calls import advise_bid
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

    from ..analysis.advice.play import advise_play

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


def _play_positions(count: int, seed: int) -> list[HandState]:
    """Card decisions from random hands: a position early, midway and late in each."""
    out: list[HandState] = []
    for k in range(count):
        positions = _random_hand(seed + k)
        out.append(positions[(3, 9, 15)[k % 3] % len(positions)])
    return out


def _expert_positions(count: int, seed: int) -> list[HandState]:
    """The expert's decisions from random hands played out by the club player: every
    kind (auction, trump, exchange, defense, cards), taken in turn from each hand."""
    from ..analysis.players import make_player
    from ..analysis.view import view_of

    out: list[HandState] = []
    hand = 0
    while len(out) < count:
        state = HandState.deal("standard", Seat(hand % 4), random.Random(seed + hand))
        club = make_player("club", hand)
        step = 0
        while not state.is_terminal() and len(out) < count:
            if step % 7 == hand % 7:
                out.append(state.copy())
            state.apply(club.decide(view_of(state)))
            step += 1
        hand += 1
    return out


def bench_grade_choice(seconds: float) -> str:
    """What the coach and the expert make people wait for, on each search, paired in one
    run (each position timed on every search in rotated order): grading a call as the coach
    does (:func:`~..analysis.grading.grade_choice`: 200 deals seeded from the position, a
    random legal call), grading a card the same way (card advice over 200 deals), and one
    decision of the expert player, with the sampling loop in C where it is built, and the
    fastest search again with the Python loop (its own row: the loop's share of the wait).
    Median and 95th percentile per search; the pure-Python
    search on the first positions only (it takes seconds a grade), and each search's time
    as a share of the pure one's on those, median over positions. CPU time, as for
    :func:`bench_solve`."""
    from ..analysis.advice.native_sampling import python_loop, sampling_module
    from ..analysis.grading import grade_choice
    from ..analysis.players import make_player
    from ..analysis.view import view_of

    searches = _searches()
    # Each search with the sampling loop in C where it is built, and the fastest search
    # again with the Python loop: the same deals, so the pair times the loop alone.
    runs: dict[str, tuple[ModuleType, bool]] = {}
    paired = ""
    for name, module in searches.items():
        runs[name] = (module, False)
        if not paired and name != "pure" and sampling_module() is not None:
            paired = f"{name}, Python sampling"
            runs[paired] = (module, True)
    count = max(12, min(60, int(seconds * 10)))
    slow = max(4, count // 5)  # positions the pure search is timed on too
    calls = _auction_positions(count, 11)
    cards = _play_positions(count, 40)
    experts = _expert_positions(count, 70)
    kinds: list[tuple[str, list[HandState], Callable[[HandState, int], object]]] = [
        ("a call's grade", calls,
         lambda state, i: grade_choice(state, random.Random(i).choice(state.legal_actions()))),
        ("a card's grade", cards,
         lambda state, i: grade_choice(state, random.Random(i).choice(state.legal_actions()))),
        ("an expert decision", experts,
         lambda state, i: make_player("expert", i).decide(view_of(state))),
    ]
    lines = []
    for label, states, run in kinds:
        times: dict[str, list[float]] = {k: [] for k in runs}
        for i, state in enumerate(states):
            names = [k for k in runs if k != "pure" or i < slow]
            names = names[i % len(names):] + names[:i % len(names)]
            for name in names:
                module, python = runs[name]
                with _using(module), python_loop() if python else nullcontext():
                    start = time.process_time()
                    run(state, i)
                    times[name].append((time.process_time() - start) * 1000)
        parts = []
        for name, spent in times.items():
            share = ""
            if name != "pure" and "pure" in times:
                shares = [a / b for a, b in zip(spent[:slow], times["pure"], strict=True)]
                share = f", {statistics.median(shares):.2f}x the pure search's time"
            if paired and name == paired.split(",")[0]:
                shares = [a / b for a, b in zip(spent, times[paired], strict=True)]
                share += f", {statistics.median(shares):.2f}x the Python sampling's time"
            parts.append(f"{name} median {statistics.median(spent):.0f} ms, p95 "
                         f"{_p95(spent):.0f} ms ({len(spent)} positions{share})")
        lines.append(f"  {label}: " + "; ".join(parts))
    sampled = ("the sampling loop in C" if paired else
               "the sampling loop in Python (the native sampling is not built)")
    return ("the coach's grades over 200 deals and the expert's decisions (CPU time), each "
            f"search paired on the same positions, {sampled}:\n" + "\n".join(lines))


def benches() -> list[Callable[[float], str]]:
    return [bench_solve, bench_grade, bench_advice, bench_players, bench_advice_memory,
            bench_grade_choice]


if __name__ == "__main__":
    for bench in benches():
        print(bench(2.0), flush=True)
