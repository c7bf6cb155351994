"""What a trick count is worth: points and net for the viewer, taken through the calibration.

The bidders' double-dummy trick count fixes the contract's points; with the calibration
(:mod:`pepper_tutor.analysis.calibration`) each count is read as the spread of tricks
expected in play, and the points are its mean. Memoised: the inner loop asks the same few
questions many times.
"""

from __future__ import annotations

import functools
import math

from ...engine.calls import Bid
from ...engine.rules import RuleSet
from ...engine.scoring import score_hand
from ..calibration import distribution, row_of, sweep_chance
from .tally import _COUNTS


class _Scorer:
    """Points for the viewer's side, and its net, from the bidders' final trick count.

    The answer depends only on the bid and that count, so it is memoised: score_hand also
    writes explanations, which the inner loop does not need."""

    def __init__(self, rules: RuleSet, bidder: int, viewer: int) -> None:
        self.rules = rules
        self.bidder_side = rules.side_of(bidder)
        self.viewer_side = rules.side_of(viewer)
        self.others = [s for s in rules.sides if s != self.bidder_side]
        self.memo: dict[tuple[Bid, int | None], tuple[float, float]] = {}

    def __call__(self, bid: Bid, bidder_tricks: int | None) -> tuple[float, float]:
        """``(points, net)``; ``bidder_tricks=None`` scores a surrender."""
        key = (bid, bidder_tricks)
        found = self.memo.get(key)
        if found is None:
            tricks = {side: 0 for side in self.rules.sides}
            if bidder_tricks is not None:
                tricks[self.bidder_side] = bidder_tricks
                # Other sides score their tricks: only their total matters to the mean.
                tricks[self.others[0]] = 6 - bidder_tricks
            points = score_hand(self.rules, bid, self.bidder_side, tricks,
                                surrendered=bidder_tricks is None).points
            own = points[self.viewer_side]
            rivals = [v for side, v in points.items() if side != self.viewer_side]
            found = self.memo[key] = (float(own), own - math.fsum(rivals) / len(rivals))
        return found


@functools.lru_cache(maxsize=256)
def _scorer(rules: RuleSet, bidder: int, viewer: int) -> _Scorer:
    return _Scorer(rules, bidder, viewer)


@functools.lru_cache(maxsize=4096)
def _worths(rules: RuleSet, bidder: int, viewer: int, bid: Bid, kind: str | None
            ) -> tuple[tuple[float, float], ...]:
    """``(points, net)`` for the viewer of ``bid`` by ``bidder``, per double-dummy trick
    count of the bidders (0-6): the points of the tricks they are expected to take in play,
    by the calibration of ``kind`` (``None``: the double-dummy count itself)."""
    score = _scorer(rules, bidder, viewer)
    if kind is None:
        return tuple(score(bid, n) for n in range(_COUNTS))
    out = []
    for n in range(_COUNTS):
        dist = distribution(kind, n, row_of(bid))
        out.append((math.fsum(q * score(bid, m)[0] for m, q in enumerate(dist)),
                    math.fsum(q * score(bid, m)[1] for m, q in enumerate(dist))))
    return tuple(out)


def _sweep_worth(rules: RuleSet, bidder: int, viewer: int, kind: str | None, sweeps: bool
                 ) -> tuple[float, float]:
    """A big pepper's ``(points, net)`` when double-dummy play does or does not sweep."""
    score = _scorer(rules, bidder, viewer)
    q = float(sweeps) if kind is None else sweep_chance(kind, sweeps)
    made, lost = score(Bid.BIG_PEPPER, 6), score(Bid.BIG_PEPPER, 0)
    return (q * made[0] + (1 - q) * lost[0], q * made[1] + (1 - q) * lost[1])


def _expected_tricks(kind: str | None, n: int) -> float:
    if kind is None:
        return float(n)
    return math.fsum(m * q for m, q in enumerate(distribution(kind, n)))


def _make_chance(kind: str | None, n: int, bid: Bid) -> float:
    """The chance ``bid`` makes where double-dummy play takes ``n`` tricks."""
    need = bid.tricks
    if kind is None:
        return float(n >= need)
    return math.fsum(distribution(kind, n, row_of(bid))[need:])

