"""The sampling core's figures: what the deals showed, in counts, and the intervals read from them.

Each solved deal gives a row of outcomes, one per column (a way of playing one option); the
:class:`Tally` keeps how many deals gave each outcome, per column and per pair of columns,
so memory is flat in the number of deals. An :class:`Estimate` is a mean with its 95%
interval (normal approximation); :func:`is_clear` says whether one option is better than
every other at 95%, paired over the same deals.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from itertools import islice
from statistics import NormalDist
from typing import Any

_Z95 = 1.959963984540054  # two-sided 95% point of the normal distribution


@dataclass(frozen=True)
class Estimate:
    """A sample mean with its 95% confidence interval (normal approximation)."""

    mean: float
    low: float
    high: float
    samples: int  # 0 for a value known exactly

    @classmethod
    def of(cls, values: Sequence[float]) -> Estimate:
        n = len(values)
        if n == 0:
            raise ValueError("an estimate needs at least one sample")
        mean = math.fsum(values) / n
        if n == 1:
            return cls(mean, mean, mean, 1)
        var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
        half = _Z95 * math.sqrt(var / n)
        return cls(mean, mean - half, mean + half, n)

    @classmethod
    def of_counts(cls, counts: Iterable[tuple[float, int]]) -> Estimate:
        """The estimate of values given with how many samples took each: ``(value, count)``
        pairs, as a histogram holds them (the same figures as :meth:`of` on the list)."""
        pairs = [(v, k) for v, k in counts if k > 0]
        n = sum(k for _, k in pairs)
        if n == 0:
            raise ValueError("an estimate needs at least one sample")
        mean = math.fsum(v * k for v, k in pairs) / n
        if n == 1:
            return cls(mean, mean, mean, 1)
        var = math.fsum(k * (v - mean) ** 2 for v, k in pairs) / (n - 1)
        half = _Z95 * math.sqrt(var / n)
        return cls(mean, mean - half, mean + half, n)

    @classmethod
    def of_lists(cls, values: Sequence[float], counts: Sequence[int]) -> Estimate:
        """:meth:`of_counts` on ``values[k]`` taken ``counts[k]`` times, every count at least
        1: the same arithmetic, without the pairs (a grade asks for thousands)."""
        n = sum(counts)
        if n == 0:
            raise ValueError("an estimate needs at least one sample")
        mean = math.fsum([v * k for v, k in zip(values, counts, strict=True)]) / n
        if n == 1:
            return cls(mean, mean, mean, 1)
        var = math.fsum([k * (v - mean) ** 2 for v, k in zip(values, counts, strict=True)]
                        ) / (n - 1)
        half = _Z95 * math.sqrt(var / n)
        return cls(mean, mean - half, mean + half, n)

    @classmethod
    def exact(cls, value: float) -> Estimate:
        """A value known for certain (the points of a surrender or a pass)."""
        return cls(value, value, value, 0)

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def widened(self, error: float) -> Estimate:
        """The estimate with a further standard ``error`` that its samples' own spread does
        not show, added in quadrature to its interval's (the mean unchanged)."""
        if not error:
            return self
        half = math.hypot(self.half_width, _Z95 * error)
        return Estimate(self.mean, self.mean - half, self.mean + half, self.samples)

    def __str__(self) -> str:
        if self.samples == 0:
            return f"{self.mean:.2f} exactly"
        return f"{self.mean:.2f} ± {self.half_width:.2f}"


_COUNTS = 7  # a side takes 0 to 6 tricks in a hand


Outcome = Hashable
"""What one deal showed for one column: the side's trick count (an int, 0-6), or for a call
a tuple that also says what the rest of the auction made of it (see :func:`advise_bid`);
-1 or ``None`` where the column was not solved."""


_ID_BITS = 20  # an outcome's number within its column (an advice solves 10,000 deals at most)
_ID_MASK = (1 << _ID_BITS) - 1


class Tally:
    """What the sampled deals showed, in counts that do not grow with the deals.

    Each deal gives a row: per column (a way of playing one option: a card, a trump and
    way of playing, ...) its outcome, the side's trick count or, for a call, the trick
    count with what the rest of the auction made of the call; -1 where that column was
    not solved. The tally keeps, per column, how many deals gave each outcome, and per
    pair of columns how many gave each pair of outcomes. Every figure the report needs is
    a function of those: an option's mean and 95% interval of tricks, points and net, how
    often a bid makes, and the paired differences that say when the best option is clear
    and how much a choice loses. Outcomes are few (a trick count, a bid level, a contract's
    worth), so memory is flat in the number of deals."""

    __slots__ = ("deals", "ids", "joint", "single", "values", "width")

    def __init__(self, width: int) -> None:
        self.width = width
        self.deals = 0
        self.single: list[dict[Outcome, int]] = [{} for _ in range(width)]
        # Each column's outcomes numbered in the order first seen (the order of single's
        # keys): the pairs are counted by number, one small int a pair, because hashing a
        # call's outcomes (nested tuples) for each of a deal's 400 pairs was most of a deal.
        self.ids: list[dict[Outcome, int]] = [{} for _ in range(width)]
        # joint[i * width + j] for i < j: counts of (outcome i's number << _ID_BITS | j's)
        self.joint: dict[int, dict[int, int]] = {}
        # Per worth function and column, its value for each outcome met there: the paired
        # differences read every pair of outcomes of two columns, a grade asks for them
        # hundreds of times, and a call's worth is three nested functions. A column's
        # outcomes only ever grow, in order, so each is valued once.
        self.values: dict[tuple[Callable[[Any], float], int], dict[Outcome, float]] = {}

    def valued(self, value: Callable[[Any], float], column: int) -> dict[Outcome, float]:
        """``value`` of each outcome seen in ``column``, each worked out once per tally, in
        the order first seen (so ``list(...values())`` is indexed by the outcome's number)."""
        known = self.values.get((value, column))
        if known is None:
            known = self.values[value, column] = {}
        seen = self.single[column]
        if len(known) < len(seen):
            for n in islice(seen, len(known), None):
                known[n] = value(n)
        return known

    def add(self, row: Sequence[Outcome]) -> None:
        self.deals += 1
        live: list[tuple[int, int]] = []  # (column, its outcome's number)
        single, ids = self.single, self.ids
        for i, n in enumerate(row):
            if n is None or (isinstance(n, int) and n < 0):  # not solved
                continue
            counts = single[i]
            counts[n] = counts.get(n, 0) + 1
            numbers = ids[i]
            k = numbers.get(n)
            if k is None:
                k = numbers[n] = len(numbers)
                if k > _ID_MASK:
                    raise ValueError(f"more than {_ID_MASK + 1:,} outcomes in one column")
            live.append((i, k))
        joint, width = self.joint, self.width
        for a, (i, k) in enumerate(live):
            base, high = i * width, k << _ID_BITS
            for j, m in live[a + 1:]:
                pairs = joint.get(base + j)
                if pairs is None:
                    pairs = joint[base + j] = {}
                key = high | m
                pairs[key] = pairs.get(key, 0) + 1

    def solved(self, column: int) -> int:
        return sum(self.single[column].values())

    def counts(self, column: int) -> list[int]:
        """How many deals gave each trick count (index) in a column of trick counts."""
        found = self.single[column]
        return [found.get(n, 0) for n in range(_COUNTS)]

    def outcomes(self, column: int) -> list[tuple[Outcome, int]]:
        """Each outcome seen in ``column`` with how many deals gave it."""
        return list(self.single[column].items())

    def share(self, column: int, chance: Callable[[Any], float]) -> float:
        """The mean over the deals of ``chance(outcome)`` (a probability: how often)."""
        total = self.solved(column)
        return math.fsum(chance(n) * k for n, k in self.single[column].items()) / total

    def estimate(self, column: int, value: Callable[[Any], float]) -> Estimate:
        counts = self.single[column]
        known = self.valued(value, column)
        return Estimate.of_lists([known[n] for n in counts], list(counts.values()))

    def difference(self, a: TalliedOption, b: TalliedOption) -> tuple[float, float, int, bool]:
        """``a``'s worth less ``b``'s over the deals both were solved on (paired):
        ``(mean, 95% low, deals, always equal)``."""
        e = self.paired(a, b)
        if e is None:
            if a.column is None and b.column is None:
                d = a.value(0) - b.value(0)
                return d, d, 0, d == 0
            return 0.0, -math.inf, 0, False
        est, equal = e
        return est.mean, est.low, est.samples, equal

    def paired(self, a: TalliedOption, b: TalliedOption) -> tuple[Estimate, bool] | None:
        """The estimate of ``a``'s worth less ``b``'s, paired over the deals both were
        solved on, and whether they were equal on every deal; ``None`` with no such deal
        (or two values known exactly)."""
        if a.column is None or b.column is None or a.column == b.column:
            col = a.column if a.column is not None else b.column
            if col is None:
                return None
            counts = self.single[col]
            va, vb = self.valued(a.value, col), self.valued(b.value, col)
            differences = [va[n] - vb[n] for n in counts]
            deals = list(counts.values())
        else:
            i, j = sorted((a.column, b.column))
            fa, fb = (a.value, b.value) if i == a.column else (b.value, a.value)
            table = self.joint.get(i * self.width + j, {})
            xs = list(self.valued(fa, i).values())  # by outcome number
            ys = list(self.valued(fb, j).values())
            if i == a.column:
                differences = [xs[key >> _ID_BITS] - ys[key & _ID_MASK] for key in table]
            else:
                differences = [-1.0 * (xs[key >> _ID_BITS] - ys[key & _ID_MASK])
                               for key in table]
            deals = list(table.values())
        if not deals:  # every count kept is at least 1
            return None
        found = Estimate.of_lists(differences, deals).widened(math.hypot(a.spread, b.spread))
        return found, not any(differences)


@dataclass(frozen=True)
class TalliedOption:
    """An option as the tally sees it: the column it is solved in (``None`` for a value
    known exactly, as a pass or a surrender) and its worth for a trick count there;
    ``spread``, a standard error of that worth the deals' own spread does not show (a worth
    that is itself read from the same deals, see :func:`.calls._weight_spread`), which
    every paired difference with it counts."""

    column: int | None
    value: Callable[[Any], float]
    spread: float = 0.0

    def mean(self, tally: Tally) -> float:
        if self.column is None:
            return self.value(0)
        counts = tally.single[self.column]
        if not counts:
            return -math.inf
        # the mean of tally.estimate(...), the very float, without the interval
        known = tally.valued(self.value, self.column)
        deals = counts.values()
        return math.fsum([known[n] * k for n, k in counts.items()]) / sum(deals)


def _best(tally: Tally, choices: Sequence[TalliedOption]) -> int:
    means = [c.mean(tally) for c in choices]
    return max(range(len(choices)), key=lambda k: means[k])


def _shown_worse(tally: Tally, best: TalliedOption, other: TalliedOption,
                 z: float = _Z95) -> bool:
    """Whether ``other`` is worse than ``best`` at 95% (or at the normal point ``z``),
    paired over the same deals."""
    mean, low, deals, equal = tally.difference(best, other)
    if z != _Z95 and math.isfinite(low):
        low = mean - (mean - low) * z / _Z95
    return not equal and deals >= 2 and low > 0


def is_clear(tally: Tally, choices: Sequence[TalliedOption]) -> bool:
    """Whether one option is better than every other at 95%, by the paired differences of
    their worth over the deals both were solved on. Options worth the same on every deal
    (equivalent cards) are not rivals; an option never solved is out of the race."""
    if not choices:
        return False
    best = choices[_best(tally, choices)]
    for other in choices:
        if other is best or other.mean(tally) == -math.inf:
            continue
        _, low, deals, equal = tally.difference(best, other)
        if equal:
            continue
        if deals < 2 or low <= 0:
            return False
    return True



def _z(comparisons: int) -> float:
    """The normal point of one end of a 95% interval shared out over ``comparisons``
    (Bonferroni): 1.96 for one."""
    return _NORMAL.inv_cdf(1.0 - 0.025 / max(1, comparisons))


_NORMAL = NormalDist()


def in_the_race(tally: Tally, rivals: Sequence[TalliedOption]) -> list[TalliedOption]:
    """The best of ``rivals`` and those not shown worse than it at 95% (paired)."""
    if not rivals:
        return []
    top = rivals[_best(tally, rivals)]
    return [y for y in rivals if y is top or not _shown_worse(tally, top, y)]


def loss_of_choice(tally: Tally, mine: Sequence[TalliedOption],
                   racing: Sequence[TalliedOption]) -> Estimate | None:
    """What choosing ``mine`` loses against the best option, with a 95% interval that
    accounts for the choices made on these same deals.

    ``mine`` lists the ways one choice may be played (a bid in each trump and way of
    playing, of which the best is taken; most choices have one), ``racing`` the options of
    the decision in the race for the best (:func:`in_the_race`). For a way ``c`` and a
    rival ``y`` in the race the tally gives ``y``'s worth less ``c``'s, paired over the
    deals both were solved on; ``c`` loses the largest of those (at least 0: the best may
    be ``c`` itself), the choice the least of its ways' losses. The best rival and the
    best way are picked on the very deals they are valued on, which flatters both (the
    pick's figure is biased up, one pair's interval too narrow for it), so each end of the
    interval goes through the same largest and least, its 2.5% shared out over what it
    depends on (Bonferroni): the near end over the rivals that could be better than the
    way (by their own 95% interval), the far end over the ways still in the race (not
    shown worse than the best way at 95%). ``None`` where no rival in the race shares a
    deal with any way."""
    picked: list[tuple[float, float, float, int]] = []  # per way: mean, low, high, deals
    if len(mine) > 1:
        own = mine[_best(tally, mine)]
        far = _z(sum(1 for c in mine if c is own or not _shown_worse(tally, own, c)))
    else:
        far = _Z95
    for c in mine:
        diffs: list[tuple[float, float, int]] = []  # per rival: mean, error, deals
        for y in racing:
            if y is c:  # in the race itself: it loses nothing against itself
                diffs.append((0.0, 0.0, tally.solved(c.column) if c.column is not None else 0))
                continue
            found = tally.paired(y, c)
            if found is not None:
                est = found[0]
                diffs.append((est.mean, est.half_width / _Z95, est.samples))
            elif y.column is None and c.column is None:  # two values known exactly
                diffs.append((y.value(0) - c.value(0), 0.0, 0))
        if not diffs:
            continue
        near = _z(sum(1 for m, s, _ in diffs if m + _Z95 * s > 0))
        mean, _, deals = max(diffs)
        picked.append((max(0.0, mean), max([0.0, *(m - near * s for m, s, _ in diffs)]),
                       max([0.0, *(m + far * s for m, s, _ in diffs)]), deals))
    if not picked:
        return None
    mean, _, _, deals = min(picked)
    return Estimate(mean, min(p[1] for p in picked), min(p[2] for p in picked), deals)
