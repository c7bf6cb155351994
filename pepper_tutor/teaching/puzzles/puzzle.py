"""One puzzle: the position, its answers, the figures that made it, its theme and layout.

A puzzle is stored as compact JSON (one object a line in ``pepper_tutor/data/puzzles.json``,
see :mod:`.bank`):

- ``record``: a ``pepper-hand/1`` record, as a mapping, that stops at the decision; for a
  card sent in the exchange (which a record writes down only with the discard) it stops at
  the exchange and ``x-discard`` names the bidder's discard, applied after loading;
- ``kind`` (``bid``, ``trump``, ``mode``, ``discard``, ``send``, ``defense``, ``play``),
  ``seat``, ``answers`` (the best action and any worth exactly as much), ``tempting`` (the
  best other action), ``options`` (each option's label, action and net points, best first);
- ``runs``: each validating run's seed, deals, margin and its 95% interval;
- ``theme`` (:class:`~.themes.Theme`), ``layout`` (:mod:`.layouts`; ``null`` for a call in
  the auction), ``rating`` (the puzzle's starting rating, :func:`seed_rating`), ``made``
  (the task and decision it came from).

:class:`Puzzle` is the typed value the sessions and renderers read.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from typing import Any

import yaml

from ...engine.calls import Bid, Defense, Mode, Trump
from ...engine.cards import Card
from ...engine.seats import Seat
from ...engine.state import Action, HandState, Phase
from ...records.hand_record import dump_record, parse_record, record_from_state, record_to_state
from .layouts import find_layout
from .themes import Theme, theme_of
from .validation import Validation, action_of, kind_of, worth

__all__ = ["Puzzle", "make_puzzle", "seed_rating", "parse_action", "read_answer", "position_of"]

OPTIONS_KEPT = 8  # options stored per puzzle, best first (a call has dozens)


def seed_rating(margin: float, options: int) -> float:
    """A new puzzle's rating, before anyone has tried it: a wide margin is easy to see, many
    options are many ways to go wrong. 1500 for a one-point margin among three options; each
    doubling of the margin takes 200 off, each doubling of the options adds 150."""
    value = 1500 - 200 * math.log2(max(margin, 0.25)) + 150 * math.log2(max(options, 2) / 3)
    return round(min(2400.0, max(600.0, value)), 1)


_PARSE: dict[str, Any] = {"bid": Bid.parse, "trump": Trump.parse, "mode": Mode.parse,
                          "discard": Card.parse, "send": Card.parse, "play": Card.parse,
                          "defense": Defense.parse}


def parse_action(kind: str, text: str) -> Action:
    """An action of this puzzle kind from its stored text (``4``, ``H``, ``exchange``,
    ``JD``); what a player types is read by :func:`read_answer`."""
    value: Action = _PARSE[kind](text)
    return value


def read_answer(position: HandState, text: str) -> Action:
    """A player's answer to the puzzle at ``position`` as they would say it at the table or
    in a lesson ("ace of clubs", "the left bower", "we play", "I pass"): the one reader
    (:func:`~pepper_tutor.teaching.questions.answers.read_action`)."""
    from ..questions.answers import read_action

    seat = position.to_act
    hand = position.hand(seat) if seat is not None else ()
    value: Action = read_action(text, position.phase.value, hand, position.trump,
                                position.rules.left_bower)
    return value


def _record(state: HandState) -> dict[str, Any]:
    """The position as a pepper-hand/1 mapping that stops at the decision."""
    if state.phase is Phase.SEND:
        before = state.copy()
        before.undo()  # the discard: written down below, a record holds it with the card sent
        data: dict[str, Any] = yaml.safe_load(dump_record(record_from_state(before,
                                                                            with_result=False)))
        assert state.discard is not None
        data["x-discard"] = str(state.discard)
        return data
    loaded: dict[str, Any] = yaml.safe_load(dump_record(record_from_state(state,
                                                                          with_result=False)))
    return loaded


def position_of(record: dict[str, Any]) -> HandState:
    """The hand at the puzzle's decision, from its stored record."""
    data = {k: v for k, v in record.items() if k != "x-discard"}
    state = record_to_state(parse_record(json.dumps(data), "<puzzle>"))
    if "x-discard" in record:
        state.apply(Card.parse(record["x-discard"]))
    return state


def _estimate(o: Any) -> list[float]:
    e = worth(o)
    return [round(e.mean, 3), round(e.low, 3), round(e.high, 3), e.samples]


def make_puzzle(state: HandState, chosen: Action, checked: Validation, name: str,
                task: str, from_history: bool = False) -> dict[str, Any]:
    """The stored form of a validated position (``chosen``: what the player did; ``name``
    the decision's seed name, ``task`` the hand's)."""
    first = checked.checks[0].figures
    assert first is not None
    kind = kind_of(state)
    phase = state.phase
    record = _record(state)
    key = json.dumps(record, sort_keys=True)
    options: list[dict[str, Any]] = []
    seen: set[str] = set()
    advice = checked.checks[0].advice
    assert advice is not None
    for o in advice.options:
        act = str(action_of(o, phase))
        if act in seen:
            continue
        seen.add(act)
        options.append({"label": o.label, "action": act, "net": _estimate(o)})
        if len(options) >= OPTIONS_KEPT:
            break
    legal = len(state.legal_actions())
    best_mode = first.best.mode if phase is Phase.DECLARE_TRUMP else None
    tempting_mode = first.second.mode if phase is Phase.DECLARE_TRUMP else None
    layout = find_layout(state, first.best_action, first.second_action, f"{name}:layout",
                         best_mode, tempting_mode)
    theme: Theme = theme_of(state, kind, first.second_action, first.best_action, advice,
                            checked.answers)
    margin = min(c.figures.margin for c in checked.checks if c.figures is not None)
    return {
        "id": "pz-" + hashlib.sha256(key.encode()).hexdigest()[:12],
        "kind": kind, "seat": str(state.to_act), "rules": state.rules.preset,
        "record": record,
        "answers": [str(a) for a in checked.answers],
        "tempting": str(first.second_action),
        "played": str(chosen),
        "options": options,
        "legal": legal,
        "runs": [{"seed": c.seed, "samples": c.figures.samples,
                  "margin": round(c.figures.margin, 3), "low": round(c.figures.low, 3),
                  "high": round(c.figures.high, 3)}
                 for c in checked.checks if c.figures is not None],
        "theme": theme.to_json(),
        "layout": layout,
        "rating": seed_rating(margin, legal),
        "made": {"task": task, "decision": name,
                 "from": "history" if from_history else "self-play"},
    }


@dataclass(frozen=True)
class Puzzle:
    """A stored puzzle as the sessions and renderers read it."""

    id: str
    kind: str
    seat: Seat
    record: dict[str, Any]
    answers: tuple[str, ...]
    tempting: str
    options: tuple[dict[str, Any], ...]
    theme: str
    rules_cited: tuple[str, ...]
    phase: str
    contract: str | None
    trick: int | None
    layout: dict[str, Any] | None
    rating: float
    data: dict[str, Any]

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Puzzle:
        t = d["theme"]
        return cls(d["id"], d["kind"], Seat.parse(d["seat"]), d["record"],
                   tuple(d["answers"]), d["tempting"], tuple(d["options"]), t["name"],
                   tuple(t["rules"]), t["phase"], t.get("contract"), t.get("trick"),
                   d.get("layout"), float(d["rating"]), d)

    def position(self) -> HandState:
        """The hand at the decision, the puzzle's seat to act."""
        return position_of(self.record)

    def is_answer(self, action: Action | str) -> bool:
        """Whether ``action`` is one of the answers (equivalent answers count)."""
        text = str(parse_action(self.kind, action) if isinstance(action, str) else action)
        return text in self.answers

    def option(self, action: Action | str) -> dict[str, Any] | None:
        """The stored option for an action, if it is among those kept."""
        text = str(parse_action(self.kind, action) if isinstance(action, str) else action)
        return next((o for o in self.options if o["action"] == text), None)
