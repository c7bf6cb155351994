"""Advice on a card in play, for the seat to play, seeing only its own hand and the table."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.cards import DECK, Card
from ...engine.seats import Seat
from ...engine.state import HandState, Phase
from ..dealing import Dealer, void_masks
from ..solver import Position, solve
from ..view import SeatView
from .report import _DOUBLE_DUMMY, Advice, _losses, _option, _same, _stopped
from .sampling import (
    Progress,
    Seed,
    _auction_note,
    _bidder_of,
    _calls_accept,
    _check_request,
    _deals,
    _Draws,
    _hands,
    _indices,
    _rng,
    _seen,
    _side_seats,
    _trump_of,
)
from .solving import _solve_all, _table, _Tables
from .tally import TalliedOption, Tally
from .worth import _Scorer


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
    pos = Position.trusted(_hands(task.players, hands), task.trick, task.viewer, task.trump,
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

