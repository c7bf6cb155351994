"""A step's situation and a feedback message as HTML (for notebooks and the game-night app).

All text is escaped: lesson files are untrusted input like hand records.
"""

from __future__ import annotations

from typing import Any

from ..engine.calls import Trump
from ..engine.seats import Seat
from ..rulebook.book import rule_ids_shown
from ..rulebook.feedback import Feedback
from ..teaching.questions.steps import ExplainStep, Step
from .cards_html import cards_html, trick_html
from .plain import html_text

__all__ = ["step_html", "feedback_html", "FEEDBACK_CSS"]

FEEDBACK_CSS = """
.pepper-fb{border-left:5px solid #888;padding:6px 10px;margin:6px 0;
background:var(--jp-layout-color1,#fafafa);color:var(--jp-content-font-color1,#1a1a1a);
font-family:system-ui,sans-serif;line-height:1.4}
.pepper-fb.right{border-color:#1f8f4e;background:rgba(31,143,78,.12)}
.pepper-fb.wrong{border-color:#c8102e;background:rgba(200,16,46,.09)}
.pepper-fb.revealed{border-color:#d08a00;background:rgba(208,138,0,.12)}
.pepper-fb .headline{font-weight:700}
.pepper-fb .rule{color:var(--jp-content-font-color1,#1a1a1a);font-size:.92em;margin-top:4px;
font-style:italic}
.pepper-fb .rule code{background:var(--jp-layout-color2,#eee);color:inherit;padding:0 3px}
.pepper-fb .rule summary{cursor:pointer}
.pepper-fb .consequence{font-weight:600}
"""


def _e(text: object) -> str:
    return html_text(text)


def _trump_text(trump: Trump) -> str:
    return "No trump this hand" if trump is Trump.NT else f"Trumps: {trump.word} {trump.display}"


def step_html(step: Step[Any], card_width: int = 56) -> str:
    """The situation (trump, trick, hand, auction, score facts) and the question."""
    w = card_width
    s = step.situation()
    trump = s.trump
    left = step.rules.left_bower
    parts = ['<div class="pepper-step" style="font-family:system-ui,sans-serif">']
    if isinstance(step, ExplainStep) and step.text:
        parts.append(f"<p>{_e(step.text)}</p>")
    if trump is not None:
        # the yellow T drawn on each trump card (cards_html) is said once, by the trumps
        legend = ("" if trump is Trump.NT else
                  ' <span class="pepper-legend" style="font-weight:normal">(<span '
                  'style="background:#f2c94c;color:#333;border-radius:2px;padding:0 3px;'
                  'font-size:85%">T</span> on a card: a trump this hand)</span>')
        parts.append(f'<p class="pepper-trump"><b>{_e(_trump_text(trump))}</b>{legend}</p>')
    if s.trick:
        parts.append("<div>Trick so far:</div>" if step.kind in ("legal-plays", "play")
                     else "<div>The trick:</div>")
        parts.append(trick_html(list(s.trick), trump, list(s.seats), width=w, left_bower=left))
    if s.after:
        parts.append("<div>Played after you:</div>" + cards_html(s.after, trump, width=w,
                                                                    left_bower=left))
    if s.cards:
        parts.append(cards_html(s.cards, trump, width=w, left_bower=left))
    if s.hand:
        parts.append("<div>Your hand:</div>" + cards_html(s.hand, trump, width=w,
                                                          left_bower=left))
    if s.auction is not None and s.dealer is not None:
        dealer = s.dealer
        calls = [f"{Seat((dealer + 1 + i) % 4).word}: {c.display}"
                 for i, c in enumerate(s.auction)]
        you = f" You are {s.seat.word}." if s.seat is not None else ""
        parts.append(f"<p>Dealer: {dealer.word}. Calls so far: "
                     f"{_e(', '.join(calls) or 'none — you speak first')}.{_e(you)}</p>")
    if s.bid is not None:
        who = f" by {s.bidder.word}" if s.bidder is not None else ""
        parts.append(f"<p>Bid: {_e(s.bid.display)}{_e(who)}</p>")
    if s.role:
        parts.append(f"<p>You are {_e('the bidder' if s.role == 'bidder' else 'the partner')}"
                     "</p>")
    if s.tricks:
        parts.append("<p>Tricks taken: " + _e(", ".join(f"{k} {v}" for k, v in s.tricks))
                     + "</p>")
    if s.defense is not None:
        parts.append(f"<p>Defenders: {_e(s.defense)}</p>")
    if s.before:
        points = dict(s.points)
        now = [(k, v + points.get(k, 0)) for k, v in s.before]
        parts.append("<p>Totals before this hand: " + _e(", ".join(
            f"{k} {v}" for k, v in s.before)) + "; this hand: " + _e(", ".join(
            f"{k} {v:+d}" for k, v in s.points)) + "; now: " + _e(", ".join(
            f"{k} {v}" for k, v in now))
            + (" (the extra hand after a shared finish)" if s.overtime else "") + ".</p>")
    if step.prompt:
        parts.append(f'<p class="pepper-prompt"><b>{_e(step.prompt)}</b></p>')
    parts.append(f"<style>{FEEDBACK_CSS}</style></div>")
    return "".join(parts)


def feedback_html(fb: Feedback) -> str:
    """The verdict first, then each rule's text in a toggle named as :meth:`Feedback.rule_name`
    says (its title, its id only in the rule ids view): open the first time it comes up
    (``fb.quote_ids``), closed after that."""
    kind = "right" if fb.correct else ("revealed" if fb.revealed else "wrong")
    parts = [f'<style>{FEEDBACK_CSS}</style><div class="pepper-fb {kind}">']
    for part, text in fb.parts():
        if part == "headline":
            parts.append(f'<div class="headline">{_e(text)}</div>')
        elif part == "consequence":
            parts.append(f'<div class="consequence">{_e(text)}</div>')
        elif part == "answer":
            parts.append(f'<div class="answer"><b>{_e(text)}</b></div>')
        elif part in ("verdict", "why"):
            parts.append(f'<div class="{part}">{_e(text)}</div>')
    more = [text for part, text in fb.parts(full=True) if part == "more"]
    if more:  # the rest of the reason, and facts an author's note stood in for: on request
        parts.append('<details class="more"><summary>more</summary>'
                     + "".join(f'<div class="why">{_e(t)}</div>' for t in more) + "</details>")
    shown = [rid for rid in fb.rule_ids if rid not in fb.held_back]
    for rid, (name, text) in zip(shown, fb.quotes, strict=True):
        opened = " open" if rid in fb.quote_ids else ""
        label = f"rule <code>{_e(name)}</code>" if rule_ids_shown() else _e(name)
        parts.append(f'<details class="rule"{opened}><summary>{label}'
                     f'</summary><div class="rule-text">{_e(text)}</div></details>')
    parts.append("</div>")
    return "".join(parts)
