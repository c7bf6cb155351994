"""What follows a call on each sampled deal: the rest of the auction and the contract that stands.

Bid advice (:mod:`.calls`) values a call by what it leads to on each deal: the seats yet to
call call by the calling model (:mod:`pepper_tutor.analysis.calling`), a bid they top is
worth the contract that follows, and a pass the contract that then stands. This module
solves one deal for every trump and way of playing (:func:`_bid_sample`) and keeps what it
solved (:class:`SolvedDeals`) for a second advice over the same deals.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from ...engine.calls import Bid
from ...engine.rules import RuleSet
from ...engine.state import Phase
from ..calibration import POOLED, kind_of
from ..calling import hand_value, model_call, model_declaration, model_surrenders
from ..dealing import discard_rule, send_rule
from ..solver import Position, takes_at_least
from ..view import SeatView
from .sampling import _hands, _side_seats
from .solving import _table, _Tables, _tricks
from .tally import Outcome
from .worth import _scorer, _worths

LATER_SPREAD = 0.0
"""Error, in tricks, of the calls the seats yet to call make in bid advice: none, as the
computer players call (each its estimate's bid). The sampling's :data:`~.calling.SPREAD`
(0.8) read as how erratic people are makes a later seat top a 4 about three times as often
(in one measured hand a quarter of the deals against 7%), which no table sees."""



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
    pos = Position.trusted(_hands(rules.players, held), (), rules.first_leader(seat, trump), trump,
                           side, rules.players, out, left_bower=rules.left_bower)
    n = tricks(pos, ("contract", seat, trump, way))
    kind = kind_of(trump, way) if task.calibrated else None
    return _worths(rules, seat, task.viewer, bid, kind)[n]


def _bid_sample(task: _BidTask, deal: list[list[int]], tables: _Tables
                ) -> tuple[tuple[Outcome, ...], _Found]:
    """Per (trump, way) in order, the outcome ``(tricks, top, worth, both)``, then per
    trump for big pepper ``(tricks, top, worth)``: the bidder's double-dummy tricks (6 or 0,
    a big pepper solved only for the sweep), the highest call the later seats would make
    over a bid (0: none), ``worth``, the ``(points, net)`` of the contract that follows when
    a bid lower than ``top`` is topped, and ``both``, the tricks the bidder takes with the
    partner and alone with the exchange alike on this deal (-1 where one was not solved, or
    the rules have one way); -1 for an option dropped. Last, the worth of a
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
    pooled = task.ways == POOLED
    for k, (trump, discard) in enumerate(zip(task.trumps, task.discards, strict=True)):
        counts: list[int | None] = []  # per way: the bidder's tricks, None where dropped
        for way in task.ways:
            if task.active and not task.active[column]:
                counts.append(None)
                column += 1
                continue
            column += 1
            if way == "exchange" and task.partner is not None:
                mine = [c for c in task.own if c != discard]
                mine.append(send_rule(hands[task.partner], trump, task.left_bower))
                held = {s: h for s, h in hands.items() if s != task.partner} | {
                    task.viewer: mine}
                pos = Position.trusted(_hands(4, held), (), task.leads[k], trump, task.side, 4,
                                       task.partner, left_bower=task.left_bower)
            else:
                pos = Position.trusted(_hands(task.players, hands), (), task.leads[k], trump,
                                       task.side, task.players, left_bower=task.left_bower)
            counts.append(tricks(pos, (trump, way)))
        # What both ways take on this deal (-1 where a way was not solved): a bid that many
        # tricks make is valued by one calibration row either way (MADE, see calls.py).
        solved = [n for n in counts if n is not None]
        both = min(solved) if pooled and len(solved) == len(counts) else -1
        row.extend(-1 if n is None else (n, top, topped, both) for n in counts)
        if not (task.big and task.partner is not None) or (
                task.active_big and not task.active_big[k]):
            swept.append(-1)
            continue
        alone = {s: h for s, h in hands.items() if s != task.partner}
        pos = Position.trusted(_hands(4, alone), (), task.leads[k], trump, task.side, 4,
                               task.partner, left_bower=task.left_bower)
        sweep = sweeps(pos, (trump, "big"))
        swept.append((6 if sweep else 0, top, topped))
    return (*row, *swept, passed), found




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

