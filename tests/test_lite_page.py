"""The notebooks in JupyterLite (``web/lite.py``), in Chromium: the very notebook 01 run in the
browser's Python with its widgets, a lesson step answered wrong then right, and nothing fetched
from any host but the local server.

The site is built from this tree (its tools need Python 3.12+, found by ``web/lite.py``; on CI
a build that cannot run fails the test). The answers are found by the engine in this process,
never written here. The first visit's figures (the download, gzipped as a static host serves
it, and the time to the notebook's first output) go to ``test-artifacts/lite-figures.json``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from pepper_tutor import sort_by_rank
from pepper_tutor.teaching.lessons.files import find_lesson

from .conftest import ARTIFACTS
from .web_site import LITE_START, gzipped, lite_kernel_idle

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = "01-cards-and-bowers.ipynb"


def test_notebook_01_runs_in_jupyterlite_with_a_lesson_step_answered(
        lite: tuple[Path, str], browser: Any) -> None:
    from playwright.sync_api import expect

    folder, url = lite
    here = url.rsplit("/lite/", 1)[0] + "/"
    context = browser.new_context(viewport={"width": 1280, "height": 1000},
                                  service_workers="allow")
    requests: list[str] = []
    fetched: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    context.on("requestfinished", lambda r: fetched.append(r.url))
    page = context.new_page()
    page.set_default_timeout(LITE_START)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        started = time.perf_counter()
        page.goto(f"{url}lab/index.html?path={NOTEBOOK}")
        lite_kernel_idle(page, errors)
        page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        # The first code cell that shows anything: the rulebook's words, from the package.
        expect(page.locator(".jp-OutputArea-output", has_text="right bower").first
               ).to_be_visible(timeout=LITE_START)
        first_output_s = time.perf_counter() - started

        lesson = page.locator(".pepper-lesson").first
        expect(lesson).to_be_visible(timeout=LITE_START)
        steps = find_lesson("bowers").steps
        at, step = next((i, s) for i, s in enumerate(steps) if s.answer_shape == "order")
        progress = lesson.locator(".pepper-progress-text")
        expect(progress).to_contain_text(f"Step 1 of {len(steps)}")
        for shown in range(2, at + 2):  # the explain steps before it, one Next each
            lesson.locator("button.pepper-next").click()
            expect(progress).to_contain_text(f"Step {shown} of")
        expect(lesson.locator(".pepper-situation")).to_contain_text(step.prompt)
        right = sort_by_rank(list(step.cards), step.trump)
        feedback = lesson.locator(".pepper-feedback")
        for card in reversed(right):
            lesson.locator(f"button.pepper-card-{card}").click()
        expect(feedback).to_contain_text("Not quite")
        for card in right:
            lesson.locator(f"button.pepper-card-{card}").click()
        expect(feedback).to_contain_text("Right.")
        expect(lesson.locator("button.pepper-next")).to_be_enabled()
        # The store is kept in the browser (tests/test_lite_progress.py), so nothing says
        # otherwise.
        expect(lesson.locator(".pepper-save-warning")).to_have_text("")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "lite-notebook-01.png"), full_page=True)
    finally:
        context.close()
    foreign = [u for u in requests if not u.startswith((here, "data:", "blob:"))]
    assert not foreign, f"requests off the site: {foreign[:10]}"
    assert not errors, f"uncaught JavaScript errors: {errors}"
    raw, packed = gzipped(folder.parent, [u for u in fetched if u.startswith(here)])
    figures = {"download_mb": round(raw / 1e6, 1), "download_gz_mb": round(packed / 1e6, 1),
               "first_output_s": round(first_output_s, 1)}
    (ARTIFACTS / "lite-figures.json").write_text(json.dumps(figures), encoding="utf-8")
    print("JupyterLite first visit:", figures)
