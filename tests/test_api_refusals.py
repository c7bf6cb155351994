"""Issue 27: the public API refuses wrong-kind and wrong-type inputs with a ValueError
subclass and leaves the state untouched; get_ruleset checks every path. (tests/test_fuzz.py
calls the whole API with random arguments; these are the inputs the attack reported.)"""

from __future__ import annotations

import dataclasses
import random

import pytest

from pepper_tutor import (
    Bid,
    Card,
    Defense,
    HandState,
    IllegalActionError,
    Match,
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


def test_apply_still_takes_plain_numbers_of_the_ladder_and_trumps() -> None:
    state = HandState.deal("standard", rng=1)
    state.apply(0)  # type: ignore[arg-type]
    assert state.calls[-1][1] is Bid.PASS


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
