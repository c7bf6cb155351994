"""Keeping the answer out of a first miss.

After a first wrong answer a learner reads what is wrong with it and a nudge toward the rule;
the answer itself comes at the second miss or on request. A step says what its answer is made
of (:class:`AnswerForms`: cards, seats, words), and :func:`free_of` drops every sentence that
names any of it, in any notation a learner or a sentence could write it: ``J♦``, ``JD``,
``jack of diamonds``; ``S``, ``South``. Steps build their first-miss panel through it, so no
step kind can give its answer away by a sentence someone writes later.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ...engine.cards import Card, Rank, Suit
from ...engine.seats import Seat
from ...rulebook.feedback import sentences

__all__ = ["AnswerForms", "cards_named", "seats_named", "free_of", "answer_free_message"]

_RANK_WORDS = "|".join(r.word for r in Rank)
_SUIT_WORDS = "|".join(s.plural.rstrip("s") for s in Suit)
_CARD_TOKEN = re.compile(
    r"(?<![\w♣♦♥♠])(?:"
    rf"(?P<word>{_RANK_WORDS})\s+of\s+(?P<suitword>{_SUIT_WORDS})s?"
    r"|(?P<code>10|[9TJQKA])(?P<suit>[CDHS♣♦♥♠])"
    r")(?![\w♣♦♥♠])", re.IGNORECASE)
_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
_RANK_OF_WORD = {r.word: r for r in Rank}


def cards_named(text: str) -> list[Card]:
    """The cards ``text`` names, in the order it names them, in notation (``JD``, ``10♦``)
    or in words (``jack of diamonds``)."""
    out: list[Card] = []
    for m in _CARD_TOKEN.finditer(text):
        if m.group("word"):
            rank = _RANK_OF_WORD[m.group("word").lower()]
            suit = next(s for s in Suit if s.plural.startswith(m.group("suitword").lower()))
            out.append(Card.parse(f"{rank}{suit}"))
            continue
        code, suit_mark = m.group("code"), m.group("suit")
        if code.islower() or suit_mark.islower():
            continue  # "a" or "tc" in a sentence is a word, not a card
        out.append(Card.parse(code + _SYMBOLS.get(suit_mark, suit_mark)))
    return out


def seats_named(text: str) -> set[Seat]:
    """The seats ``text`` names: a seat's word (any case) or its capital letter alone."""
    named = {s for s in Seat if re.search(rf"\b{s.word}\b", text, re.IGNORECASE)}
    return named | {s for s in Seat if re.search(rf"(?<![\w-]){s.name}(?![\w-])", text)}


@dataclass(frozen=True)
class AnswerForms:
    """What a step's answer is made of, to keep out of a first miss.

    ``cards`` and ``seats`` are matched in every notation; ``words`` whole, in any case
    (a call, a trump, a side's points). ``relation``: the answer is an order of cards the
    question shows (a rank step), so a sentence naming two of them gives part of it away."""

    cards: frozenset[Card] = frozenset()
    seats: frozenset[Seat] = frozenset()
    words: tuple[str, ...] = ()
    relation: bool = False
    # what the answer is to the rules ("left bower"): kept out of the sentences, but a
    # rule's text may say it (the rule is the nudge; which card it is stays to find)
    roles: tuple[str, ...] = ()

    def named_in(self, text: str, roles: bool = True) -> bool:
        """True when ``text`` names the answer, or (for an order) part of it; with
        ``roles=False`` what the answer is to the rules does not count."""
        named = cards_named(text)
        if self.relation and len({c for c in named if c in self.cards}) >= 2:
            return True
        if not self.relation and self.cards & set(named):
            return True
        if self.seats & seats_named(text):
            return True
        return any(re.search(rf"(?<![\w+-]){re.escape(w)}(?!\w)", text, re.IGNORECASE)
                   for w in (*self.words, *(self.roles if roles else ())))


def free_of(forms: AnswerForms, texts: Iterable[str | None]) -> tuple[str, ...]:
    """The sentences of ``texts`` that do not name the answer, each text kept whole when
    none of its sentences does."""
    out: list[str] = []
    for text in texts:
        if not text:
            continue
        kept = [s for s in sentences(text) if not forms.named_in(s)]
        if kept:
            out.append(" ".join(kept))
    return tuple(out)


_EXAMPLE = re.compile(r"[,:]?\s*\b(?:such as|for example|for instance|e\.g\.)\s")


def answer_free_message(message: str, forms: AnswerForms) -> str:
    """A message about an unreadable answer without an example that names the answer: an
    example ("such as J♦", "or just -4 3") that does is left out. What the message lists
    of the question itself (its cards, every seat, every call) is not an example, and
    stays."""
    if not forms.named_in(message):
        return message
    kept = []
    for clause in re.split(r";\s*", message):
        cut = _EXAMPLE.search(clause)
        if cut is not None and forms.named_in(clause[cut.start():]):
            clause = clause[:cut.start()]
        if clause.strip():
            kept.append(clause.strip())
    return "; ".join(kept) or "that is not an answer this question can read"
