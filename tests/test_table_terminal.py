"""The practice table in a real pseudo-terminal (pexpect): a whole hand with a graded
mistake, a take-back, an illegal card, a replay from a decision, and the review."""

from __future__ import annotations

import contextlib
import os
import re
import sys

import pexpect

from pepper_tutor.analysis.grading import Grade
from pepper_tutor.engine.calls import Bid
from pepper_tutor.engine.cards import Card, NotationError
from pepper_tutor.engine.state import Phase
from pepper_tutor.teaching.practice.coach import coach_decision
from pepper_tutor.teaching.practice.table import PracticeTable

PROMPT = r"Choices: ([^\r\n]*)\r\n([^\r\n>]*)> "
AFTER = r"next hand · replay N · undo · quit> "


def seed_with_an_overbid(level: str = "beginner") -> int:
    """A seed whose first decision for South is a call where big pepper is allowed and the
    coach calls it a mistake or a blunder (the table deals the same cards for the seed)."""
    for seed in range(1, 200):
        table = PracticeTable(seed=seed, level=level, coach=False, history=False)
        if table.learner_to_act and table.state.phase is Phase.AUCTION and \
                Bid.BIG_PEPPER in table.legal():
            verdict = coach_decision(table.state, Bid.BIG_PEPPER, samples=8)
            if verdict.grade in (Grade.MISTAKE, Grade.BLUNDER):
                return seed
    raise AssertionError("no seed gives South a hopeless big pepper")


def _hand(before: str) -> list[Card]:
    found = re.findall(r"your hand ([^│\r\n]*)", before)
    cards = []
    for word in (found[-1].split() if found else []):
        with contextlib.suppress(NotationError):
            cards.append(Card.parse(word))
    return cards


def test_a_whole_hand_at_the_terminal_table(tmp_path):
    seed = seed_with_an_overbid()
    env = dict(os.environ, PEPPER_TUTOR_HOME=str(tmp_path), NO_COLOR="1", COLUMNS="110",
               TERM="dumb")
    child = pexpect.spawn(sys.executable, ["-m", "pepper_tutor", "play", "--coach", "--seed",
                                           str(seed), "--samples", "8", "--level", "beginner",
                                           "--save", str(tmp_path / "hands")],
                          env=env, encoding="utf-8", timeout=60, dimensions=(60, 110))
    child.expect("Practice table: standard rules, you sit South")
    child.expect(PROMPT)
    assert "big pepper" in child.match.group(1) and "Your call" in child.match.group(2)
    child.sendline("BP")  # a hopeless big pepper
    child.expect(r"(Mistake|Blunder): big pepper loses [0-9.]+ points on average")
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect("Taken back: big pepper. Choose again.")
    child.expect(PROMPT)
    assert "Your call" in child.match.group(2)
    tried_illegal = replayed = False
    for _ in range(60):
        choices = child.match.group(1).split(", ")
        prompt = child.match.group(2)
        if prompt.startswith("Your card") and not tried_illegal:
            legal = {Card.parse(c) for c in choices}
            other = [c for c in _hand(child.before) if c not in legal]
            if other:
                child.sendline(str(other[0]))
                child.expect("Not allowed.")
                child.expect("play.follow-suit")
                tried_illegal = True
                child.expect(PROMPT)
                continue
        child.sendline(choices[0])
        found = child.expect([PROMPT, AFTER])
        if found == 1:
            assert "After the hand" in child.before
            if not replayed:
                child.sendline("replay 1")
                child.expect("Back to your decision 1 .*same cards, choose again.")
                replayed = True
                child.expect(PROMPT)
                continue
            child.sendline("quit")
            child.expect(pexpect.EOF)
            break
    else:
        raise AssertionError("the hand did not end")
    assert replayed
    saved = list((tmp_path / "hands").glob("*.yaml"))
    assert len(saved) == 1
    assert (tmp_path / "table.sqlite").exists()
