"""Every step kind through the lesson core, with right and wrong answers."""

import os
from unittest import mock

import pytest

from pepper_tutor import Bid, Card, Defense, Mode, Seat, Trump, get_rule, get_ruleset
from pepper_tutor.rulebook.book import RULE_IDS_ENV
from pepper_tutor.rulebook.feedback import AnswerError
from pepper_tutor.teaching.questions.choice_steps import (
    BidStep,
    DeclareStep,
    DefendStep,
    ExchangeStep,
)
from pepper_tutor.teaching.questions.steps import (
    LegalPlaysStep,
    PlayStep,
    RankStep,
    ScoreStep,
    TrickWinnerStep,
)


def cards(text):
    return tuple(Card.parse(c) for c in text.split())


def quotes(fb, *rule_ids):
    """The rules are named in a player's words (titles, never ids), and by id only in the
    opt-in rule ids view; a first miss names no rule, a right answer names each by title."""
    assert "rule: " not in fb.full_text
    for rid in rule_ids:
        assert rid in fb.rule_ids, (rid, fb.rule_ids)
        rule = get_rule(rid)
        if "." in rid:  # a one-word id ("deck") is an ordinary word of the text
            assert rid not in fb.full_text
        if fb.correct:
            assert rule.title in fb.text
        if fb.first_miss:  # a title can name the answer: no rule is named by it
            assert all(kind != "rules" and (kind != "quote" or text.startswith("Rule: "))
                       for kind, text in fb.parts(full=True))
        if rid not in fb.held_back:
            name = rule.title if not fb.first_miss else "Rule"
            assert f"{name}: {rule.text}" in fb.full_text  # the text on request
    with mock.patch.dict(os.environ, {RULE_IDS_ENV: "1"}):
        for rid in rule_ids:
            assert "rule: " in fb.text and rid in fb.text  # the id as a label, short
            if rid not in fb.held_back:
                assert f"{rid}: {get_rule(rid).text}" in fb.full_text


def test_rank():
    step = RankStep(id="r", trump=Trump.H, cards=cards("AH JD JH KH"))
    assert step.answer_text() == "J♥ J♦ A♥ K♥"
    assert step.judge("JH JD AH KH").correct
    fb = step.judge("JH AH JD KH")
    assert not fb.correct
    assert "You put the A♥ above the J♦" in fb.text
    assert "With hearts trump the J♦ is the left bower, a heart" in fb.text
    quotes(fb, "rank.left-bower")
    with pytest.raises(AnswerError, match="each once"):
        step.judge("JH JD AH")


def test_rank_plain_and_no_trump():
    step = RankStep(id="r", trump=Trump.NT, cards=cards("JD AD QD"))
    fb = step.judge("JD AD QD")
    assert not fb.correct and fb.rule_ids == ("rank.no-trump",)
    assert RankStep(id="x", trump=Trump.H, cards=cards("AC AD")).problems()


def test_trick_winner():
    step = TrickWinnerStep(id="t", trump=Trump.H, trick=cards("JD AH 9S QH"))
    assert step.judge("J♦").correct and step.judge(1).correct
    fb = step.judge("AH")
    assert not fb.correct and "The A♥ does not win this trick" in fb.text
    quotes(fb, "rank.left-bower", "play.trick-winner")
    with pytest.raises(AnswerError, match="not in this trick"):
        step.judge("KS")


def test_legal_plays_both_left_bower_traps():
    trump_lead = LegalPlaysStep(id="l", trump=Trump.H, trick=cards("9H"), hand=cards("JD KD AS"))
    assert trump_lead.judge("JD").correct
    fb = trump_lead.judge("KD")
    assert "The K♦ may not be played" in fb.text and "The J♦ may be played too" in fb.text
    quotes(fb, "play.follow-suit", "play.left-bower-suit")
    printed = LegalPlaysStep(id="p", trump=Trump.H, trick=cards("AD"), hand=cards("JD KD AS"))
    fb = printed.judge("JD KD")
    assert not fb.correct and "cannot follow diamonds" in fb.text
    assert printed.judge("KD").correct


def test_play_shows_the_consequence():
    # A♦ follows but loses to the left bower; 9♥ is not allowed (must follow diamonds).
    step = PlayStep(id="p", trump=Trump.H, trick=cards("KD"), hand=cards("AD TD 9C"),
                    after=cards("QD"))
    assert step.judge("AD").correct and not step.judge("TD").correct
    trap = PlayStep(id="q", trump=Trump.H, trick=(), hand=cards("AD 9C"), after=cards("QD JD"))
    fb = trap.judge("AD")
    assert not fb.correct and fb.consequence == (
        "If you play the A♦, the J♦ — a heart this hand — takes the trick.")
    assert trap.problems() == ["no legal card wins this trick, so the step has no right answer"]


def test_bid_step_legal_and_judgement():
    step = BidStep(id="b", hand=cards("JH JD AH KH AS AC"), dealer=Seat.W, auction=(Bid.FOUR,),
                   accept=(Bid.SIX, Bid.LITTLE_PEPPER), reason="Four sure trumps and two aces.")
    assert step.problems() == ["a step that accepts several answers needs a reason for each "
                               "(accept: [{answer: ..., reason: ...}]); none for 6, little "
                               "pepper"]
    step.reasons = {"6": "Six is safe.", "LP": "Little pepper pays 7."}
    assert step.seat is Seat.E and not step.problems()
    assert step.judge("6").correct and step.judge("little pepper").correct
    fb = step.judge("3")
    assert not fb.correct and "does not top it" in fb.text
    quotes(fb, "bid.must-top")
    fb = step.judge("5")  # legal but worse: the analysis says why, about this very bid
    assert not fb.correct and fb.text.startswith("Not quite.\nBidding 5 ")
    assert "points against bidding" in fb.text and "you expect about" in fb.text
    assert fb.answer_reason == "Four sure trumps and two aces."  # shown with the reveal
    bad = BidStep(id="x", hand=cards("JH JD AH KH AS AC"), auction=(Bid.FOUR,),
                  accept=(Bid.THREE,), reason="r")
    assert any("breaks the rules" in p for p in bad.problems())


def test_declare_mode_big_pepper_and_trump():
    bp = DeclareStep(id="d", choose="mode", hand=cards("JH JD AH KH QH AS"),
                     bid=Bid.BIG_PEPPER, accept=("alone",), reason="Big pepper is alone.")
    assert not bp.problems() and bp.judge("alone").correct
    fb = bp.judge("exchange")
    assert not fb.correct and "no exchange" in fb.text
    quotes(fb, "declare.big-pepper")
    lp = DeclareStep(id="e", choose="mode", hand=cards("JH JD AH KH QH AS"),
                     bid=Bid.LITTLE_PEPPER, accept=(Mode.EXCHANGE,), reason="Swap for a trump.")
    assert lp.judge("exchange").correct
    fb = lp.judge("alone")
    assert not fb.correct and "no going alone without the exchange" in fb.text
    trump = DeclareStep(id="t", choose="trump", hand=cards("JH JD AH KH QH AS"), bid=Bid.FOUR,
                        accept=(Trump.H,), reason="Five hearts counting the J♦.")
    assert trump.judge("hearts").correct and not trump.judge("S").correct


def test_exchange_both_seats():
    bidder = ExchangeStep(id="x", role="bidder", hand=cards("JH JD AH KH 9C AS"), trump=Trump.H,
                          accept=(Card.parse("9C"),), reason="The lone club is worthless.")
    assert not bidder.problems() and bidder.judge("9c").correct
    fb = bidder.judge("QS")
    assert not fb.correct and "does not hold the Q♠" in fb.text
    quotes(fb, "declare.exchange")
    partner = ExchangeStep(id="p", role="partner", hand=cards("JH 9D TS QS KC AC"),
                           trump=Trump.H, accept=(Card.parse("JH"),),
                           reason="Send the right bower.")
    assert not partner.problems() and partner.judge("JH").correct
    assert not partner.judge("AC").correct


def test_defend_dirty_clubs():
    step = DefendStep(id="d", trump=Trump.C, bid=Bid.THREE, accept=(Defense.PLAY,),
                      reason="Dirty clubs: no surrender.",
                      rules=get_ruleset("standard", dirty_clubs=True))
    assert not step.problems() and step.judge("play").correct
    fb = step.judge("surrender")
    assert not fb.correct and "Clubs are trumps" in fb.text
    quotes(fb, "variant.dirty-clubs", "defend.surrender")
    wrong = DefendStep(id="w", trump=Trump.C, bid=Bid.THREE, accept=(Defense.SURRENDER,),
                       reason="r", rules=get_ruleset("standard", dirty_clubs=True))
    assert any("breaks the rules" in p for p in wrong.problems())


def test_score():
    step = ScoreStep(id="s", bid=Bid.FOUR, bidder=Seat.N, tricks={"NS": 6, "EW": 0})
    assert step.judge("4 -4").correct and step.judge("NS 4 EW -4").correct
    assert step.judge({"NS": 4, "EW": -4}).correct
    fb = step.judge("6 0")
    assert not fb.correct and "NS +4, not +6: " in fb.text and "EW -4, not +0: " in fb.text
    quotes(fb, "score.bid", "score.sweep")
    with pytest.raises(AnswerError):
        step.judge("four")
    cut = ScoreStep(id="c", bid=Bid.TWO, bidder=Seat.N, tricks={"N": 3, "E": 2, "S": 1},
                    rules=get_ruleset("cutthroat"))
    assert cut.judge("N 3 E 2 S 1").correct and not cut.problems()


def test_hint_ladder_nudge_rule_answer():
    step = TrickWinnerStep(id="t", trump=Trump.H, trick=cards("JD AH 9S QH"), hint="Jacks!")
    nudge, rule, answer = step.hints()
    text = get_rule("rank.left-bower").text
    # the rule's text, not its title ("The left bower" would name the answer) nor its id
    assert nudge == "Jacks!" and rule.startswith(text) and answer.endswith("the J♦ wins")
    assert "[rank.left-bower]" not in rule
    with mock.patch.dict(os.environ, {RULE_IDS_ENV: "1"}):
        assert step.hints()[1].startswith(f"[rank.left-bower] {text}")  # the rule ids view


# ---- the situation seam -------------------------------------------------------------------


def test_a_situation_key_is_stable_text_of_what_is_shown() -> None:
    from pepper_tutor.engine.calls import Bid, Trump
    from pepper_tutor.engine.cards import parse_cards
    from pepper_tutor.engine.seats import Seat
    from pepper_tutor.teaching.questions.situation import Situation

    s = Situation(trump=Trump.H, trick=tuple(parse_cards("JD AH")), seats=(Seat.N, Seat.E))
    assert s.key == "trump=H;trick=JD AH;seats=N E"
    assert Situation(bid=Bid.FOUR, tricks=(("NS", 4), ("EW", 2))).key == "bid=FOUR;tricks=NS:4,EW:2"
    # frozen, hashable, equal by value: the same position is the same situation
    assert s == Situation(trump=Trump.H, trick=tuple(parse_cards("JD AH")), seats=(Seat.N, Seat.E))
    assert len({s, Situation(trump=Trump.H, trick=tuple(parse_cards("JD AH")),
                             seats=(Seat.N, Seat.E))}) == 1


def test_every_step_kind_shows_a_situation_and_has_an_identity() -> None:
    import random

    from pepper_tutor.teaching.drills.quiz import JUDGEMENT_KINDS, QUIZ_KINDS, make_question
    from pepper_tutor.teaching.lessons.files import all_lessons
    from pepper_tutor.teaching.questions.situation import Situation

    kinds = [k for k in QUIZ_KINDS if k not in JUDGEMENT_KINDS]

    def quiz_steps(seed: int) -> list:
        rng = random.Random(seed)
        return [make_question(k, rng) for k in kinds for _ in range(5)]

    steps = [s for lesson in all_lessons() for s in lesson.steps] + quiz_steps(3)
    for step in steps:
        situation = step.situation()
        assert isinstance(situation, Situation)
        assert step.identity == f"{step.kind}|{step.prompt}|{situation.key}"
        assert "0x" not in step.identity  # no object addresses: the same in every run
    assert [q.identity for q in quiz_steps(3)] == [q.identity for q in quiz_steps(3)]


def test_a_step_kind_says_how_lessons_write_it_and_how_it_is_answered() -> None:
    """Adding a step kind is one class: the lesson reader's fields, required fields and
    default prompt, and the answer's shape for the widgets, all come from it."""
    from pepper_tutor.teaching.lessons.files import DEFAULT_PROMPTS, FIELDS, REQUIRED, STEP_KINDS

    for kind, cls in STEP_KINDS.items():
        assert cls.kind == kind
        assert set(cls.lesson_required) <= set(cls.lesson_fields), kind
        assert FIELDS[kind] == cls.lesson_fields and REQUIRED[kind] == cls.lesson_required
        assert cls.answer_shape in ("choice", "order", "set", "sides"), kind
        assert kind == "explain" or DEFAULT_PROMPTS[kind].endswith("?") or \
            DEFAULT_PROMPTS[kind].endswith(".")
    assert {k: c.answer_shape for k, c in STEP_KINDS.items() if c.answer_shape != "choice"} == {
        "rank": "order", "legal-plays": "set", "score": "sides"}
