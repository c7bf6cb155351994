"""Interactive notebook front end (ipywidgets): lessons, quizzes and a hand viewer.

>>> from pepper_tutor import notebook
>>> w = notebook.lesson("bowers")   # doctest: +SKIP

Every widget that a test or a browser touches carries a stable CSS class (``pepper-card``,
``pepper-choice``, ``pepper-submit``, ``pepper-feedback``, ``pepper-next`` ...); a step's answer
buttons sit in ``pepper-answer-for-<step id>``. Callbacks never swallow errors: a failure is
shown in the widget's feedback area and kept in ``.errors``. A click that reaches the buttons of
a step already left (the page draws the next step a moment after the kernel moves on) is
dropped, not taken as an answer to the next step.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

try:
    import ipywidgets as widgets
except ModuleNotFoundError as missing:  # the `notebook` extra of pyproject.toml
    if missing.name != "ipywidgets":
        raise
    raise ImportError("the notebook widgets need ipywidgets, which is not installed: "
                      "pip install 'pepper-tutor[notebook]'") from None

from ..engine.cards import Card
from ..engine.rules import get_ruleset
from ..files import browser_home
from ..files.home import home_is_kept
from ..files.writing import write_bytes
from ..records.annotate import Annotation, annotate
from ..records.hand_record import HandRecord, load_record
from ..render.annotation import to_html
from ..render.cards_html import label
from ..render.plain import html_text
from ..render.steps_html import FEEDBACK_CSS, feedback_html, step_html
from ..rulebook.feedback import AnswerError, Feedback
from ..teaching.drills.quiz import QUIZ_KINDS, QuizSession, met_simple_scoring
from ..teaching.learner.store import LearnerStore, default_learner
from ..teaching.lessons.files import Lesson, find_lesson
from ..teaching.lessons.session import LessonSession
from ..teaching.progress_file import (
    FILE_NAME,
    ProgressFileRefused,
    load_progress,
    progress_bytes,
)
from ..teaching.puzzles.store import store_path as puzzle_store_path
from ..teaching.questions.steps import Step
from .puzzles_widget import puzzle_dashboard, puzzles
from .table_widget import table
from .widget_parts import _button, _Guard

__all__ = ["lesson", "quiz", "review", "progress", "progress_file", "table", "hand_viewer",
           "guide", "GuideView", "rules", "puzzles", "puzzle_dashboard", "ProgressFileWidget",
           "LessonWidget", "QuizWidget", "ReviewWidget", "ProgressView", "HandViewer",
           "AnswerPanel"]

# Card buttons are white "paper" in every theme; everything else takes JupyterLab's colours
# (the fallbacks are the light theme's), so text stays readable in JupyterLab Dark.
CARD_PAPER = "#ffffff"
CHOSEN = "#d6e6ff"  # a picked card: still light paper, so its red and black stay readable
# Answer buttons are locked after an answer; their text stays readable (opacity 1) in every
# theme, with a dashed edge to show that they no longer take clicks.
LOCKED_CSS = ("<style>.pepper-answer .jupyter-button.pepper-card:disabled{opacity:1;"
              "border-style:dashed!important;cursor:default}</style>")


# Said where the store works but its folder goes when the browser tab does (JupyterLite).
NOT_KEPT = ("this browser does not let the notebook keep your answers, so they last only until "
            "the tab is closed; to keep your progress, download it (notebook.progress_file()) "
            "or run the notebooks on your computer (make lab)")


class _SaveNotice(widgets.HTML):  # type: ignore[misc]
    """Says so, in the widget, whenever the learner store could not save or the browser could
    not keep a change, and from the start where it saves to a folder that the browser tab does
    not keep."""

    def __init__(self, store: LearnerStore):
        super().__init__()
        self.add_class("pepper-save-warning")
        self.store = store
        self.said = 0
        self.said_kept = len(browser_home.problems)
        self.lasting = [] if home_is_kept(store.home) else [NOT_KEPT]
        self.update(first=True)

    def update(self, first: bool = False) -> None:
        new = self.store.warnings[self.said:] + browser_home.problems[self.said_kept:]
        if new or (first and self.lasting):
            self.said = len(self.store.warnings)
            self.said_kept = len(browser_home.problems)
            self.value = ('<div class="pepper-fb wrong" role="alert"><b>Not saved:</b> '
                          + html_text("; ".join(self.lasting + new)) + "</div>")


class AnswerPanel(widgets.VBox):  # type: ignore[misc]
    """The clickable part of a step: cards, choices or score boxes, for any step kind."""

    def __init__(self, step: Step[Any], on_answer: Callable[[Any], None], guard: _Guard):
        super().__init__()
        self.step = step
        self.on_answer = on_answer
        # Set when its step is left (retire): a click on its buttons still on its way then
        # is dropped. The front end draws the next step after the kernel has moved on, so
        # a click in between would otherwise answer the next step with this one's card.
        self.retired = False

        def live(fn: Callable[..., None]) -> Callable[..., None]:
            return guard(lambda *args: None if self.retired else fn(*args))

        self.guard = live
        self.order: list[Card] = []
        self.add_class("pepper-answer")
        if getattr(step, "id", None):  # which step's buttons these are, for scripts and tests
            self.add_class("pepper-answer-for-" + re.sub(r"[^A-Za-z0-9_-]", "-", str(step.id)))
        self.buttons: list[widgets.Widget] = []
        self.order_label = widgets.HTML()
        self.order_label.add_class("pepper-order")
        self.locked_css = widgets.HTML(LOCKED_CSS)
        shape = step.input_shape
        if not step.answerable:
            self.children = []
        elif shape == "text":
            self.typed = widgets.Text(placeholder=step.example(), description="Your answer",
                                      layout=widgets.Layout(width="420px"))
            self.typed.add_class("pepper-typed")
            submit = _button("Check", "pepper-submit", button_style="primary")
            submit.on_click(self.guard(lambda _b: self.on_answer(self.typed.value)))
            self.buttons = [self.typed, submit]
            self.children = [widgets.HBox([self.typed, submit])]
        elif shape == "sides":
            self.boxes = {side: widgets.IntText(value=0, description=side,
                                                layout=widgets.Layout(width="160px"))
                          for side in step.rules.sides}
            for side, box in self.boxes.items():
                box.add_class(f"pepper-score-{side}")
            submit = _button("Check", "pepper-submit", button_style="primary")
            submit.on_click(self.guard(lambda _b: self.on_answer(
                {s: int(b.value) for s, b in self.boxes.items()})))
            self.buttons = [*self.boxes.values(), submit]
            self.children = [widgets.HBox(list(self.boxes.values())), submit]
        elif shape in ("order", "set"):
            self._card_buttons(multi=shape == "set")
        else:
            self._plain_buttons()

    def _style(self, b: widgets.Button, card: Card) -> None:
        b.tooltip = label(card)  # the card in words: the one label JupyterLab lets it carry
        b.style.text_color = "#c8102e" if card.is_red else "#1a1a1a"
        b.style.button_color = CARD_PAPER
        b.style.font_weight = "bold"
        b.layout = widgets.Layout(width="64px", height="44px", border="1px solid #888")

    def _plain_buttons(self) -> None:
        row = []
        for opt in self.step.options():
            if opt.is_card:
                b = _button(opt.label, "pepper-card", f"pepper-card-{opt.value}")
                self._style(b, opt.value)
            else:
                b = _button(opt.label, "pepper-choice",
                            f"pepper-choice-{str(opt.value).replace(' ', '-')}")
            b.on_click(self.guard(lambda _b, v=opt.value: self.on_answer(v)))
            row.append(b)
        self.buttons = row
        self.children = [widgets.HBox(row, layout=widgets.Layout(flex_flow="row wrap"))]

    def _card_buttons(self, multi: bool) -> None:
        row = []
        self.chosen: set[Card] = set()
        for opt in self.step.options():
            card: Card = opt.value
            b = _button(opt.label, "pepper-card", f"pepper-card-{card}")
            self._style(b, card)
            if multi:
                b.on_click(self.guard(lambda b_, c=card: self._toggle(c, b_)))
            else:
                b.on_click(self.guard(lambda _b, c=card: self._pick(c)))
            row.append(b)
        submit = _button("Check", "pepper-submit", button_style="primary")
        undo = _button("Undo", "pepper-undo")
        if multi:
            submit.on_click(self.guard(lambda _b: self.on_answer(
                [c for c in self.order if c in self.chosen] or "")))
            self.children = [widgets.HBox(row), self.order_label, submit]
            self.buttons = [*row, submit]
        else:
            undo.on_click(self.guard(lambda _b: self._undo()))
            submit.on_click(self.guard(lambda _b: self.on_answer(list(self.order))))
            self.children = [widgets.HBox(row), self.order_label, widgets.HBox([undo, submit])]
            self.buttons = [*row, submit, undo]
        self.card_row = row

    def _toggle(self, card: Card, b: widgets.Button) -> None:
        """Pick or drop a card (legal plays): picked cards are marked, not greyed out."""
        if card in self.chosen:
            self.chosen.discard(card)
            self.order.remove(card)
        else:
            self.chosen.add(card)
            self.order.append(card)
        b.style.button_color = CHOSEN if card in self.chosen else CARD_PAPER
        b.layout.border = "3px solid #1f5fbf" if card in self.chosen else "1px solid #888"
        shown = " ".join(c.display for c in self.order) or "(none yet)"
        self.order_label.value = f"<span>Your cards: {html_text(shown)}</span>"

    def _pick(self, card: Card) -> None:
        if card in self.order:
            return
        self.order.append(card)
        self._show_order()
        if len(self.order) == len(self.card_row):
            self.on_answer(list(self.order))

    def _undo(self) -> None:
        if self.order:
            self.order.pop()
        self._show_order()

    def _show_order(self) -> None:
        for b in self.card_row:
            b.disabled = Card.parse(b.description) in self.order
        shown = " ".join(c.display for c in self.order) or "(click the highest card first)"
        self.order_label.value = f"<span>Your order: {html_text(shown)}</span>"

    def reset_order(self) -> None:
        if self.step.answer_shape == "set":
            for b in self.card_row:
                if Card.parse(b.description) in self.chosen:
                    self._toggle(Card.parse(b.description), b)
        self.order = []
        if self.step.answer_shape == "order":
            self._show_order()

    def retire(self) -> None:
        """Its step is left: clicks that reach it from now on are dropped."""
        self.retired = True

    def lock(self) -> None:
        for b in self.buttons:
            b.disabled = True
        if self.locked_css not in self.children:
            self.children = [*self.children, self.locked_css]


class LessonWidget(widgets.VBox):  # type: ignore[misc]
    """A lesson, step by step, with feedback, hints, progress and navigation."""

    def __init__(self, lesson: Lesson, learner: str | None = None,
                 store: LearnerStore | None = None):
        super().__init__()
        self.add_class("pepper-lesson")
        self.lesson = lesson
        self.store = store or LearnerStore(learner)
        self.session = LessonSession(lesson, self.store)
        self.save_notice = _SaveNotice(self.store)
        self.replay_button = _button("Replay the lesson", "pepper-replay")
        self.replay_button.on_click(self.guard_replay)
        self.title = widgets.HTML(f"<h3>{html_text(lesson.title)}</h3>"
                                  + self._prerequisites())
        done, total = self.session.progress()
        self.progress = widgets.IntProgress(value=done, min=0, max=max(total, 1),
                                            description="Solved")
        self.progress.add_class("pepper-progress")
        self.progress_text = widgets.HTML()
        self.progress_text.add_class("pepper-progress-text")
        self.situation = widgets.HTML()
        self.situation.add_class("pepper-situation")
        self.guide = widgets.HTML()  # the whole hand a step may carry (its guide:)
        self.guide.add_class("pepper-step-guide")
        self.feedback = widgets.HTML()
        self.feedback.add_class("pepper-feedback")
        self.guard = _Guard(self._show_error)
        self.back_button = _button("◀ Back", "pepper-back")
        self.hint_button = _button("Hint", "pepper-hint")
        self.reveal_button = _button("Show answer", "pepper-reveal")
        self.next_button = _button("Next ▶", "pepper-next")
        self.back_button.on_click(self.guard(lambda _b: self._move(self.session.back)))
        self.next_button.on_click(self.guard(lambda _b: self._move(self.session.next)))
        self.hint_button.on_click(self.guard(lambda _b: self._hint()))
        self.reveal_button.on_click(self.guard(lambda _b: self._reveal()))
        self.panel: AnswerPanel | None = None
        self.last_feedback_ms: float | None = None
        self._render()

    def _prerequisites(self) -> str:
        """What this lesson builds on, and which of those the learner has still to finish."""
        if not self.lesson.requires:
            return ""
        from ..teaching.lessons.files import all_lessons

        by_id = {x.id: x for x in all_lessons()}
        parts = []
        for rid in self.lesson.requires:
            known = by_id.get(rid)
            if known is None:
                continue
            done = LessonSession(known, self.store).finished_runs
            parts.append(f"{html_text(known.title)} (finished)" if done else
                         f"{html_text(known.title)}: not finished yet, open it with "
                         f"<code>notebook.lesson({rid!r})</code>")
        return ('<p class="pepper-requires">Builds on: ' + "; ".join(parts) + ".</p>"
                if parts else "")

    def guard_replay(self, _b: Any) -> None:
        self.guard(lambda: self._move(self.session.replay))()

    @property
    def errors(self) -> list[BaseException]:
        return self.guard.errors

    def _show_error(self, message: str) -> None:
        self.feedback.value = message

    def _render(self) -> None:
        done, total = self.session.progress()
        self.progress.value = done
        step = self.session.step
        self.save_notice.update()
        if self.panel is not None:  # a new panel is drawn, or none: late clicks are dropped
            self.panel.retire()
        if step is None:
            mistakes = sum(self.session.mistakes.values())
            replay = " (a replay)" if self.session.is_replay else ""
            missed = (" The rules you missed come back in <code>notebook.review()</code>."
                      if mistakes else "")
            self.progress_text.value = (
                f"<b>Lesson finished{replay}:</b> {done} of {total} solved, {mistakes} "
                f"mistake{'s' if mistakes != 1 else ''}.{missed}<br>Your record: "
                f"{html_text(self.session.record_text())}.")
            self.situation.value = ""
            self.back_button.disabled = not self.session.queue
            self.children = [self.title, self.progress, self.progress_text, self.feedback,
                             self.save_notice,
                             widgets.HBox([self.back_button, self.replay_button])]
            return
        self._progress_line()
        self.situation.value = step_html(step)
        guide = self.lesson.guide_of(step)
        if guide is not None:
            from ..render.guide_html import lesson_guide_html

            self.guide.value = lesson_guide_html(guide)
        last = self.session.status.last
        # a step solved before (Back, or the notebook opened again) says so, with why
        self.feedback.value = feedback_html(last) if self.session.status.solved and last else ""
        self.panel = AnswerPanel(step, self._answer, self.guard)
        self.next_button.disabled = not self.session.can_advance
        self.hint_button.disabled = self.reveal_button.disabled = not step.answerable
        self.back_button.disabled = self.session.position == 0
        nav = widgets.HBox([self.back_button, self.hint_button, self.reveal_button,
                            self.next_button])
        shown = [self.guide] if guide is not None else []
        self.children = [self.title, self.progress, self.progress_text, self.situation,
                         *shown, self.panel, self.feedback, self.save_notice, nav]

    def _progress_line(self) -> None:
        done = self.session.progress()[0]
        self.progress.value = done
        review = " — a step you missed, once more" if self.session.is_review else ""
        self.progress_text.value = (f"Step {self.session.position + 1} of "
                                    f"{len(self.session.queue)}{review} · "
                                    f"{html_text(self.session.progress_text())}")

    def _answer(self, raw: Any) -> None:
        start = time.perf_counter()
        try:
            fb = self.session.answer(raw)
        except AnswerError as err:
            self.feedback.value = (f'<div class="pepper-fb wrong">{html_text(str(err))}'
                                   "</div>")
            return
        self._show(fb)
        self.last_feedback_ms = (time.perf_counter() - start) * 1000

    def _show(self, fb: Feedback) -> None:
        self.feedback.value = feedback_html(fb)
        self.save_notice.update()
        self._progress_line()
        assert self.panel is not None
        if fb.correct or fb.revealed:
            self.panel.lock()
            self.next_button.disabled = False
            self.next_button.button_style = "success"
        else:
            self.panel.reset_order()

    def _hint(self) -> None:
        level, text = self.session.hint()
        self.feedback.value = (f'<div class="pepper-fb pepper-hint-text"><b>Hint {level} of '
                               f"{self.session.hint_total}</b><div "
                               f'style="white-space:pre-wrap">{html_text(text)}</div></div>')
        if self.session.can_advance:
            self.next_button.disabled = False

    def _reveal(self) -> None:
        self._show(self.session.reveal())

    def _move(self, action: Callable[[], None]) -> None:
        action()
        self.next_button.button_style = ""
        self._render()


def _settle(widget: QuizWidget | ReviewWidget, fb: Feedback) -> None:
    """A question answered or revealed: the feedback, any save warning, the answer panel
    locked, Next on and Reveal off (the same in the quiz and in a review)."""
    widget.feedback.value = feedback_html(fb)
    if isinstance(widget.save_notice, _SaveNotice):  # a quiz without a store has none
        widget.save_notice.update()
    assert widget.panel is not None
    widget.panel.lock()
    widget.next_button.disabled = False
    widget.reveal_button.disabled = True


class QuizWidget(widgets.VBox):  # type: ignore[misc]
    """An endless drill with a streak counter and an explanation after each answer.

    The drill, its level (hard leans on the traps) and the rule set can be changed at any
    time; ``card_width`` draws big cards for a projector (the game-night app)."""

    def __init__(self, kind: str = "tricks", seed: int | None = None, card_width: int = 56,
                 learner: str | None = None, store: LearnerStore | None = None,
                 save: bool = True):
        super().__init__()
        self.add_class("pepper-quiz")
        self.store = store or (LearnerStore(learner) if save else None)
        self.save_notice = _SaveNotice(self.store) if self.store else widgets.HTML()
        self.seed = seed
        self.card_width = card_width
        self.kind_picker = widgets.Dropdown(options=list(QUIZ_KINDS), value=kind,
                                            description="Drill")
        self.level = widgets.Dropdown(options=["hard", "easy"], value="hard",
                                      description="Level")
        self.preset = widgets.Dropdown(options=["standard", "simple"], value="standard",
                                       description="Rules")
        self.streak = widgets.HTML()
        self.situation = widgets.HTML()
        self.feedback = widgets.HTML()
        for w, c in ((self.kind_picker, "pepper-kind"), (self.level, "pepper-level"),
                     (self.preset, "pepper-preset"), (self.streak, "pepper-streak"),
                     (self.situation, "pepper-situation"), (self.feedback, "pepper-feedback")):
            w.add_class(c)
        self.guard = _Guard(lambda m: setattr(self.feedback, "value", m))
        self.reveal_button = _button("Reveal", "pepper-reveal")
        self.next_button = _button("Next question ▶", "pepper-next")
        self.reveal_button.on_click(self.guard(lambda _b: self._reveal()))
        self.next_button.on_click(self.guard(lambda _b: self._next()))
        for picker in (self.kind_picker, self.level, self.preset):
            picker.observe(self.guard(lambda _c: self.restart()), names="value")
        self.panel: AnswerPanel | None = None
        self.restart()

    @property
    def errors(self) -> list[BaseException]:
        return self.guard.errors

    def restart(self) -> None:
        """A fresh drill with the chosen kind, level and rules."""
        self.quiz = QuizSession(self.kind_picker.value, self.seed,
                                rules=get_ruleset(self.preset.value),
                                hard=self.level.value == "hard", store=self.store,
                                simple_met=bool(self.store and met_simple_scoring(self.store)))
        self._render()

    def _render(self) -> None:
        step = self.quiz.question
        assert step is not None
        self.situation.value = step_html(step, self.card_width)
        self.feedback.value = ""
        if self.panel is not None:
            self.panel.retire()
        self.panel = AnswerPanel(step, self._answer, self.guard)
        self.next_button.disabled = True
        self.reveal_button.disabled = False
        self._score()
        self.children = [widgets.HBox([self.kind_picker, self.level, self.preset],
                                      layout=widgets.Layout(flex_flow="row wrap")),
                         self.streak, self.situation, self.panel, self.feedback,
                         self.save_notice, widgets.HBox([self.reveal_button, self.next_button])]

    def _score(self) -> None:
        self.streak.value = f"<b>{html_text(self.quiz.score_text)}</b>"

    def _answer(self, raw: Any) -> None:
        try:
            fb = self.quiz.answer(raw)
        except AnswerError as err:
            self.feedback.value = f'<div class="pepper-fb wrong">{html_text(str(err))}</div>'
            return
        self._settle(fb)
        self._score()

    def _reveal(self) -> None:
        """Show the answer with its explanation (for a room that has talked it over)."""
        self._settle(self.quiz.reveal())
        self._score()

    def _settle(self, fb: Feedback) -> None:
        _settle(self, fb)

    def _next(self) -> None:
        self.quiz.next_question()
        self._render()


class ReviewWidget(widgets.VBox):  # type: ignore[misc]
    """The reviews due now: each missed rule comes back in a new position."""

    def __init__(self, learner: str | None = None, store: LearnerStore | None = None,
                 seed: int | None = None):
        from ..teaching.review.session import ReviewSession

        super().__init__()
        self.add_class("pepper-review")
        self.store = store or LearnerStore(learner)
        self.session = ReviewSession(self.store, seed)
        self.header = widgets.HTML()
        self.header.add_class("pepper-review-header")
        self.situation = widgets.HTML()
        self.situation.add_class("pepper-situation")
        self.feedback = widgets.HTML()
        self.feedback.add_class("pepper-feedback")
        self.save_notice = _SaveNotice(self.store)
        self.guard = _Guard(lambda m: setattr(self.feedback, "value", m))
        self.reveal_button = _button("Show answer", "pepper-reveal")
        self.next_button = _button("Next review ▶", "pepper-next")
        self.reveal_button.on_click(self.guard(lambda _b: self._settle(self.session.reveal())))
        self.next_button.on_click(self.guard(lambda _b: self._next()))
        self.panel: AnswerPanel | None = None
        self._render()

    @property
    def errors(self) -> list[BaseException]:
        return self.guard.errors

    def _render(self) -> None:
        rs = self.session
        step, item = rs.question, rs.item
        self.save_notice.update()
        if step is None or item is None:
            text = (f"<b>Review done:</b> {rs.right} of {len(rs.items)} right. Right answers "
                    "come back later and later; missed ones soon." if rs.items else
                    "<b>No reviews are due.</b> Missed lesson steps and quiz questions come "
                    "back here when they are due.")
            self.header.value = (f"<style>{FEEDBACK_CSS}</style>"
                                 f'<div class="pepper-fb">{text}</div>')
            self.children = [self.header, self.save_notice]
            return
        self.header.value = f"<b>{html_text(rs.score_text)}</b> · {html_text(rs.where)}"
        self.situation.value = step_html(step)
        self.feedback.value = ""
        if self.panel is not None:
            self.panel.retire()
        self.panel = AnswerPanel(step, self._answer, self.guard)
        self.next_button.disabled = True
        self.reveal_button.disabled = False
        self.children = [self.header, self.situation, self.panel, self.feedback,
                         self.save_notice, widgets.HBox([self.reveal_button, self.next_button])]

    def _answer(self, raw: Any) -> None:
        try:
            fb = self.session.answer(raw)
        except AnswerError as err:
            self.feedback.value = f'<div class="pepper-fb wrong">{html_text(str(err))}</div>'
            return
        self._settle(fb)

    def _settle(self, fb: Feedback) -> None:
        _settle(self, fb)

    def _next(self) -> None:
        self.session.next()
        self._render()


class ProgressView(widgets.VBox):  # type: ignore[misc]
    """Rules mastered, reviews due, streaks, lessons finished and quiz results."""

    def __init__(self, learner: str | None = None, store: LearnerStore | None = None):
        super().__init__()
        self.add_class("pepper-progress-view")
        self.store = store or LearnerStore(learner)
        self.view = widgets.HTML()
        self.refresh_button = _button("Refresh", "pepper-refresh")
        self.refresh_button.on_click(lambda _b: self.refresh())
        self.children = [self.view, _SaveNotice(self.store), self.refresh_button]
        self.refresh()

    def refresh(self) -> None:
        from ..rulebook.book import get_rulebook, rule_label
        from ..teaching.learner.progress import progress_summary

        p = progress_summary(self.store)
        book = get_rulebook()
        rows = "".join(
            f"<tr><td>{html_text(rule_label(r.id))}</td>"
            f"<td>{'mastered' if r.id in p.mastered else 'practised'}</td></tr>"
            for r in book if r.id in p.practised)
        lines = "".join(f"<li>{html_text(line)}</li>" for line in p.lines)
        self.view.value = (f'<div class="pepper-fb"><b>Progress of {html_text(p.learner)}'
                           f"</b><ul>{lines}</ul>"
                           + ("<p>Reviews due: run <code>notebook.review()</code>.</p>"
                              if p.due else "")
                           + (f"<table><tr><th>rule</th><th>status</th></tr>{rows}"
                              "</table>" if rows else "") + "</div>"
                           f"<style>{FEEDBACK_CSS}</style>")


class HandViewer(widgets.VBox):  # type: ignore[misc]
    """Step through an annotated hand trick by trick."""

    def __init__(self, annotation: Annotation):
        super().__init__()
        self.add_class("pepper-viewer")
        self.annotation = annotation
        n = len(annotation.tricks)
        self.slider = widgets.IntSlider(value=n, min=0, max=n, description="Trick")
        self.slider.add_class("pepper-trick-slider")
        self.prev_button = _button("◀ Trick", "pepper-prev")
        self.next_button = _button("Trick ▶", "pepper-next")
        self.view = widgets.HTML()
        self.view.add_class("pepper-hand-view")
        self.guard = _Guard(lambda m: setattr(self.view, "value", m))
        self.prev_button.on_click(self.guard(lambda _b: self._step(-1)))
        self.next_button.on_click(self.guard(lambda _b: self._step(1)))
        self.slider.observe(self.guard(lambda _c: self._show()), names="value")
        self.children = [widgets.HBox([self.prev_button, self.slider, self.next_button]),
                         self.view]
        self._show()

    @property
    def errors(self) -> list[BaseException]:
        return self.guard.errors

    def _step(self, delta: int) -> None:
        self.slider.value = max(0, min(self.slider.max, self.slider.value + delta))

    def _show(self) -> None:
        self.view.value = to_html(self.annotation.upto(self.slider.value), standalone=False)


class GuideView:
    """A Game Guide in a notebook's output: the one-file page in an ``iframe`` (its own
    script, keys and address), stepping from the deal to the score. ``page`` is the
    page, for saving it as a file."""

    def __init__(self, page: str, title: str):
        self.page = page
        self.title = title

    def _repr_html_(self) -> str:
        from ..render.guide_html import guide_frame

        return guide_frame(self.page, f"Game guide: {self.title}")

    def save(self, path: str | Path) -> Path:
        """Write the page as a file that works on its own (no request off it)."""
        from ..files.writing import write_text

        write_text(str(path), self.page)
        return Path(path)


class RulesView:
    """Rules quoted from the rulebook, displayed as HTML in a notebook."""

    def __init__(self, rule_ids: tuple[str, ...]):
        from ..rulebook.book import get_rule

        self.rules = [get_rule(r) for r in rule_ids]

    def _repr_html_(self) -> str:
        return "".join(
            f'<div class="pepper-rule" style="border-left:4px solid #c8102e;padding:4px 10px;'
            f'margin:6px 0"><b>{html_text(r.title)}</b> <code>{html_text(r.id)}</code>'
            f"<div>{html_text(r.text)}</div></div>" for r in self.rules)

    def __repr__(self) -> str:
        return "\n".join(r.quote() for r in self.rules)


def rules(*rule_ids: str) -> RulesView:
    """Show rules from the rulebook by id: ``notebook.rules("rank.left-bower")``."""
    return RulesView(rule_ids)


def lesson(name: str, learner: str | None = None) -> LessonWidget:
    """The lesson widget for a lesson id such as ``"bowers"``."""
    return LessonWidget(find_lesson(name), learner)


def quiz(kind: str = "tricks", seed: int | None = None,
         learner: str | None = None) -> QuizWidget:
    """A drill: ``"tricks"``, ``"legal"``, ``"bowers"``, ``"score"``, a judgement drill
    (``"bid"``, ``"declare"``, ``"exchange"``, ``"defend"``: screened positions first, at
    once) or a rules drill. Answers are saved; a miss comes back in :func:`review`."""
    return QuizWidget(kind, seed, learner=learner)


def review(learner: str | None = None, seed: int | None = None) -> ReviewWidget:
    """The reviews due now: every missed rule, each in a new position."""
    return ReviewWidget(learner, seed=seed)


def progress(learner: str | None = None) -> ProgressView:
    """Rules mastered, reviews due, streaks, lessons finished, quiz results."""
    return ProgressView(learner)


class ProgressFileWidget(widgets.VBox):  # type: ignore[misc]
    """Download one's progress (the learner store and the puzzle ratings) as a file, and load
    such a file back: **Make the file**
    (``pepper-export``) shows a link that saves ``pepper-progress.sqlite``
    (``pepper-download``); the upload button (``pepper-import``) takes one, checks it, and
    replaces the progress here only when it is a progress file. What happened is said in
    ``pepper-feedback``."""

    def __init__(self, learner: str | None = None):
        super().__init__()
        self.add_class("pepper-progress-file")
        self.store = LearnerStore(learner)
        self.feedback = widgets.HTML()
        self.feedback.add_class("pepper-feedback")
        self.link = widgets.HTML()
        self.link.add_class("pepper-download")
        self.guard = _Guard(self._show)
        self.errors = self.guard.errors
        self.make = _button("Make the file", "pepper-export")
        self.make.on_click(self.guard(lambda _b: self._export()))
        self.upload = widgets.FileUpload(accept=".sqlite", multiple=False,
                                         description="Load a progress file")
        self.upload.add_class("pepper-import")
        self.upload.observe(self.guard(lambda change: self._uploaded(change["new"])),
                            names="value")
        self.children = [widgets.HBox([self.make, self.upload]), self.link, self.feedback,
                         _SaveNotice(self.store)]

    def _show(self, text: str) -> None:
        self.feedback.value = text

    def _export(self) -> None:
        self.export()

    def export(self) -> bytes:
        """The progress file's bytes, offered as a link to save."""
        import base64

        data = progress_bytes(self.store, puzzle_store_path(self.store.home))
        self.link.value = (f'<a download="{FILE_NAME}" href="data:application/vnd.sqlite3;'
                           f'base64,{base64.b64encode(data).decode()}">Save {FILE_NAME} '
                           f"({max(1, len(data) // 1024)} KB)</a>")
        return data

    def _uploaded(self, value: Any) -> None:
        files = list(value.values()) if isinstance(value, dict) else list(value or ())
        if files:
            item = files[0]
            self.load(bytes(item["content"]), str(item.get("name") or item.get("metadata",
                                                                              {}).get("name")))

    def load(self, data: bytes, name: str) -> None:
        """Replace the progress here with the progress file ``data`` (named ``name``)."""
        upload = self.store.home / ".upload.sqlite"
        write_bytes(upload, data)
        try:
            loaded = load_progress(self.store, upload, name,
                                   puzzle_store_path(self.store.home))
        except ProgressFileRefused as refused:
            self.feedback.value = (f'<div class="pepper-fb wrong"><b>Not loaded:</b> '
                                   f"{html_text(str(refused))}. Your progress here is "
                                   "unchanged.</div>")
            return
        finally:
            upload.unlink(missing_ok=True)
        learner = (self.store.learner if self.store.learner in loaded.learners
                   or not loaded.learners else loaded.learners[0])
        self.store = LearnerStore(learner, self.store.home)
        answers = len(self.store.answers())
        begun = len(self.store.lessons())
        self.feedback.value = (
            f'<div class="pepper-fb right">Loaded your progress from {html_text(name)}'
            + (f" (the progress of {html_text(learner)})" if learner != default_learner()
               else "")
            + f": {answers} answer{'s' if answers != 1 else ''}, {begun} lesson"
            f"{'s' if begun != 1 else ''} begun"
            + ("; your puzzle ratings came too" if loaded.puzzles == "loaded" else "")
            + ". Widgets made before this show the old progress: run their cells again.</div>")


def progress_file(learner: str | None = None) -> ProgressFileWidget:
    """Download your progress as a file, or load one (in a browser tab, to keep it safe)."""
    return ProgressFileWidget(learner)


def hand_viewer(source: str | Path | HandRecord | Annotation) -> HandViewer:
    """A viewer for a hand record file (or a loaded record or annotation)."""
    if isinstance(source, Annotation):
        return HandViewer(source)
    record = source if isinstance(source, HandRecord) else load_record(source)
    return HandViewer(annotate(record))


def guide(source: str | Path | HandRecord, seat: str | None = None, analyse: bool = False,
          step: int = 1, samples: int | None = None) -> GuideView:
    """A Game Guide of a hand record (a file, or a loaded record): all hands, or one
    ``seat``'s view; ``analyse`` grades every decision with the coach (some seconds);
    ``step`` opens it at that step (1 is the deal)."""
    from ..render.guide import build_guide
    from ..render.guide_html import guide_page

    record = source if isinstance(source, HandRecord) else load_record(source)
    built = build_guide(record, seat, analyse=analyse, samples=samples)
    return GuideView(guide_page(built, start=step), built.title)
