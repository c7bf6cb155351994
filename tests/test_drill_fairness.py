"""Judgement drills that give nothing away: across the screened positions seats, dealers,
contracts (no trump and peppers included) and the scoring vary, and the scoring named in a
defend question says nothing of its answer; hints speak of the position."""

from __future__ import annotations

import random
from collections import Counter

from pepper_tutor.engine.ranking import bower
from pepper_tutor.engine.rules import get_ruleset
from pepper_tutor.teaching.drills.positions import JUDGEMENT_DRILLS, answer_class, table_words
from pepper_tutor.teaching.drills.screened import load_screened, step_of

DATA = load_screened()
STALE = ("made before the scoring varied: rebuild pepper_tutor/data/screened-drills.json "
         "(python -m pepper_tutor.teaching.drills.screened --per-kind 30 --seed 2026 --jobs 2)")


def _entries(kind: str) -> list[dict]:
    return [e for preset in DATA["positions"].values() for e in preset.get(kind, [])]


def test_defend_positions_vary_in_seat_dealer_contract_and_answer():
    entries = _entries("defend")
    assert len(entries) >= 40
    assert len({e["bidder"] for e in entries}) == 4
    assert len({e["dealer"] for e in entries}) == 4
    assert "NT" in {e["trump"] for e in entries}
    # The contracts are the players' own bids with the hands dealt (a pepper only where they
    # would bid one), and more than one.
    assert len({e["bid"] for e in entries}) >= 2


def _scoring(entry: dict) -> str:
    return get_ruleset(entry["rules"]).name


def test_every_question_names_the_very_rules_its_answer_was_analysed_under():
    """The header is the entry's rules, and those are the rules of the stored analysis's
    position (a standard table's defend positions once said one scoring and were another)."""
    for kind in JUDGEMENT_DRILLS:
        for entry in _entries(kind):
            rules = get_ruleset(entry["rules"])
            step = step_of(entry)
            assert step.rules == rules and step.state().rules == rules, entry["hand"]
            assert step.prompt.startswith(table_words(rules)), (kind, step.prompt)


def test_the_scoring_named_in_a_header_does_not_tell_the_answer():
    """Today's complaint: "Simple scoring" meant surrender in 60 of 60. Over the screened
    positions of each kind, each answer's share under each scoring named is within 0.2 of
    its share over all of them (a scoring with fewer than 6 positions is too few to tell)."""
    for kind in JUDGEMENT_DRILLS:
        entries = _entries(kind)
        classes = [answer_class(step_of(e)) for e in entries]
        overall = Counter(classes)
        by_scoring: dict[str, Counter[str]] = {}
        for e, c in zip(entries, classes, strict=True):
            by_scoring.setdefault(_scoring(e), Counter())[c] += 1
        for scoring, answers in by_scoring.items():
            total = sum(answers.values())
            if total < 6:
                continue
            for c, n in overall.items():
                share, own = n / len(entries), answers[c] / total
                assert abs(own - share) <= 0.2, (kind, scoring, c, own, share, STALE)


def test_the_scoring_varies_in_every_judgement_drill_and_defence_holds_both_answers():
    for kind in JUDGEMENT_DRILLS:
        if kind == "defend":  # the sweep rule only: positions.scorings says why
            assert {_scoring(e) for e in _entries(kind)} == {"standard"}, STALE
            continue
        assert len({_scoring(e) for e in _entries(kind)}) >= 2, (kind, STALE)
    by_scoring: dict[str, set[str]] = {}
    for e in _entries("defend"):
        by_scoring.setdefault(_scoring(e), set()).update(e["accept"])
    assert all(answers == {"play", "surrender"} for answers in by_scoring.values()), (
        by_scoring, STALE)


def test_exchange_and_declare_positions_vary_their_seats_and_trumps():
    exchange = _entries("exchange")
    assert len({e["bidder"] for e in exchange}) >= 3
    assert len({e["dealer"] for e in exchange}) >= 3
    assert "NT" in {e["trump"] for e in exchange}
    modes = [e for e in _entries("declare") if e["choose"] == "mode"]
    # Every suit, and no trump where a no-trump declaration's way of playing is clear: the
    # set of 2026-12-05 (seed 2026), screened under the expert's calibration, which reads
    # a no-trump partnership's play as the expert plays it (made 79% where the club
    # players' table said 71%), holds none of the 20 (the club players' table gave 3).
    assert {"C", "D", "H", "S"} <= {e["trump"] for e in modes}


def test_every_hint_speaks_of_the_position():
    rng = random.Random(4)
    for kind in ("bid", "declare", "exchange", "defend"):
        entries = _entries(kind)
        for entry in rng.sample(entries, 5):
            step = step_of(entry)
            hint = step.nudge()
            # It names the hand's own holding (a card of it, a bower it holds by name, or
            # that it has none to name).
            trump = getattr(step, "trump", None) if kind in ("exchange", "defend") else None
            bowers = {f"the {b} bower" for c in step.hand
                      if trump is not None and (b := bower(c, trump, step.rules.left_bower))}
            assert any(c.display in hint for c in step.hand) or "no trump at all" in hint \
                or "no aces" in hint or any(b in hint for b in bowers), (kind, hint)
            assert hint.startswith("You hold") or hint.startswith("Counting"), hint


def test_a_defend_question_names_its_scoring_and_seats():
    entry = _entries("defend")[0]
    step = step_of(entry)
    rules = get_ruleset(entry["rules"])
    assert step.prompt.startswith(f"{rules.preset.capitalize()} scoring")
    assert step.prompt.startswith(table_words(rules))
    assert f"{step.bidder.word} bid" in step.prompt
    assert f"You are {step.seat.word}" in step.prompt
    assert step.state().to_act is step.seat
