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
from collections.abc import Callable, Iterator
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
    get_ruleset,
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
              "lesson_mutations": 3_000, "api": 30_000, "native_search": 20_000}
CI_EXAMPLES = {"notation": 300, "calls": 200, "tricks": 300, "hand_play": 40,
               "record_bytes": 150, "record_mutations": 80, "lesson_bytes": 60,
               "lesson_mutations": 40, "api": 400, "native_search": 150}
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
@given(st.integers(0, 2**32 - 1),
       st.sampled_from(["standard", "simple", "cutthroat", "lions-club"]))
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


# ---- the public API called with anything -------------------------------------------------
#
# Random calls of the public API (pepper_tutor's names, HandState's and Match's methods) with
# arguments of any type: right values, wrong values, wrong kinds (a Trump where a Bid goes, a
# string where a card goes) and wrong types (None, floats, bytes, lists, objects), always in
# a number the signature takes. The oracle: a value, or an exception that is a ValueError
# subclass (NotationError, RuleSetError, IllegalActionError, ...), a refused call leaving the
# HandState exactly as it was. Any other exception (TypeError, AttributeError, IndexError,
# ...) is counted in API_FAILURES and fails the test; `make fuzz` prints the count (target 0).

API_FAILURES: Counter[str] = Counter()
STANDARD = get_ruleset("standard")


class _Odd:
    """An object of no kind the API knows."""

    def __repr__(self) -> str:
        return "<odd>"


def _api_values() -> st.SearchStrategy[object]:
    from pepper_tutor import Defense, Mode, Phase, Rank, Suit

    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(-3, 30), st.integers(), st.floats(),
        st.text(max_size=6), st.binary(max_size=4),
        st.sampled_from(["JD", "AH", "9s", "10♦", "NT", "H", "pass", "4", "LP", "BP", "N",
                         "W", "exchange", "partner", "play", "surrender", "standard",
                         "simple", "cutthroat", "rank.left-bower", "NS", "EW", "", " "]),
        st.sampled_from([*DECK, *Trump, *Suit, *Bid, *Seat, *Mode, *Defense, *Phase, *Rank]),
        st.sampled_from([_Odd(), STANDARD, get_ruleset("cutthroat"), float("nan")]),
        st.builds(random.Random, st.integers(0, 9)))
    keys = st.one_of(st.sampled_from(["N", "E", "S", "W", "NS", "EW", "players", "preset",
                                      "dirty_clubs", "minimum_bid"]),
                     st.integers(-3, 5), st.none(), st.sampled_from([*Seat, *DECK]))
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=7), st.tuples(inner, inner),
        st.dictionaries(keys, inner, max_size=4)), max_leaves=8)


def _state_fingerprint(state: HandState) -> tuple[object, ...]:
    return (state.phase, state.snapshot(), tuple(state.history), tuple(state.calls),
            state.mode, state.discard, state.passed, state.defense, state.dealer)


def _fresh_state(seed: int, steps: int) -> HandState:
    rng = random.Random(seed)
    state = HandState.deal(rng.choice(["standard", "simple", "cutthroat"]), rng=rng)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


Call = Callable[[HandState, object, tuple[object, ...]], object]


def _api_targets() -> dict[str, tuple[Call, object]]:
    """Each target: a call of (a fresh HandState, a Match, the random arguments), and the
    function whose signature says how many arguments it takes."""
    import pepper_tutor as api
    from pepper_tutor import Defense, Match, Mode, Suit

    book = api.get_rulebook()
    plain: dict[str, Callable[..., object]] = {name: getattr(api, name) for name in (
        "parse_cards", "effective_suit", "trick_rank", "trick_winner", "legal_plays",
        "sort_by_rank", "score_hand", "game_status", "get_rule", "check_action",
        "check_trick_winner", "explain_trick", "RuleSet")}
    plain.update({"Card": Card, "Card.parse": Card.parse, "Card.from_index": Card.from_index,
                  "Suit.parse": Suit.parse, "Trump.parse": Trump.parse,
                  "Trump.from_suit": Trump.from_suit, "Bid.parse": Bid.parse,
                  "Mode.parse": Mode.parse, "Defense.parse": Defense.parse,
                  "Seat.parse": Seat.parse, "HandState.deal": HandState.deal,
                  "HandState.from_hands": HandState.from_hands, "HandState": HandState,
                  "Match": Match, "rulebook.search": book.search, "rulebook.get": book.get})

    def plain_call(fn: Callable[..., object]) -> Call:
        return lambda s, m, a: fn(*a)

    def method_call(name: str, on_state: bool) -> Call:
        return lambda s, m, a: getattr(s if on_state else m, name)(*a)

    targets: dict[str, tuple[Call, object]] = {
        name: (plain_call(fn), fn) for name, fn in plain.items()}
    # The rule set made is dealt and played out: a switch let through unchecked once crashed
    # only the deal after it.
    targets["get_ruleset"] = (
        lambda s, m, a: _play_out(api.get_ruleset(*a[:1], **_kwargs(a[1:]))), None)
    for method in ("new_hand", "record", "add_points"):
        targets[f"match.{method}"] = (method_call(method, False), getattr(Match, method))
    for method in ("apply", "check", "play_checked", "legal_actions", "hand", "dealt", "undo",
                   "random_tricks", "playout", "copy", "snapshot", "tricks_won",
                   "tricks_won_by_seat", "dealer_must_bid_now", "surrender_forbidden"):
        targets[f"state.{method}"] = (method_call(method, True), getattr(HandState, method))
    return targets


def _arity(fn: object) -> tuple[int, int]:
    """How many positional arguments ``fn`` takes, at least and at most (self not counted):
    the fuzz calls the API wrongly in kind and type, never in number (Python's own
    TypeError for that is not the API's to give)."""
    import inspect

    if fn is None:
        return 0, 4
    params = [p for p in inspect.signature(fn).parameters.values()  # type: ignore[arg-type]
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name != "self"]
    return sum(p.default is p.empty for p in params), len(params)


def _play_out(rules: object) -> None:
    rng = random.Random(0)
    state = HandState.deal(rules, rng=rng)  # type: ignore[arg-type]
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))


def _kwargs(args: tuple[object, ...]) -> dict[str, object]:
    keys = ("players", "minimum_bid", "all_pass", "score_what_you_get", "dirty_clubs",
            "partnerships", "target", "left_bower", "dealer_must_bid", "nonsense")
    return {keys[i % len(keys)]: v for i, v in enumerate(args)}


API_TARGETS = _api_targets()
API_ARITY = {name: _arity(fn) for name, (_, fn) in API_TARGETS.items()}


def call_api(target: str, seed: int, steps: int, args: tuple[object, ...]) -> None:
    """One call; a failure of the oracle raises AssertionError and is counted."""
    from pepper_tutor import Match

    state = _fresh_state(seed, steps)
    match = Match(state.rules, state.dealer)
    low, high = API_ARITY[target]
    args = (args + (None,) * low)[:max(low, min(len(args), high))]
    before = _state_fingerprint(state)
    COUNTS["api"] += 1
    try:
        API_TARGETS[target][0](state, match, args)
    except ValueError:
        assert _state_fingerprint(state) == before, f"{target}{args!r} changed the state"
    except Exception as err:
        API_FAILURES[f"{target}: {type(err).__name__}"] += 1
        raise AssertionError(f"{target}{args!r} raised {type(err).__name__}: {err}") from err


@budget("api")
@given(st.sampled_from(sorted(API_TARGETS)), st.integers(0, 2**16), st.integers(0, 30),
       st.lists(_api_values(), max_size=4).map(tuple))
@example("state.apply", 1, 0, ("surrender",))  # once stored as the defence, and play began
@example("state.apply", 1, 0, (Trump.H,))  # once a bid of 2 (Trump is an IntEnum)
@example("get_ruleset", 1, 0, (STANDARD, 7))  # players=7 once crashed the deal after it
@example("get_ruleset", 0, 0, ({"minimum_bid": None}, None, None))  # a switch given twice
def test_the_public_api_refuses_anything_with_a_value_error(target: str, seed: int,
                                                            steps: int,
                                                            args: tuple[object, ...]) -> None:
    call_api(target, seed, steps, args)


def test_the_api_fuzz_counts_no_other_exception() -> None:
    """After the property (pytest keeps file order): its count of other exceptions."""
    if FUZZING:
        sys.__stderr__.write(  # type: ignore[union-attr]
            f"\napi fuzz: {COUNTS['api']:,} calls, {sum(API_FAILURES.values())} "
            f"non-ValueError exceptions {dict(API_FAILURES)}\n")
    assert not API_FAILURES, dict(API_FAILURES)


# ---- the native search against the pure one -------------------------------------------------


@budget("native_search")
@given(st.randoms(use_true_random=False), st.integers(0, 6), st.integers(1, 6),
       st.integers(0, 4), st.booleans(), st.booleans())
def test_the_native_search_values_every_card_as_the_pure_search_does(
        rng: random.Random, shape: int, tricks: int, trump: int, left_bower: bool,
        card_values: bool) -> None:
    """Hypothesis draws the deal, the trick so far and the maximised side (shrinking a
    failure to a small position); the pure-Python search is the oracle."""
    from pepper_tutor.analysis import native, search
    from pepper_tutor.analysis.solver import Position, TranspositionTable, solve
    from tests.test_solver import SHAPES, random_position

    built = native.native_module()
    if built is None:
        pytest.skip("the native search is not built here (tests/test_native.py says if it "
                    "should be)")
    COUNTS["native_search"] += 1
    players, out = SHAPES[shape]
    p = random_position(rng, players, out, tricks, trump)
    p = Position(p.hands, p.trick, p.to_play, p.trump, p.side, p.players, p.out, left_bower)
    assert (solve(p, TranspositionTable(), card_values, module=built)
            == solve(p, TranspositionTable(), card_values, module=search)), p
