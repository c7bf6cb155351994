"""Generated quizzes: reproducible by seed, weighted toward the traps, right by the rules."""

import random

import pytest

from pepper_tutor.engine.ranking import bower
from pepper_tutor.teaching.drills.quiz import (
    JUDGEMENT_KINDS,
    QUIZ_KINDS,
    QuizSession,
    make_question,
)

from . import reference

N = 3000


def test_trick_answers_agree_with_the_reference_rules():
    rng = random.Random(1)
    lefts = nts = threes = 0
    for n in range(N):
        q = make_question("tricks", rng, n)
        cards = [str(c) for c in q.trick]
        t = str(q.trump)
        assert str(q.winner()) == cards[reference.winner(cards, t)]
        assert q.judge(str(q.winner())).correct
        assert not q.problems()
        lefts += any(bower(c, q.trump) == "left" for c in q.trick)
        nts += t == "NT"
        threes += len(cards) == 3
    assert lefts > N * 0.3 and nts > N * 0.1 and threes > N * 0.2  # traps come often


def test_legal_answers_agree_with_the_reference_rules():
    rng = random.Random(2)
    for n in range(N):
        q = make_question("legal", rng, n)
        hand = [str(c) for c in q.hand]
        expect = reference.legal(hand, str(q.trick[0]), str(q.trump))
        assert sorted(str(c) for c in q.legal()) == sorted(expect)
        assert q.judge(" ".join(expect)).correct


def test_bowers_answers_agree_with_the_reference_rules():
    rng = random.Random(3)
    for n in range(N):
        q = make_question("bowers", rng, n)
        t = str(q.trump)
        expect = sorted((str(c) for c in q.cards), key=lambda c: -reference.strength(c, t))
        assert [str(c) for c in q.order()] == expect
        assert not q.problems()


def test_score_answers_agree_with_the_reference_tables():
    rng = random.Random(4)
    for n in range(N):
        q = make_question("score", rng, n)
        side = q.rules.side_of(q.bidder)
        expect = reference.score(q.rules.preset, str(q.bid), side, q.tricks,
                                 q.defense.value == "surrender")
        assert q.computed().points == expect
        assert q.judge(expect).correct


@pytest.mark.parametrize("kind", QUIZ_KINDS)
def test_same_seed_same_questions(kind):
    a, b = QuizSession(kind, seed=9), QuizSession(kind, seed=9)
    for _ in range(2 if kind in JUDGEMENT_KINDS else 20):  # judgement drills are analysed
        assert a.question.prompt == b.question.prompt
        assert a.question.answer_text() == b.question.answer_text()
        a.next_question()
        b.next_question()


def test_streak_and_running_score():
    quiz = QuizSession("tricks", seed=5)
    assert quiz.answer(str(quiz.question.winner())).correct
    quiz.next_question()
    wrong = next(c for c in quiz.question.trick if c is not quiz.question.winner())
    fb = quiz.answer(str(wrong))
    assert not fb.correct and fb.revealed and quiz.streak == 0 and quiz.best_streak == 1
    assert quiz.score_text.startswith("1/2 right")


def test_unknown_quiz_kind():
    with pytest.raises(ValueError, match="no quiz 'poker'"):
        QuizSession("poker")


def test_three_card_tricks_say_that_a_partner_sits_out():
    rng = random.Random(4)
    qs = [make_question("tricks", rng, i) for i in range(300)]
    three = [q for q in qs if len(q.trick) == 3]
    assert three and all("partner sits out" in q.prompt for q in three)
    assert not any("sits out" in q.prompt for q in qs if len(q.trick) == 4)


def test_simple_scoring_only_after_the_learner_has_met_it():
    before = QuizSession("score", seed=1)
    presets = set()
    for _ in range(200):
        presets.add(before.question.rules.preset)
        before.next_question()
    assert presets == {"standard"}
    after = QuizSession("score", seed=1, simple_met=True)
    presets = set()
    for _ in range(200):
        presets.add(after.question.rules.preset)
        after.next_question()
    assert presets == {"standard", "simple"}


def test_a_drill_does_not_repeat_a_position_while_new_ones_are_left():
    quiz = QuizSession("score", seed=5)
    seen = []
    for _ in range(100):
        q = quiz.question
        seen.append((q.prompt, q.bidder, tuple(sorted(q.tricks.items()))))
        quiz.next_question()
    assert len(set(seen)) == len(seen)


def test_bower_questions_on_the_suit_that_lost_its_jack_include_that_jack():
    from pepper_tutor.engine.ranking import EFFECTIVE_SUIT

    rng = random.Random(8)
    sister_questions = []
    for i in range(400):
        q = make_question("bowers", rng, i)
        if q.trump.suit is None:
            continue
        sister = q.trump.suit.sister
        if any(EFFECTIVE_SUIT[q.trump][c.index] == sister for c in q.cards):
            sister_questions.append(q)
    with_jack = [q for q in sister_questions
                 if any(c.rank.name == "JACK" and c.suit is q.trump.suit.sister
                        for c in q.cards)]
    assert sister_questions and len(with_jack) >= len(sister_questions) // 2
    for q in with_jack:  # the jack ranks among the trumps, above every card of its old suit
        assert q.order()[0].rank.name == "JACK" and q.problems() == []


def test_the_drill_names_are_those_of_the_positions_module() -> None:
    """quiz.py names the drills of positions.py without importing it (it loads the analysis):
    the names must stay the same, and a rules drill must not load it."""
    import subprocess
    import sys

    from pepper_tutor.teaching.drills import positions, quiz

    assert tuple(positions.JUDGEMENT_DRILLS) == quiz.JUDGEMENT_KINDS
    assert tuple(positions.RULES_DRILLS) == quiz.TABLE_KINDS
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys; from pepper_tutor.teaching.drills.quiz import "
         "LearnerStore, QuizSession; import tempfile, pathlib; s = QuizSession('tricks', seed=1, "
         "store=LearnerStore('t', pathlib.Path(tempfile.mkdtemp()))); s.reveal(); "
         "print('pepper_tutor.analysis.advice' in sys.modules)"],
        capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "False"
