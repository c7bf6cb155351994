"""The one place that knows the bowers: a card's effective suit and its rank in a trick.

Under a trump suit the jack of trumps (right bower) is the highest trump. With the
``left_bower`` switch on (every preset but cutthroat, whose seed has none) the jack of the
same colour (left bower) is the second highest and belongs to the trump suit for the whole
hand; with it off that jack stays an ordinary jack of its printed suit. Following suit,
trick winners, sorting and every explanation call :func:`effective_suit` and
:func:`trick_rank` (or the tables behind them); nothing else decides what a jack is.

The tables are indexed by a *trump code* (:func:`trump_code`): 0-3 for a suit with both
bowers, 4 for no trump, 5-8 for a suit whose same-colour jack is not promoted.
:data:`TRUMP_OF` maps a code back to the trump suit (0-4), which is what a card's
effective suit is compared with.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .calls import Trump
from .cards import Card, CardLike, NotationError, Rank, Suit, iterable_arg

__all__ = [
    "EFFECTIVE_SUIT",
    "NO_LEFT_BOWER",
    "TRICK_POWER",
    "TRICK_RANK",
    "TRUMP_OF",
    "bower",
    "effective_suit",
    "is_trump",
    "legal_plays",
    "sort_by_rank",
    "trick_rank",
    "trick_winner",
    "trump_code",
]

# Trick rank of each printed rank in a trump suit: 9 10 . Q K A, jacks handled apart.
_TRUMP_ORDER = {Rank.NINE: 0, Rank.TEN: 1, Rank.QUEEN: 2, Rank.KING: 3, Rank.ACE: 4}
LEFT_BOWER_RANK = 5
RIGHT_BOWER_RANK = 6
NO_LEFT_BOWER = 5
"""Added to a suit's trump code when its same-colour jack is not promoted (codes 5-8)."""


def trump_code(trump: Trump | str | int, left_bower: bool = True) -> int:
    """The index of the ranking tables for this trump: the trump itself (0-4), or 5-8 for
    a suit played without the left bower. No trump has no bowers either way."""
    # A Trump or a plain int (the analysis's codes); any other int kind (a Bid, a Seat, True)
    # is the wrong kind and goes to parse, which refuses it.
    t = trump if type(trump) is Trump or type(trump) is int else Trump.parse(trump)  # type: ignore[arg-type]
    if not 0 <= t <= 4:
        raise NotationError(f"trump {t} is not 0-3 (a suit) or 4 (no trump)")
    return int(t) if left_bower or t == 4 else int(t) + NO_LEFT_BOWER  # 4: no trump


TRUMP_OF: tuple[int, ...] = (0, 1, 2, 3, 4, 0, 1, 2, 3)
"""``TRUMP_OF[code]``: the trump suit (0-3) or 4 (no trump) of a trump code."""


def _build() -> tuple[list[list[int]], list[list[int]]]:
    suits: list[list[int]] = []
    ranks: list[list[int]] = []
    for code in range(9):
        trump = Trump(TRUMP_OF[code])
        left = code < NO_LEFT_BOWER
        suit_row, rank_row = [], []
        for index in range(24):
            card = Card.from_index(index)
            suit, rank = int(card.suit), int(card.rank)
            t = trump.suit
            if t is not None and card.rank is Rank.JACK and (
                    card.suit is t or (left and card.suit is t.sister)):
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
"""``EFFECTIVE_SUIT[code][card.index]`` and ``TRICK_RANK[code][card.index]``: the fast path,
indexed by :func:`trump_code` (a plain :class:`Trump` is the code with both bowers)."""


def _power(code: int) -> list[list[int]]:
    trump = TRUMP_OF[code]
    suits, ranks = EFFECTIVE_SUIT[code], TRICK_RANK[code]
    return [[ranks[c] + 10 if suits[c] == trump else ranks[c] if suits[c] == led else -1
             for c in range(24)] for led in range(4)]


TRICK_POWER = [_power(code) for code in range(len(EFFECTIVE_SUIT))]
"""``TRICK_POWER[code][led][card]``: how strongly a card bids for a trick whose led card's
effective suit is ``led``: trumps above the suit led, -1 for a card that cannot win. The
highest power in a trick wins it (the first played, if equal: never, cards are distinct)."""


def effective_suit(card: CardLike, trump: Trump | str, left_bower: bool = True) -> Suit:
    """The suit a card belongs to this hand: its printed suit, except the left bower's is trumps."""
    return Suit(EFFECTIVE_SUIT[trump_code(trump, left_bower)][Card.parse(card).index])


def trick_rank(card: CardLike, trump: Trump | str, left_bower: bool = True) -> int:
    """Rank within the card's effective suit, higher is stronger (right bower 6, a plain ace 5)."""
    return TRICK_RANK[trump_code(trump, left_bower)][Card.parse(card).index]


def is_trump(card: CardLike, trump: Trump | str, left_bower: bool = True) -> bool:
    t = Trump.parse(trump)
    return t is not Trump.NT and EFFECTIVE_SUIT[trump_code(t, left_bower)][
        Card.parse(card).index] == t


def bower(card: CardLike, trump: Trump | str, left_bower: bool = True) -> str | None:
    """``"right"``, ``"left"`` or ``None``."""
    t = Trump.parse(trump)
    c = Card.parse(card)
    if t is Trump.NT or c.rank is not Rank.JACK:
        return None
    rank = TRICK_RANK[trump_code(t, left_bower)][c.index]
    if EFFECTIVE_SUIT[trump_code(t, left_bower)][c.index] != t:
        return None
    return "right" if rank == RIGHT_BOWER_RANK else "left" if rank == LEFT_BOWER_RANK else None


def winner_of(indices: Sequence[int], code: int) -> int:
    """Index in play order of the winning card; cards given as indices and the trump as a
    :func:`trump_code` (the fast path)."""
    row = TRICK_POWER[code][EFFECTIVE_SUIT[code][indices[0]]]
    best, best_power = 0, -1
    for pos, c in enumerate(indices):
        power = row[c]
        if power > best_power:
            best, best_power = pos, power
    return best


def trick_winner(cards: Sequence[CardLike], trump: Trump | str, left_bower: bool = True) -> int:
    """Index (in play order) of the card that wins this trick.

    >>> trick_winner(["JD", "AH", "9S", "QH"], trump="H")
    0
    """
    indices = [Card.parse(c).index for c in iterable_arg(cards, "a trick (a list of cards)")]
    if not indices:
        raise ValueError("a trick needs at least one card")
    return winner_of(indices, trump_code(trump, left_bower))


def legal_plays(hand: Iterable[CardLike], led: CardLike | None, trump: Trump | str,
                left_bower: bool = True) -> list[Card]:
    """The cards of ``hand`` that may be played to a trick led by ``led`` (``None``: leading).

    >>> legal_plays(hand=["JD", "AD", "9S"], led="AH", trump="H")
    [Card.parse('JD')]
    """
    cards = [Card.parse(c) for c in iterable_arg(hand, "a hand (a list of cards)")]
    if led is None:
        return cards
    suits = EFFECTIVE_SUIT[trump_code(trump, left_bower)]
    led_suit = suits[Card.parse(led).index]
    following = [c for c in cards if suits[c.index] == led_suit]
    return following or cards


def sort_by_rank(cards: Iterable[CardLike], trump: Trump | str,
                 left_bower: bool = True) -> list[Card]:
    """Cards grouped by effective suit (trumps first) and highest first within each suit."""
    t = Trump.parse(trump)
    code = trump_code(t, left_bower)
    suits, ranks = EFFECTIVE_SUIT[code], TRICK_RANK[code]

    def key(card: Card) -> tuple[int, int]:
        s = suits[card.index]
        return (0 if s == t else 1 + s, -ranks[card.index])

    return sorted([Card.parse(c) for c in iterable_arg(cards, "a list of cards")], key=key)
