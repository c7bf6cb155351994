"""One set of figures per decision: the hint and the grade of a decision read one advice,
and a seat's next decision with nothing learned in between (naming trumps after the call
that closed the auction, the way of playing after naming trumps) reads the same deals, so
the contract it chose is worth the same on every panel. Where the seat heard other calls
since its own, the figures are drawn again and the panel says what for."""

from __future__ import annotations

import re

from pepper_tutor import Bid, HandState, Mode, Trump
from pepper_tutor.analysis.advice import Advice, OptionAdvice
from pepper_tutor.engine.seats import Seat
from pepper_tutor.teaching.practice.coach import coach_decision, coach_hint, heard_since
from pepper_tutor.teaching.practice.table import PracticeTable

SAMPLES = 24
# The learner (South) holds a strong hand in hearts; the others hold little and pass.
HANDS = {"S": ["JH", "JD", "AH", "KH", "AS", "9C"],
         "W": ["9H", "TD", "9S", "JC", "QD", "TS"],
         "N": ["TH", "9D", "QS", "KC", "AD", "TC"],
         "E": ["QH", "KD", "JS", "KS", "AC", "QC"]}


def _table(dealer: str) -> PracticeTable:
    table = PracticeTable(seed=3, level="club", coach=True, coach_samples=SAMPLES,
                          history=False)
    table.state = HandState.from_hands(HANDS, dealer=dealer)
    table.play_bots()
    assert table.state.to_act is Seat.S
    return table


def _contract(advice: Advice | None, bid: Bid) -> OptionAdvice:
    """The advice's option for ``bid`` in hearts, alone with the exchange."""
    assert advice is not None
    found = [o for o in (*advice.options, *advice.candidates)
             if (o.bid, o.trump, o.mode) == (bid, Trump.H, Mode.EXCHANGE)]
    assert found, [o.label for o in advice.options]
    return found[0]


def _figure(text: str, name: str) -> str:
    """The figure a panel gives ``name`` in its Worth sentence."""
    found = re.search(rf"Worth[^:]*:.*?\b{name} ([+-]\d+\.\d)", text)
    assert found, (name, text)
    return found.group(1)


def _grade_then_hint(table: PracticeTable, action: object):
    """A learner's way through one decision: decide (graded), take it back, ask for the
    hint, decide again (not graded: hinted)."""
    verdict = table.act(action).coach  # type: ignore[arg-type]
    assert verdict is not None
    table.take_back()
    hint = table.hint()
    table.act(action)  # type: ignore[arg-type]
    return verdict, hint


def test_the_contract_chosen_is_worth_the_same_on_every_panel_of_its_run() -> None:
    # South deals and calls last: once South bids, nothing is heard before naming trumps.
    table = _table("S")
    assert Bid.FIVE in table.legal()
    bid, _ = _grade_then_hint(table, Bid.FIVE)
    assert table.state.phase.name == "DECLARE_TRUMP"
    trump, trump_hint = _grade_then_hint(table, Trump.H)
    mode, mode_hint = _grade_then_hint(table, Mode.EXCHANGE)
    first = _contract(bid.advice, Bid.FIVE)
    for advice in (trump.advice, trump_hint.advice, mode.advice, mode_hint.advice):
        same = _contract(advice, Bid.FIVE)
        assert same.net is not None and first.net is not None
        assert (same.makes, same.net.mean, same.net.low, same.net.high) == (
            first.makes, first.net.mean, first.net.low, first.net.high)
        assert same.net.samples == first.net.samples == SAMPLES
    # and so the words: hearts alone (naming trumps), going alone (the way of playing)
    shown = {_figure(trump_hint.reason, "hearts alone"), _figure(mode.reason, "going alone"),
             _figure(mode_hint.reason, "going alone")}
    if trump.grade != "Best":
        shown.add(_figure(trump.reason, "hearts alone"))
    assert shown == {f"{first.net.mean:+.1f}"}
    # nothing was heard between: no panel says the figures were drawn again
    assert "Worth after" not in trump_hint.reason + mode.reason + mode_hint.reason


def test_the_hint_and_every_grade_of_a_decision_name_one_best_with_one_figure() -> None:
    state = HandState.from_hands(HANDS, dealer="S")
    for call in (Bid.PASS, Bid.PASS, Bid.PASS):
        state.apply(call)
    hint = coach_hint(state, samples=SAMPLES)
    assert hint.advice is not None
    best = hint.advice.best
    for action in state.legal_actions():
        verdict = coach_decision(state, action, samples=SAMPLES)
        assert verdict.advice is not None
        assert verdict.advice.best.label == best.label
        assert verdict.advice.best.net == best.net
        assert (verdict.grade == "Best") == (action == hint.best)


def test_calls_heard_since_the_seats_own_call_are_named_where_the_deals_are_drawn_again(
        ) -> None:
    # East deals: South calls first, then West, North and East pass.
    table = _table("E")
    table.act(Bid.LITTLE_PEPPER)
    assert table.state.phase.name == "DECLARE_TRUMP"
    heard = table.state.calls[1:]
    assert [s for s, _ in heard] == [Seat.W, Seat.N, Seat.E]
    said = heard_since(table.state)
    if all(b is Bid.PASS for _, b in heard):
        assert said == "after the passes"
    else:
        assert said.startswith("after West's ") and said.endswith(" and East's pass"), said
    hint = table.hint()
    assert f"Worth {said}: hearts alone" in hint.reason
    table.act(Trump.H)
    # naming the way of playing follows South's own naming of trumps: the same deals
    assert heard_since(table.state) == ""
    assert "Worth after" not in table.hint().reason
    # one call heard: named by who made it
    state = HandState.from_hands(HANDS, dealer="W")  # North calls first, South third
    state.apply(Bid.PASS)
    assert state.to_act is Seat.E
    state.apply(Bid.PASS)
    assert heard_since(state) == ""  # South has not called yet
