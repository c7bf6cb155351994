"""When a review card is due again: FSRS, as pure functions of the card's stored JSON.

The store calls :func:`rate` inside the transaction that records an answer, so the card it
reads is the card it writes over; nothing here touches a file.
"""

from __future__ import annotations

from datetime import datetime

from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler, State

__all__ = ["SCHEDULER", "rate", "due_and_state"]

SCHEDULER = Scheduler(enable_fuzzing=False)  # the same answers, the same schedule


def rate(stored: str | None, again: bool, at: datetime, create: bool
         ) -> tuple[str, str, bool] | None:
    """The card after an answer: ``(card JSON, due ISO time, lapsed)``. ``again``: forgotten
    (a miss), else recalled. A rule with no card gets one only when ``create``; else None."""
    if stored is None and not create:
        return None
    card = FsrsCard() if stored is None else FsrsCard.from_json(stored)
    card, _log = SCHEDULER.review_card(card, Rating.Again if again else Rating.Good,
                                       review_datetime=at)
    return card.to_json(), card.due.isoformat(), stored is not None and again


def due_and_state(stored: str) -> tuple[datetime, str]:
    """When a stored card is due, and its state: learning, review or relearning."""
    card = FsrsCard.from_json(stored)
    return card.due, State(card.state).name.lower()
