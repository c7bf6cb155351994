"""Cards, hands and tricks as HTML with inline SVG, built with the standard library only.

Each card is a small SVG picture (red hearts and diamonds, a ring for the trick winner, a
tag for trumps) with a text copy inside (``<title>`` and ``aria-label``) for screen readers
and tests. Core objects call these lazily from their ``_repr_html_``/``_repr_svg_``, so a
notebook shows cards without importing any widget code.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from ..engine.calls import Trump
from ..engine.cards import Card
from ..engine.ranking import EFFECTIVE_SUIT, bower, trump_code
from ..engine.seats import Seat

__all__ = ["card_svg", "cards_html", "trick_html", "CARD_CSS", "label"]

RED = "#c8102e"
BLACK = "#1a1a1a"
CARD_CSS = """
.pepper-cards{display:flex;flex-wrap:wrap;gap:6px;align-items:flex-end;margin:4px 0}
.pepper-cardbox{display:flex;flex-direction:column;align-items:center;font:12px sans-serif}
.pepper-cardbox .seat{color:var(--jp-content-font-color1,#1a1a1a);margin-bottom:2px}
.pepper-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
"""


def label(card: Card, trump: Trump | None = None, left_bower: bool = True) -> str:
    """The words a screen reader says: "jack of diamonds, left bower" (with the table's
    ``left_bower`` switch off, the same jack is just a diamond)."""
    text = f"{card.rank.word} of {card.suit.plural}"
    if trump is not None:
        role = bower(card, trump, left_bower)
        if role:
            text += f", {role} bower"
        elif _is_trump(card, trump, left_bower):
            text += ", trump"
    return text


def _is_trump(card: Card, trump: Trump | None, left_bower: bool) -> bool:
    return (trump is not None and trump is not Trump.NT
            and EFFECTIVE_SUIT[trump_code(trump, left_bower)][card.index] == trump)


def card_svg(card: Card, trump: Trump | None = None, winner: bool = False,
             dim: bool = False, width: int = 56, left_bower: bool = True) -> str:
    """One card as an SVG element (about 56 by 80 pixels)."""
    h = int(width * 10 / 7)
    colour = RED if card.is_red else BLACK
    rank, suit = html.escape(card.rank.display), card.suit.symbol
    words = html.escape(label(card, trump, left_bower))
    is_trump = _is_trump(card, trump, left_bower)
    border = "#1f8f4e" if winner else "#555"
    stroke = 4 if winner else 1.2
    trump_tag = (f'<g class="pepper-trump-tag"><title>T: a trump this hand</title>'
                 f'<rect x="{width - 17}" y="{h - 15}" width="14" height="11" rx="2" '
                 f'fill="#f2c94c"/><text x="{width - 10}" y="{h - 6.5}" font-size="8" '
                 f'text-anchor="middle" fill="#333">T</text></g>') if is_trump else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="pepper-card-svg" width="{width}" '
        f'height="{h}" viewBox="0 0 {width} {h}" role="img" aria-label="{words}" '
        f'data-card="{card}"{" opacity=0.45" if dim else ""}>'
        f"<title>{words}</title>"
        f'<rect x="1.5" y="1.5" width="{width - 3}" height="{h - 3}" rx="6" fill="#fff" '
        f'stroke="{border}" stroke-width="{stroke}"/>'
        f'<text x="6" y="17" font-family="DejaVu Sans,Arial,sans-serif" font-size="14" '
        f'font-weight="bold" fill="{colour}">{rank}</text>'
        f'<text x="6" y="31" font-family="DejaVu Sans,Arial,sans-serif" font-size="13" '
        f'fill="{colour}">{suit}</text>'
        f'<text x="{width / 2 + 4}" y="{h / 2 + 12}" font-family="DejaVu Sans,Arial,sans-serif" '
        f'font-size="28" text-anchor="middle" fill="{colour}">{suit}</text>'
        f"{trump_tag}</svg>")


def _box(inner: str, caption: str | None, card: Card) -> str:
    seat = f'<span class="seat">{html.escape(caption)}</span>' if caption else ""
    return (f'<span class="pepper-cardbox" data-card="{card}">{seat}{inner}'
            f'<span class="pepper-sr">{html.escape(card.display)}</span></span>')


def cards_html(cards: Iterable[Card], trump: Trump | None = None,
               highlight: Iterable[Card] = (), captions: Sequence[str] | None = None,
               width: int = 56, left_bower: bool = True) -> str:
    """A row of cards, e.g. a hand; ``highlight`` rings some of them."""
    marked = set(highlight)
    parts = [_box(card_svg(c, trump, c in marked, width=width, left_bower=left_bower),
                  captions[i] if captions else None, c)
             for i, c in enumerate(cards)]
    return (f"<style>{CARD_CSS}</style>"
            f'<div class="pepper-cards">{"".join(parts)}</div>')


def trick_html(cards: Sequence[Card], trump: Trump | None, seats: Sequence[Seat] = (),
               winner: int | None = None, width: int = 56, left_bower: bool = True) -> str:
    """A trick in play order, with the seats above the cards and the winner ringed."""
    captions = [s.word for s in seats] if seats else None
    winners = [cards[winner]] if winner is not None else []
    return cards_html(cards, trump, winners, captions, width, left_bower)
