"""The practice table as a notebook widget: click your cards, the coach grades each decision.

>>> from pepper_tutor import notebook
>>> notebook.table(level="club", coach=True)   # doctest: +SKIP

The same core as ``pepper-tutor play``
(:class:`~pepper_tutor.teaching.practice.table.PracticeTable`).
Every part a test or a browser touches has a stable CSS class: ``pepper-table-score``,
``pepper-table-board``, ``pepper-card-XX`` (your cards), ``pepper-choice-X`` (calls, trumps,
ways of playing, play or surrender), ``pepper-coach``, ``pepper-log``, ``pepper-undo``,
``pepper-ask-coach``, ``pepper-hint``, ``pepper-replay-pick``, ``pepper-replay``,
``pepper-review``, ``pepper-next-hand``; the seats are ``pepper-seat-N`` ... ``pepper-seat-W``
(with ``pepper-role-you`` / ``-partner`` / ``-opponent`` and ``pepper-to-act``) inside
``pepper-seats``; the offer to resume a match is ``pepper-resume-offer`` with the buttons
``pepper-resume`` and ``pepper-new-match``.

The game layer, as on the Play and learn page (where JupyterLab allows): every event of the
hand said once, in words, in a polite live region (``pepper-said``: a card is "the jack of
diamonds, the left bower"; JupyterLab gives a widget no attributes of its own, so the region
is the widget's content, written anew at each event); **Read my hand** (``pepper-read-hand``)
says the hand suit by suit; a typed command line (``pepper-command``) takes what the
terminal's table takes (a card, a call, ``hand``, ``choices``, ``table``, ``hint``,
``coach``, ``undo``, ``review``, ``next``, ``help``); **Large print** (``pepper-large-toggle``)
and **Confirm each decision** (``pepper-confirm-toggle``: a card or a call counts when chosen
again, or on ``yes``; ``pepper-confirm`` confirms).

Readable in JupyterLab's light and dark themes: text takes the theme's colours (its CSS
variables), the cards are white faces with black or red print (contrast 5.9:1 and more), and a
disabled button is drawn flat and dashed, so it does not look clickable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ..engine.calls import Trump
from ..engine.cards import Card
from ..engine.ranking import sort_by_rank
from ..engine.state import Action, Phase
from ..render.card_words import spelled_cards
from ..render.cards_html import label as card_label
from ..render.cards_html import trick_html
from ..render.plain import html_text
from ..render.spoken import hand_words, order_words
from ..render.table_html import seats_html
from ..render.table_words import event_sentence, table_sentence, turn_sentence
from ..rulebook.verdict import Verdict, action_text
from .widget_parts import _button, _Guard

if TYPE_CHECKING:  # the table core loads the analysis: only when a table is made
    from ..teaching.practice.coach import CoachVerdict, Hint
    from ..teaching.practice.history import SavedMatch
    from ..teaching.practice.table import Decision, PracticeTable

__all__ = ["TableWidget", "table"]

_GRADE_COLOUR = {"Best": "#1f8f4e", "Good": "#2e7d32", "Inaccuracy": "#b8860b",
                 "Mistake": "#d35400", "Blunder": "#c0392b"}
_e = html_text

# Scoped to the table. Text uses JupyterLab's theme variables (with light fallbacks outside
# Lab); a card is a white face in either theme, so its print keeps its contrast; a disabled
# button loses its colour and gets a dashed border instead of the default faded look, which
# in the dark theme made "Next hand" look clickable.
_CSS = """<style>
.pepper-table{color:var(--jp-ui-font-color0,#111)}
.pepper-table .pepper-muted{color:var(--jp-ui-font-color1,#333)}
.pepper-table .pepper-log div{color:var(--jp-ui-font-color1,#333)}
.pepper-seats{display:grid;grid-template-columns:repeat(3,minmax(150px,190px));gap:6px;
  margin:6px 0;align-items:center;justify-items:center}
.pepper-seat{border:2px solid var(--jp-border-color1,#999);border-radius:9px;padding:4px 8px;
  min-width:130px;text-align:center;background:var(--jp-layout-color1,#fff);
  color:var(--jp-ui-font-color0,#111)}
.pepper-seat .pepper-seat-name{font-weight:bold}
.pepper-seat .pepper-seat-tags{font-size:90%;color:var(--jp-ui-font-color1,#333)}
.pepper-seat.pepper-role-partner,.pepper-seat.pepper-role-you{border-color:#2e7d32}
.pepper-seat.pepper-role-opponent{border-color:#b23a3a}
.pepper-seat.pepper-to-act{box-shadow:0 0 0 3px var(--jp-brand-color1,#1976d2)}
.pepper-seat-N{grid-column:2;grid-row:1}.pepper-seat-W{grid-column:1;grid-row:2}
.pepper-seat-E{grid-column:3;grid-row:2}.pepper-seat-S{grid-column:2;grid-row:3}
.pepper-trick-label{grid-column:2;grid-row:2;color:var(--jp-ui-font-color1,#333)}
.pepper-seat .pepper-nocard{display:inline-block;width:44px;height:62px;border:1px dashed
  var(--jp-border-color1,#999);border-radius:5px}
.pepper-table .pepper-hand button.pepper-card{background:#fff!important;color:#1a1a1a!important;
  border:1px solid #767676!important;border-radius:7px;width:56px;height:78px;font-size:19px;
  font-weight:bold;opacity:1!important;box-shadow:0 1px 3px rgba(0,0,0,.4);margin:2px;
  padding:0!important;text-overflow:clip!important;overflow:visible!important}
.pepper-table .pepper-hand button.pepper-card.pepper-red{color:#c8102e!important}
.pepper-table .pepper-hand button.pepper-card:not(:disabled):hover{box-shadow:0 0 0 3px
  var(--jp-brand-color1,#1976d2)}
.pepper-table .pepper-hand button.pepper-card:disabled{cursor:default;box-shadow:none}
.pepper-table button.jupyter-button:disabled:not(.pepper-card){opacity:1!important;
  background:transparent!important;color:var(--jp-ui-font-color1,#333)!important;
  border:1px dashed var(--jp-border-color1,#999)!important;box-shadow:none!important;
  cursor:not-allowed}
.pepper-table .pepper-said{position:absolute!important;width:1px;height:1px;overflow:hidden;
  clip:rect(0 0 0 0);white-space:nowrap}
.pepper-table.pepper-large{font-size:150%}
.pepper-table.pepper-large .widget-html,.pepper-table.pepper-large .widget-label{
  font-size:inherit;line-height:1.4}
.pepper-table.pepper-large button.jupyter-button:not(.pepper-card){font-size:130%;
  min-height:44px;min-width:44px;height:auto;width:auto!important;max-width:none;
  overflow:visible;text-overflow:clip;white-space:normal}
.pepper-table.pepper-large .widget-label,.pepper-table.pepper-large .widget-label-basic,
.pepper-table.pepper-large .widget-checkbox label{font-size:inherit;width:auto!important;
  max-width:none;overflow:visible;text-overflow:clip}
.pepper-table.pepper-large .widget-text input,.pepper-table.pepper-large select{
  font-size:inherit;height:auto;min-height:44px}
.pepper-table.pepper-large .pepper-hand button.pepper-card{width:84px;height:117px;
  font-size:28px}
.pepper-table button.pepper-chosen{box-shadow:0 0 0 4px var(--jp-brand-color1,#1976d2)!important;
  font-weight:bold}
.pepper-table .pepper-grade-text.pepper-grade-best{color:#1b6e3c}
.pepper-table .pepper-grade-text.pepper-grade-good{color:#1e6b2e}
.pepper-table .pepper-grade-text.pepper-grade-inaccuracy{color:#8a6508}
.pepper-table .pepper-grade-text.pepper-grade-mistake{color:#a84300}
.pepper-table .pepper-grade-text.pepper-grade-blunder{color:#a93226}
body[data-jp-theme-light="false"] .pepper-table .pepper-grade-text.pepper-grade-best{color:#7be39c}
body[data-jp-theme-light="false"] .pepper-table .pepper-grade-text.pepper-grade-good{color:#8fd694}
body[data-jp-theme-light="false"] .pepper-table .pepper-grade-text.pepper-grade-inaccuracy{
  color:#f0c850}
body[data-jp-theme-light="false"] .pepper-table .pepper-grade-text.pepper-grade-mistake{
  color:#ff9a52}
body[data-jp-theme-light="false"] .pepper-table .pepper-grade-text.pepper-grade-blunder{
  color:#ff7b6b}
</style>"""


def _slug(action: Action) -> str:
    return str(action).replace(" ", "-")


class TableWidget(widgets.VBox):  # type: ignore[misc]
    """A match at the practice table, in a notebook."""

    def __init__(self, table: PracticeTable, offer: SavedMatch | None = None) -> None:
        super().__init__()
        self.add_class("pepper-table")
        self.table = table
        self.offer = offer
        self.css = widgets.HTML(_CSS)
        self.score = widgets.HTML()
        self.board = widgets.HTML()
        self.seats = widgets.HTML()
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
                     (self.seats, "pepper-seats-box"),
                     (self.log_box, "pepper-log"), (self.review, "pepper-review")):
            w.add_class(c)
        self.guard = _Guard(lambda m: setattr(self.coach_box, "value", m))
        self.undo_button = _button("↶ Take back", "pepper-undo")
        self.ask_button = _button("Ask the coach", "pepper-ask-coach",
                                  tooltip="The coach's grade of your last decision")
        self.hint_button = _button("Hint", "pepper-hint",
                                   tooltip="The coach suggests this decision, and says why "
                                           "(it is then not graded)")
        # the game layer: the live region, the hand read aloud, the typed line, the settings
        self.said = widgets.HTML()
        self.said.add_class("pepper-said")
        self.speech: list[str] = []  # what this event says, said at its end (_speak)
        self.read_button = _button("Read my hand", "pepper-read-hand",
                                   tooltip="Your hand in words, suit by suit")
        self.command = widgets.Text(description="Command", placeholder="a card, a call, or "
                                    "help", continuous_update=False,
                                    layout=widgets.Layout(width="420px"))
        self.command.add_class("pepper-command")
        self.large_toggle = widgets.Checkbox(value=False, description="Large print",
                                             indent=False)
        self.large_toggle.add_class("pepper-large-toggle")
        self.confirm_toggle = widgets.Checkbox(value=False, description="Confirm each "
                                               "decision", indent=False)
        self.confirm_toggle.add_class("pepper-confirm-toggle")
        self.pending: Action | None = None  # chosen, waiting to be confirmed
        self.confirm_button = _button("Confirm", "pepper-confirm", button_style="primary")
        self.resume_text = widgets.HTML()
        self.resume_button = _button("Resume it", "pepper-resume", button_style="primary")
        self.new_button = _button("Start a new match", "pepper-new-match")
        self.resume_box = widgets.HBox([self.resume_text, self.resume_button, self.new_button])
        self.resume_box.add_class("pepper-resume-offer")
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
        self.hint_button.on_click(self.guard(lambda _b: self._hint()))
        self.resume_button.on_click(self.guard(lambda _b: self._resume()))
        self.new_button.on_click(self.guard(lambda _b: self._decline()))
        self.replay_button.on_click(self.guard(lambda _b: self._replay()))
        self.next_button.on_click(self.guard(lambda _b: self._next()))
        self.coach_toggle.observe(self.guard(lambda c: setattr(self.table, "coach", c["new"])),
                                  names="value")
        self.read_button.on_click(self.guard(lambda _b: self._spoken(self._hand_said())))
        self.command.observe(self.guard(lambda c: self._typed(c["new"])), names="value")
        self.large_toggle.observe(self.guard(lambda c: self._large(c["new"])), names="value")
        self.confirm_toggle.observe(self.guard(lambda c: self._confirming(c["new"])),
                                    names="value")
        self.confirm_button.on_click(self.guard(lambda _b: self._confirm()))
        self.lines: list[str] = [_e(w) for w in self._opening()]
        self.speech = list(self._opening())
        self._say(table.decisions)
        self._layout()
        self._render()
        self._spoken(self._turn_said())

    def _layout(self) -> None:
        offer = [self.resume_box] if self.offer is not None else []
        if self.offer is not None:
            self.resume_text.value = (f"<b>You have a match in progress</b> "
                                      f"({_e(self.offer.summary)}). ")
        self.children = [self.css, self.said, *offer, self.score, self.board, self.seats,
                         self.prompt, self.hand, self.choices, self.coach_box, self.log_box,
                         self.review,
                         widgets.HBox([self.hint_button, self.undo_button, self.ask_button,
                                       self.coach_toggle]),
                         widgets.HBox([self.replay_pick, self.replay_button, self.next_button]),
                         widgets.HBox([self.command, self.read_button],
                                      layout=widgets.Layout(flex_flow="row wrap")),
                         widgets.HBox([self.large_toggle, self.confirm_toggle])]

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
        rows.append(("Contract", _e(t.contract_text()) if s.trump is not None else
                     f"{_e(t.contract_text())} so far, trumps not named yet"
                     if s.bidder is not None else "none yet (the auction is on)"))
        exchange = t.exchange_text()
        if exchange:
            rows.append(("Exchange", _e(exchange)))
        if s.sitting_out is not None:
            rows.append(("Sits out", _e(t.player_name(s.sitting_out))))
        if s.tricks and not s.current_trick:
            last = s.tricks[-1]
            rows.append((f"Trick {last.number}", f"won by {_e(t.player_name(last.winner))}"))
        if s.tricks or s.phase is Phase.PLAY:
            rows.append(("Tricks", _e(", ".join(f"{side} {n}"
                                                for side, n in s.tricks_won().items()))))
        self.board.value = ('<table class="pepper-board" style="border-collapse:collapse">'
                            + "".join(f'<tr><td class="pepper-muted" style="padding:2px 10px '
                                      f'2px 0;vertical-align:top">{k}</td><td>{v}</td></tr>'
                                      for k, v in rows) + "</table>")
        self.seats.value = self._seats_html()
        self._buttons()
        self.log_box.value = ('<div style="font-size:90%;line-height:1.35">'
                              + "<br>".join(self.lines[-8:]) + "</div>")
        self.hint_button.disabled = not t.learner_to_act
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

    def _seats_html(self) -> str:
        return seats_html(self.table)

    def _buttons(self) -> None:
        t, s = self.table, self.table.state
        hand = sort_by_rank(s.hand(t.seat), s.trump if s.trump is not None else Trump.NT)
        card_phase = s.phase in (Phase.PLAY, Phase.DISCARD, Phase.SEND)
        yours = t.learner_to_act
        from ..teaching.practice.table import phase_prompt

        self.prompt.value = (f"<b>{_e(phase_prompt(s))}</b>" if yours else
                             "" if t.hand_over else "<i>The computer players are thinking…</i>")
        buttons = []
        chosen = self.pending if yours and self.pending in s.legal_actions() else None
        for card in hand:
            # the card in words as its tooltip: the one label JupyterLab lets a button carry
            b = _button(card.display, "pepper-card", f"pepper-card-{card}",
                        "pepper-red" if card.is_red else "pepper-black",
                        *(("pepper-chosen",) if card == chosen else ()),
                        tooltip=card_label(card, s.trump, s.rules.left_bower))
            b.disabled = not (yours and card_phase)
            b.on_click(self.guard(lambda _b, c=card: self._choose(c)))
            buttons.append(b)
        self.hand.children = buttons
        choices = []
        if yours and not card_phase:
            for action in s.legal_actions():
                label = (action.word if isinstance(action, Trump) else action_text(action))
                b = _button(label, "pepper-choice", f"pepper-choice-{_slug(action)}",
                            *(("pepper-chosen",) if action == chosen else ()))
                b.on_click(self.guard(lambda _b, a=action: self._choose(a)))
                choices.append(b)
        if chosen is not None:
            self.confirm_button.description = f"Confirm: {order_words(s, chosen).lower()}"
            choices.append(self.confirm_button)
        self.choices.children = choices

    def _coach_html(self, coach: CoachVerdict) -> str:
        colour = _GRADE_COLOUR[coach.grade.value]  # the stripe; the words take the theme's
        grade = coach.grade.value.lower()
        reason = ""
        if coach.grade.value != "Best" and not coach.forced:
            from ..analysis.reasons import figures_meaning

            # what the figures mean, on request, under the reason
            reason = (f"<div>{_e(coach.reason)}</div><details class=\"pepper-muted\"><summary>"
                      f"What the figures mean</summary>{_e(figures_meaning(coach.samples))}"
                      "</details>")
        return (f'<div class="pepper-fb pepper-grade-{grade}" '
                f'style="border-left:5px solid {colour};padding:4px 10px;margin:4px 0">'
                f'<b class="pepper-grade-text pepper-grade-{grade}">{_e(coach.headline)}</b>'
                f"{reason}</div>")

    def _verdict_html(self, verdict: Verdict, action: Action | str) -> str:
        what = (f"the {action.display}" if isinstance(action, Card) else
                repr(action) if isinstance(action, str) else action_text(action))
        from ..rulebook.book import rule_tag

        # The rule quoted in words; its id only in the opt-in rule ids view.
        rules = "".join(f'<div class="pepper-muted">{_e(rule_tag(r.id))}{_e(r.text)}</div>'
                        for r in verdict.rules)
        return (f'<div class="pepper-fb wrong" style="border-left:5px solid #c0392b;'
                f'padding:4px 10px"><b>Not allowed: {_e(what)}.</b> '
                f'{_e(" ".join(verdict.facts))}{rules}</div>')

    def _spoken(self, *lines: str) -> None:
        """Say ``lines`` in the live region now (with what this event said already), each
        card in words; the event's words are then forgotten, so nothing is said twice."""
        said = " ".join(x for x in (*self.speech, *lines) if x)
        self.speech = []
        self.said.value = (f'<div class="pepper-said-text" role="status" aria-live="polite">'
                           f"{_e(spelled_cards(said))}</div>")

    def _hand_said(self) -> str:
        s = self.table.state
        return hand_words(s.hand(self.table.seat), s.trump, s.rules.left_bower)

    def _turn_said(self) -> str:
        t = self.table
        if t.hand_over:
            return f"The hand is over. {t.result_text()}"
        return turn_sentence(t)

    def _say(self, moves: list[Decision] | tuple[Decision, ...]) -> None:
        """Log the actions, and who won each trick as it ends; each said once, in words."""
        t = self.table
        size = len(t.state.active_seats)
        self.speech.extend(event_sentence(t, d) for d in moves)
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
                         f'<div class="pepper-muted" style="font-size:85%">'
                         f"{_e(' · '.join(marks))}</div></div>")
        if t.match.over:
            parts.append(f"<p><b>The match is over: {_e(str(t.match.winner))} won.</b></p>")
        self.review.value = "".join(parts)

    # ---- actions ---------------------------------------------------------------------------

    def _choose(self, action: Action | Card) -> None:
        """A card or a choice clicked (or typed): it counts at once, or with **Confirm each
        decision** on, when chosen again (or confirmed)."""
        if self.confirm_toggle.value and self.pending != action:
            self.pending = action
            what = "card" if isinstance(action, Card) else "choice"
            self._spoken(f"{order_words(self.table.state, action)}? Choose it again, press "
                         f"Confirm or type yes; or choose another {what}.")
            self._buttons()
            return
        self._act(action)

    def _confirm(self) -> None:
        if self.pending is None:
            self._spoken("Nothing is waiting to be confirmed.")
        else:
            self._act(self.pending)

    def _cancel(self) -> None:
        if self.pending is None:
            self._spoken("Nothing is waiting to be confirmed.")
        else:
            self.pending = None
            self._spoken("Not done: choose again.")
            self._buttons()

    def _confirming(self, on: bool) -> None:
        self.pending = None
        self._spoken(f"Confirm each decision: {'on' if on else 'off'}.")
        self._buttons()

    def _large(self, on: bool) -> None:
        if on:
            self.add_class("pepper-large")
        else:
            self.remove_class("pepper-large")
        self._spoken(f"Large print: {'on' if on else 'off'}.")

    def _act(self, action: Action | Card | str) -> None:
        self.pending = None
        result = self.table.act(action)
        if not result.verdict.legal:
            from .web import WebApp  # the page's words for a refusal, said the same here

            self.coach_box.value = self._verdict_html(result.verdict, action)
            self._spoken(WebApp.refusal_words(result.verdict, action))
            self._buttons()
            return
        mine = self.table.learner_decisions[-1]
        self._say([mine])
        coach = result.coach
        self.coach_box.value = ("" if coach is None or coach.forced
                                else self._coach_html(coach))
        if coach is not None and not coach.forced:
            self.speech.append(f"Coach: {coach.headline}"
                               + ("" if coach.grade.value == "Best" else f" {coach.reason}"))
        self._say(result.replies)
        self._render()
        self._spoken(self._turn_said())

    # ---- the typed command line ------------------------------------------------------------

    def _typed(self, line: str) -> None:
        """A line typed and entered, read as the terminal's table reads it."""
        from ..teaching.questions.commands import read_command
        from .table import TABLE_COMMANDS
        from .web import PAGE_COMMANDS, TABLE_HELP

        if not line.strip():
            return
        self.command.value = ""  # ready for the next line (observed: an empty one is skipped)
        t = self.table

        def is_decision(raw: str) -> bool:
            return not t.hand_over and t.learner_to_act and t.check(raw).legal

        command = read_command(line, (*TABLE_COMMANDS, *PAGE_COMMANDS), is_decision)
        said: dict[str | None, Any] = {
            "help": lambda: self._spoken(TABLE_HELP),
            "hand": lambda: self._spoken(self._hand_said()),
            "table": lambda: self._spoken(table_sentence(t)),
            "choices": lambda: self._spoken(turn_sentence(t) or "It is not your turn."),
            "hint": self._hint, "coach": self._ask, "undo": self._take_back,
            "next": self._next,
            "review": lambda: self._spoken(f"{t.result_text()} {t.review().summary}"
                                           if t.hand_over else
                                           "The review comes when the hand is over."),
            "yes": self._confirm,
            "cancel": self._cancel,
            "quit": lambda: self._spoken("Your match is kept: run the cell again to come "
                                         "back to it."),
        }
        if command in said:
            said[command]()
        elif t.hand_over:
            self._spoken("The hand is over: type next for the next hand, or review.")
        elif not t.learner_to_act:
            self._spoken("It is not your turn.")
        else:
            chosen = t.check(line)
            if chosen.legal and chosen.action is not None:
                self._choose(chosen.action)
            else:
                self._act(line)

    def _ask(self) -> None:
        coach = self.table.grade_last()
        mine = self.table.learner_decisions
        if coach is not None:
            self.coach_box.value = self._coach_html(coach)
            self._spoken(f"Coach: {coach.headline} {coach.reason}")
        elif mine and mine[-1].hinted:
            self.coach_box.value = ('<div class="pepper-fb">You asked for a hint on that '
                                    "decision, so it is not graded.</div>")
            self._spoken("You asked for a hint on that decision, so it is not graded.")
        else:
            self._spoken("You have not made a decision this hand yet.")

    def _hint_html(self, hint: Hint) -> str:
        return ('<div class="pepper-fb pepper-hint-text" style="border-left:5px solid '
                'var(--jp-brand-color1,#1976d2);padding:4px 10px;margin:4px 0">'
                f"<b>Hint</b> (this decision will not be graded): {_e(hint.text)}</div>")

    def _hint(self) -> None:
        hint = self.table.hint()
        self.coach_box.value = self._hint_html(hint)
        self._render()
        self._spoken(f"Hint (this decision will not be graded): {hint.text}")

    def _resume(self) -> None:
        from ..teaching.practice.table import PracticeTable

        assert self.offer is not None
        old = self.table
        self.table = PracticeTable.resume(self.offer, coach=old.coach, seed=old.seed,
                                          coach_samples=old.coach_samples,
                                          save_dir=old.save_dir,
                                          history=old.history if old.history else False,
                                          alone=old.alone)
        self.lines = [f"<b>Resumed your match:</b> {_e(self.offer.summary)}."]
        self.speech.append(f"Resumed your match: {self.offer.summary}.")
        self._say(self.table.decisions)
        self.offer = None
        self.coach_box.value = ""
        self._layout()
        self._render()
        self._spoken(self._turn_said())

    def _decline(self) -> None:
        self.offer = None
        self._layout()

    def _take_back(self) -> None:
        d = self.table.take_back()
        self.lines.append(f"<i>You took back {_e(action_text(d.action))}.</i>")
        self.coach_box.value = ""
        self.pending = None
        self._render()
        self._spoken(f"You took back {action_text(d.action)}.", self._turn_said())

    def _replay(self) -> None:
        number = self.replay_pick.value
        if number is None:
            return
        d = self.table.replay_from(int(number))
        self.lines.append(f"<i>Back to your decision {number} ({_e(action_text(d.action))}): "
                          "same cards, choose again.</i>")
        self.coach_box.value = ""
        self.pending = None
        self._render()
        self._spoken(f"Back to your decision {number} ({action_text(d.action)}): same cards, "
                     "choose again.", self._turn_said())

    def _next(self) -> None:
        t = self.table
        if not t.hand_over:
            self._spoken("The hand is not over yet.")
            return
        result = t.next_hand()
        counted = ", ".join(f"{s} {p}" for s, p in result.totals.items())
        self.lines = [f"<b>Hand {result.number} counted:</b> " + _e(counted)]
        self.speech.append(f"Hand {result.number} counted: {counted}.")
        if t.history_news:  # the history could not take the hand (kept), or took it again
            self.lines.append(f"<i>{_e(t.history_news)}</i>")
        self._say(t.decisions)
        self.coach_box.value = ""
        self.pending = None
        self._render()
        self._spoken(self._turn_said())


def table(level: str = "club", rules: str = "standard", seat: str = "S", coach: bool = True,
          seed: int | None = None, samples: int | None = None, save_dir: Any = None,
          keep: bool = True, resume: bool | None = None, alone: str = "analysis"
          ) -> TableWidget:
    """A match at the practice table: ``notebook.table(level="club", coach=True)``.

    ``alone``: when the computer players go alone with the exchange, ``"analysis"`` (unless
    the analysis finds playing with partner clearly better, the default) or ``"rarely"``
    (only when the analysis finds going alone clearly better).

    The coach grades as the drills do, on the same deals seeded from the position
    (:func:`~pepper_tutor.analysis.grading.grade_choice`); ``samples`` deals fewer, for a
    quick demonstration only: a grade on fewer deals is less sure.

    Each finished hand is saved (``save_dir``, default ``table-hands`` under your tutor
    home) and added to your history; ``keep=False`` keeps nothing (for a demonstration).
    A match in progress (the last one not won yet, under these rules) is offered to resume
    (``resume=None``), resumed at once (``True``) or left for later (``False``)."""
    from ..analysis.grading import GRADING_SAMPLES
    from ..teaching.practice.history import HistoryUnreadable, TableHistory, history_path
    from ..teaching.practice.table import PracticeTable

    folder = save_dir if save_dir is not None else history_path().parent / "table-hands"
    deals = GRADING_SAMPLES if samples is None else samples
    history: TableHistory | bool = keep
    saved = None
    if keep:
        try:
            history = TableHistory()
        except HistoryUnreadable:
            history = True  # the table says why, and keeps no history
        else:
            saved = None if resume is False else history.unfinished_match(rules)
    if saved is not None and resume:
        return TableWidget(PracticeTable.resume(saved, coach=coach, seed=seed,
                                                save_dir=folder, history=history,
                                                alone=alone, coach_samples=deals))
    from ..teaching.learner.store import LearnerStore

    store = LearnerStore() if keep else None  # judgements missed become review cards
    return TableWidget(PracticeTable(rules, seat, level, coach=coach, seed=seed,
                                     save_dir=folder if keep else None, history=history,
                                     alone=alone, store=store, coach_samples=deals),
                       offer=saved)
