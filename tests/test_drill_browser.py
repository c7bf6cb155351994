"""In JupyterLab with Playwright: a judgement drill in the quiz widget (a wrong answer with the
reason about that option, then the answer shown by Reveal), and a lesson's rule toggle."""

from __future__ import annotations

import re

import pytest

from pepper_tutor.engine.cards import Card
from pepper_tutor.teaching.drills.screened import load_screened, step_of

from .test_browser import open_and_run
from .test_review_browser import _to_step

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _shown_step(quiz, kind: str):  # type: ignore[no-untyped-def]
    """The screened position the widget shows (the drill deals those first): found in the
    packaged file by the hand and the question on screen, then settled as the kernel did."""
    html = quiz.locator(".pepper-situation").inner_html()
    hand = " ".join(str(Card.parse(c)) for c in
                    re.findall(r'class="pepper-cardbox" data-card="(\w\w)"', html))
    prompt = quiz.locator(".pepper-situation .pepper-prompt").inner_text()
    for entry in load_screened()["positions"]["standard"][kind]:
        step = step_of(entry)
        if entry["hand"] == hand and step.prompt.split(". ", 1)[-1] in prompt:
            return step
    raise AssertionError(f"not a screened {kind} position: {hand} / {prompt}")


def _choice(step, answer) -> str:  # type: ignore[no-untyped-def]
    return "button.pepper-choice-" + str(answer).replace(" ", "-")


def test_a_bid_drill_with_a_wrong_answer_then_a_reveal(lab_server, page):
    from playwright.sync_api import expect

    open_and_run(page, lab_server, "07-quiz-drills.ipynb")
    quiz = page.locator(".pepper-quiz").first
    expect(quiz.locator(".pepper-situation")).to_contain_text("who wins?")
    quiz.locator(".pepper-kind select").select_option("bid")
    situation = quiz.locator(".pepper-situation")
    expect(situation).to_contain_text("What do you call?", timeout=10_000)  # no waiting
    step = _shown_step(quiz, "bid")
    runner = next(v for v in step.valued() if v.answer not in step.accept)
    quiz.locator(_choice(step, runner.answer)).click()
    feedback = quiz.locator(".pepper-feedback")
    expect(feedback).to_contain_text("Not quite")
    # Why this very option is worse, in words from the analysis, then the answer, once.
    expect(feedback).to_contain_text(step.choice_words(runner.answer))
    expect(feedback).to_contain_text(re.compile(r"(gives up|costs) about [\d.]+ points?"))
    expect(feedback).to_contain_text("The answer: " + step.answer_text())
    assert feedback.inner_text().count("The answer:") == 1
    expect(quiz.locator(".pepper-streak")).to_contain_text("0/1 right")
    page.screenshot(path=_shot("drill-wrong"), full_page=False)
    rule = feedback.locator("details.rule").first
    expect(rule).to_contain_text("rule")
    quiz.locator("button.pepper-next").click()
    expect(feedback).to_have_text("")
    second = _shown_step(quiz, "bid")
    assert second.hand != step.hand  # a new position, no repeat
    quiz.locator("button.pepper-reveal").click()
    expect(feedback).to_contain_text("The answer: " + second.answer_text())
    expect(feedback).to_contain_text(second.reason)  # why it is best, with the reveal
    expect(quiz.locator(".pepper-streak")).to_contain_text("0/2 right")
    page.screenshot(path=_shot("drill-reveal"), full_page=False)


def test_a_defend_drill_answered_right(lab_server, page):
    from playwright.sync_api import expect

    open_and_run(page, lab_server, "07-quiz-drills.ipynb")
    quiz = page.locator(".pepper-quiz").first
    quiz.locator(".pepper-kind select").select_option("defend")
    expect(quiz.locator(".pepper-situation")).to_contain_text("Play or surrender?",
                                                              timeout=10_000)
    step = _shown_step(quiz, "defend")
    quiz.locator(_choice(step, step.accept[0])).click()
    feedback = quiz.locator(".pepper-feedback")
    expect(feedback).to_contain_text("Right.")
    expect(feedback).to_contain_text(step.reasons[step.key(step.accept[0])])
    expect(quiz.locator(".pepper-streak")).to_contain_text("1/1 right")


def test_a_lesson_gives_a_rule_as_a_label_that_opens_on_request(lab_server, page):
    from playwright.sync_api import expect

    from pepper_tutor.rulebook.book import get_rule

    open_and_run(page, lab_server, "01-cards-and-bowers.ipynb")
    lesson = page.locator(".pepper-lesson").first
    _to_step(lesson, 3)
    feedback = lesson.locator(".pepper-feedback")
    text = get_rule("rank.right-bower").text
    for card in ("AH", "KH", "JH", "JD"):  # a plain suit's order: wrong
        lesson.locator(f"button.pepper-card-{card}").click()
    expect(feedback).to_contain_text("Not quite")
    # A wrong answer's panel stays short: the rule is a label, quoted in full the first
    # time a right answer rests on it, and on request at any time.
    # A first miss names no rule (a title can name the answer), never by its id.
    toggle = feedback.locator("details.rule", has_text="Rule")
    expect(toggle).not_to_have_attribute("open", "")
    expect(feedback).not_to_contain_text("rank.right-bower")
    for card in ("JD", "JH", "AH", "KH"):  # wrong again: the answer given, the rule titled
        lesson.locator(f"button.pepper-card-{card}").click()
    expect(feedback).to_contain_text("Not quite")
    expect(feedback).not_to_contain_text("rank.right-bower")
    toggle = feedback.locator("details.rule", has_text=get_rule("rank.right-bower").title)
    expect(toggle).not_to_have_attribute("open", "")
    body = toggle.locator(".rule-text")
    expect(body).to_be_hidden()
    toggle.locator("summary").click()  # the learner asks for it
    expect(body).to_be_visible()
    expect(body).to_contain_text(text[:40])
    page.screenshot(path=_shot("lesson-rule-toggle"), full_page=False)


def _shot(name: str) -> str:
    from .conftest import ARTIFACTS

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return str(ARTIFACTS / f"{name}.png")
