"""The coach's panels are short and name the point, and what they say is true.

Words per panel, over every decision kind (a call, trumps, the way of playing, the exchange,
play or surrender, a card) and every screen that shows a reason (the terminal table's coach
panel, the page's coach box, the hint, the puzzle feedback, the drill feedback), counted by
the panels bench (:mod:`pepper_tutor.bench.panels`) and printed: a median of at most 45 words
and none over 60. Then each kind of point on positions built by hand: a suit that runs, the
bowers held or missing, what the exchange brings, a card's role (the left bower, the last
trump out, the only trump held, the highest trump left, partner's winner), the comparison
with the runner-up, and a right answer's reason for that answer.
"""

from __future__ import annotations

import re

import pytest

from pepper_tutor import Bid, Card, HandState, Mode, Phase, Trump
from pepper_tutor.analysis.advice import Advice, Estimate, OptionAdvice
from pepper_tutor.analysis.reasons import (
    bid_right_facts,
    card_point,
    card_role,
    exchange_facts,
    hand_point,
    why,
    why_exchange,
)
from pepper_tutor.bench.panels import KINDS, Panel, panels, spread, table
from pepper_tutor.engine.calls import Defense
from pepper_tutor.engine.seats import Seat

C = Card.parse
MEDIAN, LONGEST = 45, 60
# A rule's or a theme's id on a learner's screen: "analysis.double-dummy", "judgement.bid.bid"
INTERNAL_ID = re.compile(r"\b[a-z]+(?:\.[a-z][a-z-]*)+\b")


@pytest.fixture(scope="module")
def found() -> list[Panel]:
    return panels(hands=24, samples=12, seed=1)


@pytest.mark.slow
def test_every_panel_is_short_over_every_decision_kind_and_screen(found: list[Panel]) -> None:
    print("\n" + "\n".join(table(found)))  # the figures, with -s
    screens = {p.screen for p in found}
    assert screens == {"table", "page", "widget", "night", "hint", "puzzle", "drill"}
    # every kind of decision graded with its reason, at the table
    worse = {p.kind for p in found if p.screen == "table" and not p.best}
    assert worse == set(KINDS), worse
    for screen in screens:
        counts = [p.words for p in found if p.screen == screen]
        median, _, top = spread(counts)
        longest = max((p for p in found if p.screen == screen), key=lambda p: p.words)
        assert median <= MEDIAN, (screen, median)
        assert top <= LONGEST, (screen, longest.text)
        # the panels with a reason, apart: the grades of a choice not the best
        reasons = [p.words for p in found if p.screen == screen and not p.best]
        assert spread(reasons)[0] <= MEDIAN, (screen, spread(reasons))
        # and every kind of decision on its own, where it comes up often enough to tell
        for kind in KINDS:
            for worse in (False, True):
                mine = [p.words for p in found if p.screen == screen and p.kind == kind
                        and not (worse and p.best)]
                if len(mine) >= 5:
                    assert spread(mine)[0] <= MEDIAN, (screen, kind, worse, spread(mine))


@pytest.mark.slow
def test_no_panel_shows_an_internal_id_or_repeats_what_the_figures_mean(
        found: list[Panel]) -> None:
    for p in found:
        assert not INTERNAL_ID.search(p.text), p.text
        if p.screen in ("table", "page", "widget", "night", "hint"):
            assert "net points" not in p.text and "deals of the cards" not in p.text, p.text


# ---- each point, true on positions built by hand --------------------------------------------


def _hand(text: str) -> list[Card]:
    return [C(c) for c in text.split()]


def test_a_suit_that_runs_is_the_point_of_a_no_trump_hand() -> None:
    # The hand: five spades from the ace, the Q♠ alone out and falling at once.
    assert hand_point(_hand("QC 9S TS JS KS AS"), Trump.NT) == "five spades that run from the A♠"
    # A♠ Q♠ 9♠: the K♠ and two more out, the suit does not run; the ace alone is counted.
    said = hand_point(_hand("AS QS 9S 9H TD KC"), Trump.NT)
    assert "run" not in said and "one ace (A♠)" in said
    assert hand_point(_hand("9S TS 9H TH 9D TD"), Trump.NT) == "no ace and no suit that runs"


def test_the_bowers_held_or_missing_are_the_point_of_a_trump_hand() -> None:
    said = hand_point(_hand("JD KH 9H AS 9C TC"), Trump.H)
    assert said.startswith("the left bower and the K♥ 9♥: three trumps, no right bower")
    assert said.endswith("and the A♠")
    assert hand_point(_hand("JH JD AH 9S 9C TC"), Trump.H).startswith(
        "both bowers and the A♥: three trumps")
    assert "no right bower" not in hand_point(_hand("JH 9H AS 9S 9C TC"), Trump.H)
    assert hand_point(_hand("9S TS 9D TD 9C AC"), Trump.H) == "no hearts, and the A♣"
    # the left bower follows the table's switch
    assert hand_point(_hand("JD KH 9H AS 9C TC"), Trump.H, left_bower=False).startswith(
        "the K♥ 9♥: two trumps, no right bower")


def _played() -> HandState:
    """Hearts trumps, North bidding 4 with partner; North leads the J♥, East and South
    follow, West to play its one heart."""
    state = HandState.from_hands({"N": _hand("JH JD AH KH QH 9S"),
                                  "E": _hand("9C TC QC KC AC TS"),
                                  "S": _hand("9H 9D TD QD KD AD"),
                                  "W": _hand("TH QS KS AS JS JC")}, dealer="W")
    for a in (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS, Trump.H, Mode.PARTNER, Defense.PLAY,
              C("JH"), C("9C"), C("9H")):
        state.apply(a)
    return state


def test_a_cards_role_is_named_only_where_it_is_so() -> None:
    state = _played()
    assert state.to_act is Seat.W
    assert card_role(state, C("TH")) == "your last trump"  # others unseen, one in hand
    state.apply(C("TH"))
    assert state.to_act is Seat.N
    assert card_role(state, C("JD")) == "the left bower"
    assert card_role(state, C("AH")) is None  # the J♦ in hand ranks above it
    for card in ("JD", "TC", "9D", "QS"):
        state.apply(C(card))
    assert card_role(state, C("AH")) == "the highest trump left"  # no other above it left
    assert card_role(state, C("KH")) is None
    for card in ("AH", "QC", "TD", "KS", "KH", "KC", "QD", "AS"):
        state.apply(C(card))
    assert state.to_act is Seat.N and state.phase is Phase.PLAY
    # every other trump has been played: the Q♥ is the last trump out
    assert card_role(state, C("QH")) == "the last trump out"


def test_partners_winner_is_named_and_an_overtaking_card_said_to_overtake() -> None:
    state = _played()
    for card in ("TH", "JD", "TC"):
        state.apply(C(card))
    assert state.to_act is Seat.S  # North's J♦ wins so far; South holds no trump
    said = card_point(state, C("9D"), C("AD"))
    assert said == "the 9♦ lets your partner's winner, the J♦, stand"


def test_a_discarded_bower_is_named_as_one() -> None:
    state = HandState.from_hands({"N": _hand("JS JC AS 9H TD 9C"),
                                  "E": _hand("9S TS QS KS AH KH"),
                                  "S": _hand("QH TH JH AD KD QD"),
                                  "W": _hand("JD 9D TC QC KC AC")}, dealer="W")
    for a in (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS, Trump.S, Mode.EXCHANGE):
        state.apply(a)
    assert state.phase is Phase.DISCARD and state.to_act is Seat.N
    reason = why_exchange(state, C("JC"), C("9H"))
    assert reason is not None and reason.fact == "discarded-trump"
    assert "the J♣ (the left bower)" in reason.text
    e = Estimate(3.0, 2.0, 4.0, 40)
    mine = OptionAdvice("discard J♣", e, e, e, card=C("JC"))
    best = OptionAdvice("discard 9♥", Estimate(4.5, 4.0, 5.0, 40), e, e, card=C("9H"))
    words = exchange_facts("bidder", C("JC"), mine, C("9H"), best, Trump.S)
    assert "without the J♣ (left bower)" in words and "without the 9♥," not in words


def _bid_state() -> HandState:
    return HandState.from_hands({"N": _hand("JH JD AH KH AS 9C"),
                                 "E": _hand("QH TH 9H AC KC QC"),
                                 "S": _hand("TS 9S QS KS JS JC"),
                                 "W": _hand("AD KD QD TD 9D TC")}, dealer="W")


def _option(label: str, net: float, tricks: float | None, makes: float | None = None,
            **kw: object) -> OptionAdvice:
    e = Estimate(net, net - 1, net + 1, 40)
    t = None if tricks is None else Estimate(tricks, tricks - 0.3, tricks + 0.3, 40)
    return OptionAdvice(label, t, e, e, makes=makes, **kw)  # type: ignore[arg-type]


def test_a_pass_with_a_making_hand_names_the_bowers_and_the_make_rate() -> None:
    state = _bid_state()
    five = _option("5 in ♥, exchange and play alone", 4.0, 5.4, 0.8, bid=Bid.FIVE,
                   trump=Trump.H, mode=Mode.EXCHANGE)
    passing = _option("pass", -1.0, None, bid=Bid.PASS)
    reason = why(state, Bid.PASS, advice=Advice("bid", Seat.N, "NS", 40, (five, passing)))
    assert reason is not None and reason.fact == "passed-a-making-hand"
    assert reason.text.startswith("you hold both bowers and the A♥ K♥: four trumps")
    assert reason.text.endswith(": 5 makes in 80% of deals")


def test_only_is_said_only_of_a_minority_of_deals() -> None:
    state = _bid_state()
    six = _option("6 in ♥, play with partner", -2.0, 5.1, 0.3, bid=Bid.SIX, trump=Trump.H,
                  mode=Mode.PARTNER)
    five = _option("5 in ♥, exchange and play alone", 4.0, 5.4, 0.8, bid=Bid.FIVE,
                   trump=Trump.H, mode=Mode.EXCHANGE)
    over = why(state, Bid.SIX, advice=Advice("bid", Seat.N, "NS", 40, (five, six)))
    assert over is not None and "makes in only 30% of deals" in over.text
    # a bid that makes most of the time is not said to make "only" then
    sure = _option("6 in ♥, play with partner", 3.0, 5.9, 0.99, bid=Bid.SIX, trump=Trump.H,
                   mode=Mode.PARTNER)
    assert why(state, Bid.SIX, advice=Advice("bid", Seat.N, "NS", 40, (five, sure))) is None


def test_what_the_exchange_brings_is_the_point_of_the_way_of_playing() -> None:
    state = _bid_state()
    for a in (Bid.FIVE, Bid.PASS, Bid.PASS, Bid.PASS, Trump.H):
        state.apply(a)
    assert state.phase is Phase.DECLARE_MODE
    alone = _option("5 in ♥, exchange and play alone", 4.0, 5.4, 0.8, bid=Bid.FIVE,
                    trump=Trump.H, mode=Mode.EXCHANGE)
    partner = _option("5 in ♥, play with partner", 1.0, 4.9, 0.6, bid=Bid.FIVE,
                      trump=Trump.H, mode=Mode.PARTNER)
    reason = why(state, Mode.PARTNER, advice=Advice("declare", Seat.N, "NS", 40,
                                                    (alone, partner)))
    assert reason is not None and reason.fact == "stayed-with-partner"
    assert reason.text == ("holding four trumps with both bowers, the exchange trades your "
                           "weakest card for partner's best")


def test_a_right_answer_is_told_its_own_reason() -> None:
    hand = _hand("JH KH 9H AS 9C TC")
    five = _option("5 in ♥, play with partner", 2.0, 5.2, bid=Bid.FIVE, trump=Trump.H,
                   mode=Mode.PARTNER)
    six = _option("6 in ♥, play with partner", -1.0, 5.2, bid=Bid.SIX, trump=Trump.H,
                  mode=Mode.PARTNER)
    said = bid_right_facts(Bid.FIVE, five, Bid.SIX, six, hand, True)
    assert said.startswith("with J♥ ") and "and partner's help you expect about 5.2 tricks in " \
        "hearts, short of the 6 that 6 needs" in said
    # a pass is right for what the bid passed up falls short of
    passing = _option("pass", 0.0, None, bid=Bid.PASS)
    said = bid_right_facts(Bid.PASS, passing, Bid.SIX, six, hand, True)
    assert "short of 6" in said


def _points(text: str) -> list[str]:
    worth = re.search(r"(?:Worth[^:]*|After [^:]*): (.*)\.$", text)
    assert worth is not None, text
    return re.findall(r"(?<![(\d])[+-]\d+\.\d", worth.group(1))


@pytest.mark.parametrize("calls", [(), (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS)])
def test_the_hint_and_the_runner_ups_grade_give_the_same_figures(calls: tuple[Bid, ...]
                                                                  ) -> None:
    from pepper_tutor.teaching.practice.coach import coach_decision, coach_hint

    state = _bid_state()
    for call in calls:
        state.apply(call)
    hint = coach_hint(state, samples=16)
    told = _points(hint.reason)
    assert len(told) == 2
    # the runner-up the hint names, graded: the same deals, the same two figures
    graded = [v for v in (coach_decision(state, a, samples=16) for a in state.legal_actions())
              if v.grade != "Best" and _points(v.reason) == told]
    assert graded, (hint.text, [coach_decision(state, a, samples=16).reason
                                for a in state.legal_actions()])
