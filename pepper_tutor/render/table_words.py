"""The practice table said aloud: the sentences a page's live region reads to a player who
cannot see the cards (the Play and learn page's game layer).

The words for a card, a choice, a player's action and the hand by suit are
:mod:`.spoken`'s, the same at game night; what is here is the practice table's own: its
players' names ("You", "North (partner)"), the learner's question, and the table as it
stands. The page's JavaScript only puts these texts in its live region.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.calls import Trump
from ..engine.cards import Card
from ..engine.ranking import sort_by_rank
from ..engine.state import Phase
from .spoken import card_words, choices_words, deed_words, trick_words

if TYPE_CHECKING:  # the table core loads the analysis: only a page at the table needs it
    from ..teaching.practice.table import Decision, PracticeTable

__all__ = ["event_sentence", "turn_sentence", "table_sentence"]


def event_sentence(table: PracticeTable, decision: Decision) -> str:
    """One decision of the hand as a sentence; the last card of a trick says who won it and
    the tricks each side had then."""
    s = table.state
    n, place = decision.where
    bidder = table.player_name(s.bidder) if s.bidder is not None else None
    text = deed_words(table.player_name(decision.seat), decision.phase, decision.action,
                      trump=s.trump, left_bower=s.rules.left_bower, leads=place == 1,
                      bidder=bidder, you=decision.learner)
    if decision.phase is Phase.PLAY and place == len(s.active_seats) and n <= len(s.tricks):
        won = dict.fromkeys(s.rules.sides, 0)
        for trick in s.tricks[:n]:
            won[s.rules.side_of(trick.winner)] += 1
        return text + trick_words(table.player_name(s.tricks[n - 1].winner), n, won)
    return text + "."


def turn_sentence(table: PracticeTable) -> str:
    """What the learner is asked now and what they may choose, in the words they may type;
    nothing when it is not their turn."""
    from ..teaching.practice.table import phase_prompt

    s = table.state
    if table.hand_over or not table.learner_to_act:
        return ""
    legal = list(s.legal_actions())
    if all(isinstance(a, Card) for a in legal):
        trump = s.trump if s.trump is not None else Trump.NT
        legal = list(sort_by_rank([a for a in legal if isinstance(a, Card)], trump,
                                  s.rules.left_bower))
    prompt = phase_prompt(s)
    return (f"{prompt}{'' if prompt.endswith('?') else '.'} "
            f"You may choose: {choices_words(legal)}.")


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
