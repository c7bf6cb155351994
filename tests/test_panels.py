"""What a learner reads after a wrong answer: said once, short first (issue 23, item 2).

Panels are measured as the terminal shows them: every part of the feedback, rich markup and
the panel's border stripped, a rule's full text counted only where it is shown open."""

import io
import random
import re
import statistics
from dataclasses import replace

from rich.console import Console

from pepper_tutor.apps.tutor import render_feedback
from pepper_tutor.engine.calls import Trump
from pepper_tutor.engine.cards import Card
from pepper_tutor.render.steps_html import feedback_html
from pepper_tutor.rulebook.book import RULE_IDS_ENV, get_rule
from pepper_tutor.rulebook.feedback import Feedback, sentences
from pepper_tutor.teaching.drills.quiz import JUDGEMENT_KINDS, QUIZ_KINDS, make_question
from pepper_tutor.teaching.lessons.files import all_lessons
from pepper_tutor.teaching.lessons.session import LessonSession
from pepper_tutor.teaching.questions.steps import LegalPlaysStep, RankStep, TrickWinnerStep
from pepper_tutor.teaching.review.session import fresh_question
from tests.answering import any_wrong_answer

RULES_KINDS = [k for k in QUIZ_KINDS if k not in JUDGEMENT_KINDS]


def shown(fb: Feedback) -> str:
    """The panel's words as the terminal draws them (80 columns, no colour, no border)."""
    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    console.print(render_feedback(fb))
    return re.sub(r"[│╭╮╰╯─]", " ", console.export_text())


def words(fb: Feedback) -> int:
    return len(shown(fb).split())


def lesson_panels() -> list[tuple[str, Feedback]]:
    """Every answerable lesson step answered wrong twice: the first panel (try again) and the
    second (the answer revealed), in a lesson session, as a learner meets them."""
    out = []
    for lesson in all_lessons():
        session = LessonSession(lesson)
        while not session.finished and not session.is_review:
            step = session.step
            if step.answerable:
                wrong = any_wrong_answer(step)
                out.append((f"{lesson.id}/{step.id}", session.answer(wrong)))
                out.append((f"{lesson.id}/{step.id} again", session.answer(wrong)))
            session.next()
    return out


def question_panels(count: int, seed: int) -> list[tuple[str, Feedback]]:
    """Generated quiz questions of every rules kind and review questions (fresh positions
    for the rules they test), each answered wrong: shown with the answer at once."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        kind = RULES_KINDS[i % len(RULES_KINDS)]
        q = make_question(kind, rng, i + 1)
        out.append((f"quiz {kind} {i}", replace(q.judge(any_wrong_answer(q)), revealed=True)))
        if i % 10 == 0:  # a review of the rule that question rests on
            r = fresh_question(q.rule_ids[0], rng, n=i + 1, budget_s=1.0)
            if r is not None:
                out.append((f"review {q.rule_ids[0]} {i}",
                            replace(r.judge(any_wrong_answer(r)), revealed=True)))
    return out


def _check(panels: list[tuple[str, Feedback]]) -> tuple[float, int]:
    assert all(not fb.correct for _, fb in panels)
    counts = [words(fb) for _, fb in panels]
    longest = max(zip(counts, (n for n, _ in panels), strict=True))
    assert statistics.median(counts) < 40
    assert longest[0] <= 60, f"{longest[1]}: {longest[0]} words"
    for name, fb in panels:
        said = [" ".join(s.lower().split()) for _, text in fb.parts() for s in sentences(text)]
        assert len(said) == len(set(said)), f"{name} repeats a sentence: {fb.text}"
    return statistics.median(counts), longest[0]


def test_every_lesson_steps_wrong_answer_panel_is_short_and_says_each_thing_once():
    panels = lesson_panels()
    assert len(panels) > 150
    median, longest = _check(panels)
    print(f"\nlesson wrong-answer panels: {len(panels)}, median {median}, longest {longest}")


def test_quiz_and_review_wrong_answer_panels_are_short_and_say_each_thing_once():
    panels = question_panels(300, seed=23)
    assert sum(name.startswith("review") for name, _ in panels) >= 10
    median, longest = _check(panels)
    print(f"\nquiz and review wrong-answer panels: {len(panels)}, median {median}, "
          f"longest {longest}")


def test_a_wrong_trick_winner_says_the_winner_once():
    """`quiz tricks --seed 11`, answered `ace of clubs`, said everything twice (92 words)."""
    step = TrickWinnerStep(id="t", trump=Trump.S, trick=tuple(Card.parse(c) for c in
                                                              ("AS", "AC", "QC", "KH")))
    fb = replace(step.judge("ace of clubs"), revealed=True)
    text = shown(fb)
    assert text.count("the A♠ (South) wins") <= 1 and text.count("A♠") <= 2
    assert "The A♣ cannot win: clubs were not led" in " ".join(text.split())
    assert "K♥" not in text  # the cards the learner did not pick are not explained
    assert words(fb) <= 40  # 92 before


def test_a_lesson_wrong_answer_names_no_rule_and_opens_it_on_request(monkeypatch):
    session = LessonSession(next(x for x in all_lessons() if x.id == "bowers"))
    while not session.step.answerable:
        session.next()
    fb = session.answer(any_wrong_answer(session.step))
    # a first miss names no rule (a title such as "The left bower" names the answer), and
    # never by its id outside the rule ids view
    assert not fb.quote_ids and "Rule: " not in fb.text and "rule: " not in fb.text
    quoted = [r for r in fb.rule_ids if r not in fb.held_back]
    assert quoted, "some rule of a first miss can be read in full"
    text = session.rule_text()  # the `rule` command
    assert text.startswith("Rule: " + get_rule(quoted[0]).text)
    assert not any(rid in text for rid in fb.rule_ids)
    full = fb.full_text
    assert all(f"Rule: {get_rule(rid).text}" in full for rid in quoted)
    # a rule whose text names the answer (J♦ when hearts are trumps) opens with the answer
    assert all(get_rule(rid).text not in full for rid in fb.held_back)
    monkeypatch.setenv(RULE_IDS_ENV, "1")  # the opt-in rule ids view names them by id
    assert "rule: " in fb.text and all(rid in fb.text for rid in fb.rule_ids)
    assert session.rule_text().startswith(quoted[0] + ": ")
    monkeypatch.delenv(RULE_IDS_ENV)
    again = session.answer(any_wrong_answer(session.step))
    # once the answer is given, each rule opens under its title
    assert again.revealed and all(f"{get_rule(rid).title}: {get_rule(rid).text}"
                                  in again.full_text for rid in again.rule_ids)
    assert not any(rid in again.full_text for rid in again.rule_ids if "." in rid)


def test_a_long_reason_opens_on_request():
    fb = Feedback(False, "Not quite.", ("You gave up a sure trick.",), revealed=True,
                  answer_text="play", answer_reason=" ".join(
                      f"Reason number {i} is a sentence of eight words." for i in range(12)))
    assert words(fb) <= 60
    assert "Reason number 0" in fb.text and "Reason number 11" not in fb.text
    assert "Reason number 11" in fb.full_text  # the rest, asked for


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


def test_a_jack_taken_for_a_bower_is_told_it_is_not_one():
    trick = TrickWinnerStep(id="t", trump=Trump.H, trick=_cards("KC JC AH 9S"))
    fb = trick.judge("jc")
    assert "The J♣ is not a bower" in fb.text and "left bower the J♦" in fb.text
    rank = RankStep(id="r", trump=Trump.H, cards=_cards("JC JD JH AH"))
    assert "The J♣ is not a bower" in rank.judge("jc jh jd ah").text


def test_the_left_bower_in_hand_is_not_called_no_card_of_its_printed_suit():
    """Diamonds trumps, Q♥ led, J♥ 9♣ 10♣ 10♦ held: the J♥ is in view, so "you have no
    hearts left" alone reads as untrue."""
    step = LegalPlaysStep(id="l", trump=Trump.D, trick=_cards("QH"),
                          hand=_cards("JH 9C TC TD"))
    text = replace(step.judge("JH"), revealed=True).text
    assert "the J♥ is the left bower, a diamond, so it does not follow hearts" in text
    assert "You have no hearts left" not in text


def test_the_page_names_rules_by_title_and_by_id_only_in_the_rule_ids_view(monkeypatch):
    step = TrickWinnerStep(id="t", trump=Trump.H, trick=tuple(Card.parse(c) for c in
                                                              ("JD", "AH", "9S", "QH")))
    right = step.judge("JD")
    assert right.correct and right.rule_ids
    page = feedback_html(right)
    for rid in right.rule_ids:
        assert f"<summary>{get_rule(rid).title}</summary>" in page and rid not in page
    miss = step.first_miss("AH")
    assert "<summary>Rule</summary>" in feedback_html(miss)
    assert not any(get_rule(r).title in feedback_html(miss).split("<summary>")[1]
                   .split("</summary>")[0] for r in miss.rule_ids)
    monkeypatch.setenv(RULE_IDS_ENV, "1")
    page = feedback_html(right)
    assert all(f"<summary>rule <code>{rid}</code></summary>" in page for rid in right.rule_ids)
