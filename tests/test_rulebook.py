"""The rulebook: the required ids exist, and every worked example is a known-answer test."""

import pytest

from pepper_tutor import get_rulebook
from pepper_tutor.rulebook.book import UnknownRuleError, get_rule
from pepper_tutor.rulebook.known_answers import run_check

REQUIRED = [
    "deck",
    "deal",
    "rank.trump",
    "rank.right-bower",
    "rank.left-bower",
    "rank.plain",
    "rank.no-trump",
    "bid.order",
    "bid.must-top",
    "bid.all-pass",
    "declare.trump",
    "declare.exchange",
    "declare.with-partner",
    "declare.big-pepper",
    "defend.surrender",
    "play.lead",
    "play.follow-suit",
    "play.left-bower-suit",
    "play.trick-winner",
    "score.bid",
    "score.defenders",
    "score.pepper",
    "score.surrender",
    "game.target",
    "game.tie",
    "variant.minimum-bid",
    "variant.dealer-must-bid",
    "variant.score-what-you-get",
    "variant.dirty-clubs",
    "variant.partnerships",
    "preset.standard",
    "preset.simple",
    "preset.cutthroat",
    "play.turn",
    "play.own-cards",
    "bid.ladder",
    "score.sweep",
    "cutthroat.auction",
    "cutthroat.deal",
    "cutthroat.score",
]

EXAMPLES = [r for r in get_rulebook() if r.example is not None and r.example.check is not None]


@pytest.mark.parametrize("rule_id", REQUIRED)
def test_required_rule_exists_with_text(rule_id):
    rule = get_rule(rule_id)
    assert rule.id == rule_id and len(rule.text) > 40
    assert rule.section in dict(get_rulebook().sections)


@pytest.mark.parametrize("rule", EXAMPLES, ids=[r.id for r in EXAMPLES])
def test_rulebook_example_agrees_with_the_engine(rule):
    result = run_check(rule.example.check)
    assert result.ok, f"{rule.id}: {result}"


def test_examples_cover_the_main_rules():
    covered = {r.id for r in EXAMPLES}
    for rid in (
        "rank.left-bower",
        "play.left-bower-suit",
        "play.trick-winner",
        "score.pepper",
        "game.tie",
        "variant.dirty-clubs",
    ):
        assert rid in covered


def test_a_wrong_known_answer_is_caught():
    assert not run_check({"kind": "trick", "trump": "H", "cards": ["JD", "AH"], "winner": 1}).ok


def test_unknown_id_suggests_close_ones():
    with pytest.raises(UnknownRuleError, match=r"did you mean rank\.left-bower"):
        get_rule("rank.left-bowr")


def test_search_finds_rules_by_word():
    assert "rank.left-bower" in [r.id for r in get_rulebook().search("left bower")]
