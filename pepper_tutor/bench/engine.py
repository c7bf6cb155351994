"""Engine benchmarks: random full hands and play-phase playouts per second."""

from __future__ import annotations

import random
from collections.abc import Callable

from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.rules import get_ruleset
from ..engine.seats import Seat
from ..engine.state import HandState, Phase
from .timing import timed

__all__ = ["benches"]


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


def benches() -> list[Callable[[float], str]]:
    return [bench_full_hands, bench_playouts]
