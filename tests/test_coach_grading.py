"""The coach grades as the drills do: every grade through ``grading.grade_choice``, on deals
seeded from the position, so the same choice from the same position (graded again, after a
take-back, at another table) gets the same grade, as severe as its interval allows."""

from __future__ import annotations

import random

import pytest

from pepper_tutor.analysis.grading import GRADING_SAMPLES, Grade, grade_choice
from pepper_tutor.analysis.players import make_player
from pepper_tutor.analysis.view import view_of
from pepper_tutor.engine.calls import Bid
from pepper_tutor.engine.seats import Seat
from pepper_tutor.engine.state import HandState, Phase
from pepper_tutor.teaching.practice.coach import (
    CoachRefinement,
    CoachVerdict,
    OptionGrades,
    coach_decision,
    coach_hint,
    grade_from_note,
)
from pepper_tutor.teaching.practice.table import PracticeTable

QUICK = 40  # deals for the tests that compare two gradings (any count shows the point)


def _auction(seed: int, calls: int) -> HandState:
    """An auction decision after ``calls`` calls by the club player."""
    state = HandState.deal("standard", Seat(seed % 4), random.Random(seed))
    caller = make_player("club", seed)
    for _ in range(calls):
        state.apply(caller.decide(view_of(state)))
    assert state.phase is Phase.AUCTION
    return state


def _card(seed: int) -> HandState:
    """A card decision with a choice, a trick or two into the play."""
    state = HandState.deal("standard", Seat(seed % 4), random.Random(seed))
    player = make_player("club", seed)
    while not (state.phase is Phase.PLAY and len(state.tricks) >= 1
               and len(state.legal_actions()) > 1):
        state.apply(player.decide(view_of(state)))
    return state


def _same(a: CoachVerdict, b: CoachVerdict) -> None:
    assert (a.grade, a.best, a.loss, a.low, a.high, a.reason, a.samples) == \
        (b.grade, b.best, b.loss, b.low, b.high, b.reason, b.samples)


def test_a_call_is_graded_on_the_drills_deals_and_as_grade_choice_grades_it():
    state = _auction(5, 1)
    for action in (Bid.PASS, state.legal_actions()[-1]):
        verdict = coach_decision(state, action)
        graded, advice = grade_choice(state, action)
        # The old coach dealt a quarter of its count for a call (15 deals).
        assert verdict.samples == advice.samples == GRADING_SAMPLES
        assert (verdict.grade, verdict.loss, verdict.low, verdict.high, verdict.close) == \
            (graded.grade, graded.loss, graded.low, graded.high, graded.close)


@pytest.mark.parametrize("seed, calls", [(11, 0), (12, 2), (13, 3)])
def test_the_coach_grades_a_call_as_grade_choice_does(seed, calls):
    state = _auction(seed, calls)
    for action in state.legal_actions()[:3]:
        verdict = coach_decision(state, action, samples=QUICK)
        graded, _ = grade_choice(state, action, samples=QUICK)
        assert (verdict.grade, verdict.loss, verdict.low, verdict.high) == \
            (graded.grade, graded.loss, graded.low, graded.high)


def test_the_coach_grades_a_card_as_grade_choice_does():
    state = _card(21)
    for action in state.legal_actions():
        verdict = coach_decision(state, action, samples=QUICK)
        graded, _ = grade_choice(state, action, samples=QUICK)
        assert (verdict.grade, verdict.loss, verdict.low, verdict.high) == \
            (graded.grade, graded.loss, graded.low, graded.high)


def _again(state: HandState) -> HandState:
    """The same position reached anew: the deal, then the same actions."""
    fresh = HandState.from_hands({s: state.dealt(s) for s in state.seats}, state.rules,
                                 state.dealer)
    for action in state.history:
        fresh.apply(action)
    return fresh


def test_the_same_call_and_card_graded_twice_get_the_same_grade():
    for state in (_auction(31, 1), _card(32)):
        action = state.legal_actions()[-1]
        _same(coach_decision(state, action, samples=QUICK),
              coach_decision(_again(state), action, samples=QUICK))
        assert coach_hint(state, samples=QUICK).best == \
            coach_hint(_again(state), samples=QUICK).best


@pytest.mark.parametrize("seed", [3, 4])
def test_a_call_graded_again_after_a_take_back_gets_the_same_grade(seed):
    table = PracticeTable(seed=seed, level="club", coach=True, coach_samples=QUICK,
                          history=False)
    assert table.state.phase is Phase.AUCTION and table.learner_to_act
    position = table.state.copy()
    call = table.legal()[-1]
    first = table.act(call).coach
    assert first is not None
    # The table's dice move on between the two gradings (a computer player's answers, a
    # hint asked): the grade depends on the position and the call only.
    table.rng.random()
    table.take_back()
    assert [str(a) for a in table.state.history] == [str(a) for a in position.history]
    again = table.act(call).coach
    assert again is not None
    _same(first, again)
    graded, _ = grade_choice(position, call, samples=QUICK)
    assert (first.grade, first.loss, first.low, first.high) == \
        (graded.grade, graded.loss, graded.low, graded.high)


def test_the_table_hint_is_the_same_after_a_take_back():
    table = PracticeTable(seed=6, level="club", coach=True, coach_samples=QUICK, history=False)
    hint = table.hint()
    table.act(table.legal()[0])
    table.take_back()
    again = table.hint()
    assert (hint.best, hint.reason) == (again.best, again.reason)


def test_a_grade_too_close_to_call_says_so_and_reads_back_from_its_note():
    verdict = CoachVerdict("bidding", Bid.PASS, Bid.THREE, "3 in ♠", Grade.INACCURACY, 0.2,
                           -0.1, 1.1, "You hold the A♠.", GRADING_SAMPLES, close=True)
    assert verdict.headline.startswith("Inaccuracy, too close to call: ")
    assert grade_from_note(verdict.note) is Grade.INACCURACY
    sure = CoachVerdict("bidding", Bid.PASS, Bid.THREE, "3 in ♠", Grade.MISTAKE, 1.0, 0.8,
                        1.2, "You hold the A♠.", GRADING_SAMPLES)
    assert "too close" not in sure.headline and grade_from_note(sure.note) is Grade.MISTAKE


# ---- a grade refined over more deals (the browser page's background work) ------------------


@pytest.mark.parametrize("seed, calls", [(11, 0), (12, 2)])
def test_a_refined_call_ends_with_the_one_shot_grade_over_as_many_deals(seed, calls):
    state = _auction(seed, calls)
    for action in (Bid.PASS, state.legal_actions()[-1]):
        refinement = CoachRefinement(state, action, (12, 24, 40))
        assert refinement.more and refinement.first is None
        seen = []
        while refinement.more:
            seen.append(refinement.step())
        # A call reads back what it solved: every step is taken, each the one-shot verdict.
        assert [v.samples for v in seen] == [12, 24, 40]
        for verdict in seen:
            _same(verdict, coach_decision(state, action, samples=verdict.samples))
        assert refinement.first is seen[0] and refinement.step() is seen[-1]


def test_a_refined_card_goes_from_the_first_grade_to_the_last():
    state = _card(21)
    for action in state.legal_actions():
        refinement = CoachRefinement(state, action, (12, 24, 40))
        first, last = refinement.step(), refinement.step()
        assert not refinement.more and (first.samples, last.samples) == (12, 40)
        _same(first, coach_decision(state, action, samples=12))
        _same(last, coach_decision(state, action, samples=40))


def test_a_forced_choice_has_nothing_to_refine_and_steps_must_grow():
    state = _card(21)
    with pytest.raises(ValueError, match="grow"):
        CoachRefinement(state, state.legal_actions()[0], (24, 24))
    with pytest.raises(ValueError, match="grow"):
        CoachRefinement(state, state.legal_actions()[0], ())
    forced = HandState.deal("standard", Seat.N, random.Random(1))
    forced.apply(Bid.BIG_PEPPER)
    while len(forced.legal_actions()) > 1:
        forced.apply(Bid.PASS)
    refinement = CoachRefinement(forced, forced.legal_actions()[0], (12, 24))
    assert refinement.step().forced and not refinement.more


def test_the_table_refines_the_last_decision_until_the_learner_decides_again():
    table = PracticeTable(seed=4, level="club", coach=True, coach_samples=12,
                          refine_samples=(24, 40), history=False)
    call = table.legal()[-1]
    decision_first = table.act(call).coach
    assert decision_first is not None and decision_first.samples == 12
    refinement = table.refinement
    assert refinement is not None and refinement.more
    assert table.refine_last() is refinement
    assert table.learner_decisions[-1].coach is refinement.verdicts[-1]
    assert refinement.verdicts[-1].samples == 24
    table.refine_last()
    decision_last = table.learner_decisions[-1].coach
    assert decision_last is not None and decision_last.samples == 40
    assert table.refine_last() is None and not refinement.more
    # A take-back leaves nothing to refine; the same call again reads the figures the
    # learner last saw (the same 40 deals, read back), with nothing more to refine.
    table.take_back()
    assert table.refinement is None and table.refine_last() is None
    again = table.act(call).coach
    assert again is not None
    _same(again, decision_last)
    assert table.refinement is None or not table.refinement.more


# ---- every option graded before the learner chooses (the browser page, while they look) ----


def _exchange(seed: int) -> HandState:
    """A discard or a card sent, or play or surrender: a decision graded by one advice."""
    for tries in range(50):
        state = HandState.deal("standard", Seat((seed + tries) % 4), random.Random(seed + tries))
        player = make_player("club", seed)
        while state.phase not in (Phase.DISCARD, Phase.SEND, Phase.DEFENSE, Phase.PLAY):
            state.apply(player.decide(view_of(state)))
        if state.phase is not Phase.PLAY and len(state.legal_actions()) > 1:
            return state
    raise AssertionError("no exchange or defence decision dealt")


@pytest.mark.slow
@pytest.mark.parametrize("make", [lambda: _auction(12, 2), lambda: _card(21),
                                  lambda: _exchange(3)], ids=["call", "card", "exchange"])
def test_every_option_graded_ahead_is_the_one_shot_grade_over_as_many_deals(make):
    state = make()
    grades = OptionGrades(state, (12, 24, 40))
    assert grades.more and grades.samples == 0
    counts = []
    while grades.more:
        grades.work()
        counts.append(grades.samples)
    # A call reads back what it solved and takes every count; any other decision goes from
    # the first count to the last; then each option is graded over the last in turn.
    reached = [12, 24, 40] if state.phase is Phase.AUCTION else [12, 40]
    assert list(dict.fromkeys(counts)) == reached
    assert len(counts) == len(reached) + len(state.legal_actions())
    for action in state.legal_actions():
        _same(grades.verdict(action), coach_decision(state, action, samples=40))


def test_a_grade_asked_before_the_work_is_done_is_over_the_deals_reached():
    state = _auction(11, 0)
    grades = OptionGrades(state, (12, 24, 40))
    action = state.legal_actions()[-1]
    # asked first: the first count is made for it
    _same(grades.verdict(action), coach_decision(state, action, samples=12))
    grades.work()
    assert grades.samples == 24
    refinement = CoachRefinement(state, action, grades=grades)
    first = refinement.step()
    _same(first, coach_decision(state, action, samples=24))
    assert refinement.more and refinement.first is first
    _same(refinement.step(), coach_decision(state, action, samples=40))
    assert not refinement.more


def _learner_turn(table: PracticeTable) -> None:
    """Play on (the first legal choice) to a decision of the learner's with a choice."""
    while len(table.legal()) <= 1:
        table.act(table.legal()[0])


@pytest.mark.slow
def test_the_table_grades_the_decision_in_front_while_the_learner_looks():
    table = PracticeTable(seed=4, level="club", coach=True, coach_samples=12,
                          refine_samples=(24, 40), history=False)
    _learner_turn(table)
    before = table._replayed(len(table.state.history))
    assert table.foreseeing
    while table.foreseeing:
        assert table.foresee() is not None
    assert table.foresee() is None
    call = table.legal()[-1]
    verdict = table.act(call).coach
    assert verdict is not None and verdict.samples == 40
    _same(verdict, coach_decision(before, call, samples=40))
    # graded over the last count at once: nothing more to refine
    assert table.refinement is not None and not table.refinement.more
    assert table.refine_last() is None
    # A take-back to the same position grades the other choice from the same work.
    table.take_back()
    assert not table.foreseeing and table.foresee() is None
    other = table.legal()[0]
    again = table.act(other).coach
    assert again is not None
    _same(again, coach_decision(before, other, samples=40))


def test_the_table_foresees_nothing_without_a_grade_to_come():
    table = PracticeTable(seed=4, level="club", coach=True, coach_samples=12,
                          refine_samples=(24, 40), history=False)
    _learner_turn(table)
    table.hint()  # a hinted decision is not graded
    assert not table.foreseeing and table.foresee() is None
    off = PracticeTable(seed=4, level="club", coach=False, coach_samples=12,
                        refine_samples=(24, 40), history=False)
    assert not off.foreseeing and off.foresee() is None
    terminal = PracticeTable(seed=4, level="club", coach=True, coach_samples=12,
                             history=False)  # no refinement: the terminal's table
    assert not terminal.foreseeing and terminal.foresee() is None


def test_a_position_left_behind_is_no_longer_worked_on():
    table = PracticeTable(seed=4, level="club", coach=True, coach_samples=12,
                          refine_samples=(24, 40), history=False)
    _learner_turn(table)
    first = table.foresee()
    assert first is not None and first.samples == 12
    table.act(table.legal()[0])
    _learner_turn(table)
    assert not table.hand_over
    grades = table.foresee()
    assert grades is not None and grades is not first and grades.samples == 12
    assert first.more  # left as it was: nothing works on it any more
