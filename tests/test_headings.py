"""Every question's panel is headed in a learner's words, never with its file key."""

from __future__ import annotations

import io
import random

from rich.console import Console

from pepper_tutor.apps.tutor import render_step
from pepper_tutor.teaching.drills.quiz import JUDGEMENT_KINDS, QUIZ_KINDS, make_question
from pepper_tutor.teaching.lessons.files import all_lessons


def _heading(step: object) -> str:
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(render_step(step))  # type: ignore[arg-type]
    return out.getvalue().splitlines()[0]


def test_no_panel_is_headed_with_a_step_kind() -> None:
    steps = [s for lesson in all_lessons() for s in lesson.steps]
    steps += [make_question(kind, random.Random(n), n) for kind in QUIZ_KINDS
              if kind not in JUDGEMENT_KINDS for n in range(3)]
    kinds = {s.kind for s in steps}
    assert {"rank", "trick-winner", "legal-plays", "score", "bid"} <= kinds
    for step in steps:
        heading = _heading(step)
        assert step.title, step.kind
        assert heading.startswith(f"╭─ {step.title} ─"), (step.kind, heading)
