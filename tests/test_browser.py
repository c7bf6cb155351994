"""Real-browser tests: the notebooks in JupyterLab, clicked through with Playwright."""

from __future__ import annotations

import re

import pytest

from pepper_tutor import Card, trick_winner

pytestmark = [pytest.mark.browser, pytest.mark.slow]

KERNEL_IDLE_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.connectionStatus === 'connected' && k.status === 'idle';
}"""


def open_and_run(page, server, name: str) -> None:
    page.goto(server.url(f"/lab/tree/{name}") + "&reset")
    page.wait_for_function(KERNEL_IDLE_JS)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")


def test_lesson_notebook_wrong_then_right(lab_server, page, tutor_home):
    from playwright.sync_api import expect

    from pepper_tutor.rulebook.book import get_rule

    open_and_run(page, lab_server, "01-cards-and-bowers.ipynb")
    lesson = page.locator(".pepper-lesson").first
    expect(lesson).to_be_visible()
    progress = lesson.locator(".pepper-progress-text")
    expect(progress).to_contain_text("Step 1 of 10")
    for _ in range(2):  # two explain steps
        lesson.locator("button.pepper-next").click()
    expect(progress).to_contain_text("Step 3 of 10 · solved 0 of 8")
    feedback = lesson.locator(".pepper-feedback")
    for card in ("AH", "KH", "JH", "JD"):  # the order of a plain suit: wrong
        lesson.locator(f"button.pepper-card-{card}").click()
    expect(feedback).to_contain_text("Not quite")
    # the rule is quoted in words a player knows; its id only in the opt-in view
    expect(feedback).to_contain_text(get_rule("rank.right-bower").text)
    expect(feedback).not_to_contain_text("rank.right-bower")
    expect(feedback).to_contain_text("both red jacks climb above the ace")
    for card in ("JH", "JD", "AH", "KH"):
        lesson.locator(f"button.pepper-card-{card}").click()
    expect(feedback).to_contain_text("Right.")
    expect(progress).to_contain_text("solved 1 of 8")
    expect(lesson.locator("button.pepper-next")).to_be_enabled()
    from pepper_tutor.teaching.learner.store import LearnerStore

    assert "hearts-top" in LearnerStore(None, tutor_home).lesson("bowers").done


def _trick_cards(quiz) -> list[Card]:
    html = quiz.locator(".pepper-situation").inner_html()
    return [Card.parse(c) for c in re.findall(r'class="pepper-cardbox" data-card="(\w\w)"', html)]


def test_quiz_notebook_wrong_then_right(lab_server, page):
    from playwright.sync_api import expect

    open_and_run(page, lab_server, "07-quiz-drills.ipynb")
    quiz = page.locator(".pepper-quiz").first
    expect(quiz.locator(".pepper-situation")).to_contain_text("who wins?")
    trick = _trick_cards(quiz)
    head = quiz.locator(".pepper-situation .pepper-prompt").inner_text()
    suit = "NT" if head.startswith("No trump") else head.split()[0]
    winner = trick[trick_winner(trick, suit)]
    loser = next(c for c in trick if c is not winner)
    quiz.locator(f"button.pepper-card-{loser}").click()
    expect(quiz.locator(".pepper-feedback")).to_contain_text("Not quite")
    expect(quiz.locator(".pepper-feedback")).to_contain_text("The answer")
    expect(quiz.locator(".pepper-streak")).to_contain_text("0/1 right")
    quiz.locator("button.pepper-next").click()
    expect(quiz.locator(".pepper-feedback")).to_have_text("")  # the new question is drawn
    expect(quiz.locator("button.pepper-next")).to_be_disabled()
    head = quiz.locator(".pepper-situation .pepper-prompt").inner_text()
    suit = "NT" if head.startswith("No trump") else head.split()[0]
    trick = _trick_cards(quiz)
    winner = trick[trick_winner(trick, suit)]
    quiz.locator(f"button.pepper-card-{winner}").click()
    expect(quiz.locator(".pepper-feedback")).to_contain_text("Right.")
    expect(quiz.locator(".pepper-streak")).to_contain_text("1/2 right · streak 1")
