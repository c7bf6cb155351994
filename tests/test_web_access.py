"""The Play and learn page for every player, in Chromium (issue 37, items 5 and 6).

axe-core (tests/axe.py) on every screen a learner reaches: the loading screen, the start,
a lesson step, a quiz and its feedback, the score form, a review, the progress, the settings,
the table in the auction, mid-hand, with a card waiting to be confirmed and after the hand,
the puzzles and their feedback, the themes; again in large print with four-colour suits, and
in the dark theme.
The page at 200% zoom and on a phone: nothing wider than the screen, every target 44 px.
Then a whole hand played with the keyboard alone, deciding from the live region's words and
nothing else on the page. Screenshots of large print and four colours go to the artifacts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from .axe import assert_accessible
from .conftest import ARTIFACTS
from .test_web_page import (
    START,
    Site,
    _click,
    _due_progress_file,
    _home,
    _settle,
    coached_choice,
    open_site,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SEED = 11
# The smallest target a finger is given (WCAG 2.5.5's size, asked for on phones).
TARGET = 44
# What the live region says: a card as a player says it.
CARD_WORDS = re.compile(r"the (nine|ten|jack|queen|king|ace) of (clubs|diamonds|hearts|spades)")
TYPED_CARD = re.compile(r"\b(nine|ten|jack|queen|king|ace) of (clubs|diamonds|hearts|spades)")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Site]:
    yield from open_site(tmp_path_factory, browser, SEED)


def _table_mid_hand(site: Site) -> None:
    """A new match with the coach off, played by clicks until a card of the play is due."""
    _home(site)
    _click(site, ".pepper-open-table")
    if site.page.locator("#pepper-view .pepper-resume-offer").count():
        _click(site, ".pepper-resume")
    if site.page.locator("#pepper-view .pepper-coach-toggle").is_checked():
        site.page.click("#pepper-view .pepper-coach-toggle")
        _settle(site)
    _click(site, ".pepper-new-match")
    for _ in range(24):
        cards = site.page.locator("#pepper-view .pepper-hand .pepper-card:not([disabled])")
        if cards.count() and "Your card" in site.text():
            return
        confirm = site.page.locator("#pepper-view .pepper-confirm-card")
        if confirm.count():  # "Confirm each decision" is on: a call waits for it
            confirm.click()
            _settle(site)
            continue
        choices = site.page.locator("#pepper-view .pepper-choices button")
        pas = site.page.locator("#pepper-view :is(.pepper-choice-pass, .pepper-choice-play)")
        (pas.first if pas.count() else choices.first).click()
        _settle(site)
    raise AssertionError(f"no card of the play came: {site.text()[:600]}")


def test_the_loading_screen_and_the_start(site: Site) -> None:
    # a second tab waits on the loading screen (the first holds the progress)
    second = site.context.new_page()
    try:
        second.goto(site.url)
        second.wait_for_function(
            "document.getElementById('pepper-status').textContent.includes('another tab')")
        assert_accessible(second)
    finally:
        second.close()
    _home(site)
    assert_accessible(site.page)


def test_lessons_quizzes_and_a_review(site: Site, tmp_path: Path) -> None:
    _home(site)
    site.page.set_input_files("#pepper-view .pepper-import", str(_due_progress_file(tmp_path)))
    site.page.wait_for_selector("#pepper-view .pepper-notice")
    _settle(site)
    _click(site, ".pepper-open-review")
    assert_accessible(site.page)
    _home(site)
    _click(site, ".pepper-lesson-bowers")
    assert_accessible(site.page)
    _click(site, ".pepper-next")
    _click(site, ".pepper-next")  # a step answered by putting cards in order
    assert site.page.locator("#pepper-view .pepper-answer .pepper-card").count() >= 3
    _click(site, ".pepper-answer .pepper-card")
    assert_accessible(site.page)
    _click(site, ".pepper-hint")
    assert_accessible(site.page)
    for drill in ("tricks", "score", "bid"):
        _home(site)
        _click(site, f".pepper-quiz-{drill}")
        assert_accessible(site.page)
    _click(site, ".pepper-reveal")  # the feedback panel
    assert_accessible(site.page)
    _click(site, ".pepper-nav .pepper-progress-link")
    assert_accessible(site.page)


def test_the_table_the_settings_and_the_puzzles(site: Site) -> None:
    _click(site, ".pepper-nav .pepper-settings-link")
    assert_accessible(site.page)
    site.page.check("#pepper-view .pepper-set-confirm")
    _settle(site)
    _table_mid_hand(site)
    assert_accessible(site.page)
    cards = site.page.locator("#pepper-view .pepper-hand .pepper-card:not([disabled])")
    card = cards.first
    name = card.get_attribute("aria-label")
    assert name and CARD_WORDS.search("the " + name), name  # a card is named in words
    # the card under the pointer stays where it is: one that rose out from under it flickered
    # for as long as the pointer rested on its lower edge, and could not be clicked
    still = card.bounding_box()
    card.hover()
    assert card.bounding_box() == still
    confirm = site.page.locator("#pepper-view .pepper-confirm-card")
    for i in range(cards.count()):  # a card the rules refuse is refused at once
        cards.nth(i).click()
        _settle(site)
        if confirm.count():
            break
        assert "Not allowed" in site.page.inner_text("#pepper-view .pepper-coach")
    assert confirm.count() == 1, "a card counted without being confirmed"
    assert site.page.locator("#pepper-view .pepper-card[aria-pressed=true]").count() == 1
    assert_accessible(site.page)
    confirm.click()
    _settle(site)
    assert site.page.locator("#pepper-view .pepper-confirm-card").count() == 0
    _click(site, ".pepper-nav .pepper-settings-link")
    site.page.uncheck("#pepper-view .pepper-set-confirm")
    _settle(site)
    _click(site, ".pepper-nav .pepper-home")
    _click(site, ".pepper-open-table")
    for _ in range(12):  # the rest of the hand, the first legal card each time
        if "After the hand" in site.text():
            break
        cards = site.page.locator("#pepper-view .pepper-hand .pepper-card:not([disabled])")
        for i in range(cards.count()):
            cards.nth(i).click()
            _settle(site)
            if "Not allowed" not in site.page.inner_text("#pepper-view .pepper-coach"):
                break
    assert "After the hand" in site.text()
    assert_accessible(site.page)
    _home(site)
    _click(site, ".pepper-open-puzzles")
    assert_accessible(site.page)
    _click(site, ".pepper-answer button:not([disabled])")
    assert_accessible(site.page)
    _click(site, ".pepper-puzzle-dashboard")
    assert_accessible(site.page)


def test_large_print_and_four_colours_are_kept_and_pass(site: Site) -> None:
    _click(site, ".pepper-nav .pepper-settings-link")
    site.page.check("#pepper-view .pepper-set-large")
    _settle(site)
    site.page.check("#pepper-view .pepper-set-four")
    _settle(site)
    html = site.page.locator("html")
    assert "pepper-large" in (html.get_attribute("class") or "")
    assert "pepper-four" in (html.get_attribute("class") or "")
    assert_accessible(site.page)
    site.shot("settings-large")
    _table_mid_hand(site)
    # four colours: diamonds and clubs no longer share the hearts' and spades' ink
    ink = site.page.evaluate("""() => Object.fromEntries(['C', 'D', 'H', 'S'].map(s => {
        const b = document.querySelector('#pepper-view .pepper-hand .pepper-suit-' + s);
        return [s, b ? getComputedStyle(b).color : null]; }))""")
    shown = [c for c in ink.values() if c is not None]
    assert len(set(shown)) == len(shown), ink
    big = site.page.locator("#pepper-view .pepper-hand .pepper-card").first.bounding_box()
    assert big is not None and big["width"] >= 76, big
    assert_accessible(site.page)
    site.shot("table-large-four")
    site.page.set_viewport_size({"width": 390, "height": 844})
    try:
        site.shot("table-large-four-phone")
        assert _wider_than_screen(site.page) == []
    finally:
        site.page.set_viewport_size({"width": 1100, "height": 1000})
    # kept across a reload, as the progress is
    site.page.reload()
    site.page.wait_for_function("window.pepper && window.pepper.ready", timeout=START)
    cls = site.page.locator("html").get_attribute("class") or ""
    assert "pepper-large" in cls and "pepper-four" in cls
    _click(site, ".pepper-open-table")  # the match begun before the reload is offered
    assert site.page.locator("#pepper-view .pepper-resume-offer").count() == 1
    assert_accessible(site.page)
    _click(site, ".pepper-nav .pepper-settings-link")
    site.page.uncheck("#pepper-view .pepper-set-large")
    _settle(site)
    site.page.uncheck("#pepper-view .pepper-set-four")
    _settle(site)


def test_the_dark_theme_passes_too(site: Site) -> None:
    site.page.emulate_media(color_scheme="dark")
    try:
        _home(site)
        assert_accessible(site.page)
        _click(site, ".pepper-quiz-tricks")
        assert_accessible(site.page)
        _click(site, ".pepper-reveal")  # the feedback with its rule quoted
        assert_accessible(site.page)
        _home(site)
        _click(site, ".pepper-lesson-bowers")
        assert_accessible(site.page)
        _table_mid_hand(site)
        assert_accessible(site.page)
        _click(site, ".pepper-nav .pepper-settings-link")
        assert_accessible(site.page)
        _home(site)
        _click(site, ".pepper-open-puzzles")
        assert_accessible(site.page)
        site.shot("puzzles-dark")
    finally:
        site.page.emulate_media(color_scheme="light")


def _wider_than_screen(page: Any) -> list[str]:
    """Elements that reach past the right edge of the screen (content lost at this width)."""
    found: list[str] = page.evaluate("""() => {
      const w = document.documentElement.clientWidth;
      return [...document.querySelectorAll('#pepper-view *, header *')]
        .filter(e => e.getBoundingClientRect().right > w + 1 && e.getClientRects().length)
        .map(e => e.tagName + '.' + e.className).slice(0, 8); }""")
    return found


def _small_targets(page: Any) -> list[str]:
    """Buttons, fields, menus and setting rows smaller than TARGET px in either direction."""
    found: list[str] = page.evaluate(f"""() => [...document.querySelectorAll(
        '#pepper-view button, #pepper-view select, #pepper-view input:not([type=checkbox]),' +
        '#pepper-view .pepper-setting, #pepper-view .pepper-import-label, header a')]
      .filter(e => e.getClientRects().length)
      .map(e => [e, e.getBoundingClientRect()])
      .filter(([e, r]) => r.width < {TARGET} || r.height < {TARGET})
      .map(([e, r]) => e.tagName + '.' + e.className + ' ' + Math.round(r.width) + 'x' +
           Math.round(r.height)).slice(0, 8)""")
    return found


@pytest.mark.parametrize("width", [550, 320])
def test_200_percent_zoom_and_a_narrow_screen_lose_nothing(site: Site, width: int) -> None:
    # 550 px is this 1100 px window at 200%; 320 px is WCAG's reflow width (400%)
    site.page.set_viewport_size({"width": width, "height": 900})
    try:
        for screen in (".pepper-home", ".pepper-settings-link", ".pepper-progress-link"):
            _click(site, f".pepper-nav {screen}")
            assert _wider_than_screen(site.page) == [], screen
        _home(site)
        _click(site, ".pepper-lesson-bowers")
        assert _wider_than_screen(site.page) == []
        _home(site)
        _click(site, ".pepper-quiz-score")
        assert _wider_than_screen(site.page) == []
        _home(site)
        _click(site, ".pepper-open-table")
        assert _wider_than_screen(site.page) == []
        _home(site)
        _click(site, ".pepper-open-puzzles")
        assert _wider_than_screen(site.page) == []
    finally:
        site.page.set_viewport_size({"width": 1100, "height": 1000})


def test_targets_are_44_pixels_on_a_phone(site: Site) -> None:
    site.page.set_viewport_size({"width": 390, "height": 844})
    try:
        for screen in (".pepper-home", ".pepper-settings-link"):
            _click(site, f".pepper-nav {screen}")
            assert _small_targets(site.page) == [], screen
        _home(site)
        _click(site, ".pepper-lesson-bowers")
        assert _small_targets(site.page) == []
        _home(site)
        _click(site, ".pepper-quiz-score")
        assert _small_targets(site.page) == []
        _home(site)
        _click(site, ".pepper-open-table")
        assert _small_targets(site.page) == []
        site.shot("table-phone")
        _home(site)
        _click(site, ".pepper-open-puzzles")
        assert _small_targets(site.page) == []
    finally:
        site.page.set_viewport_size({"width": 1100, "height": 1000})


# ---- a whole hand by keyboard, hearing only the live region ---------------------------------


class Ear:
    """A player at the keyboard who knows only what the live region says."""

    def __init__(self, site: Site) -> None:
        self.page = site.page
        self.heard: list[str] = []

    def type(self, line: str) -> str:
        """Type a line into the command line and press Enter; what the region says then."""
        self.page.keyboard.type(line)
        self.page.keyboard.press("Enter")
        self.page.wait_for_function(
            "window.pepper.saved >= window.pepper.sent && "
            "document.getElementById('pepper-say').textContent !== ''")
        said = str(self.page.inner_text("#pepper-say"))
        self.heard.append(said)
        return said


def _decide(said: str) -> str:
    """The line to type for the choices the live region just listed."""
    options = said.rsplit("You may choose: ", 1)[1].rstrip(".")
    cards = TYPED_CARD.findall(options)
    if cards:
        rank, suit = cards[0]
        return f"{rank} of {suit}"  # typed as a player says it
    words = options.split(", ")
    for pick in ("play", "pass", "partner"):  # defend, let the others bid, play as a pair
        if pick in words:
            return pick
    return words[0]


def test_a_whole_hand_by_keyboard_from_the_live_region_alone(site: Site) -> None:
    _home(site)
    ear = Ear(site)
    site.page.keyboard.press("/")  # the command line, from anywhere
    said = ear.type("table")
    if "type resume, or new match" in said or "Your card" in said or "You sit" not in said:
        said = ear.type("new match")
    assert "You sit South" in said, said
    said = ear.type("hand")
    assert said.startswith("You hold 6 cards."), said
    for _ in range(40):
        if "The hand is over" in said:
            break
        if "You may choose: " not in said:
            said = ear.type("choices")
            continue
        said = ear.type(_decide(said))
        assert "Not allowed" not in said and "could not read" not in said, said
    assert "The hand is over" in said, ear.heard
    every = " ".join(ear.heard)
    tricks = [int(n) for n in re.findall(r"wins? trick (\d)", every)]
    assert tricks == list(range(1, len(tricks) + 1)) and tricks, every  # each trick once
    played = re.findall(r"(?:plays?|leads?) (the \w+ of \w+)", every)
    # each card said once (three or four to a trick, as a partner sits out or not)
    assert len(played) == len(set(played)) >= 3 * len(tricks), played
    assert re.search(r"Points this hand|the bidders", every), every
    said = ear.type("next")
    assert "Hand 1 counted" in said, said
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "web-keyboard-hand.txt").write_text("\n".join(ear.heard) + "\n", "utf-8")


# ---- issue 37's last items: themes in words, feedback said once, every decision confirmed ---


def _heard(site: Site) -> list[str]:
    return [str(x) for x in site.page.evaluate("window.pepper.heard")]


def test_the_puzzle_themes_are_named_in_words(site: Site) -> None:
    from pepper_tutor.teaching.puzzles.bank import bank_puzzles
    from pepper_tutor.teaching.puzzles.themes import theme_title

    names = {p.theme for p in bank_puzzles()}
    _home(site)
    _click(site, ".pepper-open-puzzles")
    picker = site.page.inner_text("#pepper-view .pepper-puzzle-theme")
    if site.page.locator("#pepper-view .pepper-answer button:not([disabled])").count() == 0:
        _click(site, ".pepper-next")  # the puzzle shown is settled: the next one
    _click(site, ".pepper-answer button:not([disabled])")  # a theme tried, for the table
    _click(site, ".pepper-puzzle-dashboard")
    board = site.page.inner_text("#pepper-view .pepper-puzzle-themes")
    site.shot("puzzle-themes-words")
    assert_accessible(site.page)
    shown = re.findall(r"\b[a-z]+(?:-[a-z]+)+\b", picker + " " + board)
    assert not set(shown) & names, shown  # no short name a player never reads
    assert any(theme_title(n) in board for n in names), board


def test_lessons_drills_and_puzzles_say_their_feedback_once(site: Site) -> None:
    from pepper_tutor.render.card_words import spelled_cards

    _home(site)
    _click(site, ".pepper-lesson-winning-tricks")
    for _ in range(30):  # a step to answer, not answered before (the lesson resumes)
        reveal = site.page.locator("#pepper-view .pepper-reveal:not([disabled])")
        if reveal.count() and site.page.locator("#pepper-view .pepper-hint").count():
            break
        _click(site, ".pepper-next")
    _click(site, ".pepper-hint")
    assert _heard(site)[-1].startswith("Hint 1 of "), _heard(site)[-1]
    before = len(_heard(site))
    _click(site, ".pepper-reveal")
    assert site.page.locator("#pepper-view .pepper-feedback .pepper-fb").count() == 1
    assert site.page.locator("#pepper-view .pepper-feedback[aria-live]").count() == 0
    new = _heard(site)[before:]
    headline = site.page.inner_text("#pepper-view .pepper-feedback .pepper-fb").split("\n")[0]
    said = [x for x in new if spelled_cards(headline.strip()) in x]
    assert len(said) == 1, (headline, new)  # the answer shown, once, in the live region
    assert not re.search(r"(?:10|[9TJQKA])[♣♦♥♠]", said[0]), said[0]  # cards in words
    before = len(_heard(site))
    _click(site, ".pepper-nav .pepper-progress-link")  # a new screen: nothing said again
    assert not any(spelled_cards(headline.strip()) in x for x in _heard(site)[before:])
    # a drill
    _home(site)
    _click(site, ".pepper-quiz-tricks")
    before = len(_heard(site))
    _click(site, ".pepper-reveal")
    answer = site.page.inner_text("#pepper-view .pepper-feedback .pepper-fb").split("\n")[0]
    # said with its cards in words, as a screen reader should say them
    assert [x for x in _heard(site)[before:] if spelled_cards(answer.strip()) in x], (
        answer, _heard(site)[before:])
    # a puzzle: the miss, then the answer shown, each said once
    _home(site)
    _click(site, ".pepper-open-puzzles")
    if site.page.locator("#pepper-view .pepper-reveal:not([disabled])").count() == 0:
        _click(site, ".pepper-next")  # the puzzle shown is settled: the next one
    before = len(_heard(site))
    _click(site, ".pepper-reveal")
    shown = site.page.inner_text("#pepper-view .pepper-puzzle-feedback .headline")
    new = _heard(site)[before:]
    assert len([x for x in new if spelled_cards(shown.strip()) in x]) == 1, new


def test_the_coach_is_heard_once_and_again_only_when_its_grade_changes(site: Site) -> None:
    # The grade refined from the click on: no work on the decision before it is made.
    site.page.evaluate("window.pepper.foresee = false")
    choices = coached_choice(site)  # a decision the coach has done no work on
    before = len(_heard(site))
    refined = int(site.page.evaluate("window.pepper.refined.length"))
    choices.last.click()
    _settle(site)
    # the page makes the grade surer over 50, 75 and 100 deals, in the background
    site.page.wait_for_function(
        "document.querySelector('#pepper-view .pepper-grade-deals') === null || "
        "document.querySelector('#pepper-view .pepper-grade-deals').textContent"
        ".includes('over 100 deals')", timeout=300_000)
    assert int(site.page.evaluate("window.pepper.refined.length")) > refined
    coach = [x for x in _heard(site)[before:] if "Coach" in x]
    assert sum(x.count("Coach: ") for x in coach) == 1, coach  # the first grade, once
    revised = [x for x in coach if "Coach, revised" in x]
    grades = [re.findall(r"it is (\w+)\.", x) for x in revised]
    assert len(grades) < 3 and all(a != b for a, b in pairwise(grades)), coach
    if revised:  # what was said is what the box shows
        box = site.page.inner_text("#pepper-view .pepper-coach")
        assert f"it is {grades[-1][0]}" in box, (box, coach)
    site.page.evaluate("window.pepper.foresee = true")


def test_a_call_waits_for_its_confirmation_too(site: Site) -> None:
    _click(site, ".pepper-nav .pepper-settings-link")
    label = site.page.inner_text("#pepper-view label[for=pepper-set-confirm]")
    assert label.startswith("Confirm each decision before it counts: a card, a call"), label
    if not site.page.locator("#pepper-view .pepper-set-confirm").is_checked():
        site.page.check("#pepper-view .pepper-set-confirm")
        _settle(site)
    _home(site)
    _click(site, ".pepper-open-table")
    if site.page.locator("#pepper-view .pepper-resume-offer").count():
        _click(site, ".pepper-new-match")
    _click(site, ".pepper-new-match")
    choices = site.page.locator("#pepper-view .pepper-choices button")
    assert choices.count() >= 2, site.text()[:400]  # South calls first after the deal
    log = site.page.inner_text("#pepper-view .pepper-table")
    chosen = choices.first
    call = chosen.inner_text().strip()
    chosen.click()
    _settle(site)
    confirm = site.page.locator("#pepper-view .pepper-confirm-card")
    assert confirm.count() == 1, "a call counted without being confirmed"
    assert confirm.inner_text().strip().lower().startswith("confirm: "), confirm.inner_text()
    assert call.lower() in confirm.inner_text().lower() or call.lower() == "pass"
    assert site.page.locator("#pepper-view .pepper-choices [aria-pressed=true]").count() == 1
    assert "You: " not in site.page.inner_text("#pepper-view .pepper-table").replace(
        log, "")  # nothing was called yet
    assert "? Choose it again, press Confirm or type yes" in _heard(site)[-1], _heard(site)[-1]
    site.shot("confirm-a-call")
    assert_accessible(site.page)
    _click(site, ".pepper-cancel-card")
    assert site.page.locator("#pepper-view .pepper-confirm-card").count() == 0
    assert _heard(site)[-1].startswith("Not done")
    # by keyboard: typed, asked again, then yes
    site.page.fill("#pepper-command", "")
    site.page.focus("#pepper-command")
    ear = Ear(site)
    said = ear.type("pass")
    assert said.startswith("Pass? Choose it again"), said
    said = ear.type("yes")
    assert said.startswith("You pass"), said
    _click(site, ".pepper-nav .pepper-settings-link")
    site.page.uncheck("#pepper-view .pepper-set-confirm")
    _settle(site)
