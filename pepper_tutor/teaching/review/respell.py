"""A lesson step dealt again in other suits: the same lesson, new cards.

Swapping the two red suits, the two black suits, or both, keeps every rule the step rests on
(the left bower is the jack of the suit of the same colour, so it follows the swap; at a
dirty-clubs table clubs stay clubs, so only the red suits are swapped there), and its words
(prompt, hint, notes) are respelt with the same swap, so "Hearts are trumps ... J♦" becomes
"Diamonds are trumps ... J♥". The answer is never copied from the old step:

- a rules step (a trick's winner, the plays allowed, an order of cards, a card to play) is
  answered by the engine from its new cards;
- a decision step whose rules leave one answer (big pepper is played alone; a dirty-clubs
  defender plays) takes the one answer the engine allows on the new cards;
- a judgement step (a bid, trumps, the exchange, play or surrender) keeps the answers the
  swap gives its accepted ones only when the sampled analysis of the new deal agrees with
  them (:meth:`~..questions.choice_steps.ChoiceStep.analysis_problems`, as ``lesson
  --check`` does); where the author departs from the analysis (``disagree``), only when the
  analysis reads the new deal as it read the old one (the same best answer, respelt).

Review uses it to bring back a missed lesson step that no drill and no screened position
reaches, with cards the learner has not just seen.
"""

from __future__ import annotations

import re
from dataclasses import fields, replace
from enum import Enum
from typing import Any

from ...engine.calls import Trump
from ...engine.cards import Card, Suit
from ...engine.rules import RuleSet
from ..questions.choice_steps import BidStep, ChoiceStep, DeclareStep, DefendStep, ExchangeStep
from ..questions.steps import LegalPlaysStep, PlayStep, RankStep, Step, TrickWinnerStep

__all__ = ["SWAPS", "respell", "swaps_for", "RESPELT_KINDS"]

Swap = dict[Suit, Suit]
_C, _D, _H, _S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES
# the swaps that keep each suit's colour (so "red jacks" and "the other black jack" stay true)
SWAPS: tuple[Swap, ...] = (
    {_C: _C, _D: _H, _H: _D, _S: _S},
    {_C: _S, _D: _D, _H: _H, _S: _C},
    {_C: _S, _D: _H, _H: _D, _S: _C},
)
# The steps whose situation is cards, a trump and calls: the rules steps, and the decision
# steps (review draws a screened position of a judgement first: its analysis is worked out
# ahead of time).
RESPELT_KINDS = (RankStep, TrickWinnerStep, LegalPlaysStep, PlayStep,
                 BidStep, DeclareStep, ExchangeStep, DefendStep)
# What respell leaves as it was: the step's name and table, and the author's answers (a
# decision step's are worked out again, never copied: see the module).
_KEPT = ("id", "rules", "line", "cite", "accept", "wrong", "reasons", "disagree")


def swaps_for(rules: RuleSet) -> tuple[Swap, ...]:
    """The swaps that keep every rule of the table: at a dirty-clubs table clubs are
    special, so only the red suits trade places."""
    if rules.dirty_clubs:
        return tuple(w for w in SWAPS if w[_C] is _C)
    return SWAPS

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
    if isinstance(value, Enum):  # a bid, a way of playing, a defence, a seat: no suit
        return value
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
    swap its table does not allow (:func:`swaps_for`), a respelling the engine or the
    analysis finds fault with, or one that shows the same cards."""
    if not isinstance(step, RESPELT_KINDS) or swap not in swaps_for(step.rules):
        return None
    changes = {f.name: _value(getattr(step, f.name), swap) for f in fields(step)
               if f.init and f.name not in _KEPT}
    new: Step[Any] | None = replace(step, **changes)
    if isinstance(step, ChoiceStep) and isinstance(new, ChoiceStep):
        new = _decided(step, new, swap)
    elif new is not None:
        new = replace(new, wrong=_value(step.wrong, swap))
    if new is None:
        return None
    if new.problems() or new.situation().key == step.situation().key:
        return None  # the swap touched no card shown (a red trick, the black suits swapped)
    return new


def _decided(step: ChoiceStep[Any], new: ChoiceStep[Any], swap: Swap
             ) -> ChoiceStep[Any] | None:
    """``new`` (``step`` respelt) with its answers worked out on its own cards, and the
    author's notes on the answers moved to the answers they now are; None when they cannot
    be (see the module)."""
    try:
        if not step.has_analysis:
            # the rules leave one answer: the one the engine allows on the new cards
            legal = new.legal_answers()
            if len(legal) != 1 or tuple(step.accept) != tuple(step.legal_answers()):
                return None
            accept: tuple[Any, ...] = tuple(legal)
        else:
            accept = tuple(_value(a, swap) for a in step.accept)
    except (ValueError, KeyError):
        return None
    old_keys = {step.key(o.value): new.key(_value(o.value, swap)) for o in step.choices()}

    def moved(notes: dict[str, str]) -> dict[str, str]:
        return {old_keys.get(k, _text(k, swap)): _text(v, swap) for k, v in notes.items()}
    new = replace(new, accept=accept, wrong=moved(step.wrong), reasons=moved(step.reasons),
                  disagree="")
    if not step.has_analysis or not new.analysis_problems():
        return new  # the rules, or the analysis of the new deal, bear the answers out
    if not step.disagree:
        return None
    # The author departs from the analysis, for a reason: taken only where the analysis
    # reads the new deal as it read the old one (its best answer is the old best respelt),
    # so the reason holds for the new cards too.
    new = replace(new, disagree=_text(step.disagree, swap))
    old_best, new_best = step.valued(), new.valued()
    if (not old_best or not new_best or new.analysis_problems()
            or new_best[0].answer != _value(old_best[0].answer, swap)):
        return None
    return new
