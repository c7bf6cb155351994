"""The sentences a puzzle's answer is told in (render/puzzles.py), over the shipped set."""

from __future__ import annotations

import html
import io
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from rich.console import Console

from pepper_tutor.render.puzzles import (
    action_words,
    due_words,
    feedback_facts,
    feedback_html,
    feedback_panel,
    figures_words,
    layout_facts,
)
from pepper_tutor.rulebook.book import RULE_IDS_ENV, get_rule
from pepper_tutor.teaching.puzzles.bank import bank_puzzles
from pepper_tutor.teaching.puzzles.session import PuzzleSession
from pepper_tutor.teaching.puzzles.store import PuzzleStore
from pepper_tutor.teaching.puzzles.themes import theme_title


def test_the_figures_say_each_option_once_and_never_minus_zero() -> None:
    puzzles = bank_puzzles()
    assert puzzles
    for p in puzzles:
        words = figures_words(p)
        # a card is not followed by its own label ("A♠ (play A♠)")
        assert not re.search(r"\((play|discard|send) [^)]*\)", words), words
        assert "-0.0" not in words, words
        if p.kind == "trump":  # the bid is on the table: each trump with its way of playing
            assert " in " not in words, words
            assert words.count(" alone ") + words.count(" with partner ") == 2, words
        if p.kind == "mode":  # the contract is on the table: the way alone, said once
            assert " in " not in words and words.lower().count("with partner") == 1, words


def _says(words: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(words)}(?!\w)", text, re.IGNORECASE) is not None


def test_a_retryable_miss_shows_the_layout_without_naming_the_best_answer() -> None:
    shown = 0
    for p in bank_puzzles():
        if not p.layout:
            continue
        hidden = layout_facts(p, name_best=False)
        full = layout_facts(p)
        assert hidden[:-1] == full[:-1]  # the same hands
        tempting = action_words(p, p.tempting)
        # the hands name every card; the other lines must not name the best answer
        told = [line for line in hidden if not line.startswith("  ")]
        for answer in p.answers:
            words = action_words(p, answer)
            assert not any(_says(words, line) for line in told), (p.id, told)
            assert _says(words, full[-1]), (p.id, full[-1])
        assert _says(tempting, hidden[-1]) and "the best answer" in hidden[-1]
        shown += 1
    assert shown > 100


def test_the_feedback_after_a_retryable_miss_keeps_the_answer_hidden(tmp_path: Path) -> None:
    store = PuzzleStore("me", path=tmp_path / "p.sqlite")
    puzzle = next(p for p in bank_puzzles() if p.layout and p.kind == "play")
    session = PuzzleSession(store, [puzzle])
    assert session.next() is puzzle
    answer = session.answer(puzzle.tempting)
    best = action_words(puzzle, puzzle.answers[0])
    for lines, name in ((feedback_html(answer).split("<br>"), "html"),
                        (_plain(feedback_panel(answer)).splitlines(), "terminal")):
        told = [html.unescape(re.sub(r"<[^>]+>", "", line)) for line in lines]
        # what is wrong with the answer in a line: what it loses against the best (unnamed);
        # not every hand, which waits for the answer
        assert not any("Here is a layout where" in line or line.startswith("  ")
                       for line in told), (name, told)
        tempting = action_words(puzzle, puzzle.tempting)
        assert any(line.startswith(f"{tempting}: the bidders take") and "the best answer" in line
                   for line in told), (name, told)
        assert not any(_says(best, line) for line in told), (name, told)
    # shown (or at the streak's end) the layout names it
    revealed = html.unescape(feedback_html(answer, reveal=True))
    assert f"{best}: the bidders take" in revealed or f"{best} or " in revealed
    store.close()


def _plain(panel: object) -> str:
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(panel)
    return "\n".join(line.strip("│ ").rstrip() if not line.startswith("│   ") else
                     "  " + line.strip("│ ") for line in console.export_text().splitlines())


@pytest.mark.parametrize(("after", "words"), [
    (timedelta(seconds=30), "in a minute"), (timedelta(minutes=10), "in 10 minutes"),
    (timedelta(minutes=61), "in an hour"), (timedelta(hours=5), "in 5 hours"),
    (timedelta(hours=23), "tomorrow"), (timedelta(days=4, hours=2), "in 4 days")])
def test_a_miss_says_when_its_theme_comes_back_in_words(after: timedelta, words: str) -> None:
    now = datetime(2026, 12, 2, 8, 0, tzinfo=UTC)
    assert due_words(now + after, now) == words
    assert due_words(now + after, None) == f"on {(now + after):%Y-%m-%d}"


def test_a_solved_puzzle_names_its_theme_and_rules_in_words(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = PuzzleStore("me", path=tmp_path / "p.sqlite")
    puzzle = next(p for p in bank_puzzles() if any("." in r for r in p.rules_cited))
    session = PuzzleSession(store, [puzzle])
    assert session.next() is puzzle
    answer = session.answer(puzzle.answers[0])
    said = "\n".join(feedback_facts(answer))
    assert f"Theme: {theme_title(puzzle.theme)}" in said
    ids = [r for r in puzzle.rules_cited if "." in r]
    assert all(get_rule(r).title in said for r in puzzle.rules_cited)
    assert not any(r in said for r in ids) and f"({puzzle.theme})" not in said
    monkeypatch.setenv(RULE_IDS_ENV, "1")  # the opt-in rule ids view
    said = "\n".join(feedback_facts(answer))
    assert all(r in said for r in puzzle.rules_cited) and f"({puzzle.theme})" in said
    store.close()
