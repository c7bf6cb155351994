"""What learners type, read as they mean it: scores either way round, choices as shown, any."""

import random

import pytest

from pepper_tutor.engine.calls import Bid, Defense, Mode, Trump
from pepper_tutor.engine.cards import parse_cards
from pepper_tutor.engine.seats import Seat
from pepper_tutor.rulebook.feedback import AnswerError
from pepper_tutor.teaching.drills.quiz import JUDGEMENT_KINDS, QUIZ_KINDS, make_question
from pepper_tutor.teaching.lessons.files import all_lessons
from pepper_tutor.teaching.questions.choice_steps import BidStep, DeclareStep, DefendStep
from pepper_tutor.teaching.questions.steps import GameStep, LegalPlaysStep, PlayStep, ScoreStep


def east_bids_four_takes_two() -> ScoreStep:
    return ScoreStep(id="s", bid=Bid.FOUR, bidder=Seat.E, tricks={"NS": 4, "EW": 2})


def test_bidders_first_when_east_west_bid():
    step = east_bids_four_takes_two()
    truth = step.computed().points
    assert truth["EW"] < 0 < truth["NS"]  # set: the bidders lose, the defenders score
    ew, ns = truth["EW"], truth["NS"]
    assert step.order == ("EW", "NS")
    assert [side for side, _ in step.situation().tricks] == ["EW", "NS"]
    assert "bidders first" in step.example() and "EW" in step.example().split("such as")[1][:4]
    for typed in (f"{ew} {ns}", f"EW {ew} NS {ns}", f"NS {ns} EW {ew}", f"ns={ns}, ew={ew}",
                  f"E/W: {ew}; N/S: +{ns}", f"bidders {ew} defenders {ns}",
                  f"  ew {ew}   ns {ns}  ", f"East-West {ew}, North-South {ns}"):
        assert step.judge(typed).correct, typed
    assert not step.judge(f"{ns} {ew}").correct  # bare numbers are read bidders first
    assert step.answer_text().startswith("EW")


def test_ns_first_when_north_south_bid():
    step = ScoreStep(id="s", bid=Bid.FOUR, bidder=Seat.S, tricks={"NS": 5, "EW": 1})
    pts = step.computed().points
    assert step.order == ("NS", "EW")
    assert step.judge(f"{pts['NS']} {pts['EW']}").correct
    assert step.judge(f"EW {pts['EW']} NS {pts['NS']}").correct


@pytest.mark.parametrize("typed", ["3", "NS 3", "XY 3 EW -4", "", "NS 3 NS 4"])
def test_unreadable_scores_say_what_to_type(typed):
    step = east_bids_four_takes_two()
    # the example is never any of the answer's points (issue 37: "-4 3" was the answer)
    with pytest.raises(AnswerError, match=r"such as EW 2 NS 1, or 2 1 \(EW then NS\)"):
        step.parse(typed)
    assert {-4, 3} & set(step.computed().points.values())


def test_every_listed_choice_is_accepted_as_shown():
    hand = tuple(parse_cards("JH JD AH KH QS 9C"))
    trump = DeclareStep(id="t", choose="trump", hand=hand, bid=Bid.FOUR, accept=(Trump.H,),
                        reason="r")
    for typed in ("♥ hearts", "♥", "hearts", "Hearts", "HEARTS.", "  ♥   hearts ", "H"):
        assert trump.judge(typed).correct, typed
    for option in trump.options():
        assert trump.parse(option.label) == option.value
    mode = DeclareStep(id="m", choose="mode", hand=hand, bid=Bid.FOUR, trump=Trump.H,
                       accept=(Mode.PARTNER,), reason="r")
    for option in mode.options():
        assert mode.parse(option.label) == option.value, option.label
    assert mode.judge("Play with partner").correct
    assert mode.parse("play alone") == "alone"
    assert mode.parse("exchange and play alone") is Mode.EXCHANGE
    defend = DefendStep(id="d", hand=tuple(parse_cards("9C TC QD KD 9H TH")), trump=Trump.S,
                        bid=Bid.FOUR, accept=(Defense.SURRENDER,), reason="r")
    assert defend.judge("Surrender!").correct
    bid = BidStep(id="b", hand=hand, accept=(Bid.BIG_PEPPER,), reason="r")
    for option in bid.options():
        assert bid.parse(option.label) == option.value
    assert bid.judge("Big  Pepper").correct
    game = GameStep(id="g", before={"NS": 40, "EW": 10}, points={"NS": 4, "EW": -2})
    for option in game.options():
        assert game.parse(option.label) == option.value
    assert game.judge("ns").correct


def test_any_where_any_card_is_right():
    open_lead = LegalPlaysStep(id="l", trump=Trump.H, trick=tuple(parse_cards("AC")),
                               hand=tuple(parse_cards("9D TS QS")))
    assert open_lead.answer_text() == "any card"
    for typed in ("any", "Any card", "any card", "all of them", "ANY."):
        assert open_lead.judge(typed).correct, typed
    must_follow = LegalPlaysStep(id="l2", trump=Trump.H, trick=tuple(parse_cards("AC")),
                                 hand=tuple(parse_cards("9C TS QS")))
    fb = must_follow.judge("any")  # read, and judged wrong with the reason
    assert not fb.correct and "may not be played" in fb.text
    all_win = PlayStep(id="p", trump=Trump.H, trick=tuple(parse_cards("9C")),
                       hand=tuple(parse_cards("JH AH")))
    assert all_win.judge("any").correct
    some_win = PlayStep(id="p2", trump=Trump.H, trick=tuple(parse_cards("AC")),
                        hand=tuple(parse_cards("9S JH")))
    assert not some_win.judge("any").correct


def test_cards_in_words_symbols_case_and_spacing():
    step = LegalPlaysStep(id="l", trump=Trump.H, trick=tuple(parse_cards("AH")),
                          hand=tuple(parse_cards("JD TH 9C")))
    for typed in ("jd th", "J♦ 10♥", "jack of diamonds, ten of hearts", "J diamonds and 10 hearts",
                  "  JD ,  10H  ", "j♦,t♥", "Jack Of Diamonds TEN OF HEARTS"):
        assert step.judge(typed).correct, typed


def test_trick_winner_by_the_seat_that_played_it():
    q = make_question("tricks", random.Random(5), 1)
    seat = q.seats[q.trick.index(q.winner())]
    assert q.judge(seat.word).correct and q.judge(seat.word.upper()).correct


@pytest.mark.slow
def test_every_question_shows_an_example_of_what_to_type():
    steps = [s for lesson in all_lessons() for s in lesson.steps if s.answerable]
    rng = random.Random(2)
    # (two of each judgement drill: the analysis takes a moment to deal each)
    steps += [make_question(k, rng, i) for k in QUIZ_KINDS
              for i in range(2 if k in JUDGEMENT_KINDS else 20)]
    for step in steps:
        example = step.example()
        assert example.startswith("Type"), (step.id, example)
        if "choices as shown" in example:  # the choice shown is never the answer
            assert example.split("such as: ")[1] != step.answer_text(), (step.id, example)
        else:
            assert step.answer_text() not in example, (step.id, example)
        if isinstance(step, BidStep):  # nor a call the rules forbid there
            shown = Bid.parse(example.split("such as: ")[1])
            assert shown in step.legal_answers(), (step.id, example)


def test_a_bid_question_never_gives_a_forbidden_bid_as_its_example():
    """After a 4, a 1 cannot be bid: the example names a call the learner may make."""
    hand = tuple(parse_cards("9S TS 9C TC 9D QH"))
    step = BidStep(id="b", hand=hand, auction=(Bid.FOUR,), accept=(Bid.PASS,), reason="r")
    shown = Bid.parse(step.example().split("such as: ")[1])
    assert shown is not Bid.PASS and shown in step.legal_answers() and shown > Bid.FOUR
