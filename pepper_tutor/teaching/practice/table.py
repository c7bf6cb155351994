"""The practice table: a match against computer players, with a coach on every decision.

One interaction core under every front end (the terminal table, the notebook widget, the
unattended ``play --auto``). A :class:`PracticeTable` holds the match, the hand being
played, the learner's seat and a computer player at every other seat. The learner acts with
:meth:`PracticeTable.act`: an illegal action gets the rules verdict and changes nothing; a
legal one is graded by the coach (always in coach mode, else on request with
:meth:`PracticeTable.grade_last`), then the computer players answer until it is the
learner's turn again.

:meth:`take_back` undoes the learner's last decision (and the computer players' answers to
it); :meth:`replay_from` goes back to any earlier decision of this hand, with the same
cards, to choose differently. A hand counts for the match when the learner moves on
(:meth:`next_hand`): it is then saved as a ``pepper-hand/1`` record with the coach's grades
as notes and glyphs, and added to the history.

A front end with time to spare (the browser page, whose search is slow) grades over more
deals step by step (``refine_samples``): :meth:`foresee` works, a piece at a time, on every
choice of the decision in front of the learner before it is made, :meth:`act` grades the
choice made from that work (over the deals reached), and :meth:`refine_last` makes the
grade surer from there.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from ...analysis.grading import GRADING_SAMPLES, Grade
from ...engine.calls import Bid, Defense, Mode
from ...engine.cards import Card
from ...engine.match import HandResult, Match
from ...engine.rules import RuleSet, get_ruleset
from ...engine.seats import Seat
from ...engine.state import Action, HandState, Phase
from ...files.writing import write_new
from ...records.hand_record import Entry, HandRecord, dump_record, record_from_state
from ...rulebook.feedback import AnswerError
from ...rulebook.verdict import Verdict, action_text
from ..learner.attempts import Attempt
from ..learner.store import LearnerStore
from ..questions.answers import read_action
from .coach import (
    CoachFigures,
    CoachRefinement,
    CoachVerdict,
    Hint,
    OptionGrades,
    coach_decision,
    coach_hint,
    decision_kind,
    judgement_missed,
)
from .history import HistoryUnreadable, SavedMatch, TableHistory
from .players import ALONE_SETTINGS, DEFAULT_ALONE, LEVELS, Player, bot_decide, make_bot

__all__ = ["PracticeTable", "Decision", "TurnResult", "Review", "SeatView", "LEVELS",
           "phase_prompt"]

# The phases whose decision is a card of the learner's hand.


@dataclass
class Decision:
    """One action taken this hand, by the learner or a computer player."""

    seat: Seat
    phase: Phase
    action: Action
    kind: str
    learner: bool
    at: int  # how many actions the hand had seen before this one
    where: tuple[int, int] = (0, 0)  # (trick, card) from 1, for a card in play
    call: int = 0  # the call's number in the auction, from 1
    coach: CoachVerdict | None = None
    hinted: bool = False  # the learner asked for a hint first: not graded

    @property
    def text(self) -> str:
        return action_text(self.action)

    @property
    def words(self) -> str:
        """The action as the table hears it; the exchange cards stay face down."""
        a = self.action
        return {Phase.DISCARD: "discards a card face down",
                Phase.SEND: "hands the bidder a card face down",
                Phase.DECLARE_TRUMP: f"names {action_text(a)}",
                Phase.DECLARE_MODE: "plays with partner" if a is Mode.PARTNER else
                "exchanges a card with partner and plays alone",
                Phase.DEFENSE: ("decides the defenders play the hand" if a is Defense.PLAY
                                else "surrenders for the defenders"),
                Phase.AUCTION: "passes" if a is Bid.PASS else f"bids {action_text(a)}",
                }.get(self.phase, f"plays {action_text(a)}")


@dataclass(frozen=True)
class TurnResult:
    """What happened after the learner acted: the verdict, the coach's word (if asked), and
    the computer players' actions that followed."""

    verdict: Verdict
    coach: CoachVerdict | None
    replies: tuple[Decision, ...] = ()


@dataclass(frozen=True)
class Review:
    """The after-hand review: the worst decisions first, then every trick."""

    worst: tuple[Decision, ...]
    decisions: tuple[Decision, ...]
    tricks: tuple[Any, ...]
    summary: str


@dataclass(frozen=True)
class SeatView:
    """One seat at the table as the learner sees it: who sits there, on whose side, the card
    it has in the trick on the table, and whether it is its turn."""

    seat: Seat
    name: str  # "You", "North (partner)", "East"
    role: str  # "you", "partner", "opponent" (or "player" when nobody is your partner)
    card: Card | None  # its card in the trick shown (the current one, else the last)
    won: bool  # that card won the trick shown (a finished trick)
    to_act: bool
    dealer: bool
    bidder: bool
    out: bool  # sits this hand out


def phase_prompt(state: HandState) -> str:
    """What the learner is asked to do, in words."""
    return {
        Phase.AUCTION: "Your call: pass or a bid",
        Phase.DECLARE_TRUMP: "Name trumps (or no trump)",
        Phase.DECLARE_MODE: "Exchange and play alone, or play with your partner? "
                            "(exchange / partner)",
        Phase.DISCARD: "Discard one card for the exchange",
        Phase.SEND: "Hand one card to your partner, who plays alone",
        Phase.DEFENSE: "Play, or surrender?",
        Phase.PLAY: "Your card",
    }.get(state.phase, "The hand is over")


class PracticeTable:
    """A match at the table. ``seat``: the learner's; ``auto``: computer players at every
    seat, the ``seat``'s decisions still graded when ``coach`` is on."""

    def __init__(self, rules: RuleSet | str = "standard", seat: Seat | str = Seat.S,
                 level: str = "club", coach: bool = True, seed: int | None = None,
                 coach_samples: int = GRADING_SAMPLES, save_dir: Path | str | None = None,
                 history: TableHistory | bool | None = True, auto: bool = False,
                 alone: str = DEFAULT_ALONE, store: LearnerStore | None = None,
                 refine_samples: Sequence[int] = ()) -> None:
        self.rules = get_ruleset(rules)
        self.seat = Seat.parse(seat)
        if self.seat >= self.rules.players:
            raise ValueError(f"seat {self.seat} is not at a {self.rules.players}-player table "
                             f"(choose one of {', '.join(str(s) for s in self._seats())})")
        if level not in LEVELS:
            raise ValueError(f"{level!r} is not a level (expected {', '.join(LEVELS)})")
        if alone not in ALONE_SETTINGS:
            raise ValueError(f"{alone!r} is not a going-alone setting (expected "
                             f"{', '.join(ALONE_SETTINGS)})")
        self.level = level
        self.alone = alone
        self.store = store  # where a judgement missed becomes a review card (None: nowhere)
        self.coach = coach
        self.auto = auto
        self.coach_samples = coach_samples
        # More deals to grade the learner's decisions over, step by step, after the first
        # grade over coach_samples (foresee, refine_last: the browser page's background work).
        self.refine_samples = tuple(refine_samples)
        self._refining: tuple[Decision, CoachRefinement] | None = None
        # The decision in front of the learner graded while they look (foresee), with the
        # position it is for: its deal and the actions so far.
        self._foresight: tuple[tuple[object, ...], OptionGrades] | None = None
        self.rng = random.Random(seed)
        self.seed = seed
        self.save_dir = Path(save_dir) if save_dir is not None else None
        self.warning: str | None = None
        # What became of the last hand's history, when it is news (not saved, or saved again
        # after hands were kept in memory); None when it was simply saved.
        self.history_news: str | None = None
        self.history: TableHistory | None = None
        if isinstance(history, TableHistory):
            self.history = history
        elif history:
            try:
                self.history = TableHistory()
            except HistoryUnreadable as err:
                self.warning = str(err)
        self.bots: dict[Seat, Player] = {
            s: make_bot(level, self.rng.randrange(2**31), alone) for s in self._seats()
            if auto or s != self.seat}
        self.match = Match(self.rules, Seat(self.rules.players - 1))
        self.saved: list[Path] = []
        self.last_saved: Path | None = None  # the hand just finished, if its record was saved
        self.save_problem: str | None = None  # why it was not, for the learner
        self.hand_number = 0
        self.state: HandState
        self.decisions: list[Decision] = []
        self.score_before: dict[str, int] = {}
        self._hinted: set[tuple[str, ...]] = set()  # positions (actions so far) hinted at
        # the coach's figures over this hand: one set of deals per run of the learner's own
        # decisions, read by its hints and grades (coach.CoachFigures)
        self.figures = CoachFigures()
        self.match_id = 0  # the match's row in the history, once written
        self.hands_before = 0  # hands of a resumed match counted before this session
        self.resumed: SavedMatch | None = None
        self.new_hand()

    @classmethod
    def resume(cls, saved: SavedMatch, *, coach: bool = True, seed: int | None = None,
               coach_samples: int = GRADING_SAMPLES, save_dir: Path | str | None = None,
               history: TableHistory | bool | None = True,
               alone: str = DEFAULT_ALONE, refine_samples: Sequence[int] = ()
               ) -> PracticeTable:
        """The match ``saved`` in the history, where it stopped: its totals, whose deal it
        is, the hands counted, and the hand in progress with the actions taken so far (the
        coach's grades of that hand are not kept: its decisions are shown, not graded)."""
        table = cls(saved.rules, saved.seat, saved.level, coach=coach, seed=seed,
                    coach_samples=coach_samples, save_dir=save_dir, history=history,
                    alone=alone, refine_samples=refine_samples)
        table._restore(saved)
        return table

    def _restore(self, saved: SavedMatch) -> None:
        match = Match(self.rules, Seat.parse(saved.dealer), saved.totals)
        match.overtime = saved.overtime
        self.match = match
        self.match_id = saved.id
        self.hands_before = saved.hands
        self.hand_number = saved.hands
        self.resumed = saved
        if saved.deal is None:
            self.new_hand()
            return
        self.hand_number += 1
        self.score_before = dict(match.totals)
        state = HandState.from_hands({Seat.parse(k): v for k, v in saved.deal.items()},
                                     self.rules, match.dealer)
        self.state, self.decisions = state, []
        for text in saved.actions:
            verdict = state.check(text)
            if not verdict.legal or verdict.action is None:
                raise ValueError(f"the saved match cannot be replayed: {text!r} is not legal "
                                 f"there ({' '.join(verdict.facts)})")
            seat = state.to_act
            assert seat is not None
            decision = self._note(seat, verdict.action, learner=seat == self.seat)
            state.apply(verdict.action)
            self.decisions.append(decision)
        self.play_bots()

    def saved_match(self) -> SavedMatch:
        """The match as the history keeps it for a resume (the hand in progress included)."""
        s = self.state
        in_progress = not self.hand_over and not self.match.over
        return SavedMatch(
            self.rules.name, str(self.seat), self.level, dict(self.match.totals),
            str(self.match.dealer), self.hands_before + len(self.match.results),
            self.match.overtime, self.match.winner,
            {str(seat): [str(c) for c in s.dealt(seat)] for seat in s.seats}
            if in_progress else None,
            tuple(str(a) for a in s.history) if in_progress else (), self.match_id)

    def keep_match(self, hand_id: int | None = None) -> None:
        """Write the match to the history for a resume (best effort: see
        :meth:`TableHistory.save_match`)."""
        if self.history is None or self.auto:
            return
        found = self.history.save_match(self.saved_match(), hand_id)
        if found is not None:
            self.match_id = found

    def _seats(self) -> tuple[Seat, ...]:
        return tuple(Seat(i) for i in range(self.rules.players))

    # ---- what the front ends show ----------------------------------------------------------

    @property
    def learner_side(self) -> str:
        return self.rules.side_of(self.seat)

    @property
    def learner_to_act(self) -> bool:
        return not self.auto and self.state.to_act == self.seat

    @property
    def hand_over(self) -> bool:
        return self.state.is_terminal()

    def legal(self) -> list[Action]:
        return self.state.legal_actions() if self.learner_to_act else []

    def player_name(self, seat: Seat) -> str:
        if seat == self.seat and not self.auto:
            return "You"
        if self.rules.partnerships and self.rules.players == 4 and \
                seat == self.seat.partner and not self.auto:
            return f"{seat.word} (partner)"
        return seat.word

    @property
    def learner_decisions(self) -> list[Decision]:
        return [d for d in self.decisions if d.learner]

    def role(self, seat: Seat) -> str:
        if seat == self.seat and not self.auto:
            return "you"
        if self.rules.partnerships and self.rules.players == 4:
            return "partner" if self.rules.side_of(seat) == self.learner_side else "opponent"
        return "opponent" if not self.auto else "player"

    def shown_trick(self) -> tuple[list[tuple[Seat, Card]], int | None]:
        """The trick to draw on the table: the one being played, else (between tricks on
        your lead, or when the hand is over) the last one finished, with its winner's index."""
        s = self.state
        if s.current_trick:
            return s.current_trick, None
        if s.tricks and (self.hand_over or self.learner_to_act):
            last = s.tricks[-1]
            return list(zip(last.seats, last.cards, strict=True)), last.winning_index
        return [], None

    def seats_view(self) -> list[SeatView]:
        """Every seat, in seat order (N, E, S, W): the front ends place N at the top, S at
        the bottom, W on the left and E on the right."""
        s = self.state
        trick, winner = self.shown_trick()
        cards = {seat: (card, i == winner) for i, (seat, card) in enumerate(trick)}
        return [SeatView(seat, self.player_name(seat), self.role(seat),
                         cards.get(seat, (None, False))[0], cards.get(seat, (None, False))[1],
                         s.to_act == seat and not self.hand_over, s.dealer == seat,
                         s.bidder == seat, s.sitting_out == seat)
                for seat in self._seats()]

    def exchange_text(self) -> str | None:
        """The exchange as the learner saw it, once it has happened: the card partner sent
        you (or you sent), the card you discarded."""
        s = self.state
        if s.passed is None or s.bidder is None or self.auto:
            return None
        if s.bidder == self.seat:
            sender = s.bidder.partner
            said = f"{self.player_name(sender)} sent you the {s.passed.display}"
            if s.discard is not None:
                said += f"; you discarded the {s.discard.display}"
            return said + "."
        if s.bidder.partner == self.seat:
            return (f"You sent the {s.passed.display} to {self.player_name(s.bidder)}, who "
                    "plays alone.")
        return None  # a defender does not see the exchange cards

    def _position(self) -> tuple[str, ...]:
        return tuple(str(a) for a in self.state.history)

    def hint(self) -> Hint:
        """The coach's suggestion for the decision in front of the learner, with its reason.
        Asked once, that decision is not graded when it is made (:attr:`Decision.hinted`),
        nor counted in the history."""
        if self.hand_over:
            raise ValueError("the hand is over: there is no decision to hint at")
        if not self.learner_to_act:
            raise ValueError(f"it is not your turn: {self.state.to_act} is to act")
        self._hinted.add(self._position())
        return coach_hint(self.state, samples=self.coach_samples, figures=self.figures)

    @property
    def hinted_now(self) -> bool:
        """A hint was asked for the decision in front of the learner."""
        return self._position() in self._hinted

    # ---- playing ------------------------------------------------------------------------------

    def new_hand(self) -> list[Decision]:
        """Deal the next hand; the computer players act until it is the learner's turn."""
        self.hand_number += 1
        self.score_before = dict(self.match.totals)
        self.state = self.match.new_hand(self.rng.randrange(2**31))
        self.decisions = []
        self._hinted = set()
        self.figures = CoachFigures()
        return self.play_bots()

    def _note(self, seat: Seat, action: Action, learner: bool) -> Decision:
        state = self.state
        where = (len(state.tricks) + 1, len(state.current_trick) + 1) \
            if state.phase is Phase.PLAY else (0, 0)
        return Decision(seat, state.phase, action, decision_kind(state), learner,
                        len(state.history), where,
                        len(state.calls) + 1 if state.phase is Phase.AUCTION else 0)

    def play_bots(self) -> list[Decision]:
        """The computer players act until it is the learner's turn or the hand is over."""
        moves = []
        state = self.state
        while not state.is_terminal():
            seat = state.to_act
            assert seat is not None
            if seat == self.seat and not self.auto:
                break
            action = bot_decide(self.bots[seat], state, seat, self.score_before)
            decision = self._note(seat, action, learner=False)
            if self.auto and seat == self.seat and self.coach:
                decision.coach = self._grade(action)
            state.apply(action)
            self.decisions.append(decision)
            moves.append(decision)
        return moves

    def _grade(self, action: Action, state: HandState | None = None,
               decision: Decision | None = None) -> CoachVerdict:
        """The coach's verdict on ``action`` in ``state`` (default: now); a judgement the
        learner missed is kept as a review card in the learner's store. With
        ``refine_samples``, the learner's ``decision`` is then the one :meth:`refine_last`
        refines."""
        before = state or self.state
        # Deals seeded from the position, not the table's dice: a take-back or a replay
        # grades the same choice the same way, and the coach never changes the deals.
        if decision is None or not self.refine_samples or self.auto:
            verdict = coach_decision(before, action, samples=self.coach_samples,
                                     figures=self.figures)
            self._missed(before, verdict)
            return verdict
        # Graded while the learner looked (foresee): the grade over the deals reached.
        foresight = self._foresight
        grades = foresight[1] if state is None and foresight is not None \
            and foresight[0] == self._position_key() else None
        if grades is None:
            # A state of its own: the table moves on while the refinement waits its turn.
            own = state if state is not None else self._replayed(decision.at)
            grades = OptionGrades(own, self._steps(), self.figures)
        refinement = CoachRefinement(grades.state, action, grades=grades)
        verdict = refinement.step()
        self._refining = (decision, refinement)
        self._missed(refinement.state, verdict)
        return verdict

    def _missed(self, before: HandState, verdict: CoachVerdict,
                first: CoachVerdict | None = None) -> None:
        """A judgement missed kept as a review card, once a decision: by its first verdict
        or, where that did not miss one, by the refined ``verdict`` that does."""
        card = judgement_missed(before, verdict)
        if first is not None and judgement_missed(before, first) is not None:
            return
        if card is not None and self.store is not None and not self.auto:
            self.store.record(Attempt("table", verdict.kind, False, counts=False,
                                      missed=(card,), origin=f"table {verdict.kind}"))

    def _steps(self) -> tuple[int, ...]:
        return (self.coach_samples, *(n for n in self.refine_samples if n > self.coach_samples))

    def _position_key(self) -> tuple[object, ...]:
        """The decision in front of the learner: the hand's deal and the actions so far."""
        state = self.state
        return (tuple(tuple(state.dealt(s)) for s in state.seats), self._position())

    def foresee(self) -> OptionGrades | None:
        """One piece of the coach's work on the decision in front of the learner, before they
        make it (the browser page's, while they look): its options graded over the counts of
        deals of ``refine_samples``, so the grade of the one chosen is ready, or nearer, when
        :meth:`act` grades it (the same verdict as graded then: the same deals). None when
        there is nothing to do: no such decision (the hand over, another seat to act), the
        coach off or a hint asked (no grade to come), or all done. A position left behind
        is dropped, with its work."""
        if not self._foreseeable:
            return None
        key = self._position_key()
        if self._foresight is None or self._foresight[0] != key:
            self._foresight = (key, OptionGrades(self._replayed(len(self.state.history)),
                                                 self._steps(), self.figures))
        grades = self._foresight[1]
        if not grades.more:
            return None
        grades.work()
        return grades

    @property
    def foreseeing(self) -> bool:
        """Whether :meth:`foresee` has work still to do on the decision in front."""
        if not self._foreseeable:
            return False
        foresight = self._foresight
        if foresight is None or foresight[0] != self._position_key():
            return len(self.state.legal_actions()) > 1
        return foresight[1].more

    @property
    def foreseen(self) -> int:
        """The deals the grades of the decision in front rest on so far (0: none made)."""
        foresight = self._foresight
        if not self._foreseeable or foresight is None or foresight[0] != self._position_key():
            return 0
        return foresight[1].samples

    @property
    def _foreseeable(self) -> bool:
        """A decision of the learner's is in front of them, the coach will grade it, and
        over more deals than the first count (``refine_samples``)."""
        return (bool(self.refine_samples) and not self.auto and self.coach
                and not self.hand_over and self.learner_to_act and not self.hinted_now)

    def refine_last(self) -> CoachRefinement | None:
        """Grade the learner's last decision over the next count of ``refine_samples``
        deals: its refinement with the new verdict last (the decision carries it, and the
        hand's history when the hand is counted), or None when there is nothing more to
        refine (no refinement, all its steps done, or the learner has decided again, taken
        back or moved on)."""
        refinement = self.refinement
        if refinement is None or not refinement.more:
            return None
        verdict = refinement.step()
        decision = self.learner_decisions[-1]
        decision.coach = verdict
        self._missed(refinement.state, verdict, refinement.first)
        return refinement

    @property
    def refinement(self) -> CoachRefinement | None:
        """The refinement of the learner's last decision's grade (its ``more``: a surer
        verdict is still to come from :meth:`refine_last`), if it has one."""
        refining = self._refining
        mine = self.learner_decisions
        return refining[1] if refining is not None and mine and mine[-1] is refining[0] \
            else None

    def act(self, raw: Action | str | int) -> TurnResult:
        """The learner's action. Illegal: the verdict, nothing changes. Legal: graded (in
        coach mode), applied, and the computer players answer."""
        if self.hand_over:
            raise ValueError("the hand is over: start the next hand")
        if not self.learner_to_act:
            raise ValueError(f"it is not your turn: {self.state.to_act} is to act")
        verdict = self.state.check(self._read_card(raw))
        if not verdict.legal or verdict.action is None:
            return TurnResult(verdict, None)
        action = verdict.action
        decision = self._note(self.seat, action, learner=True)
        decision.hinted = self.hinted_now
        if self.coach and not decision.hinted:
            decision.coach = self._grade(action, decision=decision)
        self.state.apply(action)
        self.decisions.append(decision)
        replies = tuple(self.play_bots())
        self.keep_match()
        return TurnResult(verdict, decision.coach, replies)

    def check(self, raw: Action | str | int) -> Verdict:
        """The rules' verdict on what the learner typed or chose, read as :meth:`act`
        reads it, without acting: a front end that asks before a card counts."""
        return self.state.check(self._read_card(raw))

    def _read_card(self, raw: Action | str | int) -> Action | str | int:
        """What the learner says, read as lessons and puzzles read it (one reader): a card
        against their hand ("the nine", "the left bower", "ace of clubs"), a call ("we
        play", "I pass", "hearts"); what it cannot read is left for the rules' verdict to
        explain."""
        if not isinstance(raw, str):
            return raw
        try:
            return read_action(raw, self.state.phase.value, self.state.hand(self.seat),
                               self.state.trump, self.rules.left_bower)
        except AnswerError:
            return raw

    def grade_last(self) -> CoachVerdict | None:
        """The coach's word on the learner's last decision (graded now if it was not)."""
        mine = self.learner_decisions
        if not mine:
            return None
        last = mine[-1]
        if last.hinted:  # asked for a hint first: the coach does not grade its own advice
            return None
        if last.coach is None:
            last.coach = self._grade(last.action, self._replayed(last.at), last)
        return last.coach

    def _replayed(self, upto: int) -> HandState:
        """This hand's deal with its first ``upto`` actions taken again."""
        state = HandState.from_hands({s: self.state.dealt(s) for s in self.state.seats},
                                     self.rules, self.state.dealer)
        for action in self.state.history[:upto]:
            state.apply(action)
        return state

    def take_back(self) -> Decision:
        """Undo the learner's last decision and the computer players' answers to it."""
        mine = self.learner_decisions
        if not mine:
            raise ValueError("there is nothing to take back: you have not acted this hand")
        return self._back_to(mine[-1])

    def replay_from(self, number: int) -> Decision:
        """Go back to the learner's decision ``number`` (from 1) of this hand, same cards,
        to choose again."""
        mine = self.learner_decisions
        if not 1 <= number <= len(mine):
            raise ValueError(f"there is no decision {number} of yours this hand "
                             f"(you have made {len(mine)})")
        return self._back_to(mine[number - 1])

    def _back_to(self, decision: Decision) -> Decision:
        self.state = self._replayed(decision.at)
        self.decisions = [d for d in self.decisions if d.at < decision.at]
        self.keep_match()
        return decision

    def next_hand(self) -> HandResult:
        """Count the finished hand for the match, save its record and history, deal again."""
        if not self.hand_over:
            raise ValueError("the hand is not finished yet")
        result = self.finish_hand()
        if not self.match.over:
            self.new_hand()
            self.keep_match()  # the new deal, so a resume before the first decision has it
        return result

    def finish_hand(self) -> HandResult:
        """Count the hand for the match; save the record and the history."""
        result = self.match.record(self.state)
        if self.hands_before:  # a resumed match numbers on from the hands counted before
            result = dataclasses.replace(result, number=result.number + self.hands_before)
        path = self.save()
        hand_id: int | None = None
        if self.history is not None and self.state.calls:
            graded = [(d.kind, str(d.action), str(d.coach.grade), d.coach.loss)
                      for d in self.decisions if d.coach is not None and not d.coach.forced]
            points = (self.state.score.points.get(self.learner_side, 0)
                      if self.state.score else 0)
            kept = self.history.unsaved
            saved = hand_id = self.history.add_hand(
                self.rules.name, str(self.seat), self.level, self.contract_text(), points,
                graded, None if path is None else str(path))
            # A busy or full history never ends the session: the hand is kept and saved with
            # the next one; the learner is told either way.
            self.history_news = (self.history.warning if saved is None else
                                 f"Your practice history is saved again, with the {kept} "
                                 f"hand{'s' if kept != 1 else ''} kept meanwhile."
                                 if kept else None)
        self.keep_match(hand_id)
        return result

    def close(self) -> None:
        """The end of the session: one more try to save the hands the history could not take
        yet (:attr:`history_news` says how it went)."""
        if self.history is not None and self.history.unsaved:
            kept = self.history.unsaved
            self.history_news = (
                self.history.warning if self.history.flush() is None else
                f"Your practice history is saved again, with the {kept} "
                f"hand{'s' if kept != 1 else ''} kept meanwhile.")

    # ---- words ----------------------------------------------------------------------------------

    def contract_text(self) -> str:
        state = self.state
        if state.phase is Phase.THROWN_IN:
            return "thrown in"
        if state.bidder is None:
            return "auction"
        text = f"{state.bidder.word} {state.high_bid.display}"
        if state.trump is not None:
            text += f" in {state.trump.word}"
        if state.mode is not None:
            text += " alone (exchange)" if state.mode.value == "exchange" else " with partner"
        elif state.high_bid is Bid.BIG_PEPPER and self.rules.has_exchange:
            text += " alone"
        return text

    def result_text(self) -> str:
        """The hand's outcome for the learner, in a sentence."""
        state = self.state
        if state.phase is Phase.THROWN_IN:
            return "Everyone passed: the hand is thrown in and the deal moves on."
        score = state.score
        if score is None:
            return ""
        won = state.tricks_won()
        parts = [f"{side} {'+' if p >= 0 else ''}{p}" for side, p in score.points.items()]
        tricks = ", ".join(f"{side} {n}" for side, n in won.items())
        if state.defense is not None and state.defense.value == "surrender":
            head = f"The defenders surrendered to {self.contract_text()}."
        else:
            made = "made it" if score.made else "went set"
            who = "the bidders" if self.rules.partnerships else "the bidder"
            head = f"{self.contract_text()}: {who} {made} (tricks {tricks})."
        return f"{head} Points this hand: {', '.join(parts)}."

    # ---- after the hand --------------------------------------------------------------------------

    def graded(self) -> list[Decision]:
        """The decisions the coach graded (a forced one, with no other choice, is not)."""
        return [d for d in self.decisions if d.coach is not None and not d.coach.forced]

    def review(self, worst: int = 3) -> Review:
        """The few worst decisions first (the errors, largest loss first), then every trick."""
        errors = sorted((d for d in self.graded() if d.coach and d.coach.grade.is_error),
                        key=lambda d: -(d.coach.loss if d.coach else 0))
        graded = self.graded()
        lost = sum(d.coach.loss for d in graded if d.coach)
        if graded:
            summary = (f"{len(graded)} decision{'s' if len(graded) != 1 else ''} graded: "
                       + ", ".join(f"{n} {g.value.lower()}" for g, n in _count(graded) if n)
                       + f"; {lost:.1f} points lost in all.")
        else:
            summary = "No decision was graded this hand (turn the coach on to grade them)."
        return Review(tuple(errors[:worst]), tuple(graded), tuple(self.state.tricks), summary)

    def record(self) -> HandRecord:
        """This hand as a ``pepper-hand/1`` record, the coach's grades as notes and glyphs."""
        state = self.state
        meta: dict[str, Any] = {
            "event": f"Practice table, hand {self.hand_number}", "date": date.today().isoformat(),
            "players": {str(s): self.player_name(s) if s == self.seat and not self.auto
                        else f"{self.level} computer" for s in self._seats()}}
        record = record_from_state(state, meta)
        if self.score_before and any(self.score_before.values()):
            record.score_before = dict(self.score_before)
        for d in self.decisions:
            if d.coach is None or d.coach.forced:
                continue
            note, glyph = d.coach.note, d.coach.grade.glyph or None
            if d.phase is Phase.AUCTION:
                e = record.auction[d.call - 1]
                record.auction[d.call - 1] = Entry(e.value, note, glyph)
            elif d.phase is Phase.DECLARE_TRUMP and record.trump is not None:
                record.trump = Entry(record.trump.value, note, glyph)
            elif d.phase is Phase.DECLARE_MODE and record.mode is not None:
                record.mode = Entry(record.mode.value, note, glyph)
            elif d.phase is Phase.DISCARD and record.discard is not None:
                record.discard = Entry(record.discard.value, note, glyph)
            elif d.phase is Phase.SEND and record.passed is not None:
                record.passed = Entry(record.passed.value, note, glyph)
            elif d.phase is Phase.DEFENSE and record.defense is not None:
                record.defense = Entry(record.defense.value, note, glyph)
            elif d.phase is Phase.PLAY:
                t, i = d.where
                played = record.tricks[t - 1][i - 1]
                record.tricks[t - 1][i - 1] = Entry(played.value, note, glyph)
        return record

    def save(self) -> Path | None:
        """Write this hand's record into the save folder (if there is one) under a new name:
        earlier records, and anything planted there, are never replaced or followed. A save
        that fails leaves no file, sets :attr:`save_problem` and returns None (the hand
        still counts, and goes in the history without a record)."""
        self.last_saved = self.save_problem = None
        if self.save_dir is None:
            return None
        try:
            self.save_dir.mkdir(parents=True, exist_ok=True)
            path = write_new(self.save_dir, self._record_names(),
                             dump_record(self.record()).encode("utf-8"))
        except (OSError, ValueError) as err:  # the writer's refusals are ValueErrors
            self.save_problem = (f"hand {self.hand_number} was not saved as a record "
                                 f"({err}); it is kept in your history")
            return None
        self.saved.append(path)
        self.last_saved = path
        return path

    def _record_names(self) -> Iterator[str]:
        """Names for this hand's record, the first free one taken. Unseeded hands number on
        from the highest ``hand-NNN.yaml`` in the folder, so a second session adds to the
        first; a seeded hand keeps its seed and number (``seed-7-hand-001.yaml``, which says
        how to deal it again) and a repeat run adds ``-2``, ``-3``, ..."""
        assert self.save_dir is not None
        if self.seed is None:
            taken = [int(m.group(1)) for p in self.save_dir.iterdir()
                     if (m := re.fullmatch(r"hand-(\d{1,9})\.yaml", p.name))]
            n = max(taken, default=0) + 1
            while True:
                yield f"hand-{n:03d}.yaml"
                n += 1
        stem = re.sub(r"[^A-Za-z0-9_.-]", "-", f"seed-{self.seed}-hand-{self.hand_number:03d}")
        yield f"{stem}.yaml"
        for again in itertools.count(2):
            yield f"{stem}-{again}.yaml"


def _count(decisions: list[Decision]) -> list[tuple[Grade, int]]:
    return [(g, sum(1 for d in decisions if d.coach and d.coach.grade is g)) for g in Grade]

