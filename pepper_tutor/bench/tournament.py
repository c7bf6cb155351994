"""Strength of the computer players, measured: duplicate matches between levels.

``python -m pepper_tutor.bench tournament`` deals the same hands twice, once with each level
at North-South and once at East-West, so the cards cancel out; a hand's figure is the
points the first level's side scored less the other side's, averaged over the two seatings.
It prints, per level:

- points per hand against each other level, with a 95% interval;
- how often it bids, bids a pepper, names no trump, takes the exchange, surrenders and bids
  over its own partner, each beside the analysis's best choice **at the same decisions**
  (the first ``--analysis-decisions`` of each kind the level faced: paired, so the two
  rates differ by judgement, not by the hands dealt);
- the share of its contracts played alone (the exchange, or big pepper) and the human
  slips a player should never make (a surrender holding a bower, a pepper bid with fewer
  than three trumps in its best suit);
- how often it makes its contracts, by class (trumps or no trump, with partner or alone,
  the peppers), over the contracts played out (a surrender is counted apart);
- the time it takes per decision (median and 95th percentile; the default level is marked).

``--executor`` runs the deals and the analysis's choices on a pool or a Dask cluster
(:mod:`~pepper_tutor.analysis.executors`): each deal is one task seeded from the seed and its
index, each analysed decision one task seeded from the seed, the level and its index, and the
results are merged in index order, so every figure but the times is the same for any
executor and worker count.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TypeVar

from ..analysis.calling import trump_count
from ..analysis.ceiling import AllSeeing
from ..analysis.executors import (
    DEFAULT_EXECUTOR,
    ExecutorError,
    open_executor,
    parse_executor,
    run_indexed,
)
from ..analysis.players import DEFAULT_LEVEL, Player, play_hand
from ..analysis.playing_out import LADDER, ladder_player
from ..analysis.view import SeatView
from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.ranking import bower
from ..engine.rules import get_ruleset
from ..engine.seats import Seat
from ..engine.state import Action, HandState, Phase

__all__ = ["duplicate", "contract_class", "main", "DealTask", "play_deal", "paired_rates",
           "Tournament", "tournament", "LADDER", "ladder_player", "parse_pairs"]

_Z95 = 1.959963984540054

# The decisions whose choices are compared with the analysis's, and what is counted at each.
_KINDS = ("bid", "pepper", "over partner", "no trump", "exchange", "surrender")


def _counted(kind: str, view: SeatView) -> bool:
    """Whether a decision of this view is one the rate ``kind`` counts."""
    if kind in ("bid", "pepper"):
        return view.phase is Phase.AUCTION
    if kind == "over partner":
        return view.phase is Phase.AUCTION and _partner_standing(view)
    if kind == "no trump":
        return view.phase is Phase.DECLARE_TRUMP
    if kind == "exchange":
        return view.phase is Phase.DECLARE_MODE
    return view.phase is Phase.DEFENSE


def _hit(kind: str, action: Action | None) -> bool:
    """Whether ``action`` is what the rate ``kind`` counts."""
    if kind in ("bid", "over partner"):
        return isinstance(action, Bid) and action is not Bid.PASS
    if kind == "pepper":
        return isinstance(action, Bid) and action.is_pepper
    if kind == "no trump":
        return action is Trump.NT
    if kind == "exchange":
        return action is Mode.EXCHANGE
    return action is Defense.SURRENDER


def _partner_standing(view: SeatView) -> bool:
    """The seat's partner holds the standing bid, and the seat may pass."""
    return (view.partner is not None and view.bidder == view.partner
            and Bid.PASS in view.legal)


def _holds_bower(view: SeatView) -> bool:
    return view.trump not in (None, Trump.NT) and any(
        bower(c, view.trump, view.rules.left_bower) for c in view.hand)


class _Timed:
    """A player whose decisions are timed and whose choices are kept for the rates."""

    def __init__(self, player: Player, stats: _Stats) -> None:
        self.player = player
        self.level = player.level
        self.stats = stats

    def decide(self, view: SeatView) -> Action:
        start = time.perf_counter()
        action = self.player.decide(view)
        self.stats.times.append(time.perf_counter() - start)
        if len(view.legal) > 1:
            self.stats.decisions.append((view, action))
            if view.phase is Phase.DEFENSE and action is Defense.SURRENDER \
                    and _holds_bower(view):
                self.stats.bower_surrenders += 1
            if view.phase is Phase.AUCTION and isinstance(action, Bid) and action.is_pepper:
                hand = [c.index for c in view.hand]
                most = max(trump_count(hand, t, view.rules.left_bower) for t in range(4))
                self.stats.thin_peppers += most < 3
        return action


@dataclass
class _Stats:
    times: list[float] = field(default_factory=list)
    decisions: list[tuple[SeatView, Action]] = field(default_factory=list)
    contracts: int = 0
    alone: int = 0
    surrendered: int = 0
    played: Counter[str] = field(default_factory=Counter)  # class -> contracts played out
    made: Counter[str] = field(default_factory=Counter)  # class -> of those, made
    bower_surrenders: int = 0
    thin_peppers: int = 0

    def add(self, other: _Stats) -> None:
        """Take in another part's figures (a deal played elsewhere), after this one's."""
        self.times += other.times
        self.decisions += other.decisions
        self.contracts += other.contracts
        self.alone += other.alone
        self.surrendered += other.surrendered
        self.played.update(other.played)
        self.made.update(other.made)
        self.bower_surrenders += other.bower_surrenders
        self.thin_peppers += other.thin_peppers


def contract_class(state: HandState) -> str | None:
    """The class of the hand's contract for make rates: the peppers by name, else trumps or
    no trump, with partner or alone; ``None`` for a thrown-in hand."""
    if state.bidder is None:
        return None
    if state.high_bid.is_pepper:
        return state.high_bid.display
    where = "no trump" if state.trump is Trump.NT else "trumps"
    how = "alone" if state.mode is Mode.EXCHANGE else "with partner"
    return f"{where}, {how}"


def _record(state: HandState, seats: dict[Seat, str], stats: dict[str, _Stats]) -> None:
    kind = contract_class(state)
    if kind is None or state.bidder is None:
        return
    s = stats[seats[state.bidder]]
    s.contracts += 1
    s.alone += state.mode is Mode.EXCHANGE or (state.high_bid is Bid.BIG_PEPPER
                                               and state.rules.has_exchange)
    if state.defense is Defense.SURRENDER:
        s.surrendered += 1
        return
    s.played[kind] += 1
    bidders = state.rules.side_of(state.bidder)
    s.made[kind] += state.tricks_won()[bidders] >= state.high_bid.tricks


@dataclass(frozen=True)
class Pairing:
    first: str
    second: str
    deals: int
    mean: float
    low: float
    high: float


@dataclass(frozen=True)
class DealTask:
    """One deal of a pairing, played twice with the seats swapped: the unit of work."""

    first: str
    second: str
    index: int
    seed: int
    rules: str = "standard"


def play_deal(task: DealTask, make: Callable[[str, int], Player] = ladder_player
              ) -> tuple[float, dict[str, _Stats]]:
    """The deal's figure (the first level's side's points less the other's, averaged over
    the two seatings) and what each level did in it. Its cards and players come from the
    seed and the deal's index alone, so it plays the same wherever it runs."""
    ruleset = get_ruleset(task.rules)
    stats = {task.first: _Stats(), task.second: _Stats()}
    i, seed = task.index, task.seed
    per_seating = []
    for swap in (False, True):
        state = HandState.deal(ruleset, Seat(i % 4), random.Random(seed * 100_003 + i))
        levels = {Seat(k): (task.second if (k % 2 == 0) == swap else task.first)
                  for k in range(4)}
        players = {seat: _Timed(make(level, seed * 7919 + i * 4 + int(seat)), stats[level])
                   for seat, level in levels.items()}
        for timed in players.values():
            if isinstance(timed.player, AllSeeing):
                timed.player.see(state)
        play_hand(state, players)
        _record(state, levels, stats)
        points = state.score.points if state.score is not None else {"NS": 0, "EW": 0}
        ours = "EW" if swap else "NS"
        theirs = "NS" if swap else "EW"
        per_seating.append(points[ours] - points[theirs])
    return sum(per_seating) / 2, stats


T = TypeVar("T")
R = TypeVar("R")


def _run(executors: Callable[[], Executor] | None, fn: Callable[[T], R],
         tasks: list[T]) -> list[R]:
    """``[fn(t) for t in tasks]``, in this process or on the executors' workers."""
    if executors is None:
        return [fn(t) for t in tasks]
    return run_indexed(executors, fn, tasks)


def duplicate(first: str, second: str, deals: int, seed: int, stats: dict[str, _Stats],
              rules: str = "standard",
              make: Callable[[str, int], Player] = ladder_player,
              executors: Callable[[], Executor] | None = None) -> Pairing:
    """``first`` against ``second`` over ``deals`` deals, each played twice, seats swapped.
    ``make(level, seed)`` builds a player (default :func:`ladder_player`; another is used in
    this process only); ``executors`` (from :func:`open_executor`) plays the deals on its
    workers, merged in deal order."""
    tasks = [DealTask(first, second, i, seed, rules) for i in range(deals)]
    if make is ladder_player:
        played = _run(executors, play_deal, tasks)
    else:
        played = [play_deal(t, make) for t in tasks]
    diffs = []
    for diff, parts in played:  # deal order: the same figures whatever played them
        diffs.append(diff)
        for level, part in parts.items():
            stats[level].add(part)
    mean = statistics.fmean(diffs)
    half = _Z95 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return Pairing(first, second, deals, mean, mean - half, mean + half)


def _analysis_choice(view: SeatView, samples: int, rng: random.Random) -> Action | None:
    """The analysis's best choice at a decision (auction-aware where others have called)."""
    from ..analysis.advice.calls import advise_bid
    from ..analysis.advice.defense import advise_defense

    if view.phase is Phase.DEFENSE:
        return advise_defense(view, samples, seed=rng).best.defense
    best = advise_bid(view, samples, seed=rng, until_clear=True).best
    if view.phase is Phase.AUCTION:
        return best.bid if best.bid is not None else Bid.PASS
    return best.trump if view.phase is Phase.DECLARE_TRUMP else best.mode


@dataclass(frozen=True)
class Rate:
    kind: str
    decisions: int
    level: int  # how many of them the level chose the counted way
    analysis: int  # how many of them the analysis chose it


@dataclass(frozen=True)
class _ChoiceTask:
    view: SeatView
    samples: int
    seed: str


def _choice_task(task: _ChoiceTask) -> Action | None:
    return _analysis_choice(task.view, task.samples, random.Random(task.seed))


def paired_rates(decisions: Sequence[tuple[SeatView, Action]], per_kind: int, samples: int,
                 seed: int | str, executors: Callable[[], Executor] | None = None
                 ) -> list[Rate]:
    """Each rate of :data:`_KINDS` for the level and for the analysis, over the first
    ``per_kind`` decisions of that kind the level faced (one analysis per decision, seeded
    from ``seed`` and the decision's place among those analysed; on ``executors``' workers
    when given)."""
    chosen = {kind: [(v, a) for v, a in decisions if _counted(kind, v)][:per_kind]
              for kind in _KINDS}
    views: dict[int, int] = {}  # id(view) -> its task's index: a decision analysed once
    tasks: list[_ChoiceTask] = []
    for kind in _KINDS:
        for view, _action in chosen[kind]:
            if id(view) not in views:
                views[id(view)] = len(tasks)
                tasks.append(_ChoiceTask(view, samples, f"{seed}:{len(tasks)}"))
    best = _run(executors, _choice_task, tasks)
    out = []
    for kind in _KINDS:
        level = sum(_hit(kind, action) for _view, action in chosen[kind])
        analysis = sum(_hit(kind, best[views[id(view)]]) for view, _a in chosen[kind])
        out.append(Rate(kind, len(chosen[kind]), level, analysis))
    return out


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:5.1f}%" if d else "    -"


def _p95(times: Sequence[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


@dataclass
class Tournament:
    """What a tournament found: each pairing with the seconds it took, what each level did,
    and each level's rates beside the analysis's."""

    pairings: list[tuple[Pairing, float]]
    stats: dict[str, _Stats]
    rates: dict[str, list[Rate]]


def tournament(pairs: Sequence[tuple[str, str]], deals: int, seed: int,
               rules: str = "standard", per_kind: int = 30, samples: int = 60,
               executor: str | None = DEFAULT_EXECUTOR,
               on_pairing: Callable[[Pairing, float], None] | None = None) -> Tournament:
    """Every pairing's duplicate match, then each level's paired rates, on ``executor``
    (``None``: in this process); ``on_pairing(pairing, seconds)`` as each match ends."""
    stats = {level: _Stats() for level in LADDER}
    played: list[tuple[Pairing, float]] = []
    rates: dict[str, list[Rate]] = {}
    with contextlib.ExitStack() as stack:
        executors = None if executor is None else stack.enter_context(open_executor(executor))
        for first, second in pairs:
            start = time.perf_counter()
            p = duplicate(first, second, deals, seed, stats, rules, executors=executors)
            played.append((p, time.perf_counter() - start))
            if on_pairing is not None:
                on_pairing(*played[-1])
        for level in (lv for lv in LADDER if stats[lv].times):
            rates[level] = paired_rates(stats[level].decisions, per_kind, samples,
                                        f"{seed}:{level}", executors)
    return Tournament(played, stats, rates)


def parse_pairs(parser: argparse.ArgumentParser, text: str) -> list[tuple[str, str]]:
    """``--pairs``: ``first:second`` pairings separated by commas, each of two levels of
    :data:`LADDER` (anything else is the parser's usage error)."""
    pairs = []
    for part in (p for p in text.split(",") if p):
        pair = tuple(part.split(":"))
        if len(pair) != 2 or not set(pair) <= set(LADDER):
            parser.error(f"--pairs: {part} is not two of {', '.join(LADDER)}")
        pairs.append((pair[0], pair[1]))
    return pairs


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m pepper_tutor.bench tournament",
                                     description="Duplicate matches between the levels.")
    from ..apps.commands import MAX_HANDS, MAX_SAMPLES, counted, hands_count, samples_count

    parser.add_argument("--deals", type=hands_count, default=120,
                        help=f"deals per pairing (1 to {MAX_HANDS:,})")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--analysis-decisions", type=counted(0, MAX_HANDS), default=30,
                        help="decisions of each kind per level to compare with the analysis")
    parser.add_argument("--samples", type=samples_count, default=60,
                        help=f"sampled deals per analysis decision (1 to {MAX_SAMPLES:,})")
    parser.add_argument("--pairs", default="club:beginner,expert:club,expert:beginner",
                        help="pairings to play, first:second separated by commas")
    parser.add_argument("--executor", default=DEFAULT_EXECUTOR,
                        help="where the deals and analyses run: local (default), local:N, "
                             "dask-local:N or dask://HOST:PORT (the figures are the same on "
                             "each; only the times differ)")
    args = parser.parse_args(argv)
    pairs = parse_pairs(parser, args.pairs)
    try:
        parse_executor(args.executor)
    except ExecutorError as err:
        parser.error(str(err))
    print(f"Duplicate matches, {args.rules}, {args.deals} deals per pairing, each played "
          "twice with the seats swapped; points per hand for the first level's side less "
          "the other's, 95% interval:", flush=True)

    def said(p: Pairing, seconds: float) -> None:
        print(f"  {p.first:>8} vs {p.second:<8} {p.mean:+6.2f} points per hand "
              f"[{p.low:+.2f}, {p.high:+.2f}]  ({seconds:.0f} s)", flush=True)

    found = tournament(pairs, args.deals, args.seed, args.rules,
                       args.analysis_decisions, args.samples, args.executor, said)
    stats = found.stats
    levels = [lv for lv in LADDER if stats[lv].times]
    print(f"\nChoices at the same decisions, the level / the analysis's best (first "
          f"{args.analysis_decisions} decisions of each kind, {args.samples} sampled deals "
          "each):")
    print(f"  {'':<9}" + "".join(f"{k:>18}" for k in _KINDS))
    for level in levels:
        rates = found.rates[level]
        cells = "".join(f"{_pct(r.level, r.decisions).strip():>7} / "
                        f"{_pct(r.analysis, r.decisions).strip():<6} n{r.decisions:<3}"
                        for r in rates)
        print(f"  {level:<9}{cells}", flush=True)
    print("\nContracts: played alone, surrendered to, and the slips no player should make:")
    for level in levels:
        s = stats[level]
        print(f"  {level:<9} {s.contracts:4d} contracts, alone {_pct(s.alone, s.contracts)}, "
              f"surrendered to {_pct(s.surrendered, s.contracts)}; surrenders holding a "
              f"bower {s.bower_surrenders}, peppers with under three trumps {s.thin_peppers}")
    classes = ("trumps, with partner", "trumps, alone", "no trump, with partner",
               "no trump, alone", Bid.LITTLE_PEPPER.display, Bid.BIG_PEPPER.display)
    print("\nMade, by class of contract (contracts played out):")
    print(f"  {'':<9}" + "".join(f"{c:>24}" for c in classes))
    for level in levels:
        s = stats[level]
        print(f"  {level:<9}" + "".join(
            f"{_pct(s.made[c], s.played[c]).strip() + f' of {s.played[c]}':>24}"
            for c in classes))
    print("\nTime per decision (in the workers that played them, machine shared):")
    for level in levels:
        times = stats[level].times
        mark = "  (the default level)" if level == DEFAULT_LEVEL else ""
        print(f"  {level:<8} median {1000 * statistics.median(times):7.1f} ms, "
              f"p95 {1000 * _p95(times):7.1f} ms, worst {1000 * max(times):7.1f} ms "
              f"over {len(times)} decisions{mark}")
