"""The practice table said aloud: the sentences a page's live region reads to a player who
cannot see the cards (the Play and learn page's game layer).

Every event is one sentence with the cards in words and their part this hand ("East plays
the jack of diamonds, the left bower; East wins trick 3."), the hand read suit by suit, and
the choices in front of the player. The page's JavaScript only puts these texts in its live
region: the words, and the rules behind them, are the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..engine.calls import Trump
from ..engine.cards import Card, Suit
from ..engine.ranking import bower, effective_suit, is_trump, sort_by_rank
from ..engine.state import Action, Phase
from ..rulebook.verdict import action_text

if TYPE_CHECKING:  # the table core loads the analysis: only a page at the table needs it
    from ..teaching.practice.table import Decision, PracticeTable

__all__ = ["card_words", "event_sentence", "hand_by_suit", "turn_sentence", "choice_words",
           "table_sentence"]


def card_words(card: Card, trump: Trump | None = None, left_bower: bool = True) -> str:
    """``"the jack of diamonds, the left bower"``, ``"the ace of hearts, a trump"``, or
    ``"the nine of clubs"`` before trumps are named."""
    text = f"the {card.rank.word} of {card.suit.plural}"
    if trump is None or trump is Trump.NT:
        return text
    role = bower(card, trump, left_bower)
    if role:
        return f"{text}, the {role} bower"
    return f"{text}, a trump" if is_trump(card, trump, left_bower) else text


def _who(table: PracticeTable, decision: Decision) -> str:
    return table.player_name(decision.seat)


def event_sentence(table: PracticeTable, decision: Decision) -> str:
    """One decision of the hand as a sentence; the last card of a trick says who won it."""
    s = table.state
    who = _who(table, decision)
    you = decision.learner
    if decision.phase is Phase.PLAY and isinstance(decision.action, Card):
        n, place = decision.where
        verb = ("lead" if you else "leads") if place == 1 else ("play" if you else "plays")
        text = f"{who} {verb} {card_words(decision.action, s.trump, s.rules.left_bower)}"
        if place == len(s.active_seats) and n <= len(s.tricks):
            trick = s.tricks[n - 1]
            winner = table.player_name(trick.winner)
            won = "you win" if winner == "You" else f"{winner} wins"
            text += f"; {won} trick {n}"
        return text + "."
    if you:
        return f"You {_learner_words(decision)}."
    return f"{who} {decision.words}."


def _learner_words(decision: Decision) -> str:
    """The learner's own action, in the second person (the table hears the third)."""
    words = decision.words
    first, _, rest = words.partition(" ")
    second = {"bids": "bid", "passes": "pass", "names": "name", "plays": "play",
              "discards": "discard", "hands": "hand", "decides": "decide",
              "surrenders": "surrender", "exchanges": "exchange"}.get(first, first)
    if decision.phase in (Phase.DISCARD, Phase.SEND) and isinstance(decision.action, Card):
        what = action_text(decision.action)
        verb = "lay aside" if decision.phase is Phase.DISCARD else "hand your partner"
        return f"{verb} the {what}, face down"
    return f"{second} {rest}".strip()


def choice_words(action: Action, trump: Trump | None, left_bower: bool = True) -> str:
    """A legal choice as the player says it: a card in words, a call or a trump by name."""
    if isinstance(action, Card):
        return card_words(action, trump, left_bower)
    return action_text(action)


def turn_sentence(table: PracticeTable) -> str:
    """What the learner is asked now and what they may choose; nothing when it is not
    their turn."""
    from ..teaching.practice.table import phase_prompt

    s = table.state
    if table.hand_over or not table.learner_to_act:
        return ""
    legal = list(s.legal_actions())
    if all(isinstance(a, Card) for a in legal):
        trump = s.trump if s.trump is not None else Trump.NT
        legal = list(sort_by_rank([a for a in legal if isinstance(a, Card)], trump,
                                  s.rules.left_bower))
    options = ", ".join(choice_words(a, s.trump, s.rules.left_bower) for a in legal)
    prompt = phase_prompt(s)
    return f"{prompt}{'' if prompt.endswith('?') else '.'} You may choose: {options}."


def hand_by_suit(table: PracticeTable) -> str:
    """The learner's hand read suit by suit, trumps first with the bowers in them."""
    s = table.state
    cards: Sequence[Card] = s.hand(table.seat)
    if not cards:
        return "Your hand is empty."
    trump = s.trump if s.trump is not None else Trump.NT
    left = s.rules.left_bower
    ordered = sort_by_rank(cards, trump, left)
    groups: dict[Suit, list[Card]] = {}
    for card in ordered:
        groups.setdefault(effective_suit(card, trump, left), []).append(card)
    trump_suit = trump.suit
    suits = sorted(groups, key=lambda suit: (suit != trump_suit, suit.plural))
    parts = []
    for suit in suits:
        names = ", ".join(_in_suit(c, trump, left, suit) for c in groups[suit])
        head = f"trumps, {suit.plural}" if suit == trump_suit else suit.plural
        parts.append(f"{head.capitalize()}: {names}")
    missing = [x.plural for x in Suit if x not in groups]
    none = (f" No {', '.join(missing[:-1])} or {missing[-1]}." if len(missing) > 1 else
            f" No {missing[0]}." if missing else "")
    count = len(cards)
    return (f"Your hand, {count} card{'s' if count != 1 else ''}. " + ". ".join(parts) + "."
            + none)


def _in_suit(card: Card, trump: Trump, left_bower: bool, suit: Suit) -> str:
    """A card named inside its suit's group: its rank, or the bower with its printed suit."""
    role = bower(card, trump, left_bower) if trump is not Trump.NT else None
    if role:
        return f"the {role} bower (the jack of {card.suit.plural})"
    return card.rank.word


def table_sentence(table: PracticeTable) -> str:
    """The table as it stands: the match score, the contract, the trick on the table (each
    card with its seat) and the tricks won."""
    s = table.state
    totals = ", ".join(f"{side}{' (your side)' if side == table.learner_side else ''} {points}"
                       for side, points in table.match.totals.items())
    parts = [f"Hand {table.hand_number}, match to {table.rules.target}: {totals}."]
    if s.phase is Phase.AUCTION:
        parts.append("The auction is on: " + (f"the high bid is {table.contract_text()}."
                                              if s.bidder is not None else "nobody has bid."))
    elif s.bidder is not None:
        parts.append(f"Contract: {table.contract_text()}.")
    if s.phase is Phase.PLAY:
        trick = s.current_trick
        number = len(s.tricks) + 1
        if trick:
            left = s.rules.left_bower
            cards = "; ".join(
                f"{table.player_name(seat)} {'led' if i == 0 else 'played'} "
                f"{card_words(card, s.trump, left)}" for i, (seat, card) in enumerate(trick))
            parts.append(f"Trick {number} so far: {cards}.")
        else:
            parts.append(f"Trick {number}: no card played yet.")
    if s.tricks or s.phase is Phase.PLAY:
        parts.append("Tricks won: " + ", ".join(f"{side} {n}"
                                                for side, n in s.tricks_won().items()) + ".")
    if not table.hand_over:
        parts.append("Your turn." if table.learner_to_act else "Not your turn.")
    return " ".join(parts)
