"""The one place that knows the bowers: a card's effective suit and its rank in a trick.

Under a trump suit the jack of trumps (right bower) and the jack of the same colour (left
bower) are the two highest trumps, and the left bower belongs to the trump suit for the whole
hand. Following suit, trick winners, sorting and every explanation call the two functions
:func:`effective_suit` and :func:`trick_rank` (or the tables behind them); nothing else
decides what a jack is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .calls import Trump
from .cards import Card, CardLike, Rank, Suit

__all__ = [
    "EFFECTIVE_SUIT",
    "TRICK_RANK",
    "bower",
    "effective_suit",
    "is_trump",
    "legal_plays",
    "sort_by_rank",
    "trick_rank",
    "trick_winner",
]

# Trick rank of each printed rank in a trump suit: 9 10 . Q K A, jacks handled apart.
_TRUMP_ORDER = {Rank.NINE: 0, Rank.TEN: 1, Rank.QUEEN: 2, Rank.KING: 3, Rank.ACE: 4}
LEFT_BOWER_RANK = 5
RIGHT_BOWER_RANK = 6


def _build() -> tuple[list[list[int]], list[list[int]]]:
    suits: list[list[int]] = []
    ranks: list[list[int]] = []
    for trump in Trump:
        suit_row, rank_row = [], []
        for index in range(24):
            card = Card.from_index(index)
            suit, rank = int(card.suit), int(card.rank)
            t = trump.suit
            if t is not None and card.rank is Rank.JACK and card.suit in (t, t.sister):
                suit = int(t)
                rank = RIGHT_BOWER_RANK if card.suit is t else LEFT_BOWER_RANK
            elif t is not None and card.suit is t:
                rank = _TRUMP_ORDER[card.rank]
            suit_row.append(suit)
            rank_row.append(rank)
        suits.append(suit_row)
        ranks.append(rank_row)
    return suits, ranks


EFFECTIVE_SUIT, TRICK_RANK = _build()
"""``EFFECTIVE_SUIT[trump][card.index]`` and ``TRICK_RANK[trump][card.index]``: the fast path."""


def effective_suit(card: CardLike, trump: Trump | str) -> Suit:
    """The suit a card belongs to this hand: its printed suit, except the left bower's is trumps."""
    return Suit(EFFECTIVE_SUIT[Trump.parse(trump)][Card.parse(card).index])


def trick_rank(card: CardLike, trump: Trump | str) -> int:
    """Rank within the card's effective suit, higher is stronger (right bower 6, a plain ace 5)."""
    return TRICK_RANK[Trump.parse(trump)][Card.parse(card).index]


def is_trump(card: CardLike, trump: Trump | str) -> bool:
    t = Trump.parse(trump)
    return t is not Trump.NT and EFFECTIVE_SUIT[t][Card.parse(card).index] == t


def bower(card: CardLike, trump: Trump | str) -> str | None:
    """``"right"``, ``"left"`` or ``None``."""
    t = Trump.parse(trump)
    c = Card.parse(card)
    if t is Trump.NT or c.rank is not Rank.JACK:
        return None
    rank = TRICK_RANK[t][c.index]
    return "right" if rank == RIGHT_BOWER_RANK else "left" if rank == LEFT_BOWER_RANK else None


def winner_of(indices: Sequence[int], trump: int) -> int:
    """Index in play order of the winning card; cards given as indices (the fast path)."""
    suits = EFFECTIVE_SUIT[trump]
    ranks = TRICK_RANK[trump]
    led = suits[indices[0]]
    best, best_power = 0, -1
    for pos, c in enumerate(indices):
        s = suits[c]
        power = ranks[c] + 10 if s == trump else ranks[c] if s == led else -1
        if power > best_power:
            best, best_power = pos, power
    return best


def trick_winner(cards: Sequence[CardLike], trump: Trump | str) -> int:
    """Index (in play order) of the card that wins this trick.

    >>> trick_winner(["JD", "AH", "9S", "QH"], trump="H")
    0
    """
    if not cards:
        raise ValueError("a trick needs at least one card")
    return winner_of([Card.parse(c).index for c in cards], Trump.parse(trump))


def legal_plays(hand: Iterable[CardLike], led: CardLike | None, trump: Trump | str) -> list[Card]:
    """The cards of ``hand`` that may be played to a trick led by ``led`` (``None``: leading).

    >>> legal_plays(hand=["JD", "AD", "9S"], led="AH", trump="H")
    [Card.parse('JD')]
    """
    cards = [Card.parse(c) for c in hand]
    if led is None:
        return cards
    t = Trump.parse(trump)
    suits = EFFECTIVE_SUIT[t]
    led_suit = suits[Card.parse(led).index]
    following = [c for c in cards if suits[c.index] == led_suit]
    return following or cards


def sort_by_rank(cards: Iterable[CardLike], trump: Trump | str) -> list[Card]:
    """Cards grouped by effective suit (trumps first) and highest first within each suit."""
    t = Trump.parse(trump)
    suits, ranks = EFFECTIVE_SUIT[t], TRICK_RANK[t]

    def key(card: Card) -> tuple[int, int]:
        s = suits[card.index]
        return (0 if s == t else 1 + s, -ranks[card.index])

    return sorted((Card.parse(c) for c in cards), key=key)
