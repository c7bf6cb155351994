"""In JupyterLab with Playwright: Back and Next in a lesson, a review session with a wrong
answer, and text contrast in the light and the dark theme (measured from computed styles)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from pepper_tutor.engine.calls import Trump
from pepper_tutor.engine.cards import Card
from pepper_tutor.engine.ranking import legal_plays

from .test_browser import KERNEL_IDLE_JS, open_and_run

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# The WCAG contrast of every element with text of its own inside ``root``: its computed colour
# (faded by any opacity) against the backgrounds behind it, composited up to the first opaque
# one. A disabled control other than a card (Reveal after an answer) is exempt, as in WCAG.
CONTRAST_JS = """(root) => {
  const parse = s => {
    const m = s.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const lum = c => {
    const [r, g, b] = c.map(v => { v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const background = el => {
    const layers = [];
    for (let n = el; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let bg = [255, 255, 255];
    if (layers.length && layers[layers.length - 1][3] >= 1) bg = layers.pop().slice(0, 3);
    for (let i = layers.length - 1; i >= 0; i--) {
      const [r, g, b, a] = layers[i];
      bg = [r * a + bg[0] * (1 - a), g * a + bg[1] * (1 - a), b * a + bg[2] * (1 - a)];
    }
    return bg;
  };
  const out = [];
  for (const el of [root, ...root.querySelectorAll('*')]) {
    const own = [...el.childNodes].filter(n => n.nodeType === 3 && n.textContent.trim());
    if (!own.length || !el.getClientRects().length) continue;
    if (el.closest('svg')) continue;  // the card faces: drawn on white, checked elsewhere
    const button = el.closest('button');
    if (button && button.disabled && !button.classList.contains('pepper-card')) continue;
    const bg = background(el);
    const c = parse(getComputedStyle(el).color);
    let alpha = c[3];  // the text's own alpha, times every opacity on the way up
    for (let n = el; n; n = n.parentElement) alpha *= parseFloat(getComputedStyle(n).opacity);
    const fg = c.slice(0, 3).map((v, i) => v * alpha + bg[i] * (1 - alpha));
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    out.push({text: own.map(n => n.textContent.trim()).join(' ').slice(0, 40),
              ratio: (hi + 0.05) / (lo + 0.05)});
  }
  return out;
}"""


def _set_theme(page, theme: str) -> None:
    page.evaluate(f"window.jupyterapp.commands.execute('apputils:change-theme', "
                  f"{{theme: '{theme}'}})")
    light = "true" if "Light" in theme else "false"
    page.wait_for_function(f"document.body.dataset.jpThemeLight === '{light}'")
    page.wait_for_timeout(500)  # the theme's stylesheet applied


def _worst(page, selector: str) -> list[dict]:
    found = []
    for handle in page.locator(selector).element_handles():
        found += handle.evaluate(CONTRAST_JS)
    assert found, f"no text found in {selector}"
    return [f for f in found if f["ratio"] < 4.5]


def _answer_the_quiz_wrongly(page) -> None:
    from playwright.sync_api import expect

    from pepper_tutor import trick_winner

    quiz = page.locator(".pepper-quiz").first
    expect(quiz.locator(".pepper-situation")).to_contain_text("who wins?")
    html = quiz.locator(".pepper-situation").inner_html()
    trick = [Card.parse(c) for c in re.findall(r'class="pepper-cardbox" data-card="(\w\w)"',
                                                 html)]
    head = quiz.locator(".pepper-situation .pepper-prompt").inner_text()
    suit = "NT" if head.startswith("No trump") else head.split()[0]
    loser = next(c for c in trick if c is not trick[trick_winner(trick, suit)])
    quiz.locator(f"button.pepper-card-{loser}").click()
    expect(quiz.locator(".pepper-feedback")).to_contain_text("Not quite")


def _to_step(lesson, step: int = 1) -> None:  # type: ignore[no-untyped-def]
    """To ``step`` of the lesson widget: back to step 1, whatever earlier tests left saved,
    then on, one click at a time, each waited for (the widget redraws its buttons on every
    move)."""
    from playwright.sync_api import expect

    progress = lesson.locator(".pepper-progress-text")
    expect(progress).to_contain_text(re.compile(r"Step \d+ of|Lesson finished"))
    text = progress.inner_text()
    if "Lesson finished" in text:
        lesson.locator("button.pepper-back").click()
        expect(progress).to_contain_text("Step")
        text = progress.inner_text()
    k = int(re.search(r"Step (\d+) of", text).group(1))
    while k > 1:
        lesson.locator("button.pepper-back").click()
        k -= 1
        expect(progress).to_contain_text(f"Step {k} of")
    for k in range(2, step + 1):
        lesson.locator("button.pepper-next").click()
        expect(progress).to_contain_text(f"Step {k} of")


@pytest.mark.parametrize("theme", ["JupyterLab Dark", "JupyterLab Light"])
def test_feedback_viewer_and_buttons_are_readable(lab_server, page, theme):
    open_and_run(page, lab_server, "07-quiz-drills.ipynb")
    _set_theme(page, theme)
    try:
        _answer_the_quiz_wrongly(page)
        assert _worst(page, ".pepper-quiz .pepper-feedback") == []
        assert _worst(page, ".pepper-quiz button") == []
        assert _worst(page, ".pepper-quiz .pepper-situation") == []
        open_and_run(page, lab_server, "06-annotating-a-hand.ipynb")
        page.locator(".pepper-hand-view").first.wait_for()
        assert _worst(page, ".pepper-viewer") == []
    finally:
        _set_theme(page, "JupyterLab Light")


def test_back_to_a_solved_step_keeps_next_enabled(lab_server, page):
    from playwright.sync_api import expect

    open_and_run(page, lab_server, "01-cards-and-bowers.ipynb")
    lesson = page.locator(".pepper-lesson").first
    progress = lesson.locator(".pepper-progress-text")
    _to_step(lesson, 3)
    for card in ("JH", "JD", "AH", "KH"):
        lesson.locator(f"button.pepper-card-{card}").click()
    expect(lesson.locator(".pepper-feedback")).to_contain_text("Right.")
    lesson.locator("button.pepper-next").click()
    expect(progress).to_contain_text("Step 4 of")
    lesson.locator("button.pepper-back").click()
    expect(progress).to_contain_text("Step 3 of")
    expect(lesson.locator("button.pepper-next")).to_be_enabled()


def test_a_review_session_with_a_wrong_answer(lab_server, page, tutor_home):
    from playwright.sync_api import expect

    from pepper_tutor.rulebook.book import get_rule
    from pepper_tutor.teaching.learner.review_cards import ReviewDeck
    from pepper_tutor.teaching.learner.store import LearnerStore

    store = LearnerStore(None, tutor_home)  # the learner the kernel uses: the same $USER
    ReviewDeck(store).missed(["play.follow-suit"], "quiz legal",
                             at=datetime.now(UTC) - timedelta(hours=3))
    open_and_run(page, lab_server, "09-review-and-progress.ipynb")
    page.wait_for_function(KERNEL_IDLE_JS)
    review = page.locator(".pepper-review").first
    header = review.locator(".pepper-review-header")
    # how far the review is, never the rule under test (it would answer the question)
    expect(header).to_contain_text(re.compile(r"review 1 of \d+"))
    expect(header).to_contain_text("a new position")
    expect(header).not_to_contain_text("play.follow-suit")
    expect(header).not_to_contain_text(get_rule("play.follow-suit").title)
    html = review.locator(".pepper-situation").inner_html()
    cards = re.findall(r'class="pepper-cardbox" data-card="(\w\w)"', html)
    lead, hand = Card.parse(cards[0]), [Card.parse(c) for c in cards[1:]]
    prompt = review.locator(".pepper-situation .pepper-prompt").inner_text()
    trump = Trump.NT if prompt.startswith("No trump") else Trump.parse(prompt.split()[0])
    legal = legal_plays(hand, lead, trump)
    wrong = [c for c in hand if c not in legal] or legal[:1]
    for card in wrong:
        review.locator(f"button.pepper-card-{card}").click()
    review.locator("button.pepper-submit").click()
    expect(review.locator(".pepper-feedback")).to_contain_text("Not quite")
    expect(review.locator(".pepper-feedback")).to_contain_text("The answer")
    review.locator("button.pepper-next").click()
    # Cards the quiz tests above missed may be due too: they come after this older one.
    expect(header).to_contain_text(re.compile(r"Review done: 0 of 1 right|0/1 right"))
    item = next(i for i in ReviewDeck(store).items() if i.rule == "play.follow-suit")
    assert item.lapses == 1 and item.due > datetime.now(UTC)
    view = page.locator(".pepper-progress-view").first
    expect(view).to_contain_text("Rules mastered: 0 of")


def test_a_whole_lesson_with_a_wrong_answer(lab_server, page, tutor_home):
    """Lesson 1 from its first step to the end, one wrong answer on the way; the missed step
    comes back, the lesson ends finished, and reopening it shows it finished."""
    from playwright.sync_api import expect

    from pepper_tutor.teaching.learner.store import LearnerStore
    from pepper_tutor.teaching.lessons.files import find_lesson
    from tests.answering import right_answer, wrong_answer

    bowers = find_lesson("bowers")
    open_and_run(page, lab_server, "01-cards-and-bowers.ipynb")
    lesson = page.locator(".pepper-lesson").first
    progress = lesson.locator(".pepper-progress-text")
    nxt = lesson.locator("button.pepper-next")
    _to_step(lesson)
    mistake = False
    for _ in range(40):
        text = progress.inner_text()
        if "Lesson finished" in text:
            break
        position = int(re.search(r"Step (\d+) of", text).group(1)) - 1
        saved = LearnerStore(None, tutor_home).lesson("bowers")  # None before the first save
        queue = (saved.queue if saved else ()) or [s.id for s in bowers.steps]
        step = bowers.step(queue[position])
        solved = saved is not None and step.id in saved.done and position < len(bowers.steps)
        if step.answerable and not solved:
            # The progress line is drawn before the step's buttons: a click made between the
            # two landed on the step left behind (a solved step drawn again, its cards live)
            # and was lost. Click in this step's own panel, once it is drawn.
            panel = lesson.locator(f".pepper-answer-for-{step.id}")
            expect(panel).to_be_visible()
            for answer in ([wrong_answer(step)] if not mistake and step.kind == "trick-winner"
                           else []) + [right_answer(step)]:
                for card in answer.split():
                    panel.locator(f"button.pepper-card-{card}").click()
                expect(lesson.locator(".pepper-feedback")).to_contain_text(
                    "Right." if answer == right_answer(step) else "Not quite")
            mistake = mistake or step.kind == "trick-winner"
        expect(nxt).to_be_enabled()
        nxt.click()
        expect(progress).to_contain_text(re.compile(rf"Step {position + 2} of|Lesson finished"))
    expect(progress).to_contain_text("Lesson finished")
    expect(progress).to_contain_text("8 of 8 steps solved")
    expect(lesson.locator(".pepper-save-warning")).to_have_text("")  # every save went through
    assert mistake and LearnerStore(None, tutor_home).lesson("bowers").finished
    open_and_run(page, lab_server, "01-cards-and-bowers.ipynb")  # looking changes nothing
    lesson = page.locator(".pepper-lesson").first
    expect(lesson.locator(".pepper-progress-text")).to_contain_text("Lesson finished")
    expect(lesson.locator("button.pepper-replay")).to_be_visible()
