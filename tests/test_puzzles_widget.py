"""The puzzles' notebook widget driven as a learner would: a wrong answer's button, then the
right one, then Show answer and Next on the following puzzle."""

from __future__ import annotations

import html
import random
from pathlib import Path

from pepper_tutor.apps.puzzles_widget import PuzzleWidget
from pepper_tutor.render.puzzles import action_words
from pepper_tutor.teaching.puzzles.bank import bank_puzzles
from pepper_tutor.teaching.puzzles.session import PuzzleSession
from pepper_tutor.teaching.puzzles.store import PuzzleStore


def _button(widget: PuzzleWidget, answer: str):  # type: ignore[no-untyped-def]
    return next(b for b in widget.choices.children if b.tooltip == answer)


def test_the_widget_takes_a_wrong_answer_then_the_right_one(tmp_path: Path) -> None:
    store = PuzzleStore("me", path=tmp_path / "p.sqlite")
    widget = PuzzleWidget(PuzzleSession(store, bank_puzzles(), rng=random.Random(11)))
    puzzle = widget.puzzle
    assert puzzle is not None and "Puzzle 1" in widget.board.value
    assert all("pepper-choice" in b._dom_classes for b in widget.choices.children)
    _button(widget, puzzle.tempting).click()
    assert " is not best: " in widget.feedback.value
    assert "try again, or press Show answer." in widget.feedback.value
    # what the tempting answer loses, in a line, the best answer not named; the hands wait
    # for the answer (a miss is not the place for every hand)
    assert puzzle.layout is not None and "Here is a layout where" not in widget.feedback.value
    told = html.unescape(widget.feedback.value).split("<br>")
    assert not any(line.startswith("  ") for line in told)
    best = action_words(puzzle, puzzle.answers[0])
    assert "with the best answer," in told[-1] and best not in "".join(told)
    assert not any(b.disabled for b in widget.choices.children)  # a retry is allowed
    _button(widget, puzzle.answers[0]).click()
    assert "Right: " in widget.feedback.value and "Not rated" in widget.feedback.value
    assert all(b.disabled for b in widget.choices.children)
    widget.next_button.click()
    assert "Puzzle 2" in widget.board.value and widget.feedback.value == ""
    widget.reveal.click()
    assert "The answer: " in widget.feedback.value
    assert widget.errors == []
    store.close()
