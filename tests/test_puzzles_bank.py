"""The shipped puzzles (pepper_tutor/data/puzzles.json): enough of them, every kind shipped
or left to the drills, no kind's answers given by a guess, each record loading and stopping
at its decision, each theme true of its answers, their provenance; and a sample re-validated
by the analysis as it is now, failing with the rebuild commands when the analysis moved."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from pepper_tutor.engine.calls import Trump
from pepper_tutor.engine.cards import Card
from pepper_tutor.engine.ranking import trick_winner
from pepper_tutor.records.hand_record import parse_record
from pepper_tutor.rulebook.book import get_rulebook
from pepper_tutor.teaching.drills.positions import JUDGEMENT_DRILLS
from pepper_tutor.teaching.puzzles.bank import (
    REBUILD,
    bank_path,
    bank_puzzles,
    load_bank,
    missing_runs,
)
from pepper_tutor.teaching.puzzles.classes import class_of
from pepper_tutor.teaching.puzzles.puzzle import parse_action, position_of
from pepper_tutor.teaching.puzzles.selection import cap_of, select
from pepper_tutor.teaching.puzzles.shares import counts, highest_card, highest_share, random_share
from pepper_tutor.teaching.puzzles.themes import RULES_OF, theme_holds
from pepper_tutor.teaching.puzzles.validation import KINDS, kind_of, validate

REBUILD_HINT = ("the analysis has moved: rebuild the puzzles with `make puzzles`, which runs\n  "
                + "\n  ".join(REBUILD))


@pytest.mark.slow
def test_the_file_was_made_by_the_documented_commands_in_order() -> None:
    data = load_bank()
    made = [m["command"] for m in data["made"]]
    assert made and made == list(REBUILD[:len(made)]), made
    assert missing_runs(data) == list(REBUILD[len(made):])
    mined = [*data["puzzles"], *data["held"]]
    assert sum(m["added"] for m in data["made"]) == len(mined)
    assert len({p["id"] for p in mined}) == len(mined)
    # the shipped puzzles are the selection from every puzzle mined, in the file's order
    kept, held = select(mined)
    assert [p["id"] for p in kept] == [p["id"] for p in data["puzzles"]]
    assert [p["id"] for p in held] == [p["id"] for p in data["held"]]
    # every puzzle mined was played out; the answer held there, or it is refuted, apart
    refuted = data["refuted"]
    assert sum(m["refuted"] for m in data["made"]) == len(refuted)
    assert not {p["id"] for p in refuted} & {p["id"] for p in mined}
    assert all(p["played_out"]["gain"] >= 0 for p in mined)
    assert all(p["played_out"]["gain"] < 0 for p in refuted)


# The judgement drill that asks each kind of decision the bank may leave to the drills.
DRILL_OF = {"bid": "bid", "trump": "declare", "mode": "declare", "discard": "exchange",
            "send": "exchange", "defense": "defend"}


def test_the_whole_build_ships_a_thousand_puzzles_and_mines_every_kind() -> None:
    """Every kind is mined. A kind the selection holds back whole is one whose every answer
    is one class, so a guess gives it (the card sent in the exchange is the top trump; the
    way of playing, measured by play, is the exchange): it is left to the judgement drill
    that asks it."""
    puzzles = bank_puzzles()
    kinds = Counter(p.kind for p in puzzles)
    left = missing_runs()
    if left:  # a build cut short (the file says how far it got): make puzzles goes on
        pytest.skip(f"the shipped puzzles are a partial build ({len(puzzles)} puzzles, "
                    f"{kinds}); {len(left)} of the {len(REBUILD)} runs are left: make puzzles")
    assert len(puzzles) >= 1000, kinds
    data = load_bank()
    mined = [*data["puzzles"], *data["held"]]
    assert {p["kind"] for p in mined} == set(KINDS), Counter(p["kind"] for p in mined)
    assert {"bid", "defense", "play"} <= set(kinds), kinds
    for kind in set(KINDS) - set(kinds):
        answers = {_answer_class(p) for p in mined if p["kind"] == kind}
        assert len(answers) == 1, (kind, answers)  # held back whole only when a guess gives it
        assert DRILL_OF[kind] in JUDGEMENT_DRILLS, kind


def _answer_class(p: dict[str, Any]) -> str:
    return class_of(p["kind"], position_of(p["record"]), p["answers"])


def test_no_kind_s_answers_are_given_by_a_guess() -> None:
    """Per kind, no class of answer (the highest card, a suit, exchange, play, ...) answers
    more than 3/4 of the puzzles, and the highest legal card at most half the play
    puzzles: the goals of issue 32 that `make puzzles` prints."""
    puzzles = bank_puzzles()
    for kind, classes in counts(puzzles).items():
        total = sum(classes.values())
        for answer, n in classes.items():
            assert n <= cap_of(kind, answer) * total, (kind, dict(classes))
    assert highest_share(puzzles) <= 0.5
    play = counts(puzzles)["play"]
    assert play["the highest card"] / sum(play.values()) == highest_share(puzzles)


def test_every_theme_is_true_of_every_answer() -> None:
    """What a theme's title says ("Take the trick", "Win cheaply", "Cash the ace", "Don't
    trump your partner", "Go alone", ...) holds of each of the puzzle's answers."""
    for p in bank_puzzles():
        state = p.position()
        tempting = parse_action(p.kind, p.tempting)
        for answer in p.answers:
            assert theme_holds(state, p.theme, parse_action(p.kind, answer), tempting), (
                p.id, p.theme, answer, p.tempting)


def test_every_record_loads_and_stops_at_the_decision_its_answer_is_for() -> None:
    for p in bank_puzzles():
        record = {k: v for k, v in p.record.items() if k != "x-discard"}
        assert record["format"] == "pepper-hand/1"
        parse_record(json.dumps(record), p.id)  # a valid record on its own
        state = p.position()
        assert kind_of(state) == p.kind, p.id
        assert state.to_act == p.seat, p.id
        legal = state.legal_actions()
        answers = {parse_action(p.kind, a) for a in p.answers}
        assert answers <= set(legal), p.id
        assert parse_action(p.kind, p.tempting) in legal and p.tempting not in p.answers
        need = 2 if p.kind in ("mode", "defense") else 3
        assert len(legal) == p.data["legal"] >= need, p.id


def test_each_puzzle_keeps_its_figures_theme_and_provenance() -> None:
    data = load_bank()
    for made in data["made"]:
        assert made["thresholds"]["margin"] == 1.0 and made["thresholds"]["low"] == 0.3
        assert made["thresholds"]["samples"] == 200 and made["date"]
    rule_ids = {r.id for r in get_rulebook()}
    assert {r for rules in RULES_OF.values() for r in rules} <= rule_ids
    for p in bank_puzzles():
        assert p.theme in RULES_OF and p.rules_cited == RULES_OF[p.theme]
        runs = p.data["runs"]
        assert len(runs) == 2 and runs[0]["seed"] != runs[1]["seed"]
        # (the figures are kept to three places: a low end of 0.3004 is kept as 0.3)
        assert all(r["margin"] >= 1.0 and r["low"] >= 0.3 and r["samples"] == 200
                   for r in runs), p.id
        assert p.options[0]["action"] in p.answers
        if p.kind == "play":
            assert p.trick is not None and 1 <= p.trick <= 4
        if p.layout is not None:
            assert p.layout["best"]["net"] > p.layout["tempting"]["net"]


def _sample() -> list[str]:
    """The first puzzle of each kind, and of each theme among card puzzles: cheap to
    re-validate, and touching every way the analysis values a decision."""
    chosen: dict[tuple[str, str], str] = {}
    for p in bank_puzzles():
        key = (p.kind, p.theme if p.kind == "play" else "")
        chosen.setdefault(key, p.id)
    return sorted(chosen.values())


@pytest.mark.slow
@pytest.mark.parametrize("puzzle_id", _sample() if bank_path().exists() else [])
def test_a_sample_still_validates(puzzle_id: str) -> None:
    p = next(q for q in bank_puzzles() if q.id == puzzle_id)
    checked = validate(p.position(), p.data["made"]["decision"])
    assert checked.passed and {str(a) for a in checked.answers} == set(p.answers), (
        f"puzzle {p.id} ({p.kind}, {p.theme}): "
        + "; ".join(f"{c.seed}: {c.why}" for c in checked.checks) + "\n" + REBUILD_HINT)
    stored = [r["margin"] for r in p.data["runs"]]
    fresh = [round(c.figures.margin, 3) for c in checked.checks if c.figures is not None]
    assert fresh == stored, f"puzzle {p.id}: margins {fresh} now, {stored} stored\n" \
        + REBUILD_HINT


@pytest.mark.slow
def test_the_answer_shares_count_every_puzzle_and_the_highest_card_beats_the_others() -> None:
    """``make puzzles`` prints the bank's answers by kind (pepper_tutor.teaching.puzzles
    .shares); each puzzle counts once, and the highest legal card of a play puzzle takes
    the trick from every other legal card (played into the trick as it stands)."""
    puzzles = bank_puzzles()
    by_kind = Counter(p.kind for p in puzzles)
    assert {k: sum(c.values()) for k, c in counts(puzzles).items()} == dict(by_kind)
    play = [p for p in puzzles if p.kind == "play" and p.position().current_trick][:60]
    assert play
    for p in play:
        state = p.position()
        trick = [c for _, c in state.current_trick]
        top = highest_card(p)
        trump = state.trump if state.trump is not None else Trump.NT
        for other in state.legal_actions():
            if isinstance(other, Card) and other != top:
                both = [*trick, top, other]  # the two as if played in turn: top first
                assert trick_winner(both, trump, state.rules.left_bower) != len(both) - 1, \
                    (p.id, str(top), str(other))
    assert 0.0 < random_share(puzzles) < 1.0 and 0.0 <= highest_share(puzzles) <= 1.0
