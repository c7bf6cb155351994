"""The puzzles in a notebook: ``notebook.puzzles(theme=None, mode="rated")``.

The same session as the terminal (:class:`~pepper_tutor.teaching.puzzles.session.PuzzleSession`):
the position (HTML), one button per legal answer (CSS class ``pepper-choice``), the
feedback (``pepper-feedback``), **Show answer** (``pepper-reveal``: the answer and the
layout the tempting answer loses to) and **Next** (``pepper-next``); ``dashboard()`` shows
the per-theme performance, weakest first. Callbacks never swallow errors: a failure is shown
in the feedback area and kept in ``.errors``.
"""

from __future__ import annotations

import random

import ipywidgets as widgets

from ..engine.cards import Card
from ..render.puzzles import (
    action_words,
    dashboard_html,
    feedback_html,
    puzzle_html,
    reveal_facts,
)
from ..teaching.puzzles.bank import bank_puzzles
from ..teaching.puzzles.puzzle import Puzzle
from ..teaching.puzzles.session import PuzzleSession
from ..teaching.puzzles.store import PuzzleStore
from .widget_parts import _button, _Guard

__all__ = ["PuzzleWidget", "puzzles", "puzzle_dashboard"]


class PuzzleWidget(widgets.VBox):  # type: ignore[misc]
    """One puzzle session in a notebook."""

    def __init__(self, session: PuzzleSession) -> None:
        self.session = session
        self.board = widgets.HTML()
        self.choices = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.feedback = widgets.HTML()
        self.feedback.add_class("pepper-feedback")
        self.guard = _Guard(self._show_error)
        self.errors = self.guard.errors
        self.reveal = _button("Show answer", "pepper-reveal")
        self.next_button = _button("Next", "pepper-next")
        self.reveal.on_click(self.guard(lambda _b: self._reveal()))
        self.next_button.on_click(self.guard(lambda _b: self.show_next()))
        self.number = 0
        super().__init__([self.board, self.choices, self.feedback,
                          widgets.HBox([self.reveal, self.next_button])])
        self.add_class("pepper-puzzles")
        self.guard(lambda: self.show_next())()

    def _show_error(self, text: str) -> None:
        self.feedback.value = text

    @property
    def puzzle(self) -> Puzzle | None:
        return self.session.current

    def show_next(self) -> None:
        puzzle = self.session.next()
        self.feedback.value = ""
        if puzzle is None:
            self.board.value = ("<p>No puzzle left here"
                                + (": nothing is due for review." if self.session.mode ==
                                   "review" else ".") + "</p>")
            self.choices.children = ()
            return
        self.number += 1
        self.board.value = puzzle_html(puzzle, self.number,
                                       self.session.store.rating().rating)
        buttons = []
        for action in puzzle.position().legal_actions():
            text = str(action)
            label = action.display if isinstance(action, Card) else action_words(puzzle, text)
            b = _button(label, "pepper-choice", tooltip=text)
            b.on_click(self.guard(lambda _b, t=text: self.choose(t)))
            buttons.append(b)
        self.choices.children = tuple(buttons)

    def choose(self, text: str) -> None:
        """Answer the current puzzle with ``text`` (what a button sends)."""
        answer = self.session.answer(text)
        # The streak's end shows the answer; a miss that may be retried shows the layout
        # the tempting answer loses in, without naming the best one.
        self.feedback.value = feedback_html(answer, reveal=answer.over)
        if answer.correct or self.session.over:
            for b in self.choices.children:
                b.disabled = True

    def _reveal(self) -> None:
        puzzle = self.puzzle
        if puzzle is None:
            return
        self.feedback.value = "<br>".join(_escaped(reveal_facts(puzzle)))
        for b in self.choices.children:
            b.disabled = True


def _escaped(lines: list[str]) -> list[str]:
    import html

    return [html.escape(line) for line in lines]


def puzzles(theme: str | None = None, mode: str = "rated", learner: str | None = None,
            seed: int | None = None) -> PuzzleWidget:
    """A puzzle session in the notebook (``mode``: rated, streak or review)."""
    store = PuzzleStore(learner)
    session = PuzzleSession(store, bank_puzzles(), theme=theme, mode=mode,
                            rng=random.Random(seed))
    return PuzzleWidget(session)


def puzzle_dashboard(learner: str | None = None) -> widgets.HTML:
    """Per-theme performance (lila's: mean puzzle rating - 500 + 1000 x share solved),
    weakest first."""
    results = PuzzleStore(learner).themes()
    return widgets.HTML(dashboard_html(results) if results else
                        "<p>No puzzles tried yet: notebook.puzzles().</p>")
