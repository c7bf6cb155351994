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
    child.expect(r"(Mistake|Blunder): big pepper loses [0-9.]+ points")
    child.expect("You hold")  # the point: what the hand holds for it
    child.expect("Worth: ")  # the figures, against the runner-up
    # what the figures mean, said under the session's first panel
    child.expect("The figures are net points a hand")
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
                child.expect("After the lead, each player must")  # the rule, quoted
                assert "play.follow-suit" not in child.before  # its id: opt-in only
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


def _spawn(home, *args: str):
    env = dict(os.environ, PEPPER_TUTOR_HOME=str(home), NO_COLOR="1", COLUMNS="110",
               TERM="dumb")
    return pexpect.spawn(sys.executable, ["-m", "pepper_tutor", "play", "--samples", "8",
                                          "--level", "beginner", *args],
                         env=env, encoding="utf-8", timeout=60, dimensions=(60, 110))


def _board_lines(before: str) -> list[str]:
    """The last board drawn: its lines, from the score title to the hand."""
    lines = before.replace("\r", "").split("\n")
    top = max(i for i, line in enumerate(lines) if "match to 42" in line)
    return lines[top:]


def test_the_terminal_table_sits_four_seats_around_the_trick(tmp_path):
    child = _spawn(tmp_path, "--seed", "3")
    child.expect(PROMPT)
    lines = _board_lines(child.before)

    def where(text: str) -> tuple[int, int]:
        row = next(i for i, line in enumerate(lines) if text in line)
        return row, lines[row].index(text)

    north, west, east, you = (where("North (partner)"), where("West · opponent"),
                              where("East · opponent"), where("You"))
    assert north[0] < west[0] == east[0] < you[0]  # N at the top, W and E beside, S below
    assert west[1] < north[1] < east[1] and west[1] < you[1] < east[1]
    assert any("your turn" in line for line in lines[you[0]:you[0] + 3])
    assert any("contract" in line for line in lines)  # the contract is always on the board
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_hint_suggests_the_decision_and_leaves_it_ungraded_and_help_explains(tmp_path):
    child = _spawn(tmp_path, "--seed", "3", "--coach")
    child.expect(PROMPT)
    child.sendline("help")
    child.expect(r"hint\s+the coach suggests the decision in front of you")
    child.expect(r"undo\s+take back your last decision")
    child.expect(PROMPT)
    child.sendline("hint")
    child.expect(r"Hint \(this decision will not be graded\)")
    child.expect(r"The coach suggests ([^.]+?)\. ")
    suggested = child.match.group(1)
    child.expect(PROMPT)
    choices = child.match.group(1).split(", ")
    bid = next(c for c in choices if c != "pass" and suggested.startswith(c)) \
        if not suggested.startswith("pass") else "pass"
    child.sendline(bid)
    child.expect("Not graded: you asked for a hint on this decision.")
    child.expect(PROMPT)
    child.sendline("coach")
    child.expect("You asked for a hint on that decision, so it is not graded.")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_a_match_resumes_where_it_stopped(tmp_path):
    child = _spawn(tmp_path, "--seed", "3")
    child.expect(PROMPT)
    hand = _hand(child.before)
    child.sendline("pass")
    child.expect(PROMPT)
    board = "\n".join(_board_lines(child.before))
    assert "S pass" in board
    child.sendline("quit")
    child.expect("this match is kept")
    child.expect(pexpect.EOF)

    again = _spawn(tmp_path)  # no seed: only the saved match can give the same cards
    again.expect(r"You have a match in progress \(0 hands played, NS 0, EW 0 "
                 r"\(a hand in progress\)")
    again.expect(r"Resume it\? \[Y/n\] ")
    again.sendline("")
    again.expect("Resumed your match")
    again.expect(PROMPT)
    assert _hand(again.before) == hand  # the same cards, the pass already made
    assert "S pass" in "\n".join(_board_lines(again.before))
    again.sendline("quit")
    again.expect(pexpect.EOF)

    fresh = _spawn(tmp_path, "--new")
    fresh.expect("Practice table")
    assert "match in progress" not in fresh.before
    fresh.sendline("quit")
    fresh.expect(pexpect.EOF)
