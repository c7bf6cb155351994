"""Which mined puzzles the bank ships (teaching/puzzles/selection.py): each class of answer
within its cap per kind, as many of an over-full class as the cap allows, chosen by a
lottery on the ids, the same whatever order the puzzles came in."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from pepper_tutor.teaching.puzzles import selection
from pepper_tutor.teaching.puzzles.selection import CAP, HIGHEST_CAP, cap_of, lot, select


def _mined(**counts: int) -> list[dict[str, Any]]:
    """Stand-in puzzles: ``play_the_highest_card=6`` makes six play puzzles whose answer
    is of the class "the highest card"."""
    out = []
    for key, n in counts.items():
        kind, answer = key.split("_", 1)
        out += [{"id": f"pz-{kind}-{answer}-{i}", "kind": kind,
                 "class": answer.replace("_", " ")} for i in range(n)]
    return out


@pytest.fixture(autouse=True)
def _class_from_the_stand_ins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selection, "_class", lambda p: p["class"])


def _shares(puzzles: list[dict[str, Any]]) -> dict[str, Counter[str]]:
    out: dict[str, Counter[str]] = {}
    for p in puzzles:
        out.setdefault(p["kind"], Counter())[p["class"]] += 1
    return out


def test_an_over_full_class_keeps_as_many_as_its_cap_allows_and_no_more() -> None:
    mined = _mined(mode_exchange=83, mode_partner=7, play_the_highest_card=545,
                   play_another_card=233, defense_play=67, defense_surrender=23)
    kept, held = select(mined)
    shares = _shares(kept)
    assert shares["mode"] == Counter({"exchange": 21, "partner": 7})  # 21 = 3/4 of 28
    assert shares["play"] == Counter({"the highest card": 233, "another card": 233})
    assert shares["defense"] == Counter({"play": 67, "surrender": 23})  # 74%: within
    assert len(kept) + len(held) == len(mined)
    for kind, classes in shares.items():
        total = sum(classes.values())
        for answer, n in classes.items():
            assert n <= cap_of(kind, answer) * total
            # one more would break the cap: none was held back that fits
            if any(p["kind"] == kind and p["class"] == answer for p in held):
                assert n + 1 > cap_of(kind, answer) * (total + 1)


def test_a_kind_with_one_class_is_held_back_whole_and_the_caps_are_the_goals() -> None:
    kept, held = select(_mined(send_the_highest_card=34, bid_5=13, bid_4=9, bid_pass=1))
    assert {p["kind"] for p in held} == {"send"} and len(held) == 34
    assert len(kept) == 23
    assert (Fraction(3, 4), Fraction(1, 2)) == (CAP, HIGHEST_CAP)
    assert cap_of("play", "the highest card") == HIGHEST_CAP
    assert cap_of("send", "the highest card") == CAP


def test_the_lottery_is_by_id_whatever_the_order() -> None:
    mined = _mined(mode_exchange=40, mode_partner=5)
    kept, held = select(mined)
    shuffled = mined[:]
    random.Random(7).shuffle(shuffled)
    again, held_again = select(shuffled)
    assert {p["id"] for p in again} == {p["id"] for p in kept}
    assert {p["id"] for p in held_again} == {p["id"] for p in held}
    assert [p["id"] for p in again] == [p["id"] for p in shuffled if p in kept]  # order kept
    exchange = sorted((p for p in mined if p["class"] == "exchange"), key=lambda p: lot(p["id"]))
    assert {p["id"] for p in held} == {p["id"] for p in exchange[15:]}  # 15 = 3/4 of 20
