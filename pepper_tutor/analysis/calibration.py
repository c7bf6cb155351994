"""How contracts go when they are played by people who cannot see the cards.

The advice solves each sampled deal double-dummy: every seat plays as if it saw all four
hands. At the table nobody does, and that flatters the side that needs every trick most (a
bidder in no trump, or in a pepper, must guess where the missing cards are). Rather than
play every sampled deal out card by card (far too slow for advice given while a learner
waits), the advice corrects the double-dummy trick count by a measured calibration:

    P(the side takes m tricks | the double-dummy count is n, the kind of contract)

measured by the bench (``python -m pepper_tutor.bench calibration``): the strongest computer
players (:mod:`.players`, expert level, on both sides: every card, the exchange and the
defense by sampled double-dummy advice over deals that follow the calls, each seat seeing
only what it may) play thousands of contracts out, and each contract's double-dummy count on
the real deal, at the first lead, is set beside the tricks the bidders really took. So the
table says how often strong players who cannot see the cards lose what double-dummy play
makes, or make what it loses; it is not a measure of a weaker player's slips. The kinds are
no trump or a trump suit, by way of playing: with the partner, alone with the exchange,
alone without one (a big pepper), or everyone for themselves (cutthroat, not measured: taken
as double-dummy). Where double-dummy play makes a bid both with the partner and alone with
the exchange on every deal sampled, the advice values both by one row (:data:`MADE`): the
same count reads the same either way, and the choice stays double-dummy play's.

:data:`TABLE` holds the measured counts; :func:`distribution` smooths each row towards the
double-dummy count (a row seen a few times says little), and :func:`sweep_chance` gives the
chance of taking all six, for the big pepper columns, which are solved only for the sweep.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

__all__ = ["TABLE", "PRIOR", "NEED", "POOLED", "MADE", "LEAN_FLOOR", "SHRINK", "kind_of",
           "smoothed", "distribution", "sweep_chance", "fit", "table_source"]

PRIOR = 4.0
"""Weight, in contracts, of the double-dummy count in each smoothed row."""

# Measured by `python -m pepper_tutor.bench calibration --fit` (see the docs' analysis page),
# over 2,611 contracts played out by expert players on both sides (seed 3; the contracts are
# tests/data/calibration-expert.jsonl): per kind, and per kind and the tricks the bid needed,
# per double-dummy count n (0-6), how many contracts ended with m tricks (0-6).
TABLE: dict[str, tuple[tuple[int, ...], ...]] = {
    'nt exchange': (
        (5, 1, 0, 0, 0, 0, 0),
        (0, 7, 1, 1, 0, 0, 0),
        (1, 3, 11, 1, 1, 1, 0),
        (0, 1, 8, 23, 3, 4, 0),
        (0, 0, 1, 11, 60, 6, 5),
        (0, 0, 0, 0, 5, 54, 24),
        (0, 0, 0, 0, 0, 0, 73),
    ),
    'nt exchange need 3': (
        (3, 1, 0, 0, 0, 0, 0),
        (0, 5, 1, 1, 0, 0, 0),
        (0, 2, 5, 1, 0, 0, 0),
        (0, 0, 4, 13, 0, 0, 0),
        (0, 0, 0, 7, 12, 3, 0),
        (0, 0, 0, 0, 2, 15, 5),
        (0, 0, 0, 0, 0, 0, 5),
    ),
    'nt exchange need 4': (
        (2, 0, 0, 0, 0, 0, 0),
        (0, 2, 0, 0, 0, 0, 0),
        (1, 1, 6, 0, 1, 1, 0),
        (0, 1, 3, 10, 3, 4, 0),
        (0, 0, 1, 3, 45, 1, 5),
        (0, 0, 0, 0, 2, 31, 15),
        (0, 0, 0, 0, 0, 0, 39),
    ),
    'nt exchange need 5': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 1, 0, 0, 0, 0),
        (0, 0, 0, 1, 3, 2, 0),
        (0, 0, 0, 0, 1, 8, 4),
        (0, 0, 0, 0, 0, 0, 29),
    ),
    'nt partner': (
        (2, 0, 1, 0, 0, 0, 0),
        (1, 10, 3, 2, 0, 0, 0),
        (1, 5, 20, 7, 2, 0, 0),
        (0, 1, 13, 33, 6, 1, 0),
        (0, 5, 11, 21, 80, 12, 3),
        (0, 1, 4, 13, 35, 81, 24),
        (0, 0, 2, 8, 25, 42, 165),
    ),
    'nt partner need 3': (
        (0, 0, 1, 0, 0, 0, 0),
        (0, 2, 1, 1, 0, 0, 0),
        (1, 2, 11, 3, 2, 0, 0),
        (0, 0, 3, 14, 3, 1, 0),
        (0, 3, 3, 8, 23, 2, 1),
        (0, 1, 0, 6, 11, 18, 2),
        (0, 0, 0, 3, 8, 7, 29),
    ),
    'nt partner need 4': (
        (2, 0, 0, 0, 0, 0, 0),
        (1, 6, 2, 1, 0, 0, 0),
        (0, 3, 8, 4, 0, 0, 0),
        (0, 1, 9, 16, 3, 0, 0),
        (0, 1, 4, 12, 57, 10, 2),
        (0, 0, 3, 7, 24, 46, 12),
        (0, 0, 2, 4, 16, 29, 93),
    ),
    'nt partner need 5': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 2, 0, 0, 0, 0, 0),
        (0, 0, 1, 0, 0, 0, 0),
        (0, 0, 1, 3, 0, 0, 0),
        (0, 1, 4, 1, 0, 0, 0),
        (0, 0, 1, 0, 0, 16, 9),
        (0, 0, 0, 1, 1, 6, 43),
    ),
    'nt partner need 6': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 1, 1),
        (0, 0, 0, 0, 0, 0, 0),
    ),
    'trump exchange': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 2, 9, 3, 3, 0, 0),
        (0, 1, 7, 40, 6, 1, 0),
        (0, 1, 2, 10, 117, 18, 1),
        (0, 0, 0, 1, 4, 120, 27),
        (0, 0, 0, 0, 0, 1, 65),
    ),
    'trump exchange need 3': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 6, 2, 3, 0, 0),
        (0, 1, 4, 29, 4, 0, 0),
        (0, 0, 2, 5, 55, 14, 1),
        (0, 0, 0, 1, 3, 38, 9),
        (0, 0, 0, 0, 0, 1, 15),
    ),
    'trump exchange need 4': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 3, 1, 0, 0, 0),
        (0, 0, 2, 10, 2, 1, 0),
        (0, 1, 0, 4, 59, 4, 0),
        (0, 0, 0, 0, 1, 80, 18),
        (0, 0, 0, 0, 0, 0, 34),
    ),
    'trump exchange need 5': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 1, 1, 0, 0, 0),
        (0, 0, 0, 1, 3, 0, 0),
        (0, 0, 0, 0, 0, 2, 0),
        (0, 0, 0, 0, 0, 0, 16),
    ),
    'trump partner': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 1, 0, 0, 0, 0),
        (0, 6, 15, 8, 0, 0, 0),
        (0, 3, 19, 79, 15, 1, 0),
        (0, 1, 6, 43, 183, 20, 1),
        (0, 0, 1, 31, 121, 230, 11),
        (0, 0, 0, 4, 41, 106, 274),
    ),
    'trump partner need 3': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 1, 0, 0, 0, 0),
        (0, 3, 12, 4, 0, 0, 0),
        (0, 2, 12, 39, 7, 1, 0),
        (0, 0, 3, 18, 55, 2, 0),
        (0, 0, 0, 9, 39, 54, 1),
        (0, 0, 0, 3, 9, 17, 32),
    ),
    'trump partner need 4': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 3, 3, 4, 0, 0, 0),
        (0, 1, 7, 40, 8, 0, 0),
        (0, 1, 3, 25, 125, 18, 1),
        (0, 0, 1, 22, 82, 144, 5),
        (0, 0, 0, 1, 32, 79, 182),
    ),
    'trump partner need 5': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 3, 0, 0),
        (0, 0, 0, 0, 0, 31, 5),
        (0, 0, 0, 0, 0, 10, 53),
    ),
    'trump partner need 6': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 1, 0),
        (0, 0, 0, 0, 0, 0, 7),
    ),
}


def kind_of(trump: int, way: str) -> str:
    """The calibration's kind for a trump (0-3, or 4 for no trump) and way of playing
    (``partner``, ``exchange``, ``alone`` for a big pepper, ``play`` in cutthroat, or
    :data:`MADE`)."""
    return f"{'nt' if trump == 4 else 'trump'} {way}"


NEED = " need {}"
"""Suffix of the rows measured on the contracts that needed that many tricks: how a hand
with n tricks double-dummy is played depends on what it must take (measured: a 5 with six
tricks double-dummy was made 98% of the time, while the rows of all contracts with six said
87%, as a 3 or a 4 that is safe plays on less hard for the rest; and a contract with no trick
to spare is made less often than one with tricks in hand at the same count)."""

LEAN_FLOOR = 4
"""The lowest bid whose row a higher bid's row leans on."""

SHRINK = 2.0
"""Weight, in contracts, of the row a bid's own row leans on (the bid below's, or all the
kind's): a bid's row seen a few times leans on it. (8 with the club players' table; with the
expert's, 8 put the 5s 4.0 points under their make rate in play, 2 puts them 1.5 under.)"""


POOLED = ("partner", "exchange")
"""The ways of playing one row serves where double-dummy play makes the contract both ways
(the kind :data:`MADE`)."""

MADE = "made"
"""The way of a kind (``trump made``, ``nt made``) whose rows are the :data:`POOLED` ways'
summed: the advice values a trump's contracts by it where double-dummy play makes the bid
on every deal with the partner and alone with the exchange alike, so that the calibration
cannot turn that choice. (The expert's partner contracts with a trick to spare double-dummy
are lost a little more often than its exchange ones, 6.6% against 1.0% in a suit: read per
way, that turned choices where double-dummy play put the partner ahead by 0.4 into the
exchange ahead by 1.0; see the docs' analysis page.)"""


def _counts(table: dict[str, tuple[tuple[int, ...], ...]], key: str, n: int
            ) -> list[float] | None:
    """Row ``n`` of ``key`` in ``table`` (of a :data:`MADE` kind: the :data:`POOLED` ways'
    rows summed), or ``None`` where it was never measured."""
    trump, _, rest = key.partition(" ")
    way, _, suffix = rest.partition(" ")
    keys = [" ".join(filter(None, (trump, w, suffix))) for w in POOLED] if way == MADE \
        else [key]
    rows = [table[k] for k in keys if k in table]
    if not rows:
        return None
    return [float(sum(r[n][m] for r in rows)) for m in range(7)]


def smoothed(table: dict[str, tuple[tuple[int, ...], ...]], kind: str, n: int,
             need: int | None = None) -> tuple[float, ...]:
    """The chance of each final trick count (0-6) for a double-dummy count ``n`` by
    ``table``: the measured row of the kind, with :data:`PRIOR` contracts' weight on ``n``
    itself; with ``need`` (the tricks the bid needs), the row of that bid's contracts, with
    :data:`SHRINK` contracts' weight on the row of the bid below (down to
    :data:`LEAN_FLOOR`; below it, the kind's row), and for a bid never measured, the row of
    the bid below."""
    own = _counts(table, kind + NEED.format(need), n) if need is not None else None
    if own is None and need is not None and need > LEAN_FLOOR:
        return smoothed(table, kind, n, need - 1)  # a bid never measured: the one below
    if own is None:
        counts = _counts(table, kind, n) or [0.0] * 7
        counts[n] += PRIOR
        total = sum(counts)
        return tuple(k / total for k in counts)
    assert need is not None
    # a bid's sparse row leans on the bid below it, played as hard (a 6 on a 5), down to 4;
    # below that, on all contracts of the kind
    lean = smoothed(table, kind, n, need - 1 if need > LEAN_FLOOR else None)
    mixed = [k + SHRINK * q for k, q in zip(own, lean, strict=True)]
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
