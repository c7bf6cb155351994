"""Cards named in text: spelled out in words for a screen reader, or found where a text
names them. Kept apart from the guide (:mod:`.guide`), which reads the analysis, so a page
that only speaks its feedback does not load it."""

from __future__ import annotations

import re

from ..engine.calls import Trump
from ..engine.cards import Card

__all__ = ["card_words", "spelled_cards", "cards_named"]


def card_words(card: Card) -> str:
    """A card in words: "jack of diamonds"."""
    return f"{card.rank.word} of {card.suit.plural}"


_RANKS = {"9": "9", "10": "T", "T": "T", "J": "J", "Q": "Q", "K": "K", "A": "A"}
_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
_RANK_WORDS = {"nine": "9", "ten": "T", "jack": "J", "queen": "Q", "king": "K", "ace": "A"}
_SUIT_WORDS = {"club": "C", "diamond": "D", "heart": "H", "spade": "S"}
# Upper case only: "as" and "ad" are English words; a record's prose writes cards as the
# project does (JD, J♦), and a seat's own view loses a note rather than risk naming a card.
_NOTATION = re.compile(r"(?<![A-Za-z0-9])(9|10|[TJQKA])([CDHS♣♦♥♠])(?![A-Za-z0-9])")
_WORDS = re.compile(r"\b(nine|ten|jack|queen|king|ace)s? of (club|diamond|heart|spade)s?\b",
                    re.IGNORECASE)
_BOWERS = re.compile(r"\b(right|left) bower\b", re.IGNORECASE)


def spelled_cards(text: str) -> str:
    """A text with every card written in notation (``J♦``, ``10H``) spelled out in words
    ("jack of diamonds"), as a screen reader should say it."""
    def words(m: re.Match[str]) -> str:
        card = Card.parse(_RANKS[m.group(1)] + _SYMBOLS.get(m.group(2), m.group(2)))
        return card_words(card)

    return _NOTATION.sub(words, text)


def cards_named(text: str, trump: Trump | None = None) -> set[Card]:
    """Every card a text names: in notation (``JD``, ``10♦``, ``J♦``), in words ("the jack
    of diamonds") or, when trumps are a suit, as a bower ("the left bower")."""
    found: set[Card] = set()
    for m in _NOTATION.finditer(text):
        found.add(Card.parse(_RANKS[m.group(1)] + _SYMBOLS.get(m.group(2), m.group(2))))
    for m in _WORDS.finditer(text):
        found.add(Card.parse(_RANK_WORDS[m.group(1).lower()] + _SUIT_WORDS[m.group(2).lower()]))
    suit = trump.suit if trump is not None else None
    if suit is not None:
        for m in _BOWERS.finditer(text):
            bower = suit if m.group(1).lower() == "right" else suit.sister
            found.add(Card.parse("J" + bower.letter))
    return found
