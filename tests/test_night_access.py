"""Game night for a player who cannot see the cards well, or uses no mouse (issue 37): every
table event said once in words, the hand read by suit, every decision typed in the words the
seat hears, a card confirmed before it counts, and no timed question a player cannot extend.
Over the app, as phones and the host use it; the browser side is in
tests/test_night_access_browser.py."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from pepper_tutor.analysis.view import view_of
from pepper_tutor.apps.night.store import MORE_TIME, NightStore
from pepper_tutor.apps.night.table import Table, typed_action
from pepper_tutor.engine.calls import Trump
from pepper_tutor.engine.cards import Card
from pepper_tutor.engine.rules import get_ruleset
from pepper_tutor.engine.seats import Seat
from pepper_tutor.engine.state import HandState, Phase
from pepper_tutor.render.spoken import card_words, choice_words, event_words, hand_words

from .night_clients import JSON, host_client, player_client, wait_for


def _hands(**cards: str) -> dict[str, list[str]]:
    return {seat: text.split() for seat, text in cards.items()}


RULE_ID = re.compile(r"\[[a-z]+\.[a-z-]+\]|\b(?:bid|play|declare|score|variant)\.[a-z-]+\b")


def _random_states(n: int, seed: int = 7) -> list[HandState]:
    """States at every phase of random hands under the standard and the cutthroat rules."""
    rng = random.Random(seed)
    found = []
    for i in range(n):
        rules = get_ruleset("standard" if i % 3 else "cutthroat")
        state = HandState.deal(rules, rng.choice(list(Seat)[:rules.players]), rng)
        while not state.is_terminal():
            found.append(state.copy())
            legal = state.legal_actions()
            bids = [a for a in legal if str(a) not in ("pass",)]
            # bid now and then, so that hands reach trumps, the exchange and the play
            state.apply(bids[0] if state.phase is Phase.AUCTION and bids and
                        rng.random() < 0.4 else rng.choice(legal))
    return found


def test_every_choice_said_reads_back_as_itself() -> None:
    """The seat hears its choices in words; typed back, each is that very choice."""
    checked = 0
    for state in _random_states(40):
        for action in state.legal_actions():
            said = choice_words(action)
            verdict = state.check(typed_action(state, said))
            assert verdict.legal and verdict.action == action, (state.phase, said)
            checked += 1
    assert checked > 500


def test_a_card_is_read_in_every_way_a_player_types_it() -> None:
    rules = get_ruleset("standard")
    state = HandState.from_hands(_hands(N="JD AH 9S TC QD KH", E="JH 9H TH QH KS AS",
                                         S="AC KC QC JC 9C TS", W="AD KD TD 9D JS QS"),
                                  rules, "W")
    state.apply(state.check("4").action)
    for _ in range(3):
        state.apply(state.check("pass").action)
    state.apply(state.check("hearts").action)
    state.apply(state.check("partner").action)
    state.apply(state.check("play").action)
    assert state.phase is Phase.PLAY and state.to_act == Seat.N
    for typed in ("JD", "jd", "J♦", "jack of diamonds", "the Jack of Diamonds",
                  "jack of diamonds, the left bower", "left bower"):
        verdict = state.check(typed_action(state, typed))
        assert verdict.legal and verdict.action == Card.parse("JD"), typed
    assert not state.check(typed_action(state, "right bower")).legal  # East holds it


def test_an_event_is_said_with_the_card_its_role_and_who_won_the_trick() -> None:
    rules = get_ruleset("standard")
    state = HandState.from_hands(_hands(N="AH 9S TC QD KH 9C", E="JD 9H TH QH KS AS",
                                         S="AC KC QC JC 9D TS", W="AD KD TD JH JS QS"),
                                  rules, "W")
    for call in ("4", "pass", "pass", "pass", "hearts", "partner", "play"):
        state.apply(state.check(call).action)
    for card in ("AH",):
        state.apply(state.check(card).action)
    before = state.copy()
    state.apply(state.check("JD").action)
    assert event_words(before, Seat.E, Card.parse("JD"), state) == \
        "East plays the jack of diamonds, the left bower."
    for card in ("9D", "JH"):
        before = state.copy()
        seat = state.to_act
        state.apply(state.check(card).action)
    assert event_words(before, seat, Card.parse("JH"), state) == (
        "West plays the jack of hearts, the right bower; West wins trick 1. "
        "Tricks: NS 0, EW 1.")
    assert card_words(Card.parse("AH"), Trump.parse("H")) == "the ace of hearts, a trump"


def test_the_hand_is_read_by_suit_trumps_first_every_card_once() -> None:
    from pepper_tutor.engine.ranking import effective_suit

    heading = re.compile(r"(Trumps, [a-z]+|Clubs|Diamonds|Hearts|Spades): ")
    for state in _random_states(15, seed=3):
        for seat in list(Seat)[:state.players]:
            cards = state.hand(seat)
            said = hand_words(cards, state.trump, state.rules.left_bower)
            if not cards:  # the partner who sits out
                assert said == "You hold no cards."
                continue
            assert said.startswith(f"You hold {len(cards)} card")
            pieces = heading.split(said)[1:]
            sections = dict(zip(pieces[::2], pieces[1::2], strict=True))
            assert len(sections) == 4  # each suit said, a void too
            trump = state.trump or Trump.NT
            if trump.suit is not None:
                assert next(iter(sections)) == f"Trumps, {trump.word}"
            for card in cards:  # each card once, under the suit it belongs to this hand
                suit = effective_suit(card, trump, state.rules.left_bower)
                title = (f"Trumps, {suit.plural}" if trump.suit is suit
                         else suit.plural.capitalize())
                words = card_words(card, state.trump, state.rules.left_bower)
                phrase = words if ", the " in words or card.suit is not suit \
                    else f"the {card.rank.word}"
                items = sections[title].rstrip(". ").split("; ")
                assert items.count(phrase) == 1, (said, card)
            assert sum(len(v.rstrip(". ").split("; ")) for v in sections.values()
                       if v.strip() != "none.") == len(cards)


# ---- at the table, over the app ----------------------------------------------------------

def _seated(app: Any, store: NightStore, host: TestClient, csrf: str
            ) -> tuple[Table, TestClient, str]:
    r = host.post("/table/open", data={"csrf": csrf, "level": "beginner", "people_S": "1"},
                  headers=JSON)
    assert r.status_code == 200, r.text
    table = app.state.night.table
    table.pause = 0.0
    phone, pcsrf = player_client(app, store, "Sam")
    assert phone.post("/table/claim", data={"csrf": pcsrf, "seat": "S"},
                      headers=JSON).status_code == 200
    return table, phone, pcsrf


def _say(phone: TestClient, csrf: str, text: str, **extra: str) -> tuple[int, str]:
    r = phone.post("/table/say", data={"csrf": csrf, "text": text, **extra}, headers=JSON)
    return r.status_code, str(r.json()["message"])


def _south_to_act(table: Table) -> HandState:
    """The table's state once it is South's turn or the hand is over (read under the table's
    lock: a computer's card is applied and said as one change)."""
    def ready() -> HandState | None:
        with table.lock:
            state = table.state
            if state is not None and (state.to_act == Seat.S or state.is_terminal()):
                return state.copy()
            return None
    return wait_for(ready)


def test_a_whole_hand_typed_at_the_seat_from_what_it_hears(night_app: Any,
                                                           night_store: NightStore) -> None:
    host, csrf = host_client(night_app, night_store)
    table, phone, pcsrf = _seated(night_app, night_store, host, csrf)
    assert table.state is not None  # the only seat kept for a person is taken: dealt
    status, said = _say(phone, pcsrf, "help")
    assert status == 200 and "hand" in said and "pass" in said
    typed = 0
    while True:
        state = _south_to_act(table)
        if state.is_terminal():
            break
        part = phone.get("/part/table-phone").text
        heard = re.search(r'<p class="turn-data"[^>]*>([^<]*)</p>', part)
        assert heard and "You may: " in heard.group(1), part[:400]
        choices = heard.group(1).split("You may: ")[1].rstrip(".").split(", ")
        pick = next((c for c in choices if c == "4"), choices[0])
        status, said = _say(phone, pcsrf, pick)
        assert status == 200 and said == "", said  # the table's event says it
        typed += 1
    assert typed >= 1
    with table.lock:
        told = " ".join(text for _, text in table.said_since(0))
    won = [int(n) for n in re.findall(r"; [A-Z][a-z]+ wins trick (\d)\. Tricks: ", told)]
    assert won == list(range(1, len(state.tricks) + 1)), told  # each trick once, in order
    assert re.search(r"South (bids|passes)", told)
    assert not RULE_ID.search(told)


def test_every_event_is_numbered_once_and_a_late_phone_gets_what_it_missed(
        night_app: Any, night_store: NightStore) -> None:
    host, csrf = host_client(night_app, night_store)
    table, phone, _ = _seated(night_app, night_store, host, csrf)
    _south_to_act(table)
    events = table.said_since(0)
    numbers = [n for n, _ in events]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    assert table.said_since(numbers[-2]) == events[-1:]
    part = phone.get("/part/table-phone").text
    for n, text in events:
        assert f'<li data-n="{n}">{text}</li>' in part.replace("&#39;", "'")
    assert "Sam sits South." in [t for _, t in events]


def test_the_hand_and_the_table_are_read_on_request(night_app: Any,
                                                    night_store: NightStore) -> None:
    host, csrf = host_client(night_app, night_store)
    table, phone, pcsrf = _seated(night_app, night_store, host, csrf)
    state = _south_to_act(table)
    status, said = _say(phone, pcsrf, "hand")
    assert status == 200
    assert said == hand_words(view_of(state, Seat.S).hand, state.trump)
    status, said = _say(phone, pcsrf, "table")
    assert status == 200 and "Tricks:" in said and "Your turn" in said


def test_a_refusal_says_why_and_the_choices_without_rule_ids(night_app: Any,
                                                             night_store: NightStore) -> None:
    host, csrf = host_client(night_app, night_store)
    table, phone, pcsrf = _seated(night_app, night_store, host, csrf)
    state = _south_to_act(table)
    assert state.phase is Phase.AUCTION
    status, said = _say(phone, pcsrf, "ace of spades")
    assert status == 400 and "You may: pass" in said and not RULE_ID.search(said), said
    status, said = _say(phone, pcsrf, "yes")
    assert status == 400 and "no card is waiting" in said.lower()


def test_a_card_confirmed_before_it_counts(night_app: Any, night_store: NightStore) -> None:
    host, csrf = host_client(night_app, night_store)
    table, phone, pcsrf = _seated(night_app, night_store, host, csrf)
    while True:  # South passes or bids until it is South's card to play (or a new hand)
        state = _south_to_act(table)
        if state.is_terminal():
            phone.post("/table/deal", data={"csrf": pcsrf}, headers=JSON)
            continue
        legal = view_of(state, Seat.S).legal
        if isinstance(legal[0], Card):
            break
        _say(phone, pcsrf, choice_words(legal[-1] if state.phase is Phase.AUCTION
                                         else legal[0]))
    card = legal[0]
    status, said = _say(phone, pcsrf, choice_words(card), confirm="1")
    assert status == 200 and said.startswith("Play the ") and "again" in said
    time.sleep(0.3)
    assert card in table.state.hand(Seat.S)  # not played yet
    r = phone.post("/table/play", data={"csrf": pcsrf, "action": str(card), "confirm": "1"},
                   headers=JSON)
    assert r.status_code == 200 and r.json()["message"].startswith("You: ")
    assert card not in table.state.hand(Seat.S)
    # typed: the card, then yes
    while True:
        state = _south_to_act(table)
        if state.is_terminal():
            return
        legal = view_of(state, Seat.S).legal
        if isinstance(legal[0], Card):
            break
        _say(phone, pcsrf, choice_words(legal[0]))
    card = legal[-1]
    status, said = _say(phone, pcsrf, f"the {choice_words(card)}", confirm="1")
    assert status == 200 and said == f"Play {card_words(card, state.trump)}? Press it again, " \
        "or type yes, to play it."
    assert card in table.state.hand(Seat.S)
    assert _say(phone, pcsrf, "yes") == (200, "")
    assert card not in table.state.hand(Seat.S)


# ---- the quiz's timer ---------------------------------------------------------------------

def _timed(host: TestClient, csrf: str, seconds: int) -> None:
    r = host.post("/quiz/ask", data={"csrf": csrf, "kind": "tricks", "level": "easy",
                                     "preset": "standard", "seconds": str(seconds)},
                  headers=JSON)
    assert r.status_code == 200, r.text


def test_a_player_and_the_host_get_more_time_for_the_room_and_it_is_recorded(
        night_app: Any, night_store: NightStore) -> None:
    host, csrf = host_client(night_app, night_store)
    ada, acsrf = player_client(night_app, night_store, "Ada")
    _timed(host, csrf, 20)
    q = night_store.question()
    assert q is not None and q.closes is not None
    before = q.closes
    r = ada.post("/quiz/more-time", data={"csrf": acsrf, "question": str(q.id)}, headers=JSON)
    assert r.status_code == 200, r.text
    r = host.post("/quiz/more-time", data={"csrf": csrf, "question": str(q.id)}, headers=JSON)
    assert r.status_code == 200, r.text
    after = night_store.question(q.id)
    assert after is not None and after.closes == pytest.approx(before + 2 * MORE_TIME, abs=1)
    assert night_store.time_asked(q.id) == [("Ada", MORE_TIME), ("the host", MORE_TIME)]
    assert "More time: Ada +30 s, the host +30 s." in host.get("/part/quiz-host").text
    assert "More time, please" in ada.get("/part/quiz-phone").text


def test_an_untimed_player_holds_the_timer_and_only_they_may_answer_late(
        night_app: Any, night_store: NightStore) -> None:
    host, csrf = host_client(night_app, night_store)
    ada, acsrf = player_client(night_app, night_store, "Ada")
    bo, bcsrf = player_client(night_app, night_store, "Bo")
    r = ada.post("/quiz/untimed", data={"csrf": acsrf, "on": "1"}, headers=JSON)
    assert r.status_code == 200 and "No time limit for you" in r.json()["message"]
    _timed(host, csrf, 1)
    q = night_store.question()
    assert q is not None
    assert "No time limit for you" in ada.get("/part/quiz-phone").text
    time.sleep(1.2)
    assert not night_store.close_expired()  # Ada has not answered: it waits for her
    assert "The timer waits for Ada" in host.get("/part/quiz-host").text
    answer = str(q.step().options()[0].value)
    r = bo.post("/quiz/answer", data={"csrf": bcsrf, "question": str(q.id), "answer": answer},
                headers=JSON)
    assert r.status_code == 409  # Bo's time ran out: fair to those who answered in time
    r = ada.post("/quiz/answer", data={"csrf": acsrf, "question": str(q.id),
                                       "answer": answer}, headers=JSON)
    assert r.status_code == 200, r.text
    assert night_store.close_expired()
    closed = night_store.question(q.id)
    assert closed is not None and closed.closed is not None and closed.closed >= closed.closes
    # the host sets it for a player too, and takes it off
    ada_id = next(p.id for p in night_store.players() if p.name == "Ada")
    r = host.post("/quiz/untimed", data={"csrf": csrf, "player": str(ada_id), "on": "0"},
                  headers=JSON)
    assert r.status_code == 200 and night_store.untimed() == set()
