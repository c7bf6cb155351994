"""The notebook widgets, driven from Python: clicks, feedback, progress, errors shown."""

from importlib import resources
from pathlib import Path

import pytest

from pepper_tutor import get_rule, notebook
from pepper_tutor.records.annotate import annotate_file
from pepper_tutor.teaching.learner.store import LearnerStore
from pepper_tutor.teaching.lessons.files import find_lesson

HANDS = Path(str(resources.files("pepper_tutor").joinpath("data", "hands")))


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path))
    return tmp_path


def cards_of(widget):
    return {b.description: b for b in widget.panel.buttons
            if "pepper-card" in b._dom_classes}


def test_lesson_widget_wrong_then_right_by_clicking_cards(home):
    w = notebook.lesson("bowers", learner="ann")
    assert "Step 1 of 10" in w.progress_text.value
    w.next_button.click()
    w.next_button.click()  # two explain steps
    assert w.session.step.id == "hearts-top" and w.next_button.disabled
    cards = cards_of(w)
    for label in ("A♥", "K♥", "J♥", "J♦"):  # a plain-suit order: wrong
        cards[label].click()
    fb = w.feedback.value
    assert "Not quite" in fb and w.next_button.disabled
    # a first miss names its rule neither by id nor by title (the title can be the answer)
    assert "rank.right-bower" not in fb and "<summary>Rule</summary>" in fb
    assert "both red jacks climb above the ace" in fb  # the author's note for this answer
    for label in ("J♥", "J♦", "A♥", "K♥"):
        cards[label].click()
    assert "Right." in w.feedback.value and w.progress.value == 1
    rules = w.session.status.last.rule_ids  # once right, each rule by its title
    assert rules and all(f"<summary>{get_rule(r).title}</summary>" in w.feedback.value
                         and r not in w.feedback.value for r in rules)
    assert not w.next_button.disabled
    saved = LearnerStore("ann", home).lesson("bowers")
    assert saved is not None and saved.done == {"hearts-top"}
    assert saved.mistakes == {"hearts-top": 1}
    w.next_button.click()
    assert "Step 4 of 11" in w.progress_text.value  # the missed step is queued again
    assert w.errors == []


def test_lesson_widget_undo_hint_and_reveal(home):
    w = notebook.lesson("bowers", learner="bo")
    w.next_button.click()
    w.next_button.click()
    cards = cards_of(w)
    cards["J♥"].click()
    assert cards["J♥"].disabled and "Your order: J♥" in w.panel.order_label.value
    next(b for b in w.panel.buttons if "pepper-undo" in b._dom_classes).click()
    assert not cards["J♥"].disabled
    w.hint_button.click()
    assert "Hint 1 of 3" in w.feedback.value
    w.reveal_button.click()
    assert "The answer: J♥ J♦ A♥ K♥" in w.feedback.value and not w.next_button.disabled


def test_lesson_widget_resumes_from_saved_progress(home):
    w = notebook.lesson("bowers", learner="cy")
    w.next_button.click()
    w.next_button.click()
    again = notebook.lesson("bowers", learner="cy")
    assert again.session.position == 2 and "Step 3 of 10" in again.progress_text.value


def test_back_to_a_solved_step_keeps_next_enabled(home):
    w = notebook.lesson("bowers", learner="gil")
    w.next_button.click()
    w.next_button.click()
    for label in ("J♥", "J♦", "A♥", "K♥"):
        cards_of(w)[label].click()
    assert "Right." in w.feedback.value
    w.next_button.click()
    w.back_button.click()
    assert w.session.step.id == "hearts-top" and not w.next_button.disabled
    w.next_button.click()
    assert w.session.step.id == "left-beats-ace" and w.next_button.disabled
    w.back_button.click()
    w.back_button.click()  # back to an explain step: Next is always open there
    assert not w.next_button.disabled and w.errors == []


def test_a_click_on_a_step_already_left_answers_nothing(home):
    """The front end draws the next step after the kernel has moved on: a click on the
    step left behind, still on its way, must not answer the next step with its card."""
    w = notebook.lesson("bowers", learner="hal")
    w.next_button.click()
    w.next_button.click()
    for label in ("J♥", "J♦", "A♥", "K♥"):
        cards_of(w)[label].click()
    w.next_button.click()
    assert w.session.step.id == "left-beats-ace"
    cards_of(w)["J♦"].click()
    assert "Right." in w.feedback.value
    w.back_button.click()
    w.next_button.click()  # the solved step drawn again: its cards answer at a click
    left = cards_of(w)
    w.next_button.click()
    assert w.session.step.id == "spades-trumps" and w.next_button.disabled
    left["A♥"].click()  # a click on the step left behind, arriving late
    assert w.feedback.value == "" and w.session.status.last is None
    assert w.next_button.disabled and w.errors == []
    for label in ("J♠", "J♣", "A♠", "Q♠", "9♠"):  # the step's own buttons do answer
        cards_of(w)[label].click()
    assert "Right." in w.feedback.value


def _finish(w):  # type: ignore[no-untyped-def]
    from tests.answering import right_answer

    while w.session.step is not None:
        step = w.session.step
        if step.answerable:
            w._answer(right_answer(step))
        w.next_button.click()


def test_a_finished_lesson_reopens_finished_and_replays_without_losing_the_record(home):
    w = notebook.lesson("bowers", learner="hu")
    _finish(w)
    assert "Lesson finished" in w.progress_text.value
    looked = notebook.lesson("bowers", learner="hu")  # opening it again changes nothing
    assert looked.session.finished and "Lesson finished" in looked.progress_text.value
    assert "finished 1 time; 8 of 8 steps solved" in looked.progress_text.value
    assert LearnerStore("hu", home).lesson("bowers").finished
    looked.replay_button.click()
    assert looked.session.position == 0 and "Step 1 of 10" in looked.progress_text.value
    _finish(looked)
    assert "(a replay)" in looked.progress_text.value
    assert "finished 2 times (1 replay); 8 of 8 steps solved" in looked.progress_text.value


def test_a_failed_save_is_shown_in_the_widget(home):
    store = LearnerStore("ivy", home)
    store._connection().execute("PRAGMA query_only = ON")  # the disk turns read-only
    w = notebook.LessonWidget(find_lesson("bowers"), store=store)
    w.next_button.click()
    assert "Not saved" in w.save_notice.value and "cannot save" in w.save_notice.value
    assert "is read-only" in w.save_notice.value
    q = notebook.QuizWidget("tricks", seed=1, store=store)
    cards_of(q)[q.quiz.question.winner().display].click()
    assert "Not saved" in q.save_notice.value


def test_review_widget_brings_a_missed_rule_back_as_a_new_position(home):
    from datetime import UTC, datetime, timedelta

    from pepper_tutor.teaching.learner.review_cards import ReviewDeck, question_rules

    store = LearnerStore("jo", home)
    ReviewDeck(store).missed(["play.follow-suit"], "quiz legal",
                             at=datetime.now(UTC) - timedelta(hours=2))
    r = notebook.ReviewWidget(store=store, seed=3)
    step = r.session.question
    assert "play.follow-suit" in question_rules(step) and "review 1 of 1" in r.header.value
    assert "a new position" in r.header.value and "follow" not in r.header.value.lower()
    legal = step.legal()
    wrong = [c for c in step.hand if c not in legal] or legal[:1]
    for b in r.panel.buttons:
        if "pepper-card" in b._dom_classes and b.description in {c.display for c in wrong}:
            b.click()
    next(b for b in r.panel.buttons if "pepper-submit" in b._dom_classes).click()
    assert "Not quite" in r.feedback.value and not r.next_button.disabled
    r.next_button.click()
    assert "Review done:</b> 0 of 1 right" in r.header.value and r.errors == []
    view = notebook.progress(learner="jo")
    assert "Reviews due now" in view.view.value and "Rules mastered: 0 of" in view.view.value


def test_choice_and_score_steps_in_widgets(home):
    w = notebook.LessonWidget(find_lesson("scoring"), store=LearnerStore("di", home))
    while w.session.step.kind != "score":
        w.next_button.click()
    step = w.session.step
    right = step.computed().points
    for side, box in w.panel.boxes.items():
        box.value = right[side] + 1
    w.panel.buttons[-1].click()
    assert "Not quite" in w.feedback.value
    for side, box in w.panel.boxes.items():
        box.value = right[side]
    w.panel.buttons[-1].click()
    assert "Right." in w.feedback.value and w.errors == []


def test_quiz_widget_streak_and_next(home):
    q = notebook.quiz("tricks", seed=4)
    winner = q.quiz.question.winner()
    cards_of(q)[winner.display].click()
    assert "Right." in q.feedback.value and "streak 1" in q.streak.value
    q.next_button.click()
    wrong = next(c for c in q.quiz.question.trick if c is not q.quiz.question.winner())
    cards_of(q)[wrong.display].click()
    assert "Not quite" in q.feedback.value and "The answer" in q.feedback.value
    assert "streak 0 (best 1)" in q.streak.value
    q.kind_picker.value = "score"
    assert q.quiz.kind == "score" and q.panel.boxes and q.errors == []
    assert [a.correct for a in LearnerStore(None, home).answers("quiz")] == [True, False]


def test_callback_failures_are_shown_not_swallowed(home):
    q = notebook.quiz("legal", seed=1)

    def boom(_raw):
        raise RuntimeError("the engine fell over")

    q.panel.on_answer = boom
    next(b for b in q.panel.buttons if "pepper-submit" in b._dom_classes).click()
    assert "Something went wrong" in q.feedback.value and "the engine fell over" in q.feedback.value
    assert len(q.errors) == 1


@pytest.mark.parametrize("name", ["exchange-made.yaml", "revoke.yaml", "cutthroat-three.yaml"])
def test_viewer_shows_the_same_winners_and_score_as_annotate(name):
    viewer = notebook.hand_viewer(HANDS / name)
    expected = annotate_file(HANDS / name)
    html = viewer.view.value
    for t in expected.tricks:
        assert f'data-trick="{t.number}"' in html
    assert f"Score: {', '.join(f'{s} {p:+d}' for s, p in expected.score.items())}" in html
    viewer.prev_button.click()
    assert viewer.slider.value == len(expected.tricks) - 1
    assert f'data-trick="{len(expected.tricks)}"' not in viewer.view.value
    viewer.slider.value = 0
    assert 'data-trick="1"' not in viewer.view.value and viewer.errors == []


def test_core_objects_display_without_widgets():
    from pepper_tutor import Card, HandState
    assert 'aria-label="jack of diamonds"' in Card.parse("JD")._repr_svg_()
    state = HandState.deal("standard", "W", 1)
    assert "North" in state._repr_html_()
    assert "data-card" in annotate_file(HANDS / "no-trump.yaml")._repr_html_()


def test_a_lesson_shows_what_it_builds_on_and_suggests_it(home):
    w = notebook.lesson("following-suit", learner="kai")
    assert "Builds on: Cards and the bowers: not finished yet" in w.title.value
    assert "notebook.lesson(&#x27;bowers&#x27;)" in w.title.value or \
        "notebook.lesson('bowers')" in w.title.value
