"""An answer as a class a guess could name, and the guess each kind of puzzle invites.

A bank whose answer a learner can guess from the kind of question alone teaches the guess,
not the game. :func:`class_of` names an answer's class (a card's by what the card is: the
highest legal card or another, for a discard the lowest or another; a trump by a suit or no
trump; the answer itself otherwise); :data:`GUESS` is, per kind, the class the players' slips
make the answer (the beginner takes partner, plays on, follows low), so the miner seeks out the
positions whose answer is another (:mod:`.miner`) and the bank's selection keeps every class to
its share (:mod:`.selection`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...engine.calls import Trump
from ...engine.cards import Card
from ...engine.ranking import EFFECTIVE_SUIT, TRICK_POWER, TRICK_RANK, trump_code
from ...engine.state import Action, HandState

__all__ = ["CARD_KINDS", "GUESS", "highest_of", "class_of", "guessed"]

CARD_KINDS = ("play", "discard", "send")

# The class a guess names for each kind, and what the slips of the mining players make the
# answer when only slips are mined: take the exchange, play on, play the highest card,
# discard the lowest, send the highest (a trump), and (the beginner names its long suit)
# no trump. A call has no such class (the answer is one bid of many).
GUESS = {"mode": "exchange", "defense": "play", "play": "the highest card",
         "discard": "the lowest card", "send": "the highest card", "trump": "no trump"}


def highest_of(state: HandState, lowest: bool = False) -> Card:
    """The legal card that bids highest for the trick (leading: a trump over a plain card,
    then by rank); ``lowest``: the one that bids lowest."""
    trump = state.trump
    code = trump_code(trump if trump is not None else Trump.NT, state.rules.left_bower)
    trick = state.current_trick
    led = EFFECTIVE_SUIT[code][trick[0][1].index] if trick else None
    cards = [a for a in state.legal_actions() if isinstance(a, Card)]

    def power(c: Card) -> tuple[int, int, int]:
        follows = TRICK_POWER[code][led][c.index] if led is not None else 0
        return follows, int(EFFECTIVE_SUIT[code][c.index] == code), TRICK_RANK[code][c.index]

    return (min if lowest else max)(cards, key=power)


def class_of(kind: str, state: HandState, answers: Sequence[Action | str]) -> str:
    """The answers at ``state`` as a class a guess could name: the lowest card or another
    for a discard, the highest card or another for the other cards' kinds, a suit or no
    trump for a trump, the answer itself otherwise (the first of several equal answers)."""
    said = [str(a) for a in answers]
    if kind == "discard":
        return "the lowest card" if str(highest_of(state, True)) in said else "another card"
    if kind in CARD_KINDS:
        return "the highest card" if str(highest_of(state)) in said else "another card"
    if kind == "trump":
        return "no trump" if str(Trump.NT) in said else "a suit"
    return said[0]


def guessed(kind: str, state: HandState, answers: Sequence[Action | str]) -> bool:
    """Whether the answers are the class the kind's guess names (always, for a call: no
    guess names a bid)."""
    guess = GUESS.get(kind)
    return guess is None or class_of(kind, state, answers) == guess
