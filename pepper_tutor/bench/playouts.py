"""Do the puzzles' answers hold when the hands are played out? A valuation the bank did not make.

``python -m pepper_tutor.bench playouts`` takes shipped puzzles (a lottery on their ids, the
same share of every kind) and plays each one out twice from its decision, once after the
answer and once after the tempting answer, over the same deals and the same players, and
compares the puzzle seat's side's points. The deals are the puzzle's own cards and then
fresh deals of the cards its seat cannot see, consistent with what the seat has seen and
weighted by what the calls say (:func:`~pepper_tutor.analysis.inference.deal_for_view`: a
deal that ignored the calls would give a bidder of 5 alone a random hand, and every defense
would look worth playing); every later decision is made by the players of ``--level`` (any
level of the strength ladder: the reference player of table tips shares no code with the
analysis, the all-seeing ceiling plays the rest of the hand double-dummy). The answer was
chosen by sampled double-dummy advice, every option valued on the same deals and the rest of
the hand played double-dummy; here it meets the game as players of that level play it, on
deals the advice never drew.

Per kind: how many puzzles, the share whose answer scored at least as much as the tempting
answer, the mean gain a puzzle (points a hand) with its 95% interval over the puzzles, and the
puzzles where the tempting answer did clearly better (its paired 95% interval above zero).
Every deal is seeded from the seed, the puzzle and the deal's index, so the figures are the
same on any executor.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import math
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..analysis.executors import DEFAULT_EXECUTOR, ExecutorError, open_executor, parse_executor
from ..analysis.playing_out import LADDER, PlayedOut, play_out
from ..teaching.puzzles.bank import bank_puzzles
from ..teaching.puzzles.puzzle import Puzzle, parse_action
from .tournament import _run

__all__ = ["Playout", "PlayoutTask", "playout", "sample", "summary", "main"]

_Z95 = 1.959963984540054


@dataclass(frozen=True)
class PlayoutTask:
    """One puzzle played out over ``deals`` deals: the unit of work."""

    puzzle: str  # its id
    deals: int
    level: str
    seed: int


@dataclass(frozen=True)
class Playout(PlayedOut):
    """A puzzle's paired figures: the answer's points less the tempting answer's, a deal."""

    puzzle: str = ""
    kind: str = ""


def _puzzle(pid: str) -> Puzzle:
    return next(p for p in bank_puzzles() if p.id == pid)


def playout(task: PlayoutTask) -> Playout:
    """The puzzle of ``task`` played out from its answer and its tempting answer."""
    puzzle = _puzzle(task.puzzle)
    played = play_out(puzzle.position(), parse_action(puzzle.kind, puzzle.answers[0]),
                      parse_action(puzzle.kind, puzzle.tempting), task.deals,
                      f"{task.seed}/{puzzle.id}", task.level)
    return Playout(played.diffs, puzzle.id, puzzle.kind)


def sample(puzzles: Sequence[Puzzle], share: float) -> list[Puzzle]:
    """About ``share`` of each kind's puzzles, chosen by a lottery on their ids."""
    def ticket(p: Puzzle) -> float:
        return int.from_bytes(hashlib.sha256(p.id.encode()).digest()[:8], "big") / 2 ** 64

    return [p for p in puzzles if ticket(p) < share]


def summary(rows: Sequence[Playout]) -> dict[str, float]:
    """The kind's figures: puzzles, the share held, the mean gain and its interval, the
    contradicted."""
    gains = [r.mean for r in rows]
    mean = statistics.fmean(gains)
    half = _Z95 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else 0.0
    return {"puzzles": len(rows), "held": sum(g >= 0 for g in gains) / len(rows),
            "mean": mean, "low": mean - half, "high": mean + half,
            "contradicted": sum(r.contradicted for r in rows)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m pepper_tutor.bench playouts",
                                     description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--share", type=float, default=0.1, help="share of each kind's puzzles")
    parser.add_argument("--deals", type=int, default=24, help="deals a puzzle")
    parser.add_argument("--level", default="club", choices=LADDER,
                        help="who plays the rest of the hand")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--executor", default=DEFAULT_EXECUTOR,
                        help="local, local:N, dask-local:N or dask://HOST:PORT")
    parser.add_argument("--contradicted", action="store_true",
                        help="list each puzzle the playouts contradict")
    args = parser.parse_args(argv)
    try:
        parse_executor(args.executor)
    except ExecutorError as e:
        parser.error(str(e))
    chosen = sample(bank_puzzles(), args.share)
    tasks = [PlayoutTask(p.id, args.deals, args.level, args.seed) for p in chosen]
    start = time.perf_counter()
    with contextlib.ExitStack() as stack:
        executors = stack.enter_context(open_executor(args.executor))
        rows = _run(executors, playout, tasks)
    print(f"{len(rows)} puzzles, {args.deals} deals each, played out by {args.level} players, "
          f"seed {args.seed}, {time.perf_counter() - start:.0f} s on {args.executor}")
    print(f"{'kind':<8} {'puzzles':>7} {'answer held':>11}  gain a hand (95%)        "
          "contradicted")
    kinds = sorted({r.kind for r in rows})
    for kind in [*kinds, "all"]:
        part = [r for r in rows if kind in ("all", r.kind)]
        s = summary(part)
        print(f"{kind:<8} {s['puzzles']:>7} {100 * s['held']:>10.0f}%  "
              f"{s['mean']:+.2f} [{s['low']:+.2f}, {s['high']:+.2f}]   {s['contradicted']:>5}")
    if args.contradicted:
        for r in rows:
            if r.contradicted:
                print(f"  {r.puzzle} ({r.kind}): {r.mean:+.2f} ± {r.half_width:.2f}")


if __name__ == "__main__":
    main()
