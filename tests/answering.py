"""Right and wrong answers for any step, computed by the engine (for driving front ends)."""

from __future__ import annotations

from typing import Any

from pepper_tutor.engine.calls import Bid, Defense, Mode, Trump
from pepper_tutor.engine.cards import Card


def _text(value: Any) -> str:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Bid):
        return value.display
    if isinstance(value, Trump | Mode | Defense):
        return str(value.value if isinstance(value, Mode | Defense) else value.name)
    return str(value)


def right_answer(step: Any) -> str:
    kind = step.kind
    if kind == "rank":
        return " ".join(str(c) for c in step.order())
    if kind == "trick-winner":
        return str(step.winner())
    if kind == "legal-plays":
        return " ".join(str(c) for c in step.legal())
    if kind == "play":
        return str(step.winners()[0])
    if kind == "score":
        pts = step.computed().points
        return " ".join(f"{s} {pts[s]}" for s in step.rules.sides)
    if kind in ("game", "table"):
        return step.result()
    return _text(step.accept[0])


def wrong_answer(step: Any) -> str:
    kind = step.kind
    if kind == "rank":
        return " ".join(str(c) for c in reversed(step.order()))
    if kind == "trick-winner":
        return next(str(c) for c in step.trick if c is not step.winner())
    if kind == "legal-plays":
        legal = step.legal()
        wrong = [c for c in step.hand if c not in legal] or legal[:1]
        return " ".join(str(c) for c in wrong) if len(wrong) < len(step.hand) else str(
            step.hand[0])
    if kind == "score":
        pts = step.computed().points
        return " ".join(f"{s} {pts[s] + 1}" for s in step.rules.sides)
    raise AssertionError(f"no wrong answer made for {kind}")


def any_wrong_answer(step: Any) -> str:
    """A wrong answer for any step that has one: an offered choice the engine rejects, a card
    of the hand that does not win, a score off by a point, else :func:`wrong_answer`."""
    candidates = [o.label if not o.is_card else str(o.value) for o in step.options()]
    candidates += [str(c) for c in getattr(step, "hand", ())] + ["5 4", "7 0"]
    for raw in candidates:
        try:
            if not step.is_right(step.parse(raw)):
                return raw
        except ValueError:  # not an answer this step reads (AnswerError is a ValueError)
            continue
    return wrong_answer(step)
