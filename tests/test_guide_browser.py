"""Game Guides in a real browser (Debian chromium): a hand stepped by keyboard to the score and
back, a seat's view with no hidden card in its text, a link that opens at its step, the one
file opened from disk with no request off it, and screenshots on a phone and a projector."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pepper_tutor.engine.seats import Seat
from pepper_tutor.records.annotate import annotate
from pepper_tutor.records.hand_record import load_record
from pepper_tutor.render.guide import build_guide
from pepper_tutor.render.guide_html import guide_page

from .axe import assert_accessible
from .conftest import ARTIFACTS
from .test_guide import HANDS, hidden_from, named_anywhere

pytestmark = [pytest.mark.browser, pytest.mark.slow]

EXCHANGE = next(p for p in HANDS if p.stem == "exchange-made")


def write_guide(tmp_path: Path, path: Path, seat: str | None = None) -> Path:
    out = tmp_path / f"{path.stem}{'-' + seat if seat else ''}.html"
    out.write_text(guide_page(build_guide(load_record(path), seat)), "utf-8")
    return out


def open_guide(page, url: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(url)
    page.wait_for_selector("#pg[data-ready=true]")


def step_shown(page) -> int:  # type: ignore[no-untyped-def]
    return int(page.locator("#pg").get_attribute("data-step"))


def test_a_guide_steps_card_by_card_to_the_score_and_back_by_keyboard(page, tmp_path) -> None:
    record = load_record(EXCHANGE)
    expected = annotate(record)
    data = build_guide(record).to_dict()
    total = len(data["steps"])
    open_guide(page, write_guide(tmp_path, EXCHANGE).as_uri())
    assert step_shown(page) == 1
    assert page.locator("#pg-step-title").inner_text() == "North deals."
    said = []
    winners = []
    for n in range(2, total + 1):
        page.keyboard.press("ArrowRight")
        assert step_shown(page) == n
        title = page.locator("#pg-step-title").inner_text()
        assert title == data["steps"][n - 1]["title"]
        said.append(page.locator("#pg-say").inner_text())
        if page.locator(".pg-trick .pg-win").count():
            winners.append(page.locator(".pg-trick .pg-win").get_attribute("data-card"))
            assert page.locator("#pg-rule code").inner_text() == expected.tricks[
                len(winners) - 1].rule
    # every trick's winning card, shown as the annotator says, and the score at the end
    assert winners == [str(t.winning_card) for t in expected.tricks]
    assert "NS +4" in page.locator("#pg-step-title").inner_text()
    assert said[-1].startswith(f"Step {total} of {total}. The score")
    page.keyboard.press("ArrowRight")  # nothing past the end
    assert step_shown(page) == total
    for n in range(total - 1, 0, -1):
        page.keyboard.press("ArrowLeft")
        assert step_shown(page) == n
    page.keyboard.press("End")
    assert step_shown(page) == total
    page.keyboard.press("Home")
    assert step_shown(page) == 1
    page.keyboard.press("ArrowDown")  # trick by trick
    assert page.locator("#pg-trick option:checked").inner_text() == "Trick 1"
    page.keyboard.press("ArrowDown")
    assert page.locator("#pg-trick option:checked").inner_text() == "Trick 2"
    assert page.locator("#pg-step-title").inner_text() == "South leads the J♦."
    page.keyboard.press("ArrowUp")
    assert page.locator("#pg-trick option:checked").inner_text() == "Trick 1"
    # auto-play at the fastest pace, then space pauses it
    page.select_option("#pg-pace", "700")
    page.locator("body").click(position={"x": 2, "y": 2})
    start = step_shown(page)
    page.keyboard.press(" ")
    assert page.locator(".pg-controls button", has_text="Pause").count() == 1
    page.wait_for_function(f"Number(document.getElementById('pg').dataset.step) >= {start + 2}")
    page.keyboard.press(" ")
    paused = step_shown(page)
    page.wait_for_timeout(1600)
    assert step_shown(page) == paused
    assert page.locator(".pg-controls button", has_text="Play").count() == 1


def test_a_seat_view_has_no_hidden_card_anywhere_in_the_page(page, tmp_path) -> None:
    record = load_record(EXCHANGE)
    hidden = hidden_from(record, Seat.E)
    assert hidden  # South's discard: East never sees it
    open_guide(page, write_guide(tmp_path, EXCHANGE, "E").as_uri())
    for _ in range(len(build_guide(record, "E").steps)):
        text = page.locator("body").inner_text()
        assert not [c for c in hidden if named_anywhere(text, c)]
        page.keyboard.press("ArrowRight")
    source = page.content()
    assert not [str(c) for c in hidden if named_anywhere(source, c)]
    # the other hands are face down, with their count, and East's own cards are shown
    page.keyboard.press("Home")
    assert page.locator(".pg-seat[data-seat=N] .pg-down").inner_text() == "6 cards face down"
    assert page.locator(".pg-seat[data-seat=E] .pg-card").count() == 6


def test_a_link_to_step_n_opens_at_step_n(page, tmp_path) -> None:
    url = write_guide(tmp_path, EXCHANGE).as_uri()
    open_guide(page, url + "#step=17")
    assert step_shown(page) == 17
    assert page.locator("#pg-step-title").inner_text() == "South leads the K♠."
    link = page.locator("#pg-link").input_value()
    assert link.endswith("#step=17")
    page.keyboard.press("ArrowRight")
    assert page.locator("#pg-link").input_value().endswith("#step=18")
    assert page.evaluate("location.hash") == "#step=18"
    other = page.context.new_page()
    open_guide(other, link)
    assert step_shown(other) == 17
    other.close()


def test_the_one_file_export_opens_from_disk_with_no_request_off_it(page, tmp_path) -> None:
    import subprocess
    import sys

    out = tmp_path / "hand.html"
    run = subprocess.run([sys.executable, "-m", "pepper_tutor", "annotate", str(EXCHANGE),
                          "--format", "viewer", "-o", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    open_guide(page, out.as_uri() + "#step=3")
    page.keyboard.press("End")
    assert "The score" in page.locator("#pg-step-title").inner_text()
    assert [u for u in requests if not u.startswith(("file://", "data:"))] == []
    assert {u.split("#")[0] for u in requests} == {out.as_uri()}


def test_screenshots_on_a_phone_and_a_projector(browser, tmp_path) -> None:
    url = write_guide(tmp_path, EXCHANGE).as_uri() + "#step=13"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    pg = phone.new_page()
    open_guide(pg, url)
    width = pg.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the phone scrolls sideways ({width} px)"
    pg.screenshot(path=str(ARTIFACTS / "guide-phone-390.png"), full_page=True)
    phone.close()
    room = browser.new_context(viewport={"width": 1280, "height": 720})
    pg = room.new_page()
    open_guide(pg, url)
    pg.click("text=Large print")
    # the story of the step is on the screen at once, in large type
    box = pg.locator("#pg-step-title").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 720
    size = pg.evaluate("parseFloat(getComputedStyle(document.getElementById('pg-lines'))"
                       ".fontSize)")
    assert size >= 20
    pg.screenshot(path=str(ARTIFACTS / "guide-projector-1280x720.png"))
    room.close()


def test_the_page_reads_as_data_not_markup(page, tmp_path) -> None:
    """A note that looks like HTML is shown as written."""
    record = load_record(EXCHANGE)
    record.meta["event"] = '<img src=x onerror="window.hit=1">'
    out = tmp_path / "tricky.html"
    out.write_text(guide_page(build_guide(record)), "utf-8")
    open_guide(page, out.as_uri())
    assert page.locator("h1").first.inner_text().startswith("<img src=x")
    assert page.evaluate("window.hit") is None
    assert json.loads(page.locator("#pg-data").text_content())["title"].startswith("<img")
    assert not re.search(r"<img src=x", page.locator("#pg").inner_html())


# ---- the docs site's guide page: a hand carried in the address ------------------------------

START = 240_000  # ms: Python's first start in the page on a loaded machine


@pytest.fixture(scope="module")
def guide_site(tmp_path_factory):  # type: ignore[no-untyped-def]
    from .web_site import build_page, serve

    root = tmp_path_factory.mktemp("site")
    build_page(root / "try")
    with serve(root / "try") as url:
        yield url


def _open_link(browser, url: str):  # type: ignore[no-untyped-def]
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    requests: list[str] = []
    ctx.on("request", lambda r: requests.append(r.url))
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(url)
    pg.wait_for_function("window.pepper && window.pepper.ready", timeout=START)
    return ctx, pg, requests, errors


def test_a_link_with_the_hand_in_its_address_opens_at_its_step(guide_site, browser) -> None:
    from pepper_tutor.records.hand_link import record_to_link

    record = load_record(EXCHANGE)
    hand = record_to_link(record)
    ctx, pg, requests, errors = _open_link(browser, f"{guide_site}guide.html#hand={hand}"
                                                    "&step=13")
    assert step_shown(pg) == 13
    assert pg.locator("#pg-step-title").inner_text() == "East plays the 10♥."
    assert pg.locator("#pg-link").input_value().endswith(f"#hand={hand}&step=13")
    pg.keyboard.press("End")
    assert "NS +4" in pg.locator("#pg-step-title").inner_text()
    site = guide_site.rsplit("/try/", 1)[0] + "/"
    assert [u for u in requests if not u.startswith((site, "data:", "blob:"))] == []
    assert not [u for u in requests if hand[:40] in u], "the hand went to the server"
    # a seat's view from its link: East never sees South's discard
    pg.goto(f"{guide_site}guide.html#hand={hand}&seat=E&step=8")
    pg.wait_for_function("window.pepper && window.pepper.ready", timeout=START)
    pg.wait_for_selector("#pg[data-ready=true]")
    assert pg.locator("#pg-step-title").inner_text() == "South lays a card aside, face down."
    hidden = hidden_from(record, Seat.E)
    assert not [c for c in hidden if named_anywhere(pg.locator("body").inner_text(), c)]
    ctx.close()
    assert not errors, errors


def test_the_guide_page_opens_a_pasted_record_and_says_what_is_wrong(guide_site,
                                                                      browser) -> None:
    ctx, pg, _, errors = _open_link(browser, f"{guide_site}guide.html")
    assert_accessible(pg)  # the form, every field labelled
    pg.fill("#pg-text", "format: pepper-hand/1\ndealer: Q\n")
    pg.click("text=Open the guide")
    pg.wait_for_selector("#pg-problem:not([hidden])")
    assert "Q" in pg.locator("#pg-problem").inner_text()
    assert_accessible(pg)
    revoke = next(p for p in HANDS if p.stem == "revoke")
    pg.fill("#pg-text", revoke.read_text("utf-8"))
    pg.click("text=Open the guide")
    pg.wait_for_selector("#pg[data-ready=true]")
    assert "hand=" in pg.evaluate("location.hash")
    assert_accessible(pg)
    link = pg.locator("#pg-link").input_value()
    pg.keyboard.press("End")
    assert "The score" in pg.locator("#pg-step-title").inner_text()
    other = ctx.new_page()
    other.goto(link)
    other.wait_for_selector("#pg[data-ready=true]", timeout=START)
    assert step_shown(other) == 1
    ctx.close()
    assert not errors, errors
