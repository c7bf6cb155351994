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
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    refused = False
    for _ in range(80):
        if "After the hand" in table.locator(".pepper-review").inner_text():
            return refused
        choices = table.locator(".pepper-choices button")
        if choices.count():
            before = table.locator(".pepper-log").inner_text()
            try:
                choices.first.click(timeout=5_000)
            except PlaywrightTimeout:
                # The buttons seen were the last decision's, redrawn away as the hand moved
                # on (the log had changed first): look again at what is on the table now.
                continue
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
        re.compile(r"(Mistake|Blunder): big pepper loses [0-9.]+ points"))
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


# ---- seats, cards and contrast in the light and dark themes; hint; resume --------------------

# Every text the check measures: its colour, and the background behind it composited from
# each ancestor's (the first opaque one ends it; the page is white below all), with the
# opacities on the way multiplied in.
COLOURS_JS = """(selector) => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return [255, 255, 255, 0];
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => {
    const a = top[3] + under[3] * (1 - top[3]);
    if (a === 0) return [255, 255, 255, 0];
    return [0, 1, 2].map(i => (top[i] * top[3] + under[i] * under[3] * (1 - top[3])) / a)
      .concat([a]);
  };
  return [...document.querySelectorAll(selector)].filter(el => el.offsetParent !== null)
    .map(el => {
      const layers = [];
      let opacity = 1;
      for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
        const cs = getComputedStyle(n);
        opacity *= Number(cs.opacity);
        const bg = parse(cs.backgroundColor);
        if (bg[3] > 0) layers.push(bg);
        if (bg[3] >= 1) break;
      }
      let bg = [255, 255, 255, 1];
      for (const layer of layers.reverse()) bg = over(layer, bg);
      const fg = parse(getComputedStyle(el).color);
      const text = over([fg[0], fg[1], fg[2], fg[3] * opacity], bg);
      return {what: (el.className || el.tagName) + ' ' + (el.innerText || '').slice(0, 20),
              fg: text.slice(0, 3), bg: bg.slice(0, 3)};
    });
}"""

MEASURED = (".pepper-hand button.pepper-card", ".pepper-log div",
            ".pepper-table button.jupyter-button", ".pepper-seat-name", ".pepper-seat-tags",
            ".pepper-table-board td", ".pepper-table-score", ".pepper-prompt b",
            ".pepper-coach .pepper-grade-text", ".pepper-coach .pepper-fb div")
COACH = (".pepper-coach .pepper-grade-text", ".pepper-coach .pepper-fb div")


def _luminance(rgb: list[float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg: list[float], bg: list[float]) -> float:
    """The WCAG 2 contrast ratio of two colours."""
    a, b = sorted((_luminance(fg), _luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def _contrasts(table, optional: tuple[str, ...] = ()  # type: ignore[no-untyped-def]
               ) -> list[tuple[str, float]]:
    found = []
    for selector in MEASURED:
        items = table.page.evaluate(COLOURS_JS, f".pepper-table {selector}"
                                    if not selector.startswith(".pepper-table ") else selector)
        assert items or selector in optional, f"nothing measured for {selector}"
        found += [(i["what"], contrast(i["fg"], i["bg"])) for i in items]
    return found


def _set_theme(page, name: str) -> None:
    page.evaluate(f"window.jupyterapp.commands.execute('apputils:change-theme', "
                  f"{{theme: '{name}'}})")
    light = "true" if "Light" in name else "false"
    page.wait_for_function(f"document.body.dataset.jpThemeLight === '{light}'")
    page.wait_for_timeout(500)  # the theme's stylesheet applied


def _table_notebook(nb_copy, name: str, source: str) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source)]
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python",
                                 "name": "python3"}
    nbformat.write(nb, nb_copy / name)


def test_the_table_has_seats_and_cards_readable_in_light_and_dark(lab_server, nb_copy, page):
    from playwright.sync_api import expect

    _table_notebook(nb_copy, "table-seats.ipynb",
                    "from pepper_tutor import notebook\n"
                    "notebook.table(level='beginner', seed=3, samples=8, resume=False)")
    open_and_run(page, lab_server, "table-seats.ipynb")
    table = page.locator(".pepper-table").first
    expect(table.locator(".pepper-prompt")).to_contain_text("Your call")
    seats = {s: table.locator(f".pepper-seat-{s}") for s in "NESW"}
    expect(seats["N"]).to_contain_text("North (partner)")
    expect(seats["S"]).to_contain_text("You")
    expect(seats["S"]).to_contain_text("your turn")
    expect(seats["E"]).to_contain_text("East · opponent")
    box = {s: seats[s].bounding_box() for s in "NESW"}
    assert box["N"]["y"] < box["W"]["y"] < box["S"]["y"]  # N at the top, S at the bottom
    assert abs(box["W"]["y"] - box["E"]["y"]) < 2 and box["W"]["x"] < box["N"]["x"] < \
        box["E"]["x"]  # W left and E right, level with each other
    expect(table.locator(".pepper-table-board")).to_contain_text("Contract")
    cards = table.locator(".pepper-hand button.pepper-card")
    assert cards.count() == 6
    reds = table.locator(".pepper-hand button.pepper-red")
    assert table.locator(".pepper-hand button.pepper-black").count() + reds.count() == 6
    for i in range(cards.count()):  # a card is a white face, not a grey text button
        style = cards.nth(i).evaluate("b => [getComputedStyle(b).backgroundColor, "
                                      "getComputedStyle(b).height]")
        assert style[0] == "rgb(255, 255, 255)" and float(style[1][:-2]) >= 70
    next_hand = table.locator("button.pepper-next-hand")
    expect(next_hand).to_be_disabled()
    try:
        for theme in ("JupyterLab Light", "JupyterLab Dark"):
            _set_theme(page, theme)
            low = [(what, round(r, 2)) for what, r in _contrasts(table, COACH) if r < 4.5]
            assert not low, f"{theme}: contrast under 4.5:1 for {low}"
            # A disabled button is flat and dashed, not the primary colour it has enabled.
            look = next_hand.evaluate("b => [getComputedStyle(b).backgroundColor, "
                                      "getComputedStyle(b).borderStyle, "
                                      "getComputedStyle(b).cursor]")
            assert look == ["rgba(0, 0, 0, 0)", "dashed", "not-allowed"], look
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            table.screenshot(path=str(ARTIFACTS / f"table-seats-{theme.split()[-1].lower()}"
                                                  ".png"))
        # a trick on the table, in the dark: each card at its seat, the coach's words on a
        # card sent readable too
        table.locator("button.pepper-choice-pass").click()
        seat_cards = table.locator(".pepper-seat svg")
        for _ in range(100):  # send a card if asked, until a card lies at a seat
            if seat_cards.count():
                break
            ready = table.locator(".pepper-hand button.pepper-card:not([disabled])")
            if ready.count():
                before = table.locator(".pepper-log").inner_text()
                ready.first.click()
                page.wait_for_function("(b) => document.querySelector("
                                       "'.pepper-table .pepper-log').innerText != b", arg=before)
            else:
                page.wait_for_timeout(300)
        expect(seat_cards.first).to_be_visible()
        labels = [cards.nth(i).inner_text() for i in range(cards.count())]
        assert all("…" not in label and len(label) >= 2 for label in labels), labels
        low = [(what, round(r, 2)) for what, r in _contrasts(table, (".pepper-prompt b",))
               if r < 4.5]
        assert not low, f"dark, in play: contrast under 4.5:1 for {low}"
        table.screenshot(path=str(ARTIFACTS / "table-seats-dark-trick.png"))
    finally:
        _set_theme(page, "JupyterLab Light")


def test_hint_and_resume_at_the_table_widget(lab_server, nb_copy, page):
    from playwright.sync_api import expect

    _table_notebook(nb_copy, "table-resume.ipynb",
                    "from pepper_tutor import notebook\n"
                    "from pepper_tutor.teaching.practice.table import PracticeTable\n"
                    "stopped = PracticeTable(seed=3, level='beginner', coach=False)\n"
                    "stopped.act('pass')  # a match left in the middle of its first hand\n"
                    "notebook.table(level='beginner', samples=8)")
    open_and_run(page, lab_server, "table-resume.ipynb")
    table = page.locator(".pepper-table").first
    offer = table.locator(".pepper-resume-offer")
    expect(offer).to_contain_text("You have a match in progress (0 hands played")
    table.locator("button.pepper-resume").click()
    expect(offer).to_have_count(0)
    expect(table.locator(".pepper-log")).to_contain_text("Resumed your match")
    expect(table.locator(".pepper-table-board")).to_contain_text("S pass")
    if table.locator("button.pepper-hint:not([disabled])").count():
        table.locator("button.pepper-hint").click()
        expect(table.locator(".pepper-coach")).to_contain_text("The coach suggests")
        expect(table.locator(".pepper-coach")).to_contain_text("will not be graded")
    _shot(page, "table-resumed")


def test_the_table_widget_by_keyboard_and_ear_in_large_print(lab_server, nb_copy, page):
    """The game layer in the notebook (issue 37, item 6): the hand read by the typed command
    line into the widget's live region, a call confirmed before it counts, and large print,
    looked at and checked with axe."""
    from playwright.sync_api import expect

    from .axe import assert_accessible

    _table_notebook(nb_copy, "table-layer.ipynb",
                    "from pepper_tutor import notebook\n"
                    "notebook.table(level='beginner', seed=3, samples=8, resume=False)")
    open_and_run(page, lab_server, "table-layer.ipynb")
    table = page.locator(".pepper-table").first
    expect(table.locator(".pepper-prompt")).to_contain_text("Your call")
    said = table.locator(".pepper-said [role=status][aria-live=polite]")
    expect(said).to_contain_text("You may choose: ")
    box = table.locator(".pepper-command input")
    box.fill("hand")
    box.press("Enter")
    expect(said).to_contain_text("You hold 6 cards.")
    assert not re.search(r"(?:10|[9TJQKA])[♣♦♥♠]", said.inner_text())  # cards in words
    table.locator(".pepper-confirm-toggle input").check()
    expect(said).to_contain_text("Confirm each decision: on.")
    table.locator("button.pepper-choice-pass").click()
    expect(said).to_contain_text("Pass? Choose it again")
    expect(table.locator("button.pepper-confirm")).to_contain_text("Confirm: pass")
    table.locator(".pepper-large-toggle input").check()
    expect(table).to_have_class(re.compile(r"\bpepper-large\b"))
    size = table.locator(".pepper-hand button.pepper-card").first.evaluate(
        "b => parseFloat(getComputedStyle(b).height)")
    assert size >= 110, size
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    table.screenshot(path=str(ARTIFACTS / "table-widget-large-confirm.png"))
    assert_accessible(page, include=".pepper-table")
    before = table.locator(".pepper-log").inner_text()
    table.locator("button.pepper-confirm").click()
    page.wait_for_function("(b) => document.querySelector('.pepper-table .pepper-log')"
                           ".innerText != b", arg=before)
    expect(said).to_contain_text("You pass")
