"""Benchmarks of the practice table: how long the learner waits for the computer players'
answers, and for the coach's word, by kind of decision."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from ..analysis.grading import GRADING_SAMPLES
from ..teaching.practice.coach import coach_decision
from ..teaching.practice.table import PracticeTable


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def bench_table(seconds: float, level: str = "club", samples: int = GRADING_SAMPLES) -> str:
    """Play hands (the learner taking the first legal choice) for about ``seconds``: the
    time from a learner's action to the learner's next turn (the computer players' answers),
    and the coach's time per decision, by kind."""
    waits: list[float] = []
    coach: dict[str, list[float]] = {}
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or not waits:
        seed += 1
        table = PracticeTable(seed=seed, level=level, coach=False, history=False,
                              coach_samples=samples)
        while not table.hand_over:
            action = table.legal()[0]
            if len(table.legal()) > 1:
                t0 = time.perf_counter()
                verdict = coach_decision(table.state, action, samples=samples)
                coach.setdefault(verdict.kind, []).append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            table.act(action)
            waits.append((time.perf_counter() - t0) * 1000)
    kinds = ", ".join(f"{kind} {statistics.median(ms):.0f} ms (n={len(ms)})"
                      for kind, ms in sorted(coach.items()))
    return (f"practice table ({level} players): their answers before your next turn median "
            f"{statistics.median(waits):.0f} ms, p95 {_p95(waits):.0f} ms over {len(waits)} "
            f"turns; the coach at {samples} samples, median per decision: {kinds}")


def benches() -> list[Callable[[float], str]]:
    return [bench_table]
