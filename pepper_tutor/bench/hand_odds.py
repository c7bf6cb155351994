"""The calling model against double-dummy play: the shares of :mod:`..analysis.hand_odds`.

``python -m pepper_tutor.bench hand_odds`` deals ``--hands`` hands; North, first to call,
names the trump its own count (:func:`~pepper_tutor.analysis.calling.hand_tricks`) rates
best and plays it twice, with its partner and alone with the exchange (the card sent and the
discard by the players' rules), the bidder leading, the defenders playing. Each way's
double-dummy tricks are tallied by the hand's own count to the half trick; the table is
printed beside the model's own side estimate, and as the Python literal
:data:`~pepper_tutor.analysis.hand_odds.SHARES` holds. Every hand is one task seeded from the
seed and its index, so the table is the same on every executor.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import defaultdict
from collections.abc import Sequence

from ..analysis.calling import side_estimate
from ..analysis.dealing import discard_rule, send_rule
from ..analysis.executors import (
    DEFAULT_EXECUTOR,
    ExecutorError,
    open_executor,
    parse_executor,
    run_indexed,
)
from ..analysis.hand_odds import WAYS, own_count
from ..analysis.solver import bidding_side, solve_state
from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.cards import DECK
from ..engine.rules import get_ruleset
from ..engine.seats import Seat
from ..engine.state import HandState, Phase

__all__ = ["HandTask", "measure", "shares", "main"]

HandTask = tuple[int, int]  # (seed, index)


def _deal(task: HandTask) -> HandState:
    seed, index = task
    return HandState.deal("standard", Seat.W, random.Random(seed * 1_000_003 + index))


def _tricks(task: HandTask, trump: int, mode: Mode) -> int:
    """North's side's double-dummy tricks with ``trump`` named and played ``mode``."""
    state = _deal(task)
    state.apply(Bid.FOUR)  # the bid does not change the tricks: only who leads and plays
    while state.phase is Phase.AUCTION:
        state.apply(Bid.PASS)
    state.apply(Trump(trump))
    state.apply(mode)
    left_bower = state.rules.left_bower
    while state.phase in (Phase.DISCARD, Phase.SEND):
        seat = state.to_act
        assert seat is not None
        rule = discard_rule if state.phase is Phase.DISCARD else send_rule
        state.apply(DECK[rule([c.index for c in state.hand(seat)], trump, left_bower)])
    if state.phase is Phase.DEFENSE:
        state.apply(Defense.PLAY)
    return solve_state(state, bidding_side(state), card_values=False).total


def measure(task: HandTask) -> tuple[float, int, int]:
    """``(own count, tricks with partner, tricks alone)`` for one dealt hand."""
    state = _deal(task)
    hand = [c.index for c in state.hand(Seat.N)]
    rules = state.rules
    own = own_count(rules, hand)
    trump = max(range(5), key=lambda t: side_estimate(rules, hand, t))
    return own, _tricks(task, trump, Mode.PARTNER), _tricks(task, trump, Mode.EXCHANGE)


def shares(rows: Sequence[tuple[float, int, int]]
           ) -> dict[str, dict[float, tuple[tuple[float, ...], int]]]:
    """Each way's shares of 0..6 tricks by own count to the half trick (0.5 to 5.0), with the
    hands in each row."""
    tallies: dict[float, list[tuple[int, int]]] = defaultdict(list)
    for own, partner, alone in rows:
        tallies[min(5.0, max(0.5, round(own * 2) / 2))].append((partner, alone))
    out: dict[str, dict[float, tuple[tuple[float, ...], int]]] = {way: {} for way in WAYS}
    for row in sorted(tallies):
        got = tallies[row]
        for k, way in enumerate(WAYS):
            counts = [sum(1 for pair in got if pair[k] == t) for t in range(7)]
            out[way][row] = (tuple(n / len(got) for n in counts), len(got))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m pepper_tutor.bench hand_odds",
        description="The calling model's count against double-dummy play of dealt hands.")
    parser.add_argument("--hands", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--executor", default=DEFAULT_EXECUTOR,
                        help="local (default), local:N, dask-local:N or dask://HOST:PORT")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands: at least 1 hand")
    try:
        parse_executor(args.executor)
    except ExecutorError as err:
        parser.error(str(err))
    with open_executor(args.executor) as executors:
        rows = run_indexed(executors, measure, [(args.seed, i) for i in range(args.hands)])
    table = shares(rows)
    rules = get_ruleset("standard")
    print(f"{args.hands:,} hands: the model's side estimate and the double-dummy mean, by the "
          "hand's own count")
    for k, way in enumerate(WAYS):
        print(f"  {way}:")
        extra = side_estimate(rules, [], 0, alone=way == "alone")
        for row, (_shares, n) in table[way].items():
            got = [r[1 + k] for r in rows if min(5.0, max(0.5, round(r[0] * 2) / 2)) == row]
            print(f"    own {row:3.1f}: model {row + extra:4.2f}, double-dummy "
                  f"{statistics.fmean(got):4.2f} over {n:,} hands")
    print("\nSHARES = {")
    for way in WAYS:
        print(f'    "{way}": {{')
        for row, (values, n) in table[way].items():
            cells = ", ".join(f"{v:.3f}" for v in values)
            print(f"        {row}: ({cells}),  # {n:,}")
        print("    },")
    print("}")
