"""How long the coach's panels are: words per panel, per kind of decision and per screen.

``python -m pepper_tutor.bench panels [--hands 40] [--samples 40] [--seed 0]`` deals hands
with fixed seeds (beginners play every seat, through the auction or into a chosen contract
of each kind), and at every decision with a choice grades the beginner's choice as the
learner's and asks for the hint, as the screens show them:

- ``table``: the terminal practice table's coach panel (the grade's line, then the reason);
- ``page``: the page's coach box (the same, and the deals it was graded over), as the page
  lays it out;
- ``widget``: the notebook table widget's coach box;
- ``night``: game night's grade of a decision after the hand (the grade's line);
- ``hint``: the hint (the coach's suggestion and why) under its title, "Hint (this decision
  will not be graded)", as every table shows it;
- ``puzzle``: the puzzle's feedback after a right answer and after the tempting one (every
  puzzle of the bank);
- ``drill``: the judgement drill's panel after a right answer and a wrong one (every
  screened position).

It prints the words per panel (median, 95th percentile, largest) per screen and kind (the
coach's grades once more as ``table-`` and ``page-``: those of a choice not the best, the
panels with a reason), and with ``--show`` the longest panel of each screen in full.
:func:`panels` gives the texts, which ``tests/test_panel_words.py`` holds to the targets.
"""

from __future__ import annotations

import argparse
import html
import random
import re
import statistics
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, cast

from ..analysis.players import make_player
from ..analysis.view import view_of
from ..engine.calls import Bid, Mode, Trump
from ..engine.seats import Seat
from ..engine.state import Action, HandState, Phase

if TYPE_CHECKING:
    from ..teaching.practice.coach import CoachVerdict

__all__ = ["Panel", "KINDS", "panels", "coach_panels", "puzzle_panels", "drill_panels",
           "words", "spread", "main"]

KINDS = ("call", "trump", "mode", "exchange", "defense", "card")
"""The kinds of decision, as the figures are grouped."""

# Contracts the hands are dealt into besides the natural auctions: every kind of contract
# (trumps and no trump, with partner and alone, little and big pepper), so every decision
# kind and every reason comes up.
CONTRACTS = ((Bid.FOUR, Trump.H, Mode.PARTNER), (Bid.FOUR, Trump.S, Mode.EXCHANGE),
             (Bid.THREE, Trump.NT, Mode.PARTNER), (Bid.FIVE, Trump.NT, Mode.EXCHANGE),
             (Bid.LITTLE_PEPPER, Trump.D, Mode.PARTNER), (Bid.BIG_PEPPER, Trump.C, None),
             (Bid.FIVE, Trump.D, Mode.EXCHANGE))


@dataclass(frozen=True)
class Panel:
    """One panel as the learner reads it."""

    screen: str
    kind: str
    text: str
    best: bool = False  # a coach panel of the best choice: the grade's line alone

    @property
    def words(self) -> int:
        return words(self.text)


def words(text: str) -> int:
    return len(text.split())


def kind_of(state: HandState) -> str:
    """The decision's kind as the figures group it."""
    phase = state.phase
    return {Phase.AUCTION: "call", Phase.DECLARE_TRUMP: "trump", Phase.DECLARE_MODE: "mode",
            Phase.DISCARD: "exchange", Phase.SEND: "exchange", Phase.DEFENSE: "defense"
            }.get(phase, "card")


def decisions(hands: int, seed: int) -> Iterator[tuple[HandState, Action]]:
    """Every decision with a choice in ``hands`` beginner-played hands (each seed's hands:
    one natural auction, then one dealt into each contract of :data:`CONTRACTS`), with the
    beginner's choice: (the position before it, the choice)."""
    for h in range(hands):
        k = h % (len(CONTRACTS) + 1)
        rng = random.Random(seed * 100_003 + h)
        state = HandState.deal("standard", Seat(rng.randrange(4)), rng)
        players = [make_player("beginner", rng.randrange(1 << 30)) for _ in range(4)]
        forced: list[Action] = []
        if k:
            bid, trump, mode = CONTRACTS[k - 1]
            forced = [bid, Bid.PASS, Bid.PASS, Bid.PASS, trump]
            if mode is not None:
                forced.append(mode)
        while not state.is_terminal():
            if forced and state.phase in (Phase.AUCTION, Phase.DECLARE_TRUMP,
                                          Phase.DECLARE_MODE):
                action: Action = forced.pop(0)
            else:
                seat = state.to_act
                assert seat is not None
                action = players[int(seat)].decide(view_of(state))
            if len(state.legal_actions()) > 1 and state.check(action).legal:
                yield state.copy(), action
            state.apply(action)


def coach_panels(hands: int = 40, samples: int = 40, seed: int = 0,
                 per_kind: int | None = None) -> list[Panel]:
    """The table's and the page's coach panels and the hint, at every decision of
    :func:`decisions` (at most ``per_kind`` of each kind)."""
    from ..teaching.practice.coach import coach_decision, coach_hint

    out: list[Panel] = []
    seen = dict.fromkeys(KINDS, 0)
    for state, action in decisions(hands, seed):
        kind = kind_of(state)
        if per_kind is not None and seen[kind] >= per_kind:
            continue
        seen[kind] += 1
        verdict = coach_decision(state, action, samples=samples)
        body = verdict.headline
        best = verdict.grade == "Best" or verdict.forced
        if not best:
            body += "\n" + verdict.reason
        out.append(Panel("table", kind, body, best))
        out.append(Panel("page", kind, page_text(verdict), best))
        out.append(Panel("widget", kind, widget_text(verdict), best))
        out.append(Panel("night", kind, verdict.headline, best))
        out.append(Panel("hint", kind, f"{HINT_TITLE}: {coach_hint(state, samples=samples).text}"))
    return out


HINT_TITLE = "Hint (this decision will not be graded)"
"""The title every table shows a hint under (the terminal's panel, the page's and the
notebook's box)."""


def _text_of(box: str) -> str:
    """A coach box's words as the learner reads them, what opens on request left out."""
    box = re.sub(r"</summary>.*?</details>", "", box, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", box))


def page_text(verdict: CoachVerdict) -> str:
    """The page's coach box as the learner reads it: its text, what opens on request (the
    figures' meaning under the deals line) left out."""
    from ..apps.web import WebApp

    return _text_of(WebApp._coach_html(cast(WebApp, None), verdict))


def widget_text(verdict: CoachVerdict) -> str:
    """The notebook table widget's coach box as the learner reads it (the figures' meaning,
    on request, left out)."""
    from ..apps.table_widget import TableWidget

    return _text_of(TableWidget._coach_html(cast(TableWidget, None), verdict))


_PUZZLE_KINDS = {"bid": "call", "trump": "trump", "mode": "mode", "discard": "exchange",
                 "send": "exchange", "defense": "defense", "play": "card"}


def puzzle_panels() -> list[Panel]:
    """The puzzle feedback after the right answer and after the tempting one, for every
    puzzle of the bank (a first, rated attempt, a theme that comes back tomorrow)."""
    from ..render.puzzles import feedback_lines
    from ..teaching.puzzles.bank import bank_puzzles
    from ..teaching.puzzles.glicko import Rating
    from ..teaching.puzzles.session import Answer
    from ..teaching.puzzles.store import AttemptResult

    at = datetime(2026, 1, 1, tzinfo=UTC)
    out = []
    for p in bank_puzzles():
        for action, right in ((p.answers[0], True), (p.tempting, False)):
            result = AttemptResult(right, True, Rating(), Rating(1510.0), Rating(), Rating(),
                                   None if right else at.replace(day=2), at)
            answer = Answer(p, action, right, result, 0, False)
            out.append(Panel("puzzle", _PUZZLE_KINDS[p.kind],
                             "\n".join(feedback_lines(answer))))
    return out


_DRILL_KINDS = {"bid": "call", "defend": "defense", "exchange": "exchange"}


def drill_panels() -> list[Panel]:
    """The judgement drill's panel after the right answer and after each wrong one the
    rules allow (shown with the answer, as the drill shows a miss), for every screened
    position."""
    from ..teaching.drills.screened import load_screened, step_of

    out = []
    for kinds in load_screened().get("positions", {}).values():
        for drill, entries in kinds.items():
            for entry in entries:
                step = step_of(entry)
                kind = _DRILL_KINDS.get(drill) or ("trump" if entry.get("choose") == "trump"
                                                   else "mode")
                right = step.accept[0]
                out.append(Panel("drill", kind, step.judge(right).text))
                for wrong in step.legal_answers():
                    if wrong in step.accept:
                        continue
                    shown = replace(step.judge(wrong), revealed=True)
                    out.append(Panel("drill", kind, shown.text))
    return out


def panels(hands: int = 40, samples: int = 40, seed: int = 0,
           per_kind: int | None = None) -> list[Panel]:
    """Every screen's panels (see the module's text)."""
    return [*coach_panels(hands, samples, seed, per_kind), *puzzle_panels(), *drill_panels()]


def spread(values: list[int]) -> tuple[float, int, int]:
    """(median, 95th percentile, largest) of the word counts."""
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95, ordered[-1]


def table(found: list[Panel]) -> list[str]:
    """The figures as lines: a screen's line, then its kinds'."""
    lines = [f"{'screen':8} {'kind':9} {'panels':>6} {'median':>7} {'p95':>4} {'max':>4}"]
    screens = [(s, False) for s in dict.fromkeys(p.screen for p in found)]
    # the coach's grades of a choice not the best: the panels with a reason
    screens += [(s, True) for s in ("table", "page", "widget")
                if any(p.screen == s for p in found)]
    for screen, worse in screens:
        mine = [p for p in found if p.screen == screen and not (worse and p.best)]
        name = screen + ("-" if worse else "")
        for kind in ("all", *KINDS):
            counts = [p.words for p in mine if kind in ("all", p.kind)]
            if counts:
                med, p95, top = spread(counts)
                lines.append(f"{name:8} {kind:9} {len(counts):6} {med:7.1f} {p95:4} {top:4}")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m pepper_tutor.bench panels",
                                     description="Words per coach panel, per screen and kind.")
    parser.add_argument("--hands", type=int, default=40, help="hands dealt (default 40)")
    parser.add_argument("--samples", type=int, default=40,
                        help="deals each grade and hint is read from (default 40)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--per-kind", type=int, default=None,
                        help="at most this many decisions of each kind")
    parser.add_argument("--show", action="store_true", help="print the longest panels")
    args = parser.parse_args(argv)
    found = panels(args.hands, args.samples, args.seed, args.per_kind)
    print("\n".join(table(found)))
    if args.show:
        for screen in dict.fromkeys(p.screen for p in found):
            longest = max((p for p in found if p.screen == screen), key=lambda p: p.words)
            print(f"\n--- the longest {screen} panel ({longest.words} words, "
                  f"{longest.kind}):\n{longest.text}")
