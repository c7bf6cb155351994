"""An annotated hand as rich terminal output, Markdown, self-contained HTML or JSON.

Every string that came from a record (notes, names, the event) is escaped before it reaches
HTML, Markdown or the terminal: records are untrusted text. In HTML it is entity-escaped; in
Markdown it is one line with every structural character escaped; in the terminal it is a
rich ``Text`` (markup shown as written) without control characters.
"""

from __future__ import annotations

import html
import re
from typing import Any

from ..analysis.grading import glyph_for_cost
from ..engine.cards import Card
from ..records.annotate import Annotation, Finding, PlayedCard, TrickNote
from ..rulebook.book import get_rule
from .plain import one_line, safe_json, strip_controls

__all__ = ["to_json", "to_markdown", "to_html", "to_rich", "FORMATS"]

FORMATS = ("text", "json", "markdown", "html")


def to_json(a: Annotation) -> str:
    return safe_json(a.to_dict(), indent=2)


def _who(a: Annotation, seat: Any) -> str:
    players = a.record.meta.get("players") if isinstance(a.record.meta, dict) else None
    name = players.get(str(seat)) if isinstance(players, dict) else None
    return f"{seat.word} ({name})" if name else seat.word


KIND_WORDS = {"costly": "a costly card", "revoke": "a revoke", "questioned": "a questioned call"}


def finding_place(a: Annotation, f: Finding) -> str:
    """Where a finding is, as a player says it: "Trick 2, West's J♦", not ``tricks.2.2``."""
    parts = f.where.split(".")
    if parts[0] == "tricks" and len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        t, i = int(parts[1]), int(parts[2])
        if 1 <= t <= len(a.tricks) and 1 <= i <= len(a.tricks[t - 1].cards):
            played = a.tricks[t - 1].cards[i - 1]
            return f"Trick {t}, {played.seat.word}'s {played.card.display}"
        return f"Trick {t}"
    if parts[0] == "auction" and len(parts) == 2 and parts[1].isdigit():
        k = int(parts[1])
        if 1 <= k <= len(a.auction):
            call = a.auction[k - 1]
            return f"The auction, {call.seat.word}'s {call.call.display}"
    return note_place(f.where)


# A note's place in a record, as a reader says it: the annotation's JSON keeps the keys.
_NOTE_PLACES = {"trump": "Trumps", "mode": "How the bidder plays",
                "exchange.discard": "The bidder's discard",
                "exchange.passed": "The card partner sent", "defense": "The defenders' choice"}


def note_place(where: str) -> str:
    """Where a note was made, in words ("exchange.passed" -> "The card partner sent")."""
    return _NOTE_PLACES.get(where, where)


def _score_line(a: Annotation) -> str:
    if a.score is None:
        return ""
    parts = [f"{side} {points:+d}" for side, points in a.score.items()]
    text = "Score: " + ", ".join(parts)
    if a.made is not None:
        text += " (made)" if a.made else " (set)"
    return text


# ---- Markdown ------------------------------------------------------------------------------


def _md(text: object) -> str:
    """Record text as inline Markdown that shows exactly what was written.

    Everything is put on one line first (a newline could start a heading, a list item, a
    setext underline or a new table row), control characters go, HTML is escaped (``<``
    and ``&`` become entities), then every character that could open emphasis, code, a link,
    an image, strikethrough or a table cell is backslash-escaped. Last, what a renderer
    would turn into a link by itself (``https://...``, ``mailto:``, ``www.host``, a bare
    ``host.example``, ``a@b``) loses the character it is recognised by, spelled as an entity
    (``&#58;``, ``&#46;``, ``&#64;``): a reader sees the same text, with no link in it."""
    out = html.escape(one_line(text), quote=False)
    for ch in "\\`*_[]|#~":
        out = out.replace(ch, "\\" + ch)
    return _AUTOLINK.sub(lambda m: _ENTITY[m.group()], out)


#: A colon that could end a scheme (``https:``, ``mailto:``; not "Note: ..."), a dot inside a
#: host name (``www.x``, ``evil.example``; not "1.5" or the end of a sentence), any ``@``.
_AUTOLINK = re.compile(r":(?=\S)|(?<=\w)\.(?=[^\W\d_])|@")
_ENTITY = {":": "&#58;", ".": "&#46;", "@": "&#64;"}


def cost_words(pc: PlayedCard) -> str:
    """The analysis's mark in words, so it never reads as a second author's glyph beside the
    record's own: `` (analysis ?: costs 1 trick)``."""
    if not pc.cost:
        return ""
    return (f" (analysis {pc.grade_glyph}: costs {pc.cost} trick"
            f"{'s' if pc.cost != 1 else ''})")


def _md_card(pc: PlayedCard) -> str:
    text = pc.card.display + (pc.glyph or "") + cost_words(pc)
    if pc.revoke:
        text = f"~~{text}~~ (revoke)"
    return text


def to_markdown(a: Annotation) -> str:
    rec = a.record
    lines = [f"## {_md(a.title)}", "",
             f"*Rules:* {rec.rules.name} · *Dealer:* {_md(_who(a, rec.dealer))}", ""]
    if rec.deal:
        lines += ["| Seat | Dealt |", "| --- | --- |"]
    for seat in sorted(rec.deal):
        lines.append(f"| {_md(_who(a, seat))} | {' '.join(c.display for c in rec.deal[seat])} |")
    lines += ["", "**Auction:** " + ", ".join(
        f"{c.seat} {c.call.display}{c.glyph or ''}" for c in a.auction), ""]
    for c in a.auction:
        if c.note:
            lines.append(f"- *{c.seat} {c.call.display}:* {_md(c.note)}")
    lines += ["", f"**Contract:** {_md(a.contract_text())}", ""]
    for where, note in a.notes:
        lines.append(f"- *{note_place(where)}:* {_md(note)}")
    if a.tricks:
        lines += ["", "| # | Leader | Cards | Winner | Why |", "| --- | --- | --- | --- | --- |"]
        for t in a.tricks:
            cards = ", ".join(f"{pc.seat} {_md_card(pc)}" for pc in t.cards)
            winner = f"{t.winner} {t.winning_card.display}" if t.winner and t.winning_card else "…"
            why = _md(" ".join(t.facts)) + (f" `{t.rule}`" if t.rule else "")
            lines.append(f"| {t.number} | {t.leader} | {cards} | {winner} | {why} |")
        notes = [(t.number, pc) for t in a.tricks for pc in t.cards if pc.note]
        if notes:
            lines.append("")
            for number, pc in notes:
                lines.append(f"- *Trick {number}, {pc.seat} {pc.card.display}:* "
                             f"{_md(pc.note or '')}")
    lines.append("")
    if a.tricks_won and a.status != "thrown-in":
        lines.append("**Tricks:** " + ", ".join(f"{s} {n}" for s, n in a.tricks_won.items()))
    if a.score is not None:
        lines.append("")
        lines.append(f"**{_score_line(a)}**")
        for side, reason in a.score_reasons.items():
            rid = a.score_rules.get(side, "")
            lines.append(f"- {side}: {_md(reason)} (`{rid}`)")
    match = a.match_score
    if match:
        lines.append("")
        lines.append("**Match:** " + ", ".join(
            f"{s} {match['before'][s]} → {match['after'][s]}" for s in match["after"]))
    if not a.complete:
        lines += ["", f"*The record stops here: {_md(a.status)}.*"]
    if a.findings:
        lines += ["", "### Findings", ""]
        said: set[str] = set()  # each rule's text once: the graded cards all share one
        for f in a.findings:
            text = "" if f.rule in said else f" {_md(get_rule(f.rule).text)}"
            said.add(f.rule)
            lines.append(f"- **{_md(finding_place(a, f))}** ({KIND_WORDS.get(f.kind, f.kind)}): "
                         f"{_md(f.message)} — [{f.rule}]{text}")
    return "\n".join(lines) + "\n"


# ---- HTML ------------------------------------------------------------------------------------

_CSS = """
.pepper-hand{font-family:system-ui,-apple-system,Segoe UI,sans-serif;max-width:60em;
color:var(--jp-content-font-color1,#222)}
.pepper-hand h2{margin:.2em 0}
.pepper-hand table{border-collapse:collapse;margin:.5em 0}
.pepper-hand td,.pepper-hand th{border:1px solid #ccc;padding:.25em .5em;vertical-align:top;
text-align:left}
.pepper-hand .card{display:inline-block;border:1px solid #888;border-radius:4px;padding:0 .25em;
margin:0 .1em;background:#fff;font-weight:600;color:#111}
.pepper-hand .card.red{color:#c00}
.pepper-hand .card.win{box-shadow:0 0 0 2px #2a7}
.pepper-hand .card.revoke{text-decoration:line-through;background:#fee}
.pepper-hand .note{color:var(--jp-content-font-color1,#222);font-style:italic}
.pepper-hand .rule{color:var(--jp-content-font-color1,#222);font-size:.9em;font-style:italic}
.pepper-hand .finding{background:rgba(238,153,0,.14);border-left:4px solid #e90;padding:.3em .6em;
margin:.3em 0}
.pepper-hand .score{font-weight:700}
"""


def _e(text: object) -> str:
    return html.escape(strip_controls(text), quote=True)


def card_html(card: Card, win: bool = False, revoke: bool = False, glyph: str | None = None,
              cost: int | None = None) -> str:
    classes = ["card"] + (["red"] if card.is_red else []) + (["win"] if win else [])
    classes += ["revoke"] if revoke else []
    label = _e(card.display) + (_e(glyph) if glyph else "")
    if cost:
        label += (f' <sup class="grade" title="costs {cost} against perfect play">'
                  f"{glyph_for_cost(cost)}</sup>")
    return (f'<span class="{" ".join(classes)}" data-card="{card}" '
            f'aria-label="{_e(card.rank.word)} of {_e(card.suit.plural)}">{label}</span>')


def _trick_row(t: TrickNote) -> str:
    cards = " ".join(
        f'{_e(pc.seat)}&nbsp;'
        f'{card_html(pc.card, pc.card is t.winning_card, pc.revoke, pc.glyph, pc.cost)}'
        for pc in t.cards)
    notes = "".join(f'<div class="note">{_e(pc.seat)} {_e(pc.card.display)}: {_e(pc.note)}</div>'
                    for pc in t.cards if pc.note)
    winner = (f"{_e(t.winner.word)} {card_html(t.winning_card, True)}"
              if t.winner and t.winning_card else "…")
    why = _e(" ".join(t.facts))
    if t.rule:
        why += f' <span class="rule" title="{_e(get_rule(t.rule).text)}">[{_e(t.rule)}]</span>'
    return (f'<tr class="trick" data-trick="{t.number}"><td>{t.number}</td><td>{_e(t.leader)}'
            f"</td><td>{cards}{notes}</td><td>{winner}</td><td>{why}</td></tr>")


def to_html(a: Annotation, standalone: bool = True) -> str:
    rec = a.record
    parts = [f'<div class="pepper-hand"><style>{_CSS}</style>',
             f"<h2>{_e(a.title)}</h2>",
             f"<p>Rules: {_e(rec.rules.name)} · Dealer: {_e(_who(a, rec.dealer))}</p>",
             "<table><tr><th>Seat</th><th>Dealt</th></tr>" if rec.deal else "<table>"]
    for seat in sorted(rec.deal):
        cards = " ".join(card_html(c) for c in rec.deal[seat])
        parts.append(f"<tr><td>{_e(_who(a, seat))}</td><td>{cards}</td></tr>")
    parts.append("</table>")
    calls = ", ".join(f"{_e(c.seat)} {_e(c.call.display)}{_e(c.glyph or '')}" for c in a.auction)
    parts.append(f"<p><b>Auction:</b> {calls}</p>")
    parts += [f'<div class="note">{_e(c.seat)} {_e(c.call.display)}: {_e(c.note)}</div>'
              for c in a.auction if c.note]
    parts.append(f'<p class="contract"><b>Contract:</b> {_e(a.contract_text())}</p>')
    parts += [f'<div class="note">{_e(note_place(where))}: {_e(note)}</div>'
              for where, note in a.notes]
    if a.tricks:
        parts.append("<table class=\"tricks\"><tr><th>#</th><th>Leader</th><th>Cards</th>"
                     "<th>Winner</th><th>Why</th></tr>")
        parts += [_trick_row(t) for t in a.tricks]
        parts.append("</table>")
    if a.tricks_won and a.status != "thrown-in":
        parts.append("<p><b>Tricks:</b> " + ", ".join(
            f"{_e(s)} {n}" for s, n in a.tricks_won.items()) + "</p>")
    if a.score is not None:
        parts.append(f'<p class="score">{_e(_score_line(a))}</p><ul>')
        parts += [f"<li>{_e(side)}: {_e(reason)} <span class=\"rule\">"
                  f"[{_e(a.score_rules.get(side, ''))}]</span></li>"
                  for side, reason in a.score_reasons.items()]
        parts.append("</ul>")
    match = a.match_score
    if match:
        parts.append("<p><b>Match:</b> " + ", ".join(
            f"{_e(s)} {match['before'][s]} → {match['after'][s]}" for s in match["after"])
            + "</p>")
    if not a.complete:
        parts.append(f"<p><i>The record stops here: {_e(a.status)}.</i></p>")
    said: set[str] = set()  # each rule's text once: the graded cards all share one
    for f in a.findings:
        text = "" if f.rule in said else f" {_e(get_rule(f.rule).text)}"
        said.add(f.rule)
        parts.append(f'<div class="finding" data-where="{_e(f.where)}"><b>'
                     f"{_e(finding_place(a, f))}</b> ({_e(KIND_WORDS.get(f.kind, f.kind))}): "
                     f"{_e(f.message)} <span class=\"rule\" title=\""
                     f"{_e(get_rule(f.rule).text)}\">[{_e(f.rule)}]{text}</span></div>")
    parts.append("</div>")
    body = "\n".join(parts)
    if not standalone:
        return body
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{_e(a.title)}</title></head><body>\n{body}\n</body></html>\n")


# ---- rich ------------------------------------------------------------------------------------


def to_rich(a: Annotation, ascii: bool = False) -> Any:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from .terminal import card_text, plain

    rec = a.record
    parts: list[Any] = [plain(a.title, style="bold underline"),
                        plain(f"Rules: {rec.rules.name} · Dealer: {_who(a, rec.dealer)}")]
    deal = Table(show_header=False, box=None, padding=(0, 1))
    for seat in sorted(rec.deal):
        row = Text()
        for i, c in enumerate(rec.deal[seat]):
            row.append(" " if i else "")
            row.append_text(card_text(c, ascii))
        deal.add_row(plain(_who(a, seat)), row)
    parts.append(deal)
    parts.append(plain("Auction: " + ", ".join(f"{c.seat} {c.call.display}{c.glyph or ''}"
                                              for c in a.auction)))
    parts += [plain(f"  {c.seat} {c.call.display}: {c.note}", style="italic") for c in a.auction
              if c.note]
    parts.append(plain("Contract: " + a.contract_text(), style="bold"))
    parts += [plain(f"  {note_place(where)}: {note}", style="italic") for where, note in a.notes]
    if a.tricks:
        table = Table(title="Tricks", show_lines=True)
        for col in ("#", "Leader", "Cards", "Winner", "Why"):
            table.add_column(col, overflow="fold")
        for t in a.tricks:
            cards = Text()
            for i, pc in enumerate(t.cards):
                cards.append(", " if i else "")
                cards.append(f"{pc.seat} ")
                style = "underline" if pc.card is t.winning_card else ""
                style += " strike" if pc.revoke else ""
                cards.append_text(card_text(pc.card, ascii, style.strip()))
                if pc.glyph:
                    cards.append(pc.glyph)
                if pc.cost:
                    cards.append(cost_words(pc), style="yellow")
            for pc in t.cards:
                if pc.note:
                    cards.append_text(plain(f"\n{pc.seat} "
                                            f"{pc.card.display if not ascii else pc.card}: "
                                            f"{pc.note}", style="italic"))
            winner = Text(str(t.winner) + " ") if t.winner else Text("…")
            if t.winning_card:
                winner.append_text(card_text(t.winning_card, ascii))
            why = plain(" ".join(t.facts))
            if t.rule:
                why.append(f" [{t.rule}]", style="dim")
            table.add_row(Text(str(t.number)), Text(str(t.leader)), cards, winner, why)
        parts.append(table)
    if a.tricks_won and a.status != "thrown-in":
        parts.append(plain("Tricks: " + ", ".join(f"{s} {n}" for s, n in a.tricks_won.items())))
    if a.score is not None:
        parts.append(plain(_score_line(a), style="bold"))
        parts += [plain(f"  {side}: {reason} [{a.score_rules.get(side, '')}]")
                  for side, reason in a.score_reasons.items()]
    match = a.match_score
    if match:
        parts.append(plain("Match: " + ", ".join(
            f"{s} {match['before'][s]} → {match['after'][s]}" for s in match["after"])))
    if not a.complete:
        parts.append(plain(f"The record stops here: {a.status}.", style="italic"))
    said: set[str] = set()  # each rule's text once: the graded cards all share one
    for f in a.findings:
        parts.append(plain(f"⚠ {finding_place(a, f)} ({KIND_WORDS.get(f.kind, f.kind)}): "
                           f"{f.message}", style="yellow"))
        if f.rule not in said:
            parts.append(plain(f"  [{f.rule}] {get_rule(f.rule).text}", style="dim"))
        said.add(f.rule)
    return Group(*parts)
