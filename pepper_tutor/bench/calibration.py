"""Does the advice predict how contracts go when computer players play them out?

``python -m pepper_tutor.bench calibration`` plays hands between club-level computer players
(:mod:`pepper_tutor.analysis.players`: every card chosen by sampled single-dummy play, each
seat seeing only what it may). At the first lead of each contract played out it solves the
real deal double-dummy, the figure the advice averages over its sampled deals, then lets
the players play. For each class of contract (no trump or a suit, with the partner or
alone, bid level, the peppers) it prints how often the contract made, how often
double-dummy play says it makes, and how often the calibrated figure the advice uses
(:mod:`pepper_tutor.analysis.calibration`) says it makes, with the gap and its 95%
interval.

The club player never goes alone and rarely names no trump, so for the classes to fill,
the high bidder's way of playing is drawn at random (alone in two hands of five) and one
hand in five is declared in no trump: the calibration is of the play, given the contract.
``--fit FILE`` writes the counts measured as the calibration's table (fit on one set of
seeds, then measure on another: ``--seed``).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ..analysis.calibration import distribution, fit, kind_of, sweep_chance, table_source
from ..analysis.players import Player, make_player, play_hand
from ..analysis.solver import solve_state
from ..analysis.view import SeatView
from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.rules import get_ruleset
from ..engine.seats import Seat
from ..engine.state import Action, HandState, Phase

__all__ = ["Contract", "play_contracts", "main"]

_Z95 = 1.959963984540054
ENOUGH = 150  # contracts in a class before its gap is held to the target
TARGET = 0.05  # predicted against played make rate, in each class with enough contracts


@dataclass(frozen=True)
class Contract:
    kind: str  # calibration kind: "trump partner", "nt exchange", ...
    bid: Bid
    dd: int  # the bidders' tricks double-dummy at the first lead
    taken: int  # the tricks they took in play


class _Declarer:
    """A club player whose declarations are varied so that every class of contract fills."""

    def __init__(self, player: Player, rng: random.Random) -> None:
        self.player, self.rng, self.level = player, rng, player.level

    def decide(self, view: SeatView) -> Action:
        if view.phase is Phase.DECLARE_TRUMP and self.rng.random() < 0.2 \
                and Trump.NT in view.legal:
            return Trump.NT
        if view.phase is Phase.DECLARE_MODE and len(view.legal) > 1:
            return Mode.EXCHANGE if self.rng.random() < 0.4 else Mode.PARTNER
        return self.player.decide(view)


def _way(state: HandState) -> str:
    if not state.rules.has_exchange:
        return "play"
    if state.high_bid is Bid.BIG_PEPPER:
        return "alone"
    return "exchange" if state.mode is Mode.EXCHANGE else "partner"


def _one(seed: int) -> Contract | None:
    rules = get_ruleset("standard")
    rng = random.Random(seed)
    state = HandState.deal(rules, Seat(seed % 4), rng)
    players = [_Declarer(make_player("club", rng.randrange(1 << 30)), rng) for _ in range(4)]
    dd: list[int] = []

    def look(now: HandState, action: Action) -> None:
        if now.phase is Phase.PLAY and not dd and not now.current_trick and \
                not any(now.tricks_won().values()):
            bidder = now.bidder
            assert bidder is not None
            side = [s for s in now.active_seats if s.team == bidder.team]
            dd.append(solve_state(now, side_seats=side, card_values=False).tricks)

    play_hand(state, players, on_decision=look)
    if state.bidder is None or state.defense is Defense.SURRENDER or not dd:
        return None
    trump = int(state.trump) if state.trump is not None else 4
    taken = state.tricks_won()[state.rules.side_of(state.bidder)]
    return Contract(kind_of(trump, _way(state)), state.high_bid, dd[0], taken)


def _chunk(seeds: Sequence[int]) -> list[Contract | None]:
    return [_one(s) for s in seeds]


def play_contracts(contracts: int, seed: int, workers: int = 1) -> list[Contract]:
    """At least ``contracts`` contracts played out (hands thrown in or surrendered skipped)."""
    out: list[Contract] = []
    base = seed * 1_000_003
    step = 200
    nxt = 0
    ctx = multiprocessing.get_context("fork" if "fork" in
                                      multiprocessing.get_all_start_methods() else "spawn")
    with ctx.Pool(workers) if workers > 1 else _Serial() as pool:
        while len(out) < contracts:
            chunks = [list(range(base + nxt + k * step, base + nxt + (k + 1) * step))
                      for k in range(max(1, workers))]
            nxt += step * len(chunks)
            for found in pool.map(_chunk, chunks):
                out.extend(c for c in found if c is not None)
    return out[:contracts]


class _Serial:
    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map(self, fn, items):  # type: ignore[no-untyped-def]
        return [fn(i) for i in items]


def _makes(c: Contract) -> tuple[float, float, float]:
    """(made in play, made double-dummy, made by the calibrated figure) for one contract."""
    need = c.bid.tricks
    if c.kind.endswith("alone"):
        predicted = sweep_chance(c.kind, c.dd == 6)
    else:
        predicted = sum(distribution(c.kind, c.dd)[need:])
    return float(c.taken >= need), float(c.dd >= need), predicted


def _row(name: str, rows: list[Contract]) -> str:
    made = [_makes(c) for c in rows]
    n = len(made)
    played = sum(m[0] for m in made) / n
    dd = sum(m[1] for m in made) / n
    cal = sum(m[2] for m in made) / n
    gaps = [m[2] - m[0] for m in made]
    mean = sum(gaps) / n
    sd = math.sqrt(sum((g - mean) ** 2 for g in gaps) / (n - 1)) if n > 1 else 0.0
    half = _Z95 * sd / math.sqrt(n) if n > 1 else math.inf
    flag = "" if n < ENOUGH else ("  ok" if abs(cal - played) <= TARGET else "  OFF")
    return (f"  {name:<24}{n:>6}  {100 * played:6.1f}%  {100 * dd:6.1f}%  {100 * cal:6.1f}%"
            f"  {100 * (dd - played):+6.1f}  {100 * mean:+6.1f} ±{100 * half:4.1f}{flag}")


def report(contracts: list[Contract]) -> str:
    classes: dict[str, list[Contract]] = defaultdict(list)
    for c in contracts:
        trump, way = c.kind.split(" ")
        alone = "alone" if way in ("exchange", "alone") else "partner"
        level = "peppers" if c.bid.is_pepper else f"bid {int(c.bid)}"
        for key in dict.fromkeys((c.kind, f"{trump} {alone}", level, f"{trump} {level}",
                                  f"{alone} {level}", "all")):
            classes[key].append(c)
    head = (f"  {'class':<24}{'n':>6}  {'played':>7}  {'dd':>7}  {'advice':>7}"
            f"  {'dd gap':>6}  {'advice gap, 95%':>15}")
    order = sorted(classes, key=lambda k: (k != "all", -len(classes[k]), k))
    lines = [head, *(_row(k, classes[k]) for k in order)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m pepper_tutor.bench calibration",
        description="Make rates the advice predicts against contracts played out.")
    parser.add_argument("--contracts", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--fit", metavar="FILE", help="write the measured table to FILE")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    contracts = play_contracts(args.contracts, args.seed, args.workers)
    print(f"Calibration: {len(contracts)} contracts played out by club players (seed "
          f"{args.seed}, {time.perf_counter() - start:.0f} s). Make rates: in play, "
          "double-dummy on the real deal, and the advice's calibrated figure; gaps are "
          f"predicted less played, in points of percentage; 'ok' within "
          f"{100 * TARGET:.0f} in classes of {ENOUGH} or more:", flush=True)
    print(report(contracts))
    if args.fit:
        table = fit((c.kind, c.dd, c.taken) for c in contracts)
        with open(args.fit, "w", encoding="utf-8") as f:
            f.write(table_source(table) + "\n")
        print(f"\nthe measured table is in {args.fit}")
