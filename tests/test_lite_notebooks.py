"""Notebooks 02 onwards in JupyterLite (``web/lite.py``), in Chromium, as the docs' "Open in
JupyterLite" links open them: each one run whole in the browser's Python, with no error in any
cell, every widget shown, one cheap interaction where a notebook has one (a quiz answer, a
hand at the practice table, a puzzle answer), and nothing fetched from any host but the local
server. Notebook 01 has a test of its own (``test_lite_page.py``).

One browser context and one JupyterLab page for them all, one notebook after another, each
one's kernel shut down before the next starts (a kernel is a Pyodide worker: two at once would
swamp a two-core runner). The answers are found by the engine in this process, never written
here. The time each notebook took (open, kernel start, run, checks) goes to
``test-artifacts/lite-notebook-times.json``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pepper_tutor import trick_winner
from pepper_tutor.render.puzzles import position_facts
from pepper_tutor.teaching.puzzles.bank import bank_puzzles
from pepper_tutor.teaching.puzzles.puzzle import Puzzle

from .conftest import ARTIFACTS, ROOT
from .test_browser import _trick_cards
from .web_site import LITE_START, lite_kernel_idle

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb")
                   if not p.name.startswith("01-"))
# Opens a notebook in the running app (no page load: a reload would restore the last layout
# and start a kernel for every notebook open in it) and keeps its panel for the steps below.
OPEN_JS = """async (path) => {
  const panel = await window.jupyterapp.commands.execute('docmanager:open',
                                                         {path, factory: 'Notebook'});
  await panel.context.ready;
  window.pepperPanel = panel;
  window.pepperRun = null;
  return panel.id;
}"""
# Run all: the command's promise settles when the last cell has run (false if one failed).
RUN_JS = """() => {
  window.pepperRun = 'running';
  window.jupyterapp.commands.execute('notebook:run-all-cells').then(
    (ok) => { window.pepperRun = ok ? 'done' : 'a cell failed'; },
    (e) => { window.pepperRun = 'the command failed: ' + e; });
}"""
# What the kernel sent, from the notebook's model: the code cells' execution counts, the
# error outputs (ename, evalue) and how many outputs are widget views.
CELLS_JS = """() => window.pepperPanel.model.sharedModel.cells
  .filter((c) => c.cell_type === 'code')
  .map((c) => ({
    count: c.execution_count,
    errors: c.outputs.filter((o) => o.output_type === 'error')
                     .map((o) => o.ename + ': ' + o.evalue),
    widgets: c.outputs.filter((o) => o.data &&
                              'application/vnd.jupyter.widget-view+json' in o.data).length,
  }))"""
CLOSE_JS = """async () => {
  const panel = window.pepperPanel;
  window.pepperPanel = null;
  if (panel) {
    await panel.sessionContext.shutdown();
    panel.dispose();
  }
}"""
# The kernel manager's list catches up with a shutdown a moment later.
KERNELS_JS = "() => [...window.jupyterapp.serviceManager.kernels.running()].length"
# A cell's own outputs (not those nested in an Output widget).
TOP_OUTPUT = ".jp-Cell-outputArea > .jp-OutputArea-child > .jp-OutputArea-output"
STDERR = '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'


@dataclass
class Lab:
    """The JupyterLab page of the site, and what it did during the current notebook."""
    page: Any
    here: str  # the local server's address: every request must start with it
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    times: dict[str, float] = field(default_factory=dict)


@pytest.fixture(scope="module")
def lab(lite: tuple[Path, str], browser: Any) -> Iterator[Lab]:
    _folder, url = lite
    context = browser.new_context(viewport={"width": 1280, "height": 1000},
                                  service_workers="allow")
    page = context.new_page()
    page.set_default_timeout(LITE_START)
    lab = Lab(page, url.rsplit("/lite/", 1)[0] + "/")
    context.on("request", lambda r: lab.requests.append(r.url))
    page.on("pageerror", lambda e: lab.errors.append(str(e)))
    try:
        page.goto(f"{url}lab/index.html")
        page.wait_for_function("() => !!window.jupyterapp")
        page.evaluate("async () => { await window.jupyterapp.restored; }")
        yield lab
    finally:
        context.close()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        times = {**lab.times, "total_s": round(sum(lab.times.values()), 1)}
        (ARTIFACTS / "lite-notebook-times.json").write_text(json.dumps(times, indent=1),
                                                            encoding="utf-8")
        print("JupyterLite notebooks, seconds each:", times)


def _quiz_answered(notebook: Any) -> None:
    """07: the first drill (who wins the trick?) answered right, as the engine says."""
    from playwright.sync_api import expect

    quiz = notebook.locator(".pepper-quiz").first
    expect(quiz.locator(".pepper-situation")).to_contain_text("who wins?")
    head = quiz.locator(".pepper-situation .pepper-prompt").inner_text()
    trick = _trick_cards(quiz)
    winner = trick[trick_winner(trick, "NT" if head.startswith("No trump") else head.split()[0])]
    quiz.locator(f"button.pepper-card-{winner}").click()
    expect(quiz.locator(".pepper-feedback")).to_contain_text("Right.")
    expect(quiz.locator(".pepper-streak")).to_contain_text("1/1 right")


def _table_shows_a_hand(notebook: Any) -> None:
    """08: the practice table deals the learner a hand of six cards, each a card button."""
    from playwright.sync_api import expect

    hand = notebook.locator(".pepper-table").first.locator(".pepper-hand button.pepper-card")
    expect(hand).to_have_count(6)
    for button in hand.all():
        assert re.search(r"\bpepper-card-[9TJQKA][CDHS]\b", button.get_attribute("class") or "")


def _shown_puzzle(widget: Any) -> Puzzle:
    """The bank's puzzle on the board: the one with this rating, these offered actions and
    these words for the position."""
    board = widget.locator(".pepper-puzzle").inner_text()
    offered = sorted(b.get_attribute("title") or "" for b in
                     widget.locator("button.pepper-choice").all())
    found = [p for p in bank_puzzles()
             if f"rated {p.rating:.0f}" in board
             and sorted(str(a) for a in p.position().legal_actions()) == offered
             and all(v in board for _, v in position_facts(p) if isinstance(v, str))]
    assert found, f"no puzzle of the bank is shown as: {board}"
    assert len({p.answers for p in found}) == 1, f"the board fits puzzles that differ: {board}"
    return found[0]


def _puzzle_answered(notebook: Any) -> None:
    """10: the first rated puzzle answered with its answer: the feedback says so."""
    from playwright.sync_api import expect

    widget = notebook.locator(".pepper-puzzles").first
    expect(widget.locator("button.pepper-choice").first).to_be_visible()
    puzzle = _shown_puzzle(widget)
    widget.locator(f'button.pepper-choice[title="{puzzle.answers[0]}"]').click()
    expect(widget.locator(".pepper-feedback").first).to_contain_text("Right: ")


INTERACTIONS: dict[str, Callable[[Any], None]] = {
    "07-quiz-drills.ipynb": _quiz_answered,
    "08-play-a-hand.ipynb": _table_shows_a_hand,
    "10-puzzles.ipynb": _puzzle_answered,
}


def _checked(lab: Lab, notebook: Any, name: str) -> None:
    """Run all, then: every code cell ran, no error output, every widget shown."""
    from playwright.sync_api import expect

    page = lab.page
    lite_kernel_idle(page, lab.errors)
    page.evaluate(RUN_JS)
    page.wait_for_function("() => window.pepperRun !== 'running'", polling=500)
    lite_kernel_idle(page, lab.errors)
    cells = page.evaluate(CELLS_JS)
    failed = [(i, c["errors"]) for i, c in enumerate(cells) if c["errors"]]
    assert not failed, f"{name}: error outputs (code cell, ename: evalue): {failed}"
    assert page.evaluate("window.pepperRun") == "done", page.evaluate("window.pepperRun")
    unrun = [i for i, c in enumerate(cells) if c["count"] is None]
    assert not unrun, f"{name}: code cells that did not run: {unrun}"
    stderr = notebook.locator(STDERR).filter(has_text=re.compile(r"Traceback|Error"))
    assert stderr.count() == 0, f"{name}: {stderr.all_inner_texts()}"
    # Every widget view the kernel sent is drawn by the widget manager (a missing manager
    # shows the text fallback; a missing model, "Error displaying widget").
    expect(notebook.locator(".jp-OutputArea-output", has_text="Loading widget")
           ).to_have_count(0, timeout=20_000)
    shown = notebook.locator(f"{TOP_OUTPUT}:has(.jupyter-widgets)")
    expect(shown).to_have_count(sum(c["widgets"] for c in cells))
    broken = notebook.locator(".jp-OutputArea-output", has_text="Error displaying widget")
    assert broken.count() == 0, f"{name}: {broken.all_inner_texts()}"
    INTERACTIONS.get(name, lambda _notebook: None)(notebook)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs_in_jupyterlite(lab: Lab, name: str) -> None:
    page = lab.page
    lab.requests.clear()
    lab.errors.clear()
    started = time.perf_counter()
    panel = page.evaluate(OPEN_JS, name)
    try:
        _checked(lab, page.locator(f'[id="{panel}"]'), name)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"lite-{Path(name).stem}.png"))
    finally:
        page.evaluate(CLOSE_JS)
        lab.times[name] = round(time.perf_counter() - started, 1)
    for _ in range(60):
        if page.evaluate(KERNELS_JS) == 0:
            break
        page.wait_for_timeout(500)
    running = page.evaluate(KERNELS_JS)
    assert running == 0, f"kernels still running after {name}'s was shut down: {running}"
    foreign = [u for u in lab.requests if not u.startswith((lab.here, "data:", "blob:"))]
    assert not foreign, f"requests off the site: {foreign[:10]}"
    assert not lab.errors, f"uncaught JavaScript errors: {lab.errors}"
