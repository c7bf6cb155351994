"""Bid signals: what a bid shows about the bidder's cards, where the table agrees on it.

A signal is a bidding agreement, not a rule of play: the engine never refuses a bid for it.
The rule set's ``signals`` switch names the agreement (``lions``, the La Porte City Lions
Club's: a 2 bid shows an ace, a 3 bid a red jack and a black jack); the computer players
bid by it and read other seats' bids by it (:mod:`pepper_tutor.analysis.signals`), and the
coach names it.

>>> from pepper_tutor.engine.rules import get_ruleset
>>> from pepper_tutor.engine.calls import Bid
>>> shown_by(get_ruleset("lions-club"), Bid.TWO)
'an ace'
>>> holds_shown(get_ruleset("lions-club"), Bid.THREE, [2, 8])  # J♣ and J♦
True
"""

from __future__ import annotations

from collections.abc import Iterable

from .calls import Bid
from .rules import RuleSet

__all__ = ["SIGNAL_BIDS", "holds_shown", "shown_by", "signal_cards"]

# Card index = suit * 6 + rank, ranks 9, 10, J, Q, K, A (0-5), suits C, D, H, S (0-3).
_ACES = frozenset(s * 6 + 5 for s in range(4))
_BLACK_JACKS = frozenset((0 * 6 + 2, 3 * 6 + 2))  # J♣, J♠
_RED_JACKS = frozenset((1 * 6 + 2, 2 * 6 + 2))  # J♦, J♥

SIGNAL_BIDS = {"lions": {Bid.TWO: "an ace", Bid.THREE: "a red jack and a black jack"}}
"""Per agreement, the bids that show something and what, in words."""


def shown_by(rules: RuleSet, bid: Bid) -> str | None:
    """What ``bid`` shows at this table, in words, or ``None`` (no signal)."""
    return SIGNAL_BIDS.get(rules.signals, {}).get(bid)


def signal_cards(rules: RuleSet, bid: Bid) -> tuple[frozenset[int], ...]:
    """The card groups of which ``bid`` shows one card each (card indices) at this table:
    under the Lions Club agreement the aces for a 2, the red jacks and the black jacks for
    a 3; none for a bid that shows nothing."""
    if rules.signals != "lions":
        return ()
    if bid is Bid.TWO:
        return (_ACES,)
    if bid is Bid.THREE:
        return (_RED_JACKS, _BLACK_JACKS)
    return ()


def holds_shown(rules: RuleSet, bid: Bid, cards: Iterable[int]) -> bool:
    """Whether ``cards`` (indices: a dealt hand) hold what ``bid`` shows at this table
    (true for a bid that shows nothing)."""
    held = set(cards)
    return all(held & group for group in signal_cards(rules, bid))
