"""Every lesson step can be answered right, without Show answer, in every front end: the
terminal tutor, the notebook widget and the Play and learn page (whose step view is made in
Python by apps/web.py, so its controls are read from the HTML it sends the browser). A step
whose front end offers no way to give its answer leaves the learner only Show answer, which
counts as a miss (issue 37, item 1)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from pepper_tutor.apps.tutor import run_tutor
from pepper_tutor.apps.web import WebApp
from pepper_tutor.engine.cards import Card
from pepper_tutor.teaching.learner.store import LearnerStore
from pepper_tutor.teaching.lessons.files import Lesson, all_lessons
from pepper_tutor.teaching.lessons.session import LessonSession
from pepper_tutor.teaching.questions.steps import Step
from tests.answering import right_answer

pytestmark = pytest.mark.slow  # every step of every lesson, three times: about 100 s

LESSONS = all_lessons()
IDS = [lesson.id for lesson in LESSONS]


def _right_option(step: Step[Any]) -> int:
    """The index of the offered choice the engine judges right (-1: none is)."""
    for i, o in enumerate(step.options()):
        try:
            if step.is_right(step.parse(o.value)):
                return i
        except ValueError:
            continue
    return -1


def _right_cards(step: Step[Any]) -> list[Card]:
    return list(step.parse(right_answer(step)))



def _assert_all_solved(session: LessonSession) -> None:
    done, total = session.progress()
    assert (done, total) == (total, len(session.lesson.answerable_steps))
    assert sum(session.mistakes.values()) == 0, session.mistakes


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_step_in_the_terminal(lesson: Lesson, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path))
    replies: list[str] = []
    for step in lesson.steps:
        replies += [right_answer(step), ""] if step.answerable else [""]
    feed = iter(replies)

    def reply(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    run_tutor(lesson.id, "kim", console=Console(file=out, width=100), input_fn=reply)
    text = out.getvalue()
    assert "could not read" not in text and "Not quite" not in text, text[-2000:]
    _assert_all_solved(LessonSession(lesson, LearnerStore("kim", tmp_path)))


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_step_in_the_notebook_widget(lesson: Lesson, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("ipywidgets")
    from pepper_tutor import notebook

    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path))
    w = notebook.lesson(lesson.id, learner="kim")
    while (step := w.session.step) is not None:
        if step.answerable:
            panel = w.panel
            shape = step.input_shape
            if shape == "text":
                panel.typed.value = right_answer(step)
                next(b for b in panel.buttons if "pepper-submit" in b._dom_classes).click()
            elif shape == "sides":
                points = step.computed().points  # type: ignore[attr-defined]
                for side, box in panel.boxes.items():
                    box.value = points[side]
                next(b for b in panel.buttons if "pepper-submit" in b._dom_classes).click()
            elif shape in ("order", "set"):
                by_card = {Card.parse(b.description): b for b in panel.card_row}
                for card in _right_cards(step):
                    by_card[card].click()
                if shape == "set":
                    next(b for b in panel.buttons if "pepper-submit" in b._dom_classes).click()
            else:
                i = _right_option(step)
                assert i >= 0, f"{lesson.id}/{step.id}: no offered choice is right"
                panel.buttons[i].click()
            assert not w.errors, w.errors
            assert w.session.status.solved and not w.session.status.revealed, (
                f"{lesson.id}/{step.id}: {w.feedback.value}")
        assert not w.next_button.disabled, f"{lesson.id}/{step.id}: Next stays disabled"
        w.next_button.click()
    _assert_all_solved(w.session)


def _go(app: WebApp, act: str, value: object = "", fields: dict[str, str] | None = None
        ) -> str:
    reply = json.loads(app.handle(act, str(value), fields or {}))
    assert "error" not in reply, reply["error"]
    return str(reply["html"])


def _enabled(page: str, act: str, value: object = "") -> bool:
    """Whether the page shows an enabled control that sends ``act`` (with ``value``)."""
    pattern = (rf'<button [^>]*data-act="{act}" data-value="{value}"[^>]*>' if value != ""
               else rf'<(?:button|form) [^>]*data-act="{act}"[^>]*>')
    return any("disabled" not in m for m in re.findall(pattern, page))


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_step_on_the_page(lesson: Lesson, tmp_path: Path) -> None:
    app = WebApp(home=tmp_path, seed=1)
    page = _go(app, "lesson", lesson.id)
    session = app.lesson
    assert session is not None
    while (step := session.step) is not None:
        if step.answerable:
            shape = step.input_shape
            if shape == "text":
                assert _enabled(page, "typed") and 'name="answer"' in page, step.id
                page = _go(app, "typed", fields={"answer": right_answer(step)})
            elif shape == "sides":
                assert _enabled(page, "score"), step.id
                points = step.computed().points  # type: ignore[attr-defined]
                page = _go(app, "score", fields={s: str(points[s]) for s in step.rules.sides})
            elif shape in ("order", "set"):
                values = [o.value for o in step.options()]
                for card in _right_cards(step):
                    assert _enabled(page, "pick", values.index(card)), (step.id, card)
                    page = _go(app, "pick", values.index(card))
                if shape == "set":
                    assert _enabled(page, "check"), step.id
                    page = _go(app, "check")
            else:
                i = _right_option(step)
                assert i >= 0 and _enabled(page, "pick", i), (
                    f"{lesson.id}/{step.id}: the page offers no right answer")
                page = _go(app, "pick", i)
            assert session.status.solved and not session.status.revealed, (lesson.id, step.id)
        assert _enabled(page, "next"), f"{lesson.id}/{step.id}: Next stays disabled"
        page = _go(app, "next")
    _assert_all_solved(session)
