"""A Game Guide in the terminal: one step of a hand as a rich panel.

The terminal tutor shows the whole hand a lesson step carries (its ``guide:``) one step at
a time with this panel: the step's sentence, the annotator's and the record's words, the
rule that decided a trick, the hands as they stand, the trick on the table and the count.
The steps are :mod:`.guide`'s, as the page shows them; nothing here works out the play.
"""

from __future__ import annotations

from rich.panel import Panel
from rich.text import Text

from ..engine.cards import Card
from ..rulebook.book import rule_label
from .guide import Guide
from .terminal import card_text, cards_text, plain

__all__ = ["guide_step_panel"]


def guide_step_panel(guide: Guide, index: int, ascii: bool = False) -> Panel:
    """Step ``index`` (from 0) of ``guide``."""
    step = guide.steps[index]
    body = Text()

    def line(label: str, value: Text | str) -> None:
        body.append(f"{label:>9}  ", style="dim")
        body.append_text(value if isinstance(value, Text) else plain(value))
        body.append("\n")

    body.append_text(plain(guide.title, style="bold"))
    body.append("\n")
    line("contract", step.contract or "none yet")
    if step.won:
        line("tricks", ", ".join(f"{side} {n}" for side, n in step.won.items()))
    if step.auction and not step.trick:
        line("auction", ", ".join(f"{s} {call}" for s, call in step.auction))
    label = "hands"
    for seat in guide.seats:
        held = step.hands.get(seat)
        if held is None or not any(step.hands.values()):  # none, or the hand is played out
            continue
        name = guide.names.get(seat, seat.word) + (" (sits out)" if step.out == seat else "")
        shown: Text | str = (f"{held} card{'s' if held != 1 else ''} face down"
                             if isinstance(held, int) else cards_text(held, ascii)
                             if held else "no cards")
        line(label, plain(f"{name}: ").append_text(
            shown if isinstance(shown, Text) else plain(shown)))
        label = ""
    if step.table:
        trick = Text()
        for i, (seat, card) in enumerate(step.table):
            trick.append("  " if i else "")
            trick.append(f"{seat}:", style="dim")
            trick.append_text(_card(card, ascii, won=step.winner == seat))
        line("table", trick)
    body.append("\n")
    body.append_text(plain(step.title, style="bold"))
    for words in step.lines:
        body.append("\n")
        body.append_text(plain(words))
    if step.rule:
        body.append("\n")
        body.append_text(plain(f"Rule: {rule_label(step.rule)}"
                               + (f". {step.rule_text}" if step.rule_text else ""),
                               style="italic dim"))
    if step.coach is not None and step.coach.grade:
        body.append("\n")
        body.append_text(plain(f"Coach: {step.coach.grade}. {step.coach.words}", style="cyan"))
    title = plain(f"Game guide · step {index + 1} of {len(guide.steps)}", style="bold")
    return Panel(body, title=title, title_align="left", border_style="blue")


def _card(card: Card, ascii: bool, won: bool) -> Text:
    text = card_text(card, ascii, style="underline" if won else "")
    return text.append(" wins", style="bold") if won else text
