"""The annotator on the example hands, in all four formats, and against the engine."""

import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from pepper_tutor.apps.cli import main
from pepper_tutor.records.annotate import annotate, annotate_file
from pepper_tutor.records.hand_record import parse_record
from pepper_tutor.render.annotation import to_html, to_json, to_markdown, to_rich

HANDS = sorted(Path(str(resources.files("pepper_tutor").joinpath("data", "hands")))
               .glob("*.yaml"))
SCHEMA = json.loads(resources.files("pepper_tutor").joinpath("data/annotation.schema.json")
                    .read_text())
# The findings each example was written to show; every other example annotates cleanly.
EXPECTED_FINDINGS = {"revoke.yaml": ["revoke"]}
DESIGN = (Path(__file__).parent / "data" / "design-example.yaml").read_text()


def test_there_are_enough_examples_for_a_teacher():
    names = {p.stem for p in HANDS}
    assert len(names) >= 8
    for needed in ("exchange-made", "set-bid", "surrender", "little-pepper-made",
                   "big-pepper-set", "no-trump", "revoke", "left-bower-trap", "dirty-clubs",
                   "cutthroat-three"):
        assert needed in names


@pytest.mark.parametrize("path", HANDS, ids=lambda p: p.name)
def test_example_annotates_in_every_format(path, capsys):
    a = annotate_file(path)
    assert [f.kind for f in a.findings] == EXPECTED_FINDINGS.get(path.name, [])
    data = json.loads(to_json(a))
    jsonschema.validate(data, SCHEMA)
    assert data["complete"] and data["status"] in ("scored", "surrendered")
    md, html = to_markdown(a), to_html(a)
    for t in a.tricks:
        assert t.winning_card.display in md and f'data-trick="{t.number}"' in html
    assert html.startswith("<!doctype html>") and "<script" not in html
    for fmt in ("text", "json", "markdown", "html"):
        assert main(["annotate", str(path), "--format", fmt]) == 0
    assert capsys.readouterr().err == ""
    assert to_rich(a) is not None


@pytest.mark.parametrize("path", HANDS, ids=lambda p: p.name)
def test_example_trick_winners_and_score_match_the_stated_result(path):
    a = annotate_file(path)
    result = a.record.result
    assert result is not None, "examples state their result so the loader checks it"
    assert a.tricks_won == result["tricks"] and a.score == result["score"]


def test_revoke_is_a_finding_that_names_the_followers_and_goes_on():
    a = annotate_file(next(p for p in HANDS if p.name == "revoke.yaml"))
    (finding,) = a.findings
    assert finding.kind == "revoke" and finding.where.startswith("tricks.")
    assert "would have followed" in finding.message
    assert finding.rule in ("play.follow-suit", "play.left-bower-suit")
    trick, card = (int(x) for x in finding.where.split(".")[1:])
    assert a.tricks[trick - 1].cards[card - 1].revoke
    assert len(a.tricks) == 6 and a.complete  # the replay carried on


def test_design_example_explains_the_left_bower():
    a = annotate(parse_record(DESIGN, "design.yaml"))
    second = a.tricks[1]
    assert second.rule == "rank.left-bower" and second.winning_card.display == "J♦"
    assert "left bower with hearts trump, second only to the J♥" in second.explanation
    assert a.match_score == {"before": {"NS": 30, "EW": 12}, "after": {"NS": 34, "EW": 8}}
    assert a.made is True and a.score == {"NS": 4, "EW": -4}
    assert "glyph" in a.to_dict()["tricks"][0]["cards"][2]


def test_html_escapes_record_text():
    hostile = DESIGN.replace('note: "East must follow trumps with the 9."',
                             'note: "<script>alert(1)</script> & <b>bold</b>"')
    hostile = hostile.replace("event: \"Thursday game night\"",
                              "event: \"<img src=x onerror=alert(2)>\"")
    a = annotate(parse_record(hostile, "evil.yaml"))
    for html in (to_html(a), a._repr_html_()):
        assert "<script>" not in html and "<img" not in html and "<b>bold" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in html
    md = to_markdown(a)
    assert "<script>" not in md and "&lt;script&gt;" in md


def test_stepping_trick_by_trick():
    a = annotate(parse_record(DESIGN, "design.yaml"))
    first = a.upto(1)
    assert len(first.tricks) == 1 and first.score is None and not first.complete
    assert a.upto(6).score == a.score
    assert 'data-trick="2"' not in first._repr_html_()


def test_output_file_is_written_whole(tmp_path, capsys):
    out = tmp_path / "hand.html"
    src = tmp_path / "hand.yaml"
    src.write_text(DESIGN)
    assert main(["annotate", str(src), "-f", "html", "-o", str(out)]) == 0
    assert out.read_text().startswith("<!doctype html>")
    src.write_text(DESIGN.replace("trump: H", "trump: Z"))
    assert main(["annotate", str(src), "-f", "html", "-o", str(out)]) == 2
    assert out.read_text().startswith("<!doctype html>")  # the old output is untouched
    assert "'Z' is not a trump" in capsys.readouterr().err
