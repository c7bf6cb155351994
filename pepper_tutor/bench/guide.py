"""Benchmark of the Game Guides: how long ``annotate --format viewer`` takes for a hand,
without the coach and with it (every decision graded, every card solved double-dummy)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from ..records.hand_record import HandRecord, load_record
from ..render.guide import build_guide
from ..render.guide_html import guide_page
from .timing import median_ms


def _hands() -> list[Path]:
    return sorted(Path(str(resources.files("pepper_tutor") / "data" / "hands")).glob("*.yaml"))


def bench_guide(seconds: float) -> str:
    """The page of every example hand (median over repeats), then the analysed page of as
    many example hands as ``seconds`` allows (at least one): median, with the range."""
    records = [load_record(p) for p in _hands()]
    repeat = 5

    def page(record: HandRecord) -> Callable[[], str]:
        return lambda: guide_page(build_guide(record))

    plain = statistics.median(median_ms(page(r), repeat) for r in records)
    analysed: list[float] = []
    start = time.perf_counter()
    for record in records:
        t0 = time.perf_counter()
        guide_page(build_guide(record, analyse=True))
        analysed.append((time.perf_counter() - t0) * 1000)
        if time.perf_counter() - start >= seconds:
            break
    return (f"game guide of an example hand: {plain:.0f} ms (median of {len(records)} hands); "
            f"with the coach on every decision {statistics.median(analysed) / 1000:.1f} s "
            f"median (range {min(analysed) / 1000:.1f} to {max(analysed) / 1000:.1f} s, "
            f"n={len(analysed)})")


def benches() -> list[Callable[[float], str]]:
    return [bench_guide]
