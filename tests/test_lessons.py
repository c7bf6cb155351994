"""Lesson files: all shipped lessons pass the engine's check; broken ones fail by step."""

import json
from importlib import resources

import jsonschema
import pytest
import yaml

from pepper_tutor.apps.cli import main
from pepper_tutor.files.yamlpos import LoadError
from pepper_tutor.teaching.lessons.files import (
    all_lessons,
    check_lesson,
    lesson_files,
    parse_lesson,
)

LESSONS = all_lessons()
SCHEMA = json.loads(resources.files("pepper_tutor").joinpath("data/lesson.schema.json")
                    .read_text())


@pytest.mark.slow
def test_lesson_check_passes_on_every_shipped_lesson(capsys):
    assert main(["lesson", "--check"]) == 0
    out = capsys.readouterr().out
    assert out.count("ok ") == len(LESSONS)


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.id for lesson in LESSONS])
def test_lesson_is_substantial_and_mixed(lesson):
    assert not check_lesson(lesson, {x.id for x in LESSONS})
    assert len(lesson.steps) >= 8
    kinds = {s.kind for s in lesson.steps}
    assert len(kinds - {"explain"}) >= 2 or len(lesson.answerable_steps) >= 6
    assert len(lesson.answerable_steps) >= 5


@pytest.mark.parametrize("path", lesson_files(), ids=lambda p: p.name)
def test_lesson_files_validate_against_the_shipped_schema(path):
    jsonschema.validate(yaml.safe_load(path.read_text()), SCHEMA)


def test_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


GOOD = """format: pepper-lesson/1
id: tiny
title: Tiny
steps:
  - kind: trick-winner
    id: left
    trump: H
    trick: [JD, AH, 9S, QH]
  - kind: score
    id: sweep
    bid: 4
    tricks: 6
"""


@pytest.mark.parametrize("change,claim,step,reason", [
    ("    trick: [JD, AH, 9S, QH]\n", "    answer: AH\n", "step left (trick-winner)",
     "the lesson says the answer is A♥, but the engine says the J♦ wins"),
    ("    tricks: 6\n", "    answer: {NS: 6, EW: 0}\n", "step sweep (score)",
     "the engine says NS +4, EW -4"),
])
def test_seeded_broken_lessons_fail_with_the_step_named(tmp_path, capsys, change, claim, step,
                                                        reason):
    path = tmp_path / "broken.yaml"
    path.write_text(GOOD.replace(change, change + claim))
    assert main(["lesson", "--check", str(path)]) == 2
    err = capsys.readouterr().err
    assert step in err and reason in err and f"{path}:" in err


def test_judgement_step_with_an_illegal_accepted_answer_fails(tmp_path, capsys):
    path = tmp_path / "bid.yaml"
    path.write_text(GOOD + """  - kind: bid
    id: low
    hand: [JH, JD, AH, KH, AS, AC]
    auction: [4]
    accept: [3]
    reason: Too low on purpose.
""")
    assert main(["lesson", "--check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "step low (bid)" in err and "breaks the rules" in err and "does not top" in err


def test_a_wrong_note_for_a_right_answer_fails(tmp_path, capsys):
    path = tmp_path / "w.yaml"
    path.write_text(GOOD.replace("    trick: [JD, AH, 9S, QH]\n", "    trick: [JD, AH, 9S, QH]\n"
                                 "    wrong:\n      - {answer: JD, note: nope}\n"))
    assert main(["lesson", "--check", str(path)]) == 2
    assert "the wrong answer 'JD' is in fact right" in capsys.readouterr().err


@pytest.mark.parametrize("text,line,message", [
    (GOOD.replace("kind: score", "kind: scores"), 9, "unknown step kind 'scores'"),
    (GOOD.replace("trick: [JD, AH, 9S, QH]", "trick: [JD, AX, 9S, QH]"), 8, "'AX' is not a card"),
    (GOOD.replace("    tricks: 6\n", "    trikcs: 6\n"), 12, "score steps have no key 'trikcs'"),
    (GOOD.replace("title: Tiny\n", ""), 1, "needs a title"),
    (GOOD + "  - kind: rank\n    id: left\n    trump: H\n    cards: [JH, AH]\n", 14,
     "two steps have the id 'left'"),
    ("format: pepper-lesson/1\nid: x\ntitle: [unclosed\n", 4, "YAML syntax error"),
])
def test_load_errors_name_the_line(text, line, message):
    with pytest.raises(LoadError) as err:
        parse_lesson(text, "l.yaml")
    found = [str(p) for p in err.value.problems]
    assert any(p.startswith(f"l.yaml:{line}:") and message in p for p in found), found


def test_lesson_command_bad_name_exits_2(capsys):
    assert main(["lesson", "no-such-lesson"]) == 2
    assert "no lesson called 'no-such-lesson'" in capsys.readouterr().err
