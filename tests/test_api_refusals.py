"""Issue 27: the public API refuses wrong-kind and wrong-type inputs with a ValueError
subclass and leaves the state untouched; get_ruleset checks every path. (tests/test_fuzz.py
calls the whole API with random arguments; these are the inputs the attack reported.)

Issue 35: the analysis API too (advice, grading a card or a choice, a seat's view): a
ValueError subclass for anything it cannot take, the state as it was; ``apply`` takes only
actions. The hypothesis fuzz at the end calls it with random arguments (a long budget under
``PEPPER_FUZZ=1``, ``make fuzz``) and counts any other exception (goal 0)."""

from __future__ import annotations

import dataclasses
import random
import sys
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pepper_tutor import (
    DECK,
    Bid,
    Card,
    Defense,
    HandState,
    IllegalActionError,
    Match,
    Mode,
    NotationError,
    Phase,
    RuleSet,
    RuleSetError,
    Seat,
    Trump,
    game_status,
    get_rule,
    get_ruleset,
    legal_plays,
    score_hand,
    trick_winner,
)
from tests.test_fuzz import FUZZING, _api_values, _fresh_state, _state_fingerprint


def at(phase: Phase, preset: str = "standard", seed: int = 3) -> HandState:
    """A dealt hand played at random until ``phase``."""
    for s in range(seed, seed + 500):
        rng = random.Random(s)
        state = HandState.deal(preset, rng=rng)
        while not state.is_terminal() and state.phase is not phase:
            options = state.legal_actions()
            if state.phase is Phase.AUCTION and phase is not Phase.AUCTION:
                options = [b for b in options if b is not Bid.PASS] or options
            if state.phase is Phase.DEFENSE and phase is Phase.PLAY:
                options = [Defense.PLAY]
            state.apply(rng.choice(options))
        if state.phase is phase:
            return state
    raise AssertionError(f"no hand reached {phase}")


def fingerprint(state: HandState) -> tuple[object, ...]:
    return (state.phase, state.snapshot(), tuple(state.history), tuple(state.calls),
            state.mode, state.discard, state.passed, state.defense)


@pytest.mark.parametrize("phase,action", [
    (Phase.AUCTION, Trump.H),  # once a bid of 2: Trump is an IntEnum
    (Phase.AUCTION, Seat.S),
    (Phase.AUCTION, True),
    (Phase.AUCTION, "4"),
    (Phase.AUCTION, 9),
    (Phase.DECLARE_TRUMP, Bid.FOUR),  # once no trump (4)
    (Phase.DECLARE_TRUMP, "H"),
    (Phase.DECLARE_MODE, "exchange"),
    (Phase.DEFENSE, "surrender"),  # once stored as the defence, and play began
    (Phase.DEFENSE, Bid.PASS),
    (Phase.PLAY, "JD"),
    (Phase.PLAY, 5),
    (Phase.PLAY, None),
])
def test_apply_refuses_the_wrong_kind_and_changes_nothing(phase: Phase, action: object) -> None:
    state = at(phase)
    before = fingerprint(state)
    with pytest.raises(IllegalActionError, match="nothing was applied"):
        state.apply(action)  # type: ignore[arg-type]
    assert fingerprint(state) == before
    state.apply(state.legal_actions()[0])  # and the hand goes on


@pytest.mark.parametrize("phase,number", [
    (Phase.AUCTION, 0), (Phase.AUCTION, 3), (Phase.AUCTION, 8), (Phase.DECLARE_TRUMP, 2),
    (Phase.DECLARE_TRUMP, 4), (Phase.DECLARE_MODE, 1), (Phase.DEFENSE, 0), (Phase.PLAY, 3),
])
def test_apply_takes_only_actions_not_plain_numbers(phase: Phase, number: int) -> None:
    # apply(3) once stored a raw int in the history, which a record could not write back
    state = at(phase)
    before = fingerprint(state)
    with pytest.raises(IllegalActionError, match="nothing was applied"):
        state.apply(number)  # type: ignore[arg-type]
    assert fingerprint(state) == before
    state.apply(state.legal_actions()[0])
    assert all(type(a) is not int for a in state.history)


def test_surrender_as_text_is_read_by_check_not_apply() -> None:
    state = at(Phase.DEFENSE)
    verdict = state.check("surrender")
    assert verdict.legal and verdict.action is Defense.SURRENDER


@pytest.mark.parametrize("call", [
    lambda: get_ruleset(get_ruleset("standard"), players=7),
    lambda: get_ruleset(get_ruleset("standard"), nonsense=1),
    lambda: get_ruleset(get_ruleset("cutthroat"), dirty_clubs=True),
    lambda: get_ruleset({"preset": "standard", 1: True}),
    lambda: get_ruleset({"preset": ["standard"]}),
    lambda: get_ruleset(None),  # type: ignore[arg-type]
    lambda: get_ruleset("standard", target=True),
    lambda: RuleSet(players=7),
    lambda: RuleSet(preset="nope"),
    lambda: dataclasses.replace(get_ruleset("standard"), players=7),
])
def test_every_way_to_a_rule_set_is_checked(call: object) -> None:
    with pytest.raises(RuleSetError):
        call()  # type: ignore[operator]


def test_switches_on_a_rule_set_keep_its_own_and_follow_the_same_defaults() -> None:
    cut = get_ruleset(get_ruleset("cutthroat"), partnerships=True)
    assert cut.players == 4 and cut.partnerships
    stuck = get_ruleset(get_ruleset("standard", dirty_clubs=True), dealer_must_bid=True,
                        minimum_bid=3)
    assert stuck.dirty_clubs and stuck.dealer_must_bid and stuck.minimum_bid == 3


@pytest.mark.parametrize("call", [
    lambda: Card.parse(["JD"]), lambda: Card.from_index(24), lambda: Card.from_index(-1),
    lambda: Card.from_index("3"), lambda: Card(1, 2), lambda: trick_winner(None, "H"),
    lambda: trick_winner(["JD", "AH"], Seat.S), lambda: trick_winner(["JD", "AH"], True),
    lambda: legal_plays(5, None, "H"), lambda: legal_plays(["JD"], "AH", Bid.FOUR),
    lambda: Trump.from_suit(None), lambda: Bid.parse(Trump.H), lambda: Seat.parse(Bid.TWO),
    lambda: HandState.deal("standard", rng=[1]), lambda: HandState.from_hands(None),
    lambda: HandState.from_hands({"N": None}), lambda: HandState(None, Seat.W, []),
    lambda: HandState(get_ruleset("standard"), Seat.W, [[0] * 6] * 4),
    lambda: HandState.deal("cutthroat").hand("W"),
    lambda: HandState.deal("standard").undo(),
    lambda: get_rule(None), lambda: get_rule(["rank.left-bower"]),
    lambda: score_hand(get_ruleset("standard"), 4, "NS", {"NS": 4}),
    lambda: score_hand(get_ruleset("standard"), Bid.FOUR, "NS", [4]),
    lambda: game_status(get_ruleset("standard"), [("NS", 44)]),
    lambda: Match().add_points({"NS": None}), lambda: Match().add_points({"XY": 3}),
    lambda: Match().record("hand"),
])
def test_wrong_types_are_value_errors(call: object) -> None:
    with pytest.raises(ValueError):
        call()  # type: ignore[operator]


def test_a_refused_playout_leaves_the_hand_as_it_was() -> None:
    state = at(Phase.PLAY)
    before = fingerprint(state)
    with pytest.raises(NotationError):
        state.playout(None)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        state.random_tricks(7)  # type: ignore[arg-type]
    assert fingerprint(state) == before


def test_old_catches_still_work() -> None:
    """The new refusals are ValueErrors and also what callers caught before."""
    with pytest.raises(IndexError):
        HandState.deal("standard").undo()
    with pytest.raises(KeyError):
        get_rule("rank.nope")
    with pytest.raises(TypeError):
        Card.parse(3.5)  # type: ignore[arg-type]


def test_a_switch_given_in_the_mapping_and_as_a_keyword_is_one_switch() -> None:
    # found by the API fuzz: the same switch twice was a TypeError
    from pepper_tutor import get_ruleset

    assert get_ruleset({"minimum_bid": 2}, minimum_bid=3).minimum_bid == 3
    with pytest.raises(ValueError):
        get_ruleset({"minimum_bid": None}, minimum_bid=None)


# ---- issue 35: the analysis API ---------------------------------------------------------------

def test_grade_card_refuses_a_card_not_allowed_now_and_a_finished_hand() -> None:
    from pepper_tutor.analysis.grading import grade_card

    state = at(Phase.PLAY)
    before = fingerprint(state)
    legal = state.legal_actions()
    seat = state.to_act
    assert seat is not None
    not_held = next(c for c in DECK if c not in state.hand(seat))
    for card in (not_held, *[c for c in state.hand(seat) if c not in legal][:1]):
        with pytest.raises(IllegalActionError, match="may not play"):  # once a KeyError
            grade_card(state, card)  # type: ignore[arg-type]
    for wrong in ("JD", None, 3, Trump.H):
        with pytest.raises(IllegalActionError, match="grades a Card"):
            grade_card(state, wrong)  # type: ignore[arg-type]
    assert fingerprint(state) == before
    assert grade_card(state, legal[0]).card == legal[0]  # type: ignore[arg-type]
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="grades a card in play"):  # once an assert
        grade_card(state, legal[0])  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="grades a card in play"):
        grade_card(at(Phase.AUCTION), legal[0])  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        grade_card(None, legal[0])  # type: ignore[arg-type]


@pytest.mark.parametrize("call,words", [
    (lambda a, s: a(None), "HandState or a SeatView, not NoneType"),  # once AttributeError
    (lambda a, s: a("standard"), "not str"),
    (lambda a, s: a(s, seed=object()), "seed is"),  # once a TypeError
    (lambda a, s: a(s, seed=1.5), "seed is"),
    (lambda a, s: a(s, seed=[1]), "seed is"),
    (lambda a, s: a(s, samples=10**9), "from 1 to 10,000"),  # once ran over ten minutes
    (lambda a, s: a(s, samples=10_001), "from 1 to 10,000"),
    (lambda a, s: a(s, samples=0), "from 1 to 10,000"),
    (lambda a, s: a(s, samples=-5), "from 1 to 10,000"),
    (lambda a, s: a(s, samples=2.0), "whole number"),
    (lambda a, s: a(s, samples="200"), "whole number"),
    (lambda a, s: a(s, samples=True), "whole number"),
    (lambda a, s: a(s, samples=None), "whole number"),
    (lambda a, s: a(s, samples=3, workers=0), "workers"),
    (lambda a, s: a(s, samples=3, workers=100_000), "workers"),
    (lambda a, s: a(s, samples=3, workers="2"), "workers"),
    (lambda a, s: a(s, samples=3, progress="bar"), "progress"),
])
@pytest.mark.parametrize("name", ["advise", "advise_bid", "advise_discard", "advise_send",
                                  "advise_defense", "advise_play"])
def test_every_advice_refuses_what_it_cannot_take_before_any_work(name: str, call: object,
                                                                   words: str) -> None:
    from pepper_tutor.analysis import advice

    state = at(Phase.AUCTION)
    before = fingerprint(state)
    with pytest.raises(advice.AdviceRequestError, match=words):
        call(getattr(advice, name), state)  # type: ignore[operator]
    assert fingerprint(state) == before


def test_the_sample_cap_is_documented_and_allowed() -> None:
    from pepper_tutor.analysis import advice

    assert f"{advice.MAX_SAMPLES:,}" in (advice.advise.__doc__ or "") + \
        (advice.AdviceRequestError.__doc__ or "") + "10,000"
    assert advice.advise(at(Phase.AUCTION), samples=2, seed=random.Random(1)).samples == 2
    assert advice.advise(at(Phase.AUCTION), samples=2, seed="text seed").samples == 2


# ---- the fuzz of the analysis API ---------------------------------------------------------

ANALYSIS_FAILURES: Counter[str] = Counter()
ANALYSIS_CALLS: Counter[str] = Counter()
ANALYSIS_EXAMPLES = 20_000 if FUZZING else 120


def _samples() -> st.SearchStrategy[object]:
    """A sample count: small when valid (each deal is solved), or anything wrong."""
    return st.one_of(st.integers(1, 3), st.sampled_from([0, -1, 10_001, 10**9, 2**70]),
                     _api_values())


def _analysis_targets() -> dict[str, Callable[[HandState, tuple[object, ...]], object]]:
    from pepper_tutor.analysis import advice, grading
    from pepper_tutor.analysis.view import view_of

    def advice_call(fn: Callable[..., object]) -> Callable[[HandState, tuple[object, ...]],
                                                           object]:
        def call(state: HandState, a: tuple[object, ...]) -> object:
            target = state if a[0] == "state" else view_of(state) if a[0] == "view" else a[0]
            return fn(target, samples=a[1], seed=a[2], workers=a[3] if a[3] != "default" else 1)
        return call

    targets = {name: advice_call(getattr(advice, name)) for name in (
        "advise", "advise_bid", "advise_discard", "advise_send", "advise_defense",
        "advise_play")}
    targets["grade_card"] = lambda s, a: grading.grade_card(
        s if a[0] in ("state", "view") else a[0], a[1])  # type: ignore[arg-type]
    targets["grade_choice"] = lambda s, a: grading.grade_choice(
        s if a[0] == "state" else a[0], a[1], a[2] if type(a[2]) is not int or  # type: ignore[arg-type]
        a[2] <= 3 else 2, a[3] if a[3] != "default" else None)  # type: ignore[arg-type]
    targets["view_of"] = lambda s, a: view_of(s if a[0] in ("state", "view") else a[0], a[1],  # type: ignore[arg-type]
                                              a[2] if isinstance(a[2], dict) else None)  # type: ignore[arg-type]
    targets["state.apply"] = lambda s, a: s.apply(a[1])  # type: ignore[arg-type]
    return targets


ANALYSIS_TARGETS = _analysis_targets()


def call_analysis(target: str, seed: int, steps: int, args: tuple[object, ...]) -> None:
    """One call; anything but a value or a ValueError (with the state as it was) fails."""
    state = _fresh_state(seed, steps)
    before = _state_fingerprint(state)
    ANALYSIS_CALLS[target] += 1
    try:
        ANALYSIS_TARGETS[target](state, args)
    except ValueError:
        assert _state_fingerprint(state) == before, f"{target}{args!r} changed the state"
        return
    except Exception as err:
        ANALYSIS_FAILURES[f"{target}: {type(err).__name__}"] += 1
        raise AssertionError(f"{target}{args!r} raised {type(err).__name__}: {err}") from err
    if target == "state.apply":  # only an action is taken, kept in the history as it is
        assert type(args[1]) in (Bid, Trump, Mode, Card, Defense), f"apply took {args[1]!r}"
        assert state.history[-1] is args[1], args
    else:  # advice, grading and a view only read the hand
        assert _state_fingerprint(state) == before, f"{target}{args!r} changed the state"


_FIRST = st.one_of(st.just("state"), st.just("state"), st.just("view"), _api_values())
#: A call drawn: the target, the deal's seed, the actions played before, and the arguments
#: (the position, the samples or action, the seed or scores, the workers).
ANALYSIS_CALLS_DRAWN = (
    st.sampled_from(sorted(ANALYSIS_TARGETS)), st.integers(0, 2**16), st.integers(0, 30),
    st.tuples(_FIRST, st.one_of(_samples(), st.sampled_from([*DECK, *Bid, *Trump, *Seat])),
              st.one_of(st.none(), st.integers(), st.dictionaries(
                  st.sampled_from(["NS", "EW", "N", 3]), st.one_of(st.integers(), st.none()),
                  max_size=3), _api_values()),
              st.one_of(st.just("default"), st.integers(-2, 4), _api_values())))


@settings(max_examples=ANALYSIS_EXAMPLES, deadline=None, derandomize=not FUZZING,
          database=None, suppress_health_check=[HealthCheck.too_slow,
                                                HealthCheck.data_too_large,
                                                HealthCheck.filter_too_much])
@given(*ANALYSIS_CALLS_DRAWN)
@example("advise", 1, 0, (None, 2, None, "default"))  # once an AttributeError
@example("advise", 1, 0, ("state", 2, object(), "default"))  # once a TypeError
@example("grade_card", 1, 12, ("state", Card.parse("JD"), None, "default"))  # once KeyError
@example("grade_card", 1, 30, ("state", Card.parse("JD"), None, "default"))  # finished hand
@example("state.apply", 1, 0, ("state", 3, None, "default"))  # once a raw int in the history
@example("view_of", 1, 0, ("state", Card.parse("9C"), None, "default"))  # once a TypeError
@example("view_of", 1, 0, ("state", None, {"NS": None}, "default"))
def test_the_analysis_api_refuses_anything_with_a_value_error(
        target: str, seed: int, steps: int, args: tuple[object, ...]) -> None:
    call_analysis(target, seed, steps, args)


def test_the_analysis_fuzz_counts_no_other_exception() -> None:
    """After the property (pytest keeps file order): its count of other exceptions."""
    if FUZZING:
        sys.__stderr__.write(  # type: ignore[union-attr]
            f"\nanalysis API fuzz: {sum(ANALYSIS_CALLS.values()):,} calls "
            f"({dict(sorted(ANALYSIS_CALLS.items()))}), "
            f"{sum(ANALYSIS_FAILURES.values())} non-ValueError exceptions "
            f"{dict(ANALYSIS_FAILURES)}\n")
    assert not ANALYSIS_FAILURES, dict(ANALYSIS_FAILURES)
