"""How contracts go when they are played by people who cannot see the cards.

The advice solves each sampled deal double-dummy: every seat plays as if it saw all four
hands. At the table nobody does, and that flatters the side that needs every trick most (a
bidder in no trump, or in a pepper, must guess where the missing cards are). Rather than
play every sampled deal out card by card (far too slow for advice given while a learner
waits), the advice corrects the double-dummy trick count by a measured calibration:

    P(the side takes m tricks | the double-dummy count is n, the kind of contract)

measured by the bench (``python -m pepper_tutor.bench calibration``): the computer players
(:mod:`.players`, club level: every card by sampled single-dummy play, each seat seeing only
what it may) play thousands of contracts out, and each contract's double-dummy count on
the real deal, at the first lead, is set beside the tricks the bidders really took. The
kinds are no trump or a trump suit, by way of playing: with the partner, alone with the
exchange, alone without one (a big pepper), or everyone for themselves (cutthroat, not
measured: taken as double-dummy).

:data:`TABLE` holds the measured counts; :func:`distribution` smooths each row towards the
double-dummy count (a row seen a few times says little), and :func:`sweep_chance` gives the
chance of taking all six, for the big pepper columns, which are solved only for the sweep.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

__all__ = ["TABLE", "PRIOR", "TIGHT", "kind_of", "smoothed", "distribution", "sweep_chance",
           "fit", "table_source"]

PRIOR = 4.0
"""Weight, in contracts, of the double-dummy count in each smoothed row."""

# Measured by `python -m pepper_tutor.bench calibration --fit` (see the docs' analysis page),
# over 1,087 contracts played out by club players (seed 3): per kind, per double-dummy
# count n (0-6), how many contracts ended with m tricks (0-6).
TABLE: dict[str, tuple[tuple[int, ...], ...]] = {
    'nt exchange': (
        (1, 0, 0, 0, 0, 0, 0),
        (0, 1, 0, 0, 0, 0, 0),
        (0, 1, 11, 1, 1, 0, 0),
        (0, 0, 2, 9, 4, 1, 0),
        (0, 0, 1, 1, 12, 1, 0),
        (0, 0, 0, 0, 0, 21, 10),
        (0, 0, 0, 0, 0, 0, 24),
    ),
    'nt exchange tight': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 1, 1, 1, 0, 0),
        (0, 0, 0, 1, 8, 0, 0),
        (0, 0, 0, 0, 0, 2, 0),
        (0, 0, 0, 0, 0, 0, 0),
    ),
    'nt partner': (
        (0, 1, 0, 0, 0, 0, 0),
        (2, 4, 1, 1, 0, 0, 0),
        (0, 4, 3, 0, 1, 1, 0),
        (0, 0, 2, 12, 3, 0, 0),
        (0, 0, 2, 3, 21, 4, 0),
        (0, 2, 2, 3, 8, 16, 2),
        (0, 0, 0, 3, 4, 12, 22),
    ),
    'nt partner tight': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 1, 1, 1, 0, 0),
        (0, 0, 1, 1, 14, 4, 0),
        (0, 1, 0, 0, 0, 3, 0),
        (0, 0, 0, 0, 0, 0, 1),
    ),
    'trump exchange': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 0, 0, 0, 0, 0),
        (0, 2, 3, 3, 0, 0, 0),
        (0, 0, 0, 16, 6, 0, 0),
        (0, 0, 0, 5, 60, 12, 0),
        (0, 0, 0, 0, 7, 124, 16),
        (0, 0, 0, 0, 0, 4, 106),
    ),
    'trump exchange tight': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 8, 1, 0, 0),
        (0, 0, 0, 3, 41, 4, 0),
        (0, 0, 0, 0, 0, 13, 0),
        (0, 0, 0, 0, 0, 0, 2),
    ),
    'trump partner': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 3, 8, 6, 1, 0, 0),
        (0, 1, 5, 39, 8, 1, 0),
        (0, 0, 1, 22, 63, 12, 0),
        (0, 0, 1, 8, 54, 75, 4),
        (0, 0, 0, 2, 19, 53, 95),
    ),
    'trump partner tight': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 1, 15, 0, 0, 0),
        (0, 0, 0, 17, 53, 12, 0),
        (0, 0, 0, 0, 1, 16, 1),
        (0, 0, 0, 0, 0, 0, 3),
    ),
}


def kind_of(trump: int, way: str) -> str:
    """The calibration's kind for a trump (0-3, or 4 for no trump) and way of playing
    (``partner``, ``exchange``, ``alone`` for a big pepper, ``play`` in cutthroat)."""
    return f"{'nt' if trump == 4 else 'trump'} {way}"


TIGHT = " tight"
"""Suffix of the rows measured on contracts whose double-dummy count is exactly what the bid
needs: a contract with no trick to spare is made in play less often than one with tricks in
hand, at the same count (a 5 that needs the squeeze double-dummy play finds)."""


def smoothed(table: dict[str, tuple[tuple[int, ...], ...]], kind: str, n: int,
             need: int | None = None) -> tuple[float, ...]:
    """The chance of each final trick count (0-6) for a double-dummy count ``n`` by
    ``table``: the measured row, with :data:`PRIOR` contracts' weight on ``n`` itself.
    With ``need`` (the tricks the bid needs) equal to ``n``, the tight row, where measured."""
    if need == n and kind + TIGHT in table:
        kind += TIGHT
    row = table.get(kind)
    counts = [float(k) for k in row[n]] if row is not None else [0.0] * 7
    counts[n] += PRIOR
    total = sum(counts)
    return tuple(k / total for k in counts)


@functools.cache
def distribution(kind: str, n: int, need: int | None = None) -> tuple[float, ...]:
    """:func:`smoothed` by the measured :data:`TABLE`."""
    return smoothed(TABLE, kind, n, need)


@functools.cache
def sweep_chance(kind: str, sweeps: bool) -> float:
    """The chance the side takes all six tricks, knowing only whether double-dummy play
    sweeps: for big pepper, solved only for the sweep."""
    if sweeps:
        return distribution(kind, 6, 6)[6]
    row = TABLE.get(kind)
    if row is None:
        return 0.0
    short = [row[n] for n in range(6)]
    total = sum(sum(r) for r in short)
    return sum(r[6] for r in short) / (total + PRIOR)


def fit(records: Iterable[tuple[str, int, int, int]]
        ) -> dict[str, tuple[tuple[int, ...], ...]]:
    """Counts from ``(kind, double-dummy tricks, tricks taken, tricks needed)`` records: per
    kind, and per kind for the contracts with no trick to spare (:data:`TIGHT`)."""
    table: dict[str, list[list[int]]] = {}
    for kind, n, m, need in records:
        for key in (kind, kind + TIGHT) if n == need else (kind,):
            rows = table.setdefault(key, [[0] * 7 for _ in range(7)])
            rows[n][m] += 1
    return {k: tuple(tuple(r) for r in rows) for k, rows in sorted(table.items())}


def table_source(table: dict[str, tuple[tuple[int, ...], ...]]) -> str:
    """The Python text of a fitted table, to paste into :data:`TABLE`."""
    lines = ["TABLE: dict[str, tuple[tuple[int, ...], ...]] = {"]
    for kind, rows in table.items():
        lines.append(f"    {kind!r}: (")
        lines.extend(f"        {tuple(r)!r}," for r in rows)
        lines.append("    ),")
    lines.append("}")
    return "\n".join(lines)
