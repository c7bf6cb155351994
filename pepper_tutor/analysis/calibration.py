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

__all__ = ["TABLE", "PRIOR", "NEED", "LEAN_FLOOR", "SHRINK", "kind_of", "smoothed",
           "distribution", "sweep_chance", "fit", "table_source"]

PRIOR = 4.0
"""Weight, in contracts, of the double-dummy count in each smoothed row."""

# Measured by `python -m pepper_tutor.bench calibration --fit` (see the docs' analysis page),
# over 5,020 contracts played out by club players (seed 3): per kind, and per kind and the
# tricks the bid needed, per double-dummy count n (0-6), how many contracts ended with m
# tricks (0-6).
TABLE: dict[str, tuple[tuple[int, ...], ...]] = {
    'nt exchange': (
        (4, 1, 0, 0, 0, 0, 0),
        (0, 16, 4, 1, 1, 0, 0),
        (1, 6, 36, 3, 2, 1, 0),
        (0, 0, 18, 63, 8, 3, 0),
        (1, 0, 3, 10, 77, 11, 7),
        (0, 0, 0, 6, 4, 84, 30),
        (0, 0, 0, 0, 0, 0, 110),
    ),
    'nt exchange need 3': (
        (1, 0, 0, 0, 0, 0, 0),
        (0, 8, 3, 1, 1, 0, 0),
        (1, 3, 13, 0, 0, 0, 0),
        (0, 0, 11, 27, 4, 1, 0),
        (0, 0, 1, 3, 27, 4, 1),
        (0, 0, 0, 2, 2, 15, 12),
        (0, 0, 0, 0, 0, 0, 8),
    ),
    'nt exchange need 4': (
        (3, 1, 0, 0, 0, 0, 0),
        (0, 7, 1, 0, 0, 0, 0),
        (0, 3, 22, 3, 1, 1, 0),
        (0, 0, 7, 34, 3, 1, 0),
        (1, 0, 1, 7, 47, 7, 6),
        (0, 0, 0, 3, 2, 62, 16),
        (0, 0, 0, 0, 0, 0, 77),
    ),
    'nt exchange need 5': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 0, 0, 0, 0, 0),
        (0, 0, 1, 0, 1, 0, 0),
        (0, 0, 0, 2, 1, 1, 0),
        (0, 0, 1, 0, 3, 0, 0),
        (0, 0, 0, 1, 0, 6, 2),
        (0, 0, 0, 0, 0, 0, 25),
    ),
    'nt exchange need 6': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 1, 0),
        (0, 0, 0, 0, 0, 0, 0),
    ),
    'nt partner': (
        (1, 3, 0, 0, 0, 0, 0),
        (3, 18, 4, 4, 0, 0, 0),
        (0, 14, 31, 6, 1, 2, 0),
        (0, 2, 29, 48, 12, 3, 0),
        (0, 5, 16, 33, 88, 20, 1),
        (0, 7, 12, 29, 40, 87, 16),
        (0, 0, 6, 19, 22, 52, 144),
    ),
    'nt partner need 3': (
        (0, 2, 0, 0, 0, 0, 0),
        (1, 6, 2, 2, 0, 0, 0),
        (0, 10, 14, 1, 1, 0, 0),
        (0, 1, 11, 10, 4, 1, 0),
        (0, 3, 6, 12, 24, 7, 0),
        (0, 2, 6, 8, 12, 16, 3),
        (0, 0, 3, 4, 5, 19, 27),
    ),
    'nt partner need 4': (
        (1, 1, 0, 0, 0, 0, 0),
        (2, 10, 2, 1, 0, 0, 0),
        (0, 2, 14, 5, 0, 2, 0),
        (0, 1, 15, 33, 8, 2, 0),
        (0, 1, 8, 16, 62, 12, 1),
        (0, 4, 6, 20, 27, 62, 12),
        (0, 0, 2, 15, 13, 29, 89),
    ),
    'nt partner need 5': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 2, 0, 1, 0, 0, 0),
        (0, 2, 3, 0, 0, 0, 0),
        (0, 0, 3, 5, 0, 0, 0),
        (0, 1, 2, 5, 2, 1, 0),
        (0, 1, 0, 1, 1, 9, 1),
        (0, 0, 1, 0, 3, 4, 27),
    ),
    'nt partner need 6': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 1, 0, 1),
    ),
    'trump exchange': (
        (0, 0, 0, 0, 0, 0, 0),
        (1, 2, 2, 1, 0, 0, 0),
        (0, 2, 17, 8, 2, 0, 0),
        (0, 0, 14, 73, 30, 3, 0),
        (0, 2, 2, 23, 235, 77, 3),
        (0, 0, 0, 1, 14, 463, 114),
        (0, 0, 0, 0, 0, 1, 429),
    ),
    'trump exchange need 3': (
        (0, 0, 0, 0, 0, 0, 0),
        (1, 2, 2, 1, 0, 0, 0),
        (0, 1, 12, 7, 1, 0, 0),
        (0, 0, 6, 52, 15, 2, 0),
        (0, 1, 0, 13, 87, 33, 3),
        (0, 0, 0, 1, 5, 79, 22),
        (0, 0, 0, 0, 0, 1, 27),
    ),
    'trump exchange need 4': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 5, 1, 1, 0, 0),
        (0, 0, 8, 21, 13, 1, 0),
        (0, 0, 2, 10, 140, 43, 0),
        (0, 0, 0, 0, 9, 344, 91),
        (0, 0, 0, 0, 0, 0, 245),
    ),
    'trump exchange need 5': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 2, 0, 0),
        (0, 1, 0, 0, 8, 1, 0),
        (0, 0, 0, 0, 0, 40, 1),
        (0, 0, 0, 0, 0, 0, 152),
    ),
    'trump exchange need 6': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 5),
    ),
    'trump partner': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 2, 0, 0, 0, 0),
        (0, 7, 36, 15, 3, 0, 0),
        (0, 4, 33, 164, 44, 4, 0),
        (0, 3, 10, 95, 343, 63, 0),
        (0, 0, 4, 43, 198, 398, 26),
        (0, 0, 1, 12, 81, 206, 416),
    ),
    'trump partner need 3': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 2, 0, 0, 0, 0),
        (0, 5, 24, 11, 2, 0, 0),
        (0, 2, 18, 68, 16, 0, 0),
        (0, 2, 9, 42, 87, 9, 0),
        (0, 0, 3, 19, 67, 97, 3),
        (0, 0, 1, 6, 17, 46, 42),
    ),
    'trump partner need 4': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 2, 12, 4, 1, 0, 0),
        (0, 2, 15, 96, 28, 4, 0),
        (0, 1, 1, 53, 249, 50, 0),
        (0, 0, 1, 24, 126, 228, 9),
        (0, 0, 0, 6, 62, 140, 254),
    ),
    'trump partner need 5': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 7, 4, 0),
        (0, 0, 0, 0, 5, 73, 14),
        (0, 0, 0, 0, 2, 20, 110),
    ),
    'trump partner need 6': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 10),
    ),
}


def kind_of(trump: int, way: str) -> str:
    """The calibration's kind for a trump (0-3, or 4 for no trump) and way of playing
    (``partner``, ``exchange``, ``alone`` for a big pepper, ``play`` in cutthroat)."""
    return f"{'nt' if trump == 4 else 'trump'} {way}"


NEED = " need {}"
"""Suffix of the rows measured on the contracts that needed that many tricks: how a hand
with n tricks double-dummy is played depends on what it must take (measured: a 5 with six
tricks double-dummy was made 98% of the time, while the rows of all contracts with six said
87%, as a 3 or a 4 that is safe plays on less hard for the rest; and a contract with no trick
to spare is made less often than one with tricks in hand at the same count)."""

LEAN_FLOOR = 4
"""The lowest bid whose row a higher bid's row leans on."""

SHRINK = 8.0
"""Weight, in contracts, of the row of all contracts in each row of one bid's contracts: a
bid's own row seen a few times leans on the pooled one."""


def smoothed(table: dict[str, tuple[tuple[int, ...], ...]], kind: str, n: int,
             need: int | None = None) -> tuple[float, ...]:
    """The chance of each final trick count (0-6) for a double-dummy count ``n`` by
    ``table``: the measured row of the kind, with :data:`PRIOR` contracts' weight on ``n``
    itself; with ``need`` (the tricks the bid needs), the row of that bid's contracts, with
    :data:`SHRINK` contracts' weight on the row of the bid below (down to
    :data:`LEAN_FLOOR`; below it, the kind's row), and for a bid never measured, the row of
    the bid below."""
    own = table.get(kind + NEED.format(need)) if need is not None else None
    if own is None and need is not None and need > LEAN_FLOOR:
        return smoothed(table, kind, n, need - 1)  # a bid never measured: the one below
    if own is None:
        row = table.get(kind)
        counts = [float(k) for k in row[n]] if row is not None else [0.0] * 7
        counts[n] += PRIOR
        total = sum(counts)
        return tuple(k / total for k in counts)
    assert need is not None
    # a bid's sparse row leans on the bid below it, played as hard (a 6 on a 5), down to 4;
    # below that, on all contracts of the kind
    lean = smoothed(table, kind, n, need - 1 if need > LEAN_FLOOR else None)
    mixed = [k + SHRINK * q for k, q in zip(own[n], lean, strict=True)]
    total = sum(mixed)
    return tuple(k / total for k in mixed)


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
    kind, and per kind for the contracts that needed each number of tricks (:data:`NEED`)."""
    table: dict[str, list[list[int]]] = {}
    for kind, n, m, need in records:
        for key in (kind, kind + NEED.format(need)):
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
