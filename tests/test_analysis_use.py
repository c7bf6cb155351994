"""The analysis where people meet it: annotate --analyse, pepper-tutor analyse, lesson hints."""

import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
import yaml

from pepper_tutor.apps.cli import main
from pepper_tutor.records.annotate import annotate_file
from pepper_tutor.render.annotation import to_html, to_json, to_markdown
from pepper_tutor.teaching.lessons.files import find_lesson
from pepper_tutor.teaching.lessons.session import LessonSession

HANDS = Path(str(resources.files("pepper_tutor").joinpath("data", "hands")))
SCHEMA = json.loads(resources.files("pepper_tutor").joinpath("data/annotation.schema.json")
                    .read_text())


def test_the_left_bower_trap_is_graded_as_the_costly_card():
    a = annotate_file(HANDS / "left-bower-trap.yaml", analyse=True)
    costly = [f for f in a.findings if f.kind == "costly"]
    assert costly and costly[0].where == "tricks.2.2"
    assert "West trumped the K♣ with the J♦ (the left bower)" in costly[0].message
    assert "It cost 1 trick against perfect play" in costly[0].message
    assert "tricks." not in costly[0].message and "E+W" not in costly[0].message
    assert costly[0].rule == "analysis.double-dummy"
    card = a.tricks[1].cards[1]
    assert card.cost == 1 and card.grade_glyph == "?"
    data = json.loads(to_json(a))
    jsonschema.validate(data, SCHEMA)
    assert data["tricks"][1]["cards"][1]["cost"] == 1
    # The author's ?? and the analysis's ? side by side, the second said in words.
    assert "J♦?? (analysis ?: costs 1 trick)" in to_markdown(a)
    assert 'class="grade" title="costs 1 against perfect play"' in to_html(a)


def test_without_analyse_there_are_no_grades():
    a = annotate_file(HANDS / "left-bower-trap.yaml")
    assert all(c.cost is None for t in a.tricks for c in t.cards)
    assert not [f for f in a.findings if f.kind == "costly"]


def test_annotate_cli_analyse_flag(capsys):
    assert main(["annotate", str(HANDS / "left-bower-trap.yaml"), "--analyse", "-f",
                 "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert any(f["kind"] == "costly" for f in out["findings"])


def test_analyse_a_position_gives_advice(tmp_path, capsys):
    record = yaml.safe_load((HANDS / "exchange-made.yaml").read_text())
    position = {k: record[k] for k in ("format", "rules", "dealer", "deal")}
    position["auction"] = ["pass"]
    path = tmp_path / "position.yaml"
    path.write_text(yaml.safe_dump(position))
    assert main(["analyse", str(path), "--samples", "24", "--seed", "3"]) == 0
    first = capsys.readouterr().out
    assert first.strip().startswith("Bid advice for ") and "sampled deals" in first
    assert main(["analyse", str(path), "--samples", "24", "--seed", "3"]) == 0
    assert capsys.readouterr().out == first  # the same seed, the same advice


def test_analyse_a_whole_hand_grades_it(capsys):
    assert main(["analyse", str(HANDS / "left-bower-trap.yaml")]) == 0
    assert "cost tricks against perfect play" in capsys.readouterr().out


def test_analyse_refuses_bad_input(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:  # a usage error, from the argument parser
        main(["analyse", str(HANDS / "surrender.yaml"), "--samples", "0"])
    assert exit_.value.code == 2
    assert "--samples: must be from 1 to 10,000, not 0" in capsys.readouterr().err


def test_judgement_steps_have_an_analysis_rung_before_the_answer():
    lesson = find_lesson("bidding")
    session = LessonSession(lesson)
    while not session.step.has_analysis:
        session.next()
    assert session.hint_total == 4
    rungs = [session.hint() for _ in range(4)]
    assert rungs[2][1].startswith("What would the analysis do?")
    assert rungs[3][1].startswith("The answer:")
    assert session.status.revealed


def test_lesson_check_compares_judgement_steps_with_the_analysis(capsys):
    # The defending lesson agrees with the analysis, or says why not (disagree:): it passes.
    assert main(["lesson", "--check", str(Path(__file__).parents[1] / "lessons"
                                          / "08-defending.yaml")]) == 0
    out = capsys.readouterr().out
    assert "ok  defending" in out and "warning:" not in out
