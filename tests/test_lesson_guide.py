"""A lesson step's whole hand (``guide:``): read and checked with the lesson, opened at its
moment, and shown in the terminal tutor, the notebook's lesson widget and the Play and learn
page's Python. What each front end shows is the guide's own steps, built here by the engine
from the same record, never written into the test."""

from __future__ import annotations

import io
import json
import re
import shutil
from html import unescape
from pathlib import Path

import pytest
from rich.console import Console

from pepper_tutor.apps.cli import main
from pepper_tutor.records.hand_record import load_record
from pepper_tutor.render.guide import build_guide, lesson_guide
from pepper_tutor.teaching.learner.store import LearnerStore
from pepper_tutor.teaching.lessons.files import check_lesson, find_lesson, load_lesson
from pepper_tutor.teaching.lessons.step_guide import example_hand, parse_moment

LESSON = """\
format: pepper-lesson/1
id: a-hand
title: A whole hand
steps:
  - kind: explain
    id: look
    text: Watch the fourth trick.
    guide: {hand: set-bid, at: trick 4 card 3}
  - kind: score
    id: score-it
    bid: 4
    bidder: W
    tricks: {NS: 3, EW: 3}
    guide: {hand: hands/own.yaml, at: call 2, seat: N}
"""


def write_lesson(folder: Path, text: str = LESSON) -> Path:
    (folder / "hands").mkdir(exist_ok=True)
    shutil.copy(example_hand("set-bid"), folder / "hands" / "own.yaml")
    path = folder / "a-hand.yaml"
    path.write_text(text, "utf-8")
    return path


# ---- reading and checking ----------------------------------------------------------------


def test_a_guide_names_an_example_hand_or_a_file_beside_the_lesson(tmp_path):
    lesson = load_lesson(write_lesson(tmp_path))
    look, score = (lesson.guide_of(lesson.step(i)) for i in ("look", "score-it"))
    assert look is not None and score is not None
    assert look.record.deal == load_record(example_hand("set-bid")).deal
    assert score.record.file == str(tmp_path / "hands" / "own.yaml")
    assert (look.at.text, score.at.text, score.seat and score.seat.name) == (
        "trick 4 card 3", "call 2", "N")
    assert not check_lesson(lesson)
    assert lesson.step("score-it").answerable  # the guide accompanies it; it asks nothing


@pytest.mark.parametrize("raw,where", [
    ("deal", None), ("score", None), ("trump", ("trump",)), ("call 3", ("auction", 2)),
    ("trick 2", ("tricks", 1, 0)), (" Trick  4 card 3 ", ("tricks", 3, 2)),
])
def test_moments_are_named_by_the_hand(raw, where):
    assert parse_moment(raw).where == where


@pytest.mark.parametrize("raw", ["trick 0", "step 12", "trick 4 card", 12, None, ["deal"]])
def test_a_moment_that_is_no_moment_is_refused(raw):
    with pytest.raises(ValueError):
        parse_moment(raw)


BAD_GUIDES = [
    ("{hand: set-bid, at: trick 7}", 8, "the hand plays 6 tricks, so it has no trick 7"),
    ("{hand: set-bid, at: trick 2 card 5}", 8, "trick 2 has 4 cards, so no trick 2 card 5"),
    ("{hand: set-bid, at: call 9}", 8, "the hand has 4 calls, so no call 9"),
    ("{hand: surrender, at: trick 1}", 8, "the hand plays 0 tricks, so it has no trick 1"),
    ("{hand: set-bid, at: the end}", 8, "'the end' is no moment of a hand (expected deal, "
                                        "call N, trump, trick N, trick N card M or score)"),
    ("{hand: setbid}", 8, "no example hand 'setbid' (there are: big-pepper-set,"),
    ("{hand: hands/none.yaml}", 8, "no hand record at"),
    ("{hand: set-bid, seat: Q}", 8, "'Q' is not a seat"),
    ("{hand: cutthroat-three, seat: W}", 8, "West has no seat at this hand's 3-player table"),
    ("{hand: set-bid, page: 2}", 8, "a guide has no key 'page' (expected hand, at, until, "
                                    "seat)"),
    ("{hand: set-bid, at: trick 4, until: trick 2}", 8,
     "the guide ends at trick 2, before it opens at trick 4"),
    ("{hand: set-bid, until: trick 7}", 8,
     "the guide ends at trick 7, but the hand plays 6 tricks, so it has no trick 7"),
    ("{hand: set-bid, until: later}", 8, "'later' is no moment of a hand"),
    ("[set-bid]", 8, "guide needs the hand"),
]


@pytest.mark.parametrize("guide,line,message", BAD_GUIDES)
def test_lesson_check_names_the_line_of_a_bad_guide_and_exits_2(tmp_path, capsys, guide,
                                                                 line, message):
    path = write_lesson(tmp_path, LESSON.replace("{hand: set-bid, at: trick 4 card 3}", guide))
    assert main(["lesson", "--check", "--no-analysis", str(path)]) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"pepper-tutor: {path}:{line}:"), err
    assert message in err and "Traceback" not in err, err


def test_a_hand_that_does_not_read_is_reported_at_its_own_line(tmp_path, capsys):
    path = write_lesson(tmp_path)
    own = tmp_path / "hands" / "own.yaml"
    own.write_text(own.read_text("utf-8").replace("dealer: E", "dealer: Q"), "utf-8")
    assert main(["lesson", "--check", "--no-analysis", str(path)]) == 2
    err = capsys.readouterr().err
    assert re.search(rf"{re.escape(str(own))}:\d+:\d+: 'Q' is not a seat", err), err


def test_the_shipped_guides_open_where_their_lessons_say():
    from pepper_tutor.teaching.lessons.files import all_lessons

    assert find_lesson("scoring").guides, "the scoring lesson shows a whole hand"
    for lesson in all_lessons():
        for step_id, guide in lesson.guides.items():
            built, at = lesson_guide(guide)
            shown = built.steps[at]
            if guide.at.where is not None:
                assert shown.where == guide.at.where, (lesson.id, step_id)
            else:
                assert shown.kind == ("score" if guide.at.is_score else "deal"), step_id
            if guide.at.where and guide.at.where[0] == "tricks":  # that trick, that card
                trick, card = guide.at.where[1:]
                assert shown.trick == int(trick) + 1 and len(shown.table) == int(card) + 1


def test_the_guide_opens_at_its_moment():
    record = load_record(example_hand("set-bid"))
    guide = build_guide(record)
    fourth = guide.steps[guide.step_at(parse_moment("trick 4 card 3"))]
    assert [str(c) for _, c in fourth.table] == [str(e.value) for e in record.tricks[3][:3]]
    assert guide.step_at(parse_moment("deal")) == 0
    assert guide.step_at(parse_moment("score")) == len(guide.steps) - 1
    call = guide.steps[guide.step_at(parse_moment("call 2"))]
    assert call.kind == "call" and call.auction == guide.steps[2].auction[:2]
    trump = guide.steps[guide.step_at(parse_moment("trump"))]
    assert trump.kind == "trump"


# ---- the front ends ----------------------------------------------------------------------


class _Inputs:
    """The lines a learner types, one a prompt; the prompts are kept, as the learner saw
    them."""

    def __init__(self, *lines: str):
        self.queue = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.queue:
            raise EOFError
        return self.queue.pop(0)


def test_the_terminal_tutor_shows_the_hand_at_its_moment_and_steps_through_it(tmp_path):
    from pepper_tutor.apps.tutor import Tutor

    lesson = load_lesson(write_lesson(tmp_path))
    guide = lesson.guide_of(lesson.step("look"))
    assert guide is not None
    built, at = lesson_guide(guide)
    out = io.StringIO()
    typed = _Inputs("g", "", "b", "b", "t 1", "e", "", "nonsense", "q", "q")
    tutor = Tutor(LearnerStore("kim", tmp_path / "home"), Console(file=out, width=120), typed)
    tutor.run_lesson(lesson)
    text = out.getvalue()
    n = len(built.steps)
    shown = re.findall(r"Game guide · step (\d+) of (\d+)", text)
    first = built.trick_starts()[1]
    assert [int(s) for s, _ in shown] == [at + 1, at + 2, at + 1, at, first + 1, n]
    assert {int(t) for _, t in shown} == {n}
    for i in (at, at + 1, at - 1, first, n - 1):
        assert built.steps[i].title in text
    assert "That is the end of the hand" in text
    assert "'nonsense' is not a choice in the hand" in text
    assert "Back to the question." in text
    assert "g: the whole hand" in typed.prompts[0]
    assert typed.prompts[1:9] == ["hand> "] * 8


def test_an_answerable_step_with_a_guide_is_still_answered(tmp_path):
    from pepper_tutor.apps.tutor import Tutor

    lesson = load_lesson(write_lesson(tmp_path))
    out = io.StringIO()
    store = LearnerStore("kim", tmp_path / "home")
    right = lesson.step("score-it").answer_text()
    tutor = Tutor(store, Console(file=out, width=120),
                  _Inputs("", "guide", "", "b", "e", "q", right, "q"))
    tutor.run_lesson(lesson)
    text = out.getvalue()
    guide = lesson.guide_of(lesson.step("score-it"))
    assert guide is not None
    built, at = lesson_guide(guide)
    assert built.view is not None and built.view.name == "N"  # the seat's view it asked for
    # it asks, so its hand stops at the moment it opens at: no further, and said so
    assert len(built.steps) == at + 1
    assert built.steps[at].title in text and built.steps[at - 1].title in text
    assert "The hand stops here for this question" in text
    assert "It stops there, before anything that would answer the question." in " ".join(
        text.split())
    assert "e where it stops" in text and "e the score" not in text
    assert "Right." in text
    assert store.lesson("a-hand") is not None
    assert "score-it" in store.lesson("a-hand").done


def _page_data(frame_html: str) -> dict:
    srcdoc = unescape(re.search(r'srcdoc="([^"]*)"', frame_html).group(1))
    raw = re.search(r'<script type="application/json" id="pg-data">(.*?)</script>', srcdoc,
                    re.S).group(1)
    return json.loads(raw)


def test_the_notebook_lesson_widget_shows_the_viewer_inside_the_step(tmp_path):
    pytest.importorskip("ipywidgets")
    from pepper_tutor.apps.notebook import LessonWidget

    lesson = load_lesson(write_lesson(tmp_path))
    widget = LessonWidget(lesson, store=LearnerStore("kim", tmp_path / "home"))
    guides = [c for c in widget.children if "pepper-step-guide" in c._dom_classes]
    assert len(guides) == 1
    built, at = lesson_guide(lesson.guides["look"])
    data = _page_data(guides[0].value)
    assert data["start"] == at + 1
    assert [s["title"] for s in data["steps"]] == [s.title for s in built.steps]
    assert 'title="Game guide: ' in guides[0].value
    widget.next_button.click()  # the next step has a hand of its own, in North's view
    data = _page_data(next(c for c in widget.children
                           if "pepper-step-guide" in c._dom_classes).value)
    assert data["view"] == "N"
    west = data["steps"][0]["hands"]["W"]
    assert west == 6  # face down in North's view: no card of West's in the page
    widget.back_button.click()
    plain = LessonWidget(find_lesson("bowers"), store=LearnerStore("kim", tmp_path / "home"))
    assert not [c for c in plain.children if "pepper-step-guide" in c._dom_classes]


def test_the_play_and_learn_page_shows_the_viewer_inside_the_step(tmp_path):
    from pepper_tutor.apps.web import WebApp

    app = WebApp(home=tmp_path, seed=1)
    reply = json.loads(app.handle("lesson", "scoring"))
    lesson = find_lesson("scoring")
    for step in lesson.steps:
        guide = lesson.guide_of(step)
        html = reply["html"]
        if guide is None:
            assert "pepper-guide-frame" not in html
        else:
            built, at = lesson_guide(guide)
            assert html.count("pepper-guide-frame") == 1
            assert _page_data(html)["start"] == at + 1
            assert f"It opens at step {at + 1} of {len(built.steps)}" in html
            break
        reply = json.loads(app.handle("reveal" if step.answerable else "next"))
        if step.answerable:
            reply = json.loads(app.handle("next"))
    else:
        pytest.fail("the scoring lesson has no step with a guide")


# ---- nothing in the guide gives the step's answer away -------------------------------------

def _guided_steps() -> list[tuple[str, str]]:
    from pepper_tutor.teaching.lessons.files import all_lessons

    return [(lesson.id, step.id) for lesson in all_lessons() for step in lesson.steps
            if lesson.guide_of(step) is not None]


# "EW -4", "NS: +3", "N/S 3 E/W -4": a side's points as the score shows them
SCORE_LINE = re.compile(r"\b(?:NS|EW|N/S|E/W|[NESW])\s*:?\s*[+-]\d|the score\s*:", re.I)


def _strings(value: object) -> list[str]:
    """Every string in the page's data: what the viewer can put on the screen."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _shown_texts(step, guide, tmp_path: Path) -> dict[str, list[str]]:
    """The guide as each front end shows it with ``step``: the terminal tutor's panels as
    the learner steps it from the deal to its end, and the data and words of the frame the
    notebook widget and the Play and learn page put inside the step."""
    from pepper_tutor.apps.notebook import LessonWidget
    from pepper_tutor.apps.tutor import Tutor
    from pepper_tutor.apps.web import WebApp

    lesson = next(lesson for lesson in _all_lessons() if step in lesson.steps)
    whole = len(build_guide(guide.record, guide.seat).steps)
    out = io.StringIO()
    tutor = Tutor(LearnerStore("kim", tmp_path / "home"), Console(file=out, width=120),
                  _Inputs("d", *[""] * whole, "e", "q"))
    tutor.show_guide(guide)
    assert tutor.walk_guide(guide)
    shown = {"terminal": [out.getvalue()]}

    widget = LessonWidget(lesson, store=LearnerStore("kim", tmp_path / "nb"))
    app = WebApp(home=tmp_path / "web", seed=1)
    reply = json.loads(app.handle("lesson", lesson.id))
    for before in lesson.steps[:lesson.steps.index(step)]:
        if before.answerable:
            widget.reveal_button.click()
            app.handle("reveal")
        widget.next_button.click()
        reply = json.loads(app.handle("next"))
    frame = next(c for c in widget.children if "pepper-step-guide" in c._dom_classes).value
    for name, html in (("widget", frame), ("page", reply["html"])):
        section = re.search(r'<section class="pepper-step-guide".*?</section>', html, re.S)
        assert section is not None, name
        words = unescape(re.sub(r"<[^>]+>", " ", re.sub(r'srcdoc="[^"]*"', "",
                                                         section.group(0))))
        srcdoc = unescape(re.search(r'srcdoc="([^"]*)"', section.group(0)).group(1))
        page_words = unescape(re.sub(r"<[^>]+>", " ", re.sub(
            r"<(script|style)\b.*?</\1>", "", srcdoc, flags=re.S)))
        shown[name] = [words, page_words, *_strings(_page_data(section.group(0)))]
    return shown


def _all_lessons():
    from pepper_tutor.teaching.lessons.files import all_lessons

    return all_lessons()


@pytest.mark.slow
@pytest.mark.parametrize("lesson_id,step_id", _guided_steps())
def test_no_shipped_guide_gives_its_steps_answer_away(tmp_path, lesson_id, step_id):
    """Every shipped step with a whole hand: what the learner can step to in the terminal,
    the notebook's widget and the page names the answer in no spelling the step accepts,
    and a score step's hand shows no score."""
    pytest.importorskip("ipywidgets")
    from pepper_tutor.teaching.questions.answer_free import AnswerForms
    from pepper_tutor.teaching.questions.steps import ScoreStep

    lesson = find_lesson(lesson_id)
    step = lesson.step(step_id)
    guide = lesson.guide_of(step)
    assert guide is not None
    shown = _shown_texts(step, guide, tmp_path)
    if not step.answerable:
        return
    answer = AnswerForms(words=(step.answer_text(), *step.answer_forms().words))
    for front, texts in shown.items():
        for text in texts:
            assert not answer.named_in(text, roles=False), (front, step.answer_text(), text)
            if isinstance(step, ScoreStep):
                assert not SCORE_LINE.search(text), (front, SCORE_LINE.search(text), text)


def test_the_shipped_guides_are_checked_for_their_steps():
    assert ("scoring", "a-whole-hand") in _guided_steps()


def test_a_step_that_asks_shows_its_hand_only_up_to_its_moment(tmp_path):
    """The score step opens its hand at the second call and asks the score: its guide ends
    there, and the steps after it are nowhere in what the front ends are given. The explain
    step's hand goes on to the score."""
    from pepper_tutor.render.guide_html import lesson_guide_html

    lesson = load_lesson(write_lesson(tmp_path))
    asks, explains = lesson.guides["score-it"], lesson.guides["look"]
    whole = build_guide(asks.record, asks.seat)
    cut, at = lesson_guide(asks)
    assert asks.until is asks.at and not asks.whole and explains.whole
    assert [s.title for s in cut.steps] == [s.title for s in whole.steps[:at + 1]]
    assert cut.steps[-1].where == ("auction", 1) and cut.tricks == 0
    html = lesson_guide_html(asks)
    page = unescape(html)
    for later in whole.steps[at + 1:]:
        assert later.title not in page and later.title not in html, later.title
    assert "The score" not in page and _page_data(html)["trick_starts"] == {}
    assert "It stops there, before anything that would answer the question." in page
    assert "It stops" not in lesson_guide_html(explains)
    shown, opens = lesson_guide(explains)
    assert shown.steps[-1].kind == "score" and len(shown.steps) == len(whole.steps)
    assert shown.steps[opens].where == ("tricks", 3, 2)


def _with_score_guide(folder: Path, guide: str) -> Path:
    return write_lesson(folder, LESSON.replace("{hand: hands/own.yaml, at: call 2, seat: N}",
                                               guide))


def test_a_guide_that_shows_its_steps_answer_is_refused(tmp_path, capsys):
    path = _with_score_guide(tmp_path, "{hand: hands/own.yaml, at: call 2, seat: N,\n"
                                       "            until: score}")
    assert main(["lesson", "--check", "--no-analysis", str(path)]) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"pepper-tutor: {path}:15:"), err
    assert "is the hand's score, this step's answer" in err and "until" in err, err


def test_until_lets_a_guide_go_on_where_it_gives_nothing_away(tmp_path, capsys):
    path = _with_score_guide(tmp_path, "{hand: hands/own.yaml, at: call 2, seat: N, "
                                       "until: trick 6 card 4}")
    assert main(["lesson", "--check", "--no-analysis", str(path)]) == 0, capsys.readouterr()
    guide = load_lesson(path).guides["score-it"]
    cut = lesson_guide(guide)[0]
    assert cut.steps[-1].where == ("tricks", 5, 3) and cut.tricks == 6
    assert not any(s.kind == "score" for s in cut.steps)


TRICK_LESSON = """\
format: pepper-lesson/1
id: a-trick
title: A trick of a whole hand
steps:
  - kind: trick-winner
    id: who-wins
    trump: S
    trick: [AS, JC, JH, JD]
    guide: {GUIDE}
"""


@pytest.mark.parametrize("guide,refused", [
    ("{hand: set-bid, at: trick 2 card 3}", False),
    ("{hand: set-bid, at: trick 2 card 3, until: trick 2 card 3}", False),
    ("{hand: set-bid, at: trick 2 card 3, until: trick 3}", True),
    ("{hand: set-bid, at: trick 2 card 3, until: score}", True),
])
def test_a_trick_steps_guide_may_not_show_that_trick_won(tmp_path, capsys, guide, refused):
    path = tmp_path / "a-trick.yaml"
    path.write_text(TRICK_LESSON.replace("{GUIDE}", guide), "utf-8")
    assert main(["lesson", "--check", "--no-analysis", str(path)]) == (2 if refused else 0)
    err = capsys.readouterr().err
    assert ("shows who wins the trick this step asks about" in err) is refused, err


def test_the_lesson_schema_knows_until():
    from importlib import resources

    import jsonschema
    import yaml

    schema = json.loads(resources.files("pepper_tutor").joinpath("data/lesson.schema.json")
                        .read_text("utf-8"))
    ok = LESSON.replace("at: call 2,", "at: call 2, until: trick 6 card 4,")
    jsonschema.validate(yaml.safe_load(ok), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(yaml.safe_load(ok.replace("until: trick 6 card 4", "until: later")),
                            schema)
