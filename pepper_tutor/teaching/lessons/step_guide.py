"""A whole hand beside a lesson step: the ``guide:`` a step may carry.

A step of a lesson may come with a Game Guide of a real hand, opened at the moment the step
is about: ``guide: {hand: set-bid, at: trick 4 card 3}``. The hand is one of the example
hands shipped with the package (by name) or a ``pepper-hand/1`` file beside the lesson (a
path, from the lesson's folder); ``seat`` shows one seat's view. The guide accompanies the
step's text and question; it asks nothing, so the step is answered and checked as ever.

A moment is named by the hand, not by a step number of the viewer, so it still points at the
same card when the viewer's steps change: ``deal``, ``call N`` (the auction's N-th call),
``trump`` (trumps named), ``trick N`` (its first card), ``trick N card M``, ``score``.
:func:`moment_problem` says when the record has no such moment (``lesson --check``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ...engine.seats import Seat
from ...records.hand_record import HandRecord, Replay, Step

__all__ = ["Moment", "StepGuide", "parse_moment", "moment_problem", "moment_place",
           "example_hand", "example_hands", "MOMENT_FORMS", "SCORE"]

MOMENT_FORMS = "deal, call N, trump, trick N, trick N card M or score"
_MOMENT = re.compile(r"^(?:(deal|trump|score)|call (\d+)|trick (\d+)(?: card (\d+))?)$")


@dataclass(frozen=True)
class Moment:
    """A moment of a hand. ``where`` is its place in the record as the replay names it
    (``("tricks", 3, 2)``: trick 4's third card, from 0); ``None`` for the deal and the
    score, which open and close every guide."""

    text: str  # as the lesson wrote it, tidied: "trick 4 card 3"
    where: tuple[str | int, ...] | None

    @property
    def is_score(self) -> bool:
        return self.text == "score"


def parse_moment(raw: object) -> Moment:
    """``"trick 4 card 3"`` as a :class:`Moment`; a ``ValueError`` names the forms."""
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        raise ValueError(f"not {raw!r}")
    text = " ".join(str(raw).lower().split())
    m = _MOMENT.match(text)
    if m is None:
        raise ValueError(f"{raw!r} is no moment of a hand")
    word, call, trick, card = m.groups()
    numbers = [int(n) for n in (call, trick, card) if n is not None]
    if any(n < 1 for n in numbers):
        raise ValueError(f"{raw!r}: calls, tricks and cards are counted from 1")
    if word is not None:
        return Moment(word, ("trump",) if word == "trump" else None)
    if call is not None:
        return Moment(text, ("auction", int(call) - 1))
    return Moment(text, ("tricks", int(trick) - 1, int(card or 1) - 1))


SCORE = Moment("score", None)


def moment_place(record: HandRecord, moment: Moment) -> int:
    """Where ``moment`` comes in ``record``, to put two moments in order: the deal -1, the
    score after every action, a moment the record never reaches with the score."""
    places = [item.where for item in Replay(record) if isinstance(item, Step)]
    if moment.where is None:
        return len(places) if moment.is_score else -1
    return places.index(moment.where) if moment.where in places else len(places)


def moment_problem(record: HandRecord, moment: Moment) -> str | None:
    """Why ``record`` has no such moment (it stops before it, or never gets there), or
    ``None`` when it has."""
    if moment.where is None:
        return None
    places = [item.where for item in Replay(record) if isinstance(item, Step)]
    if moment.where in places:
        return None
    calls = sum(1 for w in places if w[0] == "auction")
    tricks = [w for w in places if w[0] == "tricks"]
    if moment.where[0] == "auction":
        return f"the hand has {calls} call{'s' if calls != 1 else ''}, so no {moment.text}"
    if moment.where[0] == "trump":
        return "nobody names trumps in this hand (everyone passed, or the record stops first)"
    played = len({w[1] for w in tricks})
    trick = int(moment.where[1])
    if trick >= played:
        return (f"the hand plays {played} trick{'s' if played != 1 else ''}, so it has no "
                f"{moment.text}")
    cards = sum(1 for w in tricks if w[1] == trick)
    return f"trick {trick + 1} has {cards} card{'s' if cards != 1 else ''}, so no {moment.text}"


@dataclass(frozen=True, eq=False)
class StepGuide:
    """The hand a step shows, where it opens, whose view (``None``: all hands) and where it
    ends (``until``: the last moment shown; the lesson reader puts a step's default there).
    Compared by identity: a lesson read once keeps the same guide for its step, so a front
    end may keep what it built from it."""

    hand: str  # as the lesson names it: an example hand's name, or a path
    record: HandRecord
    at: Moment
    seat: Seat | None = None
    line: int = 0  # where the lesson gives it
    until: Moment = SCORE
    until_line: int = 0  # where the lesson says until, if it does

    @property
    def whole(self) -> bool:
        """Whether the guide goes on to the hand's score."""
        return self.until.is_score

    @property
    def words(self) -> str:
        """"the hand 'set-bid', at trick 4 card 3"."""
        return f"the hand {self.hand!r}, at {self.at.text}"


def example_hands() -> list[str]:
    """The names of the example hands shipped with the package (``data/hands/``)."""
    root = resources.files("pepper_tutor").joinpath("data", "hands")
    return sorted(Path(p.name).stem for p in root.iterdir() if p.name.endswith(".yaml"))


def example_hand(name: str) -> Path:
    """The file of the example hand ``name``."""
    return Path(str(resources.files("pepper_tutor").joinpath("data", "hands", f"{name}.yaml")))
