"""The package's layers: imports point one way, no cycles, and the command line starts light."""

from __future__ import annotations

import ast
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import grimp
import pytest

import pepper_tutor

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
LAYERS = ["files", "engine", "rulebook", "analysis", "records", "teaching", "render", "apps",
          "bench"]
# the wings of teaching
WINGS = ["questions", "learner", "lessons", "drills", "review", "practice", "puzzles"]


def _contracts() -> list[dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    contracts: list[dict[str, object]] = config["tool"]["importlinter"]["contracts"]
    return contracts


def _lint(cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_every_layer_is_a_subpackage_that_says_what_it_may_import() -> None:
    for name in LAYERS:
        init = ROOT / "pepper_tutor" / name / "__init__.py"
        doc = init.read_text("utf-8")
        assert doc.startswith('"""'), name
        assert name == "bench" or "May import" in doc or "may import" in doc, name


def test_every_wing_of_teaching_is_a_subpackage_that_says_what_it_may_import() -> None:
    for name in WINGS:
        doc = (ROOT / "pepper_tutor" / "teaching" / name / "__init__.py").read_text("utf-8")
        assert doc.startswith('"""') and "May import" in doc, name


def test_the_contract_lists_the_layers_top_down() -> None:
    layers = next(c for c in _contracts() if c["id"] == "layers")
    assert layers["layers"] == [f"pepper_tutor.{n}" for n in reversed(LAYERS)]


def test_the_wings_contract_names_every_wing_once() -> None:
    wings = next(c for c in _contracts() if c["id"] == "teaching-wings")
    assert wings["containers"] == ["pepper_tutor.teaching"]
    named = [w.strip() for row in wings["layers"] for w in row.split("|")]  # type: ignore[attr-defined]
    assert sorted(named) == sorted(WINGS)
    on_disk = sorted(p.name for p in (ROOT / "pepper_tutor" / "teaching").iterdir()
                     if (p / "__init__.py").exists())
    assert on_disk == sorted(WINGS)


def test_lint_imports_keeps_every_contract() -> None:
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(_contracts())} kept, 0 broken" in result.stdout


def _scratch_package(tmp_path: Path) -> None:
    """A copy of the package and its contract to break on purpose."""
    shutil.copytree(ROOT / "pepper_tutor", tmp_path / "pepper_tutor",
                    ignore=shutil.ignore_patterns("__pycache__", "data"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")


def test_an_upward_import_breaks_the_layers_contract(tmp_path: Path) -> None:
    _scratch_package(tmp_path)
    ranking = tmp_path / "pepper_tutor" / "engine" / "ranking.py"
    ranking.write_text(ranking.read_text("utf-8")
                       + "\nfrom ..teaching.drills import quiz  # upward\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    result = _lint(tmp_path, env)
    assert result.returncode != 0
    assert "Layers import downward only BROKEN" in result.stdout
    assert "pepper_tutor.engine.ranking -> pepper_tutor.teaching.drills.quiz" in result.stdout


def test_an_upward_import_between_wings_breaks_the_wings_contract(tmp_path: Path) -> None:
    _scratch_package(tmp_path)
    steps = tmp_path / "pepper_tutor" / "teaching" / "questions" / "steps.py"
    steps.write_text(steps.read_text("utf-8")
                     + "\nfrom ..learner import store  # upward, between wings\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    result = _lint(tmp_path, env)
    assert result.returncode != 0
    assert "The teaching wings import downward only BROKEN" in result.stdout
    assert "Layers import downward only KEPT" in result.stdout


def _graph_without_declared_imports() -> grimp.ImportGraph:
    graph = grimp.build_graph("pepper_tutor")
    for contract in _contracts():
        for line in contract.get("ignore_imports", []):  # type: ignore[attr-defined]
            importer, imported = (s.strip() for s in line.split("->"))
            if graph.direct_import_exists(importer=importer, imported=imported):
                graph.remove_import(importer=importer, imported=imported)
    return graph


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph.find_modules_directly_imported_by(module)):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return groups


def test_no_import_cycle_between_any_two_modules() -> None:
    # Package __init__ files are containers: `pepper_tutor` re-exports names lazily and each
    # layer's __init__ holds only its docstring, so an edge into a package is not a cycle.
    graph = _graph_without_declared_imports()
    for package in ["pepper_tutor", *(f"pepper_tutor.{n}" for n in LAYERS),
                    *(f"pepper_tutor.teaching.{n}" for n in WINGS)]:
        graph.remove_module(package)
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for a, b in [("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d")]:
        graph.add_import(importer=a, imported=b)
    assert _cycles(graph) == [["p.a", "p.b", "p.c"]]


def _modules_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys, json\n"
                          "print(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


HEAVY = ("pepper_tutor.teaching", "pepper_tutor.analysis", "pepper_tutor.records",
         "pepper_tutor.render", "rich", "ipywidgets", "yaml")


def test_building_the_parser_imports_no_lesson_quiz_or_analysis() -> None:
    loaded = _modules_after("from pepper_tutor.apps.cli import build_parser; build_parser()")
    assert not {m for m in loaded if m.startswith(HEAVY)}
    assert "pepper_tutor.engine.state" not in loaded


def test_trick_as_json_loads_only_the_cards_the_ranking_and_the_rulebook() -> None:
    subprocess.run([sys.executable, "-m", "pepper_tutor", "trick", "-t", "H", "JD", "AH"],
                   capture_output=True, check=True)  # a warm cache, as after any first run
    loaded = _modules_after(
        "import io, contextlib\nfrom pepper_tutor.apps.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['trick', '--trump', 'H', 'JD', 'AH', '9S', 'QH', '--json'])")
    assert not {m for m in loaded if m.startswith(HEAVY)}
    assert "pepper_tutor.engine.state" not in loaded
    assert "pepper_tutor.rulebook.book" in loaded


def test_the_rulebook_cache_gives_the_same_rulebook_as_the_yaml(tmp_path: Path) -> None:
    from pepper_tutor.rulebook import book

    code = ("from pepper_tutor.rulebook.book import get_rulebook\n"
            "b = get_rulebook()\nimport json\n"
            "print(json.dumps([[r.id, r.section, r.title, r.text, r.example and r.example.text]"
            " for r in b] + [list(b.sections)]))")
    env = {**os.environ, "PEPPER_TUTOR_CACHE": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True).stdout for _ in range(2)]
    assert runs[0] == runs[1]  # first from the YAML (and writes the cache), then the cache
    assert len(list(tmp_path.glob("rulebook-*.json"))) == 1
    direct = book._build(book._parse_yaml(Path(book.RULEBOOK_FILE).read_text("utf-8")))
    assert [r.id for r in direct] == [r[0] for r in json.loads(runs[1])[:-1]]
    (next(tmp_path.glob("rulebook-*.json"))).write_text("{damaged", "utf-8")
    again = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True).stdout
    assert again == runs[0]


def test_a_failed_or_killed_cache_write_leaves_no_temp_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pepper_tutor.rulebook import book

    cache = str(tmp_path / "rulebook-1.json")
    killed = tmp_path / ".rulebook-killed"  # a write killed part way, an hour ago
    killed.write_text("{half", "utf-8")
    os.utime(killed, (time.time() - 3600, time.time() - 3600))
    fresh = tmp_path / ".rulebook-writing"  # another process writing right now
    fresh.write_text("{", "utf-8")

    def full_disk(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(book.os, "replace", full_disk)
    book._write_cache(cache, {"rules": []})
    assert sorted(p.name for p in tmp_path.iterdir()) == [".rulebook-writing"]
    monkeypatch.undo()
    book._write_cache(cache, {"rules": []})
    assert json.loads(Path(cache).read_text("utf-8")) == {"rules": []}


IMPORT_LINE = re.compile(r"from pepper_tutor import ([\w, ()\n]+?)(?:\\n|\n|\"|$)")


def _public_names_used() -> set[str]:
    names: set[str] = set()
    files = [ROOT / "README.md", *ROOT.glob("docs/*.md"), *ROOT.glob("notebooks/*.ipynb")]
    for path in files:
        for match in IMPORT_LINE.finditer(path.read_text("utf-8")):
            names |= {n.strip() for n in match.group(1).replace("(", "").replace(")", "")
                      .split(",") if n.strip()}
    return names


def test_every_public_name_the_docs_and_notebooks_use_imports_from_pepper_tutor() -> None:
    names = _public_names_used()
    assert {"Card", "HandState", "trick_winner", "legal_plays", "get_ruleset",
            "notebook"} <= names
    for name in names:
        assert getattr(pepper_tutor, name) is not None, name
    assert set(pepper_tutor.__all__) <= set(dir(pepper_tutor))


@pytest.mark.parametrize("name", pepper_tutor.__all__)
def test_each_public_name_is_the_one_its_layer_defines(name: str) -> None:
    module = pepper_tutor._PUBLIC[name]
    assert module.split(".")[1] in ("engine", "rulebook")  # the public API is the lower layers
    defined = getattr(importlib.import_module("pepper_tutor" + module), name)
    assert getattr(pepper_tutor, name) is defined


# ---- every package's map names exactly its modules --------------------------------------------

_NAMED = re.compile(r"``([a-z][a-z0-9_]*)``|:mod:`[~.]*(?:[a-z_][a-z0-9_]*\.)*([a-z][a-z0-9_]*)`")


def _packages() -> list[Path]:
    return sorted(p.parent for p in (ROOT / "pepper_tutor").rglob("__init__.py")
                  if p.parent != ROOT / "pepper_tutor")


def _named_in(doc: str) -> set[str]:
    return {a or b for a, b in _NAMED.findall(doc)}


def test_each_package_map_names_exactly_its_modules() -> None:
    """A package's ``__init__`` docstring says what it owns: every module and subpackage of the
    folder is named in it (``name``, or :mod:`...name`), and every bare lower-case name in
    double backticks is one of them (a deleted module cannot stay on the map)."""
    for package in _packages():
        tree = ast.parse((package / "__init__.py").read_text("utf-8"))
        doc = ast.get_docstring(tree) or ""
        modules = {p.stem for p in package.glob("*.py")
                   if p.stem != "__init__" and not p.stem.startswith("_")}
        modules |= {p.name for p in package.iterdir() if (p / "__init__.py").exists()}
        named = _named_in(doc)
        where = package.relative_to(ROOT)
        assert modules <= named, f"{where}: not on the map: {sorted(modules - named)}"
        stale = {n for n in named if n not in modules} - _NOT_MODULES
        assert not stale, f"{where}: the map names what is not here: {sorted(stale)}"


# Names in double backticks that are not modules: commands and parts of the public API.
_NOT_MODULES = {"pepper_tutor"}


def test_the_map_check_finds_a_stale_name() -> None:
    assert _named_in('"""Owns ``cards`` and :mod:`~pepper_tutor.engine.seats`."""') == {
        "cards", "seats"}
