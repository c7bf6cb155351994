"""One reader for what players type (issue 37, item 4): lessons, drills, review, puzzles,
game night's puzzle round and the practice table take the same spellings: a card spelled
out ("ace of clubs"), a bare rank or a bower's name against the hand, a call as it is said
at the table ("we play", "I pass", "hearts are trumps")."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pepper_tutor.engine.calls import Bid, Defense, Trump
from pepper_tutor.engine.cards import Card
from pepper_tutor.engine.state import Phase
from pepper_tutor.teaching.lessons.files import all_lessons
from pepper_tutor.teaching.puzzles.bank import bank_puzzles
from pepper_tutor.teaching.puzzles.session import PuzzleSession
from pepper_tutor.teaching.puzzles.store import PuzzleStore
from pepper_tutor.teaching.questions.answers import read_action


def spelled(card: Card) -> str:
    """"ace of clubs": a card as it is said."""
    return f"{card.rank.word} of {card.suit.plural}"


# a list, not a dict: Trump.NT == Bid.FOUR (both are 4) would share one key
SAID: list[tuple[Any, tuple[str, ...]]] = [
    (Defense.PLAY, ("we play", "play", "We'll play it")),
    (Defense.SURRENDER, ("we surrender", "Surrender", "give up")),
    (Bid.PASS, ("I pass", "pass")), (Bid.FOUR, ("bid 4", "four", "I bid 4")),
    (Trump.H, ("hearts", "♥", "hearts are trumps")), (Trump.NT, ("no trump", "NT"))]


def said(action: Any) -> str:
    """How a player says ``action``: a card spelled out, a call in words."""
    if isinstance(action, Card):
        return spelled(action)
    return next((ways[0] for value, ways in SAID
                 if type(value) is type(action) and value == action), str(action))


def test_every_lesson_step_that_takes_a_call_reads_it_as_said() -> None:
    seen = set()
    for lesson in all_lessons():
        for step in lesson.answerable_steps:
            for value, ways in SAID:
                try:
                    accepted = step.parse(str(value))
                except ValueError:
                    continue  # not a call this step asks for
                if type(accepted) is not type(value) or accepted != value:
                    continue  # (Trump.NT == Bid.FOUR: both are 4)
                for raw in ways:
                    got = step.parse(raw)
                    assert type(got) is type(value) and got == value, (lesson.id, step.id, raw)
                seen.add(type(value))
    assert seen >= {Defense, Bid, Trump}


def test_every_card_step_reads_a_card_spelled_out() -> None:
    for lesson in all_lessons():
        for step in lesson.answerable_steps:
            if step.kind not in ("trick-winner", "play", "exchange"):
                continue
            cards = list(step.trick if step.kind == "trick-winner" else step.hand)
            for card in cards:
                assert step.parse(spelled(card)) == card, (lesson.id, step.id, card)


@pytest.mark.parametrize("phase,hand,raw,value", [
    ("defense", (), "we play", Defense.PLAY),
    ("auction", (), "I pass", Bid.PASS),
    ("declare-trump", (), "no trump", Trump.NT),
    ("play", (Card.parse("AC"), Card.parse("9D")), "ace of clubs", Card.parse("AC")),
    ("play", (Card.parse("AC"), Card.parse("9D")), "the nine", Card.parse("9D")),
    ("play", (Card.parse("JH"), Card.parse("9D")), "I play the left bower", Card.parse("JH")),
])
def test_the_table_reader(phase: str, hand: tuple[Card, ...], raw: str, value: Any) -> None:
    assert read_action(raw, phase, hand, Trump.D) == value


def test_puzzles_take_cards_spelled_out_and_calls_as_said(tmp_path: Path) -> None:
    store = PuzzleStore("tester", path=tmp_path / "puzzles.sqlite")
    try:
        for kind in ("play", "defense", "bid"):
            puzzle = next(p for p in bank_puzzles() if p.kind == kind)
            session = PuzzleSession(store, [puzzle], rng=random.Random(1))
            assert session.next() is puzzle
            best = puzzle.position()
            legal = best.legal_actions()
            action = next(a for a in legal if str(a) == str(puzzle.answers[0]))
            raw = said(action)
            assert session.answer(raw).action == str(action), (kind, raw)
    finally:
        store.close()


def test_the_practice_table_takes_what_a_lesson_takes(tmp_path: Path) -> None:
    from pepper_tutor.teaching.practice.history import TableHistory
    from pepper_tutor.teaching.practice.table import PracticeTable

    table = PracticeTable(seed=3, coach=False, history=TableHistory(tmp_path / "h.sqlite"))
    table.new_hand()
    for _ in range(40):
        if table.hand_over:
            break
        state = table.state
        if not table.learner_to_act:
            break
        legal = state.legal_actions()
        action = legal[0]
        raw = said(action)
        result = table.act(raw)
        assert result.verdict.legal, (state.phase, raw, result.verdict.facts)
        assert state.phase is not Phase.SCORED or table.hand_over


def test_a_seat_named_on_a_trick_without_seats_says_why_it_cannot_be_read() -> None:
    """Issue 37: "south" refused on a trick without seat labels, with no word of why."""
    from pepper_tutor.rulebook.feedback import AnswerError
    from pepper_tutor.teaching.questions.steps import TrickWinnerStep

    step = TrickWinnerStep(id="t", trump=Trump.H,
                           trick=(Card.parse("9C"), Card.parse("AC"), Card.parse("KD")))
    with pytest.raises(AnswerError, match="does not say who played which card"):
        step.read("south")
    assert step.read("ace of clubs") == Card.parse("AC")
