"""A hand in progress as HTML for notebooks: each seat's cards, the auction, the trick."""

from __future__ import annotations

from ..engine.state import HandState
from .cards_html import cards_html, trick_html
from .plain import html_text

__all__ = ["hand_state_html"]


def hand_state_html(state: HandState) -> str:
    trump = state.trump
    left = state.rules.left_bower
    rows = []
    for seat in state.seats:
        out = " (sits out)" if seat is state.sitting_out else ""
        rows.append(f"<tr><th style='text-align:left;padding-right:8px'>{seat.word}{out}</th>"
                    f"<td>{cards_html(state.hand(seat), trump, left_bower=left)}</td></tr>")
    calls = ", ".join(f"{s} {b.display}" for s, b in state.calls) or "none yet"
    head = (f"<p><b>{html_text(state.rules.name)}</b> · dealer {state.dealer.word} · "
            f"{html_text(str(state.phase))}"
            + (f" · trumps: {html_text(trump.word)}" if trump is not None else "")
            + (f" · {state.to_act.word} to act" if state.to_act is not None else "")
            + f"</p><p>Auction: {html_text(calls)}</p>")
    trick = state.current_trick
    shown = ""
    if trick:
        shown = "<p>Current trick:</p>" + trick_html([c for _, c in trick], trump,
                                                     [s for s, _ in trick], left_bower=left)
    elif state.tricks:
        last = state.tricks[-1]
        shown = (f"<p>Trick {last.number}, won by {last.winner.word}:</p>"
                 + trick_html(last.cards, trump, last.seats, last.winning_index,
                              left_bower=left))
    score = ""
    if state.score is not None:
        score = "<p>Score: " + html_text(", ".join(
            f"{s} {p:+d}" for s, p in state.score.points.items())) + "</p>"
    return f'<div class="pepper-state">{head}<table>{"".join(rows)}</table>{shown}{score}</div>'
