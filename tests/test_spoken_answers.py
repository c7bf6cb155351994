"""Cards and bids as learners say them: filler words, a bare rank that names one card in
view, the bowers by name where that is not the question, a bid said with a suit answered with
the rule that bids carry none, and the same card reader in ``trick``, lessons and the table."""

from __future__ import annotations

import json

import pytest

from pepper_tutor.apps.cli import main
from pepper_tutor.engine.calls import Bid, Trump
from pepper_tutor.engine.cards import Card, parse_cards
from pepper_tutor.engine.seats import Seat
from pepper_tutor.engine.state import HandState, Phase
from pepper_tutor.rulebook.feedback import AnswerError
from pepper_tutor.teaching.practice.table import PracticeTable
from pepper_tutor.teaching.questions.answers import read_cards
from pepper_tutor.teaching.questions.choice_steps import BidStep, ExchangeStep
from pepper_tutor.teaching.questions.commands import STEP_COMMANDS, answers, read_command
from pepper_tutor.teaching.questions.steps import (
    LegalPlaysStep,
    PlayStep,
    RankStep,
    TrickWinnerStep,
)

HAND = tuple(parse_cards("JH 9C TC TD AS"))


@pytest.mark.parametrize("typed, card", [
    ("the nine", "9C"), ("9", "9C"), ("nine", "9C"), ("The Nine!", "9C"),
    ("the ace of spades", "AS"), ("ace of spades", "AS"), ("the ace", "AS"),
    ("I'd play the left bower", "JH"), ("the left bower", "JH"), ("left bower", "JH"),
    ("play the J♥", "JH"), ("my ten of clubs", "TC"), ("the 10 of diamonds", "TD"),
])
def test_filler_words_and_bare_ranks_name_a_card_in_the_hand(typed: str, card: str) -> None:
    assert read_cards(typed, HAND, Trump.D) == [Card.parse(card)]


def test_a_bare_rank_held_twice_asks_which_naming_both() -> None:
    with pytest.raises(AnswerError, match=r"2 tens, 10♣ 10♦: say which"):
        read_cards("the ten", HAND, Trump.D)


def test_a_bare_rank_not_in_view_says_so_in_words() -> None:
    with pytest.raises(AnswerError, match="there is no queen among"):
        read_cards("the queen", HAND, Trump.D)


def test_the_bowers_by_name_follow_trumps() -> None:
    assert read_cards("the right bower", (), Trump.S) == [Card.parse("JS")]
    assert read_cards("the left bower", (), Trump.S) == [Card.parse("JC")]
    assert read_cards("the left bower", (), Trump.H) == [Card.parse("JD")]
    with pytest.raises(AnswerError, match=r"no bowers in no trump.*rank\.no-trump"):
        read_cards("the left bower", (), Trump.NT)
    with pytest.raises(AnswerError, match=r"without a left bower"):
        read_cards("left bower", (), Trump.H, left_bower=False)


def test_play_and_legal_steps_read_spoken_cards() -> None:
    # Diamonds trumps, Q♥ led: the J♥ is the left bower, a diamond; hearts held: none.
    play = PlayStep(id="p", trump=Trump.D, trick=tuple(parse_cards("QC")),
                    hand=tuple(parse_cards("AC 9C JH TD")))
    assert play.judge("the ace").correct
    assert play.judge("the ace of clubs").correct
    assert not play.judge("the nine").correct  # read as the 9♣, which loses: judged, not refused
    legal = LegalPlaysStep(id="l", trump=Trump.H, trick=tuple(parse_cards("AH")),
                           hand=tuple(parse_cards("JD 9C TC")))
    assert legal.judge("the left bower").correct


def test_where_the_jacks_are_the_question_a_bower_name_is_not_an_answer() -> None:
    rank = RankStep(id="r", trump=Trump.H, cards=tuple(parse_cards("JD AH JH")))
    with pytest.raises(AnswerError, match="name the card itself"):
        rank.parse("right bower, left bower, ace")
    assert rank.judge("jack of hearts, jack of diamonds, ace of hearts").correct
    trick = TrickWinnerStep(id="t", trump=Trump.D, trick=tuple(parse_cards("AD JH KD QD")))
    with pytest.raises(AnswerError, match="name the card itself"):
        trick.parse("the left bower")
    assert trick.judge("the jack").correct  # one jack in the trick: the J♥


def test_the_exchange_reads_spoken_cards_against_the_hand() -> None:
    step = ExchangeStep(id="x", role="partner", hand=tuple(parse_cards("JD 9C TC QS KS AH")),
                        trump=Trump.H, accept=(Card.parse("JD"),), reason="the left bower")
    assert step.judge("the left bower").correct
    assert step.judge("the jack").correct


def test_a_queen_held_once_is_the_answer_not_quit() -> None:
    step = PlayStep(id="p", trump=Trump.S, trick=tuple(parse_cards("9H")),
                    hand=tuple(parse_cards("QH 9C")))
    assert read_command("q", STEP_COMMANDS, answers(step.parse)) is None
    assert step.judge("q").correct
    none = PlayStep(id="p", trump=Trump.S, trick=tuple(parse_cards("9H")),
                    hand=tuple(parse_cards("AH 9C")))
    assert read_command("q", STEP_COMMANDS, answers(none.parse)) == "quit"


@pytest.mark.parametrize("typed", ["5 hearts", "bid 5 hearts", "5 in spades", "6 no trump",
                                   "five ♦", "little pepper clubs"])
def test_a_bid_with_a_suit_is_answered_with_the_rule(typed: str) -> None:
    step = BidStep(id="b", hand=tuple(parse_cards("JH JD AH KH QH 9S")), accept=(Bid.SIX,),
                   reason="two bowers")
    with pytest.raises(AnswerError, match=r"no suit \(bid\.ladder\).*declare\.trump"):
        step.parse(typed)
    state = HandState.deal("standard", "W", 4)
    verdict = state.check(typed)
    assert not verdict.legal
    assert verdict.rule_ids == ("bid.ladder", "declare.trump")
    assert state.phase is Phase.AUCTION and not state.calls  # nothing changed


def test_bid_said_as_bid_n_reads_everywhere() -> None:
    assert Bid.parse("bid 5") is Bid.FIVE
    assert Bid.parse("Bid little pepper") is Bid.LITTLE_PEPPER
    assert HandState.deal("standard", "W", 4).check("bid 4").legal


def test_trick_command_reads_cards_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["trick", "--trump", "D", "--json", "ace", "of", "diamonds,", "the", "jack",
                 "of", "hearts", "and", "KD"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["winning_card"] == "JH" and out["rule"] == "rank.left-bower"
    assert main(["trick", "--trump", "H", "jack", "of", "blah"]) == 2


def test_the_practice_table_reads_spoken_cards() -> None:
    table = PracticeTable(seed=3, coach=False, history=False)
    for _ in range(200):
        if table.hand_over:
            table.next_hand()
            continue
        state = table.state
        if state.phase is Phase.PLAY and table.learner_to_act:
            legal = [c for c in table.legal() if isinstance(c, Card)]
            ranks = [c.rank for c in state.hand(table.seat)]
            single = [c for c in legal if ranks.count(c.rank) == 1]
            if single:
                card = single[0]
                word = {0: "nine", 1: "ten", 2: "jack", 3: "queen", 4: "king", 5: "ace"}
                result = table.act(f"I'd play the {word[card.rank]}")
                assert result.verdict.legal and result.verdict.action is card
                return
        table.act(table.legal()[0])
    pytest.fail("no play with a single card of its rank came up")


def test_seat_answers_still_win_over_cards_in_a_trick() -> None:
    trick = TrickWinnerStep(id="t", trump=Trump.H, trick=tuple(parse_cards("AS KS")),
                            seats=(Seat.N, Seat.E))
    assert trick.judge("North").correct
