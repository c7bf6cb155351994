"""What the night's pages show, as plain values for the templates (which escape every text).

The rules stay where they live: the sheet's numbers come from
:class:`~pepper_tutor.records.scoresheet.ScoreSheet`, the quiz's judging and explanations from
the question's own :class:`~pepper_tutor.teaching.questions.steps.Step`, rulings from
:mod:`pepper_tutor.rulebook.tricks`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ...engine.calls import Trump
from ...engine.cards import Card, NotationError, parse_cards
from ...engine.rules import PRESETS, RuleSet, RuleSetError, get_ruleset
from ...engine.seats import Seat
from ...records.scoresheet import ScoredHand, ScoreSheet
from ...render.cards_html import cards_html, trick_html
from ...render.plain import html_text
from ...render.steps_html import step_html
from ...rulebook.book import get_rulebook
from ...rulebook.feedback import Feedback
from ...rulebook.tricks import check_play, explain_trick
from ...teaching.questions.steps import Step
from .puzzle_round import PuzzleStep
from .store import Question

__all__ = ["sheet_view", "ProjectorCard", "projector_cells", "answer_label", "results",
           "ruling_html", "search_html", "rules_from_form", "TRUMP_CHOICES",
           "without_role_hints", "quiz_html", "match_rows", "daily_board", "ranked"]

TRUMP_CHOICES = (("H", "hearts ♥"), ("D", "diamonds ♦"), ("C", "clubs ♣"), ("S", "spades ♠"),
                 ("NT", "no trump"))


def _contract(h: ScoredHand) -> str:
    e = h.entry
    if e.bid is None or e.bidder is None:
        return "all passed: thrown in"
    parts = [f"{e.bidder.word} {e.bid.display}"]
    if e.trump is not None:
        parts.append(e.trump.word if e.trump is Trump.NT else f"{e.trump.word} {e.trump.display}")
    if e.mode is not None:
        parts.append("exchange" if str(e.mode) == "exchange" else "with partner")
    if e.defense is not None:
        parts.append("surrendered" if str(e.defense) == "surrender" else "played")
    return ", ".join(parts)


def sheet_view(sheet: ScoreSheet, version: int) -> dict[str, Any]:
    """The sheet as the pages show it: rows, totals, who deals, who won."""
    rules = sheet.rules
    hands = sheet.scored()
    status = sheet.status
    rows = []
    for h in hands:
        pts = h.score.points if h.score else {}
        rows.append({
            "number": h.number, "dealer": h.entry.dealer.word, "contract": _contract(h),
            "tricks": ", ".join(f"{k} {v}" for k, v in h.entry.tricks.items()),
            "cells": [{"points": pts.get(s, 0), "total": h.totals[s],
                       "why": (h.score.reasons.get(s, "") if h.score else ""),
                       "rule": (h.score.rules.get(s, "") if h.score else "bid.all-pass")}
                      for s in rules.sides]})
    seats = [Seat(i) for i in range(rules.players)]
    return {"version": version, "rules": rules, "summary": rules.summary().splitlines()[0],
            "sides": list(rules.sides), "rows": rows, "totals": sheet.totals,
            "winner": status.winner, "overtime": status.overtime and not status.over,
            # the hand before was the extra one already: the sides are still level after it
            "still_level": (status.overtime and not status.over and len(hands) > 1
                            and hands[-2].status.overtime),
            "next_dealer": sheet.next_dealer.word, "seats": seats,
            "ladder": list(rules.ladder), "two_sides": len(rules.sides) == 2,
            "has_exchange": rules.has_exchange, "has_surrender": rules.has_surrender}


# ---- the quiz's pictures ------------------------------------------------------------------

# The card pictures' own hints: a "T" tag on every trump, and "left bower", "right bower" or
# "trump" in the words a screen reader says. A quiz asks exactly that (which cards follow
# trumps, which jack is the left bower), so the room's cards go without them.
_TRUMP_TAG = re.compile(r'<rect x="[\d.]+" y="[\d.]+" width="14" height="11" rx="2" '
                        r'fill="#f2c94c"/><text [^>]*>T</text>')
_ROLE_WORDS = re.compile(r", (?:left bower|right bower|trump)(?=[\"<])")


def without_role_hints(drawn: str) -> str:
    """A situation drawn by :func:`~pepper_tutor.render.steps_html.step_html` with the
    cards' trump tags and bower words taken out (the trump line above the cards stays)."""
    return _ROLE_WORDS.sub("", _TRUMP_TAG.sub("", drawn))


def quiz_html(step: Step[Any], width: int) -> str:
    drawn = without_role_hints(step_html(step, width))
    if isinstance(step, PuzzleStep):  # the auction, the contract and the earlier tricks
        rows = "".join(f"<tr><th>{html_text(label)}</th><td>{html_text(text)}</td></tr>"
                       for label, text in step.facts())
        drawn = f'<table class="puzzle-facts">{rows}</table>{drawn}'
    return drawn


# ---- the projector ------------------------------------------------------------------------

@dataclass(frozen=True)
class ProjectorCard:
    card: Card
    caption: str
    red: bool


def projector_cells(step: Step[Any]) -> tuple[list[ProjectorCard], int, list[ProjectorCard]]:
    """The first row of big cards, how many of the six columns the text takes beside them
    (six: a row of its own), and the cards below (a hand)."""
    s = step.situation()
    first: list[ProjectorCard] = []
    rest: list[ProjectorCard] = []
    if s.trick:
        led = step.kind in ("legal-plays", "play")
        first = [ProjectorCard(c, "led" if led and i == 0 else
                               (s.seats[i].word if i < len(s.seats) else "played"), c.is_red)
                 for i, c in enumerate(s.trick)]
    if s.cards:
        first += [ProjectorCard(c, "", c.is_red) for c in s.cards]
    if s.hand:
        rest = [ProjectorCard(c, "your hand" if i == 0 else "", c.is_red)
                for i, c in enumerate(s.hand)]
    free = 6 - len(first) % 6 if first else 6
    return first, (free if free >= 2 else 6), rest


def trump_line(step: Step[Any]) -> str:
    trump = step.situation().trump
    if trump is None or trump.word in step.prompt.lower():
        return ""  # the question says it already
    return "No trump" if trump is Trump.NT else f"Trumps: {trump.word} {trump.display}"


def answer_label(key: str, step: Step[Any] | None = None) -> str:
    """An answer as people read it: cards with their suit symbols, points with signs (a
    puzzle's as its question says them: no trump, alone with the exchange)."""
    if isinstance(step, PuzzleStep):
        return step.label(key)
    words = key.split()
    if not words:
        return "no card"
    try:
        return " ".join(Card.parse(w).display for w in words)
    except (NotationError, ValueError):
        pass
    if len(words) % 2 == 0 and all(w.lstrip("+-").isdigit() for w in words[1::2]):
        return ", ".join(f"{words[i]} {int(words[i + 1]):+d}" for i in range(0, len(words), 2))
    return key


@dataclass(frozen=True)
class Results:
    bars: list[tuple[str, int, bool]]  # (answer, how many gave it, right?)
    answered: int
    right: int
    reveal: Feedback


def results(question: Question, step: Step[Any], answers: list[Any]) -> Results:
    """How the room answered, and the right answer with its explanation and rule."""
    counts: Counter[str] = Counter()
    correct: dict[str, bool] = {}
    for a in answers:
        counts[a["key"]] += 1
        correct[a["key"]] = bool(a["correct"])
    bars = [(answer_label(k, step), n, correct[k]) for k, n in counts.most_common()]
    right_key = None
    for k, ok in correct.items():
        if ok:
            right_key = k
    if right_key is None:  # nobody right: still show the right answer's bar, at zero
        bars.append((step.answer_text(), 0, True))
    return Results(bars, len(answers), sum(1 for a in answers if a["correct"]), step.reveal())


# ---- rulings --------------------------------------------------------------------------------

def _e(text: object) -> str:
    return html_text(text)


def ruling_html(trump_text: str, trick_text: str, hand_text: str) -> str:
    """What may be played and who is winning, with the rules quoted (all text escaped)."""
    try:
        trump = Trump.parse(trump_text or "H")
        trick = parse_cards(trick_text)
        hand = parse_cards(hand_text)
    except NotationError as err:
        return f'<div class="pepper-fb wrong">{_e(err)}</div>'
    overlap = set(trick) & set(hand)
    if overlap:
        card = next(iter(overlap))
        return (f'<div class="pepper-fb wrong">The {_e(card.display)} cannot be both played '
                "and in your hand.</div>")
    if len(trick) > 4 or len(hand) > 6:
        return ('<div class="pepper-fb wrong">A trick has at most four cards and a hand at '
                "most six.</div>")
    parts = []
    if trick:
        parts.append(trick_html(trick, trump, width=64))
    if len(trick) >= 2:
        why = explain_trick(trick, trump)
        parts.append(f"<p><b>So far the {_e(why.winning_card.display)} is winning.</b> "
                     f"{_e(' '.join(why.facts))}</p>")
    if hand:
        lead = trick[0] if trick else None
        verdicts = [check_play(hand, lead, trump, c) for c in hand]
        allowed = [c for c, v in zip(hand, verdicts, strict=True) if v.legal]
        parts.append("<p><b>You may play:</b></p>" + cards_html(allowed, trump, width=64))
        why_rules: dict[str, str] = {}
        for card, v in zip(hand, verdicts, strict=True):
            if not v.legal:
                parts.append(f"<p>Not the {_e(card.display)}: {_e(v.facts[0])}</p>")
            for r in v.rules:
                why_rules.setdefault(r.id, r.text)
        if lead is not None and len(allowed) == len(hand):
            parts.append(f"<p>{_e(verdicts[0].facts[0])}</p>")
        parts += [f'<p class="rule"><code>{_e(rid)}</code> {_e(text)}</p>'
                  for rid, text in why_rules.items()]
    if not parts:
        parts.append("<p>Type the cards played so far and your hand.</p>")
    return "".join(parts)


def search_html(words: str) -> str:
    words = words.strip()
    if not words:
        return "<p>Type a word or two to look up, such as <i>left bower</i>.</p>"
    found = get_rulebook().search(words)
    if not found:
        return f"<p>No rule mentions {_e(words)}.</p>"
    return "".join(f'<div class="found"><b>{_e(r.title)}</b> <code>{_e(r.id)}</code>'
                   f"<div>{_e(r.text)}</div></div>" for r in found)


# ---- the night's matches ----------------------------------------------------------------

def match_rows(store: Any) -> list[dict[str, Any]]:
    """Every match of the night for the host's list: number, rules, hands, totals, winner."""
    rows = []
    for i, m in enumerate(store.matches()):
        sheet, _ = store.sheet(m.id)
        status = sheet.status
        rows.append({"id": m.id, "current": i == 0, "hands": m.hands, "event": m.event,
                     "summary": sheet.rules.summary().splitlines()[0],
                     "totals": " · ".join(f"{k} {v}" for k, v in sheet.totals.items()),
                     "winner": status.winner})
    return rows


# ---- rankings ---------------------------------------------------------------------------

def ranked(board: list[tuple[str, int, int]], cut: int | None = None) -> list[dict[str, Any]]:
    """The quiz's leaderboard (best first) with each player's rank: players with as many
    right answers share a rank (1, 1, 3), and a cut at ``cut`` keeps everyone tied with the
    last place in it."""
    ranks = [1 + sum(1 for _, other, _ in board if other > right) for _, right, _ in board]
    return [{"name": name, "right": right, "answered": answered, "rank": rank}
            for (name, right, answered), rank in zip(board, ranks, strict=True)
            if cut is None or rank <= cut]


# ---- the daily deal's board ---------------------------------------------------------------

def daily_board(deals: list[dict[str, Any]]) -> dict[str, Any]:
    """The room's daily deals: each deal played with who sat North-South and East-West, and
    each person's net points against par over the deals they sat in, best first."""
    rows: list[dict[str, Any]] = []
    people: dict[str, tuple[int, int, int]] = {}  # name: (net, par, deals)
    for d in deals:
        names = {side: " & ".join(d["seats"][s] for s in seats if s in d["seats"]) or
                 "computers" for side, seats in (("NS", "NS"), ("EW", "EW"))}
        rows.append({**d, "ns": names["NS"], "ew": names["EW"],
                     "against": d["net"] - d["par"]})
        for seat, name in d["seats"].items():
            sign = 1 if seat in "NS" else -1  # East-West's net is North-South's, turned
            net, par, n = people.get(name, (0, 0, 0))
            people[name] = (net + sign * d["net"], par + sign * d["par"], n + 1)
    order = sorted(people, key=lambda k: (people[k][1] - people[k][0], -people[k][0],
                                          k.casefold()))
    against = {k: people[k][0] - people[k][1] for k in order}
    by_par = [{"name": k, "net": people[k][0], "par": people[k][1], "deals": people[k][2],
               "against": against[k],
               "rank": 1 + sum(1 for v in against.values() if v > against[k])}
              for k in order]
    return {"played": rows, "ranked": by_par}


# ---- a new match -------------------------------------------------------------------------

def rules_from_form(form: dict[str, str]) -> RuleSet:
    """The rule set the host chose for a new match (RuleSetError says what does not fit)."""
    preset = form.get("preset", "standard").strip() or "standard"
    if preset not in PRESETS:
        raise RuleSetError(f"there is no rule set called {preset[:20]!r}: the rule sets are "
                           f"{', '.join(PRESETS)}")
    switches: dict[str, Any] = {}
    for key, what, high in (("minimum_bid", "The minimum bid", 6), ("players", "Players", 4),
                            ("target", "The target", 999)):
        raw = form.get(key, "").strip()
        if not raw or (key == "players" and preset != "cutthroat"):
            continue
        if not raw.lstrip("-").isdigit():
            raise RuleSetError(f"{what} is a whole number, not {raw[:12]!r}")
        if len(raw) > 6 or int(raw) > high:  # (no int() of a 100,000-digit number)
            raise RuleSetError(f"{what} is at most {high}, not {raw[:12]}"
                               + ("…" if len(raw) > 12 else ""))
        value = int(raw)
        switches[key] = value
    if form.get("dirty_clubs"):
        switches["dirty_clubs"] = True
    if form.get("stick"):
        switches["all_pass"] = "dealer_must_bid"
    if form.get("swyg"):
        switches["score_what_you_get"] = True
    return get_ruleset(preset, **switches)
