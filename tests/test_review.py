"""Review: missed rules come back on an FSRS schedule, each time in a fresh position."""

import random
from datetime import UTC, datetime, timedelta
from itertools import pairwise

import pytest

from pepper_tutor.teaching.drills.quiz import QuizSession, make_question
from pepper_tutor.teaching.learner.attempts import Attempt
from pepper_tutor.teaching.learner.progress import MASTERY_RUN, progress_summary
from pepper_tutor.teaching.learner.review_cards import ReviewDeck, missed_rules, question_rules
from pepper_tutor.teaching.learner.store import LearnerStore
from pepper_tutor.teaching.lessons.files import find_lesson
from pepper_tutor.teaching.review.session import REVIEW_KINDS, ReviewSession, fresh_question
from tests.answering import right_answer, wrong_answer

T0 = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)


def test_a_missed_item_is_due_again_later_and_a_right_answer_pushes_it_further(tmp_path):
    deck = ReviewDeck(LearnerStore("ann", tmp_path))
    deck.missed(["rank.left-bower"], "quiz bowers", at=T0)
    (item,) = deck.items()
    assert T0 < item.due <= T0 + timedelta(hours=1)  # not now: later, and soon
    assert deck.due(T0) == [] and [i.rule for i in deck.due(T0 + timedelta(hours=1))] == [
        "rank.left-bower"]
    gaps = []
    at = T0 + timedelta(hours=1)
    for _ in range(4):  # answered right each time it is due: each gap longer than the last
        deck.reviewed("rank.left-bower", True, at=at)
        due = deck.items()[0].due
        gaps.append(due - at)
        at = due
    assert all(b > a for a, b in pairwise(gaps)), gaps
    assert gaps[-1] >= timedelta(days=2)
    deck.reviewed("rank.left-bower", False, at=at)  # forgotten: back soon
    lapsed = deck.items()[0]
    assert lapsed.due - at <= timedelta(hours=1) and lapsed.lapses == 1


@pytest.mark.parametrize("rule", ["rank.left-bower", "play.follow-suit", "score.sweep",
                                  "rank.no-trump", "score.surrender"])
def test_fresh_positions_test_the_same_rule(rule):
    rng = random.Random(7)
    first = fresh_question(rule, rng)
    assert first is not None and rule in question_rules(first)
    seen = [first.identity]
    for _ in range(3):
        q = fresh_question(rule, rng, avoid=seen)
        assert q is not None and rule in question_rules(q)
        key = q.identity
        assert key not in seen
        seen.append(key)


def test_a_quiz_miss_comes_back_as_a_new_position_and_quiz_answers_are_saved(tmp_path):
    store = LearnerStore("bo", tmp_path)
    quiz = QuizSession("bowers", seed=3, store=store)
    missed = quiz.question
    fb = quiz.answer(wrong_answer(missed))
    assert not fb.correct
    quiz.next_question()
    assert quiz.answer(right_answer(quiz.question)).correct
    saved = store.answers("quiz")
    assert [a.correct for a in saved] == [False, True] and saved[0].item == "bowers"
    rules = {i.rule for i in ReviewDeck(store).items()}
    assert rules and rules == set(missed_rules(missed, fb))  # the rules the answer missed
    later = datetime.now(UTC) + timedelta(hours=2)
    review = ReviewSession(store, seed=1, at=later)
    assert {i.rule for i in review.items} == rules
    asked = review.question
    assert asked is not None and review.fresh and review.item.rule in question_rules(asked)
    assert (asked.prompt, asked.situation()) != (missed.prompt, missed.situation())
    before = review.item.due
    assert review.answer(right_answer(asked)).correct
    rule = review.item.rule
    review.next()
    after = next(i for i in ReviewDeck(store).items() if i.rule == rule)
    assert after.due > later > before
    assert [a.source for a in store.answers()][-1] == "review"


def test_a_wrong_review_answer_is_due_again_soon(tmp_path):
    store = LearnerStore("cy", tmp_path)
    ReviewDeck(store).missed(["play.follow-suit"], "quiz legal", at=T0)
    review = ReviewSession(store, seed=2, at=T0 + timedelta(hours=1))
    fb = review.answer(wrong_answer(review.question))
    assert not fb.correct and fb.revealed
    (item,) = ReviewDeck(store).items()
    assert item.due <= T0 + timedelta(hours=2) and item.lapses == 1


def test_a_rule_no_quiz_reaches_comes_back_as_its_lesson_step(tmp_path):
    store = LearnerStore("di", tmp_path)
    reachable = {r for k in REVIEW_KINDS for i in range(200)
                 for r in question_rules(make_question(k, random.Random(i), i))}
    # Rules no drill a review draws from asks: one only an explain step mentions, one only
    # judgement steps (and judgement drills) ask.
    assert "play.own-cards" not in reachable and "bid.must-top" not in reachable
    ReviewDeck(store).missed(["play.own-cards"], "lesson the-exchange/your-own-cards", at=T0)
    ReviewDeck(store).missed(["bid.must-top"], "lesson bidding/over-a-four", at=T0)
    review = ReviewSession(store, seed=2, at=T0 + timedelta(hours=1))
    # The explain step cannot be asked, so only the bidding step comes back: as a new
    # position of the same judgement (a screened bid), not the lesson's own hand.
    assert review.item.rule == "bid.must-top" and review.fresh
    lesson_step = find_lesson("bidding").step("over-a-four")
    assert review.question.kind == "bid"
    assert review.question.situation().key != lesson_step.situation().key


def test_progress_counts_mastered_rules_due_reviews_and_streaks(tmp_path):
    store = LearnerStore("ed", tmp_path)
    for day in range(3):
        at = T0 + timedelta(days=day)
        for _ in range(MASTERY_RUN):
            store.record(Attempt("quiz", "legal", True, ("play.follow-suit",), at=at))
    store.record(Attempt("quiz", "tricks", False, ("rank.left-bower",), at=T0))
    ReviewDeck(store).missed(["rank.left-bower"], "quiz tricks", at=T0)
    p = progress_summary(store, at=T0 + timedelta(days=2, hours=1))
    assert p.mastered == ("play.follow-suit",) and p.rules_total >= 40
    assert [i.rule for i in p.due] == ["rank.left-bower"]
    assert p.streak == 3 and p.best_streak == 3
    assert p.quizzes == {"legal": (9, 9), "tricks": (0, 1)}
    text = "\n".join(p.lines)
    assert f"Rules mastered: 1 of {p.rules_total}" in text and "Streak: 3 days" in text
    # by title: a rule's id is for the opt-in rule ids view (issue 37)
    assert "Reviews due now: 1 (The left bower)" in text and "rank.left-bower" not in text
    later = progress_summary(store, at=T0 + timedelta(days=5))
    assert later.streak == 0 and later.best_streak == 3


def test_a_rule_just_missed_is_not_mastered_until_its_review_is_passed(tmp_path):
    store = LearnerStore("fi", tmp_path)
    store.record(Attempt("lesson", "bowers/x", False, ("rank.left-bower",), at=T0))
    ReviewDeck(store).missed(["rank.left-bower"], "lesson bowers/x", at=T0)
    for _ in range(MASTERY_RUN):
        store.record(Attempt("lesson", "bowers/y", True, ("rank.left-bower",), at=T0))
    assert progress_summary(store, at=T0).mastered == ()  # its card is not due yet, still


def test_a_card_nothing_can_ask_is_left_due_and_not_counted(tmp_path):
    """A judgement drill's miss of a rule no review drill asks (bid.must-top, from a quiz,
    not a lesson) cannot come back as a question: the session skips it, its count says
    how many were asked, and the card stays due for later."""
    store = LearnerStore("ed", tmp_path)
    ReviewDeck(store).missed(["bid.must-top"], "quiz bid", at=T0)
    ReviewDeck(store).missed(["play.follow-suit"], "quiz legal", at=T0 + timedelta(minutes=1))
    review = ReviewSession(store, seed=2, at=T0 + timedelta(hours=1))
    assert review.item.rule == "play.follow-suit" and len(review.items) == 1
    review.answer(wrong_answer(review.question))
    review.next()
    assert review.finished and review.question is None and len(review.items) == 1
    assert {i.rule for i in ReviewDeck(store).due(T0 + timedelta(hours=1))} == {"bid.must-top"}


def test_the_review_count_never_jumps_and_a_step_missed_on_two_rules_comes_once(tmp_path):
    """Issue 37: "3 of 6" then "4 of 4". The questions are chosen when the review opens: a
    card nothing can ask now is not counted, and two cards missed on one step that can only
    come back as that step are one question, whose answer rates both."""
    from datetime import UTC, datetime, timedelta

    from pepper_tutor.teaching.learner.review_cards import ReviewDeck
    from pepper_tutor.teaching.lessons.files import find_lesson
    from pepper_tutor.teaching.lessons.session import LessonSession
    from pepper_tutor.teaching.review.session import ReviewSession

    store = LearnerStore("kim", tmp_path)
    lesson = LessonSession(find_lesson("defending"), store)
    while lesson.step is not None and lesson.step.id != "dirty-clubs":
        lesson.next()
    lesson.answer("surrender")  # a miss: defend.surrender and variant.dirty-clubs
    lesson.reveal()
    later = datetime.now(UTC) + timedelta(days=30)
    ReviewDeck(store).missed(["bid.order"], "lesson no-such-lesson/gone", at=later)
    deck = ReviewDeck(store)
    assert len(deck.due(later + timedelta(days=30))) >= 3
    rs = ReviewSession(store, seed=1, at=later + timedelta(days=30), budget_s=0.2)
    total = len(rs.items)
    counts = []
    while not rs.finished:
        counts.append(rs.score_text.split(" · ")[0])
        assert "surrender" not in rs.header and "dirty" not in rs.header.lower()
        assert rs.question is not None and rs.answer(right_answer(rs.question)).correct
        rs.next()
    assert counts == [f"review {i} of {total}" for i in range(1, total + 1)]
    steps = [a.question.id for a in rs.asks if not a.fresh]
    assert steps.count("dirty-clubs") <= 1
    # every card of the step was rated by the one right answer: none is due at once
    due_now = {i.rule for i in ReviewDeck(store).due(later + timedelta(days=30, minutes=1))}
    assert not {"defend.surrender", "variant.dirty-clubs"} & due_now


def test_a_position_shown_before_is_not_called_new(tmp_path):
    from datetime import UTC, datetime, timedelta

    from pepper_tutor.teaching.learner.review_cards import ReviewDeck
    from pepper_tutor.teaching.review.session import ReviewSession

    store = LearnerStore("kim", tmp_path)
    ReviewDeck(store).missed(["play.follow-suit"], "quiz legal",
                             at=datetime.now(UTC) - timedelta(hours=2))
    first = ReviewSession(store, seed=4)
    q = first.question
    assert q is not None and first.where == "a new position"
    # the same position again (a quiz, a lesson, another review in this process)
    again = ReviewSession(LearnerStore("kim", tmp_path), seed=4)
    assert again.question is not None
    if again.question.identity == q.identity:
        assert again.where == "a position you have seen before"
    else:
        assert again.where == "a new position"


def test_a_review_after_a_restart_remembers_the_positions_shown(tmp_path, monkeypatch):
    """The issue's "a position seen ten minutes earlier called 'a new position'": what was
    shown lives in the learner store, not the running program."""
    from pepper_tutor.teaching.learner import store as learner_store

    at = datetime.now(UTC) - timedelta(hours=2)
    store = LearnerStore("kim", tmp_path)
    ReviewDeck(store).missed(["play.follow-suit"], "quiz legal", at=at)
    first = ReviewSession(store, seed=4)
    q = first.question
    assert q is not None and first.where == "a new position"
    store.close()
    monkeypatch.setattr(learner_store, "_SHOWN", {})  # the program restarted
    again = LearnerStore("kim", tmp_path)
    assert again.has_seen(q.identity) and again.has_seen(q.situation().key)
    later = ReviewSession(again, seed=4)  # the same seed: it would deal q again
    assert later.question is not None
    assert later.question.situation().key != q.situation().key
    assert later.where == "a new position"
