"""The Play and learn page's figures, measured in Chromium (Debian's, headless):

- the first visit's download (what the page fetched, gzipped as a static host serves it);
- a cold start (an empty browser profile) and a warm one (a reload: the service worker's
  copy) to the first question of a drill on screen;
- the feedback after an answer, and the coach's grade of a card and of a call (the table
  with the coach off, then "Ask the coach": the grade alone), as the page waits for them:
  the first grade (over ``BROWSER_COACH_SAMPLES`` deals) and, from the same click, the
  surer one the page then makes while the learner looks (over the last of
  ``BROWSER_REFINED_SAMPLES``, 100 deals).

    python web/bench.py [--rounds 3] [--grades 4]

Each round measures everything once (cold and warm in the same round: paired), and
``--grades`` calls and cards graded; the median and the range over the rounds are printed,
and for the grades the median, the 95th percentile and the range over every grade. Only the
pure-Python search runs in a browser.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.servers import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.web_site import build_page, gzipped, serve  # noqa: E402

START = 300_000


def _ready(page: Any) -> None:
    page.wait_for_function("window.pepper && window.pepper.ready", timeout=START)


def _settle(page: Any) -> None:
    page.wait_for_function("!document.getElementById('pepper-view').inert", timeout=START)


def _click(page: Any, selector: str) -> float:
    """Click, wait for the reply; the page's own time from the click to the reply shown."""
    page.click(f"#pepper-view {selector}")
    _settle(page)
    return float(page.evaluate("window.pepper.timings.at(-1).ms"))


def _python_ms(page: Any) -> float:
    return float(page.evaluate("window.pepper.timings.at(-1).python"))


def _first_question(page: Any, url: str) -> float:
    start = time.perf_counter()
    page.goto(url)
    _ready(page)
    _click(page, ".pepper-quiz-tricks")
    page.wait_for_selector("#pepper-view .pepper-answer")
    return time.perf_counter() - start


def one_round(browser: Any, site: Path, url: str, want: int
              ) -> tuple[dict[str, float], dict[str, list[float]]]:
    out: dict[str, float] = {}
    context = browser.new_context(viewport={"width": 1100, "height": 1000})
    fetched: list[str] = []
    context.on("requestfinished", lambda r: fetched.append(r.url))
    page = context.new_page()
    out["cold_s"] = _first_question(page, url)
    raw, packed = gzipped(site, [u for u in fetched if u.startswith(url.split("/try/")[0])])
    out["download_mb"], out["download_gz_mb"] = raw / 1e6, packed / 1e6
    out["warm_s"] = _first_question(page, url)
    out["feedback_ms"] = _click(page, ".pepper-answer button:not([disabled])")
    out["feedback_python_ms"] = _python_ms(page)
    _click(page, ".pepper-nav .pepper-home")
    page.select_option("#pepper-view .pepper-table-level", "beginner") if page.locator(
        "#pepper-view .pepper-table-level").count() else None
    _click(page, ".pepper-open-table")
    if page.locator("#pepper-view .pepper-resume-offer").count():
        _click(page, ".pepper-new-match")
    page.click("#pepper-view .pepper-coach-toggle")  # off: each grade is asked for alone
    _settle(page)
    grades: dict[str, list[float]] = {"call": [], "card": [], "call_100": [], "card_100": []}
    for _ in range(400):
        if min(len(grades["call"]), len(grades["card"])) >= want:
            break
        if page.locator("#pepper-view .pepper-next-hand:not([disabled])").count():
            _click(page, ".pepper-next-hand")
            continue
        cards = page.locator("#pepper-view .pepper-hand .pepper-card:not([disabled])")
        kind = "card" if cards.count() else "call"
        if kind == "card":
            for i in range(cards.count()):
                _click(page, f".pepper-hand .pepper-card:not([disabled]) >> nth={i}")
                if "Not allowed" not in page.inner_text("#pepper-view .pepper-coach"):
                    break
        elif page.locator("#pepper-view .pepper-choices button").count():
            _click(page, ".pepper-choices button >> nth=0")
        else:
            failed = page.locator("#pepper-view .pepper-error")
            if failed.count():
                raise RuntimeError(f"the page failed: {failed.first.inner_text()}")
            break  # the match is over
        if len(grades[kind]) < want and page.locator(
                "#pepper-view .pepper-ask-coach:not([disabled])").count():
            refined = int(page.evaluate("window.pepper.refined.length"))
            took = _click(page, ".pepper-ask-coach")
            # a decision with one legal choice is not graded: it says so at once
            said = page.inner_text("#pepper-view .pepper-coach")
            if "the only choice" in said:
                continue
            if "grading over more deals" not in said:
                continue  # that decision's grade was made surer already: asked again
            grades[kind].append(took)
            # The surer grade the page makes next, timed from the same click.
            page.wait_for_function(
                f"window.pepper.refined.slice({refined}).some(r => r.deals >= 100)",
                timeout=START)
            grades[f"{kind}_100"].append(float(page.evaluate(
                f"window.pepper.refined.slice({refined}).find(r => r.deals >= 100).at"
                " - window.pepper.timings.at(-1).start")))
    context.close()
    return out, grades


def _p95(values: list[float]) -> float:
    """The 95th percentile, nearest rank."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the Play and learn page's figures")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--grades", type=int, default=4,
                        help="calls and cards graded a round (default 4 of each)")
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"web/bench.py: {CHROMIUM} is not installed (apt-get install -y chromium): "
              "no browser figures", file=sys.stderr)
        return 0
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp)
        build_page(site / "try")
        rows = []
        grades: dict[str, list[float]] = {}
        with serve(site / "try") as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                        headless=True)
            for _ in range(args.rounds):
                row, graded = one_round(browser, site, url, args.grades)
                rows.append(row)
                for key, values in graded.items():
                    grades.setdefault(key, []).extend(values)
            browser.close()
    labels = [("download_gz_mb", "first visit, gzipped", "MB", 10.0),
              ("download_mb", "first visit, as stored", "MB", None),
              ("cold_s", "cold start to the first question", "s", None),
              ("warm_s", "warm start to the first question", "s", 4.0),
              ("feedback_ms", "feedback after an answer", "ms", 100.0),
              ("feedback_python_ms", "  of which Python", "ms", None)]
    print(f"Play and learn page in Chromium, {args.rounds} rounds (median, range):")
    for key, words, unit, goal in labels:
        values = [r[key] for r in rows]
        med = statistics.median(values)
        goal_text = f"  (goal ≤ {goal:g} {unit})" if goal is not None else ""
        print(f"  {words:<36} {med:8.1f} {unit:<3} [{min(values):.1f} – {max(values):.1f}]"
              f"{goal_text}")
    from pepper_tutor.apps.web import BROWSER_COACH_SAMPLES, BROWSER_REFINED_SAMPLES

    first, last = BROWSER_COACH_SAMPLES, BROWSER_REFINED_SAMPLES[-1]
    print("The coach's grades, pure-Python search (median, 95th percentile, range, grades):")
    for key, words, goal in (
            ("card", f"a card over {first} deals", 300.0),
            ("card_100", f"  then over {last} deals", None),
            ("call", f"a call over {first} deals", 2000.0),
            ("call_100", f"  then over {last} deals", None)):
        values = grades.get(key, [])
        if not values:
            print(f"  {words:<36} none graded")
            continue
        goal_text = f"  (goal ≤ {goal:g} ms)" if goal is not None else ""
        print(f"  {words:<36} {statistics.median(values):8.1f} ms p95 {_p95(values):8.1f} "
              f"[{min(values):.1f} – {max(values):.1f}] n={len(values)}{goal_text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
