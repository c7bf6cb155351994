"""Property-based fuzzing of everything that reads text people write: card notation, the
record and lesson readers (random bytes, and the shipped files mutated), and the trick/legal
API. The oracle: a clean, located refusal (NotationError, LoadError) or a value that the
rest of the program then uses without failing.

Bounded by the ``ci`` profile so the suite stays fast; ``make fuzz`` runs the same
properties with the ``fuzz`` profile, over more than 100,000 inputs, and prints the count.
Every input that once crashed is kept as an ``@example`` (or in tests/test_hardening.py).
"""

from __future__ import annotations

import io
import os
import random
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pepper_tutor import (
    DECK,
    Bid,
    Card,
    HandState,
    NotationError,
    Seat,
    Trump,
    effective_suit,
    explain_trick,
    legal_plays,
    trick_rank,
    trick_winner,
)
from pepper_tutor.engine.ranking import is_trump
from pepper_tutor.records.annotate import annotate
from pepper_tutor.records.hand_record import LoadError, parse_record
from pepper_tutor.teaching.lessons.files import check_lesson, parse_lesson

ROOT = Path(__file__).resolve().parents[1]
HANDS = sorted((ROOT / "pepper_tutor" / "data" / "hands").glob("*.yaml"))
LESSON_FILES = sorted((ROOT / "lessons").glob("*.yaml"))

# Each property's share of a `make fuzz` run (``fuzz`` profile); the ``ci`` profile runs a
# small fixed number of each, derandomized so the suite is repeatable.
FUZZ_SHARE = {"notation": 40_000, "calls": 20_000, "tricks": 20_000, "hand_play": 3_000,
              "record_bytes": 12_000, "record_mutations": 8_000, "lesson_bytes": 3_000,
              "lesson_mutations": 3_000}
CI_EXAMPLES = {"notation": 300, "calls": 200, "tricks": 300, "hand_play": 40,
               "record_bytes": 150, "record_mutations": 80, "lesson_bytes": 60,
               "lesson_mutations": 40}
FUZZING = os.environ.get("PEPPER_FUZZ") == "1"
COUNTS: Counter[str] = Counter()


def budget(name: str) -> settings:
    return settings(max_examples=(FUZZ_SHARE if FUZZING else CI_EXAMPLES)[name],
                    deadline=None, derandomize=not FUZZING, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


@pytest.fixture(scope="module", autouse=True)
def report_counts() -> Iterator[None]:
    yield
    if FUZZING:
        total = sum(COUNTS.values())
        parts = ", ".join(f"{k} {v:,}" for k, v in sorted(COUNTS.items()))
        sys.__stderr__.write(f"\nfuzz: {total:,} inputs ({parts})\n")  # type: ignore[union-attr]


# ---- card notation ----------------------------------------------------------------------

NOTATION_ALPHABET = "9TJQKA10jqkatCDHSNcdhsn♣♦♥♠ \t-_,.x0\x1b[]"


@budget("notation")
@given(st.one_of(st.text(NOTATION_ALPHABET, max_size=6), st.text(max_size=8)))
@example("10")  # a rank without a suit
@example("♥")
@example("")
@example("1O♦")
def test_card_notation_reads_or_refuses_cleanly(text: str) -> None:
    COUNTS["notation"] += 1
    try:
        card = Card.parse(text)
    except NotationError as err:
        assert repr(text) in str(err) or not text.strip()
        return
    assert card in DECK
    assert Card.parse(str(card)) is card and Card.parse(card.display) is card
    assert Card.parse(text.swapcase()) is card


@budget("calls")
@given(st.one_of(st.text(max_size=6), st.sampled_from(
    ["NT", "nt", "no trump", "none", "LP", "BP", "pass", "0", "7", "-1", "4", "♣"])))
@example("None")  # str(None) once read as no trump through an empty YAML value
def test_seats_trumps_and_calls_read_or_refuse_cleanly(text: str) -> None:
    COUNTS["calls"] += 1
    for parse in (Seat.parse, Trump.parse, Bid.parse):
        try:
            value = parse(text)
        except NotationError:
            continue
        assert parse(str(value)) == value


# ---- the trick and legal API ------------------------------------------------------------

tricks = st.lists(st.sampled_from(DECK), min_size=2, max_size=4, unique=True)
trumps = st.sampled_from(list(Trump))


@budget("tricks")
@given(tricks, trumps, st.lists(st.sampled_from(DECK), max_size=6, unique=True))
def test_the_winner_beats_every_card_and_legal_plays_follow_suit(cards, trump, hand) -> None:
    COUNTS["tricks"] += 1
    win = trick_winner(cards, trump)
    why = explain_trick(cards, trump)
    assert why.winner_index == win and why.winning_card is cards[win]
    led = effective_suit(cards[0], trump)

    def strength(card: Card) -> tuple[int, int]:
        suit = effective_suit(card, trump)
        level = 2 if is_trump(card, trump) else 1 if suit == led else 0
        return level, trick_rank(card, trump)

    assert all(strength(cards[win]) > strength(c) for i, c in enumerate(cards) if i != win)
    seats = [Seat(i) for i in range(len(cards))]
    assert explain_trick(cards, trump, seats).winner_index == win
    legal = legal_plays(hand, cards[0], trump)
    assert set(legal) <= set(hand) and (legal or not hand)
    assert legal_plays(legal, cards[0], trump) == legal  # following is stable


@budget("hand_play")
@given(st.integers(0, 2**32 - 1), st.sampled_from(["standard", "simple", "cutthroat"]))
def test_every_legal_action_is_ruled_legal_and_every_other_card_not(seed, preset) -> None:
    COUNTS["hand_play"] += 1
    rng = random.Random(seed)
    state = HandState.deal(preset, rng=rng)
    while not state.is_terminal():
        actions = state.legal_actions()
        assert actions
        action = rng.choice(actions)
        assert state.check(action).legal
        seat = state.to_act
        if isinstance(action, Card) and seat is not None:
            for card in state.hand(seat):
                assert state.check(card).legal == (card in actions)
        state.apply(action)


# ---- the readers ------------------------------------------------------------------------


def render_everything(text: bytes | str, name: str) -> None:
    """Parse a record; if it loads, every renderer must take it."""
    from rich.console import Console

    from pepper_tutor.render.annotation import to_html, to_json, to_markdown, to_rich

    try:
        record = parse_record(text, name)
    except LoadError as err:
        assert err.problems and all(p.file == name for p in err.problems)
        return
    a = annotate(record)
    to_json(a), to_markdown(a), to_html(a)
    Console(file=io.StringIO(), width=100).print(to_rich(a))


def check_lesson_text(text: bytes | str, name: str) -> None:
    try:
        lesson = parse_lesson(text, name)
    except LoadError as err:
        assert err.problems and all(p.file == name for p in err.problems)
        return
    for problem in check_lesson(lesson):
        assert problem.file == name and problem.line >= 1


@budget("record_bytes")
@given(st.one_of(st.binary(max_size=300),
                 st.text("[]{}:,-&*!<>|'\"#%@` \n\tab1\x00\x1b", max_size=200)))
@example(b"[" * 495 + b"]" * 495)
@example(b"<<: 1\n")
@example(b"!!binary x: 1\n")
@example(b"format: !!timestamp nope\n")
@example(b"a: !!int abc\n")
@example(b"a: &x [1, *x]\n")
@example(b"\x01")  # PyYAML's reader refused it before the located error handling
def test_random_bytes_never_crash_the_record_reader(data) -> None:
    COUNTS["record_bytes"] += 1
    render_everything(data, "fuzz.yaml")


@budget("lesson_bytes")
@given(st.binary(max_size=300))
def test_random_bytes_never_crash_the_lesson_reader(data: bytes) -> None:
    COUNTS["lesson_bytes"] += 1
    check_lesson_text(data, "fuzz.yaml")


# Tokens that appear in real files, so mutations stay close to something a person writes.
TOKENS = ["", " ", "\n", "-", ":", "[", "]", "{", "}", ",", "~", "null", "''", "true", "0",
          "-1", "7", "99999999999999999999", "1.5", "NT", "JD", "8H", "J♦", "pass", "BP",
          "N", "Q", "note", "card", "call", "&a", "*a", "!!str", "!!int", "!!set", "<<",
          "x-", "\x1b[2J", "[link=x]", "\t", "#", "|", ">", "'", '"']


@st.composite
def mutated(draw: st.DrawFn, files: list[Path]) -> str:
    text = draw(st.sampled_from(files)).read_text()
    lines = text.splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["token", "delete", "duplicate", "swap", "cut"]))
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        if not lines:
            break
        line = lines[i]
        if op == "token":
            at = draw(st.integers(0, len(line)))
            width = draw(st.integers(0, 4))
            lines[i] = line[:at] + draw(st.sampled_from(TOKENS)) + line[at + width:]
        elif op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, line)
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines = lines[:i]
    return "".join(lines)


@budget("record_mutations")
@given(mutated(HANDS))
@example("!!int Big pepper: x\nformat: pepper-hand/1\n")  # found by make fuzz: a tagged key
def test_mutated_shipped_records_load_or_are_refused_with_locations(text: str) -> None:
    COUNTS["record_mutations"] += 1
    render_everything(text, "hand.yaml")


@budget("lesson_mutations")
@given(mutated(LESSON_FILES))
def test_mutated_shipped_lessons_load_or_are_refused_with_locations(text: str) -> None:
    COUNTS["lesson_mutations"] += 1
    check_lesson_text(text, "lesson.yaml")
