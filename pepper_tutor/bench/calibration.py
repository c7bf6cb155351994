"""Does the advice predict how contracts go when the strongest computer players play them?

``python -m pepper_tutor.bench calibration`` plays hands between expert computer players
(:mod:`pepper_tutor.analysis.players`, both sides: every card, the exchange and the
defense chosen by sampled double-dummy advice over deals that follow the calls, each seat
seeing only what it may; ``--level`` for another level). The auction is the club player's
(the calling model's bids, which the expert reads as it reads any call): the expert's own
bids cost seconds each, and what is measured is the play of a contract once it stands. At
the first lead of each contract played out it solves the real deal double-dummy, the figure
the advice averages over its sampled deals, then lets the players play. For each class of
contract (no trump or a suit, with the partner or alone, bid level, the peppers) it prints
how often the contract made, how often double-dummy play says it makes, and how often the
calibrated figure the advice uses (:mod:`pepper_tutor.analysis.calibration`) says it makes,
with the gap and its 95% interval; the target is :data:`TARGET` in every class of
:data:`ENOUGH` contracts or more. Each contract is also solved the other way of playing on
its real deal (the exchange made by the rules' cards): the contracts double-dummy play makes
both ways are those the advice reads by one row (``MADE``), fitted on such contracts played
alone, and the report ends with how they went, each way, against that row.

For the classes to fill, the high bidder's way of playing is drawn at random (alone in two
hands of five) and one hand in five is declared in no trump: the calibration is of the play,
given the contract. ``--records FILE`` keeps each contract as it is played (JSON lines),
``--read FILE`` reports on such a file, and ``--fit FILE`` writes the counts measured as the
calibration's table (``tests/data/calibration-expert.jsonl`` holds the contracts the
shipped table was fitted on).
"""
from __future__ import annotations

import argparse
import functools
import json
import math
import multiprocessing
import os
import random
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ..analysis.calibration import (
    MADE,
    PRIOR,
    TABLE,
    Record,
    fit,
    kind_of,
    row_of,
    smoothed,
    table_source,
)
from ..analysis.dealing import discard_rule, send_rule
from ..analysis.players import LEVELS, Player, make_player, play_hand
from ..analysis.solver import solve_state
from ..analysis.view import SeatView
from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.cards import DECK
from ..engine.rules import get_ruleset
from ..engine.seats import Seat
from ..engine.state import Action, HandState, Phase
from ..files.writing import write_text

__all__ = ["Contract", "ClassRow", "ENOUGH", "TARGET", "LEVEL", "play_contracts", "classes",
           "both_ways", "report", "main"]

_Z95 = 1.959963984540054
ENOUGH = 150  # contracts in a class before its gap is held to the target
TARGET = 0.03  # predicted against played make rate, in each class with enough contracts


@dataclass(frozen=True)
class Contract:
    kind: str  # calibration kind: "trump partner", "nt exchange", ...
    bid: Bid
    dd: int  # the bidders' tricks double-dummy at the first lead
    taken: int  # the tricks they took in play
    seed: int = 0  # the hand's seed: the halves of a cross-fit split by it
    other: int = -1  # the other way's tricks double-dummy (-1: no other way, or not recorded)

    def to_json(self) -> str:
        return json.dumps([self.kind, int(self.bid), self.dd, self.taken, self.seed,
                           self.other])

    @classmethod
    def from_json(cls, line: str) -> Contract:
        kind, bid, dd, taken, seed, *rest = json.loads(line)
        return cls(kind, Bid(bid), dd, taken, seed, rest[0] if rest else -1)

    @property
    def record(self) -> Record:
        """The contract as :func:`~pepper_tutor.analysis.calibration.fit` reads it."""
        return (self.kind, self.dd, self.taken, row_of(self.bid), self.made_both_ways)

    @property
    def made_both_ways(self) -> bool:
        """Whether double-dummy play makes the bid on this deal with the partner and alone
        with the exchange alike: the contracts the pooled row (:data:`MADE`) stands for."""
        need = self.bid.tricks
        return self.other >= 0 and self.dd >= need and self.other >= need


class _Declarer:
    """A player of ``level`` for everything after the auction (the declarations, the
    exchange, the defense and every card), whose declarations are varied so that every class
    of contract fills; the auction is the club player's (the calling model's bids, which
    the expert reads as it reads any call: the expert's own bids cost seconds each)."""

    def __init__(self, level: str, rng: random.Random) -> None:
        self.bidder = make_player("club", rng.randrange(1 << 30))
        self.player: Player = make_player(level, rng.randrange(1 << 30))
        self.rng, self.level = rng, level

    def decide(self, view: SeatView) -> Action:
        if view.phase is Phase.AUCTION:
            return self.bidder.decide(view)
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


LEVEL = "expert"
"""The level whose play the calibration measures: the strongest (both sides)."""


def _bidders_dd(state: HandState) -> int:
    """The bidders' tricks double-dummy at the first lead."""
    bidder = state.bidder
    assert bidder is not None
    side = [s for s in state.active_seats if s.team == bidder.team]
    return solve_state(state, side_seats=side, card_values=False).tricks


def _other_way_dd(at_mode: HandState, played: Mode) -> int:
    """The bidders' tricks double-dummy at the first lead had the bidder chosen the other way
    of playing at ``at_mode``, the exchange made by the rules' cards (the partner's highest
    trump, the bidder's lowest card of its shortest plain suit), the defenders playing."""
    state = at_mode.copy()
    state.apply(Mode.PARTNER if played is Mode.EXCHANGE else Mode.EXCHANGE)
    trump = int(state.trump) if state.trump is not None else 4
    while state.phase in (Phase.DISCARD, Phase.SEND):
        seat = state.to_act
        assert seat is not None
        rule = discard_rule if state.phase is Phase.DISCARD else send_rule
        state.apply(DECK[rule([c.index for c in state.hand(seat)], trump,
                              state.rules.left_bower)])
    if state.phase is Phase.DEFENSE:
        state.apply(Defense.PLAY)
    return _bidders_dd(state)


def _one(seed: int, level: str = LEVEL) -> Contract | None:
    rules = get_ruleset("standard")
    rng = random.Random(seed)
    state = HandState.deal(rules, Seat(seed % 4), rng)
    players = [_Declarer(level, rng) for _ in range(4)]
    dd: list[int] = []
    other: list[int] = []

    def look(now: HandState, action: Action) -> None:
        if now.phase is Phase.DECLARE_MODE and isinstance(action, Mode) and \
                len(now.legal_actions()) > 1:
            other.append(_other_way_dd(now, action))
        if now.phase is Phase.PLAY and not dd and not now.current_trick and \
                not any(now.tricks_won().values()):
            dd.append(_bidders_dd(now))

    play_hand(state, players, on_decision=look)
    if state.bidder is None or state.defense is Defense.SURRENDER or not dd:
        return None
    trump = int(state.trump) if state.trump is not None else 4
    taken = state.tricks_won()[state.rules.side_of(state.bidder)]
    return Contract(kind_of(trump, _way(state)), state.high_bid, dd[0], taken, seed,
                    other[0] if other else -1)


def _chunk(job: tuple[Sequence[int], str]) -> list[Contract | None]:
    seeds, level = job
    return [_one(s, level) for s in seeds]


def play_contracts(contracts: int, seed: int, workers: int = 1,
                   records: str | None = None, level: str = LEVEL) -> list[Contract]:
    """At least ``contracts`` contracts played out by players of ``level`` (hands thrown in
    or surrendered skipped), each appended to the file ``records`` as it comes (one JSON
    line each)."""
    out: list[Contract] = []
    base = seed * 1_000_003
    step = 25
    sink = open(records, "a", encoding="utf-8") if records else None  # noqa: SIM115
    chunks = ((list(range(base + k * step, base + (k + 1) * step)), level)
              for k in range(10**6))
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
    return sum(smoothed(table, c.kind, c.dd, row_of(c.bid))[need:])


def _makes(c: Contract, tables: tuple[Table, Table]) -> tuple[float, float, float, float]:
    """(made in play, made double-dummy, made by the calibrated figure, made by the shipped
    table) for one contract: the calibrated figure by the table fitted on the other half of
    the contracts (by seed)."""
    need = c.bid.tricks
    return (float(c.taken >= need), float(c.dd >= need), _predicted(tables[1 - c.seed % 2], c),
            _predicted(TABLE, c))


@dataclass(frozen=True)
class ClassRow:
    """One class of contracts: how many, and their make rates in play, double-dummy and by
    the advice's calibrated figure (cross-fitted), with the advice's mean gap and its 95%
    interval's half-width; and by the table the advice ships (:data:`TABLE`), which was
    fitted on other contracts: it drifts from play when the players change."""

    name: str
    contracts: int
    played: float
    dd: float
    advice: float
    half: float
    shipped: float = math.nan

    @property
    def gap(self) -> float:
        return self.advice - self.played


def _class_row(name: str, rows: list[Contract], tables: tuple[Table, Table]) -> ClassRow:
    made = [_makes(c, tables) for c in rows]
    n = len(made)
    gaps = [m[2] - m[0] for m in made]
    mean = sum(gaps) / n
    sd = math.sqrt(sum((g - mean) ** 2 for g in gaps) / (n - 1)) if n > 1 else 0.0
    return ClassRow(name, n, sum(m[0] for m in made) / n, sum(m[1] for m in made) / n,
                    sum(m[2] for m in made) / n,
                    _Z95 * sd / math.sqrt(n) if n > 1 else math.inf,
                    sum(m[3] for m in made) / n)


@functools.lru_cache(maxsize=2)
def _halves(contracts: tuple[Contract, ...]) -> tuple[Table, Table]:
    """The tables fitted on each half of ``contracts`` (by seed), for the cross-fit: each
    contract is predicted by the half it is not in. Kept for the report's second use."""
    return (fit(c.record for c in contracts if c.seed % 2 == 0),
            fit(c.record for c in contracts if c.seed % 2 == 1))


def classes(contracts: list[Contract]) -> list[ClassRow]:
    """Every class of ``contracts`` (no trump or a suit, with the partner or alone, the bid
    level, the peppers, and their pairs), all first, then the largest: each contract
    predicted by the table fitted on the other half of the contracts (by seed)."""
    tables = _halves(tuple(contracts))
    groups: dict[str, list[Contract]] = defaultdict(list)
    for c in contracts:
        trump, way = c.kind.split(" ")
        alone = "alone" if way in ("exchange", "alone") else "partner"
        level = "peppers" if c.bid.is_pepper else f"bid {int(c.bid)}"
        for key in dict.fromkeys((c.kind, f"{trump} {alone}", level, f"{trump} {level}",
                                  f"{alone} {level}", "all")):
            groups[key].append(c)
    order = sorted(groups, key=lambda k: (k != "all", -len(groups[k]), k))
    return [_class_row(k, groups[k], tables) for k in order]


def report(contracts: list[Contract]) -> str:
    head = (f"  {'class':<24}{'n':>6}  {'played':>7}  {'dd':>7}  {'advice':>7}"
            f"  {'dd gap':>6}  {'advice gap, 95%':>15}  {'shipped gap':>11}")
    lines = [head]
    for r in classes(contracts):
        flag = "" if r.contracts < ENOUGH else ("  ok" if abs(r.gap) <= TARGET else "  OFF")
        lines.append(f"  {r.name:<24}{r.contracts:>6}  {100 * r.played:6.1f}%  "
                     f"{100 * r.dd:6.1f}%  {100 * r.advice:6.1f}%  "
                     f"{100 * (r.dd - r.played):+6.1f}  {100 * r.gap:+6.1f} ±"
                     f"{100 * r.half:4.1f}{flag:<4}  {100 * (r.shipped - r.played):+10.1f}")
    sure = both_ways(contracts)
    if sure:
        lines += ["", "  Contracts double-dummy play made both ways on their deal (with the",
                  "  partner and alone with the exchange), which the advice reads by one row",
                  "  (made), measured on those played alone: make and sweep rates in play, and",
                  "  the row's make rate (cross-fitted)"]
        lines += [f"  {name:<24}{n:>6}  made {100 * made:5.1f}%  swept {100 * swept:5.1f}%  "
                  f"row {100 * row:5.1f}%" for name, n, made, swept, row in sure]
    return "\n".join(lines)


def both_ways(contracts: list[Contract]) -> list[tuple[str, int, float, float, float]]:
    """Per kind, of the contracts double-dummy play made both ways on their deal: the name,
    how many, the share made and swept in play, and the share the :data:`MADE` row (fitted
    on the other half, by seed) says are made."""
    tables = _halves(tuple(contracts))
    out = []
    for kind in sorted({c.kind for c in contracts if c.made_both_ways}):
        rows = [c for c in contracts if c.kind == kind and c.made_both_ways]
        trump = kind.split(" ")[0]
        row = sum(sum(smoothed(tables[1 - c.seed % 2], f"{trump} {MADE}", c.dd,
                               row_of(c.bid))[c.bid.tricks:]) for c in rows)
        out.append((kind, len(rows), sum(c.taken >= c.bid.tricks for c in rows) / len(rows),
                    sum(c.taken == 6 for c in rows) / len(rows), row / len(rows)))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m pepper_tutor.bench calibration",
        description="Make rates the advice predicts against contracts played out.")
    from ..apps.commands import counted, workers_count

    parser.add_argument("--contracts", type=counted(1, 1_000_000), default=5000)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--workers", type=workers_count, default=min(2, os.cpu_count() or 1),
                        help="processes (1 to the CPUs; default 2)")
    parser.add_argument("--level", choices=LEVELS, default=LEVEL,
                        help=f"the players whose play is measured (default {LEVEL})")
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
        contracts = play_contracts(args.contracts, args.seed, args.workers, args.records,
                                   args.level)
    source = (f"read from {args.read}" if args.read else f"played out by {args.level} "
              f"players (seed {args.seed}, {time.perf_counter() - start:.0f} s)")
    print(f"Calibration: {len(contracts)} contracts {source}. Make rates: in play, "
          "double-dummy on the real deal (what the advice used before), and the advice's "
          "calibrated figure (cross-fitted: each contract by the table measured on the "
          "other half of the contracts); gaps are predicted less played, in points of "
          f"percentage; 'ok' within {100 * TARGET:.0f} in classes of {ENOUGH} or more; the "
          "shipped gap is the table the advice ships against these contracts (it drifts "
          "when the players change: refit it with --fit):",
          flush=True)
    print(report(contracts))
    if args.fit:
        table = fit(c.record for c in contracts)
        write_text(args.fit, table_source(table) + "\n")
        print(f"\nthe measured table is in {args.fit}")
