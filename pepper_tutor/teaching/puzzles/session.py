"""A puzzle session: which puzzle comes next, what an answer means, and what follows it.

One core under every front end (the terminal, the notebook widget): :class:`PuzzleSession`
chooses the next puzzle and takes answers; the front ends only show and ask.

- **Choosing** (lila's ``PuzzleSelector``): puzzles not tried yet, of the theme asked for
  (any theme otherwise), with the rating nearest the learner's, drawn at random among the
  closest few so two sessions differ; the band widens when the near ones run out.
- **Answering**: an answer is right when it is one of the puzzle's answers (equivalent
  answers count). The first attempt is rated (:meth:`.store.PuzzleStore.record`); after a
  miss the learner may try again (not rated) or be shown the answer and the layout where
  the tempting answer loses.
- **Streak** (``mode="streak"``): puzzles from easy to hard, one rating band up each time,
  until the first miss; the best streak is kept.
- **Review** (``mode="review"``): the themes whose review card is due (a miss made one),
  each as a *fresh* puzzle of the same theme, never the one missed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...engine.state import Action
from .puzzle import Puzzle
from .store import AttemptResult, PuzzleStore
from .themes import hints_at_answer, theme_named, theme_title, theme_weight

__all__ = ["PuzzleSession", "Answer", "MODES", "choose"]

MODES = ("rated", "streak", "review")
NEAREST = 8  # a puzzle is drawn among this many nearest the learner's rating
STREAK_START = 900.0  # a streak's first puzzle is near this rating ...
STREAK_STEP = 60.0  # ... and each next one this much harder


def choose(puzzles: Sequence[Puzzle], target: float, rng: random.Random,
           exclude: set[str], theme: str | None = None) -> Puzzle | None:
    """A puzzle near ``target`` among those of ``theme`` not in ``exclude``."""
    pool = [p for p in puzzles if p.id not in exclude and (theme is None or p.theme == theme)]
    if not pool:
        return None
    pool.sort(key=lambda p: (abs(p.rating - target), p.id))
    return rng.choice(pool[:NEAREST])


@dataclass(frozen=True)
class Answer:
    """The outcome of one answer, for the front end to show."""

    puzzle: Puzzle
    action: str
    correct: bool
    result: AttemptResult
    streak: int  # the streak after this answer (streak mode), else 0
    over: bool  # streak mode: the miss that ended it
    best: int = 0  # streak mode: the learner's best streak, this one counted

    def rating_words(self) -> str:
        r = self.result
        if not r.first:
            return "Not rated (only the first attempt at a puzzle counts)."
        change = r.learner_after.rating - r.learner_before.rating
        said = f"Your puzzle rating: {r.learner_after.rating:.0f} ({change:+.0f})."
        if r.weight < 1:
            said += (f" It counts {r.weight:.0%}, because you chose its theme"
                     + (", which hints at the answer." if hints_at_answer(self.puzzle.theme)
                        else "."))
        return said


@dataclass
class PuzzleSession:
    """Puzzles for one learner: ``mode`` is ``rated``, ``streak`` or ``review``."""

    store: PuzzleStore
    puzzles: Sequence[Puzzle]
    theme: str | None = None
    mode: str = "rated"
    rng: random.Random = field(default_factory=random.Random)
    streak: int = 0
    over: bool = False
    current: Puzzle | None = None
    missed: bool = False  # the current puzzle was missed once
    served: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"no puzzle mode {self.mode!r} (expected {', '.join(MODES)})")
        themes = {p.theme for p in self.puzzles}
        if self.theme is not None:
            self.theme = theme_named(self.theme, sorted(themes))
        if self.theme is not None and self.theme not in themes:
            known = "; ".join(sorted(theme_title(t) for t in themes))
            raise ValueError(f"no puzzles of the theme {self.theme!r} (themes: {known})")

    def next(self) -> Puzzle | None:
        """The next puzzle, or ``None`` when there is none (the streak is over, nothing is
        due for review, or every puzzle has been tried)."""
        if self.over:
            return None
        tried = self.store.tried() | self.served
        puzzle: Puzzle | None = None
        if self.mode == "review":
            for theme, missed in self.store.due_themes():
                if self.theme is not None and theme != self.theme:
                    continue
                puzzle = choose(self.puzzles, self.store.rating().rating, self.rng,
                                tried | {missed}, theme)
                if puzzle is not None:
                    break
        elif self.mode == "streak":
            target = STREAK_START + STREAK_STEP * self.streak
            puzzle = choose(self.puzzles, target, self.rng, tried, self.theme)
        else:
            puzzle = choose(self.puzzles, self.store.rating().rating, self.rng, tried,
                            self.theme)
        self.current, self.missed = puzzle, False
        if puzzle is not None:
            self.served.add(puzzle.id)
        return puzzle

    def answer(self, action: Action | str) -> Answer:
        """Take an answer to the current puzzle (a legal action of its position)."""
        puzzle = self.current
        if puzzle is None:
            raise ValueError("there is no puzzle to answer: ask for the next one")
        position = puzzle.position()
        text = action if isinstance(action, str) else str(action)
        from .puzzle import read_answer

        parsed = action if not isinstance(action, str) else read_answer(position, text)
        if parsed not in position.legal_actions():
            legal = " ".join(str(a) for a in position.legal_actions())
            raise ValueError(f"{text} is not a legal answer here (legal: {legal})")
        correct = puzzle.is_answer(parsed)
        result = self.store.record(puzzle.id, puzzle.theme, puzzle.rating, correct,
                                   weight=theme_weight(self.theme, correct))
        best = 0
        if self.mode == "streak" and not self.missed:
            if correct:
                self.streak += 1
            else:
                self.over = True
            # Kept at every step: a learner who closes the tab mid-streak keeps it too.
            best = self.store.save_streak(self.streak)
        if not correct:
            self.missed = True
        return Answer(puzzle, str(parsed), correct, result,
                      self.streak if self.mode == "streak" else 0, self.over, best)

    @staticmethod
    def theme_words(puzzle: Puzzle) -> str:
        return theme_title(puzzle.theme)
