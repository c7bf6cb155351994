"""Advice on the defense: whether the defenders play or surrender."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.calls import Bid, Defense, Mode
from ...engine.seats import Seat
from ...engine.state import HandState, Phase
from ..calibration import kind_of
from ..dealing import Dealer, discard_rule, send_rule
from ..solver import Position
from ..view import SeatView
from .report import (
    _DISCARD_NOTE,
    _SEND_NOTE,
    Advice,
    OptionAdvice,
    _one,
    _option,
    _play_note,
    _ranked,
    _stopped,
    _with_losses,
)
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
from .solving import _solve_all, _Tables, _tricks
from .tally import Estimate, TalliedOption, Tally
from .worth import _expected_tricks, _make_chance, _Scorer, _worths


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
    pos = Position.trusted(_hands(4, hands), (), task.lead, task.trump, task.side, 4, task.out,
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
                       makes=tally.share(0, lambda t: _make_chance(kd, t, bid)))]
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
                  _with_losses(tally, ranked, tallied), tuple(notes))

