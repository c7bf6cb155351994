"""Whether a position makes a puzzle: one answer clearly best, by the sampled analysis.

A puzzle is kept only when the analysis separates its best answer from the tempting second
one (the best option with a *different* action: a call's options are a bid in each trump, a
declaration's a way of playing each trump), by at least :data:`MARGIN` net point on average
with the lower end of that margin's 95% interval above :data:`LOW` -- in *each* of two runs
of :data:`SAMPLES` auction-aware deals from two disjoint seeds -- and when the position is not
a lost cause (the best answer still loses more than the contract is worth on average:
:func:`lost_cause`). The margin's interval combines the two options' intervals as if they were
independent (as :func:`~pepper_tutor.analysis.grading.grade_decision` does), so it errs wide:
a puzzle kept is clear.

Everything goes through the public advice (:func:`~pepper_tutor.analysis.advice.advise`), so a
change to how the analysis values a decision shows in the re-check test of the shipped
puzzles (``tests/test_puzzles_bank.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ...analysis.advice import Advice, Estimate, OptionAdvice, advise
from ...engine.calls import Bid
from ...engine.scoring import bid_value
from ...engine.state import Action, HandState, Phase

__all__ = ["MARGIN", "LOW", "SAMPLES", "SCREEN_SAMPLES", "PILOT_SAMPLES", "KINDS", "TWO_WAY",
           "kind_of", "action_of", "worth", "Figures", "figures", "lost_cause", "Check",
           "check_run", "run_seed", "Validation", "enough_options", "validate"]

MARGIN = 1.0  # net points the best answer must beat the tempting one by, on average
LOW = 0.3  # ... and the lower end of the margin's 95% interval must be above this
SAMPLES = 200  # auction-aware deals in each of the two validating runs
SCREEN_SAMPLES = 20  # deals of the first look that picks candidates from a played hand
PILOT_SAMPLES = 50  # the first run's first deals: far from clear there, it is not run on

# Every kind of decision, as the puzzles name them (``mode`` is the way of playing).
KINDS = ("bid", "trump", "mode", "discard", "send", "defense", "play")
# Kinds whose decision always has two options: kept with two (the others need three).
TWO_WAY = ("mode", "defense")

_KIND_OF = {Phase.AUCTION: "bid", Phase.DECLARE_TRUMP: "trump", Phase.DECLARE_MODE: "mode",
            Phase.DISCARD: "discard", Phase.SEND: "send", Phase.DEFENSE: "defense",
            Phase.PLAY: "play"}


def kind_of(state: HandState) -> str:
    """The puzzle kind of the decision ``state`` waits on."""
    try:
        return _KIND_OF[state.phase]
    except KeyError:
        raise ValueError(f"there is no decision to make: the hand is {state.phase}") from None


def action_of(option: OptionAdvice, phase: Phase) -> Action:
    """The action an option stands for at this phase (for a call: the bid; a declaration:
    the trump or the way of playing)."""
    value = {Phase.AUCTION: option.bid, Phase.DECLARE_TRUMP: option.trump,
             Phase.DECLARE_MODE: option.mode, Phase.DEFENSE: option.defense}.get(
        phase, option.card)
    if value is None:
        raise ValueError(f"the option {option.label!r} names no action for the {phase} phase")
    return value


def worth(option: OptionAdvice) -> Estimate:
    """What an option is worth to the side deciding: net points where known, else points."""
    return option.net if option.net is not None else option.score


@dataclass(frozen=True)
class Figures:
    """The best option and the tempting one (the best with another action) of one run."""

    best: OptionAdvice
    second: OptionAdvice
    best_action: Action
    second_action: Action
    answers: tuple[Action, ...]  # the best and every action worth exactly as much
    margin: float  # best less second, mean net points
    low: float  # the margin's 95% interval
    high: float
    samples: int


def figures(advice: Advice, phase: Phase) -> Figures | None:
    """The best and second actions of ``advice``; ``None`` when it has only one action."""
    best = advice.best
    best_action = action_of(best, phase)
    a = worth(best)
    # Equivalent answers count: an option worth exactly what the best is on every deal
    # (touching cards such as K and Q of one suit) is an answer too, not the runner-up.
    answers = [best_action]
    second = None
    for o in advice.options:
        act = action_of(o, phase)
        if act in answers:
            continue
        if _same(worth(o), a):
            answers.append(act)
            continue
        second = o
        break
    if second is None:
        return None
    b = worth(second)
    margin = a.mean - b.mean
    half = math.hypot(a.half_width, b.half_width)
    return Figures(best, second, best_action, action_of(second, phase), tuple(answers),
                   margin, margin - half, margin + half, advice.samples)


def _same(x: Estimate, y: Estimate) -> bool:
    return (abs(x.mean - y.mean) < 1e-9 and abs(x.low - y.low) < 1e-9
            and x.samples == y.samples)


def lost_cause(state: HandState, best: OptionAdvice) -> bool:
    """The side deciding loses more than the contract is worth on average even with its
    best answer: nothing it does saves the hand, so the position teaches little. No call
    is a lost cause (a pass is worth 0)."""
    if state.phase is Phase.AUCTION:
        return False
    bid = state.high_bid
    stake = bid_value(state.rules, bid) if bid is not Bid.PASS else 0
    return worth(best).mean < -stake


@dataclass(frozen=True)
class Check:
    """One validating run: the figures and whether they pass."""

    seed: str
    figures: Figures | None
    passed: bool
    why: str  # what failed, or "clear"
    advice: Advice | None = None  # the run's whole analysis (not stored)


def run_seed(base: str, run: int) -> str:
    """The seed of a validating run: the two runs' seeds differ, so their deals do."""
    return f"{base}:run{run}"


def check_run(state: HandState, seed: str, samples: int = SAMPLES,
              advice: Advice | None = None) -> Check:
    """Analyse ``state`` (the seat to act's decision) at ``samples`` deals from ``seed``
    and test the thresholds."""
    if advice is None:
        advice = advise(state, samples=samples, seed=_seed_int(seed), auction=True)
    found = figures(advice, state.phase)
    if found is None:
        return Check(seed, None, False, "only one action", advice)
    if found.margin < MARGIN:
        return Check(seed, found, False, f"margin {found.margin:.2f} below {MARGIN}", advice)
    if found.low <= LOW:
        return Check(seed, found, False, f"margin's low end {found.low:.2f} not above {LOW}",
                     advice)
    if lost_cause(state, found.best):
        return Check(seed, found, False, "a lost cause", advice)
    return Check(seed, found, True, "clear", advice)


def _seed_int(seed: str) -> int:
    """A text seed as the integer the advice takes (stable across processes: no hash())."""
    import hashlib

    return int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")


@dataclass(frozen=True)
class Validation:
    """Both runs; ``passed`` when both pass and agree on the answers."""

    checks: tuple[Check, ...]

    @property
    def passed(self) -> bool:
        if not all(c.passed for c in self.checks):
            return False
        firsts = {frozenset(c.figures.answers) for c in self.checks if c.figures is not None}
        return len(firsts) == 1

    @property
    def answers(self) -> tuple[Action, ...]:
        assert self.checks[0].figures is not None
        return self.checks[0].figures.answers


def enough_options(state: HandState, legal: Sequence[Action] | None = None) -> bool:
    """At least three legal options, or two for a decision that always has two."""
    count = len(legal if legal is not None else state.legal_actions())
    return count >= (2 if kind_of(state) in TWO_WAY else 3)


def validate(state: HandState, base_seed: str, samples: int = SAMPLES) -> Validation:
    """The two validating runs of ``state``, the second only when the first passes.

    The first run starts as a pilot: its first :data:`PILOT_SAMPLES` deals (the same deals
    the whole run begins with: one seed, one sequence). A position whose margin there is
    under half of :data:`MARGIN` is dropped without the rest; a kept puzzle is always judged
    on both whole runs."""
    if samples > PILOT_SAMPLES:
        pilot = check_run(state, run_seed(base_seed, 1), PILOT_SAMPLES)
        if pilot.figures is None or pilot.figures.margin < MARGIN / 2:
            return Validation((pilot,))
    first = check_run(state, run_seed(base_seed, 1), samples)
    if not first.passed:
        return Validation((first,))
    return Validation((first, check_run(state, run_seed(base_seed, 2), samples)))
