"""Rich renderables for the terminal: cards in colour, rules, verdicts.

Front ends call these; the engine never does. With ``ascii=True`` the suit symbols become
letters for terminals that cannot show them.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

from ..engine.cards import Card
from ..rulebook.book import Rule, Rulebook
from .plain import strip_controls

__all__ = ["card_text", "cards_text", "make_console", "rule_panel", "rulebook_group", "plain",
           "strip_controls"]

RED = "bold red"
BLACK = "bold"


def plain(text: object, style: str = "") -> Text:
    """Text from a file (a record, a lesson, a sheet) for the terminal: a rich ``Text``, so
    ``[link=...]`` or ``[blink]`` in it is shown as written, never applied as markup, and
    without control characters (escape sequences cannot reach the terminal)."""
    return Text(strip_controls(text), style=style)


def card_text(card: Card, ascii: bool = False, style: str = "") -> Text:
    label = (card.rank.display + card.suit.letter) if ascii else card.display
    return Text(label, style=(RED if card.is_red else BLACK) + (f" {style}" if style else ""))


def cards_text(cards: Iterable[Card], ascii: bool = False, sep: str = " ") -> Text:
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(card_text(card, ascii))
    return out


def rule_panel(rule: Rule) -> Panel:
    body = Text(rule.text)
    if rule.example is not None:
        body.append("\n\nExample: ", style="italic cyan")
        body.append(rule.example.text, style="italic")
    return Panel(body, title=f"[bold]{escape(rule.title)}[/] [dim]{rule.id}[/]",
                 title_align="left")


def rulebook_group(book: Rulebook, rules: Iterable[Rule] | None = None) -> Group:
    chosen = list(rules) if rules is not None else list(book)
    parts: list[Panel | Text] = []
    for section_id, title in book.sections:
        in_section = [r for r in chosen if r.section == section_id]
        if not in_section:
            continue
        parts.append(Text(f"\n{title}", style="bold underline"))
        parts.extend(rule_panel(r) for r in in_section)
    return Group(*parts)


def make_console(ascii: bool = False) -> Console:
    return Console(emoji=False, highlight=False, safe_box=ascii)
