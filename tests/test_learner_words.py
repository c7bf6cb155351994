"""Words that misled a little (issue 38): "no trump" for "no trumps", a lone left bower
counted as a sure trick, and the yellow T on trump cards never explained."""

from __future__ import annotations

import re

from pepper_tutor.engine.calls import Trump
from pepper_tutor.engine.cards import Card
from pepper_tutor.render.cards_html import card_svg
from pepper_tutor.render.steps_html import step_html
from pepper_tutor.teaching.lessons.files import all_lessons, lesson_files
from pepper_tutor.teaching.questions.steps import RankStep

TEXTS = {p.name: p.read_text(encoding="utf-8") for p in lesson_files()}


def test_a_hand_without_trumps_is_not_called_no_trump() -> None:
    # "no trump" is the contract; a hand holding none has "no trumps"
    for name, text in TEXTS.items():
        flat = " ".join(text.split())
        for slip in ("with no trump and", "has no trump and", "suits and no trump,"):
            assert slip not in flat.lower(), (name, slip)


def test_no_lesson_counts_each_bower_as_a_sure_trick() -> None:
    for name, text in TEXTS.items():
        flat = " ".join(text.split()).lower()
        assert "each bower is a trick" not in flat, name
    bidding = next(x for x in all_lessons() if x.id == "bidding")
    judging = " ".join(bidding.step("judging-a-hand").text.split())  # type: ignore[attr-defined]
    assert "three sure tricks" in judging and "left bower can fall to the right" in judging


def test_the_trump_tag_says_what_it_is_where_it_is_drawn() -> None:
    svg = card_svg(Card.parse("JD"), Trump.H)
    assert "<title>T: a trump this hand</title>" in svg
    assert "T: a trump" not in card_svg(Card.parse("JC"), Trump.H)
    step = RankStep(id="r", trump=Trump.H, cards=(Card.parse("AH"), Card.parse("JD")))
    page = step_html(step)
    assert re.search(r">T</span> on a card: a trump this hand", page)
    no_trump = RankStep(id="n", trump=Trump.NT, cards=(Card.parse("AH"), Card.parse("KH")))
    assert "a trump this hand" not in step_html(no_trump)
