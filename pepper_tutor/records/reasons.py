"""Why a card cost tricks, in a club player's words, for the annotator's grades.

The annotator grades every card of a finished hand against perfect play (all hands seen)
and says *how much* it cost; :func:`card_reason` says *why*, from the facts of the trick a
player at the table would name: "West trumped partner East's winning K♠", "the trick was
already lost to North's A♠, so the K♠ was thrown away". It speaks of the seats by name (a
record is read by the whole table), or to "you"; ``None`` when no plain fact explains the
difference, and the caller then says it with numbers alone. No paths such as ``tricks.3.2``
and no side codes such as ``E+W``.

The coach at the practice table, which judges a decision from what the player could see,
uses :func:`pepper_tutor.analysis.reasons.why` (second person) for the same purpose.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.calls import Trump
from ..engine.cards import Card, Rank
from ..engine.ranking import bower, is_trump, trick_rank, trick_winner
from ..engine.seats import Seat
from ..engine.state import HandState

__all__ = ["side_words", "card_reason", "tricks_words"]


def side_words(seats: Sequence[Seat]) -> str:
    """``North and South``, ``South``: a side as people name it."""
    names = [s.word for s in seats]
    return " and ".join(names) if len(names) <= 2 else ", ".join(names[:-1]) + " and " + names[-1]


def tricks_words(n: float) -> str:
    """``1 trick``, ``2.4 tricks``."""
    if float(n).is_integer():
        return f"{int(n)} trick{'s' if int(n) != 1 else ''}"
    return f"{n:.1f} tricks"


def _power(card: Card, trump: Trump, left_bower: bool) -> int:
    """How strong a card is to keep for later: trumps above every plain card."""
    return trick_rank(card, trump, left_bower) + (10 if is_trump(card, trump, left_bower) else 0)


def card_reason(state: HandState, card: Card, better: Card, you: bool = True) -> str | None:
    """Why ``better`` was the card to play instead of ``card``, for the seat to play in
    ``state`` (before either is played); ``None`` when no plain fact says it."""
    seat, trump = state.to_act, state.trump
    lb = state.rules.left_bower
    if seat is None or trump is None or card == better:
        return None
    me = "you" if you else seat.word
    trick = state.current_trick
    if not trick:
        return _lead_reason(state, card, better, me)
    cards = [c for _, c in trick]
    win_at = trick_winner(cards, trump, lb)
    win_seat, win_card = trick[win_at]

    def wins(c: Card) -> bool:
        return trick_winner([*cards, c], trump, lb) == len(cards)

    partner = seat.partner if state.rules.partnerships and state.players == 4 else None
    partners = "your partner's" if you else f"partner {partner.word}'s" if partner else ""
    led_trump = is_trump(cards[0], trump, lb)
    if win_seat == partner and wins(card) and not wins(better):
        verb = "trumped" if is_trump(card, trump, lb) and not led_trump else "overtook"
        keep = "the trump" if is_trump(card, trump, lb) else f"the {card.display}"
        return (f"{me.capitalize()} {verb} {partners} winning {win_card.display}: the "
                f"{better.display} lets the trick stand and keeps {keep} for later.")
    if win_seat != partner and wins(better) and not wins(card):
        return (f"The {better.display} takes the trick from {win_seat.word}'s "
                f"{win_card.display}; the {card.display} lets it go.")
    if not wins(card) and not wins(better) and _power(card, trump, lb) > _power(better, trump, lb):
        if win_seat == partner:
            return (f"{partners[:1].upper()}{partners[1:]} {win_card.display} was already "
                    f"winning, so the {card.display} was not needed; the {better.display} "
                    f"would have kept the {card.display} for later.")
        return (f"The trick was already lost to {win_seat.word}'s {win_card.display}, so the "
                f"{card.display} was thrown away; the {better.display} would have kept the "
                f"{card.display} for later.")
    if wins(card) and wins(better) and _power(better, trump, lb) < _power(card, trump, lb):
        return (f"The {better.display} wins the trick just as well and keeps the "
                f"{card.display} for later.")
    if is_trump(card, trump, lb) and not led_trump and not is_trump(better, trump, lb):
        which = {"left": " (the left bower)", "right": " (the right bower)"}.get(
            bower(card, trump, lb) or "", "")
        return (f"{me.capitalize()} trumped the {cards[0].display} with the {card.display}"
                f"{which}; the {better.display} would have kept the trump for later.")
    still_to_play = len(cards) + 1 < len(state.active_seats)
    if wins(better) and wins(card) and _power(better, trump, lb) > _power(card, trump, lb) and \
            still_to_play:
        return (f"The {better.display} wins this trick for sure; the {card.display} can be "
                "beaten by a card still to come.")
    return None


def _lead_reason(state: HandState, card: Card, better: Card, me: str) -> str | None:
    trump = state.trump
    assert trump is not None
    lb = state.rules.left_bower
    if trump is not Trump.NT and is_trump(better, trump, lb) and not is_trump(card, trump, lb):
        return (f"Leading trumps with the {better.display} draws the other side's trumps "
                f"before they can ruff; {me} led the {card.display}, a plain card, instead.")
    if not is_trump(better, trump, lb) and better.rank is Rank.ACE and card.rank is not Rank.ACE:
        return (f"The {better.display} is a sure winner to cash now; the {card.display} "
                "can be beaten.")
    return None
