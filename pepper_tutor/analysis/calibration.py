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
the exchange on every deal sampled, the advice values both by one row (:data:`MADE`,
measured on such contracts played alone): the same count reads the same either way, and the
choice stays double-dummy play's.

:data:`TABLE` holds the measured counts; :func:`distribution` smooths each row towards the
double-dummy count (a row seen a few times says little), and :func:`sweep_chance` gives the
chance of taking all six, for the big pepper columns, which are solved only for the sweep.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from ..engine.calls import Bid

__all__ = ["TABLE", "PRIOR", "NEED", "PEPPER", "LITTLE_PEPPER_ROW", "row_of", "POOLED", "MADE",
           "LEAN_FLOOR", "SHRINK", "Record", "kind_of", "smoothed", "distribution", "sweep_chance",
           "fit", "table_source"]

PRIOR = 4.0
"""Weight, in contracts, of the double-dummy count in each smoothed row."""

# Measured by `python -m pepper_tutor.bench calibration --fit` (see the docs' analysis page),
# over 15,016 contracts played out by expert players on both sides (seeds 6, 7 and 8, the
# players of 2026-12-05, each contract with the other way's double-dummy count; the
# contracts are tests/data/calibration-expert.jsonl): per kind, and per kind and the tricks
# the bid needed, per double-dummy count n (0-6), how many contracts ended with m tricks
# (0-6); the MADE kinds from those made both ways double-dummy, played alone. Refit it when
# the players or the calling model change: the bench's "shipped gap" column shows the drift
# (the table fitted on 2,611 contracts of an earlier auction put the 5s in a suit with
# partner 11 points above play).
TABLE: dict[str, tuple[tuple[int, ...], ...]] = {
    'nt exchange': (
        (9, 3, 0, 1, 0, 0, 0),
        (3, 50, 9, 3, 0, 1, 0),
        (2, 16, 91, 23, 11, 5, 1),
        (0, 9, 55, 171, 28, 20, 1),
        (0, 2, 9, 47, 312, 50, 16),
        (0, 0, 0, 3, 31, 357, 165),
        (0, 0, 0, 0, 0, 0, 373),
    ),
    'nt exchange little pepper': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 0, 2, 0, 0, 0),
        (0, 0, 0, 1, 7, 0, 1),
        (0, 0, 0, 0, 0, 10, 8),
        (0, 0, 0, 0, 0, 0, 38),
    ),
    'nt exchange need 3': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 0, 0, 0, 0, 0),
        (0, 1, 12, 2, 1, 0, 0),
        (0, 1, 3, 19, 0, 1, 0),
        (0, 1, 1, 7, 38, 5, 3),
        (0, 0, 0, 0, 3, 17, 5),
        (0, 0, 0, 0, 0, 0, 13),
    ),
    'nt exchange need 4': (
        (4, 1, 0, 1, 0, 0, 0),
        (1, 17, 7, 2, 0, 1, 0),
        (1, 6, 40, 10, 3, 0, 0),
        (0, 6, 24, 80, 16, 11, 0),
        (0, 1, 4, 22, 128, 21, 4),
        (0, 0, 0, 3, 19, 134, 64),
        (0, 0, 0, 0, 0, 0, 97),
    ),
    'nt exchange need 5': (
        (4, 2, 0, 0, 0, 0, 0),
        (2, 28, 1, 1, 0, 0, 0),
        (1, 9, 36, 8, 6, 5, 1),
        (0, 1, 27, 61, 11, 6, 1),
        (0, 0, 4, 16, 118, 23, 7),
        (0, 0, 0, 0, 8, 172, 75),
        (0, 0, 0, 0, 0, 0, 185),
    ),
    'nt exchange need 6': (
        (1, 0, 0, 0, 0, 0, 0),
        (0, 4, 1, 0, 0, 0, 0),
        (0, 0, 3, 3, 1, 0, 0),
        (0, 0, 1, 9, 1, 2, 0),
        (0, 0, 0, 1, 21, 1, 1),
        (0, 0, 0, 0, 1, 24, 13),
        (0, 0, 0, 0, 0, 0, 40),
    ),
    'nt made': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 3, 18, 0, 1, 0),
        (0, 2, 5, 27, 142, 23, 6),
        (0, 0, 0, 3, 27, 277, 126),
        (0, 0, 0, 0, 0, 0, 347),
    ),
    'nt made little pepper': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 29),
    ),
    'nt made need 3': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 3, 18, 0, 1, 0),
        (0, 1, 1, 7, 37, 5, 3),
        (0, 0, 0, 0, 3, 17, 5),
        (0, 0, 0, 0, 0, 0, 13),
    ),
    'nt made need 4': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 4, 20, 105, 18, 3),
        (0, 0, 0, 3, 19, 134, 63),
        (0, 0, 0, 0, 0, 0, 97),
    ),
    'nt made need 5': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 5, 126, 58),
        (0, 0, 0, 0, 0, 0, 184),
    ),
    'nt made need 6': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 24),
    ),
    'nt partner': (
        (22, 7, 2, 1, 0, 0, 0),
        (18, 65, 16, 3, 2, 0, 0),
        (6, 30, 115, 30, 12, 3, 0),
        (6, 21, 107, 202, 63, 12, 0),
        (3, 21, 66, 146, 519, 89, 10),
        (0, 8, 34, 87, 237, 563, 133),
        (0, 3, 19, 68, 126, 289, 904),
    ),
    'nt partner little pepper': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 1, 0, 0, 0, 0),
        (0, 0, 2, 1, 1, 0, 0),
        (1, 0, 0, 2, 7, 3, 1),
        (0, 0, 0, 2, 8, 11, 11),
        (0, 0, 0, 1, 2, 2, 65),
    ),
    'nt partner need 3': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 0, 0, 0, 0, 0),
        (0, 1, 8, 2, 0, 0, 0),
        (0, 1, 12, 15, 8, 1, 0),
        (0, 3, 5, 11, 29, 5, 0),
        (0, 1, 2, 6, 28, 28, 4),
        (0, 0, 4, 5, 13, 23, 61),
    ),
    'nt partner need 4': (
        (8, 0, 0, 1, 0, 0, 0),
        (6, 21, 4, 0, 0, 0, 0),
        (3, 12, 62, 13, 7, 3, 0),
        (2, 7, 45, 106, 31, 5, 0),
        (1, 9, 30, 90, 217, 46, 2),
        (0, 5, 17, 44, 112, 206, 35),
        (0, 2, 7, 32, 60, 121, 316),
    ),
    'nt partner need 5': (
        (13, 6, 2, 0, 0, 0, 0),
        (10, 35, 12, 3, 2, 0, 0),
        (3, 16, 42, 13, 5, 0, 0),
        (3, 13, 45, 76, 22, 5, 0),
        (0, 9, 26, 41, 238, 34, 5),
        (0, 2, 13, 32, 80, 290, 75),
        (0, 1, 8, 25, 48, 130, 412),
    ),
    'nt partner need 6': (
        (1, 1, 0, 0, 0, 0, 0),
        (2, 8, 0, 0, 0, 0, 0),
        (0, 1, 2, 2, 0, 0, 0),
        (1, 0, 3, 4, 1, 1, 0),
        (1, 0, 5, 2, 28, 1, 2),
        (0, 0, 2, 3, 9, 28, 8),
        (0, 0, 0, 5, 3, 13, 50),
    ),
    'trump exchange': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 6, 2, 0, 0, 0, 0),
        (0, 11, 33, 12, 0, 0, 0),
        (0, 5, 23, 150, 46, 3, 0),
        (0, 6, 4, 53, 464, 125, 3),
        (0, 0, 1, 1, 49, 762, 174),
        (0, 0, 0, 0, 0, 0, 530),
    ),
    'trump exchange little pepper': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 10, 3),
        (0, 0, 0, 0, 0, 0, 102),
    ),
    'trump exchange need 3': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 0, 0, 0, 0, 0),
        (0, 1, 8, 3, 0, 0, 0),
        (0, 0, 3, 26, 4, 1, 0),
        (0, 0, 0, 11, 60, 15, 2),
        (0, 0, 1, 0, 10, 51, 10),
        (0, 0, 0, 0, 0, 0, 18),
    ),
    'trump exchange need 4': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 2, 1, 0, 0, 0, 0),
        (0, 6, 17, 9, 0, 0, 0),
        (0, 2, 15, 91, 35, 1, 0),
        (0, 1, 0, 26, 245, 80, 1),
        (0, 0, 0, 1, 31, 268, 88),
        (0, 0, 0, 0, 0, 0, 103),
    ),
    'trump exchange need 5': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 2, 1, 0, 0, 0, 0),
        (0, 4, 8, 0, 0, 0, 0),
        (0, 3, 5, 30, 7, 1, 0),
        (0, 5, 3, 15, 142, 28, 0),
        (0, 0, 0, 0, 7, 378, 61),
        (0, 0, 0, 0, 0, 0, 219),
    ),
    'trump exchange need 6': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 3, 0, 0, 0),
        (0, 0, 1, 1, 17, 2, 0),
        (0, 0, 0, 0, 1, 55, 12),
        (0, 0, 0, 0, 0, 0, 88),
    ),
    'trump made': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 3, 25, 4, 1, 0),
        (0, 0, 0, 29, 243, 80, 3),
        (0, 0, 1, 1, 39, 548, 143),
        (0, 0, 0, 0, 0, 0, 465),
    ),
    'trump made little pepper': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 67),
    ),
    'trump made need 3': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 3, 25, 4, 1, 0),
        (0, 0, 0, 10, 60, 15, 2),
        (0, 0, 1, 0, 10, 50, 10),
        (0, 0, 0, 0, 0, 0, 18),
    ),
    'trump made need 4': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 19, 183, 65, 1),
        (0, 0, 0, 1, 25, 265, 88),
        (0, 0, 0, 0, 0, 0, 99),
    ),
    'trump made need 5': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 4, 233, 45),
        (0, 0, 0, 0, 0, 0, 218),
    ),
    'trump made need 6': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 63),
    ),
    'trump partner': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 6, 3, 1, 1, 0, 0),
        (0, 15, 78, 24, 1, 0, 0),
        (0, 13, 131, 402, 98, 4, 0),
        (0, 2, 49, 359, 936, 121, 1),
        (0, 0, 7, 117, 666, 1322, 72),
        (0, 0, 1, 25, 223, 642, 1288),
    ),
    'trump partner little pepper': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 1, 0),
        (0, 0, 0, 0, 7, 33, 6),
        (0, 0, 0, 0, 2, 27, 109),
    ),
    'trump partner need 3': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 1, 0, 0),
        (0, 1, 6, 1, 0, 0, 0),
        (0, 1, 8, 21, 7, 0, 0),
        (0, 0, 2, 36, 50, 9, 0),
        (0, 0, 1, 16, 52, 63, 1),
        (0, 0, 0, 6, 12, 34, 40),
    ),
    'trump partner need 4': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 3, 3, 1, 0, 0, 0),
        (0, 6, 51, 19, 1, 0, 0),
        (0, 6, 80, 244, 61, 1, 0),
        (0, 2, 30, 205, 442, 54, 0),
        (0, 0, 3, 59, 328, 463, 13),
        (0, 0, 1, 12, 107, 216, 360),
    ),
    'trump partner need 5': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 1, 0, 0, 0, 0, 0),
        (0, 8, 21, 4, 0, 0, 0),
        (0, 6, 40, 131, 30, 3, 0),
        (0, 0, 16, 116, 409, 48, 1),
        (0, 0, 3, 40, 251, 685, 42),
        (0, 0, 0, 6, 96, 329, 676),
    ),
    'trump partner need 6': (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 2, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 3, 6, 0, 0, 0),
        (0, 0, 1, 2, 35, 9, 0),
        (0, 0, 0, 2, 28, 78, 10),
        (0, 0, 0, 1, 6, 36, 103),
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
"""The way of a kind (``trump made``, ``nt made``) the advice values a trump's contracts by
where double-dummy play makes the bid on every deal with the partner and alone with the
exchange alike, whichever way is played, so that the calibration cannot turn that choice.
Its rows are measured on the contracts they stand for: those double-dummy play made both
ways on the real deal, played alone with the exchange (:func:`fit`); a kind never measured
so reads the exchange's rows.

Why the exchange's play, for both ways: read by the partner's own row, the choice would
turn. The expert's partner contracts made both ways are lost far more often than alone
(15,016 contracts, seeds 6-8: at five tricks double-dummy in a suit, 16% lost with the
partner against 1% alone), for what double-dummy play sees and the partners do not: the
bidder leads its right bower and fells the partner's lone left bower, or the partner, not
seeing that the bidder's trumps have drawn the defenders', throws its aces away. A choice
double-dummy play makes certain both ways is kept as its choice, so both ways read one row;
the exchange's, so that a contract sure both ways reads as well as one sure only alone. The
price: where both are sure, the partner is read as if it played as well as the bidder alone
(the bench prints how far that is from play). The two ways' rows summed (this kind until
2026-12) fared worse: partner's sweeps dragged the summed row to 67% of six-trick deals
swept, so a contract sure both ways was marked below one that was not, which kept the
exchange's own row (100%)."""


def _counts(table: dict[str, tuple[tuple[int, ...], ...]], key: str, n: int
            ) -> list[float] | None:
    """Row ``n`` of ``key`` in ``table``, or ``None`` where it was never measured. A
    :data:`MADE` kind's row never measured at ``n`` (below the bid, a count no contract made
    both ways can have) is the exchange's."""
    trump, _, rest = key.partition(" ")
    way, _, suffix = rest.partition(" ")
    if way == MADE and not any(table[key][n] if key in table else ()):
        key = " ".join(filter(None, (trump, POOLED[1], suffix)))
    if key not in table:
        return None
    return [float(k) for k in table[key][n]]


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


Record = tuple[str, int, int, int] | tuple[str, int, int, int, bool]
"""A contract for :func:`fit`: its kind, double-dummy tricks, tricks taken and row
(:func:`row_of` the bid), and whether double-dummy play made the bid both ways on its deal
(``False`` when left out)."""


def fit(records: Iterable[Record]) -> dict[str, tuple[tuple[int, ...], ...]]:
    """Counts from contracts (:data:`Record`): per kind, and per kind for each row's
    contracts (the bids that needed each number of tricks, :data:`NEED`; the little peppers,
    :data:`PEPPER`); and the :data:`MADE` kinds, from the contracts made both ways
    double-dummy that were played alone with the exchange."""
    table: dict[str, list[list[int]]] = {}
    for kind, n, m, need, *both in records:
        keys = [kind, kind + _suffix(need)]
        trump, _, way = kind.partition(" ")
        if both and both[0] and way == POOLED[1]:
            keys += [f"{trump} {MADE}", f"{trump} {MADE}{_suffix(need)}"]
        for key in keys:
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
