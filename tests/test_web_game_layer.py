"""The Play and learn page's game layer, in this process (no browser): every table event said
once in the engine's words, the hand read by suit, the typed command line read as the
terminal reads it, the settings kept, and a card that counts only when confirmed."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pepper_tutor.apps.web import SETTINGS, WebApp
from pepper_tutor.engine.calls import Trump
from pepper_tutor.engine.cards import Card, Suit
from pepper_tutor.engine.ranking import effective_suit, trick_winner
from pepper_tutor.engine.state import Phase
from pepper_tutor.render.spoken import card_words, hand_words
from pepper_tutor.render.table_words import event_sentence
from pepper_tutor.teaching.practice.table import PracticeTable

SEED = 11


def _go(app: WebApp, act: str, value: str = "", **fields: str) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(app.handle(act, value, fields))
    assert "error" not in reply, reply["error"]
    return reply


def _typed(app: WebApp, line: str) -> str:
    return str(_go(app, "command", line=line)["say"])


@pytest.mark.parametrize(("card", "trump", "words"), [
    ("JD", Trump.H, "the jack of diamonds, the left bower"),
    ("JH", Trump.H, "the jack of hearts, the right bower"),
    ("9H", Trump.H, "the nine of hearts, a trump"),
    ("JD", Trump.NT, "the jack of diamonds"),
    ("AS", None, "the ace of spades"),
])
def test_a_card_is_said_with_its_part_this_hand(card: str, trump: Trump | None,
                                                words: str) -> None:
    assert card_words(Card.parse(card), trump) == words


def test_without_the_left_bower_a_jack_is_only_its_suit() -> None:
    assert card_words(Card.parse("JD"), Trump.H, left_bower=False) == "the jack of diamonds"


def test_every_card_of_a_hand_is_said_and_each_trick_names_its_winner() -> None:
    t = PracticeTable("standard", "S", "beginner", coach=False, seed=SEED, history=False,
                      auto=True)
    t.play_bots()
    s = t.state
    assert s.tricks, "the hand was thrown in: choose another seed"
    size = len(s.active_seats)
    won = dict.fromkeys(s.rules.sides, 0)
    for d in t.decisions:
        said = event_sentence(t, d)
        assert said.startswith(f"{t.player_name(d.seat)} ") and said.endswith("."), said
        if d.phase in (Phase.DISCARD, Phase.SEND):  # face down: the table hears no card
            assert isinstance(d.action, Card) and "a card" in said and "face down" in said
            assert d.action.suit.plural not in said, said
            continue
        if d.phase is not Phase.PLAY:
            assert "wins trick" not in said and "Tricks:" not in said, said
            continue
        assert isinstance(d.action, Card)
        assert card_words(d.action, s.trump, s.rules.left_bower) in said
        n, place = d.where
        trick = s.tricks[n - 1]
        assert (" leads " in said) == (place == 1), said
        if place == size:  # the trick's last card says who won it, as the engine found,
            cards = list(trick.cards)  # and the tricks each side has taken by then
            winner = trick.seats[trick_winner(cards, s.trump or Trump.NT, s.rules.left_bower)]
            won[s.rules.side_of(winner)] += 1
            count = ", ".join(f"{side} {k}" for side, k in won.items())
            assert said.endswith(f"; {t.player_name(winner)} wins trick {n}. "
                                 f"Tricks: {count}."), said
        else:
            assert "wins trick" not in said
    assert won == s.tricks_won()


def test_the_hand_is_read_suit_by_suit_trumps_first_with_the_bowers() -> None:
    t = PracticeTable("standard", "S", "beginner", coach=False, seed=SEED, history=False)
    held = t.state.hand(t.seat)
    said = hand_words(held, t.state.trump, t.state.rules.left_bower)
    assert said.startswith(f"You hold {len(held)} cards.")
    for suit in Suit:  # every suit said, a void too
        assert re.search(rf"{suit.plural}: ", said, re.IGNORECASE), (suit, said)
    for card in held:  # every card, under its suit
        suit = effective_suit(card, t.state.trump or Trump.NT)
        group = re.search(rf"{suit.plural.capitalize()}: ([^.]*)\.", said, re.IGNORECASE)
        assert group is not None and card.rank.word in group.group(1), (card, said)


def test_the_table_by_typed_lines_alone(tmp_path: Path) -> None:
    app = WebApp(home=tmp_path, seed=SEED, coach_samples=4)
    _go(app, "home")
    said = _typed(app, "table")
    assert said.startswith("You sit South") and "You may choose: pass" in said
    assert app.table is not None
    held = app.table.state.hand(app.table.seat)
    said = _typed(app, "hand")
    assert said.startswith("You hold 6 cards.") and said == hand_words(held, None)
    assert "Contract" in _typed(app, "table") or "auction" in _typed(app, "table")
    assert "I could not read 'xyzzy'" in _typed(app, "xyzzy")
    said = _typed(app, "pass")
    assert said.startswith("You pass. Coach: ")  # the coach's grade is said too,
    assert not re.search(r"(?:10|[9TJQKA])[♣♦♥♠]", said), said  # its cards in words
    _go(app, "coach-toggle", "off")
    for _ in range(20):
        if "The hand is over" in said:
            break
        options = said.rsplit("You may choose: ", 1)[1]
        card = re.search(r"(\w+) of (\w+)", options)  # a card as it is typed
        line = f"{card.group(1)} of {card.group(2)}" if card else options.split(", ")[0]
        if "play" in options.split(", "):
            line = "play"
        said = _typed(app, line)
    assert "The hand is over" in said
    assert "Hand 1 counted" in _typed(app, "next")
    _typed(app, "start")
    said = _typed(app, "table")  # back at the table: where it stands, and the choices
    assert said.startswith("Back at the table. Hand 2") and "You may choose" in said, said


def test_a_card_counts_only_when_confirmed_and_the_setting_is_kept(tmp_path: Path) -> None:
    app = WebApp(home=tmp_path, seed=SEED, coach_samples=4)
    _go(app, "set-confirm", "on")
    _go(app, "set-large", "on")
    _typed(app, "table")
    _go(app, "coach-toggle", "off")
    t = app.table
    assert t is not None
    # a call is confirmed as a card is (issue 37: the setting covered cards alone)
    said = _typed(app, "pass")
    assert not t.learner_decisions and said.startswith("Pass? Choose it again, press "
                                                        "Confirm or type yes"), said
    reply = _go(app, "home")
    reply = _go(app, "table")
    assert "Confirm: pass" in reply["html"] and 'aria-pressed="true"' in reply["html"]
    assert _typed(app, "no").startswith("Not done")
    assert not t.learner_decisions and "Confirm: pass" not in _go(app, "table")["html"]
    _typed(app, "pass")
    assert _typed(app, "yes").startswith("You pass") and len(t.learner_decisions) == 1
    while t.state.phase is not Phase.PLAY:
        if not t.learner_to_act:
            break
        line = "play" if t.state.phase is Phase.DEFENSE else str(t.state.legal_actions()[0])
        before = len(t.learner_decisions)
        said = _typed(app, line)
        assert len(t.learner_decisions) == before and "? Choose it again" in said, said
        _typed(app, line)  # chosen again: it counts
        assert len(t.learner_decisions) == before + 1
    card = t.state.legal_actions()[0]
    assert isinstance(card, Card)
    before = len(t.learner_decisions)
    reply = _go(app, "play", f"c:{card}")
    assert len(t.learner_decisions) == before  # chosen, not played
    assert reply["say"].startswith(f"Play {card_words(card, t.state.trump)}?")
    assert 'aria-pressed="true"' in reply["html"] and "pepper-confirm-card" in reply["html"]
    _go(app, "play-cancel")
    assert len(t.learner_decisions) == before
    _typed(app, card_words(card).removeprefix("the "))  # typed: asked again
    assert len(t.learner_decisions) == before
    said = _typed(app, "yes")
    assert len(t.learner_decisions) == before + 1 and said.startswith("You ")
    # kept: a new page (a reload) has the same settings
    again = WebApp(home=tmp_path, seed=SEED)
    assert again.settings == {"large": True, "four": False, "confirm": True}
    assert _go(again, "home")["look"] == ["large"]
    assert set(again.settings) == set(SETTINGS)


def test_the_table_is_read_with_the_trick_so_far_and_the_tricks_won() -> None:
    from pepper_tutor.render.table_words import table_sentence

    t = PracticeTable("standard", "S", "beginner", coach=False, seed=SEED, history=False)
    assert f"The auction is on: the high bid is {t.contract_text()}." in table_sentence(t)
    t.act("pass")
    while t.state.phase is not Phase.PLAY:
        t.act(t.state.legal_actions()[0])
    s = t.state
    said = table_sentence(t)
    assert f"Contract: {t.contract_text()}." in said
    for i, (seat, card) in enumerate(s.current_trick):  # each card with who played it
        verb = "led" if i == 0 else "played"
        assert f"{t.player_name(seat)} {verb} {card_words(card, s.trump)}" in said
    assert "Tricks won: " in said and said.endswith("Your turn.")


def test_the_learner_hears_their_own_actions_in_the_second_person() -> None:
    t = PracticeTable("standard", "S", "beginner", coach=False, seed=SEED, history=False)
    while not t.hand_over:
        if not t.learner_to_act:
            t.play_bots()
            continue
        legal = t.state.legal_actions()
        bids = [a for a in legal if str(a) != "pass"]  # bid, to hear the learner play too
        t.act(bids[-1] if t.state.phase is Phase.AUCTION and bids else legal[0])
    mine = [d for d in t.decisions if d.learner]
    assert any(d.phase is Phase.PLAY for d in mine)
    for d in mine:
        said = event_sentence(t, d)
        assert re.match(r"You (bid|pass|name|play|lead|put|will exchange)\b", said), said
        if isinstance(d.action, Card):  # the learner hears the card they put aside too
            assert card_words(d.action).removeprefix("the ") in said, said


def test_lessons_quizzes_and_puzzles_say_their_feedback_once(tmp_path: Path) -> None:
    """The page's one live region says a verdict, a hint or an answer shown when it comes,
    once, in the words the panel shows (cards spelt out); the panels are no live regions of
    their own, so nothing is said twice."""
    from pepper_tutor.render.card_words import spelled_cards
    from pepper_tutor.render.puzzles import feedback_lines, reveal_facts
    from pepper_tutor.render.spoken import feedback_words, lines_words
    from pepper_tutor.teaching.lessons.files import find_lesson
    from tests.answering import any_wrong_answer

    app = WebApp(home=tmp_path, seed=1)
    _go(app, "lesson", "bowers")
    assert app.lesson is not None and app.lesson.step is not None
    while not app.lesson.step.answerable:
        _go(app, "next")
    step = app.lesson.step
    assert step.id == next(s for s in find_lesson("bowers").steps if s.answerable).id
    reply = _go(app, "hint")
    assert reply["say"].startswith("Hint 1 of "), reply["say"]
    reply = _go(app, "typed", answer=any_wrong_answer(step))
    assert "pepper-fb wrong" in reply["html"]
    last = app.lesson.status.last
    assert last is not None and not last.correct
    assert reply["say"] == spelled_cards(feedback_words(last)), reply["say"]
    assert last.headline in reply["say"]
    assert _go(app, "progress")["say"] == ""  # said once: not again on the next screen
    # a drill's verdict
    reply = _go(app, "quiz", "tricks")
    picks = re.findall(r'data-act="pick" data-value="(\d+)"', reply["html"])
    reply = _go(app, "pick", picks[0])
    assert app.quiz is not None
    assert reply["say"] and reply["say"].split(".")[0] in _plain(reply["html"]), reply["say"]
    assert _go(app, "next")["say"] == ""
    # a puzzle: the miss, then the answer shown
    _go(app, "puzzles")
    assert app.puzzles is not None and app.puzzles.current is not None
    puzzle = app.puzzles.current
    reply = _go(app, "puzzle-answer", puzzle.tempting)
    assert app.puzzle_answer is not None
    assert reply["say"] == spelled_cards(lines_words(feedback_lines(app.puzzle_answer))), \
        reply["say"]
    reply = _go(app, "puzzle-reveal")
    assert reply["say"] == spelled_cards(lines_words(reveal_facts(puzzle)))
    assert _go(app, "puzzle-reveal")["say"] == ""  # shown already: nothing new to say
    assert 'aria-live' not in reply["html"]


def _plain(html_text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"(?s)<style>.*?</style>|<[^>]+>", " ", html_text))
