"""The Play and learn page after a reload (issue 38): a solved step shows as solved with its
feedback, "Sit down at the table" sits down at the same hand until its first decision, and
a puzzle stays the same until it is answered.

A reload is a new :class:`WebApp` on the same home folder (the page's Python starts again
from the browser's saved folder); the browser test does the same in Chromium with
``page.reload()`` and keeps screenshots of each screen after the reload.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pepper_tutor.apps.web import WebApp
from pepper_tutor.engine.seats import Seat
from pepper_tutor.teaching.lessons.files import find_lesson


def _html(app: WebApp, act: str, value: str = "") -> str:
    reply = json.loads(app.handle(act, value))
    assert "error" not in reply, reply.get("error")
    return str(reply["html"])


def _right_order() -> list[str]:
    step = find_lesson("bowers").step("hearts-top")
    cards = [o.value for o in step.options()]
    return [str(c) for c in next(p for p in itertools.permutations(cards)
                                 if step.judge(list(p)).correct)]


def _solve_hearts_top(app: WebApp) -> None:
    _html(app, "lesson", "bowers")
    _html(app, "next")
    _html(app, "next")
    cards = [o.value for o in app._need_panel().step.options()]
    for card in _right_order():
        _html(app, "pick", str(next(i for i, c in enumerate(cards) if str(c) == card)))


def test_a_solved_step_shows_as_solved_with_its_feedback_after_a_reload(tmp_path: Path) -> None:
    first = WebApp(home=tmp_path)
    _solve_hearts_top(first)
    assert "Right." in first.feedback
    again = WebApp(home=tmp_path)  # the reload
    page = _html(again, "lesson", "bowers")
    assert "Step 3 of" in page
    assert "Solved: J♥ J♦ A♥ K♥." in page  # the feedback, not greyed cards alone
    assert 'class="pepper-fb right"' in page
    assert "left bower" in page.lower()  # why, from the engine
    # nothing left to hint at or show on a solved step
    for act in ("hint", "reveal"):
        assert re.search(rf'data-act="{act}" data-value="" disabled>', page), act


def test_the_table_deals_the_same_hand_until_its_first_decision(tmp_path: Path) -> None:
    first = WebApp(home=tmp_path)
    _html(first, "table")
    assert first.table is not None
    hand = first.table.state.hand(Seat.S)
    again = WebApp(home=tmp_path)  # a reload before any decision
    _html(again, "table")
    assert again.table is not None and again.table.state.hand(Seat.S) == hand
    # a new match asked for is new
    _html(again, "table-new")
    assert again.table.state.hand(Seat.S) != hand or again.table.seed != first.table.seed
    dealt = again.table.state.hand(Seat.S)
    # the first decision: the match is kept in the history, and a reload offers it
    assert again.table.state.to_act is Seat.S
    _html(again, "play", "a:0")
    third = WebApp(home=tmp_path)
    page = _html(third, "table")
    assert "pepper-resume-offer" in page
    assert third.table is None
    fourth = WebApp(home=tmp_path)  # a new match from here deals afresh, not the old hand
    _html(fourth, "table")
    _html(fourth, "table-new")
    assert fourth.table is not None
    assert fourth.table.seed != again.table.seed or fourth.table.state.hand(Seat.S) != dealt


def test_a_puzzle_stays_the_same_until_it_is_answered(tmp_path: Path) -> None:
    first = WebApp(home=tmp_path)
    _html(first, "puzzles")
    assert first.puzzles is not None and first.puzzles.current is not None
    shown = first.puzzles.current.id
    again = WebApp(home=tmp_path)
    _html(again, "puzzles")
    assert again.puzzles is not None and again.puzzles.current is not None
    assert again.puzzles.current.id == shown
    _html(again, "puzzle-answer", again.puzzles.current.answers[0])
    third = WebApp(home=tmp_path)
    _html(third, "puzzles")
    assert third.puzzles is not None and third.puzzles.current is not None
    assert third.puzzles.current.id != shown  # answered: the next one


# ---- in Chromium, with screenshots ------------------------------------------------------------


@pytest.fixture(scope="module")
def unseeded(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Any]:
    from .test_web_page import open_site

    yield from open_site(tmp_path_factory, browser, None)


@pytest.mark.browser
@pytest.mark.slow
def test_the_page_after_a_reload(unseeded: Any) -> None:
    from .test_web_page import START, _click, _home

    site = unseeded

    def reload() -> None:
        site.page.reload()
        site.page.wait_for_function("window.pepper && window.pepper.ready", timeout=START)

    _home(site)
    _click(site, ".pepper-lesson-bowers")
    _click(site, ".pepper-next")
    _click(site, ".pepper-next")
    for card in _right_order():
        _click(site, f".pepper-answer .pepper-card-{card}")
    assert site.page.locator("#pepper-view .pepper-feedback .pepper-fb.right").count() == 1
    _home(site)
    _click(site, ".pepper-open-table")
    hand = site.page.inner_html("#pepper-view .pepper-hand")
    _home(site)
    _click(site, ".pepper-open-puzzles")
    board = site.page.inner_html("#pepper-view .pepper-puzzle-position")

    reload()
    _click(site, ".pepper-lesson-bowers")
    text = site.text()
    assert "Step 3 of" in text and "Solved: J♥ J♦ A♥ K♥." in text, text[:600]
    assert site.page.locator("#pepper-view .pepper-feedback .pepper-fb.right").count() == 1
    site.shot("reload-lesson-solved")
    _home(site)
    _click(site, ".pepper-open-table")
    assert site.page.inner_html("#pepper-view .pepper-hand") == hand
    site.shot("reload-table-same-hand")
    _home(site)
    _click(site, ".pepper-open-puzzles")
    assert site.page.inner_html("#pepper-view .pepper-puzzle-position") == board
    site.shot("reload-puzzle-same")
