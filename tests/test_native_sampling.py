"""The sampling loop in C (:mod:`pepper_tutor.analysis.advice.native_sampling`) gives the
Python loop's deals bit for bit: the same deals, the same counts of deals drawn, kept and
forced, and the generator left in the same state; where it is not built, is stale or does not
apply, the Python loop runs.

The Python loop is the oracle here: every check runs it under ``python_loop()`` beside the C
one, on the very dealers and calls the advice builds for positions of every kind."""

from __future__ import annotations

import os
import random
import shutil
import sysconfig
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from types import ModuleType
from typing import Any
from unittest import mock

import pytest

from pepper_tutor.analysis import native
from pepper_tutor.analysis.advice import advise, native_sampling, sampling
from pepper_tutor.analysis.advice.native_sampling import native_sampler, python_loop
from pepper_tutor.analysis.dealing import Dealer
from pepper_tutor.analysis.grading import grade_choice
from pepper_tutor.analysis.players import make_player
from pepper_tutor.analysis.view import view_of
from pepper_tutor.engine.calls import Bid
from pepper_tutor.engine.rules import get_ruleset
from pepper_tutor.engine.seats import Seat
from pepper_tutor.engine.state import HandState

FUZZING = os.environ.get("PEPPER_FUZZ") == "1"

RULES = {"standard": get_ruleset("standard"), "simple": get_ruleset("simple"),
         "no left bower": get_ruleset("standard", left_bower=False),
         "cutthroat": get_ruleset("cutthroat"), "lions-club": get_ruleset("lions-club")}

Captured = tuple[Dealer, "sampling._CallsAccept | None", tuple[Any, ...]]


@pytest.fixture(autouse=True)
def _required() -> ModuleType:
    """The native sampling, up to date; skipped where it cannot be built, failed in CI where
    it could have been."""
    module = native_sampling.sampling_module()
    if module is None:
        headers = Path(sysconfig.get_paths()["include"], "Python.h").exists()
        if os.environ.get("CI") == "true" and shutil.which("cc") and headers:
            pytest.fail("a C compiler and Python's headers are here but the native sampling "
                        "is not built: make builds it (python -m pepper_tutor.analysis.native "
                        "build)")
        pytest.skip("the native sampling is not built here (no C compiler?)")
    return module


def positions(rules: str, hands: int, seed: int) -> Iterator[HandState]:
    """Every decision of ``hands`` hands played out by the club player: the auction after
    0 to 3 calls (peppers among them), the declaration, the exchange, the defense, and the
    cards early, midway and late."""
    table = RULES[rules]
    for hand in range(hands):
        state = HandState.deal(table, Seat(hand % table.players),
                               random.Random(seed * 1000 + hand))
        club = make_player("club", seed + hand)
        while not state.is_terminal():
            yield state.copy()
            state.apply(club.decide(view_of(state)))


class _Caught(Exception):
    pass


def captured(state: HandState) -> Captured | None:
    """The dealer, the calls read and the generator's state of the advice's sampling on
    ``state``, caught as the loop starts (nothing is solved); None where it samples
    nothing."""
    seen: list[Captured] = []

    def catch(dealer: Dealer, accept: Any, rng: random.Random) -> None:
        seen.append((dealer, accept, rng.getstate()))
        raise _Caught

    with mock.patch.object(sampling, "native_sampler", catch):
        try:
            advise(state, samples=8)
        except _Caught:
            return seen[0]
    return None


def sampled(dealer: Dealer, accept: Any, state: tuple[Any, ...], samples: int,
            python: bool, between: bool = False
            ) -> tuple[list[list[list[int]]], sampling._Draws, tuple[Any, ...]]:
    """The deals of ``_deals``, its counts and the generator's state after, by the Python
    loop or the native one; ``between``: the caller draws from the generator between deals,
    as a call's grade does."""
    rng = random.Random()
    rng.setstate(state)
    draws = sampling._Draws()
    deals = []
    with python_loop() if python else nullcontext():
        for deal in sampling._deals(dealer, samples, rng, accept, draws):
            deals.append(deal)
            if between:
                rng.gauss(0.0, 1.0)
    return deals, draws, rng.getstate()


def assert_same(dealer: Dealer, accept: Any, state: tuple[Any, ...], samples: int,
                between: bool = False) -> sampling._Draws:
    python = sampled(dealer, accept, state, samples, True, between)
    fast = sampled(dealer, accept, state, samples, False, between)
    assert fast[0] == python[0]
    assert fast[1] == python[1]
    assert fast[2] == python[2]
    return python[1]


def check_positions(rules: str, hands: int, seed: int) -> dict[str, int]:
    """Both loops on every decision's sampling; how many ran native, fell back, were
    forced."""
    tally = {"native": 0, "python": 0, "forced": 0, "read": 0}
    rng = random.Random(seed)
    for state in positions(rules, hands, seed):
        caught = captured(state)
        if caught is None:
            continue
        dealer, accept, rng_state = caught
        fast = native_sampler(dealer, accept, random.Random())
        tally["native" if fast is not None else "python"] += 1
        tally["read"] += accept is not None
        if fast is not None and accept is not None:
            for deal in sampled(dealer, None, rng_state, 5, True)[0]:
                assert fast.weigh(deal) == accept(deal)  # the very float
        draws = assert_same(dealer, accept, rng_state, rng.choice((1, 7, 30)),
                            between=rng.random() < 0.3)
        tally["forced"] += draws.forced > 0
    return tally


@pytest.mark.parametrize("rules", list(RULES))
def test_the_native_loop_deals_as_the_python_loop(rules: str) -> None:
    tally = check_positions(rules, 3, 1)
    assert tally["read"] > 0  # the auction was read somewhere
    if rules != "lions-club":  # the bid signals are read in Python, always
        assert tally["native"] > tally["python"]


@pytest.mark.slow
@pytest.mark.parametrize("rules", list(RULES))
def test_the_native_loop_deals_as_the_python_loop_on_many_positions(rules: str) -> None:
    tally = check_positions(rules, 60 if FUZZING else 12, 2)
    assert tally["forced"] > 0 or rules == "lions-club"


def _auction_read(rules: str) -> Captured:
    """A decision whose sampling reads another seat's call in C."""
    for state in positions(rules, 20, 3):
        caught = captured(state)
        if caught is not None and caught[1] is not None \
                and native_sampler(caught[0], caught[1], random.Random()) is not None:
            return caught
    raise AssertionError("no auction read")


def test_calls_too_unlikely_to_meet_are_picked_by_likelihood_alike() -> None:
    """A big pepper in spades from a seat whose deals almost never back it: deals are
    forced, picked by likelihood among 40 tried, and some weigh exactly 0 (a hand with no
    spade and no ace, at a table without partners: never picked)."""
    dealer, accept, state = _auction_read("cutthroat")
    other = next(iter(accept.callers))
    accept.calls, accept.declared = [(Seat(other), Bid.BIG_PEPPER)], (3, False)
    deals = sampled(dealer, None, state, 300, True)[0]
    assert any(accept(d) == 0.0 for d in deals)
    assert any(accept(d) > 0.0 for d in deals)
    draws = assert_same(dealer, accept, state, 20, between=True)
    assert draws.forced > 0 and draws.kept == 20


def test_a_budget_spent_with_no_deal_that_fits_keeps_deals_alike() -> None:
    """Calls no deal can have made (a pass from a seat that played every card of the deck:
    its weight is exactly 0 on every deal): the budget for all samples ends the search, and
    the deals are kept at random, alike."""
    dealer, accept, state = _auction_read("standard")
    other = next(iter(accept.callers))
    accept.calls, accept.declared = [(Seat(other), Bid.PASS)], None
    accept.played[other] = list(range(24))
    deals = sampled(dealer, None, state, 50, True)[0]
    assert all(accept(d) == 0.0 for d in deals)
    draws = assert_same(dealer, accept, state, 5)
    # the first sample spends the budget of all five; each later one draws a deal, forced
    assert draws.drawn == 5 * sampling._MAX_DRAWS + 4 and draws.forced == 5


def test_the_whole_grade_is_the_same_with_either_loop() -> None:
    """The coach's grade of a call, a declaration, a discard, a defense and cards early and
    late, figures and words, with the loop in C and in Python (a call's grade draws from the
    generator between deals)."""
    states: dict[str, HandState] = {}
    for state in positions("standard", 2, 5):
        if state.calls:
            phase = str(state.phase)
            key = f"{phase} {len(state.tricks) // 3}" if phase == "play" else phase
            states.setdefault(key, state)
    assert len(states) >= 8
    for k, state in enumerate(states.values()):
        action = random.Random(k).choice(state.legal_actions())
        with python_loop():
            python = grade_choice(state, action, samples=24)
        fast = grade_choice(state, action, samples=24)
        assert repr(fast[0]) == repr(python[0])
        assert repr(fast[1]) == repr(python[1])


def test_without_the_build_the_python_loop_runs(monkeypatch: pytest.MonkeyPatch,
                                                fresh_choice: None) -> None:
    """No build here (no C compiler, a wheel, another Python): the advice samples as
    before, in Python, and says nothing is wrong."""
    dealer, accept, state = _auction_read("standard")
    with python_loop():
        expected = sampled(dealer, accept, state, 10, True)
    monkeypatch.setattr(native, "sampler_module", lambda: None)
    native_sampling.sampling_module.cache_clear()  # chosen above, with the build
    assert native_sampling.sampling_module() is None
    assert native_sampler(dealer, accept, random.Random(1)) is None
    assert sampled(dealer, accept, state, 10, False) == expected


def test_a_subclassed_generator_runs_the_python_loop() -> None:
    dealer, accept, _ = _auction_read("standard")

    class Other(random.Random):
        pass

    assert native_sampler(dealer, accept, Other(1)) is None
    assert native_sampler(dealer, accept, random.Random(1)) is not None


def test_the_c_draws_as_this_interpreters_random_module(_required: ModuleType) -> None:
    assert native_sampling.draws_as_python(_required)
    rng = random.Random(7)
    numbers, words = _required.run(rng.getstate()[1], 1, 2**64 - 1, 3)
    assert numbers == [rng.randrange(2**64 - 1) for _ in range(3)]
    assert words == rng.getstate()[1]


@pytest.fixture
def fresh_choice() -> Iterator[None]:
    cached = (native.sampler_module, native_sampling.sampling_module)
    for f in cached:
        f.cache_clear()
    yield
    for f in cached:
        f.cache_clear()


def test_a_build_from_other_sources_is_not_used(monkeypatch: pytest.MonkeyPatch,
                                                fresh_choice: None) -> None:
    """An edit to the dealing, the calling model or the loop makes the build stale: the
    Python loop runs until the next build."""
    monkeypatch.setattr(native, "sampler_digest", lambda: "edited since")
    assert native_sampling.sampling_module() is None
    dealer, accept, _ = _auction_read_python()
    assert native_sampler(dealer, accept, random.Random(1)) is None
    assert "stale" in native.status().split("native C sampling:")[1].splitlines()[0]


def _auction_read_python() -> Captured:
    for state in positions("standard", 20, 3):
        caught = captured(state)
        if caught is not None and caught[1] is not None:
            return caught
    raise AssertionError("no auction read")


def test_the_python_loop_can_be_chosen(monkeypatch: pytest.MonkeyPatch,
                                       fresh_choice: None) -> None:
    monkeypatch.setenv(native_sampling.PURE_ENV, "1")
    assert native_sampling.sampling_module() is None
    monkeypatch.setenv(native_sampling.PURE_ENV, "0")
    native_sampling.sampling_module.cache_clear()
    assert native_sampling.sampling_module() is not None


def test_an_interpreter_that_draws_otherwise_runs_the_python_loop(
        monkeypatch: pytest.MonkeyPatch, fresh_choice: None) -> None:
    """Another Python whose random module draws other numbers than the C: never used."""
    monkeypatch.setattr(random.Random, "shuffle", lambda self, x: x.reverse())
    assert native_sampling.sampling_module() is None


def test_the_plain_c_build_deals_as_the_python_loop(tmp_path: Path) -> None:
    """The build without -O3 -march=native: the same floats and deals."""
    import importlib.util

    built, why = native.compile_native(tmp_path, native.PLAIN, native.SAMPLER_NAME)
    assert built is not None, why
    spec = importlib.util.spec_from_file_location(f"pepper_tutor.analysis.{native.SAMPLER_NAME}",
                                                  built)
    assert spec is not None and spec.loader is not None
    plain = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plain)
    assert native_sampling.draws_as_python(plain)
    dealer, accept, state = _auction_read("standard")
    with mock.patch.object(native_sampling, "sampling_module", lambda: plain):
        assert_same(dealer, accept, state, 30)


@pytest.mark.slow
def test_the_bench_pairs_the_c_loop_with_the_python_loop() -> None:
    """``make bench``'s grade lines time the fastest search with each loop, and give the C
    loop's share of the Python loop's time."""
    from pepper_tutor.bench.analysis import bench_grade_choice

    text = bench_grade_choice(0.1)
    assert "the sampling loop in C" in text
    for kind in ("a call's grade", "a card's grade", "an expert decision"):
        line = next(row for row in text.splitlines() if kind in row)
        assert ", Python sampling median " in line
        assert "x the Python sampling's time" in line
