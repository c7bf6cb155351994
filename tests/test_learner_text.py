"""Every sentence a learner sees is for a learner (issue 23, item 5): no internal keys, no
text about the project or its sources, examples that are never the step's answer, prompts
that point where the cards are drawn, and each question taught before it is asked."""

import io
import json
import random
import re
from dataclasses import replace
from pathlib import Path

from rich.console import Console

from pepper_tutor.engine.calls import Defense
from pepper_tutor.engine.rules import get_ruleset
from pepper_tutor.engine.seats import Seat
from pepper_tutor.engine.state import Phase
from pepper_tutor.render.annotation import note_place
from pepper_tutor.render.steps_html import step_html
from pepper_tutor.rulebook.book import get_rule
from pepper_tutor.rulebook.feedback import AnswerError
from pepper_tutor.teaching.drills.quiz import JUDGEMENT_KINDS, QUIZ_KINDS, make_question
from pepper_tutor.teaching.drills.screened import ScreenedPool
from pepper_tutor.teaching.lessons.files import all_lessons, find_lesson
from pepper_tutor.teaching.practice.table import Decision

ROOT = Path(__file__).resolve().parent.parent

# what follows "such as" or "or just" in a prompt or an example, up to the end of the phrase
_EXAMPLE = re.compile(r"(?:such as:?|or just) (.+?)(?=,| \(|\)| or |\. |\.$|$)")


def examples(text: str) -> list[str]:
    return [m.group(1).strip() for m in _EXAMPLE.finditer(" ".join(text.split()))]


def every_question():
    for lesson in all_lessons():
        for step in lesson.answerable_steps:
            yield f"{lesson.id}/{step.id}", step
    rng = random.Random(5)
    for kind in QUIZ_KINDS:
        if kind in JUDGEMENT_KINDS:
            pool = ScreenedPool.for_drill(kind, get_ruleset(), random.Random(1))
            for n in range(30):
                step = pool.draw(n) if pool is not None else None
                if step is not None:
                    yield f"quiz {kind} {n}", step
            continue
        for n in range(60):
            yield f"quiz {kind} {n}", make_question(kind, rng, n)


def test_no_example_in_a_prompt_or_under_it_is_the_answer():
    checked = 0
    for name, step in every_question():
        for shown in examples(step.prompt or "") + examples(step.example()):
            checked += 1
            try:
                right = step.is_right(step.parse(shown))
            except (AnswerError, ValueError):
                continue  # not an answer at all, so not the answer
            assert not right, f"{name}: the example {shown!r} is the answer"
    assert checked > 500


def test_the_score_example_is_never_the_score():
    step = find_lesson("bidding").step("one-short")
    assert step.answer_text() == "NS -4, EW +3"  # the hand the old example gave away
    assert "NS -4 EW 3" not in step.example()


def _lesson_texts():
    for lesson in all_lessons():
        yield lesson.id, lesson.summary or ""
        for step in lesson.steps:
            for text in (step.prompt, step.hint, step.note, getattr(step, "text", ""),
                         getattr(step, "reason", ""), *step.wrong.values(),
                         *getattr(step, "reasons", {}).values(),
                         *(get_rule(r).text for r in step.cited)):
                if text:
                    yield f"{lesson.id}/{step.id}", text


def test_no_lesson_or_rule_text_talks_about_the_project_or_its_sources():
    for name, text in _lesson_texts():
        flat = " ".join(text.split())
        for phrase in ("the source", "this project", "the tutor ", "never asks about"):
            assert phrase not in flat.lower(), f"{name}: {phrase!r} in {flat!r}"


def test_prompts_point_where_the_cards_are_drawn():
    """Terminal and notebook draw the situation first, then the prompt: a prompt says the
    cards are above, never below."""
    from pepper_tutor.apps.tutor import render_step

    step = find_lesson("bidding").step("over-a-four")
    console = Console(file=io.StringIO(), width=100, color_system=None, record=True)
    console.print(render_step(step))
    drawn = console.export_text()
    assert drawn.index("your hand") < drawn.index("What do")
    html = step_html(step)
    assert html.index("pepper-prompt") > html.index("♥")
    for name, text in _lesson_texts():
        assert not re.search(r"(cards|hand) below", text), f"{name}: {text!r}"


def rests_on(step) -> set[str]:
    """The rules a question asks about: those its revealed answer names, and those it cites
    (its hint quotes them, and a miss brings them back in review). A bid is judged by
    counting tricks, one of them for the exchange where the table has one, so a bid also
    rests on the exchange."""
    ids = {*step.reveal().rule_ids, *step.rule_ids}
    if step.kind == "bid" and step.rules.has_exchange:
        ids.add("declare.exchange")
    return ids


def explained(lesson_id: str, by_id: dict, seen: frozenset[str] = frozenset()) -> set[str]:
    """The rules a lesson's explain steps cite, with those of every lesson it requires."""
    lesson = by_id[lesson_id]
    ids = {r for s in lesson.steps if s.kind == "explain" for r in s.cited}
    for req in lesson.requires:
        if req not in seen:  # a cycle in requires is another test's business
            ids |= explained(req, by_id, seen | {lesson_id})
    return ids


def untaught(lesson, by_id: dict) -> list[tuple[str, list[str]]]:
    """Each question of ``lesson`` whose rules no explain step has taught before it: one
    earlier in the lesson, or any in a lesson it requires (transitively). A question's own
    feedback does not count: the learner meets the rule before being asked about it."""
    known: set[str] = set()
    for req in lesson.requires:
        known |= explained(req, by_id)
    out = []
    for step in lesson.steps:
        if step.kind == "explain":
            known |= set(step.cited)
        elif missing := rests_on(step) - known:
            out.append((step.id, sorted(missing)))
    return out


def test_every_lesson_question_is_taught_before_it_is_asked():
    lessons = all_lessons()
    by_id = {lesson.id: lesson for lesson in lessons}
    faults = [(lesson.id, step, missing) for lesson in lessons
              for step, missing in untaught(lesson, by_id)]
    assert faults == [], "\n".join(f"{lid}/{step}: {missing} not taught before it"
                                     for lid, step, missing in faults)


def test_a_bid_asked_before_judging_a_hand_is_taught_is_caught():
    """The rule above in one case: move the bidding lesson's explain on judging a hand after
    its bids, and the first bid is reported."""
    lessons = all_lessons()
    by_id = {lesson.id: lesson for lesson in lessons}
    bidding = by_id["bidding"]
    judging = bidding.step("judging-a-hand")
    moved = replace(bidding, steps=[s for s in bidding.steps if s is not judging] + [judging])
    first_bid = next(s.id for s in moved.steps if s.kind == "bid")
    assert (first_bid, ["declare.exchange"]) in untaught(moved, by_id)
    assert first_bid not in dict(untaught(bidding, by_id))


def test_lessons_require_only_lessons_before_them():
    """The menu lists lessons in order: a lesson builds only on lessons listed above it."""
    order = [lesson.id for lesson in all_lessons()]
    for i, lesson in enumerate(all_lessons()):
        for req in lesson.requires:
            assert req in order[:i], f"{lesson.id} requires {req}, which is not before it"


def test_the_notebooks_are_numbered_as_their_files():
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        title = "".join(cells[0]["source"]).splitlines()[0]
        assert title.startswith(f"# {int(path.name[:2])} · "), (path.name, title)


def test_record_notes_and_table_lines_read_as_sentences():
    assert note_place("exchange.passed") == "The card partner sent"
    assert all(note_place(k)[0].isupper() and "." not in note_place(k)
               for k in ("trump", "mode", "exchange.discard", "exchange.passed", "defense"))
    for defense in Defense:
        words = Decision(Seat.E, Phase.DEFENSE, defense, "defense", False, 0).words
        assert not words.startswith("the "), words  # it follows a seat: "East the ..."
