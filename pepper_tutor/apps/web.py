"""The "Play and learn" page's Python side: every screen of the page as HTML, in a browser tab.

The page (``web/`` in the repository, built into the docs site by ``make web``) runs this
module in Pyodide inside a Web Worker. Its JavaScript knows no rule and no answer: it sends
what the learner clicked or typed to :meth:`WebApp.handle` and shows the HTML it returns.
Everything else is the cores the terminal and the notebooks use: the lesson, quiz and review
sessions, the learner store, the practice table with its coach, and the HTML renderers.

A clickable element carries ``data-act`` (what to do) and ``data-value``; a form carries
``data-act`` and sends its fields. The learner's data lives under ``$PEPPER_TUTOR_HOME`` (in
the browser an IndexedDB-backed folder the page saves after every reply).

>>> import tempfile, json
>>> app = WebApp(home=Path(tempfile.mkdtemp()), seed=1)
>>> "Lessons" in json.loads(app.handle("home"))["html"]
True
"""

from __future__ import annotations

import base64
import json
import time
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.calls import Trump
from ..engine.cards import Card
from ..engine.ranking import sort_by_rank
from ..engine.rules import get_ruleset
from ..engine.state import Phase
from ..files.home import tutor_home
from ..files.reading import read_text
from ..files.writing import write_text
from ..render.cards_html import label, trick_html
from ..render.plain import html_text
from ..render.spoken import (
    feedback_words,
    hint_words,
    lines_words,
    order_words,
    regrade_words,
)
from ..render.steps_html import FEEDBACK_CSS, feedback_html, step_html
from ..render.table_html import seats_html
from ..rulebook.feedback import AnswerError, Feedback
from ..rulebook.verdict import Verdict, action_text
from ..teaching.drills.quiz import JUDGEMENT_KINDS, QUIZ_KINDS, QuizSession, met_simple_scoring
from ..teaching.learner.store import DB_NAME, LearnerStore
from ..teaching.lessons.files import Lesson, all_lessons, find_lesson
from ..teaching.lessons.session import LessonSession
from ..teaching.progress_file import FILE_NAME, ProgressFileRefused, load_progress, progress_bytes
from ..teaching.questions.commands import Command, read_command
from ..teaching.questions.steps import Step
from .guide import guide_href, saved_hands_html

if TYPE_CHECKING:  # the table core loads the analysis: only when the table is opened
    from ..teaching.practice.coach import CoachVerdict
    from ..teaching.practice.history import SavedMatch
    from ..teaching.practice.table import Decision, PracticeTable
    from ..teaching.puzzles.puzzle import Puzzle
    from ..teaching.puzzles.session import Answer, PuzzleSession
    from ..teaching.puzzles.store import PuzzleStore
    from ..teaching.review.session import ReviewSession

__all__ = ["WebApp", "BROWSER_COACH_SAMPLES", "BROWSER_REFINED_SAMPLES", "LEARNER_FILE"]

# Deals the coach solves for one decision's first grade in the browser, where only the
# pure-Python search runs in WebAssembly (several times slower than the terminal's compiled
# one): the one exception to the drills' count, so a call's first grade takes under 2 s at
# p95 (web/bench.py; docs/browser.md). The grading is still the drills' (grade_choice,
# deals seeded from the position): the same choice gets the same grade on every visit, and
# a grade its wider interval does not allow says "too close to call".
BROWSER_COACH_SAMPLES = 32
# Then more deals, step by step, each step's first deals those of the step before: a
# call reads back what it solved on them and goes by every step, other decisions go
# straight to the last (see OptionGrades). The page asks for them while the learner looks,
# one step a message, so a click waits for one step at most: before the learner decides
# (act "coach-foresee": every choice of the decision in front graded, so the grade of the
# one made is over 100 deals when it is ready at the click), and after it, the grade of
# the decision made from the deals reached on (act "coach-refine"). Steps of some 17
# deals keep a click's wait behind one short.
BROWSER_REFINED_SAMPLES = (48, 65, 82, 100)
# The name progress is kept under, in the tutor home (a loaded file may bring another).
LEARNER_FILE = "web-learner.txt"
# A match dealt and not yet begun (its seed), so a reload sits down at the same hand until
# its first decision saves the match; and the puzzle shown and not yet answered.
TABLE_DEAL_FILE = "web-table-deal.txt"
PUZZLE_FILE = "web-puzzle.txt"
# The page's settings (large print, four colours, confirm each decision), one ``name=on|off``
# a line ("confirm" kept as the name it had when it covered cards alone).
SETTINGS_FILE = "web-settings.txt"
SETTINGS: dict[str, str] = {
    "large": "Large print: bigger text, cards and buttons on every screen",
    "four": "Four-colour suits: spades black, hearts red, diamonds blue, clubs green",
    "confirm": "Confirm each decision before it counts: a card, a call or any other choice "
               "you make at the table counts only when you choose it again (or press "
               "Confirm, or type yes)",
}
DEFAULT_LEARNER = "learner"
# The page's own words for the command line at the table, beside the terminal's
# (apps.table.TABLE_COMMANDS); read by the same reader, so a card or call always wins.
PAGE_COMMANDS = (Command("hand", ("hand", "my hand", "cards", "read hand")),
                 Command("choices", ("choices", "options", "legal")),
                 Command("table", ("table", "trick", "board", "score")),
                 Command("next", ("next", "next hand", "deal")),
                 Command("yes", ("yes", "confirm"), ("y",)),
                 Command("cancel", ("no", "cancel"), ("n",)))
TABLE_HELP = ("Type a card (JD or jack of diamonds), a call (pass, 4, LP), a trump, exchange "
              "or partner, play or surrender; or: hand, choices, table, hint, coach, undo, "
              "replay N, review, next, help.")

DRILLS: dict[str, str] = {
    "tricks": "Who wins the trick?",
    "legal": "Which cards may you play?",
    "bowers": "Put the cards in order, highest first",
    "score": "What does each side score?",
    "bid": "Your call in the auction",
    "declare": "You won the bid: name trumps, or choose how to play",
    "exchange": "The exchange: which card to lay aside or send",
    "defend": "Play or surrender against a contract",
    "table": "Who calls, leads or deals next",
    "game": "After this hand: who has won?",
    "variants": "A hand's score under a house rule",
}

_GRADE_COLOUR = {"Best": "#1f8f4e", "Good": "#2e7d32", "Inaccuracy": "#b8860b",
                 "Mistake": "#d35400", "Blunder": "#c0392b"}


def _e(text: object) -> str:
    return html_text(text)


def _button(label: str, act: str, value: object = "", *, cls: str = "",
            disabled: bool = False, title: str = "", aria: str = "",
            pressed: bool | None = None) -> str:
    """A button the page sends as ``act``/``value``; ``cls`` names it for tests and CSS;
    ``pressed`` makes it a toggle (a choice chosen and waiting to be confirmed)."""
    extra = (" disabled" if disabled else "") + (f' title="{_e(title)}"' if title else "") \
        + (f' aria-label="{_e(aria)}"' if aria else "") \
        + ("" if pressed is None else f' aria-pressed="{"true" if pressed else "false"}"')
    return (f'<button type="button" class="pepper-btn {cls}" data-act="{_e(act)}" '
            f'data-value="{_e(value)}"{extra}>{label}</button>')


def _card_button(card: Card, act: str, value: object, *, cls: str = "", disabled: bool = False,
                 pressed: bool | None = None, trump: Trump | None = None,
                 left_bower: bool = True) -> str:
    """A card to click: its rank and suit shape, the suit's word under them, its colour (two
    or four colours), and its name in words with its part this hand for a screen reader."""
    colour = "pepper-red" if card.is_red else "pepper-black"
    state = "" if pressed is None else f' aria-pressed="{"true" if pressed else "false"}"'
    return (f'<button type="button" class="pepper-card {colour} pepper-suit-{card.suit.letter} '
            f'pepper-card-{card} {cls}" aria-label="{_e(label(card, trump, left_bower))}" '
            f'data-act="{act}" data-value="{_e(value)}"{state}{" disabled" if disabled else ""}>'
            f'<span class="pepper-face">{_e(card.display)}</span><span class="pepper-suit-word" '
            f'aria-hidden="true">{_e(card.suit.plural)}</span></button>')


class _Panel:
    """The clickable part of the step in front of the learner, and what they picked so far
    (cards in order, or a set of cards) before they check it."""

    def __init__(self, step: Step[Any]):
        self.step = step
        self.options = step.options()
        self.order: list[Card] = []
        self.locked = False

    def html(self) -> str:
        step = self.step
        if not step.answerable:
            return ""
        shape = step.input_shape
        lock = self.locked
        if shape == "text":
            example = step.example()
            return (f'<form class="pepper-answer" data-act="typed"><label '
                    f'class="pepper-typed-label">Your answer <input type="text" name="answer" '
                    f'class="pepper-typed" autocomplete="off"{" disabled" if lock else ""}>'
                    f'</label> <button type="submit" class="pepper-btn pepper-submit primary"'
                    f'{" disabled" if lock else ""}>Check</button>'
                    + (f'<div class="pepper-muted pepper-example">{_e(example)}</div>'
                       if example else "") + "</form>")
        if shape == "sides":
            boxes = "".join(
                f'<label class="pepper-side">{_e(side)} <input type="number" step="1" '
                f'name="{_e(side)}" value="0" class="pepper-score-{_e(side)}"'
                f'{" disabled" if lock else ""}></label>' for side in step.rules.sides)
            return (f'<form class="pepper-answer" data-act="score">{boxes} <button '
                    f'type="submit" class="pepper-btn pepper-submit primary"'
                    f'{" disabled" if lock else ""}>Check</button></form>')
        if shape in ("order", "set"):
            multi = shape == "set"
            cards = "".join(_card_button(
                o.value, "pick", i, disabled=lock or (not multi and o.value in self.order),
                pressed=(o.value in self.order) if multi else None)
                for i, o in enumerate(self.options))
            shown = " ".join(c.display for c in self.order)
            label = (f"Your cards: {shown or '(none yet)'}" if multi else
                     f"Your order: {shown or '(click the highest card first)'}")
            undo = "" if multi else _button("Undo", "undo", cls="pepper-undo",
                                            disabled=lock or not self.order)
            return (f'<div class="pepper-answer"><div class="pepper-hand">{cards}</div>'
                    f'<div class="pepper-order">{_e(label)}</div>{undo}'
                    + _button("Check", "check", cls="pepper-submit primary", disabled=lock)
                    + "</div>")
        parts = []
        for i, o in enumerate(self.options):
            if o.is_card:
                parts.append(_card_button(o.value, "pick", i, disabled=lock))
            else:
                slug = str(o.value).replace(" ", "-")
                parts.append(_button(_e(o.label), "pick", i, disabled=lock,
                                     cls=f"pepper-choice pepper-choice-{_e(slug)}"))
        return f'<div class="pepper-answer pepper-hand">{"".join(parts)}</div>'

    def pick(self, index: int) -> Any | None:
        """A click on option ``index``: the answer to judge now, or None (still picking)."""
        if self.locked or not 0 <= index < len(self.options):
            return None
        value = self.options[index].value
        shape = self.step.answer_shape
        if shape == "set":
            if value in self.order:
                self.order.remove(value)
            else:
                self.order.append(value)
            return None
        if shape == "order":
            if value not in self.order:
                self.order.append(value)
            return list(self.order) if len(self.order) == len(self.options) else None
        return value

    def checked(self) -> Any:
        return list(self.order) if self.step.answer_shape == "order" else (
            list(self.order) or "")


class WebApp:
    """The page's state: the screen shown, the session behind it and the learner store."""

    def __init__(self, home: Path | None = None, seed: int | None = None,
                 coach_samples: int = BROWSER_COACH_SAMPLES,
                 refined_samples: tuple[int, ...] = BROWSER_REFINED_SAMPLES) -> None:
        self.home = home or tutor_home()
        self.seed = seed
        self.coach_samples = coach_samples
        self.refined_samples = refined_samples
        self.store = LearnerStore(self._learner_name(), self.home)
        self.screen = "home"
        self.notice = ""  # a one-off message on the next screen (a file loaded, ...)
        self.errors: list[str] = []  # tracebacks of failures, shown in short on screen
        self.lesson: LessonSession | None = None
        self.quiz: QuizSession | None = None
        self.reviewing: ReviewSession | None = None
        self.table: PracticeTable | None = None
        self.offer: SavedMatch | None = None
        self.table_lines: list[str] = []
        self.coach_box = ""
        self.grade_box = ""  # the box of the grade being made surer (see _refining)
        self.panel: _Panel | None = None
        self.feedback = ""
        self.said = 0  # store warnings already shown
        self.quiz_level = "hard"
        self.quiz_rules = "standard"
        self.table_level = "club"
        self.puzzle_store: PuzzleStore | None = None  # opened with the puzzles room
        self.puzzles: PuzzleSession | None = None
        self.puzzle_mode = "rated"
        self.puzzle_theme = ""  # "" for any theme
        self.puzzle_number = 0
        self.puzzle_answer: Answer | None = None  # the last answer to the puzzle shown
        self.puzzle_tried: set[str] = set()  # the answers tried on the puzzle shown
        self.puzzle_shown = False  # Show answer was pressed
        self.settings = self._read_settings()
        self.spoken: list[str] = []  # what the live region says after this request
        # a decision chosen at the table and not yet confirmed: "c:JD" (a card), "a:2" (the
        # third legal action: a call, a trump, a way of playing, play or surrender)
        self.pending = ""
        # the coach's grade of the last decision as the live region last said it: a surer
        # grade over more deals is said only when it differs (once), never each step
        self.said_grade: tuple[str, int] = ("", 0)  # (grade, the deals it rested on)

    def _learner_name(self) -> str:
        path = self.home / LEARNER_FILE
        try:
            return read_text(path).strip() or DEFAULT_LEARNER
        except (OSError, ValueError):
            return DEFAULT_LEARNER

    # ---- the one entry point ---------------------------------------------------------------

    def handle(self, act: str, value: str = "", fields: Mapping[str, str] | None = None) -> str:
        """Do ``act`` and return the screen: JSON with ``html``, ``ms`` (time spent here),
        ``saved`` (False when progress cannot be saved) and, for a download, ``download``."""
        start = time.perf_counter()
        reply: dict[str, Any] = {}
        try:
            extra = self._do(act, str(value), dict(fields or {}))
            if extra:
                reply.update(extra)
            reply.setdefault("refine", self._refining())
            reply.setdefault("foresee", self._foreseeing())
            reply.setdefault("ahead", self.table.foreseen if self.table is not None
                             and self.screen == "table" else 0)
            # the page draws nothing of the work on a decision not yet made
            body = "" if act == "coach-foresee" else self._screen_html()
        except Exception as err:  # shown to the learner and kept for tests, never silent
            self.errors.append(traceback.format_exc())
            body = (f'<div class="pepper-error" role="alert"><b>Something went wrong:</b> '
                    f"{_e(str(err) or type(err).__name__)}</div>"
                    + _button("Back to the start", "home", cls="pepper-home"))
            reply["error"] = self.errors[-1]
            self.spoken.append(f"Something went wrong: {str(err) or type(err).__name__}")
        reply["html"] = body
        reply["say"] = self._said()
        reply["look"] = [name for name in ("large", "four") if self.settings[name]]
        reply["saved"] = self.store.ok
        reply["ms"] = round((time.perf_counter() - start) * 1000, 1)
        return json.dumps(reply)

    def _said(self) -> str:
        """What the live region says for this request, every card in words as a screen
        reader should say it (the coach writes "K♣"); said once, so forgotten here."""
        if not self.spoken:
            return ""
        from ..render.card_words import spelled_cards

        said, self.spoken = spelled_cards(" ".join(self.spoken)), []
        return said

    def _do(self, act: str, value: str, fields: dict[str, str]) -> dict[str, Any] | None:
        simple: dict[str, Callable[[], None]] = {
            "home": lambda: self._go("home"), "progress": lambda: self._go("progress"),
            "hint": self._hint, "reveal": self._reveal, "next": self._next,
            "back": self._back, "replay": self._replay, "undo": self._undo,
            "check": lambda: self._answer_with(self._need_panel().checked()),
            "review": self._open_review, "table": self._open_table,
            "table-new": self._new_match, "table-resume": self._resume,
            "take-back": self._take_back, "table-hint": self._table_hint,
            "next-hand": self._next_hand, "settings": lambda: self._go("settings"),
            "play-cancel": self._cancel_card,
            "puzzles": self._open_puzzles, "puzzle-next": self._next_puzzle,
            "puzzle-reveal": self._reveal_puzzle, "puzzle-themes": lambda: self._go("themes"),
        }
        if act in simple:
            simple[act]()
        elif act == "lesson":
            self._open_lesson(value)
        elif act == "quiz":
            self._open_quiz(value)
        elif act == "quiz-level":
            self.quiz_level = "easy" if value == "easy" else "hard"
            self._open_quiz(self.quiz.kind if self.quiz else "tricks")
        elif act == "quiz-rules":
            self.quiz_rules = "simple" if value == "simple" else "standard"
            self._open_quiz(self.quiz.kind if self.quiz else "tricks")
        elif act == "table-level":
            self.table_level = value if value in ("beginner", "club", "expert") else "club"
        elif act == "puzzle-mode":
            self.puzzle_mode = value if value in ("rated", "streak", "review") else "rated"
            self._start_puzzles()
        elif act == "puzzle-theme":
            self.puzzle_theme = value
            self._start_puzzles()
        elif act == "puzzle-answer":
            self._answer_puzzle(value)
        elif act == "pick":
            raw = self._need_panel().pick(int(value))
            if raw is not None:
                self._answer_with(raw)
        elif act == "typed":
            self._answer_with(fields.get("answer", ""))
        elif act == "score":
            try:
                numbers = {k: int(v) for k, v in fields.items()}
            except ValueError:
                self.feedback = ('<div class="pepper-fb wrong">Each side needs a whole number '
                                 "(such as 0 or -2).</div>")
                self.spoken.append("Each side needs a whole number (such as 0 or -2).")
            else:
                self._answer_with(numbers)
        elif act == "play":
            self._table_act(value)
        elif act == "ask-coach":
            self._ask()
        elif act == "coach-refine":
            return self._refine()
        elif act == "coach-foresee":
            self._foresee()
        elif act == "command":
            self._command(fields.get("line", ""))
        elif act.startswith("set-") and act[4:] in SETTINGS:
            self._set(act[4:], value == "on")
        elif act == "coach-toggle":
            if self.table is not None:
                self.table.coach = value == "on"
        elif act == "replay-from":
            self._replay_from(int(value))
        elif act == "export":
            return {"download": self._export()}
        elif act == "import":
            self._import(Path(value), fields.get("name", "the file"))
        else:
            raise ValueError(f"the page asked for {act!r}, which this version does not do")
        return None

    def _go(self, screen: str) -> None:
        self.screen = screen
        self.feedback = ""

    def _need_panel(self) -> _Panel:
        if self.panel is None:
            raise ValueError("there is no question in front of you")
        return self.panel

    # ---- lessons, quizzes, reviews: one answer path ----------------------------------------

    def _open_lesson(self, lesson_id: str) -> None:
        self.lesson = LessonSession(find_lesson(lesson_id), self.store)
        self._go("lesson")
        self._new_panel()

    def _open_quiz(self, kind: str) -> None:
        if kind not in QUIZ_KINDS:
            raise ValueError(f"no drill {kind!r}")
        self.quiz = QuizSession(kind, self.seed, rules=get_ruleset(self.quiz_rules),
                                hard=self.quiz_level == "hard", store=self.store,
                                simple_met=met_simple_scoring(self.store))
        self._go("quiz")
        self._new_panel()

    def _open_review(self) -> None:
        from ..teaching.review.session import ReviewSession

        self.reviewing = ReviewSession(self.store, self.seed)
        self._go("review")
        self._new_panel()

    def _current_step(self) -> Step[Any] | None:
        if self.screen == "lesson" and self.lesson is not None:
            return self.lesson.step
        if self.screen == "quiz" and self.quiz is not None:
            return self.quiz.question
        if self.screen == "review" and self.reviewing is not None:
            return self.reviewing.question
        return None

    def _new_panel(self) -> None:
        step = self._current_step()
        self.panel = _Panel(step) if step is not None else None
        self.feedback = ""
        if self.screen == "lesson" and self.lesson is not None and step is not None:
            st = self.lesson.status
            if st.solved or st.revealed:
                self.panel.locked = True  # type: ignore[union-attr]
                if st.last is not None:  # solved before (a reload, or Back): say so
                    self.feedback = feedback_html(st.last)

    def _answer_with(self, raw: Any) -> None:
        panel = self._need_panel()
        try:
            if self.screen == "lesson" and self.lesson is not None:
                fb = self.lesson.answer(raw)
            elif self.screen == "quiz" and self.quiz is not None:
                fb = self.quiz.answer(raw)
            elif self.screen == "review" and self.reviewing is not None:
                fb = self.reviewing.answer(raw)
            else:
                raise ValueError("there is no question in front of you")
        except AnswerError as err:
            self.feedback = f'<div class="pepper-fb wrong">{_e(err)}</div>'
            self.spoken.append(lines_words([str(err)]))
            return
        self._settle(fb, panel)

    def _settle(self, fb: Feedback, panel: _Panel) -> None:
        self.feedback = feedback_html(fb)
        self.spoken.append(feedback_words(fb))
        if fb.correct or fb.revealed or self.screen != "lesson":
            panel.locked = True
        else:
            panel.order = []  # a wrong try in a lesson: pick again

    def _hint(self) -> None:
        if self.lesson is None or self.screen != "lesson":
            return
        level, text = self.lesson.hint()
        self.feedback = (f'<div class="pepper-fb pepper-hint-text"><b>Hint {level} of '
                         f"{self.lesson.hint_total}</b><div class=\"pepper-pre\">{_e(text)}"
                         "</div></div>")
        self.spoken.append(hint_words(level, self.lesson.hint_total, text))
        if self.lesson.status.revealed and self.panel is not None:
            self.panel.locked = True

    def _reveal(self) -> None:
        panel = self._need_panel()
        if self.screen == "lesson" and self.lesson is not None:
            fb = self.lesson.reveal()
        elif self.screen == "quiz" and self.quiz is not None:
            fb = self.quiz.reveal()
        elif self.screen == "review" and self.reviewing is not None:
            fb = self.reviewing.reveal()
        else:
            return
        panel.locked = True
        self.feedback = feedback_html(fb)
        self.spoken.append(feedback_words(fb))

    def _next(self) -> None:
        if self.screen == "lesson" and self.lesson is not None:
            self.lesson.next()
        elif self.screen == "quiz" and self.quiz is not None:
            self.quiz.next_question()
        elif self.screen == "review" and self.reviewing is not None:
            self.reviewing.next()
        self._new_panel()

    def _back(self) -> None:
        if self.screen == "lesson" and self.lesson is not None:
            self.lesson.back()
            self._new_panel()

    def _replay(self) -> None:
        if self.screen == "lesson" and self.lesson is not None:
            self.lesson.replay()
            self._new_panel()

    def _undo(self) -> None:
        panel = self._need_panel()
        if panel.order and not panel.locked:
            panel.order.pop()

    # ---- the screens -----------------------------------------------------------------------

    def _screen_html(self) -> str:
        body = {"home": self._home_html, "lesson": self._lesson_html, "quiz": self._quiz_html,
                "review": self._review_html, "progress": self._progress_html,
                "table": self._table_html, "puzzles": self._puzzles_html,
                "themes": self._themes_html, "settings": self._settings_html}[self.screen]()
        nav = ('<nav class="pepper-nav" aria-label="The page">'
               + _button("Start", "home", cls="pepper-home")
               + _button("Progress", "progress", cls="pepper-progress-link")
               + _button("Settings", "settings", cls="pepper-settings-link") + "</nav>")
        at_table = self.screen == "table" and self.table is not None and self.offer is None
        help_text = TABLE_HELP if at_table else self._help_line()
        command = ('<form class="pepper-command" data-act="command" '
                   'aria-label="Command line"><label for="pepper-command">Type a command'
                   '</label> <input id="pepper-command" name="line" type="text" '
                   'autocomplete="off" spellcheck="false" aria-describedby="pepper-command-'
                   'help"> <button type="submit" class="pepper-btn">Go</button>'
                   f'<div id="pepper-command-help" class="pepper-muted">{_e(help_text)}</div>'
                   "</form>")
        notice, self.notice = self.notice, ""
        return (f"<style>{FEEDBACK_CSS}</style>{nav}"
                + (f'<div class="pepper-fb pepper-notice" role="status">{notice}</div>'
                   if notice else "")
                + body + command + self._save_notice())

    def _save_notice(self) -> str:
        """Whatever the store could not save, said on every screen until it is said once."""
        new = self.store.warnings[self.said:]
        self.said = len(self.store.warnings)
        warn = list(new)
        if not self.store.ok and not new:
            warn.append(self.store.warning or "your progress is not being saved")
        if not warn:
            return ""
        return ('<div class="pepper-fb wrong pepper-save-warning" role="alert"><b>Not saved:'
                f"</b> {_e('; '.join(warn))}</div>")

    def _home_html(self) -> str:
        saved = self.store.lessons()
        rows = []
        for lesson in all_lessons():
            p = saved.get(lesson.id)
            state = ("finished" if p is not None and p.finished_runs else
                     "in progress" if p is not None else "not started")
            rows.append('<li class="pepper-lesson-item">'
                        + _button(_e(lesson.title), "lesson", lesson.id,
                                  cls=f"pepper-lesson-{_e(lesson.id)}")
                        + f' <span class="pepper-muted">{_e(state)}</span>'
                        f'<div class="pepper-muted">{_e(lesson.summary)}</div></li>')
        drills = "".join(
            f"<li>{_button(_e(words), 'quiz', kind, cls=f'pepper-quiz-{kind}')}"
            + (' <span class="pepper-muted">judgement, checked by the analysis</span>'
               if kind in JUDGEMENT_KINDS else "") + "</li>"
            for kind, words in DRILLS.items() if kind in QUIZ_KINDS)
        from ..teaching.learner.progress import progress_summary

        due = len(progress_summary(self.store).due)
        review = (f"{due} review{'s' if due != 1 else ''} due now: each missed rule comes "
                  "back in a new position." if due else
                  "No reviews are due: missed lesson steps and quiz questions come back here.")
        return (f"<h2>Lessons</h2><ol class=\"pepper-lessons\">{''.join(rows)}</ol>"
                f"<h2>Drills</h2><ul class=\"pepper-drills\">{drills}</ul>"
                f"<h2>Review</h2><p>{_e(review)}</p>"
                + (_button("Review now", "review", cls="pepper-open-review primary")
                   if due else "")
                + "<h2>The practice table</h2><p>Play whole hands against computer players, "
                  "with a coach who grades each of your decisions from Best to Blunder and "
                  "says why. Take back a decision and try another.</p>"
                + _button("Sit down at the table", "table", cls="pepper-open-table primary")
                + "<h2>Puzzles</h2><p>Positions from played hands where one answer is "
                  "clearly best: find it. Your puzzle rating rises and falls with your first "
                  "answers; the themes you miss come back as fresh puzzles.</p>"
                + f'<p class="pepper-muted pepper-puzzle-summary">{self._puzzle_summary()}</p>'
                + _button("Puzzles", "puzzles", cls="pepper-open-puzzles primary")
                + saved_hands_html(self.home / "table-hands")
                + "<h2>Your progress file</h2><p>Your progress is kept in this browser. "
                  "Save it as a file to keep a copy or to carry it to another browser or to "
                  "<code>pepper-tutor</code> on a computer (it is the "
                  f"<code>{DB_NAME}</code> of the terminal tutor). Loading a file replaces "
                  "the progress kept here (your puzzle ratings too, when the file holds them): "
                  "download yours first.</p>"
                + _button("Download my progress", "export", cls="pepper-export")
                + '<label class="pepper-btn pepper-import-label">Load a progress file '
                  '<input type="file" class="pepper-import" data-act="import" '
                  'accept=".sqlite,application/vnd.sqlite3,application/octet-stream">'
                  "</label>")

    def _lesson_html(self) -> str:
        session = self.lesson
        assert session is not None
        lesson = session.lesson
        head = f"<h2>{_e(lesson.title)}</h2>" + self._requires(lesson)
        done, total = session.progress()
        bar = (f'<progress class="pepper-progress" value="{done}" max="{max(total, 1)}">'
               f"{done} of {total}</progress>")
        step = session.step
        if step is None:
            mistakes = sum(session.mistakes.values())
            replay = " (a replay)" if session.is_replay else ""
            missed = (" The rules you missed come back in the review." if mistakes else "")
            return (head + bar + f'<p class="pepper-progress-text"><b>Lesson finished{replay}:'
                    f"</b> {done} of {total} solved, {mistakes} mistake"
                    f"{'s' if mistakes != 1 else ''}.{_e(missed)}<br>Your record: "
                    f"{_e(session.record_text())}.</p>" + self._feedback_html()
                    + '<div class="pepper-buttons">'
                    + _button("◀ Back", "back", cls="pepper-back", disabled=not session.queue)
                    + _button("Replay the lesson", "replay", cls="pepper-replay") + "</div>")
        review = " — a step you missed, once more" if session.is_review else ""
        # a step solved or shown has nothing left to hint at or show
        open_step = step.answerable and not (session.status.solved or session.status.revealed)
        line = (f'<p class="pepper-progress-text">Step {session.position + 1} of '
                f"{len(session.queue)}{review} · {_e(session.progress_text())}</p>")
        guide = lesson.guide_of(step)
        whole = ""
        if guide is not None:  # the guide loads the annotator: only for a step that has one
            from ..render.guide_html import lesson_guide_html

            whole = lesson_guide_html(guide, height=780)
        return (head + bar + line + step_html(step) + whole + self._panel_html()
                + self._feedback_html() + '<div class="pepper-buttons">'
                + _button("◀ Back", "back", cls="pepper-back", disabled=session.position == 0)
                + _button("Hint", "hint", cls="pepper-hint", disabled=not open_step)
                + _button("Show answer", "reveal", cls="pepper-reveal", disabled=not open_step)
                + _button("Next ▶", "next", cls="pepper-next" + (
                    " primary" if session.can_advance else ""),
                    disabled=not session.can_advance) + "</div>")

    def _requires(self, lesson: Lesson) -> str:
        if not lesson.requires:
            return ""
        by_id = {x.id: x for x in all_lessons()}
        parts = []
        for rid in lesson.requires:
            known = by_id.get(rid)
            if known is None:
                continue
            done = LessonSession(known, self.store).finished_runs
            parts.append(f"{_e(known.title)} (finished)" if done else
                         f"{_e(known.title)}: not finished yet")
        return f'<p class="pepper-requires">Builds on: {"; ".join(parts)}.</p>' if parts else ""

    def _panel_html(self) -> str:
        return self.panel.html() if self.panel is not None else ""

    def _feedback_html(self) -> str:
        # not a live region: the page's one live region says the feedback, once (_settle)
        return f'<div class="pepper-feedback">{self.feedback}</div>'

    def _quiz_html(self) -> str:
        quiz = self.quiz
        assert quiz is not None and quiz.question is not None
        answered = self.panel is not None and self.panel.locked

        def select(act: str, chosen: str, options: tuple[str, ...], label: str) -> str:
            opts = "".join(f'<option value="{o}"{" selected" if o == chosen else ""}>{o}'
                           "</option>" for o in options)
            return (f'<label class="pepper-muted">{label} <select class="pepper-{act}" '
                    f'data-act="{act}">{opts}</select></label> ')

        level = select("quiz-level", self.quiz_level, ("hard", "easy"), "Level")
        rules = select("quiz-rules", self.quiz_rules, ("standard", "simple"), "Rules")
        return (f"<h2>{_e(DRILLS.get(quiz.kind, quiz.kind))}</h2>"
                f'<div class="pepper-buttons">{level}{rules}</div>'
                f'<p class="pepper-streak"><b>{_e(quiz.score_text)}</b></p>'
                + step_html(quiz.question) + self._panel_html() + self._feedback_html()
                + '<div class="pepper-buttons">'
                + _button("Reveal", "reveal", cls="pepper-reveal", disabled=answered)
                + _button("Next question ▶", "next", cls="pepper-next"
                          + (" primary" if answered else ""), disabled=not answered)
                + "</div>")

    def _review_html(self) -> str:
        rs = self.reviewing
        assert rs is not None
        step, item = rs.question, rs.item
        if step is None or item is None:
            text = (f"<b>Review done:</b> {rs.right} of {len(rs.items)} right. Right answers "
                    "come back later and later; missed ones soon." if rs.items else
                    "<b>No reviews are due.</b> Missed lesson steps and quiz questions come "
                    "back here when they are due.")
            return f'<h2>Review</h2><div class="pepper-fb pepper-review-done">{text}</div>'
        answered = self.panel is not None and self.panel.locked
        return (f'<h2>Review</h2><p class="pepper-review-header"><b>{_e(rs.score_text)}</b> · '
                f"{_e(rs.where)}</p>"
                + step_html(step) + self._panel_html() + self._feedback_html()
                + '<div class="pepper-buttons">'
                + _button("Show answer", "reveal", cls="pepper-reveal", disabled=answered)
                + _button("Next review ▶", "next", cls="pepper-next"
                          + (" primary" if answered else ""), disabled=not answered)
                + "</div>")

    def _progress_html(self) -> str:
        from ..rulebook.book import get_rulebook, rule_label
        from ..teaching.learner.progress import progress_summary

        p = progress_summary(self.store)
        rows = "".join(
            f"<tr><td>{_e(rule_label(r.id))}</td>"
            f"<td>{'mastered' if r.id in p.mastered else 'practised'}</td></tr>"
            for r in get_rulebook() if r.id in p.practised)
        lines = "".join(f"<li>{_e(line)}</li>" for line in p.lines)
        return (f'<h2>Your progress</h2><div class="pepper-progress-view"><ul>{lines}</ul>'
                + (_button("Review now", "review", cls="pepper-open-review primary")
                   if p.due else "")
                + (f'<table class="pepper-rules"><tr><th>rule</th><th>status'
                   f"</th></tr>{rows}</table>" if rows else "") + "</div>")

    # ---- the practice table ----------------------------------------------------------------

    def _open_table(self) -> None:
        from ..teaching.practice.history import HistoryUnreadable, TableHistory

        self._go("table")
        if self.table is not None:
            return
        try:
            self.offer = TableHistory(self.home / "table.sqlite").unfinished_match("standard")
        except HistoryUnreadable as err:
            self.offer = None
            self.notice = _e(err)
        if self.offer is None:
            self._new_match(fresh=False)

    def _table_kwargs(self) -> dict[str, Any]:
        from ..teaching.practice.history import HistoryUnreadable, TableHistory

        history: TableHistory | bool
        try:
            history = TableHistory(self.home / "table.sqlite")
        except HistoryUnreadable:
            history = True  # the table says why, and keeps no history
        return {"coach": self.table.coach if self.table is not None else True,
                "seed": self.seed, "coach_samples": self.coach_samples,
                "refine_samples": self.refined_samples,
                "save_dir": self.home / "table-hands", "history": history}

    def _kept(self, name: str) -> str:
        try:
            return read_text(self.home / name).strip()
        except (OSError, ValueError):
            return ""

    def _keep(self, name: str, text: str) -> None:
        try:
            if text:
                write_text(self.home / name, text + "\n")
            else:
                (self.home / name).unlink(missing_ok=True)
        except OSError:
            pass  # a reload then deals afresh: nothing is lost but the same deal

    def _new_match(self, fresh: bool = True) -> None:
        """A new match; ``fresh=False`` (sitting down) deals the match dealt last time when
        it has not begun, so a reload does not deal a new hand each visit."""
        import random

        from ..teaching.practice.table import PracticeTable

        self.offer, self.pending = None, ""
        kwargs = self._table_kwargs()
        if self.seed is None:
            kept = "" if fresh else self._kept(TABLE_DEAL_FILE)
            kwargs["seed"] = int(kept) if kept.isdigit() else random.randrange(2**31)
            self._keep(TABLE_DEAL_FILE, str(kwargs["seed"]))
        self.table = PracticeTable("standard", "S", self.table_level, **kwargs)
        t = self.table
        warn = [t.warning] if t.warning else []
        self.table_lines = [_e(w) for w in warn] + [
            _e(f"You sit {t.seat.word}; computer players at {t.level} level. "
               f"{t.rules.name.capitalize()} rules, match to {t.rules.target}.")]
        self.coach_box = ""
        self.spoken.append(f"You sit {t.seat.word}; computer players at {t.level} level. "
                           f"{t.rules.name.capitalize()} rules, match to {t.rules.target}. "
                           f"Hand {t.hand_number}.")
        self._say(t.decisions)
        self._say_turn()
        self._go("table")

    def _resume(self) -> None:
        from ..teaching.practice.table import PracticeTable

        if self.offer is None:
            return
        offer, self.offer, self.pending = self.offer, None, ""
        self.table = PracticeTable.resume(offer, **self._table_kwargs())
        self.table_lines = [f"<b>Resumed your match:</b> {_e(offer.summary)}."]
        self.spoken.append(f"Resumed your match: {offer.summary}.")
        self._say(self.table.decisions)
        self.coach_box = ""
        self._say_turn()

    def _need_table(self) -> PracticeTable:
        if self.table is None:
            raise ValueError("you are not at the table")
        return self.table

    def _table_act(self, value: str) -> None:
        t = self._need_table()
        legal = t.state.legal_actions()
        action: Any
        if value.startswith("c:"):
            action = Card.parse(value[2:])
        elif value.startswith("a:"):
            index = int(value[2:])
            if not 0 <= index < len(legal):
                raise ValueError("that choice is no longer on offer")
            action = legal[index]
        else:
            raise ValueError(f"the page sent {value!r}, which is no card or choice")
        # a decision the rules refuse is refused at once, never held to be confirmed
        if self.settings["confirm"] and self.pending != value and action in legal:
            self._choose(action, value)
            return
        self._decide(action)

    def _value_of(self, action: Any) -> str:
        """What the page sends for ``action``: ``c:JD`` for a card, ``a:N`` for the N-th
        legal action otherwise."""
        if isinstance(action, Card):
            return f"c:{action}"
        return f"a:{list(self._need_table().state.legal_actions()).index(action)}"

    def _choose(self, action: Any, value: str) -> None:
        """With "confirm each decision" on: the decision is chosen, and counts when chosen
        again (or confirmed)."""
        self.pending = value
        what = "card" if isinstance(action, Card) else "choice"
        self.spoken.append(f"{self._pending_words(action)}? Choose it again, press Confirm "
                           f"or type yes; or choose another {what}.")

    def _pending_words(self, action: Any) -> str:
        return order_words(self._need_table().state, action)

    def _pending_action(self) -> Any:
        """The decision waiting to be confirmed (None when there is none, or it is no longer
        on offer)."""
        if not self.pending:
            return None
        legal = list(self._need_table().state.legal_actions())
        if self.pending.startswith("c:"):
            card = Card.parse(self.pending[2:])
            return card if card in legal else None
        index = int(self.pending[2:])
        return legal[index] if 0 <= index < len(legal) else None

    def _cancel_card(self) -> None:
        if self.pending:
            self.pending = ""
            self.spoken.append("Not done: choose again.")

    def _decide(self, action: Any) -> None:
        """The learner's decision (an action, or a typed line the table reads), said aloud
        with the computer players' replies, or the rules' refusal."""
        t = self._need_table()
        self.pending = ""
        result = t.act(action)
        if not result.verdict.legal:
            self.coach_box = self._verdict_html(result.verdict, action)
            self.spoken.append(self.refusal_words(result.verdict, action))
            return
        self._keep(TABLE_DEAL_FILE, "")  # begun: the history keeps the match now
        self._say([t.learner_decisions[-1]])
        coach = result.coach
        self.coach_box = "" if coach is None or coach.forced else self._last_coach_html(coach)
        self.said_grade = ("", 0)
        if coach is not None and not coach.forced:
            self.spoken.append(f"Coach: {coach.headline}"
                               + ("" if coach.grade.value == "Best" else f" {coach.reason}"))
            self.said_grade = (coach.grade.value, coach.samples)
        self._say(result.replies)
        self._say_turn()

    def _take_back(self) -> None:
        d = self._need_table().take_back()
        self.pending = ""
        self.table_lines.append(f"<i>You took back {_e(action_text(d.action))}.</i>")
        self.spoken.append(f"You took back {action_text(d.action)}.")
        self.coach_box = ""
        self._say_turn()

    def _replay_from(self, number: int) -> None:
        d = self._need_table().replay_from(number)
        self.pending = ""
        self.table_lines.append(f"<i>Back to your decision {number} "
                                f"({_e(action_text(d.action))}): same cards, choose again.</i>")
        self.spoken.append(f"Back to your decision {number} ({action_text(d.action)}): same "
                           "cards, choose again.")
        self.coach_box = ""
        self._say_turn()

    def _ask(self) -> None:
        t = self._need_table()
        coach = t.grade_last()
        mine = t.learner_decisions
        if coach is not None:
            self.coach_box = self._last_coach_html(coach)
            self.spoken.append(f"Coach: {coach.headline} {coach.reason}")
            self.said_grade = (coach.grade.value, coach.samples)
        elif mine and mine[-1].hinted:
            self.coach_box = ('<div class="pepper-fb">You asked for a hint on that decision, '
                              "so it is not graded.</div>")
            self.spoken.append("You asked for a hint on that decision, so it is not graded.")
        else:
            self.spoken.append("You have not made a decision this hand yet: type hint for "
                               "the coach's suggestion on this one.")

    def _table_hint(self) -> None:
        hint = self._need_table().hint()
        self.coach_box = ('<div class="pepper-fb pepper-hint-text"><b>Hint</b> (this decision '
                          f"will not be graded): {_e(hint.text)}</div>")
        self.spoken.append(f"Hint (this decision will not be graded): {hint.text}")

    def _next_hand(self) -> None:
        t = self._need_table()
        result = t.next_hand()
        counted = f"Hand {result.number} counted: " + ", ".join(
            f"{s} {p}" for s, p in result.totals.items())
        self.table_lines = [f"<b>{_e(counted)}</b>"]
        self.spoken.append(counted + ".")
        if t.history_news:
            self.table_lines.append(f"<i>{_e(t.history_news)}</i>")
        self.pending = ""
        self._say(t.decisions)
        self.coach_box = ""
        self._say_turn()

    def _say(self, moves: list[Decision] | tuple[Decision, ...]) -> None:
        """The moves in the table's log, and each once, in words, to the live region."""
        from ..render.table_words import event_sentence

        t = self._need_table()
        size = len(t.state.active_seats)
        self.spoken.extend(event_sentence(t, d) for d in moves)
        for d in moves:
            self.table_lines.append(f"You: {_e(d.text)}" if d.learner else
                                    f"{_e(t.player_name(d.seat))} {_e(d.words)}")
            n = d.where[0]
            if d.phase is Phase.PLAY and d.where[1] == size and n <= len(t.state.tricks):
                trick = t.state.tricks[n - 1]
                self.table_lines.append(
                    f"<b>Trick {n}: {_e(t.player_name(trick.winner))} won with the "
                    f"{_e(trick.cards[trick.winning_index].display)}</b>")

    def _refining(self) -> bool:
        """Whether the page should ask for a surer grade (every reply says, as ``refine``):
        the table is shown, its coach box shows the grade of the learner's last decision
        (not a hint, a verdict or nothing) and a surer one is to come."""
        refinement = self.table.refinement if self.table is not None else None
        return (self.screen == "table" and bool(self.coach_box)
                and self.coach_box == self.grade_box and refinement is not None
                and refinement.more)

    def _refine(self) -> dict[str, Any]:
        """One more step of the last decision's grade, over more deals: the new coach box
        (``coach``) for the page to put in place of the old, and ``deals``; nothing where
        the box no longer shows that grade."""
        if not self._refining():
            return {"refine": False}
        assert self.table is not None
        refinement = self.table.refine_last()
        assert refinement is not None
        verdict = refinement.verdicts[-1]
        self.coach_box = self._last_coach_html(verdict)
        grade = verdict.grade.value
        said, deals = self.said_grade
        if said and grade != said:
            self.spoken.append(regrade_words(said, deals, grade, verdict.samples,
                                             "" if grade == "Best" else verdict.reason))
            self.said_grade = (grade, verdict.samples)
        return {"refine": self._refining(), "coach": self.coach_box, "deals": verdict.samples}

    def _foreseeing(self) -> bool:
        """Whether the page should ask for the coach's work on the decision in front of the
        learner (every reply says, as ``foresee``): the table is shown and that work is not
        done. The page asks once no surer grade of the last decision is to come."""
        return self.screen == "table" and self.table is not None and self.table.foreseeing

    def _foresee(self) -> None:
        """One piece of the coach's work on the decision in front of the learner, before
        they make it (see PracticeTable.foresee); the reply says the deals its grades rest
        on so far (``ahead``, as every reply does) and whether work is left."""
        if self._foreseeing():
            assert self.table is not None
            self.table.foresee()

    def _last_coach_html(self, coach: CoachVerdict) -> str:
        """The coach box for the learner's last decision: with the refinement's state (more
        deals to come; a grade revised from the one shown first)."""
        refinement = self.table.refinement if self.table is not None else None
        if refinement is None or coach is not refinement.verdicts[-1]:
            return self._coach_html(coach)
        self.grade_box = self._coach_html(coach, refinement.first, refinement.more)
        return self.grade_box

    def _coach_html(self, coach: CoachVerdict, first: CoachVerdict | None = None,
                    more: bool = False) -> str:
        """A grade, the deals it rests on and, where it is surer than the one shown
        ``first`` and no longer the same grade, that it revises it (a grade the learner
        has read never changes unsaid)."""
        grade = coach.grade.value
        reason = "" if grade == "Best" else f"<div>{_e(coach.reason)}</div>"
        revised = ""
        if first is not None and first is not coach and first.grade is not coach.grade:
            # the grade's line below says what it is now (a panel of at most 60 words)
            revised = (f'<div class="pepper-grade-revised"><b>Revised</b> from '
                       f"{_e(first.grade.value)} over {first.samples} deals.</div>")
        deals = ""
        if not coach.forced:
            later = "; grading over more deals…" if more else "."
            from ..analysis.reasons import figures_meaning

            # What the figures mean, on request: the line that says the deals opens it.
            deals = (f'<details class="pepper-muted pepper-grade-deals"><summary>Graded over '
                     f"{coach.samples} deals{later}</summary>"
                     f"{_e(figures_meaning(coach.samples))}</details>")
        return (f'<div class="pepper-fb pepper-grade pepper-grade-{grade.lower()}" '
                f'style="border-left-color:{_GRADE_COLOUR[grade]}">{revised}<b class="pepper-'
                f'grade-text">{_e(coach.headline)}</b>{reason}{deals}</div>')

    def _verdict_html(self, verdict: Verdict, action: Any) -> str:
        what = f"the {action.display}" if isinstance(action, Card) else action_text(action)
        from ..rulebook.book import rule_tag

        # The rule quoted in words; its id only in the opt-in rule ids view.
        rules = "".join(f'<div class="pepper-muted">{_e(rule_tag(r.id))}{_e(r.text)}</div>'
                        for r in verdict.rules)
        return (f'<div class="pepper-fb wrong"><b>Not allowed: {_e(what)}.</b> '
                f'{_e(" ".join(verdict.facts))}{rules}</div>')

    def _table_html(self) -> str:
        levels = "".join(
            f'<option value="{lv}"{" selected" if lv == self.table_level else ""}>{lv}'
            "</option>" for lv in ("beginner", "club", "expert"))
        level = (f'<label class="pepper-muted">Computer players <select class="pepper-table-'
                 f'level" data-act="table-level">{levels}</select></label>')
        if self.offer is not None:
            return ('<h2>The practice table</h2><div class="pepper-fb pepper-resume-offer">'
                    f"<b>You have a match in progress</b> ({_e(self.offer.summary)}).</div>"
                    '<div class="pepper-buttons">'
                    + _button("Resume it", "table-resume", cls="pepper-resume primary")
                    + _button("Start a new match", "table-new", cls="pepper-new-match")
                    + level + "</div>")
        t = self._need_table()
        s = t.state
        totals = ", ".join(f"{_e(side)}{' (you)' if side == t.learner_side else ''} {p}"
                           for side, p in t.match.totals.items())
        rows = [("Dealer", _e(t.player_name(s.dealer))),
                ("Auction", _e(", ".join(f"{seat} {bid.display}" for seat, bid in s.calls))
                 or "(nobody has spoken yet)"),
                ("Contract", _e(t.contract_text()) if s.trump is not None else
                 f"{_e(t.contract_text())} so far, trumps not named yet"
                 if s.bidder is not None else "none yet (the auction is on)")]
        exchange = t.exchange_text()
        if exchange:
            rows.append(("Exchange", _e(exchange)))
        if s.sitting_out is not None:
            rows.append(("Sits out", _e(t.player_name(s.sitting_out))))
        if s.tricks or s.phase is Phase.PLAY:
            rows.append(("Tricks", _e(", ".join(f"{side} {n}"
                                                for side, n in s.tricks_won().items()))))
        board = ('<table class="pepper-board">' + "".join(
            f'<tr><td class="pepper-muted">{k}</td><td>{v}</td></tr>' for k, v in rows)
            + "</table>")
        from ..teaching.practice.table import phase_prompt

        yours = t.learner_to_act
        card_phase = s.phase in (Phase.PLAY, Phase.DISCARD, Phase.SEND)
        prompt = (f"<b>{_e(phase_prompt(s))}</b>" if yours else "" if t.hand_over else
                  "<i>The computer players are thinking…</i>")
        hand = sort_by_rank(s.hand(t.seat), s.trump if s.trump is not None else Trump.NT)
        confirm = self.settings["confirm"]
        cards = "".join(_card_button(c, "play", f"c:{c}", disabled=not (yours and card_phase),
                                     trump=s.trump, left_bower=s.rules.left_bower,
                                     pressed=(self.pending == f"c:{c}") if confirm else None)
                        for c in hand)
        waiting = ""
        chosen = self._pending_action() if confirm and yours else None
        if chosen is not None:
            said = self._pending_words(chosen)
            said = said[:1].lower() + said[1:]
            shown = f"play the {_e(chosen.display)}" if isinstance(chosen, Card) else _e(said)
            waiting = ('<div class="pepper-buttons pepper-confirm">'
                       + _button(f"Confirm: {shown}", "play", self.pending,
                                 cls="pepper-confirm-card primary",
                                 aria=f"Confirm: {said}")
                       + _button("Cancel", "play-cancel", cls="pepper-cancel-card") + "</div>")
        choices = ""
        if yours and not card_phase:
            choices = "".join(
                _button(_e(a.word if isinstance(a, Trump) else action_text(a)), "play",
                        f"a:{i}", cls=f"pepper-choice pepper-choice-{_e(str(a).replace(' ', '-'))}",
                        pressed=(self.pending == f"a:{i}") if confirm else None)
                for i, a in enumerate(s.legal_actions()))
        mine = t.learner_decisions
        replay = "".join(_button(f"{i}. {_e(d.kind)}: {_e(action_text(d.action))}",
                                 "replay-from", i, cls=f"pepper-replay-{i}")
                         for i, d in enumerate(mine, 1))
        coach_on = ('<label class="pepper-muted"><input type="checkbox" class="pepper-coach-'
                    f'toggle" data-act="coach-toggle"{" checked" if t.coach else ""}> Coach every '
                    "decision</label>")
        return (f'<h2>The practice table</h2><div class="pepper-table"><p class="pepper-table-'
                f'score"><b>Hand {t.hand_number}</b> · match to {t.rules.target}: {totals}</p>'
                + board + self._seats_html() + f'<p class="pepper-prompt">{prompt}</p>'
                + f'<div class="pepper-hand" role="group" aria-label="Your hand">{cards}</div>'
                + waiting + f'<div class="pepper-choices">{choices}</div>'
                + f'<div class="pepper-coach">{self.coach_box}</div>'
                + '<div class="pepper-buttons">'
                + _button("Hint", "table-hint", cls="pepper-hint", disabled=not yours,
                          title="The coach suggests this decision, and says why (it is then "
                                "not graded)")
                + _button("↶ Take back", "take-back", cls="pepper-undo", disabled=not mine)
                + _button("Ask the coach", "ask-coach", cls="pepper-ask-coach",
                          disabled=not mine, title="The coach's grade of your last decision")
                + coach_on + "</div>"
                + (f'<details class="pepper-replay-pick"><summary>Replay from one of your '
                   f"decisions</summary>{replay}</details>" if replay else "")
                + '<div class="pepper-log">' + "<br>".join(self.table_lines[-8:]) + "</div>"
                + (self._after_hand_html() if t.hand_over else "")
                + '<div class="pepper-buttons">'
                + _button("Next hand ▶", "next-hand", cls="pepper-next-hand primary",
                          disabled=not t.hand_over or t.match.over)
                + _button("Start a new match", "table-new", cls="pepper-new-match") + level
                + "</div></div>")

    def _seats_html(self) -> str:
        return seats_html(self._need_table())

    def _after_hand_html(self) -> str:
        t = self._need_table()
        review = t.review()
        parts = [f'<div class="pepper-after-hand"><h3>After the hand</h3><p><b>'
                 f"{_e(t.result_text())}</b></p><p>{_e(review.summary)}</p>"]
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
                         f"{_e(t.player_name(trick.winner))}{shown}<div class=\"pepper-muted\">"
                         f"{_e(' · '.join(marks))}</div></div>")
        parts.append(f'<p><a class="pepper-guide-hand" target="_blank" rel="noopener" '
                     f'href="{_e(guide_href(t.record()))}">Step through this hand as a game '
                     "guide</a>, with the coach's grades</p>")
        if t.match.over:
            parts.append(f"<p><b>The match is over: {_e(str(t.match.winner))} won.</b></p>")
        return "".join(parts) + "</div>"

    def _say_turn(self) -> None:
        """After the table moved: the learner's choices, or how the hand ended."""
        from ..render.table_words import turn_sentence

        t = self._need_table()
        if t.hand_over:
            over = " The match is over." if t.match.over else " Type next for the next hand."
            self.spoken.append(f"The hand is over. {t.result_text()}{over}")
        else:
            self.spoken.append(turn_sentence(t))

    @staticmethod
    def refusal_words(verdict: Verdict, action: Any) -> str:
        what = f"the {action.display}" if isinstance(action, Card) else action_text(action)
        if len(verdict.facts) == 2 and "is not what this step needs" in verdict.facts[0]:
            return (f"I could not read {str(action)!r}: {verdict.facts[1].rstrip('.')}. Type "
                    "help for help.")
        return f"Not allowed: {what}. {' '.join(verdict.facts)}"

    # ---- the game layer: the typed command line and the settings ----------------------------

    def _command(self, line: str) -> None:
        """A typed line, as the terminal reads it: at the table a decision or one of the
        table's commands; on any screen the name of a screen to go to."""
        text = " ".join(line.lower().split())
        goto = {"start": "home", "home": "home", "lessons": "home", "progress": "progress",
                "settings": "settings", "puzzles": "puzzles"}
        if not text:
            self.spoken.append(self._help_line())
        elif text in goto:
            if goto[text] == "puzzles":
                self._open_puzzles()
            else:
                self._go(goto[text])
            self.spoken.append(f"{goto[text].capitalize().replace('Home', 'Start')} screen.")
        elif self.screen == "table" and self.table is not None and self.offer is None:
            self._table_command(line)
        elif text in ("table", "play", "sit"):
            dealt = self.table is not None
            self._open_table()
            if self.offer is not None:
                self.spoken.append(f"You have a match in progress ({self.offer.summary}): "
                                   "type resume, or new match.")
            elif dealt:  # back at a table already dealt: where it stands
                from ..render.table_words import table_sentence

                self.spoken.append("Back at the table. " + table_sentence(self._need_table()))
                self._say_turn()
        elif self.offer is not None and text == "resume":
            self._resume()
        elif self.offer is not None and text == "new match":
            self._new_match()
        else:
            self.spoken.append(f"Nothing here reads {line.strip()[:40]!r}. "
                               + self._help_line())

    def _help_line(self) -> str:
        if self.screen == "table" and self.table is not None:
            return TABLE_HELP
        return ("Type table to sit at the practice table, puzzles, progress, settings or "
                "start.")

    def _table_command(self, line: str) -> None:
        from ..render.spoken import hand_words
        from ..render.table_words import table_sentence, turn_sentence
        from .table import TABLE_COMMANDS

        t = self._need_table()
        text = " ".join(line.lower().split())

        def is_decision(raw: str) -> bool:
            return not t.hand_over and t.learner_to_act and t.check(raw).legal

        command = read_command(line, (*TABLE_COMMANDS, *PAGE_COMMANDS), is_decision)
        if self.pending and command in ("yes", "cancel"):
            if command == "yes":
                self._table_act(self.pending)
            else:
                self._cancel_card()
            return
        if text.startswith("replay"):
            number = text.removeprefix("replay").strip()
            if not number.isdigit():
                self.spoken.append("Say which of your decisions: replay 1, replay 2, ...")
            else:
                try:
                    self._replay_from(int(number))
                except ValueError as err:
                    self.spoken.append(str(err))
            return
        actions: dict[str | None, Callable[[], None]] = {
            "help": lambda: self.spoken.append(TABLE_HELP),
            "quit": lambda: self.spoken.append("Your match is kept: type start to leave the "
                                               "table, and table to come back."),
            "hint": self._table_hint, "coach": self._ask,
            "hand": lambda: self.spoken.append(hand_words(t.state.hand(t.seat), t.state.trump,
                                                          t.state.rules.left_bower)),
            "table": lambda: self.spoken.append(table_sentence(t)),
            "choices": lambda: self.spoken.append(turn_sentence(t) or "It is not your turn."),
            "review": lambda: self.spoken.append(
                f"{t.result_text()} {t.review().summary}" if t.hand_over else
                "The review comes when the hand is over."),
            "next": self._next_hand_said, "yes": lambda: self.spoken.append(
                "Nothing is waiting to be confirmed."),
            "cancel": lambda: self.spoken.append("Nothing is waiting to be confirmed."),
        }
        if command == "undo":
            try:
                self._take_back()
            except ValueError as err:
                self.spoken.append(str(err))
        elif command in actions:
            actions[command]()
        elif command is None and text == "new match":
            self._new_match()
        elif t.hand_over:
            self.spoken.append("The hand is over: type next for the next hand, or review.")
        elif not t.learner_to_act:
            self.spoken.append("It is not your turn.")
        else:
            chosen = t.check(line)
            value = self._value_of(chosen.action) if chosen.legal else ""
            if chosen.legal and self.settings["confirm"] and self.pending != value:
                self._choose(chosen.action, value)
            else:
                self._decide(line)

    def _next_hand_said(self) -> None:
        t = self._need_table()
        if not t.hand_over:
            self.spoken.append("The hand is not over yet.")
        elif t.match.over:
            self.spoken.append("The match is over: type new match to start another.")
        else:
            self._next_hand()

    def _read_settings(self) -> dict[str, bool]:
        kept = dict(line.partition("=")[::2] for line in self._kept(SETTINGS_FILE).splitlines())
        return {name: kept.get(name, "off") == "on" for name in SETTINGS}

    def _set(self, name: str, on: bool) -> None:
        self.settings[name] = on
        self._keep(SETTINGS_FILE, "\n".join(f"{k}={'on' if v else 'off'}"
                                            for k, v in self.settings.items()))
        if name == "confirm" and not on:
            self.pending = ""
        self.spoken.append(f"{SETTINGS[name].split(':')[0]}: {'on' if on else 'off'}.")

    def _settings_html(self) -> str:
        boxes = "".join(
            f'<div class="pepper-setting"><input type="checkbox" id="pepper-set-{name}" '
            f'class="pepper-set-{name}" data-act="set-{name}"'
            f'{" checked" if self.settings[name] else ""}> <label for="pepper-set-{name}">'
            f"{_e(words)}</label></div>" for name, words in SETTINGS.items())
        return ("<h2>Settings</h2><p>Kept in this browser with your progress.</p>"
                f'<fieldset class="pepper-settings"><legend>How the page looks and plays'
                f"</legend>{boxes}</fieldset>"
                "<h3>Playing by keyboard or with a screen reader</h3><p>Every screen has a "
                "command line (press <kbd>/</kbd> to jump to it). At the table type a card "
                "(<code>JD</code>, <code>jack of diamonds</code>), a call (<code>pass</code>, "
                "<code>4</code>, <code>LP</code>), a trump, or a word: <code>hand</code> reads "
                "your hand suit by suit, <code>choices</code> what you may do, "
                "<code>table</code> the trick and the score, and <code>hint</code>, "
                "<code>coach</code>, <code>undo</code>, <code>review</code>, <code>next</code>"
                ", <code>help</code>. Everything that happens at the table is said once, "
                "in words, to your screen reader.</p>")

    # ---- the puzzles ------------------------------------------------------------------------

    def _need_puzzle_store(self) -> PuzzleStore:
        """The learner's puzzle ratings: ``puzzles.sqlite`` beside the learner store, under
        the same name (so a progress file loaded here brings both)."""
        from ..teaching.puzzles.store import PuzzleStore

        if self.puzzle_store is None:
            self.puzzle_store = PuzzleStore(self.store.learner, self.home)
        return self.puzzle_store

    def _puzzle_summary(self) -> str:
        store = self._need_puzzle_store()
        tried = len(store.tried())
        if not tried:
            return "You have not tried a puzzle yet."
        return (f"Your puzzle rating: {store.rating().rating:.0f}, after {tried} "
                f"puzzle{'s' if tried != 1 else ''}.")

    def _open_puzzles(self) -> None:
        self._go("puzzles")
        if self.puzzles is None:
            self._start_puzzles()

    def _start_puzzles(self) -> None:
        """A new session of the mode and theme chosen, and its first puzzle."""
        import random

        from ..teaching.puzzles.bank import bank_puzzles
        from ..teaching.puzzles.session import PuzzleSession

        puzzles = bank_puzzles()
        if self.puzzle_theme and self.puzzle_theme not in {p.theme for p in puzzles}:
            self.puzzle_theme = ""
        self.puzzles = PuzzleSession(self._need_puzzle_store(), puzzles,
                                     theme=self.puzzle_theme or None, mode=self.puzzle_mode,
                                     rng=random.Random(self.seed))
        self.puzzle_number = 0
        self._go("puzzles")
        # the puzzle shown before a reload, if it is still unanswered
        mode, theme, pid = [*self._kept(PUZZLE_FILE).split("\t"), "", "", ""][:3]
        kept = next((p for p in puzzles if p.id == pid), None)
        if (kept is not None and (mode, theme) == (self.puzzle_mode, self.puzzle_theme)
                and pid not in self._need_puzzle_store().tried()):
            self.puzzles.current = kept
            self.puzzles.served.add(pid)
            self.puzzle_number = 1
            self.puzzle_answer, self.puzzle_tried, self.puzzle_shown = None, set(), False
            return
        self._next_puzzle()

    def _need_puzzles(self) -> PuzzleSession:
        if self.puzzles is None:
            raise ValueError("you are not in the puzzles room")
        return self.puzzles

    def _next_puzzle(self) -> None:
        puzzle = self._need_puzzles().next()
        if puzzle is not None:
            self.puzzle_number += 1
        self.puzzle_answer, self.puzzle_tried, self.puzzle_shown = None, set(), False
        self._keep(PUZZLE_FILE, "" if puzzle is None else
                   f"{self.puzzle_mode}\t{self.puzzle_theme}\t{puzzle.id}")

    def _answer_puzzle(self, text: str) -> None:
        session = self._need_puzzles()
        if self._puzzle_done():
            return  # a second click on a button of a puzzle already settled
        self.puzzle_answer = session.answer(text)
        self.puzzle_tried.add(self.puzzle_answer.action)
        self._say_puzzle()

    def _reveal_puzzle(self) -> None:
        if self._need_puzzles().current is not None and not self.puzzle_shown:
            self.puzzle_shown = True
            self._say_puzzle()

    def _say_puzzle(self) -> None:
        """The puzzle's feedback as the panel shows it, said once, when it changes."""
        from ..render.puzzles import feedback_lines

        a, puzzle = self.puzzle_answer, self._need_puzzles().current
        if self.puzzle_shown and puzzle is not None:
            from ..render.puzzles import reveal_facts

            self.spoken.append(lines_words(reveal_facts(puzzle)))
        elif a is not None:
            self.spoken.append(lines_words(feedback_lines(a, reveal=a.over)))

    def _puzzle_done(self) -> bool:
        """The puzzle shown takes no more answers: solved, shown or the streak's end."""
        a = self.puzzle_answer
        return self.puzzle_shown or (a is not None and (a.correct or a.over))

    def _puzzle_board(self, puzzle: Puzzle) -> str:
        from ..render.puzzles import position_facts, question

        def cards(value: list[Card]) -> str:
            return " ".join(f'<span class="pepper-inline-card pepper-'
                            f'{"red" if c.is_red else "black"} pepper-suit-{c.suit.letter}" '
                            f'role="img" aria-label="{_e(label(c))}">{_e(c.display)}</span>'
                            for c in value)

        rows = "".join(f'<tr><td class="pepper-muted">{_e(name)}</td><td>'
                       f"{cards(value) if isinstance(value, list) else _e(value)}</td></tr>"
                       for name, value in position_facts(puzzle))
        return (f'<table class="pepper-board pepper-puzzle-position">{rows}</table>'
                f'<p class="pepper-prompt"><b>{_e(question(puzzle))}</b></p>')

    def _puzzle_buttons(self, puzzle: Puzzle) -> str:
        from ..render.puzzles import action_words

        done = self._puzzle_done()
        state = puzzle.position()
        actions: list[Any] = list(state.legal_actions())
        cards = [a for a in actions if isinstance(a, Card)]
        if len(cards) == len(actions):  # in the order the hand is shown
            trump = state.trump if state.trump is not None else Trump.NT
            actions = list(sort_by_rank(cards, trump, state.rules.left_bower))
        parts = []
        for action in actions:
            text = str(action)
            off = done or text in self.puzzle_tried
            if isinstance(action, Card):
                parts.append(_card_button(action, "puzzle-answer", text, disabled=off,
                                          cls="pepper-puzzle-answer"))
            else:
                parts.append(_button(_e(action_words(puzzle, text)), "puzzle-answer", text,
                                     disabled=off, cls="pepper-choice pepper-puzzle-answer"))
        return f'<div class="pepper-answer pepper-hand">{"".join(parts)}</div>'

    def _puzzle_feedback(self, puzzle: Puzzle) -> str:
        from ..render.puzzles import feedback_lines, reveal_facts

        a = self.puzzle_answer
        if self.puzzle_shown:
            kind, lines = "revealed", reveal_facts(puzzle)
        elif a is not None:
            kind, lines = "right" if a.correct else "wrong", feedback_lines(a, reveal=a.over)
        else:
            return ""
        head, rest = lines[0], lines[1:]
        body = "".join(f'<div class="pepper-pre">{_e(line)}</div>' for line in rest)
        return (f'<div class="pepper-fb {kind} pepper-puzzle-feedback"><div class="headline">'
                f"{_e(head)}</div>{body}</div>")

    def _puzzle_picker(self) -> str:
        from ..teaching.puzzles.bank import bank_puzzles
        from ..teaching.puzzles.themes import theme_title

        counts: dict[str, int] = {}
        for p in bank_puzzles():
            counts[p.theme] = counts.get(p.theme, 0) + 1
        themes = sorted(counts, key=lambda t: theme_title(t).lower())
        options = '<option value="">Any theme</option>' + "".join(
            f'<option value="{_e(t)}"{" selected" if t == self.puzzle_theme else ""}>'
            f"{_e(theme_title(t))} ({counts[t]})</option>" for t in themes)
        modes = "".join(
            f'<option value="{m}"{" selected" if m == self.puzzle_mode else ""}>{words}'
            "</option>" for m, words in (("rated", "Rated"), ("streak", "Streak: easy to "
                                         "hard until a miss"),
                                         ("review", "Replay the ones I missed")))
        return ('<div class="pepper-buttons"><label class="pepper-muted">Mode <select '
                f'class="pepper-puzzle-mode" data-act="puzzle-mode">{modes}</select></label>'
                '<label class="pepper-muted">Theme <select class="pepper-puzzle-theme" '
                f'data-act="puzzle-theme">{options}</select></label>'
                + _button("Your themes", "puzzle-themes", cls="pepper-puzzle-dashboard")
                + "</div>")

    def _puzzles_html(self) -> str:
        session = self._need_puzzles()
        store = self._need_puzzle_store()
        head = ("<h2>Puzzles</h2>" + self._puzzle_picker()
                + f'<p class="pepper-puzzle-rating"><b>Your puzzle rating: '
                  f"{store.rating().rating:.0f}</b>"
                + (f" · streak {session.streak} (best {store.best_streak()})"
                   if session.mode == "streak" else "") + "</p>"
                + (f'<div class="pepper-fb wrong">{_e(store.warning)}</div>'
                   if store.warning else ""))
        puzzle = session.current
        if puzzle is None:
            return head + f'<div class="pepper-fb pepper-puzzles-done">{self._no_puzzle()}</div>' \
                + (_button("Start a new streak", "puzzle-mode", "streak",
                           cls="pepper-new-streak primary") if session.over else "")
        from ..teaching.puzzles.themes import theme_title

        done = self._puzzle_done()
        theme = (f" · theme: {_e(theme_title(puzzle.theme))}" if done else "")
        return (head + f'<p class="pepper-progress-text pepper-puzzle-title"><b>Puzzle '
                f"{self.puzzle_number}</b> · rated {puzzle.rating:.0f}{theme}</p>"
                + self._puzzle_board(puzzle) + self._puzzle_buttons(puzzle)
                + f'<div class="pepper-feedback">'
                  f"{self._puzzle_feedback(puzzle)}</div>"
                + '<div class="pepper-buttons">'
                + _button("Show answer", "puzzle-reveal", cls="pepper-reveal", disabled=done)
                + (_button("Start a new streak", "puzzle-mode", "streak",
                           cls="pepper-new-streak primary") if session.over else
                   _button("Next puzzle ▶", "puzzle-next", cls="pepper-next"
                           + (" primary" if done else "")))
                + "</div>")

    def _no_puzzle(self) -> str:
        session = self._need_puzzles()
        if session.mode == "review":
            return ("<b>Nothing is due for review.</b> The themes of the puzzles you miss come "
                    "back here, as fresh puzzles, when they are due.")
        if session.over:
            return f"<b>The streak is over:</b> {session.streak} solved in a row."
        return ("<b>You have tried every puzzle" + (" of this theme" if session.theme else "")
                + ".</b>")

    def _themes_html(self) -> str:
        from ..render.puzzles import dashboard_html

        store = self._need_puzzle_store()
        results = store.themes()
        due = len(store.due_themes())
        rating = store.rating()
        tried = len(store.tried())
        lines = [f"Your puzzle rating: {rating.rating:.0f}, after {tried} "
                 f"puzzle{'s' if tried != 1 else ''}."]
        if due:
            lines.append(f"{due} theme{'s are' if due != 1 else ' is'} due for review: "
                         "choose “Replay the ones I missed”.")
        table = (dashboard_html(results) if results else
                 "<p>No puzzles tried yet: each theme's results show here.</p>")
        return ('<h2>Your puzzle themes, weakest first</h2><div class="pepper-puzzle-themes">'
                + "".join(f"<p>{_e(line)}</p>" for line in lines)
                + '<p class="pepper-muted">Performance: the mean rating of the puzzles you '
                  "tried, less 500, plus 1000 times the share you solved at the first "
                  "attempt.</p>" + table + "</div>"
                + _button("Back to the puzzles", "puzzles", cls="pepper-open-puzzles primary"))

    # ---- the progress file -----------------------------------------------------------------

    def _export(self) -> dict[str, str]:
        """All the progress as one SQLite file: the learner store and the puzzle ratings."""
        from ..teaching.puzzles.store import store_path

        data = progress_bytes(self.store, store_path(self.home))
        self.notice = f"Your progress file is downloaded as <code>{FILE_NAME}</code>."
        return {"name": FILE_NAME, "base64": base64.b64encode(data).decode()}

    def _import(self, upload: Path, name: str) -> None:
        """Replace this browser's progress with a downloaded file, after checking it is one.
        A file that is not is refused, and the progress here is left as it was."""
        from ..teaching.puzzles.store import store_path

        if self.puzzle_store is not None:
            self.puzzle_store.close()
        self.puzzle_store, self.puzzles = None, None
        try:
            loaded = load_progress(self.store, upload, name, store_path(self.home))
        except ProgressFileRefused as refused:
            self.notice = (f"<b>Not loaded:</b> {_e(refused)}. Your progress here is "
                           "unchanged.")
            self._go("home")
            return
        names = loaded.learners
        learner = self.store.learner if self.store.learner in names or not names else names[0]
        write_text(self.home / LEARNER_FILE, learner + "\n")
        self.store = LearnerStore(learner, self.home)
        puzzles = ""
        if loaded.puzzles == "none":
            puzzles = " The file holds no puzzle ratings: yours here are unchanged."
        elif loaded.puzzles == "newer":
            puzzles = (" Its puzzle ratings were written by a newer pepper-tutor: yours here "
                       "are unchanged.")
        elif tried := len(self._need_puzzle_store().tried()):
            puzzles = f" Your puzzles came too: {tried} tried."
        self.said = 0
        self.lesson, self.quiz, self.reviewing = None, None, None
        self.panel = None
        answers = len(self.store.answers())
        who = f" (the progress of {_e(learner)})" if learner != DEFAULT_LEARNER else ""
        self.notice = (f"Loaded your progress from {_e(name)}{who}: {answers} answer"
                       f"{'s' if answers != 1 else ''}, {len(self.store.lessons())} lesson"
                       f"{'s' if len(self.store.lessons()) != 1 else ''} begun.{puzzles}")
        self._go("home")
