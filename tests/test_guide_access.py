"""The hand viewer (a Game Guide) for every player, in Chromium (issue 37, item 5).

axe-core (tests/axe.py) on every step of an analysed guide (the coach's grades and the strip
of each card's worth), in a seat's view, in large print and with four-colour suits; the
page at 200% zoom and at WCAG's 320 px reflow width with nothing past the screen's edge;
every control at least 44 px on a phone; large print and four colours kept for the next
guide. Screenshots of both options go to the artifacts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pepper_tutor.records.hand_record import load_record
from pepper_tutor.render.guide import build_guide
from pepper_tutor.render.guide_html import guide_page

from .axe import assert_accessible
from .conftest import ARTIFACTS
from .test_guide import HANDS
from .test_guide_browser import open_guide, step_shown

pytestmark = [pytest.mark.browser, pytest.mark.slow]

EXCHANGE = next(p for p in HANDS if p.stem == "exchange-made")
TARGET = 44  # px: the smallest target a finger is given


def _analysed(tmp_path: Path, seat: str | None = None) -> str:
    guide = build_guide(load_record(EXCHANGE), seat, analyse=seat is None, samples=4)
    out = tmp_path / f"guide{'-' + seat if seat else ''}.html"
    out.write_text(guide_page(guide), "utf-8")
    return out.as_uri()


def test_every_step_of_an_analysed_guide_passes_axe(page: Any, tmp_path: Path) -> None:
    open_guide(page, _analysed(tmp_path))
    total = int(page.locator("#pg-count").inner_text().rsplit(" ", 1)[1])
    assert page.locator("#pg-coach").is_hidden() is False  # the coach's section is shown
    strips = 0
    for n in range(1, total + 1):
        assert step_shown(page) == n
        strips += page.locator(".pg-strip").count()
        assert_accessible(page)
        page.keyboard.press("ArrowRight")
    assert strips, "no step showed the coach's strip: the analysed parts went unchecked"


def test_a_seat_view_and_both_options_pass_axe_and_are_kept(page: Any, tmp_path: Path) -> None:
    open_guide(page, _analysed(tmp_path, "E") + "#step=14")
    assert page.locator(".pg-down").count()  # hands face down
    assert_accessible(page)
    page.click("text=Large print")
    page.click("text=Four-colour suits")
    assert page.locator("text=Four-colour suits").get_attribute("aria-pressed") == "true"
    ink = page.evaluate("""() => Object.fromEntries(['C', 'D', 'H', 'S'].map(s => {
        const c = document.querySelector('.pg-card.pg-suit-' + s);
        return [s, c ? getComputedStyle(c).color : null]; }))""")
    shown = [c for c in ink.values() if c is not None]
    assert len(shown) >= 3 and len(set(shown)) == len(shown), ink
    assert_accessible(page)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "guide-large-four.png"), full_page=True)
    # kept in this browser: the next guide opens the same way
    open_guide(page, _analysed(tmp_path))
    classes = page.locator("#pg").get_attribute("class") or ""
    assert "pg-big" in classes and "pg-four" in classes
    page.keyboard.press("End")
    assert_accessible(page)
    page.set_viewport_size({"width": 390, "height": 844})
    page.keyboard.press("Home")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.screenshot(path=str(ARTIFACTS / "guide-large-four-phone.png"), full_page=True)
    assert _past_the_edge(page) == []


def _past_the_edge(page: Any) -> list[str]:
    found: list[str] = page.evaluate("""() => {
      const w = document.documentElement.clientWidth;
      return [...document.querySelectorAll('#pg *')]
        .filter(e => e.getClientRects().length && e.getBoundingClientRect().right > w + 1)
        .map(e => e.tagName + '.' + e.className).slice(0, 8); }""")
    return found


@pytest.mark.parametrize("width", [640, 320])
def test_200_percent_zoom_and_320_pixels_lose_nothing(page: Any, tmp_path: Path,
                                                      width: int) -> None:
    # 640 px is a 1280 px window at 200%; 320 px is WCAG's reflow width
    page.set_viewport_size({"width": width, "height": 800})
    open_guide(page, _analysed(tmp_path) + "#step=13")
    assert _past_the_edge(page) == []
    page.click("text=Large print")
    assert _past_the_edge(page) == []
    assert_accessible(page)


def test_every_control_is_44_pixels_on_a_phone(page: Any, tmp_path: Path) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    open_guide(page, _analysed(tmp_path))
    small = page.evaluate(f"""() => [...document.querySelectorAll(
        '#pg button, #pg select, #pg input')].filter(e => e.getClientRects().length)
      .map(e => [e, e.getBoundingClientRect()])
      .filter(([e, r]) => r.width < {TARGET} || r.height < {TARGET})
      .map(([e, r]) => (e.textContent || e.id) + ' ' + Math.round(r.width) + 'x' +
           Math.round(r.height))""")
    assert small == []
