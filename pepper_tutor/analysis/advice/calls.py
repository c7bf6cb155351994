"""Advice on a call: which contract to bid, and for the declarer which trump and way of playing.

One advice (:func:`advise_bid`) serves the auction (the bid), naming trumps (trump and way
of playing) and choosing the way of playing for the trump named; each deal is solved once
per trump and way of playing (:mod:`.auction`) and every bid level is scored from that one
trick count.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ...engine.calls import Bid, Mode, Trump
from ...engine.rules import RuleSet
from ...engine.seats import Seat
from ...engine.state import HandState, Phase
from ..calibration import MADE, POOLED, kind_of, sweep_chance
from ..dealing import Dealer, discard_rule
from ..view import SeatView
from .auction import SolvedDeals, _bid_sample, _BidTask, _keep, _later_calls, _later_seats, _row
from .report import (
    _DISCARD_NOTE,
    _SEND_NOTE,
    Advice,
    OptionAdvice,
    _option,
    _play_note,
    _ranked,
    _stopped,
    _with_losses,
)
from .sampling import (
    _RANDOM_NOTE,
    Progress,
    Seed,
    _auction_note,
    _calls_accept,
    _check_request,
    _deals,
    _Draws,
    _indices,
    _rng,
    _seen,
    _side_seats,
    _trump_of,
)
from .solving import DROP_Z, _solve_all
from .tally import _Z95, Estimate, TalliedOption, Tally, _best, _shown_worse
from .worth import _expected_tricks, _make_chance, _sweep_worth, _worths


def _bid_worth(worth: Sequence[tuple[float, float]], bid: Bid,
               made: Sequence[tuple[float, float]] | None = None, weight: float = 0.0
               ) -> Callable[[Any], tuple[float, float]]:
    """``(points, net)`` of a bid for an outcome of its column: its own contract's (read
    ``weight`` by the ``made`` row and the rest by its own, see :func:`_pooled_weight`),
    unless a later seat tops it, then the contract that follows."""
    level = int(bid)

    def value(outcome: Any) -> tuple[float, float]:
        n, top, topped = outcome[0], outcome[1], outcome[2]
        if top > level:
            found: tuple[float, float] = topped
        elif made is None or not weight:
            found = worth[n]
        else:
            (p, q), (pm, qm) = worth[n], made[n]
            found = ((1 - weight) * p + weight * pm, (1 - weight) * q + weight * qm)
        return found

    return value


def _sweep_value(rules: RuleSet, viewer: int, kind: str | None
                 ) -> Callable[[Any], tuple[float, float]]:
    made = _sweep_worth(rules, viewer, viewer, kind, True)
    lost = _sweep_worth(rules, viewer, viewer, kind, False)
    return lambda outcome: made if outcome[0] == 6 else lost


def _second(value: Callable[[Any], tuple[float, float]]) -> Callable[[Any], float]:
    return lambda outcome: value(outcome)[1]


POOL_FROM = 0.9
"""The share of deals, made both ways, from which a bid starts to be read by the pooled row."""


def _pooled_weight(share: float) -> float:
    """How much of a bid's worth is read by the row of both ways (:data:`~.calibration.MADE`)
    rather than its way's own, given the ``share`` of its deals on which double-dummy play
    makes it with the partner and alone with the exchange alike: all of it where every deal
    does (then the calibration cannot turn the choice between the ways: read per way, the
    expert's partner contracts, lost in play a little more often with a trick to spare,
    turned such choices), none below :data:`POOL_FROM`, in proportion between. Read all or
    nothing, one deal in two hundred moved a 4 alone by a point and a half, and two seeds
    graded the same trump Best and a Mistake; between 90% and all, a deal moves the weight
    by a twentieth, the worth by a tenth of a point at most. (Read deal by deal instead,
    the pooled row reached most partner contracts, and played out, the exchange did clearly
    better in 10 of 89 sampled puzzles it made answer "with partner".)"""
    return min(1.0, max(0.0, (share - POOL_FROM) / (1.0 - POOL_FROM)))


def _share_both_ways(tally: Tally, column: int, need: int) -> tuple[float, int]:
    """The share of the deals on which a bid column's other way was solved too where
    double-dummy play makes ``need`` tricks with the partner and alone alike (an outcome's
    ``both``: -1 where the other way was dropped), and how many deals that share is of."""
    solved = tally.share(column, lambda outcome: float(outcome[3] >= 0))
    made = tally.share(column, lambda outcome: float(outcome[3] >= need))
    return (made / solved if solved else 0.0), round(solved * tally.solved(column))


def _weight_spread(share: float, deals: int) -> float:
    """The standard error of :func:`_pooled_weight` read from ``share`` of ``deals``: the
    weight's range over the share's 95% (Wilson) interval, as a standard error. The share is
    counted on the same deals the bid is valued on, so another seed's deals read another
    weight: over 200 deals the share moves by about 1.5 points in a hundred from seed to
    seed, the weight by about 0.15, and a 5 in hearts was once graded Best over one seed's
    deals and a Mistake over another's, with intervals that did not meet. The bid's worth
    moves by this times the gap between its two rows (:func:`_pooled_spread`)."""
    if deals <= 0:
        return 0.0
    z2 = _Z95 * _Z95
    centre = (share + z2 / (2 * deals)) / (1 + z2 / deals)
    half = _Z95 * math.sqrt(share * (1 - share) / deals + z2 / (4 * deals * deals)) / (
        1 + z2 / deals)
    low, high = _pooled_weight(centre - half), _pooled_weight(centre + half)
    return (high - low) / (2 * _Z95)


def _pooled_spread(tally: Tally, column: int, own: Callable[[Any], float],
                   made: Callable[[Any], float], weight_error: float) -> float:
    """What a pooled bid's worth varies by through its weight's error: the gap between the
    worth read all by the pooled row and all by its own way's, times that error."""
    if not weight_error:
        return 0.0
    gap = (TalliedOption(column, made).mean(tally) - TalliedOption(column, own).mean(tally))
    return abs(gap) * weight_error


def _blend(own: Callable[[Any], float], made: Callable[[Any], float] | None, weight: float
           ) -> Callable[[Any], float]:
    """``own`` read ``weight`` by ``made`` (the pooled row, :func:`_pooled_weight`)."""
    if made is None or not weight:
        return own
    return lambda outcome: (1 - weight) * own(outcome) + weight * made(outcome)


def _tricks_fn(own: str | None, made: str | None, weight: float) -> Callable[[Any], float]:
    """The tricks expected in play for a bid column's outcome."""
    return _blend(lambda outcome: _expected_tricks(own, outcome[0]),
                  None if made is None else lambda outcome: _expected_tricks(made, outcome[0]),
                  weight)


def _makes_fn(own: str | None, made: str | None, weight: float, bid: Bid
              ) -> Callable[[Any], float]:
    """The chance ``bid`` makes, for a bid column's outcome."""
    return _blend(lambda outcome: _make_chance(own, outcome[0], bid),
                  None if made is None else lambda outcome: _make_chance(made, outcome[0], bid),
                  weight)


def _sweeps_fn(kind: str | None) -> Callable[[Any], float]:
    """The chance a big pepper sweeps, for a big pepper column's outcome."""
    return lambda outcome: (float(outcome[0] == 6) if kind is None
                            else sweep_chance(kind, outcome[0] == 6))




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
    way once every bid in it is worse than the best option, paired over the same deals,
    looking every 10 deals from the 10th, at 95% shared out over the looks (``DROP_Z`` in
    :mod:`.solving`): the deals go on for the options still in
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

    pooled = tuple(w.value for w in ways if w is not None) == POOLED

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
        # The best's other way of playing is solved on as long as it is best: on each deal
        # both ways make, the best may be read by the row of the two (_pooled_weight).
        sibling = (best.column ^ 1 if pooled and best.column is not None
                   and best.column < width else None)
        for column in range(width + len(chosen)):
            flags, i = (task.active, column) if column < width else (task.active_big,
                                                                    column - width)
            if not live(column) or column == sibling:
                continue
            mine = [c for c in choices if c.column == column]
            if (mine and not any(c is best for c in mine)
                    and all(_shown_worse(tally, best, c, DROP_Z) for c in mine)):
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
        for way in ways:
            name = "play" if way is None else way.value
            solved_on = tally.solved(column)  # deals
            bids = levels + ([Bid.BIG_PEPPER] if big and way is None else [])
            how = f", {way.display}" if way is not None else ""
            candidates = []
            for bid in bids if solved_on else []:
                label = f"{bid.display} in {t.display}{how}"
                mine = kind(k, name)
                both = kind(k, MADE) if pooled and mine is not None else None
                own_worth = _worths(rules, viewer, viewer, bid, mine)
                weight = error = spread = 0.0
                if both is not None:
                    share, counted = _share_both_ways(tally, column, bid.tricks)
                    weight, error = _pooled_weight(share), _weight_spread(share, counted)
                    made_worth = _worths(rules, viewer, viewer, bid, both)
                    spread = _pooled_spread(
                        tally, column, _second(_bid_worth(own_worth, bid)),
                        _second(_bid_worth(own_worth, bid, made_worth, 1.0)), error)
                value = _bid_worth(own_worth, bid, None if both is None else made_worth,
                                   weight)
                tallied[label] = TalliedOption(column, _second(value), spread)
                candidates.append(_option(
                    label, tally, column, value,
                    tricks=_tricks_fn(mine, both, weight), bid=bid, trump=t, mode=way,
                    makes=tally.share(column, _makes_fn(mine, both, weight, bid)),
                    spread=spread))
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
    notes.append(_CHOICE_NOTE)
    decision = "bid" if phase is Phase.AUCTION else "declare"
    ranked = _ranked(options)
    groups = _groups(phase, [*every, *options], tallied)
    found: dict[tuple[int, ...], Estimate | None] = {}  # each choice's loss, once
    return Advice(decision, Seat(viewer), rules.side_of(viewer), tally.deals,
                  _with_losses(tally, ranked, tallied, groups, found), tuple(notes),
                  _with_losses(tally, _ranked(every), tallied, groups, found,
                               ranked[0].label))


_CHOICE_NOTE = ("a choice's loss is that of its best trump and way of playing against the "
                "best option, both picked on these deals: its interval allows for the picks")


def _groups(phase: Phase, options: Sequence[OptionAdvice],
            tallied: Mapping[str, TalliedOption]) -> dict[str, list[TalliedOption]]:
    """Per option's label, every option that plays the same choice (in the auction a bid,
    naming trumps a trump, choosing the way of playing a way): its loss is the choice's,
    the best of them taken (:func:`~.report._with_losses`)."""
    def action(o: OptionAdvice) -> object:
        return o.bid if phase is Phase.AUCTION else o.trump if phase is Phase.DECLARE_TRUMP \
            else o.mode

    by_action: dict[object, list[TalliedOption]] = {}
    for o in dict((o.label, o) for o in options).values():
        if o.label in tallied:
            by_action.setdefault(action(o), []).append(tallied[o.label])
    return {o.label: by_action[action(o)] for o in options if o.label in tallied}

