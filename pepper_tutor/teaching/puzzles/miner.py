"""Mining puzzles from played hands: play, look, validate, keep.

One task is one hand (:class:`HandTask`): the computer players play it
(:func:`~pepper_tutor.analysis.players.play_hand`), or it is read back from the practice
table's history; each decision with enough options (:func:`~.validation.enough_options`) of
a kind asked for is looked at by the sampled advice at :data:`~.validation.SCREEN_SAMPLES`
deals, and becomes a *candidate* when the choice made was graded an error (an inaccuracy or
worse) or was not the analysis's best, or when the first look's answer is not the class the
kind's guess names (:data:`~.classes.GUESS`: the exchange, play on, the highest card ...),
whatever was played; a candidate whose first look shows the best answer at
least half the margin ahead is validated (:func:`~.validation.validate`: two runs at
:data:`~.validation.SAMPLES` deals) and becomes a puzzle (:mod:`.puzzle`) when clear.

A puzzle is then played out (:func:`~pepper_tutor.analysis.playing_out.play_out`): from its
answer and from its tempting answer, over :data:`PLAYED_OUT_DEALS` deals that follow the
calls, every later decision by :data:`PLAYED_OUT_LEVEL` players, who cannot see the cards.
It is kept only when the answer scores at least as much as the tempting answer there; else
it is *refuted* and kept apart (the bank's ``refuted``), never shipped. The advice's
double-dummy figures, even calibrated, can be wrong exactly where a miner looks: a contract
with partner that double-dummy play makes by perfect teamwork (both partners seeing every
card) is the way to play by those figures and, played out, loses to the exchange.

Every random choice of a task is seeded from the job's seed and the task's index, and the
results are merged in index order (:func:`~pepper_tutor.analysis.executors.run_indexed`),
so the puzzles do not depend on the executor or its worker count; the same position met
twice is kept once.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...analysis.advice import advise
from ...analysis.executors import ExecutorSpec, open_executor, run_indexed
from ...analysis.grading import grade_decision
from ...analysis.players import make_player, play_hand
from ...analysis.playing_out import play_out
from ...engine.rules import get_ruleset
from ...engine.seats import Seat
from ...engine.state import Action, HandState
from ...records.hand_record import Replay, parse_record
from .classes import guessed
from .puzzle import make_puzzle, parse_action
from .validation import (
    KINDS,
    LOW,
    MARGIN,
    PILOT_SAMPLES,
    SAMPLES,
    SCREEN_SAMPLES,
    enough_options,
    figures,
    kind_of,
    validate,
)

__all__ = ["LEVELS", "PLAYED_OUT_DEALS", "PLAYED_OUT_LEVEL", "HandTask", "HandResult",
           "mine_hand", "played_out", "Mined", "mine", "tasks_for"]

# The players who sit at a mined hand: each seat drawn from these, so beginners' slips and
# the club player's sampled cards give the analysis decisions to disagree with.
LEVELS = ("beginner", "club")

PLAYED_OUT_DEALS = 32
"""Deals each puzzle is played out over before it is kept (:func:`played_out`)."""

PLAYED_OUT_LEVEL = "expert"
"""Who plays a puzzle out: the strongest players that cannot see the cards."""


@dataclass(frozen=True)
class HandTask:
    """One hand to mine: played from ``seed`` and ``index``, or read from ``record``."""

    seed: str
    index: int
    rules: str = "standard"
    kinds: tuple[str, ...] = KINDS
    samples: int = SAMPLES
    screen: int = SCREEN_SAMPLES
    levels: tuple[str, ...] = LEVELS
    record: str | None = None  # a pepper-hand/1 record's text (--from-history)
    playout_deals: int = PLAYED_OUT_DEALS  # deals a puzzle is played out over

    @property
    def name(self) -> str:
        return f"{self.seed}:{self.index}"


@dataclass
class HandResult:
    """What one hand gave: its decisions looked at, the candidates and the puzzles kept."""

    index: int
    decisions: int = 0
    candidates: int = 0
    puzzles: list[dict[str, Any]] = field(default_factory=list)
    refuted: list[dict[str, Any]] = field(default_factory=list)  # played out, the answer lost
    seconds: float = 0.0  # CPU seconds the task took in its worker


def _played(task: HandTask) -> list[tuple[HandState, Action]]:
    """Every decision of the hand, as (the position before it, the action taken)."""
    seen: list[tuple[HandState, Action]] = []

    def keep(state: HandState, action: Action) -> None:
        seen.append((state.copy(), action))

    if task.record is not None:
        replay = Replay(parse_record(task.record, "<history>"))
        for step in replay:
            if hasattr(step, "action"):
                keep(replay.state, step.action)
        return seen
    rng = random.Random(f"{task.seed}:{task.index}:hand")
    rules = get_ruleset(task.rules)
    dealer = Seat(rng.randrange(rules.players))
    state = HandState.deal(rules, dealer=dealer, rng=rng.getrandbits(64))
    players = [make_player(rng.choice(task.levels), seed=rng.getrandbits(64))
               for _ in range(rules.players)]
    play_hand(state, players, on_decision=keep)
    return seen


def mine_hand(task: HandTask) -> HandResult:
    """Play (or read) one hand and keep its clear decisions as puzzles."""
    start = time.process_time()
    result = HandResult(task.index)
    for number, (state, action) in enumerate(_played(task)):
        try:
            kind = kind_of(state)
        except ValueError:
            continue
        if kind not in task.kinds or not enough_options(state):
            continue
        result.decisions += 1
        name = f"{task.name}:{number}"
        look = advise(state, samples=task.screen, seed=random.Random(f"{name}:screen"),
                      auction=True)
        first = figures(look, state.phase)
        if first is None:
            continue
        graded = grade_decision(look, action) if look.choice(action) is not None else None
        erred = graded is not None and graded.grade.is_error
        # A slip makes a candidate; so does a position whose answer is not the guess its
        # kind invites, slip or not: the players' slips lean one way (the beginner takes
        # partner and follows low), and mining slips alone teaches the other way's guess.
        if not erred and action == first.best_action and guessed(kind, state, first.answers):
            continue
        result.candidates += 1
        if first.margin < MARGIN / 2:
            continue
        checked = validate(state, name, task.samples)
        if not checked.passed:
            continue
        puzzle = make_puzzle(state, action, checked, name, task.name, task.record is not None)
        figures_played = played_out(state, puzzle, f"{name}:played", task.playout_deals)
        puzzle["played_out"] = figures_played
        kept = figures_played["gain"] >= 0
        (result.puzzles if kept else result.refuted).append(puzzle)
    result.seconds = time.process_time() - start
    return result


def played_out(state: HandState, puzzle: dict[str, Any], name: str, deals: int
               ) -> dict[str, Any]:
    """The puzzle's answer against its tempting answer, played out from ``state`` over
    ``deals`` deals by :data:`PLAYED_OUT_LEVEL` players (seeded from ``name``): the stored
    figures (``gain``: the answer's points a hand less the tempting answer's, ``half``: its
    95% interval's half-width)."""
    kind = puzzle["kind"]
    played = play_out(state, parse_action(kind, puzzle["answers"][0]),
                      parse_action(kind, puzzle["tempting"]), deals, name, PLAYED_OUT_LEVEL)
    return {"level": PLAYED_OUT_LEVEL, "deals": deals, "gain": round(played.mean, 2),
            "half": round(played.half_width, 2)}


MAX_HANDS = 10_000
"""The most hands one job plays (``puzzles mine --hands`` stops at the same figure)."""


def tasks_for(hands: int, seed: str, start: int = 0, **options: Any) -> list[HandTask]:
    """The tasks of a job: hands ``start`` to ``start + hands - 1`` of ``seed`` (1 to
    :data:`MAX_HANDS` of them, from a ``start`` of 0 or more: else a ``ValueError``)."""
    if type(hands) is not int or not 1 <= hands <= MAX_HANDS:
        raise ValueError(f"hands must be a whole number from 1 to {MAX_HANDS:,}, not "
                         f"{hands!r}"[:120])
    if type(start) is not int or start < 0:
        raise ValueError(f"start must be a whole number of 0 or more, not {start!r}"[:120])
    return [HandTask(seed, i, **options) for i in range(start, start + hands)]


@dataclass
class Mined:
    """A mining job's puzzles (in task order, each position once) and its counts."""

    puzzles: list[dict[str, Any]]
    refuted: list[dict[str, Any]]  # validated, but the answer lost when played out
    hands: int
    decisions: int
    candidates: int
    cpu_seconds: float  # summed over the tasks, in their workers
    wall_seconds: float
    thresholds: dict[str, float] = field(default_factory=lambda: {
        "margin": MARGIN, "low": LOW, "samples": SAMPLES, "screen": SCREEN_SAMPLES,
        "pilot": PILOT_SAMPLES, "played_out": PLAYED_OUT_DEALS})


def mine(tasks: Sequence[HandTask], executor: ExecutorSpec | str | None = None,
         progress: Callable[[HandResult], None] | None = None,
         window: int | None = None) -> Mined:
    """Run ``tasks`` on ``executor`` (see :mod:`~pepper_tutor.analysis.executors`);
    ``progress(result)`` after each hand, in the order they finish."""
    start = time.perf_counter()

    def done(_index: int, result: HandResult) -> None:
        if progress is not None:
            progress(result)

    with open_executor(executor) as executors:
        results = run_indexed(executors, mine_hand, list(tasks), done, window)
    puzzles: list[dict[str, Any]] = []
    refuted: list[dict[str, Any]] = []
    seen: set[str] = set()
    for r in results:  # index order: the same puzzles whatever ran them
        for found, into in ((r.puzzles, puzzles), (r.refuted, refuted)):
            for p in found:
                if p["id"] not in seen:
                    seen.add(p["id"])
                    into.append(p)
    return Mined(puzzles, refuted, len(results), sum(r.decisions for r in results),
                 sum(r.candidates for r in results), sum(r.seconds for r in results),
                 time.perf_counter() - start)
