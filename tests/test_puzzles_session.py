"""The puzzle session on the shipped puzzles: a first attempt rated, a retry not; a miss
brings its theme back as a fresh puzzle when due; a streak ends at the first miss; the
dashboard puts the weakest theme first."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest

from pepper_tutor.engine.cards import DECK
from pepper_tutor.render.puzzles import feedback_facts
from pepper_tutor.teaching.puzzles.bank import bank_puzzles
from pepper_tutor.teaching.puzzles.puzzle import Puzzle
from pepper_tutor.teaching.puzzles.session import (
    NEAREST,
    STREAK_START,
    STREAK_STEP,
    PuzzleSession,
)
from pepper_tutor.teaching.puzzles.store import PuzzleStore, ThemeResults


@pytest.fixture
def store(tmp_path: Path) -> PuzzleStore:
    s = PuzzleStore("tester", path=tmp_path / "puzzles.sqlite")
    yield s
    s.close()


def _themed(puzzles: list[Puzzle]) -> str:
    """A theme with several puzzles."""
    counts = Counter(p.theme for p in puzzles)
    return next(t for t, n in counts.most_common() if n >= 3)


def test_a_first_attempt_is_rated_and_a_retry_is_not(store: PuzzleStore) -> None:
    session = PuzzleSession(store, bank_puzzles(), rng=random.Random(1))
    puzzle = session.next()
    assert puzzle is not None
    miss = session.answer(puzzle.tempting)
    assert not miss.correct and miss.result.first
    assert miss.result.learner_after.rating < miss.result.learner_before.rating
    assert miss.result.puzzle_after.rating > miss.result.puzzle_before.rating
    hit = session.answer(puzzle.answers[0])
    assert hit.correct and not hit.result.first
    assert hit.result.learner_after == hit.result.learner_before == store.rating()
    assert puzzle.id in store.tried()


def test_an_illegal_answer_is_refused_and_changes_nothing(store: PuzzleStore) -> None:
    card = next(p for p in bank_puzzles() if p.kind == "play")
    session = PuzzleSession(store, [card], rng=random.Random(2))
    assert session.next() is card
    held = {str(c) for c in card.position().legal_actions()}
    other = next(str(c) for c in DECK if str(c) not in held)
    with pytest.raises(ValueError, match="not a legal answer"):
        session.answer(other)
    with pytest.raises(ValueError, match="not a card"):
        session.answer("pass")
    assert store.tried() == set()


def test_a_miss_comes_back_as_a_fresh_puzzle_of_the_same_theme(store: PuzzleStore) -> None:
    puzzles = bank_puzzles()
    theme = _themed(puzzles)
    session = PuzzleSession(store, puzzles, theme=theme, rng=random.Random(3))
    missed = session.next()
    assert missed is not None and missed.theme == theme
    answer = session.answer(missed.tempting)
    assert answer.result.scheduled is not None
    review = PuzzleSession(store, puzzles, mode="review", rng=random.Random(4))
    assert review.next() is None  # not due yet
    later = answer.result.scheduled + timedelta(seconds=1)
    store.clock = lambda: later
    fresh = review.next()
    assert fresh is not None
    assert fresh.theme == theme and fresh.id != missed.id
    solved = review.answer(fresh.answers[0])
    assert solved.correct and solved.result.first
    # recalled: the theme's card moves into the future, past the moment it was due
    assert store.scheduled()[theme] > later


def test_a_streak_gets_harder_and_ends_at_the_first_miss(store: PuzzleStore) -> None:
    session = PuzzleSession(store, bank_puzzles(), mode="streak", rng=random.Random(5))
    puzzles = bank_puzzles()
    for i in range(3):
        p = session.next()
        assert p is not None
        target = STREAK_START + STREAK_STEP * i  # each one a band harder
        nearest = sorted(abs(q.rating - target) for q in puzzles)[NEAREST + i]
        assert abs(p.rating - target) <= nearest
        assert session.answer(p.answers[0]).correct
    assert session.streak == 3
    p = session.next()
    assert p is not None
    end = session.answer(p.tempting)
    assert end.over and end.streak == 3 and session.next() is None
    assert store.save_streak(0) == 3  # the best streak is kept
    assert end.best == 3 and "Streak over: 3 solved in a row (your best streak)." in \
        feedback_facts(end)


def test_the_best_streak_is_kept_at_every_step_and_named_beside_a_shorter_one(
        store: PuzzleStore) -> None:
    puzzles = bank_puzzles()
    first = PuzzleSession(store, puzzles, mode="streak", rng=random.Random(6))
    for _ in range(2):
        p = first.next()
        assert p is not None
        step = first.answer(p.answers[0])
    # the learner walks away mid-streak: the two are kept all the same
    assert store.best_streak() == 2 and step.best == 2
    assert "Streak: 2 (your best streak)." in feedback_facts(step)
    again = PuzzleSession(store, puzzles, mode="streak", rng=random.Random(7))
    p = again.next()
    assert p is not None
    one = again.answer(p.answers[0])
    assert "Streak: 1 (your best: 2)." in feedback_facts(one)
    p = again.next()
    assert p is not None
    end = again.answer(p.tempting)
    assert "Streak over: 1 solved in a row (your best: 2)." in feedback_facts(end)
    assert store.best_streak() == 2


def test_the_puzzles_are_the_learner_stores_learner_and_old_ones_are_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pepper_tutor.teaching.learner.store import default_learner

    monkeypatch.setenv("USER", "robin")
    path = tmp_path / "puzzles.sqlite"
    old = PuzzleStore("me", path=path)  # as the terminal and the notebook kept them
    puzzle = bank_puzzles()[0]
    old.record(puzzle.id, puzzle.theme, puzzle.rating, True)
    rating = old.rating()
    old.close()
    mine = PuzzleStore(path=path)
    try:
        assert mine.learner == default_learner() == "robin"
        assert mine.rating() == rating and mine.tried() == {puzzle.id}
    finally:
        mine.close()
    # a learner who has puzzles of their own does not take another's
    other = PuzzleStore("me", path=path)
    other.record(puzzle.id, puzzle.theme, puzzle.rating, False)
    other.close()
    again = PuzzleStore(path=path)
    try:
        assert again.rating() == rating
    finally:
        again.close()


def test_the_dashboard_puts_the_weakest_theme_first(store: PuzzleStore) -> None:
    puzzles = bank_puzzles()
    by_theme: dict[str, list[Puzzle]] = {}
    for p in puzzles:
        by_theme.setdefault(p.theme, []).append(p)
    strong, weak = [t for t, ps in by_theme.items() if len(ps) >= 2][:2]
    for p in by_theme[strong][:2]:
        store.record(p.id, p.theme, p.rating, solved=True)
    for p in by_theme[weak][:2]:
        store.record(p.id, p.theme, p.rating, solved=False)
    results = store.themes()
    assert [r.theme for r in results] == [weak, strong]
    mean = sum(p.rating for p in by_theme[strong][:2]) / 2
    assert results[1].performance == round(mean - 500 + 1000)
    assert ThemeResults("x", 4, 1, 1500.0).performance == 1250


def test_a_theme_with_no_puzzles_is_refused(store: PuzzleStore) -> None:
    with pytest.raises(ValueError, match="no puzzles of the theme") as refused:
        PuzzleSession(store, bank_puzzles(), theme="no-such-theme")
    assert "Draw the trumps" in str(refused.value)  # the themes as a player reads them


@pytest.mark.parametrize("said", ["Draw the trumps", "draw the TRUMPS", "'Draw the trumps'",
                                  "draw-trumps"])
def test_a_theme_is_chosen_by_its_title_or_its_name(store: PuzzleStore, said: str) -> None:
    session = PuzzleSession(store, bank_puzzles(), theme=said)
    assert session.theme == "draw-trumps"
    puzzle = session.next()
    assert puzzle is not None and puzzle.theme == "draw-trumps"


@pytest.mark.parametrize("solved", [True, False])
def test_a_theme_the_learner_chose_counts_for_less_the_more_it_hints(
        tmp_path: Path, solved: bool) -> None:
    """As lila weighs its themes: any theme counts in full; a theme that names the kind of
    decision nearly so; one whose title hints at the answer less, a solve least of all; one
    whose title names the answer least."""
    from pepper_tutor.teaching.puzzles.themes import FALLBACK, NAMES_THE_ANSWER

    puzzles = bank_puzzles()
    counts = Counter(p.theme for p in puzzles)
    judgement = next(t for t in FALLBACK.values() if counts[t])
    named = next(t for t in sorted(NAMES_THE_ANSWER) if counts[t])
    hinting = next(t for t, _ in counts.most_common() if t not in FALLBACK.values()
                   and t not in NAMES_THE_ANSWER)
    moved: dict[str | None, float] = {}
    for n, chosen in enumerate((None, judgement, hinting, named)):
        for theme in ({chosen} if chosen else {judgement, hinting, named}):
            store = PuzzleStore("t", path=tmp_path / f"{n}-{theme}.sqlite")
            session = PuzzleSession(store, [p for p in puzzles if p.theme == theme],
                                    theme=chosen, rng=random.Random(n))
            puzzle = session.next()
            assert puzzle is not None
            answer = session.answer(puzzle.answers[0] if solved else puzzle.tempting)
            r = answer.result
            # the same game, weighed: each puzzle's full change is taken from a fresh store
            full = PuzzleStore("t", path=tmp_path / f"full-{n}-{theme}.sqlite")
            whole = full.record(puzzle.id, puzzle.theme, puzzle.rating, solved)
            full.close()
            share = ((r.learner_after.rating - r.learner_before.rating)
                     / (whole.learner_after.rating - whole.learner_before.rating))
            moved[chosen if chosen else f"any {theme}"] = round(share, 6)
            words = answer.rating_words()
            if chosen is None:
                assert "It counts" not in words
            else:
                assert f"It counts {r.weight:.0%}, because you chose its theme" in words
                assert ("hints at the answer" in words) == (chosen != judgement)
            store.close()
    assert all(v == 1.0 for k, v in moved.items() if k and k.startswith("any "))
    assert moved[named] < moved[hinting] < moved[judgement] < 1.0
    assert moved[hinting] == (0.2 if solved else 0.7)
