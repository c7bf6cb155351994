"""Bid signals as the computer players use them: making them, and reading other seats'.

Where the table plays with signals (the rule set's ``signals`` switch; what each bid shows
is the engine's, :mod:`pepper_tutor.engine.signals`), every computer player keeps the
agreement and every deal of the unseen cards honours it.

Making them (:func:`signal_call`): a computer player bids exactly 2 only holding an ace and
exactly 3 only holding a red jack and a black jack. When its own judgement says 2 or 3
without the cards for it, it steps down rather than mislead its partner: a 3 becomes a 2
when it holds an ace (and 2 still tops the standing bid), otherwise it passes; a 2 without
an ace passes. A dealer who may not pass (stuck or dumped) bids the least call it may make
that keeps the agreement, so that every 2 and every 3 at the table can be read the same
way.

Reading them (:func:`shown_calls`, :func:`fits_signals`): the deals of the unseen cards are
kept only where every other seat's 2 held an ace and every 3 a jack of each colour in the
hand it was dealt, as the voids shown in play are honoured. A seat's own signal tells it
nothing it does not know. When no deal can honour a call (a person bid 2 without an ace,
and every ace is seen elsewhere), the advice's rejection gives up after its usual number of
draws and says so in its notes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..engine.calls import Bid
from ..engine.rules import RuleSet
from ..engine.seats import Seat
from ..engine.signals import holds_shown, signal_cards

__all__ = ["signal_call", "shown_calls", "fits_signals"]


def signal_call(rules: RuleSet, dealt: Iterable[int], call: Bid, legal: Sequence[Bid]) -> Bid:
    """The call a player who keeps the table's signals makes when its judgement says
    ``call`` (see the module notes); ``dealt``: its six cards (indices); ``legal``: the
    calls open to it."""
    hand = list(dealt)
    if holds_shown(rules, call, hand):
        return call
    if call is Bid.THREE and Bid.TWO in legal and holds_shown(rules, Bid.TWO, hand):
        return Bid.TWO
    if Bid.PASS in legal:
        return Bid.PASS
    return next(b for b in legal if holds_shown(rules, b, hand))  # 4 and up show nothing


def shown_calls(rules: RuleSet, calls: Iterable[tuple[Seat, Bid]], viewer: int | None = None
                ) -> tuple[tuple[int, Bid], ...]:
    """The calls of seats other than ``viewer`` that show cards at this table, as
    ``(seat, bid)``: empty without signals."""
    if not rules.signals_on:
        return ()
    return tuple((int(seat), bid) for seat, bid in calls
                 if int(seat) != viewer and signal_cards(rules, bid))


def fits_signals(rules: RuleSet, shown: Iterable[tuple[int, Bid]],
                 dealt: Mapping[int, Sequence[int]]) -> bool:
    """Whether the hands dealt to the seats given (indices, the six each was dealt, or what
    is known of them) hold what each of their ``shown`` calls showed; seats not given are
    not judged."""
    return all(holds_shown(rules, bid, dealt[seat]) for seat, bid in shown if seat in dealt)
