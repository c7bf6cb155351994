"""The Play and learn page in Chromium: a lesson step's whole hand, stepped by keyboard
inside the step. The page is built from this tree and served on a loopback port; the
titles it must show are the guide's own steps, built here by the engine from the same
record."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from pepper_tutor.render.guide import build_guide, lesson_guide, spelled_cards
from pepper_tutor.teaching.lessons.files import find_lesson

from .axe import assert_accessible
from .conftest import ARTIFACTS
from .test_web_page import Site, open_site

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Site]:
    yield from open_site(tmp_path_factory, browser, None)


def _act(site: Site, act: str, value: str = "") -> None:
    """What a click on a button with ``data-act`` sends, and the reply shown."""
    site.page.evaluate("([a, v]) => window.pepper.send(a, v)", [act, value])
    site.page.wait_for_function("!document.getElementById('pepper-view').inert")


def test_a_lesson_steps_inline_guide_steps_by_keyboard(site: Site) -> None:
    lesson = find_lesson("scoring")
    index, step = next((i, s) for i, s in enumerate(lesson.steps) if lesson.guide_of(s))
    guide = lesson.guide_of(step)
    assert guide is not None
    built, at = lesson_guide(guide)
    titles = [s.title for s in built.steps]
    _act(site, "lesson", lesson.id)
    for before in lesson.steps[:index]:  # the steps before it, shown and passed
        if before.answerable:
            _act(site, "reveal")
        _act(site, "next")
    page = site.page
    assert f"Step {index + 1} of" in site.text()
    frame_el = page.locator("#pepper-view .pepper-step-guide iframe.pepper-guide-frame")
    expect(frame_el).to_have_count(1)
    assert (frame_el.get_attribute("title") or "").startswith("Game guide: ")
    frame = page.frame_locator("#pepper-view .pepper-step-guide iframe.pepper-guide-frame")
    expect(frame.locator("#pg[data-ready=true]")).to_have_count(1)
    count = frame.locator("#pg-count")
    title = frame.locator("#pg-step-title")
    expect(count).to_have_text(f"Step {at + 1} of {len(titles)}")
    expect(title).to_have_text(titles[at])
    site.shot("lesson-guide")

    # the step asks the score, so its hand stops where it opens: nothing later is in the
    # frame at all, and its End and trick list say where the hand stops
    whole = build_guide(guide.record, guide.seat)
    assert at == len(titles) - 1 < len(whole.steps) - 1
    srcdoc = frame_el.get_attribute("srcdoc") or ""
    for later in whole.steps[at + 1:]:
        assert later.title not in srcdoc, later.title
    assert "The score" not in srcdoc
    expect(frame.locator("#pg-trick option")).to_have_text(
        ["The deal", *[f"Trick {t}" for t in built.trick_starts()], "Where the hand stops"])
    title.focus()  # the keys go to the frame the learner clicked into
    page.keyboard.press("ArrowLeft")
    expect(title).to_have_text(titles[at - 1])
    # the live region says the step with its cards spelled out, as a screen reader needs
    expect(frame.locator("#pg-say")).to_contain_text(spelled_cards(titles[at - 1]))
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # no further than where it opened
    expect(title).to_have_text(titles[at])
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(title).to_have_text(titles[at - 2])
    page.keyboard.press("End")
    expect(title).to_have_text(titles[at])
    expect(count).to_have_text(f"Step {len(titles)} of {len(titles)}")
    page.keyboard.press("Home")
    expect(title).to_have_text(titles[0])
    page.keyboard.press("ArrowDown")  # the first trick's first card
    expect(title).to_have_text(titles[built.trick_starts()[1]])
    # the keys stepped the guide only: the lesson is still at its step, the question open
    assert f"Step {index + 1} of" in site.text()
    assert page.locator("#pepper-view .pepper-reveal").is_enabled()
    # the step drawn again (a hint) keeps the hand where the learner stepped it
    page.click("#pepper-view .pepper-hint")
    page.wait_for_function("!document.getElementById('pepper-view').inert")
    expect(page.locator("#pepper-view .pepper-feedback")).to_contain_text("Hint 1")
    expect(title).to_have_text(titles[built.trick_starts()[1]])
    assert_accessible(page, include="#pepper-view")
    # on a phone the step and its hand fit the width: nothing scrolls sideways
    page.set_viewport_size({"width": 390, "height": 844})
    expect(title).to_have_text(titles[built.trick_starts()[1]])
    for where in (page, frame_el.element_handle().content_frame()):
        assert where is not None
        width = where.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page scrolls sideways at 390 px ({width} px)"
    site.shot("lesson-guide-phone")
    assert not site.foreign(), site.foreign()


KERNEL_IDLE_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.connectionStatus === 'connected' && k.status === 'idle';
}"""


def test_the_notebook_lesson_widget_steps_its_whole_hand_by_keyboard(lab_server, page) -> None:
    """In JupyterLab: the scoring lesson's widget, passed on to the step with a whole hand,
    shows the viewer inside the step at its moment, and the keys step it."""
    lesson = find_lesson("scoring")
    step = next(s for s in lesson.steps if lesson.guide_of(s))
    guide = lesson.guide_of(step)
    assert guide is not None
    built, at = lesson_guide(guide)
    titles = [s.title for s in built.steps]
    page.goto(lab_server.url("/lab/tree/05-defending-and-scoring.ipynb") + "&reset")
    page.wait_for_function(KERNEL_IDLE_JS)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    widget = page.locator(".pepper-lesson", has_text=lesson.title).first
    expect(widget).to_be_visible()
    frames = widget.locator(".pepper-step-guide iframe.pepper-guide-frame")
    progress = widget.locator(".pepper-progress-text")
    index = lesson.steps.index(step)
    expect(progress).to_contain_text("Step 1 of")
    for n, before in enumerate(lesson.steps[:index], 1):  # on to it, as a learner would
        if before.answerable:
            widget.locator("button.pepper-reveal").click()
            expect(widget.locator("button.pepper-next")).to_be_enabled()
        widget.locator("button.pepper-next").click()
        expect(progress).to_contain_text(f"Step {n + 1} of")  # the kernel drew the next one
    expect(frames).to_have_count(1)
    frame = widget.frame_locator(".pepper-step-guide iframe.pepper-guide-frame")
    title = frame.locator("#pg-step-title")
    expect(frame.locator("#pg-count")).to_have_text(f"Step {at + 1} of {len(titles)}")
    expect(title).to_have_text(titles[at])
    title.focus()
    page.keyboard.press("ArrowLeft")
    expect(title).to_have_text(titles[at - 1])
    page.keyboard.press("End")  # where the hand stops for this question: where it opened
    expect(title).to_have_text(titles[at])
    assert at == len(titles) - 1
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    widget.screenshot(path=str(ARTIFACTS / "notebook-lesson-guide.png"))
