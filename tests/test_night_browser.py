"""Game night in a real browser: Voila on a loopback port, Playwright and Debian chromium."""

from __future__ import annotations

import http.client
import shutil
from pathlib import Path

import pytest

from .conftest import ARTIFACTS, ROOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def night(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    shutil.copy(ROOT / "notebooks" / "game-night.ipynb", tmp_path / "game-night.ipynb")
    env = {"PEPPER_NIGHT_SHEET": str(tmp_path / "sheet.json"),
           "PEPPER_TUTOR_HOME": str(tmp_path / "home")}
    return tmp_path / "game-night.ipynb", env


def open_app(browser, server, width: int = 1280, height: int = 1000):  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url("/"))
    expect(page.locator(".pepper-night")).to_be_visible()
    return ctx, page, errors


def tab(page, name: str) -> None:  # type: ignore[no-untyped-def]
    page.get_by_role("tab", name=name).click()


def add_hand(page, bidder: str, bid: str, trump: str, mode: str, defense: str,
             tricks: str) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    sheet = page.locator(".pepper-night")
    sheet.locator(".pepper-bidder select").select_option(label=bidder)
    sheet.locator(".pepper-bid select").select_option(label=bid)
    sheet.locator(".pepper-trump select").select_option(label=trump)
    sheet.locator(".pepper-mode select").select_option(label=mode)
    sheet.locator(".pepper-defense select").select_option(label=defense)
    sheet.locator(".pepper-tricks input").fill(tricks)
    before = sheet.locator(".pepper-sheet-row").count()
    sheet.locator("button.pepper-add-hand").click()
    expect(sheet.locator(".pepper-sheet-row")).to_have_count(before + 1)


def test_game_night_quiz_ruling_and_a_match_that_ends_in_the_tie_case(browser, night):
    from playwright.sync_api import expect

    from .servers import start_voila

    notebook, env = night
    server = start_voila(notebook, env=env)
    try:
        ctx, page, errors = open_app(browser, server)
        app = page.locator(".pepper-night")
        # Projector quiz: answer the question on the screen, see the explanation and rule.
        app.locator(".pepper-answer button.pepper-card").first.click()
        expect(app.locator(".pepper-feedback .rule").first).to_be_visible()
        app.locator("button.pepper-next").first.click()
        expect(app.locator(".pepper-feedback")).to_have_text("")
        expect(app.locator(".pepper-answer button.pepper-card").first).to_be_enabled()
        page.screenshot(path=str(ARTIFACTS / "night-quiz.png"))
        # Ruling: hearts trumps, A♦ led, I hold J♦ 9♦ A♠.
        tab(page, "Ruling")
        app.locator(".pepper-ruling-trump select").select_option(label="hearts ♥")
        app.locator(".pepper-ruling-trick input").fill("A♦")
        app.locator(".pepper-ruling-hand input").fill("J♦ 9♦ A♠")
        app.locator("button.pepper-rule").click()
        ruling = app.locator(".pepper-ruling")
        expect(ruling).to_contain_text("You may play")
        expect(ruling).to_contain_text("Not the J♦")
        expect(ruling).to_contain_text("play.left-bower-suit")
        app.locator(".pepper-search-words input").fill("left bower")
        app.locator("button.pepper-search").click()
        expect(ruling).to_contain_text("rank.left-bower")
        # Score sheet: a match to 8 that ends in the tie case, decided by the next hand.
        tab(page, "Score sheet")
        page.get_by_text("Rules for a new match").click()
        app.locator(".pepper-sheet-target input").fill("8")
        app.locator(".pepper-sheet-target input").press("Enter")
        app.locator("button.pepper-new-match").click()
        expect(app.locator(".pepper-sheet-status")).to_contain_text("game to 8")
        add_hand(page, "North", "3", "hearts", "with partner", "play", "3")
        add_hand(page, "East", "2", "spades", "with partner", "play", "4")
        add_hand(page, "— all passed —", "pass", "—", "—", "—", "")
        add_hand(page, "North", "3", "clubs", "with partner", "play", "3")
        status = app.locator(".pepper-sheet-status")
        expect(status).to_contain_text("Totals: NS 8 · EW 8")
        expect(status).to_contain_text("one more hand decides")
        add_hand(page, "East", "4", "diamonds", "exchange", "play", "5")
        expect(status).to_contain_text("Totals: NS 9 · EW 12")
        expect(status).to_contain_text("EW win the match!")
        page.screenshot(path=str(ARTIFACTS / "night-sheet.png"), full_page=True)
        assert not errors, errors
        ctx.close()
        ctx, phone, errors = open_app(browser, server, 390, 844)
        tab(phone, "Score sheet")
        expect(phone.locator(".pepper-sheet-status")).to_contain_text("EW win the match!")
        phone.screenshot(path=str(ARTIFACTS / "night-phone-390x844.png"))
        assert not errors, errors
        ctx.close()
    finally:
        server.stop()
    # Restart the server: the sheet comes back from its file.
    server = start_voila(notebook, env=env)
    try:
        ctx, page, errors = open_app(browser, server)
        tab(page, "Score sheet")
        status = page.locator(".pepper-night .pepper-sheet-status")
        expect(status).to_contain_text("Totals: NS 9 · EW 12")
        expect(page.locator(".pepper-night .pepper-sheet-row")).to_have_count(5)
        assert not errors, errors
        ctx.close()
    finally:
        server.stop()


def test_refused_entry_and_the_token(browser, night):
    from playwright.sync_api import expect

    from .servers import start_voila

    notebook, env = night
    server = start_voila(notebook, token="table-secret", env=env)
    try:
        for query in ("", "?token=wrong"):  # without the token: sent to the login page
            conn = http.client.HTTPConnection(server.base_url.split("//")[1], timeout=30)
            conn.request("GET", "/" + query)
            answer = conn.getresponse()
            assert answer.status in (302, 401, 403)
            assert answer.status != 302 or "/login" in (answer.getheader("Location") or "")
            conn.close()
        ctx, page, errors = open_app(browser, server)
        tab(page, "Score sheet")
        app = page.locator(".pepper-night")
        app.locator(".pepper-bidder select").select_option(label="North")
        app.locator(".pepper-bid select").select_option(label="3")
        app.locator(".pepper-trump select").select_option(label="hearts")
        app.locator(".pepper-mode select").select_option(label="with partner")
        app.locator(".pepper-defense select").select_option(label="play")
        app.locator(".pepper-tricks input").fill("7")
        app.locator("button.pepper-add-hand").click()
        expect(app.locator(".pepper-sheet-message")).to_contain_text("cannot take 7 tricks")
        assert not errors, errors
        ctx.close()
    finally:
        server.stop()
