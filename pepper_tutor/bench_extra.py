"""Benchmarks registered by the annotator, lessons and analysis (kept apart from the engine's)."""

from __future__ import annotations

from collections.abc import Callable


def benches() -> list[Callable[[float], str]]:
    return []
