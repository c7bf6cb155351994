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

- the reason in words, then the figures
  (:func:`pepper_tutor.analysis.reasons.decision_reason`);
- for a card led by one of the table's conventions (lead trumps when you called them, the
  left bower to partner the maker, partner's suit returned, no ace led into a lone bidder:
  :func:`pepper_tutor.analysis.players.conventions`) among the choices the analysis finds
  as good, the convention by name.

Every grade goes through :func:`~pepper_tutor.analysis.grading.grade_choice`, the one
grading path of the drills, the practice table, the notebook and browser tables and game
night: :data:`~pepper_tutor.analysis.grading.GRADING_SAMPLES` deals (a call as many as a
card), seeded from the position, so the same choice in the same position (after a
take-back, on replay, at another table) gets the same grade; the loss's interval is paired
over the same deals, and a grade is only as severe as that interval allows ("too close to
call" where it spans from a good choice to a mistake). The hint reads the same advice.

One set of figures per decision, and per run of decisions: the hint and the grade of any
choice read one advice (every option solved on every deal), and a seat's decisions with
nothing learned between them (a call that ends the auction, naming trumps, the way of
playing) read the deals of the first of them (:func:`figures_seed`), so the contract it
chose shows the same make rate and points on each panel. Where other seats called since
the seat's own call, its deals are drawn again for what it heard, and the figures say so
(:func:`heard_since`: "Worth after the passes: ..."). A table keeps a
:class:`CoachFigures` a hand, so a run's later panels read its deals back, not solve them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from ...analysis.advice import Advice, OptionAdvice, SolvedDeals, advise
from ...analysis.dealing import position_seed
from ...analysis.grading import GRADING_SAMPLES, Grade, grade_choice
from ...analysis.players import conventions
from ...analysis.reasons import (
    convention_words,
    decision_reason,
    hint_reason,
    option_short,
    verdict_headline,
)
from ...analysis.view import view_of
from ...engine.calls import Bid, Defense
from ...engine.cards import Card
from ...engine.seats import Seat
from ...engine.state import Action, HandState, Phase
from ...rulebook.verdict import action_text
from ..learner.review_cards import judgement_key

__all__ = ["CoachVerdict", "coach_decision", "CoachRefinement", "OptionGrades", "decision_kind",
           "grade_from_note", "KINDS", "Hint", "coach_hint", "judgement_missed", "CoachFigures",
           "figures_seed", "heard_since"]

# The kinds as the learner reads them and the history stores them: "defence" is a stored
# value (the rows of every history file carry it), so it keeps its spelling.
KINDS = ("bidding", "exchange", "defence", "play")


def grade_from_note(note: str | None) -> Grade | None:
    """The grade a saved record's note starts with (``"Mistake: ..."``, ``"Inaccuracy, too
    close to call: ..."``), if any."""
    if not note:
        return None
    head = note.split(":", 1)[0].split(",", 1)[0].split(" ", 1)[0]
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
    convention: str = ""  # the table convention the choice followed, in words
    close: bool = False  # the interval spans from a good choice to a mistake
    # The advice the grade was read from (every option's figures: the Game Guides' strip of
    # what each card would have scored); None for a forced choice.
    advice: Advice | None = field(default=None, compare=False, repr=False)

    @property
    def headline(self) -> str:
        return verdict_headline(self.grade, self.action, self.best_label, self.loss, self.low,
                                self.high, self.forced, self.close)

    @property
    def note(self) -> str:
        """What a saved record carries: the headline, then the reason."""
        if self.grade is Grade.BEST:
            return self.headline + (" " + self.convention if self.convention else "")
        return self.headline + " " + self.reason

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "action": str(self.action), "best": str(self.best),
                "grade": str(self.grade), "loss": round(self.loss, 3),
                "interval": [round(self.low, 3), round(self.high, 3)], "reason": self.reason,
                "samples": self.samples, "close": self.close}


def coach_decision(state: HandState, action: Action, samples: int = GRADING_SAMPLES,
                   seed: int | None = None, solved: SolvedDeals | None = None,
                   figures: CoachFigures | None = None,
                   advice: Advice | None = None) -> CoachVerdict:
    """Grade ``action`` (legal, by the seat to act in ``state``, before it is applied), as
    :func:`~pepper_tutor.analysis.grading.grade_choice` grades it: with ``seed`` ``None``
    the deals are seeded from the position (:func:`figures_seed`), so the grade depends on
    the position and the choice only. Fewer ``samples`` only where asked for a quick answer
    (a demonstration, a test, the browser's pure-Python search): the grade is then less
    sure. ``solved``: what an earlier grading of the same choice solved, read instead of
    solved again (see :class:`CoachRefinement`); ``figures``: the table's
    :class:`CoachFigures` for this hand; ``advice``: the decision's one advice, where the
    caller has it (with the ``seed`` and ``solved`` it was read with: every option of one
    decision graded from it, :class:`OptionGrades`)."""
    kind = decision_kind(state)
    legal = state.legal_actions()
    if len(legal) <= 1:
        return CoachVerdict(kind, action, action, action_text(action), Grade.BEST, 0.0, 0.0,
                            0.0, "There was no other choice.", 0, forced=True)
    if advice is None:
        advice, seed, solved = _decision_advice(state, samples, seed, solved, figures)
    graded, advice = grade_choice(state, action, samples=advice.samples, seed=seed,
                                  solved=solved, advice=advice)
    by_net = all(o.net is not None for o in advice.options)
    best = advice.best
    mine = advice.choice(action)
    assert mine is not None  # grade_choice has graded it
    if mine.label == best.label:  # the best, found among every level of a call
        mine = best
    best_action = _action_of(best, state.phase)
    reason = decision_reason(state, action, best_action, best, mine, advice, by_net,
                             after=heard_since(state))
    habit = _convention(state, action) if graded.grade in (Grade.BEST, Grade.GOOD) else ""
    if habit:
        reason = f"{habit} {reason}"
    # Naming trumps, the grade's line names the best trump alone: its way of playing is the
    # next decision's, and the hint's
    label = best.trump.word if state.phase is Phase.DECLARE_TRUMP and best.trump is not None \
        else option_short(best, state.phase)
    return CoachVerdict(kind, action, best_action, label, graded.grade,
                        graded.loss, graded.low, graded.high, reason, advice.samples,
                        convention=habit, close=graded.close, advice=advice)


# ---- one set of figures per decision, and per run of the seat's own decisions ----------------

_CALLING = (Phase.AUCTION, Phase.DECLARE_TRUMP, Phase.DECLARE_MODE)


def _run_start(state: HandState) -> tuple[HandState, int]:
    """Where the seat to act last learned something, in the calling: walking back over its
    own calls and declarations that came straight before (a call no one answered, naming
    trumps), the earliest position; with the number of its decisions walked back."""
    seat = state.to_act
    start, walked = state, 0
    while start.phase in _CALLING and start.history:
        before = start.copy()
        before.undo()
        if before.to_act != seat or before.phase not in _CALLING:
            break
        start, walked = before, walked + 1
    return start, walked


def figures_seed(state: HandState) -> int:
    """The seed of the coach's deals for the decision in front of the seat to act: the
    position's own (:func:`~pepper_tutor.analysis.dealing.position_seed`, what the seat
    knows), taken where the seat last learned something. Naming trumps straight after the
    call that won the auction, and the way of playing after naming trumps, the seat knows
    what it knew at that call: its deals are that call's, and the contract it chose is
    worth on each panel what it was worth on the first (the same deals, the same
    solutions)."""
    start, _ = _run_start(state)
    return position_seed(view_of(start))


def heard_since(state: HandState) -> str:
    """The calls the seat to act heard since its own last call, in words ("after the
    passes", "after East's pass", "after East's 4 and West's pass"), where its deals were
    drawn again for them: the high bidder naming trumps after the others called, a seat
    calling again. ``""`` elsewhere (nothing heard, or the figures go on from the seat's
    own last panel)."""
    seat = state.to_act
    if seat is None or state.phase not in _CALLING or _run_start(state)[1]:
        return ""
    own = [k for k, (s, _) in enumerate(state.calls) if s == seat]
    heard = state.calls[own[-1] + 1:] if own else []
    if not heard:
        return ""
    if len(heard) > 1 and all(b is Bid.PASS for _, b in heard):
        return "after the passes"
    rules = state.rules

    def name(s: Seat) -> str:
        return "your partner" if rules.partnerships and s == seat.partner else s.word

    said = [f"{name(s)}'s {b.display}" for s, b in heard]
    return "after " + (said[0] if len(said) == 1 else
                       ", ".join(said[:-1]) + " and " + said[-1])


class CoachFigures:
    """What a table keeps of its coach's figures over one hand: per run of the seat's own
    decisions (its :func:`figures_seed`), what a call's or a declaration's advice solved on
    its deals, read back by the run's later panels instead of solved again, and the most
    deals a panel of the run read: the next decision of the run reads as many (on the page
    a grade refined to 100 deals is followed by a hint over the same 100, not the first 32
    of them)."""

    def __init__(self) -> None:
        self._solved: dict[int, SolvedDeals] = {}
        self._deals: dict[int, int] = {}

    def solved(self, seed: int) -> SolvedDeals:
        return self._solved.setdefault(seed, SolvedDeals())

    def deals(self, seed: int) -> int:
        """The most deals a panel of the run seeded ``seed`` read (0: none yet)."""
        return self._deals.get(seed, 0)

    def read(self, seed: int, deals: int) -> None:
        self._deals[seed] = max(deals, self.deals(seed))


def _decision_advice(state: HandState, samples: int, seed: int | None,
                     solved: SolvedDeals | None, figures: CoachFigures | None
                     ) -> tuple[Advice, int, SolvedDeals]:
    """The one advice of the decision in front of the seat to act, which its hint and the
    grade of every choice read (every option of a call solved on every deal): with the
    seed, and what was solved, it was read with."""
    if seed is None:
        seed = figures_seed(state)
    if figures is not None:
        samples = max(samples, figures.deals(seed))
        solved = solved if solved is not None else figures.solved(seed)
    if solved is None:
        solved = SolvedDeals()
    advice = advise(state, samples=samples, seed=seed, solved=solved, drop_worse=False)
    if figures is not None:
        figures.read(seed, advice.samples)
    return advice, seed, solved


class OptionGrades:
    """Every option of one decision graded over growing counts of deals, from one advice
    per count: what the browser page works out while the learner still looks at the
    decision, so the grade of the option they choose is ready (or nearly) when they do.
    ``steps`` are growing counts of deals (the page's: 32, 48, 65, 82, 100); a verdict over
    a count is the one :func:`coach_decision` gives over that many deals.

    The work comes in small pieces (:meth:`work`), so a front end that runs one at a time
    never keeps a click waiting long: the advice over the next count, then, once at the
    last, each option's verdict in turn (a call's may solve its option on more deals: see
    :func:`~pepper_tutor.analysis.grading.grade_choice`). The deals of a count begin with
    those of the count before (seeded from the position alike), and a call's or a
    declaration's solutions on them are read back
    (:class:`~pepper_tutor.analysis.advice.SolvedDeals`), so its counts solve only the
    deals they add. Any other decision's advice would solve its first deals again at every
    count: it goes from the first count straight to the last. ``state`` must not change
    while the grades are made."""

    def __init__(self, state: HandState, steps: Sequence[int],
                 figures: CoachFigures | None = None) -> None:
        if not steps or any(b <= a for a, b in pairwise(steps)):
            raise ValueError(f"the steps of a refined grade grow: {list(steps)}")
        self.state = state
        self.steps = tuple(steps) if state.phase in _READ_BACK else tuple(
            dict.fromkeys((steps[0], steps[-1])))
        self._seed = figures_seed(state)
        if figures is not None:  # a run's panels read as many deals as its last one did
            reached = figures.deals(self._seed)
            self.steps = tuple(dict.fromkeys(max(n, reached) for n in self.steps))
        self.options = tuple(state.legal_actions())
        self.samples = 0  # the count of deals the grades rest on now (0: none made yet)
        self._figures = figures
        self._solved = figures.solved(self._seed) if figures is not None else SolvedDeals()
        self._advice: Advice | None = None
        self._verdicts: dict[Action, CoachVerdict] = {}

    @property
    def forced(self) -> bool:
        """Only one legal choice: nothing to grade."""
        return len(self.options) <= 1

    @property
    def counts_left(self) -> bool:
        """A count of deals is still to come."""
        return not self.forced and self.samples < self.steps[-1]

    @property
    def more(self) -> bool:
        """Work is still to do: a count of deals to come, or an option not yet graded over
        the last."""
        return self.counts_left or (not self.forced and len(self._verdicts) < len(
            self.options))

    def step(self) -> None:
        """The advice over the next count of deals (nothing when none is left)."""
        if self.counts_left:
            samples = next(n for n in self.steps if n > self.samples)
            self._advice, _, _ = _decision_advice(self.state, samples, self._seed,
                                                  self._solved, self._figures)
            self.samples = samples
            self._verdicts = {}

    def work(self) -> None:
        """One piece of the work: the next count's advice, else the next option's verdict."""
        if self.counts_left:
            self.step()
            return
        todo = next((a for a in self.options if a not in self._verdicts), None)
        if todo is not None and not self.forced:
            self.verdict(todo)

    def verdict(self, action: Action) -> CoachVerdict:
        """The verdict on ``action`` over the deals reached (the first count's advice made
        first if none is)."""
        if self.forced:
            return coach_decision(self.state, action)
        if not self.samples:
            self.step()
        found = self._verdicts.get(action)
        if found is None:
            found = self._verdicts[action] = coach_decision(
                self.state, action, samples=self.samples, seed=self._seed,
                solved=self._solved, advice=self._advice)
        return found


class CoachRefinement:
    """The coach's verdict on one decision, refined over more deals step by step: a quick
    grade first, then surer ones, for a front end that shows the first at once and the
    rest as they come (the browser page, whose pure-Python search takes seconds to grade a
    call over 100 deals). ``steps`` are growing counts of deals; each verdict is the one
    :func:`coach_decision` gives over that many deals (see :class:`OptionGrades`, which
    makes them). ``grades``: the decision's grades already under way (made while the
    learner looked), whose count reached gives the first verdict; ``steps`` are then
    theirs."""

    def __init__(self, state: HandState, action: Action, steps: Sequence[int] = (),
                 grades: OptionGrades | None = None,
                 figures: CoachFigures | None = None) -> None:
        self.grades = grades if grades is not None else OptionGrades(state, steps, figures)
        self.state = self.grades.state
        self.action = action
        self.verdicts: list[CoachVerdict] = []

    @property
    def steps(self) -> tuple[int, ...]:
        return self.grades.steps

    @property
    def more(self) -> bool:
        """A surer verdict is still to come."""
        if self.verdicts and self.verdicts[-1].forced:
            return False
        return not self.verdicts or self.grades.counts_left

    @property
    def first(self) -> CoachVerdict | None:
        """The verdict shown first, which a later one may revise."""
        return self.verdicts[0] if self.verdicts else None

    def step(self) -> CoachVerdict:
        """The verdict over the next count of deals (the last one again when done)."""
        if self.more:
            if self.verdicts:
                self.grades.step()
            self.verdicts.append(self.grades.verdict(self.action))
        return self.verdicts[-1]


# The decisions whose advice reads back what an earlier one solved on the same deals.
_READ_BACK = (Phase.AUCTION, Phase.DECLARE_TRUMP, Phase.DECLARE_MODE)


def _convention(state: HandState, action: Action) -> str:
    """The table convention a card led follows, in words, or ``""``."""
    if state.phase is not Phase.PLAY or not isinstance(action, Card):
        return ""
    for key, card in conventions(view_of(state)).items():
        if card == action.index:
            return convention_words(key, action)
    return ""


@dataclass(frozen=True)
class Hint:
    """The coach's suggestion for the decision in front of the learner, before it is made."""

    kind: str
    best: Action
    best_label: str
    reason: str  # why, against the next best option, then the figures
    samples: int
    forced: bool = False
    # The decision's advice the hint was read from (the one its grades read); None where
    # there was one choice.
    advice: Advice | None = field(default=None, compare=False, repr=False)

    @property
    def text(self) -> str:
        if self.forced:
            return f"There is only one choice here: {self.best_label}."
        return f"The coach suggests {self.best_label}. {self.reason}"


def coach_hint(state: HandState, samples: int = GRADING_SAMPLES,
               seed: int | None = None, figures: CoachFigures | None = None) -> Hint:
    """The best option for the seat to act in ``state``, with the reason it beats the next
    best: the decision's one advice (the same deals, seeded from the position, and the same
    figures the grade of any choice reads) and the words the coach grades with, asked
    before deciding. ``figures``: the table's :class:`CoachFigures` for this hand."""
    kind = decision_kind(state)
    legal = state.legal_actions()
    if len(legal) <= 1:
        return Hint(kind, legal[0], action_text(legal[0]), "", 0, forced=True)
    advice, _, _ = _decision_advice(state, samples, seed, None, figures)
    others = _others(advice, state.phase)
    by_net = all(o.net is not None for o in advice.options)
    best = advice.best
    best_action = _action_of(best, state.phase)
    if not others:
        return Hint(kind, best_action, option_short(best, state.phase), "", advice.samples,
                    forced=True)
    second = others[0]
    # The reason is the best option's point, then both figures: what the best choice gains
    # over the next one.
    reason = hint_reason(state, best_action, _action_of(second, state.phase), best, second,
                         by_net, after=heard_since(state))
    label = option_short(best, state.phase)
    v_best = best.net if by_net and best.net is not None else best.score
    v_second = second.net if by_net and second.net is not None else second.score
    if f"{v_best.mean:+.1f}" == f"{v_second.mean:+.1f}":  # the figures would not tell them apart
        label += f" ({option_short(second, state.phase)} is as good here)"
    return Hint(kind, best_action, label, reason, advice.samples, advice=advice)


def _others(advice: Advice, phase: Phase) -> list[OptionAdvice]:
    """The runner-up, as grading reads each action: for every action other than the best,
    the option it is graded by (a call, its best trump and way of playing), best first."""
    best = _action_of(advice.best, phase)
    by_net = all(o.net is not None for o in advice.options)
    found: dict[object, OptionAdvice] = {}
    for o in (*advice.options, *advice.candidates):  # candidates: a call's every level
        action = _action_of(o, phase)
        mine = advice.choice(action)
        if action != best and mine is not None:
            found.setdefault(action, mine)
    return sorted(found.values(), key=lambda o: -(
        o.net.mean if by_net and o.net is not None else o.score.mean))


def judgement_missed(state: HandState, verdict: CoachVerdict) -> str | None:
    """The review card a clearly worse decision at the table makes (a Mistake or a
    Blunder), keyed as the judgement drill of the same kind and theme
    (:func:`~pepper_tutor.teaching.learner.review_cards.judgement_key`): a call, trumps or
    the way of playing, the discard or the card sent, play or surrender. ``None`` for a
    good decision and for a card in play, which no drill asks."""
    if verdict.forced or verdict.grade not in (Grade.MISTAKE, Grade.BLUNDER):
        return None
    phase = state.phase
    if phase is Phase.AUCTION:
        return judgement_key("bid", "pass" if verdict.best is Bid.PASS else "bid")
    if phase in (Phase.DECLARE_TRUMP, Phase.DECLARE_MODE):
        return judgement_key("declare", "trump" if phase is Phase.DECLARE_TRUMP else "mode")
    if phase in (Phase.DISCARD, Phase.SEND):
        return judgement_key("exchange", "bidder" if phase is Phase.DISCARD else "partner")
    if phase is Phase.DEFENSE:
        return judgement_key("defend", "surrender" if verdict.best is Defense.SURRENDER
                             else "play")
    return None


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
