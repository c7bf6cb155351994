"""A hand at the table in words for the ear: what a seat did, the hand read by suit, and the
choices a seat has, each said so that a screen reader (or a person reading it aloud) needs no
picture of the cards.

Cards are said as "the jack of diamonds, the left bower"; the choices are said in words the
table's typed command reads back (``engine.cards.spoken_cards`` and the calls' parsers): a
player can type what they heard.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.cards import Card, Suit
from ..engine.ranking import effective_suit, sort_by_rank
from ..engine.seats import Seat
from ..engine.state import Action, HandState, Phase
from .cards_html import label

__all__ = ["card_words", "action_words", "event_words", "hand_words", "choice_words",
           "choices_words"]


def card_words(card: Card, trump: Trump | None = None, left_bower: bool = True) -> str:
    """"the jack of diamonds, the left bower"; "the ace of hearts, a trump"."""
    name, _, role = label(card, trump, left_bower).partition(", ")
    if not role:
        return f"the {name}"
    return f"the {name}, {'a trump' if role == 'trump' else 'the ' + role}"


def choice_words(action: Action) -> str:
    """A choice as a player types it: "pass", "4", "little pepper", "hearts", "no trump",
    "exchange", "partner", "play", "surrender", "jack of diamonds"."""
    if isinstance(action, Card):
        return f"{action.rank.word} of {action.suit.plural}"
    if isinstance(action, Bid):
        return action.display
    if isinstance(action, Trump):
        return action.word
    return str(action)


def choices_words(actions: Iterable[Action]) -> str:
    return ", ".join(choice_words(a) for a in actions)


def action_words(state: HandState, seat: Seat, action: Action) -> str:
    """What ``seat`` did, said to the whole table (``state`` is the state before it): a card
    put aside or passed in the exchange is face down, so only that it was is said."""
    who = seat.word
    if state.phase is Phase.DISCARD:
        return f"{who} puts a card aside, face down."
    if state.phase is Phase.SEND and state.bidder is not None:
        return f"{who} passes a card to {state.bidder.word}, face down."
    if isinstance(action, Card):
        words = card_words(action, state.trump, state.rules.left_bower)
        return f"{who} {'leads' if not state.current_trick else 'plays'} {words}."
    if isinstance(action, Bid):
        return f"{who} passes." if action is Bid.PASS else f"{who} bids {action.display}."
    if isinstance(action, Trump):
        return (f"{who} names no trump." if action is Trump.NT
                else f"{who} names {action.word} trumps.")
    if isinstance(action, Mode):
        return (f"{who} will exchange and play alone." if action is Mode.EXCHANGE
                else f"{who} plays with partner.")
    if isinstance(action, Defense):
        return (f"{who} and partner surrender." if action is Defense.SURRENDER
                else f"{who} and partner play the hand out.")
    return f"{who}: {action}."


def event_words(before: HandState, seat: Seat, action: Action, after: HandState) -> str:
    """The whole event: the action, then who won the trick it finished, and the trick count
    (``before`` and ``after`` are the state either side of it)."""
    words = action_words(before, seat, action)
    if len(after.tricks) > len(before.tricks):
        trick = after.tricks[-1]
        won = after.tricks_won()
        count = ", ".join(f"{side} {n}" for side, n in won.items())
        words += f" {trick.winner.word} wins the trick. Tricks: {count}."
    return words


def hand_words(cards: Sequence[Card], trump: Trump | None = None,
               left_bower: bool = True) -> str:
    """A hand read by suit, trumps first, highest first: "Trumps, hearts: the jack of hearts,
    the right bower; the jack of diamonds, the left bower. Spades: the ace, the 9. Clubs:
    none. Diamonds: none." Each suit is said, even an empty one (a void counts)."""
    if not cards:
        return "You hold no cards."
    if trump is None:
        trump = Trump.NT  # before trumps are named: suits in their printed order
    ordered = sort_by_rank(cards, trump, left_bower)
    by_suit: dict[Suit, list[Card]] = {}
    for card in ordered:
        by_suit.setdefault(effective_suit(card, trump, left_bower), []).append(card)
    suits = list(Suit)
    if trump.suit is not None:
        suits.remove(trump.suit)
        suits.insert(0, trump.suit)
    parts = []
    for suit in suits:
        held = by_suit.get(suit, [])
        title = (f"Trumps, {suit.plural}" if trump.suit is suit else suit.plural.capitalize())
        if not held:
            parts.append(f"{title}: none.")
            continue
        said = [_in_suit(card, suit, trump, left_bower) for card in held]
        parts.append(f"{title}: {'; '.join(said)}.")
    n = len(cards)
    return f"You hold {n} card{'' if n == 1 else 's'}. " + " ".join(parts)


def _in_suit(card: Card, suit: Suit, trump: Trump, left_bower: bool) -> str:
    words = card_words(card, trump, left_bower)
    if card.suit is suit and ", the " not in words:
        return f"the {card.rank.word}"  # the suit is in the heading: "Spades: the ace"
    return words
