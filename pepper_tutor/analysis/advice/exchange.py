"""Advice on the exchange: the bidder's discard and the partner's card."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.cards import DECK
from ...engine.seats import Seat
from ...engine.state import HandState, Phase
from ..calibration import kind_of
from ..dealing import Dealer, send_rule
from ..solver import Position
from ..view import SeatView
from .report import _SEND_NOTE, Advice, _losses, _net_choices, _option, _play_note, _same, _stopped
from .sampling import (
    _RANDOM_NOTE,
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
from .solving import _solve_all, _Tables, _tricks
from .tally import Tally
from .worth import _expected_tricks, _make_chance, _worths


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
        pos = Position.trusted(_hands(4, held), (), task.lead, task.trump, task.side, 4,
                               task.partner, left_bower=task.left_bower)
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
        pos = Position.trusted(_hands(4, held), (), task.lead, task.trump, task.side, 4,
                               task.partner, left_bower=task.left_bower)
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
                       makes=tally.share(k, lambda n: _make_chance(kd, n, bid)))
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
                       makes=tally.share(k, lambda n: _make_chance(kd, n, bid)))
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

