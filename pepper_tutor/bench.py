"""Benchmarks of the paths people wait on: ``python -m pepper_tutor.bench``.

Prints random full hands per second (auction to score, through ``legal_actions`` and the
fast ``apply``) and random play-phase playouts per second, then whatever later parts of the
project register (annotation, lesson feedback, ...). Figures are for one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from .calls import Bid, Defense, Mode, Trump
from .rules import get_ruleset
from .seats import Seat
from .state import HandState, Phase

__all__ = ["BENCHES", "main", "timed"]


def timed(fn: Callable[[], int], seconds: float) -> float:
    """Repeat ``fn`` (which returns how many units it did) for about ``seconds``; units/s."""
    done = 0
    start = time.perf_counter()
    while True:
        done += fn()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def bench_full_hands(seconds: float) -> str:
    rng = random.Random(1)
    rules = get_ruleset("standard")
    choice = rng.choice

    def batch() -> int:
        for i in range(200):
            state = HandState.deal(rules, Seat(i & 3), rng)
            while not state.is_terminal():
                state.apply(choice(state.legal_actions()))
        return 200

    return f"full hands (auction to score), random legal actions: {timed(batch, seconds):,.0f}/s"


def bench_playouts(seconds: float) -> str:
    rng = random.Random(2)
    start = HandState.deal("standard", Seat.W, rng)
    for action in (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS, Trump.H, Mode.PARTNER, Defense.PLAY):
        start.apply(action)
    assert start.phase is Phase.PLAY

    def batch() -> int:
        for _ in range(500):
            start.copy().playout(rng)
        return 500

    return f"play-phase playouts (copy + random play to score): {timed(batch, seconds):,.0f}/s"


BENCHES: list[Callable[[float], str]] = [bench_full_hands, bench_playouts]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per benchmark")
    args = parser.parse_args(argv)
    from . import bench_extra

    for bench in BENCHES + bench_extra.benches():
        print(bench(args.seconds), flush=True)


if __name__ == "__main__":
    main()
