"""The engine's public face: nothing above the engine reads a private attribute of a hand.

``HandState`` keeps its facts in private slots (``_hands``, ``_to_act``, ``_trick``, ...) and
offers public read accessors for everything the layers above need (``snapshot()`` gives the
analysis its facts in card indices). The import contract cannot see an attribute read, so
this test reads the source: in every module of the package outside ``engine/``, and in the
tests, an attribute whose name is one of ``HandState``'s private names (a slot or a method)
may be read only from ``self`` or ``cls``, and no ``getattr``/``setattr``/``hasattr`` spells
one.
"""

from __future__ import annotations

import ast
from pathlib import Path

from pepper_tutor.engine.state import HandState

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "pepper_tutor"
ENGINE = PACKAGE / "engine"


def private_names() -> frozenset[str]:
    """HandState's private slots and methods; the notebook display hooks (``_repr_html_``)
    are IPython's public protocol, not state."""
    names = {n for n in HandState.__slots__ if n.startswith("_")}
    names |= {n for n in vars(HandState) if n.startswith("_") and not n.startswith("__")}
    return frozenset(n for n in names if not n.startswith("_repr_"))


def private_reads(source: str, names: frozenset[str]) -> list[tuple[int, str]]:
    """Each ``(line, name)`` where ``source`` reads one of ``names`` from anything but
    ``self`` or ``cls``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in names:
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append((node.lineno, node.attr))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
              and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
              and node.args[1].value in names):
            found.append((node.lineno, str(node.args[1].value)))
    return sorted(found)


def test_the_scan_knows_the_private_names_and_finds_a_read():
    names = private_names()
    assert {"_hands", "_to_act", "_trump", "_code", "_out", "_trick", "_won"} <= names
    assert "_repr_html_" not in names and "__slots__" not in names
    source = ("def f(state, self):\n"
              "    x = state._hands[state._to_act]\n"
              "    y = getattr(state, '_trick')\n"
              "    return self._won, state.snapshot(), state._unrelated\n")
    assert private_reads(source, names) == [(2, "_hands"), (2, "_to_act"), (3, "_trick")]


def test_no_module_outside_the_engine_reads_a_private_attribute_of_a_hand():
    names = private_names()
    modules = [p for p in sorted(PACKAGE.rglob("*.py")) if ENGINE not in p.parents]
    assert len(modules) > 50  # the whole package above the engine is read
    modules += sorted((ROOT / "tests").rglob("*.py"))
    offences = [f"{p.relative_to(ROOT)}:{line}: .{name}"
                for p in modules
                for line, name in private_reads(p.read_text(encoding="utf-8"), names)]
    assert not offences, ("read through HandState's public accessors (snapshot() for the "
                          "analysis) instead:\n" + "\n".join(offences))
