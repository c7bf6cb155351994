"""A judgement missed comes back: a wrong answer in the bid, declare, exchange or defend
drill makes a review card of that judgement's kind and theme (never the analysis's own rule,
which no question reviews), due later, and the review asks a fresh position of the same kind
and theme; ``progress`` and ``review`` agree on what is due."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pepper_tutor.teaching.drills.quiz import QuizSession
from pepper_tutor.teaching.drills.screened import step_theme
from pepper_tutor.teaching.learner.progress import progress_summary
from pepper_tutor.teaching.learner.review_cards import JUDGED, ReviewDeck, judgement_key
from pepper_tutor.teaching.learner.store import LearnerStore
from pepper_tutor.teaching.questions.choice_steps import ChoiceStep
from pepper_tutor.teaching.review.session import ReviewSession


def _miss(kind: str, store: LearnerStore, seed: int) -> ChoiceStep:
    """Answer one question of the drill wrongly (a legal answer the analysis rejects)."""
    quiz = QuizSession(kind, seed=seed, store=store)
    q = quiz.question
    assert isinstance(q, ChoiceStep)
    wrong = next(a for a in q.legal_answers() if a not in q.accept)
    feedback = quiz.answer(wrong)
    assert not feedback.correct
    return q


@pytest.mark.parametrize("kind", ["bid", "declare", "exchange", "defend"])
def test_a_missed_judgement_is_due_later_and_comes_back_as_a_fresh_position(kind, tmp_path):
    store = LearnerStore("ann", tmp_path)
    missed = _miss(kind, store, seed=3)
    key = judgement_key(kind, step_theme(missed))
    now = datetime.now(UTC)
    deck = ReviewDeck(store)
    assert [i.rule for i in deck.items()] == [key]  # no card under the analysis's rule
    assert JUDGED not in store.review_cards()
    assert deck.due(now) == []  # later, not at once
    later = now + timedelta(days=2)
    session = ReviewSession(store, seed=1, at=later)
    assert [i.rule for i in session.items] == [key]
    q = session.question
    assert isinstance(q, ChoiceStep) and q.kind == kind and session.fresh
    assert step_theme(q) == step_theme(missed)  # the same theme
    assert q.situation().key != missed.situation().key  # a new position
    # progress and review agree on what is due, and name it in words
    due = progress_summary(store, later).due
    assert [i.rule for i in due] == [i.rule for i in session.items]
    assert due[0].title.startswith("Judging")
    feedback = session.answer(q.accept[0])
    assert feedback.correct
    assert ReviewDeck(store).due(later) == []  # answered right: pushed further out


def test_a_card_from_before_judgement_keys_is_served_too(tmp_path):
    """Stores written before this change hold ``analysis.double-dummy`` from a drill: it is
    served as a fresh position of that drill, not left due for ever."""
    store = LearnerStore("bo", tmp_path)
    t0 = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
    ReviewDeck(store).missed([JUDGED], "quiz defend", at=t0)
    later = t0 + timedelta(days=2)
    session = ReviewSession(store, seed=2, at=later)
    assert [i.rule for i in session.items] == [JUDGED]
    assert isinstance(session.question, ChoiceStep) and session.question.kind == "defend"
    assert [i.rule for i in progress_summary(store, later).due] == [JUDGED]


def test_an_illegal_answer_in_a_judgement_drill_is_carded_by_the_rule_it_breaks(tmp_path):
    store = LearnerStore("cy", tmp_path)
    quiz = QuizSession("bid", seed=5, store=store)
    illegal = None
    for _ in range(10):  # a question with a standing bid, where some calls do not top it
        q = quiz.question
        assert isinstance(q, ChoiceStep)
        # typed, not offered: the choices offered are the legal ones
        illegal = next((o.value for o in q.choices() if not q.verdict(o.value).legal), None)
        if illegal is not None:
            break
        quiz.answer(q.accept[0])
        quiz.next_question()
    assert illegal is not None
    assert not quiz.answer(illegal).correct
    cards = store.review_cards()
    assert cards and all(not r.startswith("judgement.") and r != JUDGED for r in cards)


def test_a_judgement_missed_at_the_practice_table_becomes_a_review_card(tmp_path):
    """Passing a hand worth a high bid, at the table: a Blunder, kept as a bid card that the
    review serves as a fresh bid position."""
    from pepper_tutor import Bid
    from pepper_tutor.teaching.practice.table import PracticeTable

    store = LearnerStore("di", tmp_path)
    table = PracticeTable(seed=1, coach=True, coach_samples=20, history=False, store=store)
    # Give the learner a hand that must bid: both bowers, A♥ K♥ and two aces.
    from pepper_tutor import HandState
    from pepper_tutor.engine.seats import Seat

    table.state = HandState.from_hands({"E": ["TH", "QS", "KS", "9S", "TS", "9C"],
                                        "S": ["JH", "JD", "AH", "KH", "AS", "AC"],
                                        "W": ["TC", "KC", "JC", "QH", "9H", "9D"],
                                        "N": ["QC", "JS", "QD", "KD", "TD", "AD"]}, dealer="N")
    table.play_bots()  # East calls first
    assert table.state.to_act is Seat.S
    result = table.act(Bid.PASS)
    assert result.coach is not None and result.coach.grade in ("Mistake", "Blunder")
    assert list(store.review_cards()) == ["judgement.bid.bid"]
    session = ReviewSession(store, seed=1, at=datetime.now(UTC) + timedelta(days=2))
    q = session.question
    assert isinstance(q, ChoiceStep) and q.kind == "bid" and step_theme(q) == "bid"


def test_a_grade_refined_over_more_deals_keeps_one_review_card_a_decision(tmp_path,
                                                                           monkeypatch):
    """The browser page's table grades over a few deals, then over more: the judgement
    missed becomes one card, not one a step."""
    from pepper_tutor import Bid, HandState
    from pepper_tutor.engine.seats import Seat
    from pepper_tutor.teaching.practice.table import PracticeTable

    store = LearnerStore("di", tmp_path)
    recorded = []
    keep = store.record
    monkeypatch.setattr(store, "record", lambda attempt: (recorded.append(attempt),
                                                          keep(attempt))[1])
    table = PracticeTable(seed=1, coach=True, coach_samples=20, history=False, store=store,
                          refine_samples=(40,))
    table.state = HandState.from_hands({"E": ["TH", "QS", "KS", "9S", "TS", "9C"],
                                        "S": ["JH", "JD", "AH", "KH", "AS", "AC"],
                                        "W": ["TC", "KC", "JC", "QH", "9H", "9D"],
                                        "N": ["QC", "JS", "QD", "KD", "TD", "AD"]}, dealer="N")
    table.play_bots()
    assert table.state.to_act is Seat.S
    first = table.act(Bid.PASS).coach
    assert first is not None and first.grade in ("Mistake", "Blunder") and len(recorded) == 1
    refinement = table.refine_last()
    assert refinement is not None and not refinement.more
    surer = table.learner_decisions[-1].coach
    assert surer is not None and surer.samples == 40 and surer.grade in ("Mistake", "Blunder")
    assert len(recorded) == 1 and list(store.review_cards()) == ["judgement.bid.bid"]
