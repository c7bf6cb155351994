"""The sentences a puzzle's answer is told in (render/puzzles.py), over the shipped set."""

from __future__ import annotations

import re

from pepper_tutor.render.puzzles import figures_words
from pepper_tutor.teaching.puzzles.bank import bank_puzzles


def test_the_figures_say_each_option_once_and_never_minus_zero() -> None:
    puzzles = bank_puzzles()
    assert puzzles
    for p in puzzles:
        words = figures_words(p)
        # a card is not followed by its own label ("A♠ (play A♠)")
        assert not re.search(r"\((play|discard|send) [^)]*\)", words), words
        assert "-0.0" not in words, words
        if p.kind in ("trump", "mode"):  # a call's label says its contract: kept
            assert " in " in words, words
