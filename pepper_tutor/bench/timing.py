"""Timing helpers shared by the benchmarks: units per second, and a median in milliseconds."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

__all__ = ["median_ms", "timed"]


def timed(fn: Callable[[], int], seconds: float,
          clock: Callable[[], float] = time.perf_counter) -> float:
    """Repeat ``fn`` (which returns how many units it did) for about ``seconds`` of
    ``clock`` (wall time by default); units/s."""
    done = 0
    start = clock()
    while True:
        done += fn()
        elapsed = clock() - start
        if elapsed >= seconds:
            return done / elapsed


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)
