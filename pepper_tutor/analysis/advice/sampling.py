"""The sampling core's deals: the unseen cards a deciding seat imagines.

A player who bids, discards, sends a card, defends or plays a card does not know where the
unseen cards are. The advice deals them at random, consistent with everything the player
knows, solves each deal double-dummy (:mod:`.solving`) and reports for each option the
expected tricks and points with a 95% confidence interval (:mod:`.tally`, :mod:`.report`).

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
dealt to keep them. ``auction=False`` turns it off.

Every advice takes the hand, a :class:`~pepper_tutor.engine.state.HandState`, or the
deciding seat's :class:`~pepper_tutor.analysis.view.SeatView` of it, and reads only the view
(the state is turned into the view of the seat to act): a computer player hands over the
view it was given, and the advice deals the unseen cards from it, once. Then ``samples``;
a ``seed`` (an int or a :class:`random.Random`: the same seed gives the same report; with
none, the position's own seed); an optional ``progress(done, total)`` callback; and
``workers`` (see :mod:`.solving`). This module holds those shared steps: reading the
request and the view, the random numbers, and the deals drawn one at a time, kept by the
auction; the exchange rules and the dealing itself are in
:mod:`pepper_tutor.analysis.dealing`.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from ...engine.cards import Card
from ...engine.rules import RuleSet
from ...engine.state import HandState
from ..calling import auction_weight
from ..dealing import Dealer, position_seed
from ..inference import declaration, pick_by_weight
from ..signals import fits_signals, shown_calls
from ..view import SeatView, view_of
from .native_sampling import native_sampler

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called as sampled deals are solved."""

Seed = int | random.Random | None



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



_Accept = Callable[[list[list[int]]], float]
_MAX_DRAWS = 40  # per sample: past this, one of the deals drawn is picked by its likelihood


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
    cannot back) does that budget still end the search.

    Where it is built and applies, the loop runs in C (:mod:`.native_sampling`) and gives
    exactly the deals, counts and generator state of the loop below."""
    fast = native_sampler(dealer, accept, rng) \
        if accept is None or isinstance(accept, _CallsAccept) else None
    for _ in range(samples):
        if fast is not None:
            kept, draws.drawn, forced, tried = fast.draw(rng, draws.drawn, samples, _MAX_DRAWS)
            if forced:
                draws.forced += 1
            draws.kept += 1
            yield kept if kept is not None else pick_by_weight(tried or [], rng)
            continue
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
                    deal = pick_by_weight(likely, rng)
                break
        draws.kept += 1
        yield deal





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



_RANDOM_NOTE = "the other hands are dealt at random: the auction so far is not read"
