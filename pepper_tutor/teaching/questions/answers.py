"""One reader for what learners type, shared by every step and every front end.

Learners type the way they speak: ``jack of hearts``, ``J♥``, ``jh``; ``any`` when any card is
right; a choice as the step shows it (``play with partner``, ``♥ hearts``); a score with or
without side labels (``NS 3 EW -4``, ``EW: -4, NS: +3``, ``bidders -4 defenders 3``) or as bare
numbers in the order the question shows and says. Case, spacing and punctuation never matter.
The readers here turn such text into values; the steps decide what is right.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from contextlib import suppress
from typing import Any

from ...engine.calls import Bid, Defense, Mode, Trump
from ...engine.cards import (
    Card,
    NotationError,
    Rank,
    Suit,
    cards_display,
    parse_cards,
    spoken_cards,
)
from ...rulebook.feedback import AnswerError

__all__ = ["norm", "read_cards", "read_choice", "read_score", "read_call", "read_action",
           "wants_any", "card_example",
           "check_length", "example_points", "ANY_WORDS", "MAX_ANSWER"]

#: The longest answer read, in characters: the longest sensible answer (six cards spelled
#: out, a score with both sides named) is under 150. Past it an answer is refused at once,
#: whatever was pasted, so no reader ever works through pages of text.
MAX_ANSWER = 300


def check_length(raw: Any) -> None:
    """Refuse typed text longer than :data:`MAX_ANSWER` with a clear :class:`AnswerError`."""
    if isinstance(raw, str) and len(raw) > MAX_ANSWER:
        raise AnswerError(f"that answer is {len(raw):,} characters long; an answer is at "
                          f"most {MAX_ANSWER} (a card, a choice or a score, such as NS 3 EW -4)")
    if isinstance(raw, (list, tuple)) and len(raw) > MAX_ANSWER:
        raise AnswerError(f"that answer holds {len(raw):,} items; an answer has at most "
                          f"{MAX_ANSWER}")

ANY_WORDS = ("any", "any card", "any of them", "all", "all of them", "all cards", "every card",
             "anything", "any one")

_SYMBOLS = "♣♦♥♠♧♢♡♤"


def norm(text: object) -> str:
    """Lower case, one space between words, no surrounding punctuation, Unicode NFKC (so
    full-width letters and the text-style suit symbols read as the plain ones)."""
    s = unicodedata.normalize("NFKC", str(text)).replace("\ufe0f", "").replace("\ufe0e", "")
    s = s.lower().replace("_", " ").replace("-", " ")
    s = " ".join(s.split())
    return s.strip(" .!?;,'\"`")


def wants_any(raw: object) -> bool:
    return isinstance(raw, str) and norm(raw) in ANY_WORDS


# What people put around a card they name: "I'd play the nine", "my K♠ please".
_FILLER = re.compile(r"\b(?:i'?d|i'?ll|i|will|would|play|lead|send|discard|throw|my|"
                     r"card|please|it'?s|is)\b", re.IGNORECASE)
_BOWER = re.compile(r"\b(right|left)\s*bower\b", re.IGNORECASE)
_RANK_ONLY = {"nine": Rank.NINE, "9": Rank.NINE, "ten": Rank.TEN, "10": Rank.TEN,
              "t": Rank.TEN, "jack": Rank.JACK, "j": Rank.JACK, "queen": Rank.QUEEN,
              "q": Rank.QUEEN, "king": Rank.KING, "k": Rank.KING, "ace": Rank.ACE,
              "a": Rank.ACE}
_RANK_NAME = {Rank.NINE: "nine", Rank.TEN: "ten", Rank.JACK: "jack", Rank.QUEEN: "queen",
              Rank.KING: "king", Rank.ACE: "ace"}


def _bower_card(which: str, trump: Trump | None, left_bower: bool, named: bool) -> str:
    """The card a bower's name stands for under ``trump``, as notation."""
    if not named:
        raise AnswerError(f"name the card itself, such as J♦: which jack is the {which} "
                          "bower is part of this question")
    if trump is None:
        raise AnswerError(f"which jack is the {which} bower depends on trumps; name the card, "
                          "such as J♦")
    suit = trump.suit
    if suit is None:
        raise AnswerError("there are no bowers in no trump: every jack stays in its own suit "
                          "(rank.no-trump); name the card, such as J♦")
    if which == "left":
        if not left_bower:
            raise AnswerError("this table plays without a left bower (variant.left-bower); "
                              "name the card, such as J♦")
        suit = next(s for s in Suit if s is not suit and s.is_red == suit.is_red)
    return f" J{suit.letter} "


def _rank_card(word: str, among: Sequence[Card]) -> str:
    """A bare rank ("the nine", "9", "ace") as the one card of that rank in view."""
    rank = _RANK_ONLY[word.lower()]
    named = [c for c in among if c.rank is rank]
    if len(named) == 1:
        return f" {named[0]} "
    if not named:
        raise AnswerError(f"there is no {_RANK_NAME[rank]} among {cards_display(among)}; "
                          f"name the card, such as {among[0].display}")
    raise AnswerError(f"there are {len(named)} {_RANK_NAME[rank]}s, {cards_display(named)}: "
                      f"say which, such as {named[0].display}")


def read_cards(raw: Any, among: Sequence[Card] = (), trump: Trump | None = None,
               left_bower: bool = True, bower_names: bool = True) -> list[Card]:
    """Cards in any notation: ``JD j♦ 10h``, ``jack of diamonds, ten of hearts``, ``the
    nine``, ``the left bower``; a Card, a list of cards or texts. ``among`` are the cards
    the question shows (the hand, the trick): a bare rank names the one card of that rank
    among them. ``trump`` says which jacks the bowers are; ``bower_names=False`` refuses
    the names where telling the jacks apart is the question. Raises :class:`AnswerError` with
    an example when unreadable."""
    if isinstance(raw, Card):
        return [raw]
    check_length(raw)
    if isinstance(raw, (list, tuple)):
        out: list[Card] = []
        for item in raw:
            out += read_cards(item, among, trump, left_bower, bower_names)
        return out
    text = unicodedata.normalize("NFKC", str(raw)).replace("\ufe0f", "")
    text = _BOWER.sub(lambda m: _bower_card(m.group(1).lower(), trump, left_bower,
                                             bower_names), text)
    text = _FILLER.sub(" ", spoken_cards(text))
    words = text.replace("'", " ").strip(" .!?").split()
    if among:
        words = [_rank_card(w, among).strip() if w.lower() in _RANK_ONLY else w
                 for w in words]
    try:
        return parse_cards(" ".join(words))
    except NotationError as err:
        raise AnswerError(f"{err}; for example J♦ or JD, or jack of diamonds") from None


def card_example(avoid: Sequence[Card] = ()) -> str:
    """How to type a card, shown with a card that is not part of the question."""
    from ...engine.cards import DECK, Rank

    card = next(c for c in reversed(DECK) if c not in avoid and c.rank is not Rank.JACK)
    return f"{card.display} or {card}"


def _forms(label: str) -> set[str]:
    """The ways a shown choice may be typed back: as shown, without its symbols, the symbol
    alone, and the words after a symbol ("♥ hearts" -> "♥ hearts", "hearts", "♥")."""
    shown = norm(label)
    forms = {shown}
    bare = norm(shown.translate({ord(c): " " for c in _SYMBOLS}))
    if bare:
        forms.add(bare)
    symbols = [c for c in shown if c in _SYMBOLS]
    if len(symbols) == 1:
        forms.add(symbols[0])
    return forms


def read_choice(raw: Any, choices: Sequence[tuple[Any, str]]) -> Any | None:
    """The value of the choice ``raw`` names, given (value, label) pairs as shown to the learner;
    ``None`` when it names none of them. Values themselves are accepted as they are."""
    for value, _label in choices:
        if raw is value or (not isinstance(raw, str) and raw == value):
            return value
    if not isinstance(raw, str):
        return None
    check_length(raw)
    typed = norm(raw)
    if not typed:
        return None
    for value, label in choices:
        if typed in _forms(label) or typed == norm(value):
            return value
    return None


_SIDE_ALIASES = {"north south": "NS", "northsouth": "NS", "n s": "NS", "ns": "NS",
                 "east west": "EW", "eastwest": "EW", "e w": "EW", "ew": "EW", "we": "EW",
                 "sn": "NS"}
_NUMBER = re.compile(r"[+\-−]?\s*\d+")
# A number as it ends a pair: spaces before it belong to the separator, not the number.
_NUMBER_SPLIT = re.compile(r"([+\-−]\s*\d+|\d+)")
_NOT_IN_A_SIDE = re.compile(r"[\d+\-−:=,;]")


def _pairs(text: str) -> list[tuple[str, str]]:
    """(side words, number) pairs of a labelled score, in one pass over the text: each number
    with the words just before it (after the last sign, digit or separator, and without a
    ``:`` or ``=`` next to the number); a number with no words before it is not a pair.

    A regular expression with a lazy run before the number did the same in quadratic time
    (20,000 pasted characters: 13 s), trying every start position to the end of the text."""
    parts = _NUMBER_SPLIT.split(text)
    out = []
    for i in range(1, len(parts), 2):
        before = parts[i - 1]
        trail = _trail_start(before)
        head = before[:trail]
        cut = max((m.end() for m in _NOT_IN_A_SIDE.finditer(head)), default=0)
        word = head[cut:]
        if not word:
            # As the lazy run did: one character of the separator's spaces is the word.
            word = next((c for c in before[trail:] if c not in ":="), "")
        number = parts[i]
        if not word and number[0] in "+-−" and number[1].isspace():
            # A sign with nothing before it: the lazy run took the first space after the
            # sign as the word and the digits as the number.
            word, number = number[1], number[1:].lstrip()
        if word:
            out.append((word, number))
    return out


def _trail_start(before: str) -> int:
    """Where the spaces, ``:`` or ``=`` just before a number begin (read from the right)."""
    end = len(before)
    while end and before[end - 1].isspace():
        end -= 1
    if end and before[end - 1] in ":=":
        end -= 1
        while end and before[end - 1].isspace():
            end -= 1
    return end


def _side(word: str, sides: Sequence[str], roles: Mapping[str, str]) -> str | None:
    w = norm(word.replace("/", " ").replace("&", " ").replace("+", " "))
    w = re.sub(r"\b(side|team|pair|get|gets|got|score|scores|points?|pts)\b", " ", w)
    w = " ".join(w.split())
    for side in sides:
        if w == side.lower():
            return side
    alias = _SIDE_ALIASES.get(w) or _SIDE_ALIASES.get(w.replace(" ", ""))
    if alias in sides:
        return alias
    for role, side in roles.items():
        if w in (role, role.rstrip("s"), f"the {role}"):
            return side
    return None


def _int(text: str) -> int:
    return int(text.replace("−", "-").replace(" ", ""))


def example_points(order: Sequence[str], avoid: Mapping[str, int] | None = None
                   ) -> tuple[int, int]:
    """Made-up points for an example, the first side's then each other's, none of them a
    number of ``avoid`` (the question's answer: an example must not be any of it)."""
    taken = set((avoid or {}).values())  # "-4" names half of an answer "NS 4 EW -4"
    return next((a, b) for a, b in ((-4, 3), (2, 1), (-3, 4), (5, -1), (-6, 2), (1, -5))
                if a not in taken and b not in taken)


def read_score(raw: Any, sides: Sequence[str], order: Sequence[str],
               roles: Mapping[str, str] | None = None,
               avoid: Mapping[str, int] | None = None) -> dict[str, int]:
    """Points for each side. Labelled (``NS 3 EW -4``, ``EW -4, NS 3``, ``ns:3 ew:-4``,
    ``bidders -4 defenders 3``) in any order; bare numbers (``-4 3``) in ``order``, the order
    the question shows and says. ``roles`` maps words such as "bidders" to a side; the
    examples in a message never give a side the points of ``avoid``."""
    roles = roles or {}
    check_length(raw)
    first, rest = example_points(order, avoid)
    values = (first, *(rest for _ in order[1:]))
    example = " ".join(f"{s} {v}" for s, v in zip(order, values, strict=True))
    bare_example = " ".join(str(v) for v in values)
    need = (f"give the points for each side, such as {example}, or {bare_example} "
            f"({' then '.join(order)}); minus for a loss")
    if isinstance(raw, Mapping):
        try:
            got = {}
            for k, v in raw.items():
                side = _side(str(k), sides, roles)
                if side is None:
                    raise AnswerError(f"{' '.join(str(k).split())!r} is not a side here "
                                      f"(the sides are {' and '.join(sides)}); {need}")
                if isinstance(v, bool) or not isinstance(v, (int, str)):
                    raise TypeError("a yes/no or a fraction is no number of points")
                got[side] = int(v)
        except (TypeError, ValueError):
            raise AnswerError(f"give a whole number of points for each side; {need}") from None
    else:
        text = unicodedata.normalize("NFKC", str(raw)).strip()
        # Side names with a hyphen or slash in them, before "-" is read as a minus sign.
        text = re.sub(r"north\W{0,3}south", " NS ", text, flags=re.IGNORECASE)
        text = re.sub(r"east\W{0,3}west", " EW ", text, flags=re.IGNORECASE)
        text = re.sub(r"\b([NE])\s*[/&+-]\s*([SW])\b", r" \1\2 ", text, flags=re.IGNORECASE)
        if not text:
            raise AnswerError(need)
        numbers = _NUMBER.findall(text)
        letters = re.sub(r"[\d+\-−:=,;.\s]", "", text)
        if not letters:
            if len(numbers) != len(order):
                raise AnswerError(need)
            got = {s: _int(v) for s, v in zip(order, numbers, strict=True)}
        else:
            got = {}
            for word, value in _pairs(text):
                side = _side(word, sides, roles)
                if side is None:
                    said = " ".join(word.split())
                    raise AnswerError(f"{said!r} is not a side here (the sides are "
                                      f"{' and '.join(sides)}); {need}")
                if side in got:
                    raise AnswerError(f"{side} is given twice; {need}")
                got[side] = _int(value)
            if not got:
                raise AnswerError(need)
    if set(got) != set(sides):
        missing = [s for s in sides if s not in got]
        raise AnswerError(f"give points for {', '.join(missing)} too; {need}")
    return got


# Who is speaking, and politeness, around a call: "we play", "I'll pass", "let's surrender".
_SPEAKER = re.compile(r"^(?:i|we|i'?ll|we'?ll|i'?d|we'?d|i will|we will|let'?s|lets|"
                      r"i want to|we want to|i choose|we choose)\s+", re.IGNORECASE)
_DEFENSE_WORDS = {"play": Defense.PLAY, "play it": Defense.PLAY, "play it out": Defense.PLAY,
                  "play on": Defense.PLAY, "play the hand": Defense.PLAY, "defend": Defense.PLAY,
                  "surrender": Defense.SURRENDER, "give up": Defense.SURRENDER,
                  "concede": Defense.SURRENDER, "fold": Defense.SURRENDER}
_MODE_WORDS = {"play with partner": Mode.PARTNER, "with partner": Mode.PARTNER,
               "with my partner": Mode.PARTNER, "partner": Mode.PARTNER,
               "exchange and play alone": Mode.EXCHANGE, "play alone": Mode.EXCHANGE,
               "go alone": Mode.EXCHANGE, "alone": Mode.EXCHANGE, "exchange": Mode.EXCHANGE}


def read_call(raw: Any, kind: str) -> Bid | Trump | Mode | Defense:
    """A call as people say it, of one ``kind``: ``bid`` ("pass", "bid 4", "little
    pepper", "I pass"), ``trump`` ("hearts", "♥", "no trump", "hearts are trumps"), ``mode``
    ("play with partner", "exchange", "play alone") or ``defense`` ("we play",
    "surrender"). Raises :class:`AnswerError` saying what it expects."""
    if isinstance(raw, Bid | Trump | Mode | Defense):
        return raw
    check_length(raw)
    text = _SPEAKER.sub("", norm(raw))
    try:
        if kind == "bid":
            return Bid.parse(text)
        if kind == "trump":
            with suppress(NotationError):
                return Trump.parse(text)
            return Trump.parse(re.sub(r"\s*(?:are|is)?\s*trumps?$", "", text) or text)
        words = _MODE_WORDS if kind == "mode" else _DEFENSE_WORDS if kind == "defense" else None
        if words is None:
            raise ValueError(f"no call of kind {kind!r}")
        if text in words:
            return words[text]
        return Mode.parse(text) if kind == "mode" else Defense.parse(text)
    except NotationError as err:
        raise AnswerError(str(err)) from None


_CALL_KIND = {"auction": "bid", "declare-trump": "trump", "declare-mode": "mode",
              "defense": "defense"}


def read_action(raw: Any, phase: str, hand: Sequence[Card] = (), trump: Trump | None = None,
                left_bower: bool = True) -> Card | Bid | Trump | Mode | Defense:
    """What a player says at the table in a hand's ``phase`` (its value: "auction",
    "play", ...): a call (:func:`read_call`) or one card of ``hand`` in any spelling
    (:func:`read_cards`: "ace of clubs", "the nine", "the left bower"). The one reader of
    the practice table, puzzles and game night's puzzle round, as steps read a lesson's."""
    if phase in _CALL_KIND:
        return read_call(raw, _CALL_KIND[phase])
    if isinstance(raw, str):
        raw = _SPEAKER.sub("", raw.strip())
    cards = read_cards(raw, hand, trump, left_bower)
    if len(cards) != 1:
        raise AnswerError(f"name one card, such as {card_example(())}")
    return cards[0]
