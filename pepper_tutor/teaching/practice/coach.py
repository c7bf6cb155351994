"""The coach: how good one decision was, in expected points, and why in words.

For a decision of the learner's seat (a call, trumps, the way of playing, the discard, the
card sent, play or surrender, a card in play) the coach asks the sampled advice
(:mod:`pepper_tutor.analysis.advice`) what each option is worth, seeing only what the learner
sees, and compares the choice with the best option:

- ``loss``: the expected points given away against the best choice, in *net* points (your
  side's points less the other side's: the game is a race), with a 95% interval;
- a :class:`~pepper_tutor.analysis.grading.Grade` by the analysis's thresholds on the
  expected loss (:data:`pepper_tutor.analysis.grading.THRESHOLDS`):

  ========== ======================= =======
  grade       net points lost          glyph
  ========== ======================= =======
  Best        under 0.05
  Good        0.05 to under 0.3
  Inaccuracy  0.3 to under 0.75        ?!
  Mistake     0.75 to under 1.5        ?
  Blunder     1.5 or more              ??
  ========== ======================= =======

- the reason in words (:func:`pepper_tutor.analysis.reasons.why`, with the learner's trumps
  counted for a call), then the figures.

The interval of the loss is conservative: the two options' intervals are combined as if
independent, though both come from the same deals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...analysis.advice import Advice, Estimate, OptionAdvice, advise
from ...analysis.grading import Grade, grade_decision
from ...analysis.reasons import why
from ...engine.calls import Bid, Defense, Mode, Trump
from ...engine.cards import DECK, Card, Rank
from ...engine.ranking import bower, is_trump, sort_by_rank
from ...engine.state import Action, HandState, Phase
from ...records.reasons import card_reason, tricks_words
from ...rulebook.verdict import action_text

__all__ = ["CoachVerdict", "coach_decision", "decision_kind", "grade_from_note", "KINDS"]

KINDS = ("bidding", "exchange", "defence", "play")


# A call is worth solving for every trump and way of playing on each deal, so the coach deals
# a quarter as many deals for calls as for cards (at least this many): a bid is graded in
# seconds, not tens of seconds.
BID_SAMPLES_DIVISOR = 4
BID_SAMPLES_MIN = 8


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


def coach_decision(state: HandState, action: Action, samples: int = 60,
                   seed: int | None = 0) -> CoachVerdict:
    """Grade ``action`` (legal, by the seat to act in ``state``, before it is applied)."""
    kind = decision_kind(state)
    legal = state.legal_actions()
    if len(legal) <= 1:
        return CoachVerdict(kind, action, action, action_text(action), Grade.BEST, 0.0, 0.0,
                            0.0, "There was no other choice.", 0, forced=True)
    if kind == "bidding":  # a call is solved for every trump and way of playing: fewer deals
        samples = max(BID_SAMPLES_MIN, samples // BID_SAMPLES_DIVISOR)
    advice = advise(state, samples=samples, seed=seed)
    by_net = all(o.net is not None for o in advice.options)
    best = advice.best
    mine = advice.choice(action)
    if mine is None:  # not among the options analysed: value it as the worst of them
        mine = advice.options[-1]
    graded = grade_decision(advice, mine)
    best_action = _action_of(best, state.phase)
    reason = _reason(state, action, best_action, best, mine, advice, by_net)
    return CoachVerdict(kind, action, best_action, _label(best), graded.grade,
                        graded.loss, graded.low, graded.high, reason, advice.samples)


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


_COUNT = ("no", "one", "two", "three", "four", "five", "six")


def trump_holding(hand: Sequence[Card], trump: Trump, left_bower: bool = True) -> str:
    """The trumps a hand holds, as a player counts them: "both bowers and the A♥ K♥: four
    trumps in hearts"."""
    if trump is Trump.NT:
        aces = [c for c in hand if c.rank is Rank.ACE]
        return (f"{_COUNT[len(aces)]} ace{'s' if len(aces) != 1 else ''}"
                + (f" ({' '.join(c.display for c in aces)})" if aces else "")
                + " for no trump")
    trumps = sort_by_rank([c for c in hand if is_trump(c, trump, left_bower)], trump, left_bower)
    bowers = [bower(c, trump, left_bower) for c in trumps]
    parts = []
    if "right" in bowers and "left" in bowers:
        parts.append("both bowers")
    elif "right" in bowers or "left" in bowers:
        parts.append(f"the {'right' if 'right' in bowers else 'left'} bower")
    rest = [c for c, b in zip(trumps, bowers, strict=True) if b is None]
    if rest:
        parts.append("the " + " ".join(c.display for c in rest))
    held = " and ".join(parts) if parts else "no trump at all"
    n = len(trumps)
    return f"{held}: {_COUNT[n]} trump{'s' if n != 1 else ''} in {trump.word}"


def _names_only(text: str, *actions: Action) -> bool:
    """True unless the sentence names a card other than these (the choice, the best one,
    the cards on the table): a rule of thumb that recommends another card than the
    analysis's best would only confuse."""
    allowed = {a.display for a in actions if isinstance(a, Card)}
    named = {c.display for c in DECK if c.display in text}
    return named <= allowed


def _reason(state: HandState, action: Action, best_action: Action, best: OptionAdvice,
            mine: OptionAdvice, advice: Advice, by_net: bool) -> str:
    """What the learner holds (for a call), the fact that explains the difference (if a
    rule of thumb does), then the figures."""
    seat = state.to_act
    assert seat is not None
    parts = []
    if state.phase in (Phase.AUCTION, Phase.DECLARE_TRUMP, Phase.DECLARE_MODE):
        trump = next((t for t in (best.trump, mine.trump, state.trump) if t is not None), None)
        if trump is not None:
            held = trump_holding(state.hand(seat), trump, state.rules.left_bower)
            parts.append(f"You hold {held}.")
    fact = why(state, action, best_action, advice) if mine is not best else None
    table = [c for _, c in state.current_trick]
    text = fact.text if fact is not None and _names_only(fact.text, action, best_action,
                                                          *table) else None
    if text is None and mine is not best and isinstance(action, Card) and \
            isinstance(best_action, Card) and state.phase is Phase.PLAY:
        text = card_reason(state, action, best_action)
    if text:
        parts.append(_cap(text).rstrip(".") + ".")
    parts.append(_figures(action, best, mine, advice, by_net))
    return " ".join(parts)


def _figures(action: Action, best: OptionAdvice, mine: OptionAdvice, advice: Advice,
             by_net: bool) -> str:
    side = "your side"
    what = "points less the other side's" if by_net else "points"
    v_best = best.net if by_net and best.net is not None else best.score
    v_mine = mine.net if by_net and mine.net is not None else mine.score
    deals = f"over {advice.samples} deals of the cards you cannot see"
    tricks = ""
    if best.tricks is not None and mine.tricks is not None and best is not mine and \
            round(best.tricks.mean, 1) != round(mine.tricks.mean, 1):
        tricks = (f"{_cap(side)} takes {tricks_words(round(best.tricks.mean, 1))} on "
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
