"""The built searches (:mod:`pepper_tutor.analysis.native`): the native one in C and the mypyc
one give the pure search's answers, and a build older than its sources is never used.

The pure-Python search is the oracle here whatever is built: every check names it
(``module=search``) beside the build it checks."""

from __future__ import annotations

import gc
import os
import random
import shutil
import sysconfig
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from pepper_tutor.analysis import native, search, solver
from pepper_tutor.analysis.position import Position, TranspositionTable
from tests.test_solver import SHAPES, minimax, random_position

FUZZING = os.environ.get("PEPPER_FUZZ") == "1"


def _solve_with(module: ModuleType, position: Position, table: TranspositionTable,
                card_values: bool = True) -> solver.Solution:
    return solver.solve(position, table, card_values, module=module)


@pytest.fixture
def fresh_choice() -> Iterator[None]:
    """The choice of search is made once per process; let a test make it again, then
    restore."""
    cached = (native.search_module, native.native_module, native.compiled_module)
    for f in cached:
        f.cache_clear()
    yield
    for f in cached:
        f.cache_clear()


def _required(build: str) -> ModuleType:
    """The build named, up to date; skipped where it cannot be built, failed in CI where
    it could have been."""
    module = native.native_module() if build == "native" else native.compiled_module()
    if module is None:
        headers = Path(sysconfig.get_paths()["include"], "Python.h").exists()
        if os.environ.get("CI") == "true" and shutil.which("cc") and headers:
            pytest.fail(f"a C compiler and Python's headers are here but the {build} search "
                        "is not built: make builds it (python -m pepper_tutor.analysis.native "
                        "build)")
        pytest.skip(f"the {build} search is not built here (no C compiler?)")
    assert module is not search
    return module


def random_positions(rng: random.Random, count: int) -> Iterator[Position]:
    """Positions of every shape (four hands; three, the lone bidder's exchange and alone
    hands, with each seat sitting out; two), one to six tricks, mid-trick or at a trick's
    start, every trump and no trump, the left bower switched on or off."""
    for i in range(count):
        players, out = SHAPES[i % len(SHAPES)]
        p = random_position(rng, players, out, 1 + rng.randrange(6), trump=rng.randrange(5))
        if rng.random() < 0.2:
            p = Position(p.hands, p.trick, p.to_play, p.trump, p.side, p.players, p.out,
                         left_bower=False)
        yield p


def test_the_compiled_search_gives_the_pure_searchs_answers() -> None:
    """Every card's value in random positions of every shape, shared tables included."""
    compiled = _required("compiled")
    tables = {shape: (TranspositionTable(), TranspositionTable()) for shape in SHAPES}
    checked = 0
    for p in random_positions(random.Random(5), 210):
        pure_table, built_table = tables[p.players, p.out]
        assert _solve_with(compiled, p, built_table) == _solve_with(search, p, pure_table), p
        checked += 1
    assert checked == 210


@pytest.mark.parametrize("share", [False, True], ids=["fresh tables", "shared tables"])
def test_the_native_search_gives_the_pure_searchs_answers(share: bool) -> None:
    """Every card's value and the value alone, on random positions of every shape: 5,000
    each way in the normal run, 50,000 each way (100,000 in all) under ``make fuzz``. With
    shared tables, one table per kind of position serves every deal of that kind, as the
    advice's tables do, so entries made on one deal answer another."""
    built = _required("native")
    count = 50_000 if FUZZING else 5_000
    tables = {shape: (TranspositionTable(), TranspositionTable()) for shape in SHAPES}
    rng = random.Random(33 + share)
    checked = 0
    for p in random_positions(rng, count):
        pure_table, built_table = (tables[p.players, p.out] if share
                                   else (TranspositionTable(), TranspositionTable()))
        card_values = rng.random() < 0.7
        expected = _solve_with(search, p, pure_table, card_values)
        assert _solve_with(built, p, built_table, card_values) == expected, p
        checked += 1
    assert checked == count


def test_the_native_search_agrees_with_the_exhaustive_minimax() -> None:
    """An oracle that shares nothing with either search: no pruning, no table, no bounds
    (the minimax knows both bowers only)."""
    built = _required("native")
    checked = 0
    for p in random_positions(random.Random(4), 200):
        if p.tricks_left > 3 or not p.left_bower:
            continue
        checked += 1
        best = minimax([list(h) for h in p.hands], list(p.trick), p.to_play, p)
        assert _solve_with(built, p, TranspositionTable()).tricks == best, p
    assert checked > 50


def test_the_native_table_lives_in_the_transposition_table() -> None:
    """The native search keeps its bounds in the table's ``native`` slot: counted in its
    length, kept across deals of one kind, dropped when the kind changes."""
    built = _required("native")
    rng = random.Random(6)
    table = TranspositionTable()
    p = random_position(rng, 4, None, 5, trump=1)
    _solve_with(built, p, table)
    kept = table.native
    assert kept is not None and len(table) == len(kept) > 0
    same_kind = random_position(rng, 4, None, 5, trump=1)
    same_kind = Position(same_kind.hands, same_kind.trick, same_kind.to_play, 1, p.side)
    _solve_with(built, same_kind, table)
    assert table.native is kept
    _solve_with(built, random_position(rng, 4, None, 5, trump=2), table)
    assert table.native is not kept
    table.clear()
    assert table.native is None and len(table) == 0


def test_the_native_root_rejects_a_card_not_in_the_hand() -> None:
    built = _required("native")
    p = Position.from_cards([["JH", "AC"], ["AH", "9C"]], "N", "H", "N")
    root = built._Root(p, TranspositionTable())
    with pytest.raises(ValueError, match="not in the hand"):
        root.after(23)


def test_a_build_from_other_sources_is_not_used(monkeypatch: pytest.MonkeyPatch,
                                                fresh_choice: None, tmp_path: Path) -> None:
    """An edit to a source after the build must run (through a slower search), not the
    stale build: the C source edited, the native build is passed over; the search edited
    too, the compiled one as well."""
    edited = tmp_path / "_search_native.c"
    edited.write_text(native._NATIVE_SOURCES[0].read_text("utf-8") + "\n/* an edit */\n",
                      "utf-8")
    monkeypatch.setattr(native, "_NATIVE_SOURCES", (edited, *native._NATIVE_SOURCES[1:]))
    assert native.native_module() is None
    assert native.which() in ("compiled", "pure")
    assert native.search_module() is not None
    assert native.search_module().__name__.rsplit(".", 1)[-1] != native.NATIVE_NAME
    for f in (native.search_module, native.compiled_module):
        f.cache_clear()
    monkeypatch.setattr(native, "source_digest", lambda: "not the digest it was built from")
    assert native.search_module() is search
    assert not native.is_compiled()
    assert "stale" in native.status() or not any(native._HERE.glob("_search_*.so"))


def test_the_pure_search_can_be_chosen(monkeypatch: pytest.MonkeyPatch,
                                       fresh_choice: None) -> None:
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert native.search_module() is search
    assert native.which() == "pure"
    assert native.status().startswith(f"the pure-Python search ({native.PURE_ENV} is set)")


def _built_files() -> list[tuple[str, bytes]]:
    return sorted((p.name, p.read_bytes()) for p in native._HERE.glob("_search_*.so"))


def test_without_a_compiler_the_build_says_so_in_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    """No C compiler on PATH: one line, no traceback, the built files (if any) left alone,
    and the solver still works."""
    before = _built_files()
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(sysconfig, "get_config_var",
                        lambda name: None if name == "CC" else sysconfig.get_config_vars()
                        .get(name))
    assert native.build() is False
    said = capsys.readouterr().out
    assert said.count("\n") == 1
    assert "no C compiler" in said and "pure-Python search is used" in said
    assert _built_files() == before
    assert native.main(["status"]) == 0
    assert native.main(["nonsense"]) == 2


def test_a_failed_compile_says_why_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    before = _built_files()

    class Failed:
        returncode = 1
        stdout = ""
        stderr = "cc1: fatal error: something broke"

    monkeypatch.setattr("subprocess.run", lambda *a, **k: Failed())
    assert native.build() is False
    said = capsys.readouterr().out
    assert said.count("\n") == 1
    assert "native C search not built (the C compiler failed: cc1: fatal error" in said
    assert "pure-Python search is used" in said or "mypyc is not installed" in said
    assert _built_files() == before


def _searches() -> list[ModuleType]:
    built = [native.native_module(), native.compiled_module()]
    return [search] + [m for m in built if m is not None]


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


def test_the_solver_runs_the_search_chosen() -> None:
    """The solver runs what :func:`native.search_module` picks: the pure search whenever
    ``PEPPER_TUTOR_PURE_SEARCH=1`` (``make test`` runs the solver's tests so too), else
    the fastest build up to date."""
    assert solver._SearchRoot is native.search_module()._Root
    if os.environ.get(native.PURE_ENV) == "1":
        assert solver._SearchRoot is search._Root
    elif native.native_module() is not None:
        assert native.which() == "native"


def test_the_bench_sets_every_search_beside_the_reference() -> None:
    """``make bench``'s solver line: each search built here and the pure one, paired, each
    as a share of the reference (the pure search, 1.000x of itself)."""
    from pepper_tutor.bench.analysis import bench_solve

    line = bench_solve(0.1)
    assert "pure: median" in line and "1.000 (1.000-1.000)x the reference" in line
    for name in ("native", "compiled"):
        built = getattr(native, f"{name}_module")()
        assert (f"{name}: median" in line) == (built is not None)
    if native.native_module() is not None:
        assert "M nodes/s" in line


def test_the_native_search_visits_the_pure_searchs_tree_node_for_node() -> None:
    """The bench counts positions searched on the native search and sets that count beside
    every search's time: true only while both search the same tree, which this checks by
    counting the pure search's calls of ``lead`` and ``follow``."""
    import sys
    from types import FrameType

    built = _required("native")
    calls = 0

    def count(frame: FrameType, event: str, arg: object) -> None:
        nonlocal calls
        if event == "call" and frame.f_code.co_name in ("lead", "follow") \
                and frame.f_code.co_filename == search.__file__:
            calls += 1

    def solve_all(module: ModuleType, p: Position) -> Any:
        root = module._Root(p, TranspositionTable())
        best = root.converge(root.test, 0, root.left, (root.left + 1) // 2)
        root.values(best)
        root.release()
        return root

    for p in random_positions(random.Random(12), 60):
        calls = 0
        sys.setprofile(count)
        try:
            solve_all(search, p)
        finally:
            sys.setprofile(None)
        assert solve_all(built, p).nodes == calls > 0, p


def test_the_native_table_keeps_to_the_tables_size() -> None:
    """A table's ``max_entries`` bounds the native entries too (the advice keeps one table
    per kind of position through hundreds of deals): full, it starts afresh, and the
    answers stay the pure search's."""
    built = _required("native")
    table = TranspositionTable(max_entries=1_000)
    rng = random.Random(14)
    most = 0
    for _ in range(60):
        p = random_position(rng, 4, None, 6, trump=3)
        p = Position(p.hands, p.trick, p.to_play, 3, frozenset({0, 2}))
        assert _solve_with(built, p, table) == _solve_with(search, p, TranspositionTable())
        most = max(most, len(table))
    assert 1_000 < most <= 3 * 4096 // 4  # the smallest capacity that holds 1,000 entries


def test_the_plain_c_build_gives_the_pure_searchs_answers(tmp_path: Path) -> None:
    """``make`` tunes the native search for the machine (BMI2's pext and pdep where the CPU
    has them); a machine without them builds the plain C, whose loops must agree too."""
    import importlib.util

    _required("native")
    built, why = native.compile_native(tmp_path, native.PLAIN)
    assert built is not None, why
    spec = importlib.util.spec_from_file_location(native.NATIVE_NAME, built)
    assert spec is not None and spec.loader is not None
    plain = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plain)
    assert native.native_digest() == plain.SOURCE_DIGEST
    checked = 0
    for p in random_positions(random.Random(15), 700):
        assert (_solve_with(plain, p, TranspositionTable())
                == _solve_with(search, p, TranspositionTable())), p
        checked += 1
    assert checked == 700


def test_a_build_that_cannot_be_written_says_why_in_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The writer refuses to replace a built file it cannot replace safely (one that
    ``perf record`` hard-linked into its cache, say): the build says so, no traceback."""
    from pepper_tutor.files.writing import WriteError

    _required("native")
    before = _built_files()

    def refuse(path: object, data: bytes) -> None:
        raise WriteError(f"{path}: this file has 2 hard links")

    monkeypatch.setattr("pepper_tutor.files.writing.write_bytes", refuse)
    monkeypatch.setattr(native, "_build_compiled", lambda tmp: "")
    assert native.build() is False
    said = capsys.readouterr().out
    assert said.count("\n") == 1 and "2 hard links" in said
    assert _built_files() == before
