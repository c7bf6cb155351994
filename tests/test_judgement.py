"""Judgement steps against the auction-aware analysis, short feedback, drills and coverage."""

import random
import re
import statistics
from pathlib import Path

import pytest

from pepper_tutor.apps.cli import main
from pepper_tutor.engine.calls import Bid, Trump
from pepper_tutor.engine.cards import Card
from pepper_tutor.engine.seats import Seat
from pepper_tutor.rulebook.book import get_rule
from pepper_tutor.rulebook.feedback import ANSWER_PREFIX, AnswerError
from pepper_tutor.teaching.drills.positions import JUDGEMENT_DRILLS
from pepper_tutor.teaching.drills.quiz import QUIZ_KINDS, QuizSession, make_question
from pepper_tutor.teaching.lessons.files import all_lessons, check_lesson, find_lesson
from pepper_tutor.teaching.lessons.session import LessonSession
from pepper_tutor.teaching.questions.choice_steps import BidStep, ChoiceStep, clearly_worse
from pepper_tutor.teaching.questions.table_steps import TableStep
from tests.answering import right_answer
from tests.coverage import (
    explained_rule_ids,
    lesson_rule_ids,
    quiz_rule_ids,
    rulebook_ids,
)

GENERIC = "is allowed, but it is not the best choice"


@pytest.fixture(scope="module")
def lessons():
    """Loaded once: each step caches its analysis, so the check, the hints and the reasons
    below share the same sampled deals."""
    return all_lessons()


def judgement_steps(lessons):
    return [(lesson, s) for lesson in lessons for s in lesson.steps
            if isinstance(s, ChoiceStep)]


@pytest.mark.slow
def test_every_judgement_step_passes_the_stricter_check(lessons):
    for lesson in lessons:
        assert check_lesson(lesson, analysis=True) == [], lesson.id


@pytest.mark.slow
def test_the_check_fails_an_accepted_answer_the_analysis_finds_clearly_worse(tmp_path,
                                                                             capsys):
    text = (Path(__file__).parents[1] / "lessons" / "04-bidding.yaml").read_text()
    # Over a 6 with five top clubs and an ace: little pepper alone is clearly worse than BP.
    bad = text.replace("    accept: [BP]\n", "    accept: [LP]\n").replace(
        "      - answer: LP\n        note: >\n          Little pepper makes too",
        "      - answer: BP\n        note: >\n          Little pepper makes too")
    path = tmp_path / "bidding.yaml"
    path.write_text(bad)
    assert main(["lesson", "--check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "step over-a-six (bid): the lesson accepts little pepper" in err
    assert "big pepper is better by more than the analysis's 95% interval" in err


def test_the_check_fails_when_a_tie_is_only_half_accepted(lessons):
    step = next(s for _, s in judgement_steps(lessons) if s.id == "send-left-bower")
    assert {str(a) for a in step.accept} == {"JH", "AD"}  # the analysis cannot tell them apart
    step.accept = (Card.parse("JH"),)
    try:
        problems = step.analysis_problems()
    finally:
        step.accept = (Card.parse("JH"), Card.parse("AD"))
    assert len(problems) == 1 and problems[0].startswith("A♦ is within the analysis's 95% "
                                                         "interval of J♥")
    assert "accept both, with a reason for each, or change the position" in problems[0]


def test_a_departure_from_the_analysis_is_said_and_shown(lessons):
    step = find_lesson("bidding").step("opening-bid")
    assert step.disagree and not step.analysis_problems()
    assert "This lesson departs from it here: The analysis prefers 5" in step.analysis_hint()


def test_every_wrong_judgement_option_gets_a_reason_about_that_option(lessons):
    for _, step in judgement_steps(lessons):
        for answer in step.legal_answers():
            if answer in step.accept:
                continue
            fb = step.judge(answer)
            assert not fb.correct and fb.verdict, (step.id, answer)
            words = " ".join(fb.verdict)
            assert GENERIC not in words, (step.id, answer)
            if not step.wrong.get(step.key(answer)):  # no author's note: the analysis speaks
                assert words.startswith(step.choice_words(answer)), (step.id, words)
                assert re.search(r"(gives up|costs) about [\d.]+ points?", words), words
                assert "analysis.double-dummy" in fb.rule_ids


def test_the_analysis_reason_names_the_cards_and_tricks(lessons):
    step = find_lesson("bidding").step("opening-bid")
    why = step.analysis_reason(Bid.PASS)
    # A pass is worth what follows it (here the other seats' contracts: less than nothing),
    # so it "costs" rather than "gives up" points: either verb names the loss.
    assert why is not None and why.startswith(("Passing gives up about ", "Passing costs about "))
    assert "with J♦ J♥ A♣" in why and "you expect about" in why and "tricks in diamonds" in why


def test_the_hint_ranks_the_answers_best_first_with_the_figure(lessons):
    for _, step in judgement_steps(lessons):
        if not step.has_analysis:
            continue
        hint = step.analysis_hint()
        assert "Best first" in hint
        figures = [float(m) for m in re.findall(r"^  \d\. [^:]+: ([+-][\d.]+)", hint, re.M)]
        assert len(figures) >= 2 and figures == sorted(figures, reverse=True), hint


def test_the_reveal_says_the_answer_once_with_the_reason(lessons):
    lesson = find_lesson("bidding")
    session = LessonSession(lesson)
    while session.step.id != "everyone-passed":
        session.next()
    session.answer("2")
    fb = session.answer("3")  # the second wrong try reveals the answer
    assert fb.revealed and fb.text.count(ANSWER_PREFIX) == 1
    assert "No jacks, no aces, nothing to build on." in fb.text  # the reason, with it
    shown = session.reveal()
    assert shown.text.count(ANSWER_PREFIX) == 1 and shown.text.startswith(ANSWER_PREFIX)
    assert "No jacks, no aces" in shown.text


def test_a_rule_is_quoted_in_full_once_per_lesson_and_on_request():
    session = LessonSession(find_lesson("bowers"))
    quoted = []
    while not session.finished:
        step = session.step
        if step.answerable:
            wrong = next((fb for fb in _wrong_answers(step)), None)
            if wrong is not None:
                fb = session.answer(next(k for k in [*step.wrong, *(o.value for o in
                                                                   step.options())]
                                         if _is_wrong(step, k)))
                # a wrong answer's panel names no rule (no id, no title that could name
                # the answer); the rule opens on request
                assert not fb.quote_ids
                assert "rule: " not in fb.text and "Rule: " not in fb.text
                # (a rule whose text names the answer opens once the answer is given)
                readable = [r for r in fb.rule_ids if r not in fb.held_back]
                if fb.rule_ids:
                    assert session.rule_text().startswith(
                        f"Rule: {get_rule(readable[0]).text}" if readable else "The rest: ")
            right = session.answer(right_answer(step))
            assert right.correct
            quoted += list(right.quote_ids)  # the rule in full, the first time it is met
            assert set(right.quote_ids) <= set(right.rule_ids)
        session.next()
    assert quoted and len(quoted) == len(set(quoted))  # never twice in one lesson


def _is_wrong(step, raw):
    try:
        return not step.judge(raw).correct
    except (AnswerError, ValueError):
        return False


def _wrong_answers(step):
    for raw in [o.value for o in step.options()] + list(step.wrong):
        try:
            fb = step.judge(raw)
        except (AnswerError, ValueError):
            continue
        if not fb.correct:
            yield fb


def test_wrong_answer_panels_are_short(lessons):
    words = [fb.words for lesson in lessons for step in lesson.answerable_steps
             for fb in _wrong_answers(step)]
    rng = random.Random(7)
    quiz = []
    for kind in [k for k in QUIZ_KINDS if k not in JUDGEMENT_DRILLS]:
        for n in range(60):
            q = make_question(kind, rng, n)
            if isinstance(q, TableStep) or q.options():
                quiz += [fb.words for fb in _wrong_answers(q)]
            else:  # score questions: one point off for the first side
                right = q.computed().points if hasattr(q, "computed") else {}
                off = {s: v + 1 for s, v in right.items()}
                quiz.append(q.judge(off).words)
    for kind in JUDGEMENT_DRILLS:
        q = make_question(kind, random.Random(3), 1)
        quiz += [fb.words for fb in _wrong_answers(q)]
    every = words + quiz
    print(f"\nwrong-answer panels: lessons {len(words)} (median {statistics.median(words)}, "
          f"longest {max(words)} words), quiz sample {len(quiz)} (median "
          f"{statistics.median(quiz)}, longest {max(quiz)})")
    assert statistics.median(every) < 40 and max(every) <= 60


def test_coverage_of_the_rulebook(lessons):
    ids = rulebook_ids()
    asked = lesson_rule_ids(lessons)
    explained = explained_rule_ids(lessons)
    quick = {k: 1 for k in JUDGEMENT_DRILLS}
    by_kind = quiz_rule_ids(QUIZ_KINDS, questions=150, per_kind=quick)
    quizzed = set().union(*by_kind.values())
    in_lessons = sum(r in asked for r in ids)
    in_quizzes = sum(r in quizzed for r in ids)
    print(f"\nlessons {in_lessons}/{len(ids)}, quizzes {in_quizzes}/{len(ids)}")
    print("not asked in a lesson (each explained there):", [r for r in ids if r not in asked])
    print("not reached by a quiz:", [r for r in ids if r not in quizzed])
    assert all(r in asked or r in explained for r in ids)
    assert in_quizzes >= 0.8 * len(ids)
    for kind, found in by_kind.items():
        assert found, kind


@pytest.mark.parametrize("kind", list(JUDGEMENT_DRILLS))
def test_judgement_drills_keep_only_clear_positions(kind):
    q = make_question(kind, random.Random(11), 1)
    assert isinstance(q, ChoiceStep) and q.accept and "analysis.double-dummy" in q.rule_ids
    values = q.valued()
    best = [v for v in values if v.answer in q.accept]
    rest = [v for v in values if v.answer not in q.accept]
    assert best and rest and best[0] == values[0]
    assert all(clearly_worse(best[-1], v) for v in rest)
    assert rest[0].worth.mean <= best[-1].worth.mean - 1.0
    assert q.judge(q.accept[0]).correct
    fb = q.judge(rest[0].answer)
    assert not fb.correct and re.search(r"(gives up|costs) about", fb.text)


def test_rules_drills_are_answered_by_the_engine():
    step = TableStep(id="t", ask="first-call", dealer=Seat.N)
    assert step.answer_text() == "East" and step.judge("e").correct
    fb = step.judge("north")
    assert not fb.correct and fb.rule_ids == ("bid.order",)
    rng = random.Random(2)
    seen = set()
    for n in range(120):
        q = make_question("table", rng, n)
        assert not q.problems() and q.judge(q.answer_text()).correct, q.prompt
        seen |= set(q.rule_ids)
    assert {"bid.order", "play.lead", "play.turn", "game.deal-rotation", "cutthroat.auction",
            "cutthroat.deal", "bid.all-pass"} <= seen


def test_quiz_questions_carry_their_rule_ids():
    q = make_question("tricks", random.Random(4), 1)
    assert "play.trick-winner" in q.rule_ids
    assert make_question("game", random.Random(4), 1).rule_ids[0].startswith("game.")


def test_a_judgement_drill_is_quick_enough_to_follow_in_a_session():
    quiz = QuizSession("defend", seed=5)
    first = quiz.question
    assert first is not None and first.accept
    fb = quiz.answer("surrender" if first.accept[0].value == "play" else "play")
    assert fb.revealed and fb.text.count(ANSWER_PREFIX) == 1
    assert quiz.next_question() is not first


def test_bid_step_of_a_trump_restricted_drill_values_levels():
    step = BidStep(id="b", hand=tuple(Card.parse(c) for c in ["JH", "JD", "AH", "KH", "AS", "AC"]),
                   analysis_samples=16, analysis_trumps=(Trump.H, Trump.NT))
    values = step.valued()
    assert values[0].answer is not Bid.PASS and values[0].option.trump in (Trump.H, Trump.NT)
