"""The Play and learn page's Puzzles room in Chromium: pepper-tutor in Pyodide, served from the
site alone. A puzzle answered wrong (the layout shown, the answer not named) then right, the
theme dashboard, a reload that finds the rating and the dashboard kept, and the progress file
with the puzzles in it. The puzzle the
page deals is found in this process by the same session with the same seed, and its answers
from the puzzle itself, never written here. Every request is recorded; one to any host but
the local server fails the test. The times from a click to Python's reply are written to
``puzzles-timings.json`` among the test artifacts.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from .conftest import ARTIFACTS
from .test_web_page import START, Site, _click, _home, _settle, open_site

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SEED = 5


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Site]:
    yield from open_site(tmp_path_factory, browser, SEED)


def _dealt(tmp_path: Path) -> Any:
    """The first puzzle the page deals for SEED to a learner with no puzzles yet."""
    from pepper_tutor.apps.web import WebApp

    app = WebApp(home=tmp_path / "mirror", seed=SEED)
    app.handle("puzzles")
    assert app.puzzles is not None and app.puzzles.current is not None
    return app.puzzles.current


def _last(site: Site, act: str) -> dict[str, float]:
    timings: list[dict[str, Any]] = site.page.evaluate("window.pepper.timings")
    return next(t for t in reversed(timings) if t["act"] == act)


def test_a_puzzle_wrong_then_right_the_dashboard_and_a_reload(site: Site,
                                                              tmp_path: Path) -> None:
    from pepper_tutor.render.puzzles import action_words
    from pepper_tutor.teaching.puzzles.themes import theme_title

    puzzle = _dealt(tmp_path)
    assert "You have not tried a puzzle yet." in site.text()
    _click(site, ".pepper-open-puzzles")
    opened = _last(site, "puzzles")
    text = site.text()
    assert f"Puzzle 1 · rated {puzzle.rating:.0f}" in text, text[:600]
    assert "Your puzzle rating: 1500" in text
    answers = site.page.locator("#pepper-view button.pepper-puzzle-answer")
    assert answers.count() == len(puzzle.position().legal_actions())

    _click(site, f'button.pepper-puzzle-answer[data-value="{puzzle.tempting}"]')
    wrong = _last(site, "puzzle-answer")
    feedback = site.page.locator("#pepper-view .pepper-puzzle-feedback")
    said = feedback.inner_text()
    assert "try again, or press Show answer." in said
    if puzzle.layout:
        # what the answer loses in a line; every hand waits for the answer
        assert "Here is a layout where" not in said and "with the best answer," in said
    best = action_words(puzzle, puzzle.answers[0])
    told = [line for line in said.splitlines() if not line.startswith("  ")]
    assert not any(re.search(rf"(?<!\w){re.escape(best)}(?!\w)", t) for t in told), told
    assert site.page.locator(f'#pepper-view button[data-value="{puzzle.tempting}"]'
                             ).is_disabled()
    site.shot("puzzle-miss")

    _click(site, f'button.pepper-puzzle-answer[data-value="{puzzle.answers[0]}"]')
    right = _last(site, "puzzle-answer")
    said = feedback.inner_text()
    assert said.startswith(f"Right: {best}.") and "Not rated" in said
    rating = re.search(r"Your puzzle rating: (\d+)", site.text())
    assert rating is not None and int(rating.group(1)) < 1500  # the miss was rated

    _click(site, ".pepper-puzzle-dashboard")
    board = site.text()
    assert "weakest first" in board and theme_title(puzzle.theme) in board
    assert f"Your puzzle rating: {rating.group(1)}, after 1 puzzle." in board
    site.shot("puzzle-dashboard")

    site.page.reload()
    site.page.wait_for_function("window.pepper && window.pepper.ready", timeout=START)
    _settle(site)
    assert f"Your puzzle rating: {rating.group(1)}, after 1 puzzle." in site.text()
    _click(site, ".pepper-open-puzzles")
    assert f"Your puzzle rating: {rating.group(1)}" in site.text()
    assert "Puzzle 1 · rated" in site.text()  # a new session: a puzzle not tried yet
    _click(site, ".pepper-puzzle-dashboard")
    kept = site.text()
    assert theme_title(puzzle.theme) in kept and "after 1 puzzle." in kept
    _home(site)
    # the progress file carries the puzzles: both answers, the first one rated
    with site.page.expect_download() as info:
        _click(site, ".pepper-export")
    path = tmp_path / "pepper-progress.sqlite"
    info.value.save_as(path)
    with closing(sqlite3.connect(path)) as con:
        tried = con.execute("SELECT puzzle, solved, first FROM puzzles_attempts").fetchall()
    assert tried == [(puzzle.id, 0, 1), (puzzle.id, 1, 0)]
    assert not site.foreign(), site.foreign()

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "puzzles-timings.json").write_text(json.dumps(
        {"open": opened, "wrong": wrong, "right": right}, indent=1))
    # generous bounds on a loaded two-core machine: the figures are in the artifact
    assert opened["ms"] < 30_000 and wrong["ms"] < 10_000, (opened, wrong)


def test_a_streak_names_the_best_beside_it_and_keeps_it_across_a_reload(
        site: Site, tmp_path: Path) -> None:
    from pepper_tutor.apps.web import WebApp

    # The page's learner has tried the first test's puzzle; the mirror tries it too, so
    # the streak deals from the same puzzles left.
    mirror = WebApp(home=tmp_path / "mirror", seed=SEED)
    mirror.handle("puzzles")
    assert mirror.puzzles is not None and mirror.puzzles.current is not None
    mirror.handle("puzzle-answer", mirror.puzzles.current.tempting)
    mirror.handle("puzzle-mode", "streak")
    first = mirror.puzzles.current
    assert first is not None

    _click(site, ".pepper-open-puzzles")
    site.page.select_option("#pepper-view .pepper-puzzle-mode", "streak")
    _settle(site)
    assert "streak 0 (best 0)" in site.text()
    _click(site, f'button.pepper-puzzle-answer[data-value="{first.answers[0]}"]')
    said = site.page.locator("#pepper-view .pepper-puzzle-feedback").inner_text()
    assert "Streak: 1 (your best streak)." in said, said
    site.shot("puzzle-streak")
    # closed mid-streak: the one solved is the best streak all the same
    site.page.reload()
    site.page.wait_for_function("window.pepper && window.pepper.ready", timeout=START)
    _settle(site)
    _click(site, ".pepper-open-puzzles")
    site.page.select_option("#pepper-view .pepper-puzzle-mode", "streak")
    _settle(site)
    assert "streak 0 (best 1)" in site.text()
    _home(site)
    assert not site.foreign(), site.foreign()
