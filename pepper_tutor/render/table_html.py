"""The practice table's four seats around the trick, as HTML: the one drawing the notebook
table and the browser page both show (their stylesheets place the seats)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from ..engine.state import Phase
from .cards_html import card_svg
from .plain import strip_controls

if TYPE_CHECKING:  # the table core loads the analysis: a page that draws no table skips it
    from ..teaching.practice.table import PracticeTable, SeatView

__all__ = ["seat_html", "seats_html"]


def _e(text: object) -> str:
    return html.escape(strip_controls(text), quote=True)


def seat_html(table: PracticeTable, v: SeatView) -> str:
    """One seat: its name and role, the card it played to this trick, and its tags."""
    s = table.state
    if v.card is not None:
        face = card_svg(v.card, s.trump, winner=v.won, width=44, left_bower=s.rules.left_bower)
    else:
        face = '<span class="pepper-nocard" aria-hidden="true"></span>'
    tags = [w for w, on in (("dealer", v.dealer), ("bidder", v.bidder),
                            ("sits out", v.out), ("won the trick", v.won)) if on]
    if v.to_act:
        tags.append("your turn" if v.role == "you" else "to play")
    role = {"opponent": " · opponent"}.get(v.role, "")
    classes = (f"pepper-seat pepper-seat-{v.seat} pepper-role-{v.role}"
               + (" pepper-to-act" if v.to_act else ""))
    return (f'<div class="{classes}"><div class="pepper-seat-name">{_e(v.name + role)}'
            f'</div><div>{face}</div><div class="pepper-seat-tags">'
            f'{_e(", ".join(tags)) or "&nbsp;"}</div></div>')


def seats_html(table: PracticeTable) -> str:
    """The four seats around the trick: N at the top, S at the bottom, W left, E right."""
    s = table.state
    if s.phase is Phase.PLAY and s.current_trick:
        middle = f"Trick {len(s.tricks) + 1}"
    elif s.tricks:
        middle = f"Trick {s.tricks[-1].number}"
    else:
        middle = "The table"
    return ('<div class="pepper-seats">'
            + "".join(seat_html(table, v) for v in table.seats_view())
            + f'<div class="pepper-trick-label">{_e(middle)}</div></div>')
