"""A hand at the table in words for the ear: what a seat did, the hand read by suit, and the
choices a seat has, each said so that a screen reader (or a person reading it aloud) needs no
picture of the cards.

Cards are said as "the jack of diamonds, the left bower"; the choices are said in words the
table's typed command reads back (``engine.cards.spoken_cards`` and the calls' parsers): a
player can type what they heard.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.cards import Card, Suit
from ..engine.ranking import effective_suit, sort_by_rank
from ..engine.seats import Seat
from ..engine.state import Action, HandState, Phase
from ..rulebook.feedback import Feedback
from .cards_html import label

__all__ = ["card_words", "deed_words", "action_words", "trick_words", "event_words",
           "hand_words", "choice_words", "choices_words", "order_words", "feedback_words",
           "hint_words", "lines_words", "regrade_words"]


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


def deed_words(who: str, phase: Phase, action: Action, *, trump: Trump | None = None,
               left_bower: bool = True, leads: bool = False, bidder: str | None = None,
               you: bool = False) -> str:
    """What a player did, as one clause without its full stop: "East leads the jack of
    diamonds, the left bower", "You bid 4". ``who`` is the name the table knows the player
    by, ``bidder`` the bidder's; ``you`` says it in the second person, to the player who did
    it, who alone sees the card put aside or passed in the exchange (the table hears only
    that one was)."""
    def verb(third: str, second: str) -> str:
        return second if you else third

    if phase is Phase.DISCARD:
        what = card_words(action) if you and isinstance(action, Card) else "a card"
        return f"{who} {verb('puts', 'put')} {what} aside, face down"
    if phase is Phase.SEND:
        what = card_words(action) if you and isinstance(action, Card) else "a card"
        to = "" if bidder is None else " to you" if bidder == "You" else f" to {bidder}"
        return f"{who} {verb('passes', 'pass')} {what}{to}, face down"
    if isinstance(action, Card):
        played = verb("leads", "lead") if leads else verb("plays", "play")
        return f"{who} {played} {card_words(action, trump, left_bower)}"
    if isinstance(action, Bid):
        return (f"{who} {verb('passes', 'pass')}" if action is Bid.PASS
                else f"{who} {verb('bids', 'bid')} {action.display}")
    if isinstance(action, Trump):
        named = "no trump" if action is Trump.NT else f"{action.word} trumps"
        return f"{who} {verb('names', 'name')} {named}"
    if isinstance(action, Mode):
        return (f"{who} will exchange and play alone" if action is Mode.EXCHANGE
                else f"{who} {verb('plays', 'play')} with partner")
    if isinstance(action, Defense):
        return (f"{who} {verb('surrenders', 'surrender')} for the defenders"
                if action is Defense.SURRENDER
                else f"{who} {verb('plays', 'play')} the hand out for the defenders")
    return f"{who}: {action}"


def action_words(state: HandState, seat: Seat, action: Action) -> str:
    """What ``seat`` did, said to the whole table (``state`` is the state before it)."""
    return deed_words(seat.word, state.phase, action, trump=state.trump,
                      left_bower=state.rules.left_bower, leads=not state.current_trick,
                      bidder=state.bidder.word if state.bidder is not None else None) + "."


def order_words(state: HandState, action: Action) -> str:
    """A decision as an order to oneself, to confirm before it counts: "Play the jack of
    diamonds, the left bower", "Bid 4", "Name hearts trumps", "Exchange and play alone",
    "Surrender for the defenders"."""
    said = deed_words("You", state.phase, action, trump=state.trump,
                      left_bower=state.rules.left_bower, you=True)
    said = said.removeprefix("You ").removeprefix("will ").removesuffix(", face down")
    return said[:1].upper() + said[1:]


def trick_words(winner: str, number: int, won: Mapping[str, int]) -> str:
    """The end of a trick, to follow the card that finished it: "; East wins trick 3.
    Tricks: NS 1, EW 2." (``winner`` "You": "you win"); ``won`` is the count after it."""
    wins = "you win" if winner == "You" else f"{winner} wins"
    count = ", ".join(f"{side} {n}" for side, n in won.items())
    return f"; {wins} trick {number}. Tricks: {count}."


def event_words(before: HandState, seat: Seat, action: Action, after: HandState) -> str:
    """The whole event: the action, then who won the trick it finished, and the trick count
    (``before`` and ``after`` are the state either side of it)."""
    words = action_words(before, seat, action)
    if len(after.tricks) > len(before.tricks):
        words = words.removesuffix(".") + trick_words(after.tricks[-1].winner.word,
                                                      len(after.tricks), after.tricks_won())
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


# ---- a lesson's, a drill's and a puzzle's feedback, said -----------------------------------

def _sentence(text: str) -> str:
    text = " ".join(text.split())
    return text if not text or text[-1] in ".!?:;" else text + "."


def lines_words(lines: Iterable[str]) -> str:
    """Lines a panel shows, said one after the other, each a sentence."""
    return " ".join(s for s in (_sentence(x) for x in lines) if s)


def feedback_words(fb: Feedback) -> str:
    """A verdict as the panel shows it first (the headline, what is wrong, the answer where
    it is given, why), without what waits behind "more" or a rule's toggle: the live region
    says it once, when the answer is judged."""
    return lines_words(text for part, text in fb.parts()
                       if part in ("headline", "verdict", "consequence", "answer", "why"))


def hint_words(level: int, total: int, text: str) -> str:
    return f"Hint {level} of {total}: {lines_words([text])}"


def regrade_words(first: str, first_deals: int, grade: str, deals: int, reason: str) -> str:
    """The coach's grade, changed by more deals than the grade said first rested on, in the
    coach box's words: said once (a grade that stays as it was is not said again)."""
    said = (f"Coach, revised: over {first_deals} deals this was graded {first}; over {deals} "
            f"deals it is {grade}.")
    return said + (f" {_sentence(reason)}" if reason else "")
