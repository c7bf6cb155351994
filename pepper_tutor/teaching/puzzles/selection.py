"""Which mined puzzles the bank ships: every kind's answers spread so no guess gives them.

Per kind, no class of answer (:func:`~.classes.class_of`) may answer more than
:data:`CAP` of the kind's puzzles, and the highest legal card at most :data:`HIGHEST_CAP`
of the play puzzles ("play high" is the first thing a new player tries). Where a class has
more, the bank keeps as many of it as the cap allows and holds the rest back, chosen by a
lottery on the puzzles' ids (a hash: no puzzle's figures, theme or place in the file weighs
in); a kind with one class only (the card sent in the exchange, its answer the top trump) is
held back whole and left to the drills. The selection is a function of the set of puzzles
mined, so the same runs in any order ship the same bank; the held puzzles stay in the file
(``held``), and a later run's rarer answers bring some of them back.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from .classes import class_of
from .puzzle import position_of

__all__ = ["CAP", "HIGHEST_CAP", "cap_of", "lot", "select"]

CAP = Fraction(3, 4)  # the most of a kind's puzzles one class of answer may answer
HIGHEST_CAP = Fraction(1, 2)  # ... and the highest legal card, of the play puzzles


def cap_of(kind: str, answer_class: str) -> Fraction:
    return HIGHEST_CAP if (kind, answer_class) == ("play", "the highest card") else CAP


def lot(puzzle_id: str) -> bytes:
    """A puzzle's place in the lottery: a hash of its id."""
    return hashlib.sha256(f"lottery:{puzzle_id}".encode()).digest()


def _class(p: Mapping[str, Any]) -> str:
    return class_of(p["kind"], position_of(p["record"]), p["answers"])


def select(puzzles: Sequence[Mapping[str, Any]]) -> tuple[list[Mapping[str, Any]],
                                                           list[Mapping[str, Any]]]:
    """The puzzles kept (each class within its cap) and those held back, each in the
    order given."""
    groups: dict[str, dict[str, list[Mapping[str, Any]]]] = {}
    for p in puzzles:
        groups.setdefault(p["kind"], {}).setdefault(_class(p), []).append(p)
    held: set[str] = set()
    for kind, classes in groups.items():
        for members in classes.values():
            members.sort(key=lambda p: lot(p["id"]))
        while True:
            total = sum(len(m) for m in classes.values())
            over = [c for c, m in classes.items() if len(m) > cap_of(kind, c) * total]
            if not over:
                break
            worst = max(over, key=lambda c: (len(classes[c]), c))
            cap = cap_of(kind, worst)
            others = total - len(classes[worst])
            allowed = int(cap * others / (1 - cap))  # n <= cap * (others + n)
            held.update(p["id"] for p in classes[worst][allowed:])
            classes[worst] = classes[worst][:allowed]
    return ([p for p in puzzles if p["id"] not in held],
            [p for p in puzzles if p["id"] in held])
