"""Judgement drills that give nothing away: across the screened positions seats, dealers,
contracts (no trump and peppers included) and the scoring vary, and the scoring named in a
defend question says nothing of its answer; hints speak of the position."""

from __future__ import annotations

import random
from collections import Counter

from pepper_tutor.engine.rules import get_ruleset
from pepper_tutor.teaching.drills.screened import load_screened, step_of

DATA = load_screened()


def _entries(kind: str) -> list[dict]:
    return [e for preset in DATA["positions"].values() for e in preset.get(kind, [])]


def test_defend_positions_vary_in_seat_dealer_contract_and_answer():
    entries = _entries("defend")
    assert len(entries) >= 40
    assert len({e["bidder"] for e in entries}) == 4
    assert len({e["dealer"] for e in entries}) == 4
    assert "NT" in {e["trump"] for e in entries}
    assert {e["bid"] for e in entries} & {"LP", "BP"}


def test_the_scoring_of_a_defend_question_does_not_tell_its_answer():
    """Today's complaint: "Simple scoring" meant surrender in 60 of 60. Now each scoring
    named in the header holds both answers, neither more than two thirds of the time."""
    by_scoring: dict[str, Counter[str]] = {}
    for e in _entries("defend"):
        by_scoring.setdefault(e["rules"], Counter())[" ".join(e["accept"])] += 1
    for scoring, answers in by_scoring.items():
        total = sum(answers.values())
        assert set(answers) == {"play", "surrender"}, (scoring, answers)
        assert max(answers.values()) <= 2 * total / 3, (scoring, answers)


def test_exchange_and_declare_positions_vary_their_seats_and_trumps():
    exchange = _entries("exchange")
    assert len({e["bidder"] for e in exchange}) >= 3
    assert len({e["dealer"] for e in exchange}) >= 3
    assert "NT" in {e["trump"] for e in exchange}
    modes = [e for e in _entries("declare") if e["choose"] == "mode"]
    assert "NT" in {e["trump"] for e in modes}


def test_every_hint_speaks_of_the_position():
    rng = random.Random(4)
    for kind in ("bid", "declare", "exchange", "defend"):
        entries = _entries(kind)
        for entry in rng.sample(entries, 5):
            step = step_of(entry)
            hint = step.nudge()
            # It names the hand's own holding (a card of it, or that it has none to name).
            assert any(c.display in hint for c in step.hand) or "no trump at all" in hint \
                or "no aces" in hint, (kind, hint)
            assert hint.startswith("You hold") or hint.startswith("Counting"), hint


def test_a_defend_question_names_its_scoring_and_seats():
    entry = _entries("defend")[0]
    step = step_of(entry)
    rules = get_ruleset(entry["rules"])
    assert step.prompt.startswith(f"{rules.preset.capitalize()} scoring")
    assert f"{step.bidder.word} bid" in step.prompt
    assert f"You are {step.seat.word}" in step.prompt
    assert step.state().to_act is step.seat
