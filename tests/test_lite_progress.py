"""Progress kept in JupyterLite, in Chromium: a lesson step answered in notebook 01 is still
there after the page is reloaded, and two notebooks' kernels (each with its own copy of the
learner's folder) never put back an older copy over what the other saved; the progress file made
in the browser downloads with every answer in it.

The answers are found by the engine in this process, never written here; nothing is fetched
from any host but the local server.
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from pepper_tutor import sort_by_rank
from pepper_tutor.teaching.lessons.files import find_lesson

from .conftest import ARTIFACTS
from .web_site import LITE_START, lite_kernel_idle

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HOME = "/home/pyodide/.local/share/pepper-tutor"  # the tutor home in JupyterLite's kernels
# The newest change IndexedDB holds of the tutor home (IDBFS keeps one record per file).
KEPT_JS = """(name) => new Promise((done) => {
  const opening = indexedDB.open(name);
  opening.onerror = () => done(0);
  opening.onsuccess = () => {
    const db = opening.result;
    if (!db.objectStoreNames.contains('FILE_DATA')) { db.close(); done(0); return; }
    const all = db.transaction('FILE_DATA', 'readonly').objectStore('FILE_DATA').getAll();
    all.onsuccess = () => {
      let newest = 0;
      for (const entry of all.result) newest = Math.max(newest, +entry.timestamp);
      db.close();
      done(newest);
    };
    all.onerror = () => { db.close(); done(0); };
  };
})"""


def _run_all(page: Any, errors: list[str]) -> None:
    lite_kernel_idle(page, errors)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")


def _kept(page: Any) -> float:
    return float(page.evaluate(KEPT_JS, HOME))


def _wait_kept_after(page: Any, before: float) -> float:
    """Wait until IndexedDB holds a change newer than ``before``; its time."""
    deadline = time.monotonic() + 30
    while (now := _kept(page)) <= before:
        assert time.monotonic() < deadline, "the change was not kept in IndexedDB"
        page.wait_for_timeout(200)
    return now


def _run_new_cell(page: Any, code: str) -> None:
    """Add a cell at the end of the notebook in view and run it (what a learner types)."""
    page.evaluate("""(code) => {
      const nb = window.jupyterapp.shell.currentWidget;
      const cells = nb.content.model.sharedModel;
      cells.insertCell(cells.cells.length, {cell_type: 'code', source: code});
      nb.content.activeCellIndex = cells.cells.length - 1;
      return window.jupyterapp.commands.execute('notebook:run-cell');
    }""", code)


def _answer_a_quiz_question(page: Any, notebook: str, before: float = 0.0) -> float:
    """In the notebook in view, a new cell with a quiz, and any answer to its first question
    (right or wrong, it is recorded); when IndexedDB held it."""
    from playwright.sync_api import expect

    _run_new_cell(page, 'from pepper_tutor import notebook\nnotebook.quiz("tricks")')
    quiz = page.locator(f"[id='{notebook}'] .pepper-quiz").last
    expect(quiz.locator(".pepper-answer button").first).to_be_visible(timeout=LITE_START)
    before = max(before, _kept(page))
    quiz.locator(".pepper-answer button").first.click()
    expect(quiz.locator(".pepper-feedback")).not_to_be_empty()
    return _wait_kept_after(page, before)


def test_progress_survives_a_reload_and_two_kernels_keep_each_others_answers(
        lite: tuple[Path, str], browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    _folder, url = lite
    here = url.rsplit("/lite/", 1)[0] + "/"
    context = browser.new_context(viewport={"width": 1280, "height": 1000},
                                  service_workers="allow", accept_downloads=True)
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    steps = find_lesson("bowers").steps
    at, step = next((i, s) for i, s in enumerate(steps) if s.answer_shape == "order")
    try:
        page.goto(f"{url}lab/index.html?path=01-cards-and-bowers.ipynb")
        _run_all(page, errors)
        lesson = page.locator(".pepper-lesson").first
        progress = lesson.locator(".pepper-progress-text")
        expect(progress).to_contain_text(f"Step 1 of {len(steps)}")
        for shown in range(2, at + 2):
            lesson.locator("button.pepper-next").click()
            expect(progress).to_contain_text(f"Step {shown} of")
        right = sort_by_rank(list(step.cards), step.trump)
        for card in reversed(right):
            lesson.locator(f"button.pepper-card-{card}").click()
        expect(lesson.locator(".pepper-feedback")).to_contain_text("Not quite")
        for card in right:
            lesson.locator(f"button.pepper-card-{card}").click()
        expect(lesson.locator(".pepper-feedback")).to_contain_text("Right.")
        before = _kept(page)
        lesson.locator("button.pepper-next").click()
        expect(progress).to_contain_text(f"Step {at + 2} of")
        _wait_kept_after(page, before)
        # Kept, so nothing says otherwise.
        expect(lesson.locator(".pepper-save-warning")).to_have_text("")

        # A reload starts a new kernel with nothing in memory: the lesson goes on where it was.
        page.reload()
        _run_all(page, errors)
        lesson = page.locator(".pepper-lesson").first
        progress = lesson.locator(".pepper-progress-text")
        expect(progress).to_contain_text(f"Step {at + 2} of")  # the missed step comes again
        expect(progress).to_contain_text("solved 1 of")
        first = page.evaluate("window.jupyterapp.shell.currentWidget.id")

        # A second notebook, a second kernel: a quiz answer there, then one in the first
        # notebook's kernel, whose copy of the folder dates from before that answer.
        page.evaluate("window.jupyterapp.commands.execute('docmanager:open', "
                      "{path: '09-review-and-progress.ipynb'})")
        page.wait_for_function("(id) => window.jupyterapp.shell.currentWidget.id !== id",
                               arg=first)
        second = page.evaluate("window.jupyterapp.shell.currentWidget.id")
        lite_kernel_idle(page, errors)
        before = _answer_a_quiz_question(page, second)
        page.evaluate(f"window.jupyterapp.shell.activateById({first!r})")
        _answer_a_quiz_question(page, first, before)
        page.evaluate(f"window.jupyterapp.shell.activateById({second!r})")
        _run_new_cell(page, "from pepper_tutor.teaching.learner.store import LearnerStore\n"
                      "s = LearnerStore()\nprint('position', s.lesson('bowers').position, "
                      "'quiz answers', len(s.answers('quiz')))")
        out = page.locator(f"[id='{second}'] .jp-OutputArea-output", has_text="quiz answers")
        expect(out.last).to_contain_text(f"position {at + 1} quiz answers 2")

        # The progress file: made in the browser, saved as a download, read here.
        _run_new_cell(page, "notebook.progress_file()")
        box = page.locator(f"[id='{second}'] .pepper-progress-file").last
        box.locator("button.pepper-export").click()
        with page.expect_download() as download:
            box.locator(".pepper-download a").click()
        saved = tmp_path / "downloaded.sqlite"
        download.value.save_as(saved)
        assert download.value.suggested_filename == "pepper-progress.sqlite"
        with closing(sqlite3.connect(saved)) as con:
            assert con.execute("SELECT COUNT(*) FROM answers WHERE source = 'quiz'"
                               ).fetchone() == (2,)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "lite-progress.png"), full_page=True)
    finally:
        context.close()
    foreign = [u for u in requests if not u.startswith((here, "data:", "blob:"))]
    assert not foreign, f"requests off the site: {foreign[:10]}"
    assert not errors, f"uncaught JavaScript errors: {errors}"
