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

from ..engine.calls import Bid

__all__ = ["TABLE", "PRIOR", "NEED", "PEPPER", "LITTLE_PEPPER_ROW", "row_of", "POOLED", "MADE",
           "LEAN_FLOOR", "SHRINK", "kind_of", "smoothed", "distribution", "sweep_chance", "fit",
           "table_source"]

PRIOR = 4.0
"""Weight, in contracts, of the double-dummy count in each smoothed row."""

# Measured by `python -m pepper_tutor.bench calibration --fit` (see the docs' analysis page),
# over 15,019 contracts played out by expert players on both sides (seeds 6, 7 and 8, the
# players of 2026-12-05; the contracts are tests/data/calibration-expert.jsonl): per kind,
# and per kind and the tricks the bid needed, per double-dummy count n (0-6), how many
# contracts ended with m tricks (0-6). Refit it when the players or the calling model
# change: the bench's "shipped gap" column shows the drift (the table fitted on 2,611
# contracts of an earlier auction put the 5s in a suit with partner 11 points above play).
TABLE: dict[str, tuple[tuple[int, ...], ...]] = {
    'nt exchange': (
        (9, 3, 0, 1, 0, 0, 0),
        (3, 54, 9, 4, 1, 1, 0),
        (2, 20, 93, 22, 10, 6, 1),
        (0, 10, 57, 178, 31, 24, 2),
        (0, 2, 9, 49, 330, 50, 16),
        (0, 0, 0, 5, 35, 380, 180),
        (0, 0, 0, 0, 0, 0, 397),
    ),
    'nt exchange little pepper': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 0, 2, 0, 0, 0),
        (0, 0, 0, 1, 7, 0, 1),
        (0, 0, 0, 0, 0, 12, 8),
        (0, 0, 0, 0, 0, 0, 37),
    ),
    'nt exchange need 3': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 2, 0, 0, 0, 0, 0),
        (0, 1, 12, 2, 1, 0, 0),
        (0, 1, 4, 22, 2, 1, 0),
        (0, 1, 1, 7, 41, 5, 3),
        (0, 0, 0, 2, 3, 14, 7),
        (0, 0, 0, 0, 0, 0, 14),
    ),
    'nt exchange need 4': (
        (4, 1, 0, 1, 0, 0, 0),
        (1, 18, 7, 2, 1, 1, 0),
        (1, 9, 40, 9, 2, 1, 0),
        (0, 7, 24, 79, 17, 13, 0),
        (0, 1, 4, 23, 131, 21, 3),
        (0, 0, 0, 3, 20, 131, 68),
        (0, 0, 0, 0, 0, 0, 84),
    ),
    'nt exchange need 5': (
        (4, 2, 0, 0, 0, 0, 0),
        (2, 30, 1, 2, 0, 0, 0),
        (1, 10, 38, 8, 6, 5, 1),
        (0, 1, 27, 64, 11, 8, 2),
        (0, 0, 4, 17, 130, 24, 8),
        (0, 0, 0, 0, 10, 196, 81),
        (0, 0, 0, 0, 0, 0, 218),
    ),
    'nt exchange need 6': (
        (1, 0, 0, 0, 0, 0, 0),
        (0, 4, 1, 0, 0, 0, 0),
        (0, 0, 3, 3, 1, 0, 0),
        (0, 0, 2, 11, 1, 2, 0),
        (0, 0, 0, 1, 21, 0, 1),
        (0, 0, 0, 0, 2, 27, 16),
        (0, 0, 0, 0, 0, 0, 44),
    ),
    'nt partner': (
        (22, 7, 2, 1, 0, 0, 0),
        (18, 68, 17, 5, 2, 0, 0),
        (6, 30, 125, 35, 13, 5, 0),
        (8, 23, 108, 217, 65, 14, 1),
        (3, 21, 65, 157, 558, 99, 14),
        (0, 8, 38, 91, 260, 585, 136),
        (0, 3, 18, 67, 128, 277, 864),
    ),
    'nt partner little pepper': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 1, 0, 0, 0, 0),
        (0, 0, 2, 1, 1, 0, 0),
        (1, 0, 0, 2, 8, 3, 1),
        (0, 0, 0, 2, 8, 11, 10),
        (0, 0, 0, 1, 2, 2, 67),
    ),
    'nt partner need 3': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 0, 0, 0, 0, 0),
        (0, 1, 9, 2, 0, 0, 0),
        (0, 1, 12, 18, 10, 1, 0),
        (0, 3, 5, 11, 27, 5, 0),
        (0, 1, 2, 10, 29, 29, 4),
        (0, 0, 2, 5, 14, 25, 67),
    ),
    'nt partner need 4': (
        (8, 0, 0, 1, 0, 0, 0),
        (6, 24, 5, 1, 0, 0, 0),
        (3, 12, 69, 17, 7, 5, 0),
        (3, 8, 50, 120, 32, 6, 1),
        (1, 10, 33, 98, 258, 55, 3),
        (0, 5, 20, 44, 137, 221, 33),
        (0, 2, 8, 35, 68, 124, 326),
    ),
    'nt partner need 5': (
        (13, 6, 2, 0, 0, 0, 0),
        (10, 35, 12, 4, 2, 0, 0),
        (3, 16, 44, 14, 6, 0, 0),
        (4, 13, 41, 74, 21, 6, 0),
        (0, 8, 22, 42, 234, 35, 7),
        (0, 2, 14, 33, 76, 295, 80),
        (0, 1, 7, 20, 41, 116, 347),
    ),
    'nt partner need 6': (
        (1, 1, 0, 0, 0, 0, 0),
        (2, 8, 0, 0, 0, 0, 0),
        (0, 1, 2, 2, 0, 0, 0),
        (1, 1, 3, 4, 1, 1, 0),
        (1, 0, 5, 4, 31, 1, 3),
        (0, 0, 2, 2, 10, 29, 9),
        (0, 0, 1, 6, 3, 10, 57),
    ),
    'trump exchange': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 6, 2, 0, 0, 0, 0),
        (0, 13, 28, 12, 0, 0, 0),
        (0, 6, 21, 150, 45, 2, 0),
        (0, 7, 6, 55, 467, 127, 1),
        (0, 0, 1, 1, 50, 806, 183),
        (0, 0, 0, 0, 0, 0, 598),
    ),
    'trump exchange little pepper': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 13, 3),
        (0, 0, 0, 0, 0, 0, 115),
    ),
    'trump exchange need 3': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 2, 6, 2, 0, 0, 0),
        (0, 0, 2, 28, 6, 1, 0),
        (0, 0, 1, 12, 58, 16, 1),
        (0, 0, 1, 0, 7, 57, 11),
        (0, 0, 0, 0, 0, 0, 23),
    ),
    'trump exchange need 4': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 3, 1, 0, 0, 0, 0),
        (0, 7, 15, 10, 0, 0, 0),
        (0, 3, 13, 87, 33, 0, 0),
        (0, 2, 0, 26, 246, 83, 0),
        (0, 0, 0, 1, 35, 265, 88),
        (0, 0, 0, 0, 0, 0, 114),
    ),
    'trump exchange need 5': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 2, 1, 0, 0, 0, 0),
        (0, 4, 7, 0, 0, 0, 0),
        (0, 3, 6, 32, 6, 1, 0),
        (0, 5, 5, 16, 148, 27, 0),
        (0, 0, 0, 0, 7, 399, 64),
        (0, 0, 0, 0, 0, 0, 255),
    ),
    'trump exchange need 6': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 3, 0, 0, 0),
        (0, 0, 0, 1, 15, 1, 0),
        (0, 0, 0, 0, 1, 72, 17),
        (0, 0, 0, 0, 0, 0, 91),
    ),
    'trump partner': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 2, 5, 1, 1, 0, 0),
        (0, 12, 77, 22, 1, 0, 0),
        (0, 14, 125, 391, 84, 5, 0),
        (0, 2, 37, 367, 900, 128, 1),
        (0, 0, 5, 110, 663, 1224, 69),
        (0, 0, 0, 24, 211, 624, 1149),
    ),
    'trump partner little pepper': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 1, 0),
        (0, 0, 0, 0, 7, 34, 8),
        (0, 0, 0, 0, 1, 29, 116),
    ),
    'trump partner need 3': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 1, 0, 0),
        (0, 1, 3, 2, 0, 0, 0),
        (0, 1, 8, 22, 5, 0, 0),
        (0, 0, 3, 30, 60, 9, 0),
        (0, 0, 1, 15, 53, 59, 3),
        (0, 0, 0, 4, 12, 35, 44),
    ),
    'trump partner need 4': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 2, 5, 1, 0, 0, 0),
        (0, 5, 51, 17, 1, 0, 0),
        (0, 6, 74, 233, 52, 1, 0),
        (0, 1, 23, 213, 428, 53, 0),
        (0, 0, 2, 62, 332, 454, 12),
        (0, 0, 0, 11, 112, 220, 348),
    ),
    'trump partner need 5': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 6, 23, 3, 0, 0, 0),
        (0, 7, 42, 130, 27, 4, 0),
        (0, 1, 11, 117, 373, 57, 1),
        (0, 0, 2, 31, 242, 604, 38),
        (0, 0, 0, 8, 79, 300, 542),
    ),
    'trump partner need 6': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 1, 6, 0, 0, 0),
        (0, 0, 0, 7, 39, 8, 0),
        (0, 0, 0, 2, 29, 73, 8),
        (0, 0, 0, 1, 7, 40, 99),
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

LITTLE_PEPPER_ROW = 7
"""The row number of the little peppers: they need six tricks, as a 6 does, but are kept
apart (suffix :data:`PEPPER`), leaning on the 6s' row. Read by one row over 15,019 expert
contracts, the 6s with partner were made 3.8 points less often than that row said and the
peppers 4.6 points more often: the hands behind the two bids are not played alike."""

PEPPER = " little pepper"
"""Suffix of the little peppers' rows (:data:`LITTLE_PEPPER_ROW`)."""


def row_of(bid: Bid) -> int:
    """The row a bid's contracts are read by: the tricks it needs, or
    :data:`LITTLE_PEPPER_ROW` for a little pepper."""
    return LITTLE_PEPPER_ROW if bid is Bid.LITTLE_PEPPER else bid.tricks


def _suffix(row: int) -> str:
    return PEPPER if row == LITTLE_PEPPER_ROW else NEED.format(row)

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
    itself; with ``need`` (the bid's row, :func:`row_of`: the tricks it needs, or the little
    peppers'), the row of that bid's contracts, with :data:`SHRINK` contracts' weight on the
    row of the bid below (the little peppers' on the 6s'; down to :data:`LEAN_FLOOR`; below
    it, the kind's row), and for a bid never measured, the row of the bid below."""
    own = _counts(table, kind + _suffix(need), n) if need is not None else None
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
    """Counts from ``(kind, double-dummy tricks, tricks taken, row)`` records (the row:
    :func:`row_of` the bid): per kind, and per kind for each row's contracts (the bids that
    needed each number of tricks, :data:`NEED`; the little peppers, :data:`PEPPER`)."""
    table: dict[str, list[list[int]]] = {}
    for kind, n, m, need in records:
        for key in (kind, kind + _suffix(need)):
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
