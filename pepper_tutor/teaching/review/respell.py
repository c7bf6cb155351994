"""A lesson step dealt again in other suits: the same lesson, new cards.

Swapping the two red suits, the two black suits, or both, keeps every rule the step rests on
(the left bower is the jack of the suit of the same colour, so it follows the swap): the
engine gives the new step's answer, and its words (prompt, hint, notes) are respelt with the
same swap, so "Hearts are trumps ... J♦" becomes "Diamonds are trumps ... J♥". Review uses
it to bring back a missed lesson step that no drill reaches with cards the learner has not
just seen.
"""

from __future__ import annotations

import re
from dataclasses import fields, replace
from typing import Any

from ...engine.calls import Trump
from ...engine.cards import Card, Suit
from ..questions.steps import LegalPlaysStep, PlayStep, RankStep, Step, TrickWinnerStep

__all__ = ["SWAPS", "respell", "RESPELT_KINDS"]

Swap = dict[Suit, Suit]
_C, _D, _H, _S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES
# the swaps that keep each suit's colour (so "red jacks" and "the other black jack" stay true)
SWAPS: tuple[Swap, ...] = (
    {_C: _C, _D: _H, _H: _D, _S: _S},
    {_C: _S, _D: _D, _H: _H, _S: _C},
    {_C: _S, _D: _H, _H: _D, _S: _C},
)
# The rules steps whose situation is all cards and a trump; judgement steps come back as
# screened positions instead (their analysis is worked out ahead of time).
RESPELT_KINDS = (RankStep, TrickWinnerStep, LegalPlaysStep, PlayStep)

_RANKS = "9|10|T|J|Q|K|A"
_WORD = re.compile(r"\b(club|diamond|heart|spade)(s?)\b", re.IGNORECASE)
_SYMBOL = re.compile("[♣♦♥♠]")
_CODE = re.compile(rf"\b({_RANKS})([CDHS])\b")  # upper case only: "as" is a word


def _card(card: Card, swap: Swap) -> Card:
    return Card(card.rank, swap[card.suit])


def _text(text: str, swap: Swap) -> str:
    """``text`` with every suit word, symbol and card code respelt."""
    def word(m: re.Match[str]) -> str:
        new = swap[Suit.parse(m.group(1))].plural[:-1]
        new = new.capitalize() if m.group(1)[0].isupper() else new
        return new + m.group(2)

    def code(m: re.Match[str]) -> str:
        letter = swap[Suit.parse(m.group(2))].letter
        return m.group(1) + letter

    text = _WORD.sub(word, text)
    text = _SYMBOL.sub(lambda m: swap[Suit.parse(m.group(0))].symbol, text)
    return _CODE.sub(code, text)


def _value(value: Any, swap: Swap) -> Any:
    if isinstance(value, Card):
        return _card(value, swap)
    if isinstance(value, Trump):
        return value if value.suit is None else Trump.from_suit(swap[value.suit])
    if isinstance(value, str):
        return _text(value, swap)
    if isinstance(value, tuple):
        return tuple(_value(v, swap) for v in value)
    if isinstance(value, list):
        return [_value(v, swap) for v in value]
    if isinstance(value, dict):
        return {_value(k, swap): _value(v, swap) for k, v in value.items()}
    return value


def respell(step: Step[Any], swap: Swap) -> Step[Any] | None:
    """``step`` in the suits ``swap`` gives, or ``None`` for a kind this cannot respell, a
    respelling the engine finds fault with, or one that shows the same cards."""
    if not isinstance(step, RESPELT_KINDS):
        return None
    changes = {f.name: _value(getattr(step, f.name), swap) for f in fields(step)
               if f.init and f.name not in ("id", "rules", "line", "cite")}
    new = replace(step, **changes)
    if new.problems() or new.situation().key == step.situation().key:
        return None  # the swap touched no card shown (a red trick, the black suits swapped)
    return new
