"""The Play and learn page's figures, measured in Chromium (Debian's, headless):

- the first visit's download (what the page fetched, gzipped as a static host serves it);
- a cold start (an empty browser profile) and a warm one (a reload: the service worker's
  copy) to the first question of a drill on screen;
- the feedback after an answer, and the coach's grade of a card and of a call (the table
  with the coach off, then "Ask the coach": the grade alone), as the page waits for them:
  the first grade (over ``BROWSER_COACH_SAMPLES`` deals) and, from the same click, the
  surer one the page then makes while the learner looks (over the last of
  ``BROWSER_REFINED_SAMPLES``, 100 deals).

- the coach at the table as a learner meets it (coach on, ``--decisions`` graded decisions
  a round, each left on screen ``--think`` seconds before the click), with the page's work
  on the decision in front (``coach-foresee``) and without it, paired: the same deals and
  the same choices (``?seed=``, one seed a round), the two runs of a round one after the
  other, their order swapped every round. For each: the click's wait to the grade shown,
  the deals that grade rests on, and the wait from the click to the grade over 100 deals.

    python web/bench.py [--rounds 3] [--grades 4] [--decisions 12] [--think 3]
    python web/bench.py --only table    # the table's paired figures alone

Each round measures everything once (cold and warm in the same round: paired), and
``--grades`` calls and cards graded; the median and the range over the rounds are printed,
and for the grades the median, the 95th percentile and the range over every grade. Only the
pure-Python search runs in a browser.
"""

from __future__ import annotations

import argparse
import math
import os
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


def _graded_over(page: Any) -> int:
    """The deals the coach box's grade rests on (0: no grade shown)."""
    box = page.locator("#pepper-view .pepper-coach .pepper-grade-deals")
    if not box.count():
        return 0
    words = box.first.inner_text().split()
    return int(words[words.index("over") + 1])


def table_run(browser: Any, url: str, seed: int, want: int, think: float, ahead: bool
              ) -> list[dict[str, Any]]:
    """The coach at the table, as a learner meets it: ``want`` graded decisions, each left
    on screen ``think`` seconds, then the first choice the rules take (the first card that
    is not refused); ``ahead``: the page works on the decision in front meanwhile. Per
    graded decision: its kind, the click's wait, the deals of the grade shown at the click,
    and the wait from the click to the grade over the last count of deals."""
    from pepper_tutor.apps.web import BROWSER_REFINED_SAMPLES

    last = BROWSER_REFINED_SAMPLES[-1]
    context = browser.new_context(viewport={"width": 1100, "height": 1000})
    page = context.new_page()
    page.goto(f"{url}?seed={seed}")
    _ready(page)
    page.evaluate(f"window.pepper.foresee = {'true' if ahead else 'false'}")
    page.select_option("#pepper-view .pepper-table-level", "beginner") if page.locator(
        "#pepper-view .pepper-table-level").count() else None
    _click(page, ".pepper-open-table")
    if page.locator("#pepper-view .pepper-resume-offer").count():
        _click(page, ".pepper-new-match")
    out: list[dict[str, Any]] = []
    for _ in range(400):
        if len(out) >= want:
            break
        if page.locator("#pepper-view .pepper-next-hand:not([disabled])").count():
            _click(page, ".pepper-next-hand")
            continue
        cards = page.locator("#pepper-view .pepper-hand .pepper-card:not([disabled])")
        choices = page.locator("#pepper-view .pepper-choices button")
        kind = "card" if cards.count() else "call"
        options = cards.count() or choices.count()
        if not options:
            failed = page.locator("#pepper-view .pepper-error")
            if failed.count():
                raise RuntimeError(f"the page failed: {failed.first.inner_text()}")
            break  # the match is over
        # when the decision was shown: the reply that drew it
        shown = float(page.evaluate(
            "window.pepper.timings.at(-1).start + window.pepper.timings.at(-1).ms"))
        page.wait_for_timeout(think * 1000)  # the learner looks at the decision
        done_ahead = bool(page.evaluate(
            f"window.pepper.ahead.deals >= {last} && !window.pepper.ahead.more"))
        ready = float(page.evaluate("window.pepper.ahead.at")) - shown if done_ahead else None
        refined = int(page.evaluate("window.pepper.refined.length"))
        if kind == "card":
            for i in range(options):
                took = _click(page, f".pepper-hand .pepper-card:not([disabled]) >> nth={i}")
                if "Not allowed" not in page.inner_text("#pepper-view .pepper-coach"):
                    break
                refined = int(page.evaluate("window.pepper.refined.length"))
        else:
            took = _click(page, ".pepper-choices button >> nth=0")
        deals = _graded_over(page)
        if options < 2 or not deals:
            continue  # one legal choice (or a card the rules took alone): nothing graded
        # A surer grade may have replaced the click's in the box already: the click's then
        # had more to come (it rested on fewer deals than the last count).
        if int(page.evaluate("window.pepper.refined.length")) > refined:
            deals = min(deals, last - 1)
        start = float(page.evaluate("window.pepper.timings.at(-1).start"))
        if deals >= last:
            to_last = took
        else:
            page.wait_for_function(
                f"window.pepper.refined.slice({refined}).some(r => r.deals >= {last})",
                timeout=START)
            to_last = float(page.evaluate(
                f"window.pepper.refined.slice({refined}).find(r => r.deals >= {last}).at"
                f" - {start}"))
        out.append({"kind": kind, "click_ms": took, "deals": deals, "to_last_ms": to_last,
                    "ready_ms": ready, "shown_to_last_ms": start - shown + to_last})
    pieces = page.evaluate("window.pepper.worked")
    for piece in pieces:
        out.append({"kind": "piece", "act": piece["act"], "python_ms": piece["python"]})
    context.close()
    return out


def _p95(values: list[float]) -> float:
    """The 95th percentile, nearest rank."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def _spread(values: list[float]) -> str:
    return (f"{statistics.median(values):8.0f} ms p95 {_p95(values):8.0f} "
            f"[{min(values):.0f} – {max(values):.0f}]")


def print_table(runs: dict[bool, list[list[dict[str, Any]]]], think: float) -> None:
    """The table's figures with and without the work ahead, over every graded decision, and
    the click's wait paired decision by decision (the same position in both runs)."""
    from pepper_tutor.apps.web import BROWSER_REFINED_SAMPLES

    last = BROWSER_REFINED_SAMPLES[-1]
    print(f"The coach at the table, each decision on screen {think:g} s before the click "
          "(median, 95th percentile, range):")
    for ahead in (False, True):
        done = [d for run in runs[ahead] for d in run if d["kind"] != "piece"]
        print(f"  {'with' if ahead else 'without'} the work on the decision in front "
              f"({len(done)} graded decisions):")
        for kind in ("call", "card"):
            mine = [d for d in done if d["kind"] == kind]
            if not mine:
                print(f"    {kind}s: none graded")
                continue
            over = sum(d["deals"] >= last for d in mine)
            waits = [d["click_ms"] for d in mine]
            print(f"    {kind}s (n={len(mine)}): graded over {last} deals at the click "
                  f"{over} of {len(mine)}")
            print(f"      click to the grade shown {_spread(waits)}")
            print(f"      click to the grade over {last} deals "
                  f"{_spread([d['to_last_ms'] for d in mine])}")
            print(f"      decision shown to the grade over {last} deals "
                  f"{_spread([d['shown_to_last_ms'] for d in mine])}")
            ready = [d["ready_ms"] for d in mine if d["ready_ms"] is not None]
            if ahead:
                print(f"      every choice graded over {last} deals before the click: "
                      f"{len(ready)} of {len(mine)}"
                      + (f", that work done {_spread(ready)} after the decision was shown"
                         if ready else ""))
    for ahead in (False, True):
        for act in ("coach-foresee", "coach-refine"):
            pieces = [d["python_ms"] for run in runs[ahead] for d in run
                      if d["kind"] == "piece" and d["act"] == act]
            if pieces:
                print(f"  {'with' if ahead else 'without'} the work ahead, Python's time a "
                      f"piece of {act} (a click waits for one at most): {_spread(pieces)}, "
                      f"n={len(pieces)}")
    ratios: dict[str, list[float]] = {"call": [], "card": []}
    for off_run, on_run in zip(runs[False], runs[True], strict=True):
        decided = ([d for d in run if d["kind"] != "piece"] for run in (off_run, on_run))
        for off, on in zip(*decided, strict=False):
            if off["kind"] == on["kind"] and off["click_ms"] > 0:
                ratios[off["kind"]].append(on["click_ms"] / off["click_ms"])
    for kind, values in ratios.items():
        if values:
            q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
            print(f"  a {kind}'s click wait with the work ahead, paired: "
                  f"{statistics.median(values):.2f} times without (quartiles "
                  f"{q[0]:.2f} – {q[2]:.2f}, n={len(values)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the Play and learn page's figures")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--grades", type=int, default=4,
                        help="calls and cards graded a round (default 4 of each)")
    parser.add_argument("--decisions", type=int, default=12,
                        help="graded decisions at the table a run (default 12)")
    parser.add_argument("--think", type=float, default=3.0,
                        help="seconds each decision stays on screen before the click")
    parser.add_argument("--only", choices=("start", "table"),
                        help="only the start and grade figures, or only the table's")
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"web/bench.py: {CHROMIUM} is not installed (apt-get install -y chromium): "
              "no browser figures", file=sys.stderr)
        return 0
    from playwright.sync_api import sync_playwright

    load = os.getloadavg()
    rows = []
    grades: dict[str, list[float]] = {}
    runs: dict[bool, list[list[dict[str, Any]]]] = {False: [], True: []}
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp)
        build_page(site / "try")
        with serve(site / "try") as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                        headless=True)
            for r in range(args.rounds):
                if args.only != "table":
                    row, graded = one_round(browser, site, url, args.grades)
                    rows.append(row)
                    for key, values in graded.items():
                        grades.setdefault(key, []).extend(values)
                if args.only != "start":
                    for ahead in ((True, False) if r % 2 else (False, True)):
                        runs[ahead].append(table_run(browser, url, 1000 + r, args.decisions,
                                                     args.think, ahead))
            browser.close()
    print(f"Load average (1 minute) at the start {load[0]:.1f}, at the end "
          f"{os.getloadavg()[0]:.1f}, on {os.cpu_count()} cores")
    if rows:
        print_start(rows, grades, args.rounds)
    if runs[True]:
        print_table(runs, args.think)
    return 0


def print_start(rows: list[dict[str, float]], grades: dict[str, list[float]],
                rounds: int) -> None:
    labels = [("download_gz_mb", "first visit, gzipped", "MB", 10.0),
              ("download_mb", "first visit, as stored", "MB", None),
              ("cold_s", "cold start to the first question", "s", None),
              ("warm_s", "warm start to the first question", "s", 4.0),
              ("feedback_ms", "feedback after an answer", "ms", 100.0),
              ("feedback_python_ms", "  of which Python", "ms", None)]
    print(f"Play and learn page in Chromium, {rounds} rounds (median, range):")
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


if __name__ == "__main__":
    sys.exit(main())
