"""A judgement drill in a real pseudo-terminal: a wrong answer, the reason, the next position."""

import os
import sys

import pexpect

from pepper_tutor.teaching.drills.quiz import QuizSession


def test_a_judgement_drill_in_the_terminal_with_a_wrong_answer(tmp_path):
    first = QuizSession("defend", seed=3).question  # the quiz with --seed 3 deals this
    assert first is not None
    wrong = next(o.label for o in first.options() if o.value not in first.accept)
    env = dict(os.environ, PEPPER_TUTOR_HOME=str(tmp_path), NO_COLOR="1", COLUMNS="100",
               TERM="dumb")
    child = pexpect.spawn(sys.executable, ["-m", "pepper_tutor", "quiz", "defend", "--seed", "3",
                                           "--count", "2"], env=env, encoding="utf-8",
                          timeout=240, dimensions=(60, 100))
    child.expect("Quiz: defend.")  # a screened position: no "Dealing a position..." wait
    assert "Dealing a position" not in child.before
    child.expect("Play or surrender?")
    child.expect("> ")
    child.sendline("rule")
    child.expect("one joint decision")  # the rule in full, on request: defend.surrender
    child.expect("> ")
    child.sendline(wrong)
    child.expect("Not quite.")
    child.expect(r"(costs|gives up) about \d+ points? against")  # why this very answer is worse
    child.expect("The answer: " + first.answer_text())
    child.expect(r"0/1 right")
    assert "analysis.double-dummy" not in child.before  # no rule id outside the ids view
    child.expect("Choices: play, surrender")  # the next position, screened meanwhile
    child.expect("> ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert child.before.count("The answer:") == 0  # said once, above, not again
