"""The puzzle round: a puzzle of the shipped set put to the whole room as one quiz question.

A puzzle question is a :class:`PuzzleStep`, so the quiz's timer, answers, results and
leaderboard take it as they take a drill: each phone shows the position with the legal
options as buttons, an answer is right when it is one of the puzzle's answers (an answer
worth exactly as much counts), and once the question closes the room sees what the answer
and the tempting option are worth, the theme with its rules, and the sampled layout where the
tempting option fails. The words are the puzzles' own (:mod:`pepper_tutor.render.puzzles`).

The host picks a theme (or any) and a level: easy draws from the lower half of the theme's
ratings, hard from the upper half; a puzzle is asked at most once a night.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import ClassVar

from ...engine.calls import Trump
from ...engine.cards import Card
from ...engine.ranking import sort_by_rank
from ...engine.state import Action, HandState
from ...render.puzzles import (
    action_words,
    answers_words,
    figures_words,
    layout_facts,
    position_facts,
    question,
)
from ...rulebook.feedback import AnswerError
from ...teaching.puzzles.bank import bank_puzzles
from ...teaching.puzzles.puzzle import Puzzle, read_answer
from ...teaching.puzzles.themes import theme_title
from ...teaching.questions.situation import Situation
from ...teaching.questions.steps import Option, Step, Why, WhyWrong

__all__ = ["PUZZLE_KIND", "PuzzleStep", "puzzle_step", "pick_puzzle", "puzzle_themes"]

PUZZLE_KIND = "puzzle"


@dataclass
class PuzzleStep(Step[str]):
    """One puzzle as a quiz question; an answer is the action's text (``JS``, ``4``,
    ``exchange``, ``surrender``)."""

    kind: ClassVar[str] = PUZZLE_KIND
    title: ClassVar[str] = "Puzzle"
    puzzle: Puzzle | None = None
    _state: HandState = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._state = self._p.position()
        self.rules = self._state.rules
        self.prompt = self.prompt or question(self._p)
        self.cite = self.cite or self._p.rules_cited

    @property
    def _p(self) -> Puzzle:
        assert self.puzzle is not None, "a puzzle step is made with its puzzle"
        return self.puzzle

    def _legal(self) -> list[Action]:
        legal = self._state.legal_actions()
        cards = [a for a in legal if isinstance(a, Card)]
        if len(cards) == len(legal):  # the cards as the hand shows them, not the deck's order
            return list(sort_by_rank(cards, self._trump, self.rules.left_bower))
        return legal

    @property
    def _trump(self) -> Trump:
        return self._state.trump if self._state.trump is not None else Trump.NT

    def label(self, key: str) -> str:
        """An answer as a player says it: J♠, no trump, 4, alone with the exchange."""
        try:
            return action_words(self._p, key)
        except ValueError:
            return key

    def options(self) -> list[Option]:
        return [Option(a, a.display, True) if isinstance(a, Card)
                else Option(str(a), action_words(self._p, str(a))) for a in self._legal()]

    def parse(self, raw: object) -> str:
        text = " ".join(str(raw).split())
        choices = ", ".join(o.label for o in self.options())
        try:
            action = str(read_answer(self._p.position(), text))
        except ValueError:
            raise AnswerError(f"choose one of: {choices}") from None
        if action not in {str(a) for a in self._legal()}:
            raise AnswerError(f"{self.label(action)} is not one of the choices here: "
                              f"{choices}") from None
        return action

    def is_right(self, answer: str) -> bool:
        return self._p.is_answer(answer)

    def answer_text(self) -> str:
        return answers_words(self._p)

    def _why(self) -> tuple[str, ...]:
        p = self._p
        return (figures_words(p), f"Theme: {theme_title(p.theme)}.", *layout_facts(p))

    def explain_right(self, answer: str | None) -> Why:
        return self._why(), self._p.rules_cited

    def explain_wrong(self, answer: str) -> WhyWrong:
        mine = self._p.option(answer)
        said = self.label(answer)
        said = said[:1].upper() + said[1:]
        first = (f"{said} is worth {mine['net'][0]:+.1f} net points a hand on average."
                 if mine is not None else
                 f"{said} is not among the options the analysis found best.")
        return (first, *self._why()), self._p.rules_cited, None

    def reason_after(self, answer: str) -> str | None:
        return None  # the facts of a wrong answer already give the answer's figures

    def situation(self) -> Situation:
        """The cards to draw: trumps, the trick so far and the hand (the auction, the contract
        and the earlier tricks are :meth:`facts`)."""
        s = self._state
        me = s.to_act
        assert me is not None
        trick = s.current_trick
        return Situation(trump=s.trump, trick=tuple(c for _, c in trick),
                         seats=tuple(seat for seat, _ in trick),
                         hand=tuple(sort_by_rank(s.hand(me), self._trump,
                                                 self.rules.left_bower)))

    def facts(self) -> list[tuple[str, str]]:
        """The position in words, each row a label and its text (the hand and a trick under
        way are drawn as cards)."""
        drawn = {"your hand"}
        if self._state.current_trick:
            drawn.add(f"trick {len(self._state.tricks) + 1}")
        return [(label, value if isinstance(value, str) else
                 " ".join(c.display for c in value))
                for label, value in position_facts(self._p) if label not in drawn]


@lru_cache(maxsize=16)
def puzzle_step(puzzle_id: str) -> PuzzleStep:
    """The question of the shipped puzzle ``puzzle_id`` (a KeyError when the set no longer
    holds it)."""
    found = {p.id: p for p in bank_puzzles()}[puzzle_id]
    return PuzzleStep(id=found.id, puzzle=found)


def puzzle_themes() -> list[tuple[str, str, int]]:
    """(theme, title, puzzles) for each theme of the shipped set, the largest first."""
    counts = Counter(p.theme for p in bank_puzzles())
    return [(theme, theme_title(theme), n) for theme, n in counts.most_common()]


def pick_puzzle(seed: int, theme: str | None, hard: bool, asked: set[str]) -> Puzzle | None:
    """A puzzle of ``theme`` (any, for None) not among ``asked``, from the upper half of the
    ratings (``hard``) or the lower; None when the theme has none left."""
    pool = sorted((p for p in bank_puzzles()
                   if (theme is None or p.theme == theme) and p.id not in asked),
                  key=lambda p: (p.rating, p.id))
    if not pool:
        return None
    half = pool[len(pool) // 2:] if hard else pool[:max(1, len(pool) // 2)]
    return random.Random(seed).choice(half)
