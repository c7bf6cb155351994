"""Strength of the computer players, measured: duplicate matches between levels.

``python -m pepper_tutor.bench tournament`` deals the same hands twice, once with each level
at North-South and once at East-West, so the cards cancel out; a hand's figure is the
points the first level's side scored less the other side's, averaged over the two seatings.
It prints points per hand with a 95% interval for each pairing, then for each level how often
it ends up bidding each contract, goes alone, surrenders and makes its bid, beside the same
rates for the analysis's best choices (auction-aware bid and defense advice) at the same
decisions, and the time each level takes per decision (median and 95th percentile).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..analysis.players import LEVELS, Player, make_player, play_hand
from ..analysis.view import SeatView
from ..engine.calls import Bid, Defense, Mode
from ..engine.rules import get_ruleset
from ..engine.seats import Seat
from ..engine.state import Action, HandState, Phase

__all__ = ["duplicate", "main"]

_Z95 = 1.959963984540054


class _Timed:
    """A player whose decisions are timed and whose choices are counted."""

    def __init__(self, player: Player, stats: _Stats) -> None:
        self.player = player
        self.level = player.level
        self.stats = stats

    def decide(self, view: SeatView) -> Action:
        start = time.perf_counter()
        action = self.player.decide(view)
        self.stats.times.append(time.perf_counter() - start)
        if view.phase is Phase.DEFENSE and len(view.legal) > 1:
            self.stats.defenses += 1
            self.stats.surrenders += action is Defense.SURRENDER
        if view.phase is Phase.AUCTION:
            self.stats.auction_views.append(view)
            self.stats.auction_bids.append(action is not Bid.PASS)
        if view.phase is Phase.DEFENSE and len(view.legal) > 1:
            self.stats.defense_views.append(view)
        return action


@dataclass
class _Stats:
    times: list[float] = field(default_factory=list)
    contracts: Counter[str] = field(default_factory=Counter)
    hands_bid: int = 0
    alone: int = 0
    made: int = 0
    defenses: int = 0
    surrenders: int = 0
    auction_views: list[SeatView] = field(default_factory=list)
    auction_bids: list[bool] = field(default_factory=list)
    defense_views: list[SeatView] = field(default_factory=list)


def _record(state: HandState, seats: dict[Seat, str], stats: dict[str, _Stats]) -> None:
    if state.bidder is None:
        return
    s = stats[seats[state.bidder]]
    s.hands_bid += 1
    s.contracts[str(state.high_bid)] += 1
    s.alone += state.mode is Mode.EXCHANGE or (state.high_bid is Bid.BIG_PEPPER
                                               and state.rules.has_exchange)
    score = state.score
    if score is not None and state.defense is not Defense.SURRENDER:
        bidders = state.rules.side_of(state.bidder)
        s.made += state.tricks_won()[bidders] >= state.high_bid.tricks
    elif state.defense is Defense.SURRENDER:
        s.made += 1  # a surrendered contract counts as made


@dataclass(frozen=True)
class Pairing:
    first: str
    second: str
    deals: int
    mean: float
    low: float
    high: float


def duplicate(first: str, second: str, deals: int, seed: int, stats: dict[str, _Stats],
              rules: str = "standard") -> Pairing:
    """``first`` against ``second`` over ``deals`` deals, each played twice, seats swapped."""
    ruleset = get_ruleset(rules)
    diffs = []
    for i in range(deals):
        per_seating = []
        for swap in (False, True):
            state = HandState.deal(ruleset, Seat(i % 4), random.Random(seed * 100_003 + i))
            levels = {Seat(k): (second if (k % 2 == 0) == swap else first) for k in range(4)}
            players = {seat: _Timed(make_player(level, seed * 7919 + i * 4 + int(seat)),
                                    stats[level]) for seat, level in levels.items()}
            play_hand(state, players)
            _record(state, levels, stats)
            points = state.score.points if state.score is not None else {"NS": 0, "EW": 0}
            ours = "EW" if swap else "NS"
            theirs = "NS" if swap else "EW"
            per_seating.append(points[ours] - points[theirs])
        diffs.append(sum(per_seating) / 2)
    mean = statistics.fmean(diffs)
    half = _Z95 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return Pairing(first, second, deals, mean, mean - half, mean + half)


def _analysis_rates(views: Sequence[SeatView], defense_views: Sequence[SeatView],
                    samples: int, seed: int) -> tuple[Counter[str], int, int, int, int]:
    """The analysis's own choices at the auction decisions a level faced: the contracts
    it would bid, how often alone, and its surrenders at the defense decisions."""
    from ..analysis.advice import advise_bid, advise_defense

    rng = random.Random(seed)
    contracts: Counter[str] = Counter()
    bids = alone = 0
    for view in views:
        best = advise_bid(view, samples, seed=rng, until_clear=True).best
        if best.bid is not None and best.bid is not Bid.PASS:
            bids += 1
            contracts[str(best.bid)] += 1
            alone += best.mode is Mode.EXCHANGE or best.bid is Bid.BIG_PEPPER
    surrenders = 0
    for view in defense_views:
        surrenders += advise_defense(view, samples, seed=rng).best.defense is Defense.SURRENDER
    return contracts, bids, alone, surrenders, len(defense_views)


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:5.1f}%" if d else "    -"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m pepper_tutor.bench tournament",
                                     description="Duplicate matches between the levels.")
    parser.add_argument("--deals", type=int, default=120, help="deals per pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--analysis-decisions", type=int, default=40,
                        help="auction decisions per level to compare with the analysis")
    parser.add_argument("--samples", type=int, default=60,
                        help="sampled deals per analysis decision")
    parser.add_argument("--pairs", default="club:beginner,expert:club,expert:beginner",
                        help="pairings to play, first:second separated by commas")
    args = parser.parse_args(argv)
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",") if p]
    for pair in pairs:
        if len(pair) != 2 or not set(pair) <= set(LEVELS):
            parser.error(f"--pairs: {':'.join(pair)} is not two of {', '.join(LEVELS)}")
    stats = {level: _Stats() for level in LEVELS}
    print(f"Duplicate matches, {args.rules}, {args.deals} deals per pairing, each played "
          "twice with the seats swapped; points per hand for the first level's side less "
          "the other's, 95% interval:", flush=True)
    for first, second in pairs:
        start = time.perf_counter()
        p = duplicate(first, second, args.deals, args.seed, stats, args.rules)
        print(f"  {first:>8} vs {second:<8} {p.mean:+6.2f} points per hand "
              f"[{p.low:+.2f}, {p.high:+.2f}]  ({time.perf_counter() - start:.0f} s)",
              flush=True)
    print("\nHow each level bids (as the high bidder), beside the analysis's best choices "
          "at the same auction decisions:")
    contracts = sorted({c for s in stats.values() for c in s.contracts},
                       key=lambda c: list(map(str, Bid)).index(c))
    print(f"  {'':<18}" + "".join(f"{c:>7}" for c in contracts)
          + "   alone  surrender   made")
    for level in LEVELS:
        s = stats[level]
        if not s.times:
            continue
        row = "".join(f"{_pct(s.contracts[c], s.hands_bid):>7}" for c in contracts)
        print(f"  {level:<18}{row}  {_pct(s.alone, s.hands_bid)}  "
              f"{_pct(s.surrenders, s.defenses):>9}  {_pct(s.made, s.hands_bid)}")
        views = s.auction_views[:args.analysis_decisions]
        dviews = s.defense_views[:max(1, args.analysis_decisions // 4)]
        a_contracts, a_bids, a_alone, a_surr, a_def = _analysis_rates(
            views, dviews, args.samples, args.seed)
        row = "".join(f"{_pct(a_contracts[c], a_bids):>7}" for c in contracts)
        print(f"  {'  analysis':<18}{row}  {_pct(a_alone, a_bids)}  "
              f"{_pct(a_surr, a_def):>9}       -   "
              f"(bids at {_pct(a_bids, len(views)).strip()} of {len(views)} auction "
              f"decisions; the level bid at "
              f"{_pct(sum(s.auction_bids[:len(views)]), len(views)).strip()})")
    print("\nTime per decision (this process, machine shared):")
    for level in LEVELS:
        times = sorted(stats[level].times)
        if times:
            p95 = times[min(len(times) - 1, math.ceil(0.95 * len(times)) - 1)]
            print(f"  {level:<8} median {1000 * statistics.median(times):7.1f} ms, "
                  f"p95 {1000 * p95:7.1f} ms, worst {1000 * times[-1]:7.1f} ms "
                  f"over {len(times)} decisions")
