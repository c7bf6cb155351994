"""Do the advice's intervals hold across seeds? Two independent sets of deals, the same positions.

``python -m pepper_tutor.bench intervals`` deals random hands (a fixed seed), plays them with
the club player and takes, in turn, the decisions of every kind: a call, naming trumps or
the way of playing, the exchange (the discard or the partner's card), play or surrender,
and a card. Each decision is advised twice, over two independent seeds' deals
(200 deals by default), and every legal action is graded from both as the coach grades it
(:func:`~pepper_tutor.analysis.grading.grade_choice`): its loss against the best, with its
95% interval, and its grade.

It prints, per kind: the actions compared, how often the two seeds' intervals for the same
action overlap (the target is :data:`TARGET`, with the 95% interval of that share, the
decisions taken as clusters), how many actions move between Best or Good and Mistake or
Blunder from one seed to the other (the target is none), and the intervals' median
half-width. Honest intervals overlap about 99% of the time (two 95% intervals of one
figure miss each other only when the two estimates are some 2.8 standard errors apart).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..analysis.advice import SolvedDeals, advise
from ..analysis.grading import Grade, grade_choice
from ..analysis.players import make_player
from ..analysis.view import view_of
from ..engine.seats import Seat
from ..engine.state import HandState, Phase

__all__ = ["KINDS", "TARGET", "Compared", "positions", "compare", "summary", "main"]

TARGET = 0.95
"""The share of actions whose two seeds' intervals overlap, at least, in every kind."""

KINDS: dict[str, tuple[Phase, ...]] = {
    "call": (Phase.AUCTION,),
    "declare": (Phase.DECLARE_TRUMP, Phase.DECLARE_MODE),
    "exchange": (Phase.DISCARD, Phase.SEND),
    "defend": (Phase.DEFENSE,),
    "card": (Phase.PLAY,),
}
"""The kinds of decision measured, by the phases they are taken in."""

_GOOD = (Grade.BEST, Grade.GOOD)
_BAD = (Grade.MISTAKE, Grade.BLUNDER)
_Z95 = 1.959963984540054


def positions(kind: str, count: int, seed: int = 0) -> Iterator[HandState]:
    """``count`` decisions of ``kind`` from random hands played by the club player: in each
    hand, the first of that kind, or for a card one early, midway or late in turn."""
    phases = KINDS[kind]
    found = 0
    hand = 0
    while found < count:
        state = HandState.deal("standard", Seat(hand % 4), random.Random(seed * 100_003 + hand))
        club = make_player("club", hand)
        cards = 0
        while not state.is_terminal():
            if state.phase in phases:
                cards += 1
                if kind != "card" or cards == (2, 9, 16)[hand % 3]:
                    yield state.copy()
                    found += 1
                    break
            state.apply(club.decide(view_of(state)))
        hand += 1


@dataclass(frozen=True)
class Compared:
    """One action of one decision, read from two seeds' advice."""

    kind: str
    decision: int  # which decision of its kind
    action: str
    first: tuple[float, float]  # the loss interval with the first seed
    second: tuple[float, float]
    grades: tuple[Grade, Grade]

    @property
    def overlap(self) -> bool:
        return self.first[0] <= self.second[1] and self.second[0] <= self.first[1]

    @property
    def flips(self) -> bool:
        a, b = self.grades
        return (a in _GOOD and b in _BAD) or (a in _BAD and b in _GOOD)


def _graded(state: HandState, samples: int, seed: int
            ) -> dict[str, tuple[tuple[float, float], Grade]]:
    """Every legal action's loss interval and grade as the coach grades it
    (:func:`~pepper_tutor.analysis.grading.grade_choice`, on the one advice of the decision):
    the option's loss where the advice gives it, else the grade's interval."""
    solved = SolvedDeals()
    first = advise(state, samples=samples, seed=seed, solved=solved, drop_worse=False)
    out = {}
    for action in dict.fromkeys(state.legal_actions()):
        if first.choice(action) is None:
            continue
        grade, advice = grade_choice(state, action, samples, seed, solved, first)
        option = advice.choice(action)
        loss = option.loss if option is not None else None
        ends = (loss.low, loss.high) if loss is not None else (grade.low, grade.high)
        out[str(action)] = (ends, grade.grade)
    return out


def compare(kind: str, number: int, state: HandState, seeds: tuple[int, int],
            samples: int) -> list[Compared]:
    """Every legal action of one decision, its interval and grade under each seed."""
    first, second = (_graded(state, samples, s) for s in seeds)
    return [Compared(kind, number, action, a, second[action][0], (ga, second[action][1]))
            for action, (a, ga) in first.items() if action in second]


def summary(rows: Sequence[Compared]) -> dict[str, float]:
    """The share of overlapping intervals with its 95% interval (decisions as clusters),
    the actions that flip between good and bad grades, and the median half-width."""
    by_decision: dict[int, list[Compared]] = {}
    for r in rows:
        by_decision.setdefault(r.decision, []).append(r)
    n = len(rows)
    share = sum(r.overlap for r in rows) / n
    # ratio estimator over clusters: each decision's misses against its actions
    k = len(by_decision)
    mean_size = n / k
    resid = [sum(r.overlap for r in g) - share * len(g) for g in by_decision.values()]
    se = math.sqrt(sum(x * x for x in resid) / (k * (k - 1))) / mean_size if k > 1 else 0.0
    halves = [(r.first[1] - r.first[0]) / 2 for r in rows] + [
        (r.second[1] - r.second[0]) / 2 for r in rows]
    return {"decisions": k, "actions": n, "overlap": share, "low": share - _Z95 * se,
            "high": min(1.0, share + _Z95 * se), "flips": sum(r.flips for r in rows),
            "half": statistics.median(halves)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m pepper_tutor.bench intervals",
                                     description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--count", type=int, default=200, help="decisions of each kind")
    parser.add_argument("--samples", type=int, default=200, help="deals each advice deals")
    parser.add_argument("--seed", type=int, default=0, help="the random hands")
    parser.add_argument("--kinds", default=",".join(KINDS), help="kinds, comma-separated")
    parser.add_argument("--misses", action="store_true", help="print every miss and flip")
    args = parser.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    for kind in kinds:
        if kind not in KINDS:
            parser.error(f"no kind {kind!r}: {', '.join(KINDS)}")
    print(f"{'kind':<9} {'decisions':>9} {'actions':>7}  overlap (95%)          flips  "
          "half-width  time")
    for kind in kinds:
        start = time.perf_counter()
        rows: list[Compared] = []
        for i, state in enumerate(positions(kind, args.count, args.seed)):
            rows += compare(kind, i, state, (1, 2), args.samples)
        s = summary(rows)
        print(f"{kind:<9} {s['decisions']:>9} {s['actions']:>7}  {100 * s['overlap']:5.1f}% "
              f"({100 * s['low']:5.1f}-{100 * s['high']:5.1f}%)  {s['flips']:>5}  "
              f"{s['half']:10.2f}  {time.perf_counter() - start:.0f} s", flush=True)
        if args.misses:
            for r in rows:
                if not r.overlap or r.flips:
                    print(f"   #{r.decision} {r.action}: {r.first[0]:.2f}-{r.first[1]:.2f} "
                          f"{r.grades[0]} / {r.second[0]:.2f}-{r.second[1]:.2f} "
                          f"{r.grades[1]}", flush=True)


if __name__ == "__main__":
    main()
