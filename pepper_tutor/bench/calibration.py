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
import json
import math
import multiprocessing
import os
import random
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ..analysis.calibration import PRIOR, fit, kind_of, smoothed, table_source
from ..analysis.players import Player, make_player, play_hand
from ..analysis.solver import solve_state
from ..analysis.view import SeatView
from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.rules import get_ruleset
from ..engine.seats import Seat
from ..engine.state import Action, HandState, Phase
from ..files.writing import write_text

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
    seed: int = 0  # the hand's seed: the halves of a cross-fit split by it

    def to_json(self) -> str:
        return json.dumps([self.kind, int(self.bid), self.dd, self.taken, self.seed])

    @classmethod
    def from_json(cls, line: str) -> Contract:
        kind, bid, dd, taken, seed = json.loads(line)
        return cls(kind, Bid(bid), dd, taken, seed)


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
    return Contract(kind_of(trump, _way(state)), state.high_bid, dd[0], taken, seed)


def _chunk(seeds: Sequence[int]) -> list[Contract | None]:
    return [_one(s) for s in seeds]


def play_contracts(contracts: int, seed: int, workers: int = 1,
                   records: str | None = None) -> list[Contract]:
    """At least ``contracts`` contracts played out (hands thrown in or surrendered skipped),
    each appended to the file ``records`` as it comes (one JSON line each)."""
    out: list[Contract] = []
    base = seed * 1_000_003
    step = 25
    sink = open(records, "a", encoding="utf-8") if records else None  # noqa: SIM115
    chunks = (list(range(base + k * step, base + (k + 1) * step)) for k in range(10**6))
    ctx = multiprocessing.get_context("fork" if "fork" in
                                      multiprocessing.get_all_start_methods() else "spawn")
    pool = ctx.Pool(workers) if workers > 1 else None
    try:
        found = pool.imap(_chunk, chunks) if pool is not None else map(_chunk, chunks)
        for batch in found:
            for c in batch:
                if c is not None:
                    out.append(c)
                    if sink is not None:
                        sink.write(c.to_json() + "\n")
            if sink is not None:
                sink.flush()
            if len(out) >= contracts:
                break
    finally:
        if pool is not None:
            pool.terminate()
        if sink is not None:
            sink.close()
    return out[:contracts]


Table = dict[str, tuple[tuple[int, ...], ...]]


def _predicted(table: Table, c: Contract) -> float:
    """The calibrated make chance of a contract, by ``table``."""
    need = c.bid.tricks
    if c.kind.endswith("alone"):
        if c.dd == 6:
            return smoothed(table, c.kind, 6, 6)[6]
        rows = table.get(c.kind)
        if rows is None:
            return 0.0
        return sum(r[6] for r in rows[:6]) / (sum(sum(r) for r in rows[:6]) + PRIOR)
    return sum(smoothed(table, c.kind, c.dd, need)[need:])


def _makes(c: Contract, tables: tuple[Table, Table]) -> tuple[float, float, float]:
    """(made in play, made double-dummy, made by the calibrated figure) for one contract:
    the figure of the table fitted on the other half of the contracts (by seed)."""
    need = c.bid.tricks
    return float(c.taken >= need), float(c.dd >= need), _predicted(tables[1 - c.seed % 2], c)


def _row(name: str, rows: list[Contract], tables: tuple[Table, Table]) -> str:
    made = [_makes(c, tables) for c in rows]
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
    tables = (fit((c.kind, c.dd, c.taken, c.bid.tricks) for c in contracts if c.seed % 2 == 0),
              fit((c.kind, c.dd, c.taken, c.bid.tricks) for c in contracts if c.seed % 2 == 1))
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
    lines = [head, *(_row(k, classes[k], tables) for k in order)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m pepper_tutor.bench calibration",
        description="Make rates the advice predicts against contracts played out.")
    from ..apps.commands import counted, workers_count

    parser.add_argument("--contracts", type=counted(1, 1_000_000), default=5000)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--workers", type=workers_count, default=min(2, os.cpu_count() or 1),
                        help="processes (1 to the CPUs; default 2)")
    parser.add_argument("--fit", metavar="FILE", help="write the measured table to FILE")
    parser.add_argument("--records", metavar="FILE",
                        help="append each contract to FILE as it is played (JSON lines)")
    parser.add_argument("--read", metavar="FILE",
                        help="report on the contracts recorded in FILE, playing none")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.read:
        with open(args.read, encoding="utf-8") as f:
            contracts = [Contract.from_json(line) for line in f if line.strip()]
    else:
        contracts = play_contracts(args.contracts, args.seed, args.workers, args.records)
    print(f"Calibration: {len(contracts)} contracts played out by club players (seed "
          f"{args.seed}, {time.perf_counter() - start:.0f} s). Make rates: in play, "
          "double-dummy on the real deal (what the advice used before), and the advice's "
          "calibrated figure (cross-fitted: each contract by the table measured on the "
          "other half of the contracts); gaps are predicted less played, in points of "
          f"percentage; 'ok' within {100 * TARGET:.0f} in classes of {ENOUGH} or more:",
          flush=True)
    print(report(contracts))
    if args.fit:
        table = fit((c.kind, c.dd, c.taken, c.bid.tricks) for c in contracts)
        write_text(args.fit, table_source(table) + "\n")
        print(f"\nthe measured table is in {args.fit}")
