"""Cards, suits and ranks of the 24-card Pepper deck, and their notation.

A card is an immutable value with a canonical text form (``JH``, ``TD``, ``9S``) that
:meth:`Card.parse` reads back. Parsing also accepts ``10``, the suit symbols and lower case.
Internally a card is its index 0..23 (suit-major), which the engine's fast paths use.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from enum import IntEnum
from typing import Any

__all__ = [
    "DECK",
    "Card",
    "CardLike",
    "NotationError",
    "Rank",
    "Suit",
    "WrongTypeError",
    "cards_display",
    "cards_text",
    "parse_cards",
    "spoken_cards",
]


class NotationError(ValueError):
    """Text that is not valid Pepper notation (a card, seat, trump, bid or call)."""


class WrongTypeError(NotationError, TypeError):
    """A value of a type the public API does not take there (a list for a card, a float for a
    seed, a Trump for a bid). A ValueError like every refusal of the API, so one ``except
    ValueError`` catches them all; a TypeError too, for code that expects one."""


def wrong_type(value: object, expected: str) -> WrongTypeError:
    """The refusal of ``value`` where ``expected`` (in words) was needed."""
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return WrongTypeError(f"{shown} is not {expected} (it is a {type(value).__name__})")


def iterable_arg(items: Any, expected: str) -> Iterable[Any]:
    """``items`` if it is a collection of values (a list, tuple, set, generator), else a
    :class:`WrongTypeError`: text, bytes, a mapping or a number is not a collection here."""
    if isinstance(items, (str, bytes, bytearray, Mapping)) or not isinstance(items, Iterable):
        raise wrong_type(items, expected)
    return items


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def plural(self) -> str:
        return ("clubs", "diamonds", "hearts", "spades")[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def sister(self) -> Suit:
        """The other suit of the same colour (the left bower's printed suit)."""
        return Suit(3 - self)  # the enum order C D H S makes colours mirror images

    def __str__(self) -> str:
        return self.letter

    def __bool__(self) -> bool:
        return True  # N, clubs and the nine are values like any other, never "false"

    @classmethod
    def parse(cls, text: str | Suit) -> Suit:
        if isinstance(text, Suit):
            return text
        if not isinstance(text, str):
            raise wrong_type(text, "a suit (C, D, H, S or ♣ ♦ ♥ ♠)")
        key = text.strip().lower()
        try:
            return _SUIT_NAMES[key]
        except KeyError:
            raise NotationError(
                f"{text!r} is not a suit (expected C, D, H, S or ♣ ♦ ♥ ♠)") from None


_SUIT_NAMES: dict[str, Suit] = {}
for _s in Suit:
    for _name in (_s.letter, _s.symbol, _s.plural, _s.plural[:-1], _s.name):
        _SUIT_NAMES[_name.lower()] = _s
_SUIT_NAMES["♡"] = Suit.HEARTS
_SUIT_NAMES["♢"] = Suit.DIAMONDS
_SUIT_NAMES["♤"] = Suit.SPADES
_SUIT_NAMES["♧"] = Suit.CLUBS


class Rank(IntEnum):
    """Printed ranks, lowest first. Trick order under trumps lives in :mod:`ranking`."""

    NINE = 0
    TEN = 1
    JACK = 2
    QUEEN = 3
    KING = 4
    ACE = 5

    @property
    def letter(self) -> str:
        return "9TJQKA"[self]

    @property
    def display(self) -> str:
        return ("9", "10", "J", "Q", "K", "A")[self]

    @property
    def word(self) -> str:
        return ("nine", "ten", "jack", "queen", "king", "ace")[self]

    def __str__(self) -> str:
        return self.letter

    def __bool__(self) -> bool:
        return True  # N, clubs and the nine are values like any other, never "false"


_RANK_NAMES = {"9": Rank.NINE, "t": Rank.TEN, "10": Rank.TEN, "j": Rank.JACK,
               "q": Rank.QUEEN, "k": Rank.KING, "a": Rank.ACE}


class Card:
    """One of the 24 cards. Instances are interned: ``Card.parse("jd") is Card.parse("J♦")``."""

    __slots__ = ("index",)
    index: int

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        if type(rank) is not Rank or type(suit) is not Suit:
            raise wrong_type((rank, suit), "a Rank and a Suit (Card.parse reads text)")
        return _CARDS[suit * 6 + rank]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "index", index)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @staticmethod
    def from_index(index: int) -> Card:
        if type(index) is not int or not 0 <= index < 24:
            raise wrong_type(index, "a card index from 0 to 23") if type(index) is not int \
                else NotationError(f"{index} is not a card index (expected 0 to 23)")
        return _CARDS[index]

    @classmethod
    def parse(cls, text: CardLike) -> Card:
        """Read a card: ``JH``, ``jh``, ``J♥``, ``10♦``, ``TD``. Raises :class:`NotationError`."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise wrong_type(text, "a card (text such as JH or 10♦)")
        try:
            return _PARSE_CACHE[text]
        except KeyError:
            pass
        key = text.strip().lower()
        if len(key) >= 2 and key[:-1] in _RANK_NAMES and key[-1] in _SUIT_NAMES:
            card = _CARDS[_SUIT_NAMES[key[-1]] * 6 + _RANK_NAMES[key[:-1]]]
            _PARSE_CACHE[text] = card
            return card
        raise NotationError(
            f"{text!r} is not a card "
            "(expected rank 9 10 J Q K A or T, then suit C D H S or ♣ ♦ ♥ ♠)"
        )

    @property
    def rank(self) -> Rank:
        return Rank(self.index % 6)

    @property
    def suit(self) -> Suit:
        """The printed suit. Under trumps the left bower belongs to another: see ranking."""
        return Suit(self.index // 6)

    @property
    def display(self) -> str:
        """Human form with the suit symbol: ``J♥``, ``10♦``."""
        return _DISPLAY[self.index]

    @property
    def is_red(self) -> bool:
        return self.suit.is_red

    def __str__(self) -> str:
        return _TEXT[self.index]

    def __repr__(self) -> str:
        return f"Card.parse({_TEXT[self.index]!r})"

    def __eq__(self, other: object) -> bool:
        return self is other if isinstance(other, Card) else NotImplemented

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    def _repr_svg_(self) -> str:
        from ..render.cards_html import card_svg  # imported on demand: notebooks only

        return card_svg(self)


CardLike = Card | str

_TEXT = [Rank(i % 6).letter + Suit(i // 6).letter for i in range(24)]
_DISPLAY = [Rank(i % 6).display + Suit(i // 6).symbol for i in range(24)]
_CARDS = [Card._make(i) for i in range(24)]
_PARSE_CACHE: dict[str, Card] = {}

DECK: tuple[Card, ...] = tuple(_CARDS)
"""The 24 cards, clubs first, each suit from the 9 up."""


# Cards as people say them: "jack of diamonds", "the 10 of hearts", "J hearts".
_SPOKEN_RANK = {"nine": "9", "ten": "10", "jack": "J", "queen": "Q", "king": "K", "ace": "A",
                "9": "9", "10": "10", "t": "10", "j": "J", "q": "Q", "k": "K", "a": "A"}
_SPOKEN = re.compile(r"\b(nine|ten|jack|queen|king|ace|9|10|t|j|q|k|a)\s+(?:of\s+)?"
                     r"(clubs?|diamonds?|hearts?|spades?)\b", re.IGNORECASE)
# Words between cards that carry nothing: "the jack of hearts and the nine of clubs".
_BETWEEN = re.compile(r"\b(?:the|and|then)\b|[,;&+]", re.IGNORECASE)


def spoken_cards(text: str) -> str:
    """Cards spelled out as words turned into notation, the words between them dropped:
    ``"the jack of diamonds and the A♥"`` -> ``"JD  AH"``. Other text is left as it is, for
    :func:`parse_cards` to name what it cannot read."""
    text = _SPOKEN.sub(lambda m: _SPOKEN_RANK[m.group(1).lower()]
                       + _SUIT_NAMES[m.group(2).lower().rstrip("s")].letter, text)
    return _BETWEEN.sub(" ", text)


def parse_cards(items: Iterable[CardLike] | str) -> list[Card]:
    """Read several cards from a list, or from one string: notation or words, separated by
    spaces, commas or "and" (``JD AH``, ``J♦, A♥``, ``jack of diamonds and ace of hearts``)."""
    if isinstance(items, str):
        items = spoken_cards(items).split()
    return [Card.parse(item) for item in iterable_arg(items, "cards (a list, or text)")]


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def cards_display(cards: Iterable[Card]) -> str:
    return " ".join(c.display for c in cards)
