"""Sampled advice for decisions made without seeing the other hands.

A player who bids, discards, sends a card, defends or plays a card does not know where the
unseen cards are. The advice deals them at random, consistent with everything the player
knows, solves each deal double-dummy with :mod:`pepper_tutor.analysis.solver`, and reports for each
option the expected tricks and points with a 95% confidence interval.

What the player knows: their own hand; the cards already played; the voids shown by play (a
player who failed to follow a suit holds no card of that effective suit); the cards of the
exchange they took part in (the bidder knows the discard and the card received, the partner
knows the card passed). Unknown cards out of play (the undealt cards in cutthroat, the hand of
a partner who sits out, a discard one did not see) take whatever cards are left over.
The deals are exactly uniform over the layouts consistent with those facts (see
:class:`~pepper_tutor.analysis.dealing.Dealer`); then, whenever another seat has made a
call, each deal is kept with the likelihood that its hands made the calls seen, by the
simple calling model of :mod:`pepper_tutor.analysis.calling` (a pass says "not strong
enough to bid", a bid of 5 promises a strong hand). That is rejection sampling: the deals
kept are distributed in proportion to that likelihood, and the report says how many were
dealt to keep them.
``auction=False`` turns it off.

Assumptions, stated in every report's notes:

- Play is double-dummy: once the cards are dealt, everyone plays as if they could see them
  all. That flatters the defenders and the bidder alike, and is the usual yardstick.
- The partner in an exchange sends by a simple rule: the highest trump held, else the highest
  card (:func:`~pepper_tutor.analysis.dealing.send_rule`). Where the bidder's discard is
  not the decision being advised, it follows
  :func:`~pepper_tutor.analysis.dealing.discard_rule` (the lowest card of the shortest
  plain suit, keeping aces).
- Bid advice assumes the defenders play: a surrender only ever gives the bidders as much.

Options are ranked by ``net``, the decision maker's points less the mean of the other sides'
points: the game is a race, so points handed to the other side count against you. Where
``net`` cannot be known (a non-bidder in three- or four-handed cutthroat, whose rivals' split
of the tricks the solver does not fix) they are ranked by ``score``.

Every function takes the hand, a :class:`~pepper_tutor.engine.state.HandState`, or the
deciding seat's :class:`~pepper_tutor.analysis.view.SeatView` of it, and reads only the view
(the state is turned into the view of the seat to act): a computer player hands over the
view it was given, and the advice deals the unseen cards from it, once. Then ``samples``;
a ``seed`` (an int or a :class:`random.Random`: the same seed gives the same report); an
optional ``progress(done, total)`` callback, called as sampled deals are solved, for a
progress bar; and ``workers``, the number of processes that solve the deals (1: in this
process). Deals are drawn one at a time as they are solved and
in the same order whatever ``workers``; what each deal showed is added to running counts
(per option and per pair of options, how many deals gave each trick count) and dropped,
so memory does not grow with the sample count, and the report does not depend on
``workers`` (but for bid advice's ``drop_worse``, which works in one process). Ctrl-C
stops worker processes at once.
``until_clear=True`` stops sampling as soon as the best option is better than every other
at 95% (paired over the same deals), checked every 10 deals after the first 30. Bid advice
by default (``drop_worse``) stops solving a trump and way of playing once every bid in it
is shown worse than the best at 95%, looking every 10 deals from the 10th, and goes on
with the others for every deal: the options in the race get every sample, and a choice
that no longer could be best costs no more solving.

This module holds the options, the estimates and the ``advise_*`` functions; the dealing of
the unseen cards (:class:`~pepper_tutor.analysis.dealing.Dealer`), what the viewer knows and
the exchange rules are in :mod:`pepper_tutor.analysis.dealing`.
"""

from __future__ import annotations

import functools
import math
import multiprocessing
import os
import random
import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Any, TypeVar

from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.cards import DECK, Card
from ..engine.rules import RuleSet
from ..engine.scoring import score_hand
from ..engine.seats import Seat
from ..engine.state import HandState, Phase
from ..files.runtime import can_start_processes
from .calibration import MADE, POOLED, distribution, kind_of, sweep_chance
from .calling import (
    auction_weight,
    hand_value,
    model_call,
    model_declaration,
    model_surrenders,
)
from .dealing import Dealer, discard_rule, position_seed, send_rule, void_masks
from .inference import declaration
from .signals import fits_signals, shown_calls
from .solver import Position, TranspositionTable, solve, takes_at_least
from .view import SeatView, view_of
from .workers import start_worker, starting_workers, stop_now, stopping_on_signals, wait_first

__all__ = [
    "MAX_SAMPLES",
    "AdviceRequestError",
    "Progress",
    "Estimate",
    "OptionAdvice",
    "Advice",
    "advise",
    "advise_bid",
    "SolvedDeals",
    "advise_discard",
    "advise_send",
    "advise_defense",
    "advise_play",
    "Tally",
    "TalliedOption",
    "is_clear",
]

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called as sampled deals are solved."""

Seed = int | random.Random | None

_Z95 = 1.959963984540054  # two-sided 95% point of the normal distribution


# ---- results -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """A sample mean with its 95% confidence interval (normal approximation)."""

    mean: float
    low: float
    high: float
    samples: int  # 0 for a value known exactly

    @classmethod
    def of(cls, values: Sequence[float]) -> Estimate:
        n = len(values)
        if n == 0:
            raise ValueError("an estimate needs at least one sample")
        mean = math.fsum(values) / n
        if n == 1:
            return cls(mean, mean, mean, 1)
        var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
        half = _Z95 * math.sqrt(var / n)
        return cls(mean, mean - half, mean + half, n)

    @classmethod
    def of_counts(cls, counts: Iterable[tuple[float, int]]) -> Estimate:
        """The estimate of values given with how many samples took each: ``(value, count)``
        pairs, as a histogram holds them (the same figures as :meth:`of` on the list)."""
        pairs = [(v, k) for v, k in counts if k > 0]
        n = sum(k for _, k in pairs)
        if n == 0:
            raise ValueError("an estimate needs at least one sample")
        mean = math.fsum(v * k for v, k in pairs) / n
        if n == 1:
            return cls(mean, mean, mean, 1)
        var = math.fsum(k * (v - mean) ** 2 for v, k in pairs) / (n - 1)
        half = _Z95 * math.sqrt(var / n)
        return cls(mean, mean - half, mean + half, n)

    @classmethod
    def exact(cls, value: float) -> Estimate:
        """A value known for certain (the points of a surrender or a pass)."""
        return cls(value, value, value, 0)

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def __str__(self) -> str:
        if self.samples == 0:
            return f"{self.mean:.2f} exactly"
        return f"{self.mean:.2f} ± {self.half_width:.2f}"


@dataclass(frozen=True)
class OptionAdvice:
    """One option and what it is worth to the side deciding.

    The fields naming the option are set as the decision needs: ``bid``, ``trump`` and
    ``mode`` for a bid (``mode`` is ``None`` for pass, for big pepper, which is played alone
    without an exchange, and in cutthroat); ``card`` to discard, send or play; ``defense``.
    ``tricks`` counts the side's tricks over the whole hand (``None`` where no tricks are
    played, as for a surrender, or not counted: a big pepper is only solved for the sweep),
    ``score`` its points for the hand, ``net`` those points less the mean of the other
    sides' points (``None`` when that cannot be known).
    """

    label: str
    tricks: Estimate | None
    score: Estimate
    net: Estimate | None
    bid: Bid | None = None
    trump: Trump | None = None
    mode: Mode | None = None
    card: Card | None = None
    defense: Defense | None = None
    makes: float | None = None  # share of sampled deals in which the contract is made
    # The best option's net (else points) less this one's, paired over the deals both were
    # solved on, with its 95% interval: what choosing this option loses (exactly 0 for
    # the best). Far narrower than the two options' own intervals, which share the deals.
    loss: Estimate | None = None

    def __str__(self) -> str:
        tricks = f"tricks {self.tricks}, " if self.tricks is not None else ""
        net = f", net {self.net}" if self.net is not None else ""
        return f"{self.label}: {tricks}points {self.score}{net}"


@dataclass(frozen=True)
class Advice:
    """The options of one decision, best first, with the sampling facts and assumptions."""

    decision: str  # "bid", "declare", "discard", "send", "defense" or "play"
    seat: Seat
    side: str  # whose figures these are: "NS", "EW", or a seat in cutthroat
    samples: int
    options: tuple[OptionAdvice, ...]
    notes: tuple[str, ...] = ()
    # Bid advice lists one level per trump and way of playing; every level is kept here.
    candidates: tuple[OptionAdvice, ...] = ()

    @property
    def best(self) -> OptionAdvice:
        return self.options[0]

    def choice(self, action: object) -> OptionAdvice | None:
        """The option for an action a player took: the card, the defense, or for a bid the
        best option at that level (a trump or way of playing names the best option with
        it). ``None`` when the advice has no such option."""
        for o in (*self.candidates, *self.options):  # candidates: every level, best first
            if action in (o.card, o.defense) and action is not None:
                return o
            if action is o.bid and self.decision == "bid":
                return o
            if action is not None and action in (o.trump, o.mode) and self.decision == "declare":
                return o
        return None

    def option(self, label: str) -> OptionAdvice:
        """The option with this label (``"send J♥"``, ``"surrender"``, ``"pass"``)."""
        for o in self.options:
            if o.label == label:
                return o
        raise KeyError(f"no option {label!r}: {', '.join(o.label for o in self.options)}")

    def __str__(self) -> str:
        head = (f"{self.decision.capitalize()} advice for {self.seat} ({self.side}), "
                f"{self.samples} sampled deal{'s' if self.samples != 1 else ''}, "
                "95% intervals:")
        width = max(len(o.label) for o in self.options)
        lines = [head]
        for i, o in enumerate(self.options):
            tricks = f"tricks {o.tricks}" if o.tricks is not None else "tricks -"
            net = f"   net {o.net}" if o.net is not None else ""
            mark = "*" if i == 0 else " "
            fewer = (f"   ({o.score.samples} deals)"
                     if 0 < o.score.samples < self.samples else "")
            lines.append(f" {mark} {o.label:<{width}}   {tricks:<18} points {o.score}{net}"
                         f"{fewer}")
        lines.extend(f"  note: {n}" for n in self.notes)
        return "\n".join(lines)


# ---- the hands of a position ----------------------------------------------------------------


def _seen(state: HandState | SeatView) -> SeatView:
    """What the seat deciding knows, which is all the advice reads: a view as given, or the
    view of the seat to act in a whole hand."""
    if not isinstance(state, SeatView):
        return view_of(state)
    if not state.my_turn:
        raise ValueError(f"advice is for the seat to act ({state.to_act}), not {state.seat}")
    return state


def _indices(cards: Iterable[Card]) -> tuple[int, ...]:
    return tuple(c.index for c in cards)


def _trump_of(view: SeatView) -> int:
    """The trump named (0-4), once it is."""
    assert view.trump is not None, "no trump is named yet"
    return int(view.trump)


def _bidder_of(view: SeatView) -> int:
    assert view.bidder is not None, "no one has bid yet"
    return int(view.bidder)


def _side_seats(rules: RuleSet, seat: int) -> frozenset[int]:
    return frozenset(s for s in range(rules.players) if rules.side_of(s) == rules.side_of(seat))


def _hands(players: int, hands: Mapping[int, Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """Position hands: one sorted tuple per seat, empty for seats not given (sitting out)."""
    return tuple(tuple(sorted(hands.get(s, ()))) for s in range(players))


# ---- drawing and solving the deals, here or in worker processes ----------------------------

_R = TypeVar("_R")
_Tables = dict[Hashable, TranspositionTable]
_Work = Callable[[Any, list[list[int]], _Tables], _R]
_WORKER_TABLES: _Tables = {}  # per worker process: tables live across its chunks
_Accept = Callable[[list[list[int]]], float]

_FIRST_LOOK = 30  # samples before stopping early is considered
_LOOK_EVERY = 10
_FIRST_DROP = 10  # samples before bid advice drops an option shown worse
_MAX_DRAWS = 40  # per sample: past this, one of the deals drawn is picked by its likelihood


def _work_chunk(work: _Work[_R], context: Any, deals: list[list[list[int]]]) -> list[_R]:
    return [_solve_one(work, context, deal, _WORKER_TABLES) for deal in deals]


def _solve_one(work: _Work[_R], context: Any, deal: list[list[int]], tables: _Tables) -> _R:
    """``work`` on one deal, its tables emptied after. Entries carried from one deal to the
    next hardly ever answer a search there (paired timings: no faster), and emptying
    them keeps memory flat in the number of deals."""
    try:
        return work(context, deal, tables)
    finally:
        for table in tables.values():
            table.clear()


@dataclass
class _Draws:
    """How many deals were dealt and how many the auction kept."""

    drawn: int = 0
    kept: int = 0
    forced: int = 0  # picked by likelihood among the deals drawn, none kept by rejection


def _deals(dealer: Dealer, samples: int, rng: random.Random, accept: _Accept | None,
           draws: _Draws) -> Iterator[list[list[int]]]:
    """Up to ``samples`` deals, drawn one at a time (memory flat in the sample count); with
    ``accept``, each kept with its likelihood (rejection sampling). Where the calls are so
    unlikely that :data:`_MAX_DRAWS` deals pass without one kept, one of those that could
    have made them is picked in proportion to its likelihood (importance resampling): the
    deals still follow the calls. (That was once the end of one budget of tries for all
    the samples, past which every deal was kept at random: after a little pepper nine
    deals in ten had a random bidder.) Only where no deal tried can (a bid signal the cards
    cannot back) does that budget still end the search."""
    for _ in range(samples):
        tries = 0
        likely: list[tuple[float, list[list[int]]]] = []  # deals tried that could have been
        while True:
            deal = dealer.deal(rng)
            draws.drawn += 1
            if accept is None:
                break
            weight = accept(deal)
            if rng.random() < weight:
                break
            tries += 1
            if weight > 0.0:
                likely.append((weight, deal))
            # past the budget for all samples, only where no deal tried could have made
            # the calls (a bid signal the cards cannot back) is one kept at random
            if (tries >= _MAX_DRAWS and likely) or draws.drawn >= _MAX_DRAWS * samples:
                draws.forced += 1
                if likely:
                    deal = _resample(likely, rng)
                break
        draws.kept += 1
        yield deal


def _resample(tried: Sequence[tuple[float, list[list[int]]]], rng: random.Random
              ) -> list[list[int]]:
    """One of ``tried`` in proportion to its weight."""
    total = sum(w for w, _ in tried)
    x = rng.random() * total
    for weight, deal in tried:
        x -= weight
        if x < 0.0:
            return deal
    return tried[-1][1]


_COUNTS = 7  # a side takes 0 to 6 tricks in a hand

LATER_SPREAD = 0.0
"""Error, in tricks, of the calls the seats yet to call make in bid advice: none, as the
computer players call (each its estimate's bid). The sampling's :data:`~.calling.SPREAD`
(0.8) read as how erratic people are makes a later seat top a 4 about three times as often
(in one measured hand a quarter of the deals against 7%), which no table sees."""

MIN_SHARE_DEALS = 30
"""Deals an option must be solved on before the advice says how often it makes."""

Outcome = Hashable
"""What one deal showed for one column: the side's trick count (an int, 0-6), or for a call
a tuple that also says what the rest of the auction made of it (see :func:`advise_bid`);
-1 or ``None`` where the column was not solved."""


def _unsolved(outcome: Outcome) -> bool:
    return outcome is None or (isinstance(outcome, int) and outcome < 0)


class Tally:
    """What the sampled deals showed, in counts that do not grow with the deals.

    Each deal gives a row: per column (a way of playing one option: a card, a trump and
    way of playing, ...) its outcome, the side's trick count or, for a call, the trick
    count with what the rest of the auction made of the call; -1 where that column was
    not solved. The tally keeps, per column, how many deals gave each outcome, and per
    pair of columns how many gave each pair of outcomes. Every figure the report needs is
    a function of those: an option's mean and 95% interval of tricks, points and net, how
    often a bid makes, and the paired differences that say when the best option is clear
    and how much a choice loses. Outcomes are few (a trick count, a bid level, a contract's
    worth), so memory is flat in the number of deals."""

    __slots__ = ("deals", "joint", "single", "width")

    def __init__(self, width: int) -> None:
        self.width = width
        self.deals = 0
        self.single: list[dict[Outcome, int]] = [{} for _ in range(width)]
        # joint[i * width + j] for i < j: counts of (outcome in i, outcome in j)
        self.joint: dict[int, dict[tuple[Outcome, Outcome], int]] = {}

    def add(self, row: Sequence[Outcome]) -> None:
        self.deals += 1
        live = [(i, n) for i, n in enumerate(row) if not _unsolved(n)]
        single, joint, width = self.single, self.joint, self.width
        for a, (i, n) in enumerate(live):
            counts = single[i]
            counts[n] = counts.get(n, 0) + 1
            base = i * width
            for j, m in live[a + 1:]:
                pairs = joint.get(base + j)
                if pairs is None:
                    pairs = joint[base + j] = {}
                pairs[n, m] = pairs.get((n, m), 0) + 1

    def solved(self, column: int) -> int:
        return sum(self.single[column].values())

    def counts(self, column: int) -> list[int]:
        """How many deals gave each trick count (index) in a column of trick counts."""
        found = self.single[column]
        return [found.get(n, 0) for n in range(_COUNTS)]

    def outcomes(self, column: int) -> list[tuple[Outcome, int]]:
        """Each outcome seen in ``column`` with how many deals gave it."""
        return list(self.single[column].items())

    def share(self, column: int, chance: Callable[[Any], float]) -> float:
        """The mean over the deals of ``chance(outcome)`` (a probability: how often)."""
        total = self.solved(column)
        return math.fsum(chance(n) * k for n, k in self.single[column].items()) / total

    def estimate(self, column: int, value: Callable[[Any], float]) -> Estimate:
        return Estimate.of_counts((value(n), k) for n, k in self.single[column].items())

    def difference(self, a: TalliedOption, b: TalliedOption) -> tuple[float, float, int, bool]:
        """``a``'s worth less ``b``'s over the deals both were solved on (paired):
        ``(mean, 95% low, deals, always equal)``."""
        e = self.paired(a, b)
        if e is None:
            if a.column is None and b.column is None:
                d = a.value(0) - b.value(0)
                return d, d, 0, d == 0
            return 0.0, -math.inf, 0, False
        est, equal = e
        return est.mean, est.low, est.samples, equal

    def paired(self, a: TalliedOption, b: TalliedOption) -> tuple[Estimate, bool] | None:
        """The estimate of ``a``'s worth less ``b``'s, paired over the deals both were
        solved on, and whether they were equal on every deal; ``None`` with no such deal
        (or two values known exactly)."""
        pairs: list[tuple[float, int]]
        if a.column is None or b.column is None or a.column == b.column:
            col = a.column if a.column is not None else b.column
            if col is None:
                return None
            pairs = [(a.value(n) - b.value(n), k) for n, k in self.single[col].items()]
        else:
            i, j = sorted((a.column, b.column))
            fa, fb = (a.value, b.value) if i == a.column else (b.value, a.value)
            sign = 1.0 if i == a.column else -1.0
            table = self.joint.get(i * self.width + j, {})
            pairs = [(sign * (fa(n) - fb(m)), k) for (n, m), k in table.items()]
        pairs = [(v, k) for v, k in pairs if k]
        if not pairs:
            return None
        return Estimate.of_counts(pairs), all(v == 0 for v, _ in pairs)


@dataclass(frozen=True)
class TalliedOption:
    """An option as the tally sees it: the column it is solved in (``None`` for a value
    known exactly, as a pass or a surrender) and its worth for a trick count there."""

    column: int | None
    value: Callable[[Any], float]

    def mean(self, tally: Tally) -> float:
        if self.column is None:
            return self.value(0)
        if not tally.solved(self.column):
            return -math.inf
        return tally.estimate(self.column, self.value).mean


def _best(tally: Tally, choices: Sequence[TalliedOption]) -> int:
    means = [c.mean(tally) for c in choices]
    return max(range(len(choices)), key=lambda k: means[k])


def _shown_worse(tally: Tally, best: TalliedOption, other: TalliedOption) -> bool:
    """Whether ``other`` is worse than ``best`` at 95%, paired over the same deals."""
    _, low, deals, equal = tally.difference(best, other)
    return not equal and deals >= 2 and low > 0


def is_clear(tally: Tally, choices: Sequence[TalliedOption]) -> bool:
    """Whether one option is better than every other at 95%, by the paired differences of
    their worth over the deals both were solved on. Options worth the same on every deal
    (equivalent cards) are not rivals; an option never solved is out of the race."""
    if not choices:
        return False
    best = choices[_best(tally, choices)]
    for other in choices:
        if other is best or other.mean(tally) == -math.inf:
            continue
        _, low, deals, equal = tally.difference(best, other)
        if equal:
            continue
        if deals < 2 or low <= 0:
            return False
    return True


def _looks(done: int) -> bool:
    return done >= _FIRST_LOOK and (done - _FIRST_LOOK) % _LOOK_EVERY == 0


def _drops(done: int) -> bool:
    return done >= _FIRST_DROP and done % _LOOK_EVERY == 0


def _solve_all(work: _Work[_R], context: Any, deals: Iterable[list[list[int]]], total: int,
               workers: int, progress: Progress | None, tally: Tally,
               row: Callable[[_R], Sequence[Outcome]],
               choices: Sequence[TalliedOption] | None = None,
               prune: Callable[[Tally], None] | None = None,
               record: Callable[[list[list[int]], _R], None] | None = None) -> None:
    """``work(context, deal, tables)`` for every deal, its ``row`` of trick counts added to
    ``tally`` (the answers themselves are not kept, but by ``record(deal, answer)``, called
    here in this process), with progress reports.

    The tables (one per kind of position, see :class:`TranspositionTable`) serve the
    options of one deal and are emptied before the next. With ``choices`` it stops as soon
    as the best of them is clear at 95%; ``prune(tally)`` may stop solving options in
    ``context`` (both in this process only).
    With ``workers > 1`` the deals are cut into chunks solved by that many processes, a few
    chunks in flight at a time; the tally is the same, since the solver is deterministic,
    the deals fixed and counts do not depend on the order they are added in. Where no
    process can be started (a browser tab) the deals are solved here, one after another."""
    if workers <= 1 or total < 2 * workers or not can_start_processes():
        tables: _Tables = {}
        for deal in deals:
            result = _solve_one(work, context, deal, tables)
            if record is not None:
                record(deal, result)
            tally.add(row(result))
            done = tally.deals
            if progress is not None:
                progress(done, total)
            if prune is not None and done < total and _drops(done):
                prune(tally)
            if choices is not None and _looks(done) and is_clear(tally, choices):
                break
        return
    _solve_in_workers(work, context, deals, total, workers, progress, tally, row, record)


def _solve_in_workers(work: _Work[_R], context: Any, deals: Iterable[list[list[int]]],
                      total: int, workers: int, progress: Progress | None, tally: Tally,
                      row: Callable[[_R], Sequence[Outcome]],
                      record: Callable[[list[list[int]], _R], None] | None) -> None:
    size = max(1, math.ceil(total / (8 * workers)))  # small chunks: a smooth progress bar
    # fork is quick, but unsafe in a process that runs threads (a notebook's kernel).
    method = ("fork" if "fork" in multiprocessing.get_all_start_methods()
              and threading.active_count() == 1 else "spawn")
    source = iter(deals)
    # The workers end with this process whatever ends it (see analysis/workers.py).
    with stopping_on_signals():
        _run_pool(work, context, source, size, total, workers, method, progress, tally, row,
                  record)


def _run_pool(work: _Work[_R], context: Any, source: Iterator[list[list[int]]], size: int,
              total: int, workers: int, method: str, progress: Progress | None,
              tally: Tally, row: Callable[[_R], Sequence[Outcome]],
              record: Callable[[list[list[int]], _R], None] | None) -> None:
    with starting_workers():
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method),
                                   initializer=start_worker, initargs=(os.getpid(),))
    try:
        chunks: dict[Future[list[_R]], list[list[list[int]]]] = {}  # each future's deals
        exhausted = False
        while chunks or not exhausted:
            while not exhausted and len(chunks) < 2 * workers:
                chunk = list(islice(source, size))
                if not chunk:
                    exhausted = True
                    break
                with starting_workers():
                    chunks[pool.submit(_work_chunk, work, context, chunk)] = chunk
            if not chunks:
                break
            finished = wait_first(chunks)
            for future in finished:
                for deal, result in zip(chunks.pop(future), future.result(), strict=True):
                    if record is not None:
                        record(deal, result)
                    tally.add(row(result))
                if progress is not None:
                    progress(tally.deals, total)
    except BaseException:
        stop_now(pool)
        raise
    pool.shutdown(wait=True)


_TABLE_ENTRIES = 300_000  # per kind of position: bounds memory however many samples


def _table(tables: _Tables, name: Hashable) -> TranspositionTable:
    table = tables.get(name)
    if table is None:
        table = tables[name] = TranspositionTable(_TABLE_ENTRIES)
    return table


def _tricks(position: Position, tables: _Tables, name: Hashable) -> int:
    return solve(position, _table(tables, name), card_values=False).tricks


def _rng(seed: Seed, view: SeatView | None = None) -> random.Random:
    """The advice's random numbers: a generator or an int seed given is used as it is;
    with none they are seeded from the position itself (:func:`~.dealing.position_seed`),
    never from a global generator, so the same decision in the same position, asked again
    after a take-back or on a replay, meets the same deals and gets the same report."""
    if isinstance(seed, random.Random):
        return seed
    if seed is None and view is not None:
        return random.Random(position_seed(view))
    return random.Random(seed)


def _with_losses(tally: Tally, ranked: Sequence[OptionAdvice],
                 tallied: Mapping[str, TalliedOption], best: OptionAdvice
                 ) -> tuple[OptionAdvice, ...]:
    """The options with what each loses against ``best``, paired over the same deals."""
    top = tallied.get(best.label)
    out = []
    for o in ranked:
        mine = tallied.get(o.label)
        if o.label == best.label:
            loss: Estimate | None = Estimate.exact(0.0)
        elif top is None or mine is None:
            loss = None
        else:
            found = tally.paired(top, mine)
            loss = None if found is None else found[0]
            if found is None and top.column is None and mine.column is None:
                loss = Estimate.exact(top.value(0) - mine.value(0))
        out.append(replace(o, loss=loss))
    return tuple(out)


def _play_note(calibrated: bool) -> str:
    if calibrated:
        return ("play is solved double-dummy on each sampled deal, then each trick count is "
                "taken as the tricks expected in play by people who cannot see the cards "
                "(the measured calibration)")
    return _DOUBLE_DUMMY


MAX_SAMPLES = 10_000
"""The most deals one advice solves: every deal is a full double-dummy solve, and the
advice is steady long before (the command line's ``--samples`` stops at the same figure)."""


class AdviceRequestError(ValueError):
    """An advice asked for with arguments it cannot take: the wrong kind of position, a
    sample count that is not a whole number from 1 to :data:`MAX_SAMPLES`, a seed that is
    no seed, a worker count outside 1 to the machine's CPUs. Nothing was dealt or
    solved."""


def _check_request(state: object, samples: object, seed: object = None, workers: object = 1,
                   progress: object = None) -> None:
    """Refuse, before any work, what every advice's entry point would otherwise fail on
    deep inside (an ``AttributeError``, a ``TypeError``) or run on for hours."""
    if not isinstance(state, (HandState, SeatView)):
        raise AdviceRequestError(f"advice is for a HandState or a SeatView, not "
                                 f"{type(state).__name__}")
    if type(samples) is not int:  # a bool is an int, and no count
        raise AdviceRequestError(f"samples is a whole number, not {type(samples).__name__}")
    if not 1 <= samples <= MAX_SAMPLES:
        raise AdviceRequestError(f"samples must be from 1 to {MAX_SAMPLES:,}, not "
                                 f"{samples:,}")
    if seed is not None and not isinstance(seed, (int, str, bytes, random.Random)):
        raise AdviceRequestError(f"seed is a whole number, a text or a random.Random, not "
                                 f"{type(seed).__name__}")
    most = os.cpu_count() or 1  # more processes than CPUs only wait on each other
    if type(workers) is not int or not 1 <= workers <= most:
        raise AdviceRequestError(f"workers is a whole number from 1 to {most} (the CPUs of "
                                 f"this machine), not {workers!r}"[:160])
    if progress is not None and not callable(progress):
        raise AdviceRequestError(f"progress is a function of (done, total), not "
                                 f"{type(progress).__name__}")


def _reads_auction(view: SeatView, viewer: int, auction: bool | None) -> bool:
    """Auction-aware by default whenever another seat has made a call."""
    if auction is False:
        return False
    return any(int(seat) != viewer for seat, _ in view.calls)


class _CallsAccept:
    """How likely a deal is to have made the calls seen, for a deal whose buckets hold
    ``seats``' cards (``None`` for a bucket of no seat); the cards each seat played are
    added back, and ``extra`` may rebuild hands the buckets do not hold whole (an
    exchange). Nothing where another seat's call showed cards the deal does not give it
    (the table's bid signals, :mod:`.signals`, read whatever ``likely`` says); with
    ``likely``, the calling model's likelihood of the calls
    (:func:`~.calling.auction_weight`), else 1."""

    def __init__(self, view: SeatView, viewer: int, seats: Sequence[int | None],
                 extra: Callable[[list[list[int]]], dict[int, list[int]]] | None,
                 likely: bool) -> None:
        self.played: dict[int, list[int]] = {}
        for t in view.tricks:
            for s, c in zip(t.seats, t.cards, strict=True):
                self.played.setdefault(int(s), []).append(c.index)
        for seat, card in view.trick:
            self.played.setdefault(int(seat), []).append(card.index)
        self.shown = shown_calls(view.rules, view.calls, viewer)
        self.callers = {int(s) for s, _ in view.calls} - {viewer}
        self.declared = declaration(view)
        self.rules, self.dealer, self.calls = view.rules, int(view.dealer), list(view.calls)
        self.seats, self.extra, self.likely = seats, extra, likely

    def __call__(self, deal: list[list[int]]) -> float:
        played, callers = self.played, self.callers
        hands = {s: deal[k] + played.get(s, []) for k, s in enumerate(self.seats)
                 if s is not None and s in callers}
        if self.extra is not None:
            hands.update({s: h for s, h in self.extra(deal).items() if s in callers})
        if self.shown and not fits_signals(self.rules, self.shown, hands):
            return 0.0
        return auction_weight(self.rules, self.dealer, self.calls, hands, self.declared) \
            if self.likely else 1.0



def _calls_accept(view: SeatView, viewer: int, auction: bool | None,
                  seats: Sequence[int | None],
                  extra: Callable[[list[list[int]]], dict[int, list[int]]] | None = None
                  ) -> _CallsAccept | None:
    """What keeps a deal (:class:`_CallsAccept`): the auction read
    (:func:`_reads_auction`) and the other seats' bid signals; ``None`` when neither
    applies, and every deal is kept."""
    accept = _CallsAccept(view, viewer, seats, extra, _reads_auction(view, viewer, auction))
    return accept if accept.likely or accept.shown else None


def _auction_note(draws: _Draws, accept: _CallsAccept) -> str:
    if accept.likely:
        note = ("the auction is read: each deal kept in proportion to how likely the other "
                "seats were to make their calls with it"
                + (", and only where their bid signals hold" if accept.shown else "")
                + f" ({draws.kept} of {draws.drawn} dealt kept)")
    else:
        note = (f"the bid signals are read: a deal is kept only where each 2 bid holds an "
                f"ace and each 3 a red jack and a black jack ({draws.kept} of {draws.drawn} "
                "dealt kept)")
    if draws.forced:
        note += (f"; {draws.forced} deals picked by that likelihood among {_MAX_DRAWS} or "
                 "more dealt (or, where none fits, kept without that test), the calls being "
                 "too unlikely to meet by chance")
    return note


def _net_choices(worth: Sequence[tuple[float, float]], columns: int) -> list[TalliedOption]:
    """One choice per column, worth the net points for the bidders' tricks (``worth``:
    ``(points, net)`` per trick count)."""
    return [TalliedOption(k, lambda n: worth[n][1]) for k in range(columns)]


def _losses(tally: Tally, options: Sequence[OptionAdvice],
            worth: Sequence[tuple[float, float]] | Callable[[int], float]
            ) -> tuple[OptionAdvice, ...]:
    """The options ranked, each with its paired loss against the best: one column each
    (in the given order), every column worth the same function of its trick count."""
    ranked = _ranked(options)
    value = (worth if callable(worth) else (lambda n: worth[n][1]))
    tallied = {o.label: TalliedOption(k, value) for k, o in enumerate(options)}
    return _with_losses(tally, ranked, tallied, ranked[0])


def _stopped(until_clear: bool, tally: Tally, samples: int) -> tuple[str, ...]:
    if until_clear and tally.deals < samples:
        return (f"sampling stopped after {tally.deals} deals: the best option was already "
                "clear at 95%",)
    return ()


def _same(row: Sequence[Outcome]) -> Sequence[Outcome]:
    """A sample that is already a row of trick counts, one per option."""
    return row


def _one(tricks: int) -> tuple[int]:
    """A sample of one trick count: the tally's one column."""
    return (tricks,)


_RANDOM_NOTE = "the other hands are dealt at random: the auction so far is not read"


# ---- scoring an outcome ----------------------------------------------------------------------


class _Scorer:
    """Points for the viewer's side, and its net, from the bidders' final trick count.

    The answer depends only on the bid and that count, so it is memoised: score_hand also
    writes explanations, which the inner loop does not need."""

    def __init__(self, rules: RuleSet, bidder: int, viewer: int) -> None:
        self.rules = rules
        self.bidder_side = rules.side_of(bidder)
        self.viewer_side = rules.side_of(viewer)
        self.others = [s for s in rules.sides if s != self.bidder_side]
        self.memo: dict[tuple[Bid, int | None], tuple[float, float]] = {}

    def __call__(self, bid: Bid, bidder_tricks: int | None) -> tuple[float, float]:
        """``(points, net)``; ``bidder_tricks=None`` scores a surrender."""
        key = (bid, bidder_tricks)
        found = self.memo.get(key)
        if found is None:
            tricks = {side: 0 for side in self.rules.sides}
            if bidder_tricks is not None:
                tricks[self.bidder_side] = bidder_tricks
                # Other sides score their tricks: only their total matters to the mean.
                tricks[self.others[0]] = 6 - bidder_tricks
            points = score_hand(self.rules, bid, self.bidder_side, tricks,
                                surrendered=bidder_tricks is None).points
            own = points[self.viewer_side]
            rivals = [v for side, v in points.items() if side != self.viewer_side]
            found = self.memo[key] = (float(own), own - math.fsum(rivals) / len(rivals))
        return found


def _option(label: str, tally: Tally, column: int,
            points: Callable[[Any], tuple[float, float]] | None = None, *,
            scores: Callable[[Any], float] | None = None,
            tricks: Callable[[Any], float] | None = float, bid: Bid | None = None,
            trump: Trump | None = None, mode: Mode | None = None, card: Card | None = None,
            defense: Defense | None = None, makes: float | None = None) -> OptionAdvice:
    """An option from its column of the tally: ``points(n)`` gives ``(points, net)`` for
    the trick count ``n`` solved there, or bare ``scores(n)`` where the net is unknown;
    ``tricks(n)`` the side's tricks (``None``: not reported). For a bid, ``makes``
    defaults to the share of deals with the bid's tricks."""
    counts = tally.counts(column)
    if makes is None and bid is not None and bid is not Bid.PASS and tricks is not None:
        makes = sum(counts[bid.tricks:]) / sum(counts)
    if tally.solved(column) < MIN_SHARE_DEALS:
        makes = None  # "makes in 100% of deals" is not a finding over a handful of deals
    if points is not None:
        score = tally.estimate(column, lambda n: points(n)[0])
        net: Estimate | None = tally.estimate(column, lambda n: points(n)[1])
    else:
        score, net = tally.estimate(column, scores or (lambda n: 0.0)), None
    return OptionAdvice(label, None if tricks is None else tally.estimate(column, tricks),
                        score, net, bid=bid, trump=trump, mode=mode, card=card,
                        defense=defense, makes=makes)


def _ranked(options: Sequence[OptionAdvice]) -> tuple[OptionAdvice, ...]:
    """Best first: by net where every option has one, else by points; then by tricks."""
    by_net = all(o.net is not None for o in options)

    def key(o: OptionAdvice) -> tuple[float, float]:
        main = o.net.mean if by_net and o.net is not None else o.score.mean
        return (-main, -(o.tricks.mean if o.tricks is not None else 0.0))

    return tuple(sorted(options, key=key))


_DOUBLE_DUMMY = "play is double-dummy on each sampled deal (everyone plays as if seeing all)"
_SEND_NOTE = "the partner's card is the rule's: the highest trump held, else the highest card"
_DISCARD_NOTE = ("the bidder's discard is the rule's: the lowest card of the shortest plain "
                 "suit, keeping aces")


# ---- the bid ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _BidTask:
    players: int
    viewer: int
    partner: int | None  # None: no partner plays or sits out (cutthroat without pairs)
    side: frozenset[int]
    own: tuple[int, ...]
    others: tuple[int, ...]
    trumps: tuple[int, ...]
    ways: tuple[str, ...]  # "partner", "exchange" or "play" (cutthroat)
    discards: tuple[int, ...]  # per trump, the rule's discard for the exchange
    big: bool  # solve big pepper (alone, no exchange) for the sweep
    left_bower: bool = True  # the rule set's switch, for the solver's ranking
    # Per (trump, way), then per trump for big pepper: still worth solving. Options shown
    # to be worse than the best at 95% are dropped between batches (in this process).
    active: list[bool] = field(default_factory=list)
    active_big: list[bool] = field(default_factory=list)
    # What follows the call: the seats yet to call, in order, the standing bid and its
    # bidder (-1: none), and whether the dealer is stuck with a bid if all pass.
    rules: RuleSet | None = None
    leads: tuple[int, ...] = ()  # per trump, the seat leading the first trick (first_leader)
    later: tuple[int, ...] = ()
    high: int = 0
    holder: int = -1
    dealer: int = -1
    forced: bool = False
    calibrated: bool = True
    passes: bool = False  # a pass is among the calls advised
    # What an earlier advice over the same deals solved, by deal (see SolvedDeals): read
    # only, so a worker process may read its copy.
    known: Mapping[Hashable, Mapping[Hashable, int]] = field(default_factory=dict)


_Found = dict[Hashable, int]
"""What the solver found on one deal, by the kind of position solved (the name of its table:
a trump and way of playing, a trump's big pepper, another seat's contract), which with the
deal fixes the position: the bidder's tricks, or 1 and 0 for a big pepper's sweep."""


def _deal_key(deal: Sequence[Sequence[int]]) -> Hashable:
    return tuple(tuple(hand) for hand in deal)


class SolvedDeals:
    """What bid advice solved on each of its deals, for another bid advice over the same
    deals to read instead of solving it again: grading a call (:func:`.grading.grade_choice`)
    solves the chosen trump and the best again on every deal, the first advice having
    solved them on most. One per graded call, dropped with it: it holds a small dict per
    deal, some 200 of them. Filled in the process that asks for the advice (the deals a
    worker process solves come back here), and handed to the workers with the task."""

    def __init__(self) -> None:
        self.found: dict[Hashable, _Found] = {}

    def add(self, deal: list[list[int]], found: _Found) -> None:
        if found:
            self.found.setdefault(_deal_key(deal), {}).update(found)


def _later_calls(task: _BidTask, deals: Iterable[list[list[int]]], rng: random.Random
                 ) -> Iterator[list[list[int]]]:
    """Each deal with the calls its later seats would make, by the calling model: a seat's
    estimate (plus an error of :data:`LATER_SPREAD`, drawn here from the advice's own random
    numbers so every option meets the same calls), then the call whose window holds it, the
    windows auction-aware sampling reads the calls already made by, and the club player's
    call. Appended to the deal: per later seat its call over a pass, then the stuck
    dealer's call."""
    rules = task.rules
    assert rules is not None
    bucket = {s: k for k, s in enumerate(task.others)}
    for deal in deals:
        wants: list[int] = []
        forced = 0
        for s in task.later:
            value = hand_value(rules, deal[bucket[s]])[0]
            if LATER_SPREAD:
                value += rng.gauss(0.0, LATER_SPREAD)
            wants.append(int(model_call(rules, value, Bid.PASS)))
            if task.forced and s == task.dealer:
                forced = int(model_call(rules, value, Bid.PASS, forced=True))
        yield [*deal, [*wants, forced]]


@functools.lru_cache(maxsize=256)
def _scorer(rules: RuleSet, bidder: int, viewer: int) -> _Scorer:
    return _Scorer(rules, bidder, viewer)


@functools.lru_cache(maxsize=4096)
def _worths(rules: RuleSet, bidder: int, viewer: int, bid: Bid, kind: str | None
            ) -> tuple[tuple[float, float], ...]:
    """``(points, net)`` for the viewer of ``bid`` by ``bidder``, per double-dummy trick
    count of the bidders (0-6): the points of the tricks they are expected to take in play,
    by the calibration of ``kind`` (``None``: the double-dummy count itself)."""
    score = _scorer(rules, bidder, viewer)
    if kind is None:
        return tuple(score(bid, n) for n in range(_COUNTS))
    out = []
    for n in range(_COUNTS):
        dist = distribution(kind, n, bid.tricks)
        out.append((math.fsum(q * score(bid, m)[0] for m, q in enumerate(dist)),
                    math.fsum(q * score(bid, m)[1] for m, q in enumerate(dist))))
    return tuple(out)


def _sweep_worth(rules: RuleSet, bidder: int, viewer: int, kind: str | None, sweeps: bool
                 ) -> tuple[float, float]:
    """A big pepper's ``(points, net)`` when double-dummy play does or does not sweep."""
    score = _scorer(rules, bidder, viewer)
    q = float(sweeps) if kind is None else sweep_chance(kind, sweeps)
    made, lost = score(Bid.BIG_PEPPER, 6), score(Bid.BIG_PEPPER, 0)
    return (q * made[0] + (1 - q) * lost[0], q * made[1] + (1 - q) * lost[1])


def _expected_tricks(kind: str | None, n: int) -> float:
    if kind is None:
        return float(n)
    return math.fsum(m * q for m, q in enumerate(distribution(kind, n)))


def _make_chance(kind: str | None, n: int, need: int) -> float:
    if kind is None:
        return float(n >= need)
    return math.fsum(distribution(kind, n, need)[need:])


def _contract_worth(task: _BidTask, hands: Mapping[int, Sequence[int]], seat: int, level: int,
                    tricks: Callable[[Position, Hashable], int], dumped: bool = False
                    ) -> tuple[float, float]:
    """What another seat's contract is worth to the viewer, ``(points, net)``: the seat
    names trumps and its way of playing by the model (:func:`~.calling.model_declaration`),
    the viewer's side sends and discards by the rules, the defenders play or surrender by
    :func:`~.calling.model_surrenders` (never against a ``dumped`` dealer where the table
    forbids it), and the play is double-dummy, calibrated."""
    rules = task.rules
    assert rules is not None
    bid = Bid(level)
    trump, alone = model_declaration(rules, hands[seat], bid)
    held = dict(hands)
    out: int | None = None
    way = "partner" if rules.has_exchange else "play"
    if alone and rules.partnerships and rules.players == 4:
        out = (seat + 2) % 4
        way = "alone"
        if bid is not Bid.BIG_PEPPER:
            way = "exchange"
            hand = list(held[seat])
            kept = [c for c in hand if c != discard_rule(hand, trump, rules.left_bower)]
            held[seat] = [*kept, send_rule(held[out], trump, rules.left_bower)]
        del held[out]
    side = _side_seats(rules, seat)
    defenders = [h for s, h in held.items() if s not in side]
    if model_surrenders(rules, defenders, trump, bid, dumped):
        return _scorer(rules, seat, task.viewer)(bid, None)
    pos = Position(_hands(rules.players, held), (), rules.first_leader(seat, trump), trump, side,
                   rules.players, out, left_bower=rules.left_bower)
    n = tricks(pos, ("contract", seat, trump, way))
    kind = kind_of(trump, way) if task.calibrated else None
    return _worths(rules, seat, task.viewer, bid, kind)[n]


def _bid_sample(task: _BidTask, deal: list[list[int]], tables: _Tables
                ) -> tuple[tuple[Outcome, ...], _Found]:
    """Per (trump, way) in order, then per trump for big pepper, the outcome
    ``(tricks, top, worth)``: the bidder's double-dummy tricks (6 or 0, a big pepper
    solved only for the sweep), the highest call the later seats would make over a bid
    (0: none) and ``worth``, the ``(points, net)`` of the contract that follows when a
    bid lower than ``top`` is topped; -1 for an option dropped. Last, the worth of a
    pass: the contract that stands after it, or a throw-in. The hands are dealt once and
    shared by every option, and each trump and way is solved once for every bid level.
    With the row, what was solved on this deal that ``task.known`` did not hold."""
    known = task.known.get(_deal_key(deal), {}) if task.known else {}
    found: _Found = {}

    def tricks(pos: Position, name: Hashable) -> int:
        n = known.get(name)
        if n is None:
            n = found[name] = _tricks(pos, tables, name)
        return n

    def sweeps(pos: Position, name: Hashable) -> int:
        n = known.get(name)
        if n is None:
            n = found[name] = int(takes_at_least(pos, 6, _table(tables, name)))
        return n

    hands = {task.viewer: task.own} | {s: deal[k] for k, s in enumerate(task.others)}
    wants = deal[len(task.others) + 1] if task.later else []
    top, winner = 0, -1  # the later seats' best call tops any lower bid, whatever it is
    for s, want in zip(task.later, wants, strict=False):
        if want > top:
            top, winner = want, s
    topped = _contract_worth(task, hands, winner, top, tricks) if winner >= 0 else (0.0, 0.0)
    high, holder = task.high, task.holder  # after a pass: the standing bid, then the rest
    dumped = False
    for s, want in zip(task.later, wants, strict=False):
        if want > high:
            high, holder = want, s
        elif task.forced and s == task.dealer and holder < 0:
            high, holder, dumped = wants[-1], s, True
    if holder < 0 or not task.passes:
        passed: tuple[float, float] = (0.0, 0.0)  # all pass: thrown in
    elif (holder, high) == (winner, top):
        passed = topped
    else:
        passed = _contract_worth(task, hands, holder, high, tricks, dumped)
    row: list[Outcome] = []
    swept: list[Outcome] = []
    column = 0
    for k, (trump, discard) in enumerate(zip(task.trumps, task.discards, strict=True)):
        for way in task.ways:
            if task.active and not task.active[column]:
                row.append(-1)
                column += 1
                continue
            column += 1
            if way == "exchange" and task.partner is not None:
                mine = [c for c in task.own if c != discard]
                mine.append(send_rule(hands[task.partner], trump, task.left_bower))
                held = {s: h for s, h in hands.items() if s != task.partner} | {
                    task.viewer: mine}
                pos = Position(_hands(4, held), (), task.leads[k], trump, task.side, 4,
                               task.partner, left_bower=task.left_bower)
            else:
                pos = Position(_hands(task.players, hands), (), task.leads[k], trump,
                               task.side, task.players, left_bower=task.left_bower)
            row.append((tricks(pos, (trump, way)), top, topped))
        if not (task.big and task.partner is not None) or (
                task.active_big and not task.active_big[k]):
            swept.append(-1)
            continue
        alone = {s: h for s, h in hands.items() if s != task.partner}
        pos = Position(_hands(4, alone), (), task.leads[k], trump, task.side, 4, task.partner,
                       left_bower=task.left_bower)
        sweep = sweeps(pos, (trump, "big"))
        swept.append((6 if sweep else 0, top, topped))
    return (*row, *swept, passed), found


def _bid_worth(worth: Sequence[tuple[float, float]], bid: Bid
               ) -> Callable[[Any], tuple[float, float]]:
    """``(points, net)`` of a bid for an outcome of its column: its own contract's, unless
    a later seat tops it, then the contract that follows."""
    level = int(bid)

    def value(outcome: Any) -> tuple[float, float]:
        n, top, topped = outcome
        found: tuple[float, float] = topped if top > level else worth[n]
        return found

    return value


def _sweep_value(rules: RuleSet, viewer: int, kind: str | None
                 ) -> Callable[[Any], tuple[float, float]]:
    made = _sweep_worth(rules, viewer, viewer, kind, True)
    lost = _sweep_worth(rules, viewer, viewer, kind, False)
    return lambda outcome: made if outcome[0] == 6 else lost


def _second(value: Callable[[Any], tuple[float, float]]) -> Callable[[Any], float]:
    return lambda outcome: value(outcome)[1]


def _made_both_ways(tally: Tally, ways: Sequence[Mode | None], k: int, levels: Sequence[Bid]
                    ) -> set[Bid]:
    """The bids that double-dummy play makes on every deal solved, with the partner and
    alone with the exchange alike, in trump ``k``'s columns: those are valued by one
    calibration row for both ways (:data:`~.calibration.MADE`), which keeps the choice
    between them double-dummy's. (Read per way, the expert's partner contracts, lost in
    play a little more often with a trick to spare, turned such choices.)"""
    if tuple(w.value for w in ways if w is not None) != POOLED:
        return set()
    columns = [k * len(ways) + w for w in range(len(ways))]
    if not all(tally.solved(c) for c in columns):
        return set()
    def makes(bid: Bid) -> Callable[[Any], float]:
        return lambda outcome: float(outcome[0] >= bid.tricks)  # a bid column's outcome

    return {bid for bid in levels if all(tally.share(c, makes(bid)) == 1.0 for c in columns)}


def _tricks_fn(kind: str | None) -> Callable[[Any], float]:
    """The tricks expected in play for a bid column's outcome."""
    return lambda outcome: _expected_tricks(kind, outcome[0])


def _makes_fn(kind: str | None, need: int) -> Callable[[Any], float]:
    """The chance a bid needing ``need`` tricks makes, for a bid column's outcome."""
    return lambda outcome: _make_chance(kind, outcome[0], need)


def _sweeps_fn(kind: str | None) -> Callable[[Any], float]:
    """The chance a big pepper sweeps, for a big pepper column's outcome."""
    return lambda outcome: (float(outcome[0] == 6) if kind is None
                            else sweep_chance(kind, outcome[0] == 6))


def _row(sample: tuple[tuple[Outcome, ...], _Found]) -> tuple[Outcome, ...]:
    """A bid sample's row of outcomes (without what it solved)."""
    return sample[0]


def _keep(solved: SolvedDeals | None
          ) -> Callable[[list[list[int]], tuple[tuple[Outcome, ...], _Found]], None] | None:
    """Where a bid sample's new solutions go: ``solved``, if any."""
    if solved is None:
        return None
    return lambda deal, sample: solved.add(deal, sample[1])


def _later_seats(view: SeatView, viewer: int) -> tuple[int, ...]:
    """The seats yet to call after the viewer, in the order they call: those that have
    not called (in an open auction a seat that bid already would not top its own call)."""
    if view.phase is not Phase.AUCTION:
        return ()
    called = {int(s) for s, _ in view.calls}
    players = view.rules.players
    return tuple(s for s in ((viewer + k) % players for k in range(1, players))
                 if s not in called)


def advise_bid(state: HandState | SeatView, samples: int = 200, seed: Seed = None,
               progress: Progress | None = None, trumps: Sequence[Trump] | None = None,
               workers: int = 1, auction: bool | None = None,
               until_clear: bool = False, drop_worse: bool = True,
               calibrated: bool = True, solved: SolvedDeals | None = None) -> Advice:
    """Which contract to bid, for the seat to call in the auction; also which trump to name
    and how to play it, for the high bidder declaring.

    For each trump (default: the four suits and no trump) and way of playing (with partner;
    alone with the exchange; big pepper, alone with no exchange; in cutthroat the one way)
    the report gives the bid, among those still allowed, worth most on average, with the
    tricks and points expected; and ``pass``, when allowed. Once the auction is over the
    bid is fixed: naming trumps compares trumps and ways of playing, choosing the way of
    playing compares the two ways for the trump named.

    Every call is valued by what follows it on each deal. The seats yet to call make their
    calls by the calling model (:mod:`.calling`: the bid of each hand's estimate, in the
    windows auction-aware sampling reads the calls already made by, as the club player
    calls); a bid
    they top is worth the contract that follows (its bidder names trumps and the way of
    playing by the model; the viewer's side, defending, plays or surrenders by the model);
    a pass is worth whatever contract then stands, partner's or an opponent's, or nothing
    when all pass (the stuck dealer bids where the rules say so). The viewer's own
    contract assumes the defenders play: a surrender only gives the bidders as much, bar
    a contract that would go down.

    Each deal is solved once per trump and way of playing, and every bid level is scored
    from that one trick count. ``drop_worse`` (in one process) stops solving a trump and
    way once every bid in it is worse than the best option at 95%, paired over the same
    deals, looking every 10 deals from the 10th: the deals go on for the options still in
    the race, and a dropped option reports the deals it was solved on. ``auction``
    (default: whenever another seat has called) deals the other hands in proportion to
    how likely they were to make their calls. ``until_clear`` stops before ``samples``
    once the best option is better than every other at 95%. ``calibrated`` (default)
    takes each double-dummy trick count as the tricks expected in play
    (:mod:`.calibration`); ``False`` takes it as it is. ``solved`` (a
    :class:`SolvedDeals`) keeps what each deal's solving found, and reads what an earlier
    advice with it found on the same deal instead of solving it again: the report is the
    same, as the solver's answer for a position is.
    """
    _check_request(state, samples, seed, workers, progress)
    phase = state.phase
    if phase not in (Phase.AUCTION, Phase.DECLARE_TRUMP, Phase.DECLARE_MODE):
        raise ValueError(f"bid advice is for the auction or the declaration, not the {phase} "
                         "phase")
    view = _seen(state)
    rules, viewer = view.rules, int(view.seat)
    chosen = tuple(trumps) if trumps is not None else tuple(Trump)
    ways: tuple[Mode | None, ...] = (Mode.PARTNER, Mode.EXCHANGE) if rules.has_exchange else (
        None,)
    if phase is Phase.AUCTION:
        legal = [b for b in view.legal if isinstance(b, Bid)]
    elif phase is Phase.DECLARE_TRUMP:
        legal = [view.high_bid]
        if view.high_bid is Bid.BIG_PEPPER and rules.has_exchange:
            ways = ()  # big pepper is played alone, without an exchange
    else:
        legal = [view.high_bid]
        chosen = (Trump(_trump_of(view)),)
    levels = [b for b in legal if b not in (Bid.PASS, Bid.BIG_PEPPER)]
    big = Bid.BIG_PEPPER in legal
    own = _indices(view.hand)
    others = tuple(s for s in range(rules.players) if s != viewer)
    pool = [c for c in range(24) if c not in own]
    dealer = Dealer(pool, [(6, 0)] * len(others) + [(len(pool) - 6 * len(others), 0)])
    later = _later_seats(view, viewer)
    forced = (rules.dealer_must_bid and not rules.open_auction and view.high_bid is Bid.PASS
              and int(view.dealer) in later)
    task = _BidTask(rules.players, viewer, (viewer + 2) % 4 if rules.partnerships else None,
                    _side_seats(rules, viewer), own, others, tuple(int(t) for t in chosen),
                    tuple("play" if w is None else w.value for w in ways),
                    tuple(discard_rule(own, int(t), rules.left_bower) for t in chosen),
                    big and rules.has_exchange, left_bower=rules.left_bower, rules=rules,
                    leads=tuple(rules.first_leader(viewer, int(t)) for t in chosen),
                    later=later, high=int(view.high_bid),
                    holder=int(view.bidder) if view.bidder is not None else -1,
                    dealer=int(view.dealer), forced=forced, calibrated=calibrated,
                    passes=Bid.PASS in legal, known=solved.found if solved else {})
    task.active.extend([True] * (len(chosen) * len(ways)))
    task.active_big.extend([True] * len(chosen))
    width = len(chosen) * len(ways)  # the big pepper sweeps follow, one column a trump
    pass_column = width + len(chosen)  # then what a pass leads to

    def kind(k: int, way: str) -> str | None:
        return kind_of(int(chosen[k]), way) if calibrated else None

    # Every level a learner could choose, as (column of the tally, bid, its worth).
    levels_of: list[tuple[int, Bid, Callable[[Any], tuple[float, float]]]] = []
    for k in range(len(chosen)):
        for w, way in enumerate(ways):
            name = "play" if way is None else way.value
            for bid in levels + ([Bid.BIG_PEPPER] if big and way is None else []):
                worth = _worths(rules, viewer, viewer, bid, kind(k, name))
                levels_of.append((k * len(ways) + w, bid, _bid_worth(worth, bid)))
        if task.big:
            levels_of.append((width + k, Bid.BIG_PEPPER,
                              _sweep_value(rules, viewer, kind(k, "alone"))))
    choices = [TalliedOption(pass_column, lambda o: o[1])] if Bid.PASS in legal else []
    choices += [TalliedOption(column, _second(value)) for column, _, value in levels_of]

    def live(column: int) -> bool:
        if column == pass_column:
            return True
        flags, i = (task.active, column) if column < width else (task.active_big,
                                                                column - width)
        return i < len(flags) and flags[i]

    def prune(tally: Tally) -> None:
        # The best among the options still solved: a dropped one's mean is of old deals.
        racing = [c for c in choices if c.column is None or live(c.column)]
        best = racing[_best(tally, racing)]
        for column in range(width + len(chosen)):
            flags, i = (task.active, column) if column < width else (task.active_big,
                                                                    column - width)
            if not live(column):
                continue
            mine = [c for c in choices if c.column == column]
            if (mine and not any(c is best for c in mine)
                    and all(_shown_worse(tally, best, c) for c in mine)):
                flags[i] = False

    rng = _rng(seed, view)
    draws = _Draws()
    accept = _calls_accept(view, viewer, auction, [*others, None])
    tally = Tally(pass_column + 1)
    deals: Iterable[list[list[int]]] = _deals(dealer, samples, rng, accept, draws)
    if later:
        deals = _later_calls(task, deals, rng)
    _solve_all(_bid_sample, task, deals, samples, workers, progress, tally, _row,
               choices if until_clear else None, prune if drop_worse else None,
               _keep(solved))

    options: list[OptionAdvice] = []
    every: list[OptionAdvice] = []
    tallied: dict[str, TalliedOption] = {}  # per label: its column and net, for the losses
    if Bid.PASS in legal:
        options.append(_option("pass", tally, pass_column, lambda o: o, tricks=None,
                               bid=Bid.PASS))
        tallied["pass"] = TalliedOption(pass_column, lambda o: o[1])
    column = 0
    for k, t in enumerate(chosen):
        made = _made_both_ways(tally, ways, k, levels)
        for way in ways:
            name = "play" if way is None else way.value
            solved_on = tally.solved(column)  # deals
            bids = levels + ([Bid.BIG_PEPPER] if big and way is None else [])
            how = f", {way.display}" if way is not None else ""
            candidates = []
            for bid in bids if solved_on else []:
                kd = kind(k, MADE if bid in made else name)
                label = f"{bid.display} in {t.display}{how}"
                value = _bid_worth(_worths(rules, viewer, viewer, bid, kd), bid)
                tallied[label] = TalliedOption(column, _second(value))
                candidates.append(_option(
                    label, tally, column, value,
                    tricks=_tricks_fn(kd), bid=bid, trump=t, mode=way,
                    makes=tally.share(column, _makes_fn(kd, bid.tricks))))
            column += 1
            if candidates:  # the level worth most for this trump and way of playing
                options.append(_ranked(candidates)[0])
                every.extend(candidates)
        if task.big and tally.solved(width + k):
            kd = kind(k, "alone")
            label = f"big pepper in {t.display}, alone"
            value = _sweep_value(rules, viewer, kd)
            tallied[label] = TalliedOption(width + k, _second(value))
            options.append(_option(
                label, tally, width + k, value, tricks=None, bid=Bid.BIG_PEPPER, trump=t,
                makes=tally.share(width + k, _sweeps_fn(kd))))
    notes = [_play_note(calibrated), "the defenders of your contract are assumed to play (a "
             "surrender gives the bidders as much, bar a contract that would go down)",
             _auction_note(draws, accept) if accept else _RANDOM_NOTE]
    if later:
        notes.append("each call is followed by the rest of the auction: the seats yet to "
                     "call bid by the calling model, and a call they top is worth the "
                     "contract that follows")
    if Bid.PASS in legal:
        notes.append("a pass is worth the contract that then stands (partner's, or an "
                     "opponent's, defended or surrendered by the model), or nothing when "
                     "all pass")
    if rules.has_exchange:
        notes += [_SEND_NOTE, _DISCARD_NOTE]
    dropped = [o for o in options if o.score.samples and o.score.samples < tally.deals]
    if dropped:
        notes.append(f"{len(dropped)} option{'s were' if len(dropped) > 1 else ' was'} "
                     "shown worse than the best at 95% and not solved on the later deals "
                     "(each reports the deals it was solved on)")
    notes += _stopped(until_clear, tally, samples)
    decision = "bid" if phase is Phase.AUCTION else "declare"
    ranked = _ranked(options)
    return Advice(decision, Seat(viewer), rules.side_of(viewer), tally.deals,
                  _with_losses(tally, ranked, tallied, ranked[0]), tuple(notes),
                  _with_losses(tally, _ranked(every), tallied, ranked[0]))


# ---- the exchange: the bidder's discard, the partner's card ----------------------------------


@dataclass(frozen=True)
class _ExchangeTask:
    bidder: int
    partner: int
    side: frozenset[int]
    trump: int
    own: tuple[int, ...]  # the hand of the seat deciding
    others: tuple[int, ...]  # the seats whose cards are dealt, in bucket order
    lead: int  # the seat leading the first trick (RuleSet.first_leader)
    left_bower: bool = True  # the rule set's switch, for the solver's ranking


def _discard_sample(task: _ExchangeTask, deal: list[list[int]], tables: _Tables
                    ) -> tuple[int, ...]:
    """The bidder's tricks for each discard, the partner sending by the rule."""
    dealt = dict(zip(task.others, deal, strict=True))
    sent = send_rule(dealt[task.partner], task.trump, task.left_bower)
    held = {s: h for s, h in dealt.items() if s != task.partner}
    out = []
    for card in task.own:
        held[task.bidder] = [c for c in task.own if c != card] + [sent]
        pos = Position(_hands(4, held), (), task.lead, task.trump, task.side, 4, task.partner,
                       left_bower=task.left_bower)
        out.append(_tricks(pos, tables, "exchange"))
    return tuple(out)


def _send_sample(task: _ExchangeTask, deal: list[list[int]], tables: _Tables
                 ) -> tuple[int, ...]:
    """The bidders' tricks for each card the partner might send."""
    held = dict(zip(task.others, deal, strict=False))  # the last bucket is the discard
    bidder_five = held[task.bidder]
    out = []
    for card in task.own:
        held[task.bidder] = [*bidder_five, card]
        pos = Position(_hands(4, held), (), task.lead, task.trump, task.side, 4, task.partner,
                       left_bower=task.left_bower)
        out.append(_tricks(pos, tables, "exchange"))
    return tuple(out)


def advise_discard(state: HandState | SeatView, samples: int = 200, seed: Seed = None,
                   progress: Progress | None = None, workers: int = 1,
                   auction: bool | None = None, until_clear: bool = False,
                   calibrated: bool = True) -> Advice:
    """Which card the bidder should discard, before the partner's card arrives.
    ``auction``, ``until_clear`` and ``calibrated`` as for :func:`advise_bid`."""
    _check_request(state, samples, seed, workers, progress)
    if state.phase is not Phase.DISCARD:
        raise ValueError(f"discard advice is for the discard, not the {state.phase} phase")
    view = _seen(state)
    rules, bidder = view.rules, int(view.seat)
    own = _indices(view.hand)
    others = tuple(s for s in range(4) if s != bidder)
    pool = [c for c in range(24) if c not in own]
    task = _ExchangeTask(bidder, (bidder + 2) % 4, _side_seats(rules, bidder), _trump_of(view),
                         own, others, rules.first_leader(bidder, _trump_of(view)),
                         rules.left_bower)
    accept = _calls_accept(view, bidder, auction, others)
    draws = _Draws()
    deals = _deals(Dealer(pool, [(6, 0)] * 3), samples, _rng(seed, view), accept, draws)
    bid = view.high_bid
    tally = Tally(len(own))
    kd = kind_of(task.trump, "exchange") if calibrated else None
    worth = _worths(rules, bidder, bidder, bid, kd)
    _solve_all(_discard_sample, task, deals, samples, workers, progress, tally, _same,
               _net_choices(worth, len(own)) if until_clear else None)
    options = [_option(f"discard {DECK[card].display}", tally, k, worth.__getitem__,
                       tricks=lambda n: _expected_tricks(kd, n), card=DECK[card],
                       makes=tally.share(k, lambda n: _make_chance(kd, n, bid.tricks)))
               for k, card in enumerate(own)]
    notes = (_play_note(calibrated), _SEND_NOTE,
             _auction_note(draws, accept) if accept else _RANDOM_NOTE)
    return Advice("discard", Seat(bidder), rules.side_of(bidder), tally.deals,
                  _losses(tally, options, worth), notes + _stopped(until_clear, tally, samples))


def advise_send(state: HandState | SeatView, samples: int = 200, seed: Seed = None,
                progress: Progress | None = None, workers: int = 1,
                auction: bool | None = None, until_clear: bool = False,
                calibrated: bool = True) -> Advice:
    """Which card the bidder's partner should hand over in the exchange.
    ``auction``, ``until_clear`` and ``calibrated`` as for :func:`advise_bid`."""
    _check_request(state, samples, seed, workers, progress)
    if state.phase is not Phase.SEND:
        raise ValueError(f"send advice is for the exchange, not the {state.phase} phase")
    view = _seen(state)
    rules, partner, bidder = view.rules, int(view.seat), _bidder_of(view)
    own = _indices(view.hand)
    defenders = tuple(s for s in range(4) if s not in (partner, bidder))
    pool = [c for c in range(24) if c not in own]
    # The bidder holds five unseen cards; the discard is one more, out of play.
    dealer = Dealer(pool, [(5, 0), (6, 0), (6, 0), (1, 0)])
    task = _ExchangeTask(bidder, partner, _side_seats(rules, bidder), _trump_of(view), own,
                         (bidder, *defenders), rules.first_leader(bidder, _trump_of(view)),
                         rules.left_bower)
    accept = _calls_accept(view, partner, auction, [bidder, *defenders, None],
                           lambda deal: {bidder: deal[0] + deal[3]})
    draws = _Draws()
    bid = view.high_bid
    tally = Tally(len(own))
    kd = kind_of(task.trump, "exchange") if calibrated else None
    worth = _worths(rules, bidder, partner, bid, kd)
    _solve_all(_send_sample, task, _deals(dealer, samples, _rng(seed, view), accept, draws),
               samples, workers, progress, tally, _same,
               _net_choices(worth, len(own)) if until_clear else None)
    options = [_option(f"send {DECK[card].display}", tally, k, worth.__getitem__,
                       tricks=lambda n: _expected_tricks(kd, n), card=DECK[card],
                       makes=tally.share(k, lambda n: _make_chance(kd, n, bid.tricks)))
               for k, card in enumerate(own)]
    dealt = (" at random" if accept is None else
             ", kept by how likely they were to make the calls seen" if accept.likely
             else ", kept where they hold what the bid signals showed")
    notes: tuple[str, ...] = (_play_note(calibrated),
                              f"the bidder's five cards and discard are dealt{dealt}")
    if accept:
        notes += (_auction_note(draws, accept),)
    return Advice("send", Seat(partner), rules.side_of(partner), tally.deals,
                  _losses(tally, options, worth), notes + _stopped(until_clear, tally, samples))


# ---- the defense: play or surrender -----------------------------------------------------------


@dataclass(frozen=True)
class _DefenseTask:
    viewer: int
    bidder: int
    side: frozenset[int]  # the bidders
    trump: int
    own: tuple[int, ...]
    others: tuple[int, ...]
    exchange: bool  # replay the exchange by the rules
    out: int | None  # the bidder's partner, when sitting out
    lead: int  # the seat leading the first trick (RuleSet.first_leader)
    left_bower: bool = True  # the rule set's switch, for the solver's ranking


def _defense_sample(task: _DefenseTask, deal: list[list[int]], tables: _Tables) -> int:
    """The bidders' tricks when the defenders play."""
    hands = {task.viewer: list(task.own)} | dict(zip(task.others, deal, strict=True))
    partner = (task.bidder + 2) % 4
    if task.exchange:
        hand = hands[task.bidder]
        kept = [c for c in hand if c != discard_rule(hand, task.trump, task.left_bower)]
        hands[task.bidder] = [*kept, send_rule(hands[partner], task.trump, task.left_bower)]
    if task.out is not None:
        del hands[task.out]
    pos = Position(_hands(4, hands), (), task.lead, task.trump, task.side, 4, task.out,
                   left_bower=task.left_bower)
    return _tricks(pos, tables, "defense")


def advise_defense(state: HandState | SeatView, samples: int = 200, seed: Seed = None,
                   progress: Progress | None = None, workers: int = 1,
                   auction: bool | None = None, until_clear: bool = False,
                   calibrated: bool = True) -> Advice:
    """Whether the defenders should play or surrender, for the defender who speaks.
    ``auction``, ``until_clear`` and ``calibrated`` as for :func:`advise_bid`: playing is
    worth the contract played out, its double-dummy count taken as the bidders' tricks
    expected in play."""
    _check_request(state, samples, seed, workers, progress)
    if state.phase is not Phase.DEFENSE:
        raise ValueError(f"defense advice is for the defense, not the {state.phase} phase")
    view = _seen(state)
    rules, viewer, bidder, bid = view.rules, int(view.seat), _bidder_of(view), view.high_bid
    own = _indices(view.hand)
    others = tuple(s for s in range(4) if s != viewer)
    pool = [c for c in range(24) if c not in own]
    # The bidders' hands are dealt as they were before any exchange, which is then replayed
    # by the rules: the bidder's hand holds the partner's card, as it would at the table.
    out = int(view.sitting_out) if view.sitting_out is not None else None
    task = _DefenseTask(viewer, bidder, _side_seats(rules, bidder), _trump_of(view), own,
                        others, view.mode is Mode.EXCHANGE, out,
                        rules.first_leader(bidder, _trump_of(view)), rules.left_bower)
    score = _Scorer(rules, bidder, viewer)
    can_surrender = Defense.SURRENDER in view.legal
    surrender = score(bid, None)
    way = ("alone" if bid is Bid.BIG_PEPPER and rules.has_exchange else
           "exchange" if task.exchange else "partner" if rules.has_exchange else "play")
    kd = kind_of(task.trump, way) if calibrated else None
    worth = _worths(rules, bidder, viewer, bid, kd)

    choices = [TalliedOption(0, lambda t: worth[t][1])]
    if can_surrender:
        choices.append(TalliedOption(None, lambda t: surrender[1]))
    accept = _calls_accept(view, viewer, auction, others)
    draws = _Draws()
    deals = _deals(Dealer(pool, [(6, 0)] * 3), samples, _rng(seed, view), accept, draws)
    tally = Tally(1)
    _solve_all(_defense_sample, task, deals, samples, workers, progress, tally, _one,
               choices if until_clear else None)
    options = [_option("play", tally, 0, worth.__getitem__,
                       tricks=lambda t: 6.0 - _expected_tricks(kd, t), defense=Defense.PLAY,
                       makes=tally.share(0, lambda t: _make_chance(kd, t, bid.tricks)))]
    tallied = {"play": choices[0]}
    if can_surrender:
        options.append(OptionAdvice("surrender", None, Estimate.exact(surrender[0]),
                                    Estimate.exact(surrender[1]), defense=Defense.SURRENDER))
        tallied["surrender"] = choices[1]
    notes = [_play_note(calibrated), _auction_note(draws, accept) if accept else "the bidders' "
             "hands are dealt at random: the bid is not read as a sign of strength"]
    notes += _stopped(until_clear, tally, samples)
    if task.exchange:
        notes += [_SEND_NOTE, _DISCARD_NOTE]
    ranked = _ranked(options)
    return Advice("defense", Seat(viewer), rules.side_of(viewer), tally.deals,
                  _with_losses(tally, ranked, tallied, ranked[0]), tuple(notes))


# ---- a card in play ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _PlayTask:
    players: int
    viewer: int
    side: frozenset[int]
    trump: int
    own: tuple[int, ...]
    seen: tuple[int, ...]  # the other seats in play, in bucket order
    trick: tuple[tuple[int, int], ...]
    out: int | None
    left_bower: bool = True  # the rule set's switch, for the solver's ranking
    cards: tuple[int, ...] = ()  # the viewer's legal cards: the tally's columns
    before: int = 0  # the side's tricks already taken


def _play_sample(task: _PlayTask, deal: list[list[int]], tables: _Tables) -> tuple[int, ...]:
    """The side's final trick count for each legal card of the viewer, in ``task.cards``
    order."""
    hands = {task.viewer: task.own} | dict(zip(task.seen, deal, strict=False))
    pos = Position(_hands(task.players, hands), task.trick, task.viewer, task.trump,
                   task.side, task.players, task.out, left_bower=task.left_bower)
    solution = solve(pos, _table(tables, "play"))
    tricks = {v.card.index: v.tricks for v in solution.values}
    return tuple(task.before + tricks[c] for c in task.cards)


def advise_play(state: HandState | SeatView, samples: int = 200, seed: Seed = None,
                progress: Progress | None = None, workers: int = 1,
                auction: bool | None = None, until_clear: bool = False) -> Advice:
    """Which card to play, for the seat to play, seeing only its own hand and the table.
    ``auction`` and ``until_clear`` as for :func:`advise_bid`."""
    _check_request(state, samples, seed, workers, progress)
    if state.phase is not Phase.PLAY:
        raise ValueError(f"card advice is for the play, not the {state.phase} phase")
    view = _seen(state)
    rules, viewer, bidder, bid = view.rules, int(view.seat), _bidder_of(view), view.high_bid
    own = _indices(view.hand)
    known = set(own) | set(_indices(view.played))
    if viewer == bidder and view.discard is not None:
        known.add(view.discard.index)  # the bidder saw the discard (and holds the card passed)
    pool = [c for c in range(24) if c not in known]
    voids = void_masks(view)
    out = int(view.sitting_out) if view.sitting_out is not None else None
    seen = tuple(s for s in range(rules.players) if s not in (viewer, out))
    buckets = [(view.held[s], voids[s]) for s in seen]
    rest = len(pool) - sum(n for n, _ in buckets)  # out of play: partner sitting out, etc.
    side = _side_seats(rules, viewer)
    cards = tuple(sorted(a.index for a in view.legal if isinstance(a, Card)))
    task = _PlayTask(rules.players, viewer, side, _trump_of(view), own, seen,
                     tuple((int(s), c.index) for s, c in view.trick), out, rules.left_bower,
                     cards, sum(view.won[s] for s in side))
    score = _Scorer(rules, bidder, viewer)
    ours = rules.side_of(viewer) == rules.side_of(bidder)

    def worth(t: int) -> float:
        if ours:
            return score(bid, t)[1]
        if len(rules.sides) == 2:
            return score(bid, 6 - t)[1]
        return float(t)

    accept = _calls_accept(view, viewer, auction, [*seen, None])
    draws = _Draws()
    deals = _deals(Dealer(pool, [*buckets, (rest, 0)]), samples, _rng(seed, view), accept,
                   draws)
    tally = Tally(len(cards))
    _solve_all(_play_sample, task, deals, samples, workers, progress, tally, _same,
               [TalliedOption(k, worth) for k in range(len(cards))] if until_clear else None)
    options = []
    for k, card in enumerate(cards):
        label, c = f"play {DECK[card].display}", DECK[card]
        if ours:
            options.append(_option(label, tally, k, lambda t: score(bid, t), card=c))
        elif len(rules.sides) == 2:
            options.append(_option(label, tally, k, lambda t: score(bid, 6 - t), card=c))
        else:  # a non-bidder in cutthroat scores a point a trick; the rivals' split is open
            options.append(_option(label, tally, k, scores=float, card=c))
    notes = [_DOUBLE_DUMMY, "unseen cards are dealt at random, consistent with the cards "
             "played and the voids shown"]
    if accept:
        notes.append(_auction_note(draws, accept))
    notes += _stopped(until_clear, tally, samples)
    return Advice("play", Seat(viewer), rules.side_of(viewer), tally.deals,
                  _losses(tally, options, worth), tuple(notes))


def advise(state: HandState | SeatView, samples: int = 200, seed: Seed = None,
           progress: Progress | None = None, workers: int = 1, auction: bool | None = None,
           until_clear: bool = False, drop_worse: bool = True,
           calibrated: bool = True, solved: SolvedDeals | None = None) -> Advice:
    """Advice for whatever decision the hand waits on: the bid, the declaration (trump and
    way of playing), the discard, the partner's card, the defense or a card in play.

    ``auction`` (default: whenever another seat has called) reads the calls when dealing
    the unseen hands; ``until_clear`` stops sampling once the best option is clear at 95%;
    ``drop_worse`` and ``solved`` are bid advice's (see :func:`advise_bid`); ``calibrated``
    takes each contract's double-dummy trick count as the tricks expected in play (not for
    a card in play, which is compared double-dummy).

    Arguments it cannot take (not a position, ``samples`` outside 1 to :data:`MAX_SAMPLES`,
    a seed that is no seed) raise :class:`AdviceRequestError`, a ``ValueError``, before
    any work."""
    _check_request(state, samples, seed, workers, progress)
    phase = state.phase
    more = {"workers": workers, "auction": auction, "until_clear": until_clear}
    if phase in (Phase.AUCTION, Phase.DECLARE_TRUMP, Phase.DECLARE_MODE):
        return advise_bid(state, samples, seed, progress, workers=workers, auction=auction,
                          until_clear=until_clear, drop_worse=drop_worse,
                          calibrated=calibrated, solved=solved)
    if phase is Phase.DISCARD:
        return advise_discard(state, samples, seed, progress, calibrated=calibrated,
                              **more)  # type: ignore[arg-type]
    if phase is Phase.SEND:
        return advise_send(state, samples, seed, progress, calibrated=calibrated,
                           **more)  # type: ignore[arg-type]
    if phase is Phase.DEFENSE:
        return advise_defense(state, samples, seed, progress, calibrated=calibrated,
                              **more)  # type: ignore[arg-type]
    if phase is Phase.PLAY:
        return advise_play(state, samples, seed, progress, **more)  # type: ignore[arg-type]
    raise ValueError(f"there is no decision to advise on: the hand is {phase}")
