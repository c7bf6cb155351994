"""Benchmarks of the annotator, lesson feedback and quizzes (kept apart from the engine's)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from ..teaching.questions.steps import Step
from .timing import median_ms


def bench_annotate(seconds: float) -> str:
    from ..records.annotate import annotate
    from ..records.hand_record import parse_record
    from ..render.annotation import to_html, to_json

    path = Path(str(resources.files("pepper_tutor").joinpath("data", "hands",
                                                             "exchange-made.yaml")))
    text = path.read_bytes()
    repeat = max(20, int(seconds * 100))
    load = median_ms(lambda: annotate(parse_record(text, path.name)), repeat)
    annotation = annotate(parse_record(text, path.name))
    html = median_ms(lambda: to_html(annotation), repeat)
    js = median_ms(lambda: to_json(annotation), repeat)
    return (f"annotate one complete hand (load + validate + replay): median {load:.2f} ms; "
            f"HTML {html:.2f} ms, JSON {js:.2f} ms")


def bench_feedback(seconds: float) -> str:
    from ..teaching.drills.quiz import make_question
    from ..teaching.lessons.files import all_lessons

    steps = [s for lesson in all_lessons() for s in lesson.answerable_steps]
    rng = random.Random(4)
    quiz = [make_question(k, rng, i) for i in range(50) for k in ("tricks", "legal", "score")]
    wrong: list[tuple[Step[Any], object]] = []
    for step in steps + quiz:
        options = step.options()
        raw: object = options[-1].value if options else "NS 0 EW 0"
        if step.kind == "rank":
            raw = " ".join(str(c) for c in getattr(step, "cards", ()))
        elif step.kind == "legal-plays":
            raw = " ".join(str(c) for c in getattr(step, "hand", ()))
        elif step.kind == "score":
            raw = {side: 0 for side in step.rules.sides}
        wrong.append((step, raw))
    times = []
    for step, raw in wrong:

        def judge(s: Step[Any] = step, r: object = raw) -> object:
            return s.judge(r)

        times.append(median_ms(judge, 5))
    times.sort()
    return (f"feedback for an answer (every lesson step and 150 quiz questions): median "
            f"{times[len(times) // 2]:.3f} ms, worst {times[-1]:.2f} ms")


def bench_widget_click(seconds: float) -> str:
    """Kernel time from a card click in the lesson widget to the feedback being rendered."""
    import tempfile

    from ..apps.notebook import LessonWidget
    from ..teaching.learner.store import LearnerStore
    from ..teaching.lessons.files import find_lesson

    times: list[float] = []
    with tempfile.TemporaryDirectory() as home:
        lesson = find_lesson("bowers")
        for i in range(max(20, int(seconds * 20))):
            w = LessonWidget(lesson, store=LearnerStore(f"bench{i}", Path(home)))
            w.next_button.click()
            w.next_button.click()
            assert w.panel is not None
            cards = {b.description: b for b in w.panel.buttons
                     if "pepper-card" in b._dom_classes}
            for label in ("J♥", "J♦", "A♥"):
                cards[label].click()
            start = time.perf_counter()
            cards["K♥"].click()  # the last card completes the order: judged and shown
            times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return (f"lesson widget: click to rendered feedback (kernel time, incl. saving progress): "
            f"median {times[len(times) // 2]:.2f} ms, worst {times[-1]:.2f} ms")


def bench_grade_records(seconds: float) -> str:
    """A whole example record annotated with every card graded against perfect play."""
    from ..records.annotate import annotate
    from ..records.hand_record import load_record

    folder = Path(str(resources.files("pepper_tutor").joinpath("data", "hands")))
    records = [load_record(p) for p in sorted(folder.glob("*.yaml"))]
    times = sorted(median_ms(lambda r=r: annotate(r, analyse=True), 5)  # type: ignore[misc]
                   for r in records)
    return (f"grade a whole hand record (annotate --analyse, {len(records)} example hands): "
            f"median {times[len(times) // 2]:.1f} ms, worst {times[-1]:.1f} ms")


def bench_store_and_review(seconds: float) -> str:
    """The learner store's one-transaction save, and a review session's start: the due cards
    read and a fresh position dealt for the first one."""
    import tempfile
    from datetime import UTC, datetime, timedelta

    from ..teaching.learner.attempts import Attempt
    from ..teaching.learner.review_cards import ReviewDeck
    from ..teaching.learner.store import LearnerStore
    from ..teaching.review.session import ReviewSession

    with tempfile.TemporaryDirectory() as home:
        store = LearnerStore("bench", Path(home))
        repeat = max(20, int(seconds * 50))
        save = median_ms(lambda: store.record(Attempt("quiz", "tricks", True,
                                                      ("play.trick-winner",))), repeat)
        past = datetime.now(UTC) - timedelta(days=1)
        rules = ("rank.left-bower", "play.follow-suit", "score.sweep", "rank.no-trump",
                 "play.trick-winner")
        ReviewDeck(store).missed(rules, "quiz tricks", at=past)
        from ..teaching.review import session as review

        colds = []
        for seed in range(5):  # a new process: nothing known yet of which kind asks what
            review._ASKS.clear()
            t0 = time.perf_counter()
            ReviewSession(store, seed=seed)
            colds.append((time.perf_counter() - t0) * 1000)
        start = median_ms(lambda: ReviewSession(store, seed=1), max(10, int(seconds * 10)))
    colds.sort()
    return (f"learner store: save one answer (a transaction, WAL) median {save:.2f} ms; "
            f"review start with {len(rules)} due (fresh position for the first): first in a "
            f"process median {colds[2]:.0f} ms (worst {colds[-1]:.0f}), then {start:.1f} ms")


def bench_drills(seconds: float) -> str:
    """Making one judgement drill: random positions screened by the analysis until one is
    clear. The terminal makes the next while the learner answers the current one."""
    from ..teaching.drills.quiz import JUDGEMENT_KINDS, make_question

    per_kind = max(3, int(seconds))
    parts = []
    for kind in JUDGEMENT_KINDS:
        rng = random.Random(21)
        times = []
        for n in range(per_kind):
            start = time.perf_counter()
            make_question(kind, rng, n)
            times.append(time.perf_counter() - start)
        times.sort()
        parts.append(f"{kind} median {times[len(times) // 2]:.1f} s (max {times[-1]:.1f})")
    return f"judgement drill, one clear position ({per_kind} each): " + "; ".join(parts)


def bench_first_drill(seconds: float) -> str:
    """The wait for a drill session's first judgement question: from the screened positions
    (the default) against screening live, paired (alternated, the same seeds)."""
    from ..teaching.drills.quiz import JUDGEMENT_KINDS, QuizSession

    pairs = max(3, int(seconds))
    parts = []
    for kind in JUDGEMENT_KINDS:
        live: list[float] = []
        cached: list[float] = []
        for seed in range(pairs):
            for screened, times in ((False, live), (True, cached)):
                start = time.perf_counter()
                QuizSession(kind, seed, screened_first=screened)
                times.append((time.perf_counter() - start) * 1000)
        live.sort()
        cached.sort()
        parts.append(f"{kind} {live[len(live) // 2] / 1000:.1f} s "
                     f"({live[0] / 1000:.1f}-{live[-1] / 1000:.1f}) -> "
                     f"{cached[len(cached) // 2]:.0f} ms ({cached[0]:.0f}-{cached[-1]:.0f})")
    return (f"first judgement question of a drill session, live screening -> screened "
            f"positions, median (range) of {pairs} paired: " + "; ".join(parts))


def benches() -> list[Callable[[float], str]]:
    return [bench_annotate, bench_feedback, bench_widget_click, bench_store_and_review,
            bench_grade_records, bench_drills, bench_first_drill]
