"""The coach: how good one decision was, in expected points, and why in words.

For a decision of the learner's seat (a call, trumps, the way of playing, the discard, the
card sent, play or surrender, a card in play) the coach asks the sampled advice
(:mod:`pepper_tutor.analysis.advice`) what each option is worth, seeing only what the learner
sees, and compares the choice with the best option:

- ``loss``: the expected points given away against the best choice, in *net* points (your
  side's points less the other side's: the game is a race), with a 95% interval;
- a grade by these thresholds on the expected loss (see :data:`THRESHOLDS`):

  ========== ===================== =======
  grade       points lost           glyph
  ========== ===================== =======
  Best        the best option, or under 0.1
  Good        under 0.5
  Inaccuracy  0.5 to under 1.5      ?!
  Mistake     1.5 to under 4        ?
  Blunder     4 or more             ??
  ========== ===================== =======

- the reason in words (:mod:`pepper_tutor.records.reasons`), then the figures.

The interval of the loss is conservative: the two options' intervals are combined as if
independent, though both come from the same deals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from ..analysis.advice import Advice, Estimate, OptionAdvice, advise
from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.cards import Card
from ..engine.state import Action, HandState, Phase
from ..records.reasons import (
    card_reason,
    discard_reason,
    send_reason,
    side_words,
    tricks_words,
    trump_holding,
)
from ..rulebook.verdict import action_text

__all__ = ["Grade", "THRESHOLDS", "CoachVerdict", "coach_decision", "decision_kind",
           "grade_for_loss", "grade_from_note", "KINDS"]

KINDS = ("bidding", "exchange", "defence", "play")


class Grade(Enum):
    BEST = "Best"
    GOOD = "Good"
    INACCURACY = "Inaccuracy"
    MISTAKE = "Mistake"
    BLUNDER = "Blunder"

    def __str__(self) -> str:
        return self.value

    @property
    def glyph(self) -> str:
        """The annotation glyph a record carries for this grade (none for Best and Good)."""
        return {"Inaccuracy": "?!", "Mistake": "?", "Blunder": "??"}.get(self.value, "")

    @property
    def is_error(self) -> bool:
        return self in (Grade.INACCURACY, Grade.MISTAKE, Grade.BLUNDER)


# Upper bounds (exclusive) of expected net points lost, checked in order.
THRESHOLDS: tuple[tuple[float, Grade], ...] = (
    (0.1, Grade.BEST), (0.5, Grade.GOOD), (1.5, Grade.INACCURACY), (4.0, Grade.MISTAKE))


def grade_for_loss(loss: float) -> Grade:
    for bound, grade in THRESHOLDS:
        if loss < bound:
            return grade
    return Grade.BLUNDER


def grade_from_note(note: str | None) -> Grade | None:
    """The grade a saved record's note starts with (``"Mistake: ..."``), if any."""
    if not note:
        return None
    head = note.split(":", 1)[0].split(" ", 1)[0]
    return next((g for g in Grade if g.value == head), None)


def decision_kind(state: HandState) -> str:
    """``bidding``, ``exchange``, ``defence`` (play or surrender, and every card played by a
    defender) or ``play`` (cards of the bidding side)."""
    phase = state.phase
    if phase in (Phase.AUCTION, Phase.DECLARE_TRUMP, Phase.DECLARE_MODE):
        return "bidding"
    if phase in (Phase.DISCARD, Phase.SEND):
        return "exchange"
    if phase is Phase.DEFENSE:
        return "defence"
    seat, bidder = state.to_act, state.bidder
    if seat is not None and bidder is not None and \
            state.rules.side_of(seat) != state.rules.side_of(bidder):
        return "defence"
    return "play"


@dataclass(frozen=True)
class CoachVerdict:
    """The coach's word on one decision."""

    kind: str
    action: Action
    best: Action
    best_label: str
    grade: Grade
    loss: float  # expected net points lost against the best option (0 for the best)
    low: float  # the loss's 95% interval
    high: float
    reason: str  # why, in words, then the figures
    samples: int
    forced: bool = False  # only one legal choice: nothing to grade

    @property
    def headline(self) -> str:
        if self.forced:
            return f"{self.grade}: the only choice."
        if self.grade is Grade.BEST:
            return f"{self.grade}: {action_text(self.action)} is the best choice here."
        low, high = max(0.0, self.low), self.high
        interval = (f" (95% interval {low:.1f} to {high:.1f})" if f"{low:.1f}" != f"{high:.1f}"
                    else "")
        return (f"{self.grade}: {action_text(self.action)} loses {self.loss:.1f} points on "
                f"average{interval} against {self.best_label}.")

    @property
    def note(self) -> str:
        """What a saved record carries: the headline, then the reason."""
        return self.headline + ("" if self.grade is Grade.BEST else " " + self.reason)

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "action": str(self.action), "best": str(self.best),
                "grade": str(self.grade), "loss": round(self.loss, 3),
                "interval": [round(self.low, 3), round(self.high, 3)], "reason": self.reason,
                "samples": self.samples}


def _value(o: OptionAdvice, by_net: bool) -> Estimate:
    return o.net if by_net and o.net is not None else o.score


def _matches(o: OptionAdvice, action: Action, phase: Phase) -> bool:
    if phase is Phase.AUCTION:
        return o.bid is action
    if phase is Phase.DECLARE_TRUMP:
        return o.trump is action
    if phase is Phase.DECLARE_MODE:
        return o.mode is action
    if phase is Phase.DEFENSE:
        return o.defense is action
    return o.card == action


class _OneLevel(HandState):
    """A copy of an auction in which only pass and one bid may be called: the advice then
    values that bid for each trump and way of playing."""

    def __init__(self, state: HandState, bid: Bid):
        copy = state.copy()
        for name in HandState.__slots__:
            object.__setattr__(self, name, getattr(copy, name))
        self._only = bid

    def legal_actions(self) -> list[Action]:
        return [Bid.PASS, self._only]


def _best_of(options: Sequence[OptionAdvice], by_net: bool) -> OptionAdvice:
    return max(options, key=lambda o: _value(o, by_net).mean)


def coach_decision(state: HandState, action: Action, samples: int = 60,
                   seed: int | None = 0, you: bool = True) -> CoachVerdict:
    """Grade ``action`` (legal, by the seat to act in ``state``, before it is applied)."""
    kind = decision_kind(state)
    legal = state.legal_actions()
    if len(legal) <= 1:
        return CoachVerdict(kind, action, action, action_text(action), Grade.BEST, 0.0, 0.0,
                            0.0, "There was no other choice.", 0, forced=True)
    advice = advise(state, samples=samples, seed=seed)
    by_net = all(o.net is not None for o in advice.options)
    best = _best_of(advice.options, by_net)
    phase = state.phase
    mine_opts = [o for o in advice.options if _matches(o, action, phase)]
    if not mine_opts and phase is Phase.AUCTION and isinstance(action, Bid):
        other = advise(_OneLevel(state, action), samples=samples, seed=seed)
        mine_opts = [o for o in other.options if o.bid is action]
    if not mine_opts:  # an option the advice does not list: value it as the worst listed
        mine_opts = [min(advice.options, key=lambda o: _value(o, by_net).mean)]
    mine = _best_of(mine_opts, by_net)
    v_best, v_mine = _value(best, by_net), _value(mine, by_net)
    loss = max(0.0, v_best.mean - v_mine.mean)
    if _matches(best, action, phase) or mine is best:
        loss = 0.0
    half = math.hypot(v_best.half_width, v_mine.half_width)
    grade = grade_for_loss(loss)
    best_action = _action_of(best, phase)
    reason = _reason(state, action, best, mine, advice, by_net, you)
    return CoachVerdict(kind, action, best_action, _label(best), grade, loss, loss - half,
                        loss + half, reason, advice.samples)


def _action_of(o: OptionAdvice, phase: Phase) -> Action:
    if phase is Phase.AUCTION:
        assert o.bid is not None
        return o.bid
    if phase is Phase.DECLARE_TRUMP:
        assert o.trump is not None
        return o.trump
    if phase is Phase.DECLARE_MODE:
        assert o.mode is not None
        return o.mode
    if phase is Phase.DEFENSE:
        assert o.defense is not None
        return o.defense
    assert o.card is not None
    return o.card


def _label(o: OptionAdvice) -> str:
    """An option as a player says it: "the 9♣", "5 in ♥, play with partner", "surrender"."""
    if o.card is not None:
        return f"the {o.card.display}"
    head, _, how = o.label.partition(", ")
    return f"{head} ({how})" if how else head


def _cap(text: str) -> str:
    """The first letter in capitals, the rest as it is (``str.capitalize`` lowers "NT")."""
    return text[:1].upper() + text[1:]


def _points(e: Estimate) -> str:
    return f"{e.mean:+.1f}"


def _reason(state: HandState, action: Action, best: OptionAdvice, mine: OptionAdvice,
            advice: Advice, by_net: bool, you: bool) -> str:
    """The fact that explains the difference (if one does), then the figures."""
    phase = state.phase
    seat = state.to_act
    assert seat is not None
    fact: str | None = None
    hand = state.hand(seat)
    if phase is Phase.PLAY and best.card is not None and isinstance(action, Card):
        fact = card_reason(state, action, best.card, you)
    elif phase is Phase.DISCARD and best.card is not None and isinstance(action, Card):
        trump = state.trump
        assert trump is not None
        fact = discard_reason(hand, trump, action, best.card)
    elif phase is Phase.SEND and best.card is not None and isinstance(action, Card):
        trump = state.trump
        assert trump is not None
        fact = send_reason(trump, action, best.card)
    elif phase in (Phase.AUCTION, Phase.DECLARE_TRUMP, Phase.DECLARE_MODE):
        trump = next((t for t in (best.trump, mine.trump, state.trump) if t is not None), None)
        if trump is not None:
            fact = f"{'You hold' if you else seat.word + ' holds'} {trump_holding(hand, trump)}."
    elif phase is Phase.DEFENSE:
        bid = state.high_bid
        need = "every trick" if bid.tricks == 6 else tricks_words(bid.tricks)
        fact = f"The bid is {bid.display}: the bidders need {need}"
        play = next((o for o in advice.options if o.defense is Defense.PLAY), None)
        if play is not None and play.tricks is not None:
            fact += (f", and your side takes {tricks_words(round(play.tricks.mean, 1))} on "
                     "average if you play" if you else
                     f", and the defenders take {tricks_words(round(play.tricks.mean, 1))} on "
                     "average if they play")
        fact += "."
    figures = _figures(state, action, best, mine, advice, by_net, you)
    return " ".join(x for x in (fact, figures) if x)


def _figures(state: HandState, action: Action, best: OptionAdvice, mine: OptionAdvice,
             advice: Advice, by_net: bool, you: bool) -> str:
    seat = state.to_act
    assert seat is not None
    side = "your side" if you else side_words(
        [s for s in state.active_seats if state.rules.side_of(s) == state.rules.side_of(seat)])
    what = "points less the other side's" if by_net else "points"
    v_best, v_mine = _value(best, by_net), _value(mine, by_net)
    deals = f"over {advice.samples} deals of the cards {'you' if you else seat.word} cannot see"
    tricks = ""
    if best.tricks is not None and mine.tricks is not None and best is not mine:
        takes = "takes" if you else "take"
        tricks = (f"{_cap(side)} {takes} {tricks_words(round(best.tricks.mean, 1))} on "
                  f"average with {_label(best)}, {tricks_words(round(mine.tricks.mean, 1))} "
                  f"with {_describe(action, mine)}. ")
    return (f"{tricks}{_cap(_label(best))} is worth {_points(v_best)} and "
            f"{_describe(action, mine)} {_points(v_mine)} ({side}'s {what}, {deals}).")


def _describe(action: Action, mine: OptionAdvice) -> str:
    if isinstance(action, Card):
        return f"the {action.display}"
    if isinstance(action, Bid) and action is not Bid.PASS:
        return _label(mine) if mine.bid is action else action.display
    if isinstance(action, Trump | Mode | Defense):
        return _label(mine)
    return action_text(action)
