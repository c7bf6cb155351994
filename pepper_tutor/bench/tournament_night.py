"""Benchmark of tournament night: how long the host waits for a result to be entered in the
night's store (checked, written and fsynced), and for a tournament to be read back when the
night's file is opened again, for a large bracket and a short and a very long movement."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ..apps.night.store import NightStore
from ..records.bracket import Bracket
from ..records.movement import Movement
from ..records.teams import draw_teams
from ..records.tournament import Tournament

__all__ = ["benches", "bench_tournament_results", "SHAPES"]


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def _players(teams: int) -> list[str]:
    return [f"Player {i}" for i in range(2 * teams)]


#: What is measured: a bracket of 64 teams (127 or 128 games), the 55+ Games' movement (16
#: teams, 8 rounds) and a very long one (64 teams, 30 rounds: 960 results).
SHAPES: dict[str, Callable[[], Tournament]] = {
    "bracket 64": lambda: Bracket(draw_teams(_players(64), 1)),
    "movement 16x8": lambda: Movement(draw_teams(_players(16), 1), 8, 30),
    "movement 64x30": lambda: Movement(draw_teams(_players(64), 1), 30, 30),
}


def _one_night(start: Tournament, rng: random.Random) -> tuple[list[float], float]:
    """Enter a whole tournament; the ms of each result and of reading it back afresh."""
    with tempfile.TemporaryDirectory() as home:
        store = NightStore(Path(home) / "night.sqlite")
        store.start_tournament(start)
        times: list[float] = []
        t = start
        while not t.over:
            if isinstance(t, Bracket):
                game = rng.choice(t.ready())
                a, b = game.teams
                assert a is not None and b is not None
                args: tuple[str, int, tuple[int, int] | None] = (game.id, (a, b)[rng.randrange(2)],
                                                                 None)
            else:
                table = rng.choice([g for g in t.plan()[t.current - 1].tables
                                    if g.result is None])
                args = (table.id, table.teams[0], (31, rng.randint(0, 30)))
            t0 = time.perf_counter()
            t = store.record_result(*args)
            times.append((time.perf_counter() - t0) * 1000)
        store.close()
        t0 = time.perf_counter()
        again = NightStore(Path(home) / "night.sqlite")
        assert again.tournament() == t
        reopen = (time.perf_counter() - t0) * 1000
        again.close()
    return times, reopen


def bench_tournament_results(seconds: float) -> str:
    """Each shape run whole at least once, and again while ``seconds`` last."""
    rng = random.Random(5)
    parts = []
    for name, make in SHAPES.items():
        times: list[float] = []
        reopens: list[float] = []
        start = time.perf_counter()
        while not reopens or time.perf_counter() - start < seconds / len(SHAPES):
            some, reopen = _one_night(make(), rng)
            times += some
            reopens.append(reopen)
        parts.append(f"{name}: {statistics.median(times):.1f} ms a result (p95 "
                     f"{_p95(times):.1f}), reopened {statistics.median(reopens):.0f} ms")
    return "tournament night: " + "; ".join(parts)


def benches() -> list[Callable[[float], str]]:
    return [bench_tournament_results]
