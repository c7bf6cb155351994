"""The compiled search (:mod:`pepper_tutor.analysis.native`): the same answers as the pure
search it is built from, and never a build older than the source."""

from __future__ import annotations

import gc
import os
import random
import shutil
import sysconfig
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from pepper_tutor.analysis import native, search, solver
from pepper_tutor.analysis.position import Position, TranspositionTable
from tests.test_solver import SHAPES, random_position


def _solve_with(module: ModuleType, position: Position,
                table: TranspositionTable) -> solver.Solution:
    return solver.solve(position, table, module=module)


@pytest.fixture
def fresh_choice() -> Iterator[None]:
    """search_module() decides once per process; let a test decide again, then restore."""
    native.search_module.cache_clear()
    yield
    native.search_module.cache_clear()


def test_the_compiled_search_gives_the_pure_searchs_answers() -> None:
    """Every card's value in random positions of every shape, from one to six tricks, in
    every trump and with the left bower switched off, shared tables included."""
    if not native.is_compiled():
        headers = Path(sysconfig.get_paths()["include"], "Python.h").exists()
        if os.environ.get("CI") == "true" and shutil.which("cc") and headers:
            pytest.fail("a C compiler and Python's headers are here but the compiled search "
                        "is not built: make builds it (python -m pepper_tutor.analysis.native "
                        "build)")
        pytest.skip("the compiled search is not built here (no C compiler?)")
    compiled = native.search_module()
    assert compiled is not search
    rng = random.Random(5)
    checked = 0
    for players, out in SHAPES:
        tables = (TranspositionTable(), TranspositionTable())
        for i in range(30):
            p = random_position(rng, players, out, 1 + i % 6, trump=i % 5)
            if i % 7 == 3:
                p = Position(p.hands, p.trick, p.to_play, p.trump, p.side, p.players, p.out,
                             left_bower=False)
            pure = _solve_with(search, p, tables[0])
            assert _solve_with(compiled, p, tables[1]) == pure, p
            checked += 1
    assert checked == 30 * len(SHAPES)


def test_a_build_from_other_sources_is_not_used(monkeypatch: pytest.MonkeyPatch,
                                                fresh_choice: None) -> None:
    """An edit to the search after the build must run, not the stale compiled copy."""
    monkeypatch.setattr(native, "source_digest", lambda: "not the digest it was built from")
    assert native.search_module() is search
    assert not native.is_compiled()


def test_the_pure_search_can_be_chosen(monkeypatch: pytest.MonkeyPatch,
                                       fresh_choice: None) -> None:
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert native.search_module() is search


def test_a_failed_build_leaves_the_pure_search_and_says_why(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """No compiler: one message, no traceback, the built files (if any) left alone."""
    before = sorted(p.name for p in native._HERE.glob(f"{native.COMPILED_NAME}*.so"))

    class Failed:
        returncode = 1
        stdout = ""
        stderr = "error: command 'gcc' failed: No such file or directory"

    monkeypatch.setattr("subprocess.run", lambda *a, **k: Failed())
    assert native.build() is False
    said = capsys.readouterr().out
    assert "pure-Python search is used" in said and "gcc" in said
    assert sorted(p.name for p in native._HERE.glob(f"{native.COMPILED_NAME}*.so")) == before
    assert native.main(["status"]) == 0
    assert native.main(["nonsense"]) == 2


def _searches() -> list[ModuleType]:
    return [search] + ([native.search_module()] if native.is_compiled() else [])


@pytest.mark.parametrize("module", _searches(), ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_a_finished_search_leaves_no_cycles_for_the_collector(module: ModuleType) -> None:
    """Sampled advice runs thousands of searches: each must be freed as soon as it is done,
    not left in a reference cycle until the collector runs. Compiled, every nested function
    and the scope it shares hold each other; ``release()`` breaks that, and card values use
    a partial, not a nested function."""
    rng = random.Random(8)
    positions = [random_position(rng, 4, None, 3, trump=t) for t in range(5)]
    gc.collect()
    gc.disable()
    try:
        for p in positions:
            _solve_with(module, p, TranspositionTable())
        found = gc.collect()
    finally:
        gc.enable()
    assert found == 0
