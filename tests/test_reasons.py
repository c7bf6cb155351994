"""The one room for reasons in words (analysis/reasons.py): what it may import, and that its
drill sentences count a hand's trumps by the table's left-bower switch."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pepper_tutor.analysis.reasons as reasons
from pepper_tutor.analysis.advice import Estimate, OptionAdvice
from pepper_tutor.engine.calls import Bid, Trump
from pepper_tutor.engine.cards import Card


def _runtime_imports(path: Path) -> set[str]:
    """The modules a file imports when it runs (imports under ``if TYPE_CHECKING`` are for
    type checkers only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            continue
        for sub in ast.walk(node):
            if isinstance(sub, ast.ImportFrom) and sub.level:
                found.add(sub.module or "")
    return found


def test_the_reasons_import_only_the_engine_and_the_rulebook():
    imported = _runtime_imports(Path(reasons.__file__))
    assert imported and all(m.split(".")[0] in ("engine", "rulebook") for m in imported), imported


@pytest.mark.parametrize("left", [True, False])
def test_a_bids_key_cards_follow_the_left_bower_switch(left):
    hand = tuple(Card.parse(c) for c in ["JH", "JD", "AH", "9C", "TS", "QS"])
    est = Estimate(3.2, 2.9, 3.5, 24)
    option = OptionAdvice("4 in ♥, play with partner", est, est, est, bid=Bid.FOUR,
                          trump=Trump.H)
    words = reasons.bid_facts(Bid.PASS, option, Bid.FOUR, option, hand, left)
    held = words.split(" you expect")[0]
    assert held == ("with J♥ J♦ A♥" if left else "with J♥ A♥"), words
