"""Mining throughput: hands per CPU-second and validated puzzles per CPU-hour, on the default
executor (the standard library's pool) and on a two-worker Dask ``LocalCluster``, paired.

Each round mines the same hands on both executors, in alternating order (so neither always
runs on a warmer or a quieter machine), at the shipped thresholds and deal counts; the CPU
time is what the tasks took in their workers, and the wall time the whole job, with the
executor's start. The line gives the median over the rounds and the range.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable

from ..teaching.puzzles.miner import Mined, mine, tasks_for

__all__ = ["benches", "bench_mining"]

ROUNDS = 2
HANDS = 6  # a round's hands on each executor
KINDS = ("play", "discard", "send", "defense", "mode")  # the cheap kinds, as the build


def _spread(values: list[float], fmt: str) -> str:
    return (f"{format(statistics.median(values), fmt)} "
            f"[{format(min(values), fmt)}-{format(max(values), fmt)}]")


def bench_mining(seconds: float) -> str:
    try:
        import distributed  # noqa: F401
    except ImportError:
        executors = ["local:2"]
    else:
        executors = ["local:2", "dask-local:2"]
    figures: dict[str, list[Mined]] = {e: [] for e in executors}
    for r in range(ROUNDS):
        tasks = tasks_for(HANDS, f"bench-{r}", kinds=KINDS, levels=("beginner",))
        order = executors if r % 2 == 0 else executors[::-1]
        for executor in order:
            figures[executor].append(mine(tasks, executor))
    parts = []
    for executor, runs in figures.items():
        per_cpu = [m.hands / m.cpu_seconds for m in runs]
        per_hour = [len(m.puzzles) / m.cpu_seconds * 3600 for m in runs]
        wall = [m.hands / m.wall_seconds for m in runs]
        parts.append(f"{executor}: {_spread(per_cpu, '.2f')} hands/CPU-s, "
                     f"{_spread(per_hour, '.0f')} puzzles/CPU-h, {_spread(wall, '.2f')} "
                     "hands/s wall")
    return (f"puzzle mining ({HANDS} hands x {ROUNDS} rounds, paired, median [range]): "
            + "; ".join(parts))


def benches() -> list[Callable[[float], str]]:
    return [bench_mining]
