"""Where one level's margin over another comes from, contract by contract.

``python -m pepper_tutor.bench margins --pairs ceiling:club`` plays the ladder's duplicate
deals (the same cards and players as :func:`~pepper_tutor.bench.tournament.play_deal`, so
its total is the ladder's figure over the same deals) and splits the first level's points a
hand less the second's by the hand's contract: which level bid it, the bid, alone or with
partner, and how it ended (made, set, surrendered; thrown in where nobody bid). Each row's
share is its part of the margin; the shares add up to the total.

A ladder row says how far apart two levels are; this says where. Against the all-seeing
ceiling most of every level's distance is the peppers the ceiling bids on hands it sees
will sweep.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..analysis.ceiling import AllSeeing
from ..analysis.executors import DEFAULT_EXECUTOR, ExecutorError, open_executor, run_indexed
from ..analysis.players import play_hand
from ..analysis.playing_out import ladder_player
from ..engine.calls import Bid, Defense, Mode
from ..engine.rules import get_ruleset
from ..engine.seats import Seat
from ..engine.state import HandState
from .tournament import _Z95, DealTask, parse_pairs

__all__ = ["Hand", "Margin", "contract_of", "main", "margin", "play_hands", "report"]

THROWN_IN = "thrown in"


@dataclass(frozen=True)
class Hand:
    """One seating's hand: its contract (:func:`contract_of`) and the first level's points
    less the second's."""

    contract: str
    net: int


def contract_of(state: HandState, levels: dict[Seat, str]) -> str:
    """A played hand's contract as the report's rows name it: "ceiling: little pepper, with
    partner, made"; :data:`THROWN_IN` where nobody bid."""
    if state.bidder is None or state.high_bid is None:
        return THROWN_IN
    # big pepper is played alone without the exchange (its mode is never declared)
    alone = state.mode is Mode.EXCHANGE or state.high_bid is Bid.BIG_PEPPER
    how = "alone" if alone else "with partner"
    if state.defense is Defense.SURRENDER:
        end = "surrendered"
    else:
        bidders = state.rules.side_of(state.bidder)
        end = "made" if state.tricks_won()[bidders] >= state.high_bid.tricks else "set"
    return f"{levels[state.bidder]}: {state.high_bid.display}, {how}, {end}"


def play_hands(task: DealTask) -> list[Hand]:
    """The deal's two seatings, dealt and seated as
    :func:`~pepper_tutor.bench.tournament.play_deal` deals and seats them."""
    # Mirrored rather than shared: bench/tournament.py is part of the ladder's players'
    # fingerprint, so reshaping it would make every recorded pairing play again. The tests
    # hold the two together (the same totals on the same deals).
    ruleset = get_ruleset(task.rules)
    i, seed = task.index, task.seed
    hands = []
    for swap in (False, True):
        state = HandState.deal(ruleset, Seat(i % 4), random.Random(seed * 100_003 + i))
        levels = {Seat(k): (task.second if (k % 2 == 0) == swap else task.first)
                  for k in range(4)}
        players = {seat: ladder_player(level, seed * 7919 + i * 4 + int(seat))
                   for seat, level in levels.items()}
        for player in players.values():
            if isinstance(player, AllSeeing):
                player.see(state)
        play_hand(state, players)
        points = state.score.points if state.score is not None else {"NS": 0, "EW": 0}
        ours, theirs = ("EW", "NS") if swap else ("NS", "EW")
        hands.append(Hand(contract_of(state, levels), points[ours] - points[theirs]))
    return hands


@dataclass(frozen=True)
class Margin:
    """A pairing's margin, split by contract."""

    first: str
    second: str
    deals: int
    total: float  # points a hand, as the ladder's figure over these deals
    half: float  # its 95% interval's half width
    rows: tuple[tuple[str, int, float], ...]  # contract, hands, share of the total

    def by_bidder(self) -> dict[str, float]:
        """The total split by who bid: each level's contracts, and the thrown-in hands."""
        split: dict[str, float] = {}
        for contract, _, share in self.rows:
            who = contract.partition(":")[0]
            split[who] = split.get(who, 0.0) + share
        return split


def margin(first: str, second: str, deals: int, seed: int, rules: str = "standard",
           run: Callable[[Sequence[DealTask]], list[list[Hand]]] | None = None) -> Margin:
    """``first`` against ``second`` over ``deals`` duplicate deals, split by contract;
    ``run`` plays the deals (default: in this process), in deal order."""
    tasks = [DealTask(first, second, i, seed, rules) for i in range(deals)]
    played = run(tasks) if run is not None else [play_hands(t) for t in tasks]
    per_deal = [sum(h.net for h in hands) / 2 for hands in played]
    count: Counter[str] = Counter()
    points: Counter[str] = Counter()
    for hands in played:
        for hand in hands:
            count[hand.contract] += 1
            points[hand.contract] += hand.net
    rows = tuple(sorted(((c, count[c], points[c] / (2 * deals)) for c in count),
                        key=lambda row: (-abs(row[2]), row[0])))
    half = _Z95 * statistics.stdev(per_deal) / len(per_deal) ** 0.5 if deals > 1 else 0.0
    return Margin(first, second, deals, statistics.fmean(per_deal), half, rows)


def report(m: Margin, shown: int = 12) -> str:
    """The margin, its split by bidder, and its largest rows."""
    lines = [f"{m.first} vs {m.second}, {m.deals:,} deals (each twice, seats swapped): "
             f"{m.total:+.2f} a hand (95%: {m.total - m.half:+.2f} to {m.total + m.half:+.2f})"]
    split = m.by_bidder()
    lines.append("  by who bid: " + ", ".join(
        f"{who}'s contracts {split.get(who, 0.0):+.2f}" for who in (m.first, m.second))
        + f", {THROWN_IN} {split.get(THROWN_IN, 0.0):+.2f}")
    width = max((len(c) for c, _, _ in m.rows[:shown]), default=0)
    lines.append(f"  {'contract':<{width}}  {'hands':>6}  {'share':>6}")
    for contract, hands, share in m.rows[:shown]:
        lines.append(f"  {contract:<{width}}  {hands:>6,}  {share:+6.2f}")
    rest = m.rows[shown:]
    if rest:
        lines.append(f"  {len(rest)} more kinds of contract, "
                     f"{sum(h for _, h, _ in rest):,} hands, {sum(s for _, _, s in rest):+.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m pepper_tutor.bench margins",
        description="Where a ladder margin comes from: the first level's points a hand less "
                    "the second's, split by the hand's contract.")
    parser.add_argument("--pairs", default="ceiling:club",
                        help="pairings, first:second separated by commas (default: "
                             "ceiling:club)")
    parser.add_argument("--deals", type=int, default=400, help="deals per pairing")
    parser.add_argument("--seed", type=int, default=1, help="the ladder's seed (default 1)")
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--executor", default=DEFAULT_EXECUTOR,
                        help="local (default), local:N, dask-local:N or dask://HOST:PORT")
    parser.add_argument("--rows", type=int, default=12, help="contracts shown a pairing")
    args = parser.parse_args(argv)
    if not 2 <= args.deals <= 10_000:
        parser.error("--deals: 2 to 10,000 deals")
    if args.rows < 1:
        parser.error("--rows: at least 1 contract a pairing")
    pairs = parse_pairs(parser, args.pairs)
    try:
        with open_executor(args.executor) as executors:
            for first, second in pairs:
                start = time.perf_counter()
                m = margin(first, second, args.deals, args.seed, args.rules,
                           lambda tasks: run_indexed(executors, play_hands, tasks))
                print(report(m, args.rows), flush=True)
                print(f"  ({time.perf_counter() - start:,.0f} s on {args.executor})",
                      flush=True)
    except ExecutorError as e:
        parser.exit(2, f"python -m pepper_tutor.bench margins: {e}\n")
