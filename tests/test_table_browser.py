"""The practice-table widget in a real browser (JupyterLab + Debian chromium): a whole hand
clicked through, with a graded mistake, a take-back, a refused card, a replay from a decision
and the next hand."""

from __future__ import annotations

import re

import nbformat
import pytest

from .conftest import ARTIFACTS
from .test_browser import open_and_run
from .test_table_terminal import seed_with_an_overbid

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CARD_GONE_OR_REFUSED = """([card, text]) => {
  const t = document.querySelector('.pepper-table');
  const gone = !t.querySelector('.pepper-card-' + card);
  const coach = t.querySelector('.pepper-coach');
  return gone || (coach && coach.innerText.includes(text));
}"""


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _play_on(table, page) -> bool:
    """Click until the hand is over; True if a card was refused on the way."""
    refused = False
    for _ in range(80):
        if "After the hand" in table.locator(".pepper-review").inner_text():
            return refused
        choices = table.locator(".pepper-choices button")
        if choices.count():
            before = table.locator(".pepper-log").inner_text()
            choices.first.click()
            page.wait_for_function(
                "(b) => document.querySelector('.pepper-table .pepper-log').innerText != b",
                arg=before)
            continue
        cards = table.locator(".pepper-hand button:not([disabled])")
        if not cards.count():
            page.wait_for_timeout(200)  # the kernel is still answering
            continue
        for i in range(cards.count()):
            button = cards.nth(i)
            label = button.inner_text()
            code = next(c for c in button.get_attribute("class").split()
                        if re.fullmatch(r"pepper-card-\w\w", c)).removeprefix("pepper-card-")
            button.click()
            page.wait_for_function(CARD_GONE_OR_REFUSED, arg=[code, f"Not allowed: the {label}"])
            if table.locator(f".pepper-card-{code}").count():
                refused = True  # the rules said no: try the next card
                continue
            break
    raise AssertionError("the hand did not end")


def test_a_whole_hand_at_the_table_widget(lab_server, nb_copy, page):
    from playwright.sync_api import expect

    seed = seed_with_an_overbid()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "from pepper_tutor import notebook\n"
        f"notebook.table(level='beginner', seed={seed}, samples=8)")]
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python",
                                 "name": "python3"}
    nbformat.write(nb, nb_copy / "table-test.ipynb")
    open_and_run(page, lab_server, "table-test.ipynb")
    table = page.locator(".pepper-table").first
    expect(table.locator(".pepper-table-score")).to_contain_text("Hand 1 · match to 42")
    expect(table.locator(".pepper-prompt")).to_contain_text("Your call")
    table.locator("button.pepper-choice-BP").click()
    expect(table.locator(".pepper-coach")).to_contain_text(
        re.compile(r"(Mistake|Blunder): big pepper loses [0-9.]+ points on average"))
    expect(table.locator(".pepper-coach")).to_contain_text("You hold")
    _shot(page, "table-graded")
    table.locator("button.pepper-undo").click()
    expect(table.locator(".pepper-log")).to_contain_text("You took back big pepper.")
    expect(table.locator(".pepper-prompt")).to_contain_text("Your call")
    table.locator("button.pepper-choice-pass").click()
    _play_on(table, page)
    review = table.locator(".pepper-review")
    expect(review).to_contain_text("After the hand")
    expect(review).to_contain_text("Points this hand")
    _shot(page, "table-review")
    table.locator(".pepper-replay-pick select").select_option(index=0)
    table.locator("button.pepper-replay").click()
    expect(table.locator(".pepper-log")).to_contain_text("Back to your decision 1 (pass)")
    expect(table.locator(".pepper-prompt")).to_contain_text("Your call")
    expect(review).to_have_text("")
    table.locator("button.pepper-choice-pass").click()
    _play_on(table, page)
    table.locator("button.pepper-next-hand").click()
    expect(table.locator(".pepper-table-score")).to_contain_text("Hand 2")
    expect(table.locator(".pepper-log")).to_contain_text("Hand 1 counted")
