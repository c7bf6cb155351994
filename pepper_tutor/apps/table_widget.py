"""The practice table as a notebook widget: click your cards, the coach grades each decision.

>>> from pepper_tutor import notebook
>>> notebook.table(level="club", coach=True)   # doctest: +SKIP

The same core as ``pepper-tutor play``
(:class:`~pepper_tutor.teaching.practice.table.PracticeTable`).
Every part a test or a browser touches has a stable CSS class: ``pepper-table-score``,
``pepper-table-board``, ``pepper-card-XX`` (your cards), ``pepper-choice-X`` (calls, trumps,
ways of playing, play or surrender), ``pepper-coach``, ``pepper-log``, ``pepper-undo``,
``pepper-ask-coach``, ``pepper-replay-pick``, ``pepper-replay``, ``pepper-review``,
``pepper-next-hand``.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ..engine.calls import Trump
from ..engine.cards import Card
from ..engine.ranking import sort_by_rank
from ..engine.state import Action, Phase
from ..render.cards_html import trick_html
from ..rulebook.verdict import Verdict, action_text
from .widget_parts import _button, _Guard

if TYPE_CHECKING:  # the table core loads the analysis: only when a table is made
    from ..teaching.practice.coach import CoachVerdict
    from ..teaching.practice.table import Decision, PracticeTable

__all__ = ["TableWidget", "table"]

_GRADE_COLOUR = {"Best": "#1f8f4e", "Good": "#2e7d32", "Inaccuracy": "#b8860b",
                 "Mistake": "#d35400", "Blunder": "#c0392b"}
_e = html.escape


def _slug(action: Action) -> str:
    return str(action).replace(" ", "-")


class TableWidget(widgets.VBox):  # type: ignore[misc]
    """A match at the practice table, in a notebook."""

    def __init__(self, table: PracticeTable) -> None:
        super().__init__()
        self.add_class("pepper-table")
        self.table = table
        self.score = widgets.HTML()
        self.board = widgets.HTML()
        self.prompt = widgets.HTML()
        self.hand = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.hand.add_class("pepper-hand")
        self.choices = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.choices.add_class("pepper-choices")
        self.coach_box = widgets.HTML()
        self.log_box = widgets.HTML()
        self.review = widgets.HTML()
        for w, c in ((self.score, "pepper-table-score"), (self.board, "pepper-table-board"),
                     (self.prompt, "pepper-prompt"), (self.coach_box, "pepper-coach"),
                     (self.log_box, "pepper-log"), (self.review, "pepper-review")):
            w.add_class(c)
        self.guard = _Guard(lambda m: setattr(self.coach_box, "value", m))
        self.undo_button = _button("↶ Take back", "pepper-undo")
        self.ask_button = _button("Ask the coach", "pepper-ask-coach")
        self.replay_pick = widgets.Dropdown(description="Replay from", options=[],
                                            layout=widgets.Layout(width="320px"))
        self.replay_pick.add_class("pepper-replay-pick")
        self.replay_button = _button("Replay", "pepper-replay")
        self.next_button = _button("Next hand ▶", "pepper-next-hand", button_style="primary")
        self.coach_toggle = widgets.Checkbox(value=table.coach, description="Coach every "
                                             "decision", indent=False)
        self.coach_toggle.add_class("pepper-coach-toggle")
        self.undo_button.on_click(self.guard(lambda _b: self._take_back()))
        self.ask_button.on_click(self.guard(lambda _b: self._ask()))
        self.replay_button.on_click(self.guard(lambda _b: self._replay()))
        self.next_button.on_click(self.guard(lambda _b: self._next()))
        self.coach_toggle.observe(self.guard(lambda c: setattr(self.table, "coach", c["new"])),
                                  names="value")
        self.lines: list[str] = [_e(w) for w in self._opening()]
        self._say(table.decisions)
        self.children = [self.score, self.board, self.prompt, self.hand, self.choices,
                         self.coach_box, self.log_box, self.review,
                         widgets.HBox([self.undo_button, self.ask_button, self.coach_toggle]),
                         widgets.HBox([self.replay_pick, self.replay_button, self.next_button])]
        self._render()

    @property
    def errors(self) -> list[BaseException]:
        return self.guard.errors

    def _opening(self) -> list[str]:
        t = self.table
        warn = [t.warning] if t.warning else []
        return [*warn, f"You sit {t.seat.word}; computer players at {t.level} level. "
                       f"{t.rules.name.capitalize()} rules, match to {t.rules.target}."]

    # ---- drawing ---------------------------------------------------------------------------

    def _render(self) -> None:
        t, s = self.table, self.table.state
        totals = ", ".join(f"{_e(side)}{' (you)' if side == t.learner_side else ''} {p}"
                           for side, p in t.match.totals.items())
        self.score.value = (f"<b>Hand {t.hand_number}</b> · match to {t.rules.target}: "
                            f"{totals}")
        rows = [("Dealer", _e(t.player_name(s.dealer))),
                ("Auction", _e(", ".join(f"{seat} {bid.display}" for seat, bid in s.calls))
                 or "(nobody has spoken yet)")]
        if s.trump is not None:
            rows.append(("Contract", _e(t.contract_text())))
        if s.sitting_out is not None:
            rows.append(("Sits out", _e(t.player_name(s.sitting_out))))
        if s.phase is Phase.PLAY and s.current_trick:
            seats = [seat for seat, _ in s.current_trick]
            rows.append((f"Trick {len(s.tricks) + 1}",
                         trick_html([c for _, c in s.current_trick], s.trump, seats,
                                    left_bower=s.rules.left_bower)))
        elif s.tricks:
            last = s.tricks[-1]
            rows.append((f"Trick {last.number}",
                         trick_html(last.cards, s.trump, last.seats, last.winning_index,
                                    left_bower=s.rules.left_bower)
                         + f"won by {_e(t.player_name(last.winner))}"))
        if s.tricks or s.phase is Phase.PLAY:
            rows.append(("Tricks", _e(", ".join(f"{side} {n}"
                                                for side, n in s.tricks_won().items()))))
        self.board.value = ('<table class="pepper-board" style="border-collapse:collapse">'
                            + "".join(f'<tr><td style="color:#666;padding:2px 10px 2px 0;'
                                      f'vertical-align:top">{k}</td><td>{v}</td></tr>'
                                      for k, v in rows) + "</table>")
        self._buttons()
        self.log_box.value = ('<div style="font-size:90%;color:#333;line-height:1.35">'
                              + "<br>".join(self.lines[-8:]) + "</div>")
        self.undo_button.disabled = not t.learner_decisions
        self.ask_button.disabled = not t.learner_decisions
        options = [(f"{i}. {d.kind}: {action_text(d.action)}", i)
                   for i, d in enumerate(t.learner_decisions, 1)]
        self.replay_pick.options = options
        self.replay_button.disabled = not options
        self.next_button.disabled = not t.hand_over or t.match.over
        if t.hand_over:
            self._show_review()
        else:
            self.review.value = ""

    def _buttons(self) -> None:
        t, s = self.table, self.table.state
        hand = sort_by_rank(s.hand(t.seat), s.trump if s.trump is not None else Trump.NT)
        card_phase = s.phase in (Phase.PLAY, Phase.DISCARD, Phase.SEND)
        yours = t.learner_to_act
        from ..teaching.practice.table import phase_prompt

        self.prompt.value = (f"<b>{_e(phase_prompt(s))}</b>" if yours else
                             "" if t.hand_over else "<i>The computer players are thinking…</i>")
        buttons = []
        for card in hand:
            b = _button(card.display, "pepper-card", f"pepper-card-{card}")
            b.style.text_color = "#c8102e" if card.is_red else "#1a1a1a"
            b.style.font_weight = "bold"
            b.layout = widgets.Layout(width="58px", height="46px")
            b.disabled = not (yours and card_phase)
            b.on_click(self.guard(lambda _b, c=card: self._act(c)))
            buttons.append(b)
        self.hand.children = buttons
        choices = []
        if yours and not card_phase:
            for action in s.legal_actions():
                label = (action.word if isinstance(action, Trump) else action_text(action))
                b = _button(label, "pepper-choice", f"pepper-choice-{_slug(action)}")
                b.on_click(self.guard(lambda _b, a=action: self._act(a)))
                choices.append(b)
        self.choices.children = choices

    def _coach_html(self, coach: CoachVerdict) -> str:
        colour = _GRADE_COLOUR[coach.grade.value]
        reason = "" if coach.grade.value == "Best" else f"<div>{_e(coach.reason)}</div>"
        return (f'<div class="pepper-fb pepper-grade-{coach.grade.value.lower()}" '
                f'style="border-left:5px solid {colour};padding:4px 10px;margin:4px 0">'
                f'<b style="color:{colour}">{_e(coach.headline)}</b>{reason}</div>')

    def _verdict_html(self, verdict: Verdict, action: Action) -> str:
        what = f"the {action.display}" if isinstance(action, Card) else action_text(action)
        rules = "".join(f'<div style="color:#666"><code>{_e(r.id)}</code> {_e(r.text)}</div>'
                        for r in verdict.rules)
        return (f'<div class="pepper-fb wrong" style="border-left:5px solid #c0392b;'
                f'padding:4px 10px"><b>Not allowed: {_e(what)}.</b> '
                f'{_e(" ".join(verdict.facts))}{rules}</div>')

    def _say(self, moves: list[Decision] | tuple[Decision, ...]) -> None:
        """Log the actions, and who won each trick as it ends."""
        t = self.table
        size = len(t.state.active_seats)
        for d in moves:
            self.lines.append(f"You: {_e(d.text)}" if d.learner else
                              f"{_e(t.player_name(d.seat))} {_e(d.words)}")
            n = d.where[0]
            if d.phase is Phase.PLAY and d.where[1] == size and n <= len(t.state.tricks):
                trick = t.state.tricks[n - 1]
                self.lines.append(f"<b>Trick {n}: {_e(t.player_name(trick.winner))} won with "
                                  f"the {_e(trick.cards[trick.winning_index].display)}</b>")

    def _show_review(self) -> None:
        t = self.table
        review = t.review()
        parts = [f"<h4 style='margin:6px 0'>After the hand</h4><p><b>{_e(t.result_text())}</b>"
                 f"</p><p>{_e(review.summary)}</p>"]
        if review.worst:
            parts.append("<p><b>Your costliest decisions</b></p><ol>")
            for d in review.worst:
                assert d.coach is not None
                parts.append(f"<li>{_e(d.kind)}: {_e(action_text(d.action))}"
                             f"{self._coach_html(d.coach)}</li>")
            parts.append("</ol>")
        graded = {d.where: d for d in t.decisions if d.phase is Phase.PLAY and d.coach}
        left = t.state.rules.left_bower
        for trick in review.tricks:
            marks = []
            for i in range(len(trick.cards)):
                g = graded.get((trick.number, i + 1))
                marks.append(f"{trick.seats[i].word} {g.coach.grade.glyph}"
                             if g is not None and g.coach is not None else trick.seats[i].word)
            shown = trick_html(trick.cards, t.state.trump, (), trick.winning_index,
                               left_bower=left)
            parts.append(f'<div class="pepper-review-trick">Trick {trick.number}: won by '
                         f"{_e(t.player_name(trick.winner))}{shown}"
                         f'<div style="color:#666;font-size:85%">'
                         f"{_e(' · '.join(marks))}</div></div>")
        if t.match.over:
            parts.append(f"<p><b>The match is over: {_e(str(t.match.winner))} won.</b></p>")
        self.review.value = "".join(parts)

    # ---- actions ---------------------------------------------------------------------------

    def _act(self, action: Action | Card) -> None:
        result = self.table.act(action)
        if not result.verdict.legal:
            self.coach_box.value = self._verdict_html(result.verdict, action)
            return
        mine = self.table.learner_decisions[-1]
        self._say([mine])
        coach = result.coach
        self.coach_box.value = ("" if coach is None or coach.forced
                                else self._coach_html(coach))
        self._say(result.replies)
        self._render()

    def _ask(self) -> None:
        coach = self.table.grade_last()
        if coach is not None:
            self.coach_box.value = self._coach_html(coach)

    def _take_back(self) -> None:
        d = self.table.take_back()
        self.lines.append(f"<i>You took back {_e(action_text(d.action))}.</i>")
        self.coach_box.value = ""
        self._render()

    def _replay(self) -> None:
        number = self.replay_pick.value
        if number is None:
            return
        d = self.table.replay_from(int(number))
        self.lines.append(f"<i>Back to your decision {number} ({_e(action_text(d.action))}): "
                          "same cards, choose again.</i>")
        self.coach_box.value = ""
        self._render()

    def _next(self) -> None:
        t = self.table
        result = t.next_hand()
        self.lines = [f"<b>Hand {result.number} counted:</b> "
                      + _e(", ".join(f"{s} {p}" for s, p in result.totals.items()))]
        if t.history_news:  # the history could not take the hand (kept), or took it again
            self.lines.append(f"<i>{_e(t.history_news)}</i>")
        self._say(t.decisions)
        self.coach_box.value = ""
        self._render()


def table(level: str = "club", rules: str = "standard", seat: str = "S", coach: bool = True,
          seed: int | None = None, samples: int = 40, save_dir: Any = None,
          keep: bool = True) -> TableWidget:
    """A match at the practice table: ``notebook.table(level="club", coach=True)``.

    Each finished hand is saved (``save_dir``, default ``table-hands`` under your tutor
    home) and added to your history; ``keep=False`` keeps nothing (for a demonstration)."""
    from ..teaching.practice.history import history_path
    from ..teaching.practice.table import PracticeTable

    folder = save_dir if save_dir is not None else history_path().parent / "table-hands"
    return TableWidget(PracticeTable(rules, seat, level, coach=coach, seed=seed,
                                     coach_samples=samples, save_dir=folder if keep else None,
                                     history=keep))
