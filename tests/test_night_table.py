"""Game night's card table keeps the rules and the people (issue 34): nothing is played before
people sit, face-down cards reach only their owner, computers alone put nothing on a sheet,
the table and its hand survive a restart, the exchange is said in words, and a seated player
sees that a question is open. Over the app, as phones and the host use it."""

from __future__ import annotations

import html
import re
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from pepper_tutor.analysis.view import view_of
from pepper_tutor.apps.night.server import NightConfig, create_app
from pepper_tutor.apps.night.store import NightStore
from pepper_tutor.apps.night.table import Table, action_value
from pepper_tutor.engine.cards import Card
from pepper_tutor.engine.seats import Seat
from pepper_tutor.engine.state import Phase
from pepper_tutor.rulebook.book import RULE_IDS_ENV, get_rule

from .night_clients import BASE, JSON, host_client, player_client, wait_for


def _open(app: Any, host: TestClient, csrf: str, **fields: str) -> Table:
    r = host.post("/table/open", data={"csrf": csrf, "level": "beginner", **fields},
                  headers=JSON)
    assert r.status_code == 200, r.text
    table = app.state.night.table
    table.pause = 0.0
    return table


def _seat_four(app: Any, store: NightStore, host: TestClient, csrf: str
               ) -> tuple[Table, dict[Seat, tuple[TestClient, str]]]:
    """Four phones in the four seats kept for people: the hand is dealt as the last sits."""
    table = _open(app, host, csrf, people_N="1", people_E="1", people_S="1", people_W="1")
    phones = {}
    for name, seat in (("Nia", Seat.N), ("Eli", Seat.E), ("Sam", Seat.S), ("Wes", Seat.W)):
        phones[seat] = player_client(app, store, name)
        client, c = phones[seat]
        assert client.post("/table/claim", data={"csrf": c, "seat": str(seat)},
                           headers=JSON).status_code == 200
    assert table.state is not None
    return table, phones


def _tap(table: Table, phones: dict[Seat, tuple[TestClient, str]], pick: Any) -> str:
    """The phone whose turn it is taps ``pick(phase, legal)``; returns what it was told."""
    with table.lock:
        seat = table.state.to_act
        seen = view_of(table.state, seat)
        phase = table.state.phase
    client, c = phones[seat]
    r = client.post("/table/play", data={"csrf": c,
                                         "action": action_value(pick(phase, seen.legal))},
                    headers=JSON)
    assert r.status_code == 200, r.text
    return str(r.json()["message"])


def _to_the_exchange(table: Table, phones: dict[Seat, tuple[TestClient, str]]) -> Seat:
    """The first to speak bids 4 and the others pass; hearts; the exchange. The bidder."""
    bidder = table.state.to_act

    def pick(phase: Phase, legal: Any) -> Any:
        if phase is Phase.AUCTION:
            words = [str(a) for a in legal]
            return legal[words.index("4")] if table.state.to_act == bidder else \
                legal[words.index("pass")]
        if phase is Phase.DECLARE_TRUMP:
            return next(a for a in legal if str(a) == "H")
        return next(a for a in legal if str(a) == "exchange")

    while table.state.phase is not Phase.DISCARD:
        _tap(table, phones, pick)
    return bidder


def _everything_seen(app: Any, store: NightStore, host: TestClient,
                     phones: dict[Seat, tuple[TestClient, str]], but: set[Seat]) -> str:
    """Every part of every screen but the phones in ``but``: the host's, the projector's,
    the other phones'."""
    texts = [host.get(f"/part/{name}").text for name in ("table-host", "projector")]
    texts += [phones[s][0].get(f"/part/{name}").text for s in phones if s not in but
              for name in ("table-phone", "quiz-phone", "sheet")]
    return "\n".join(texts)


def _face_down_leaks(text: str, card: Card) -> list[str]:
    return [shown for shown in (f'"{card}"', card.display, f">{card}<") if shown in text]


def test_face_down_cards_reach_only_their_owner(night_app: Any, night_store: NightStore
                                                ) -> None:
    host, csrf = host_client(night_app, night_store)
    table, phones = _seat_four(night_app, night_store, host, csrf)
    bidder = _to_the_exchange(table, phones)
    partner = table.state.partner_of_bidder
    mine = phones[bidder][0].get("/part/table-phone").text
    assert "Put one card aside, face down" in mine  # in words, not "Your turn."
    aside = table.state.hand(bidder)[0]
    told = _tap(table, phones, lambda phase, legal: aside)
    assert told == f"You: {aside.display}."  # said to its owner only
    assert table.state.discard == aside
    assert table.news == f"{bidder.word} puts a card aside, face down."
    assert not _face_down_leaks(_everything_seen(night_app, night_store, host, phones,
                                                 {bidder}), aside)
    theirs = phones[partner][0].get("/part/table-phone").text
    assert f"Send one card to your partner {bidder.word}, face down" in theirs
    assert "Your turn." not in theirs and "No card on the table yet" not in theirs
    others = phones[bidder.next(4)][0].get("/part/table-phone").text
    assert f"{partner.word} passes {bidder.word} one card, face down" in others
    sent = table.state.hand(partner)[-1]
    _tap(table, phones, lambda phase, legal: sent)
    assert table.news == f"{partner.word} passes a card to {bidder.word}, face down."
    seen = _everything_seen(night_app, night_store, host, phones, {bidder, partner})
    assert not _face_down_leaks(seen, sent) and not _face_down_leaks(seen, aside)
    # the bidder holds the card passed; the event stream says only which part changed
    assert sent in table.state.hand(bidder)
    assert f'data-card="{sent}"' in phones[bidder][0].get("/part/table-phone").text


def test_nothing_is_played_before_the_host_deals_and_computers_alone_score_nothing(
        night_app: Any, night_store: NightStore) -> None:
    host, csrf = host_client(night_app, night_store)
    table = _open(night_app, host, csrf)
    time.sleep(1.0)  # the computers had time to bid, were anything dealt
    assert table.state is None and table.version == 0
    assert "Waiting for the deal" in host.get("/part/projector").text
    r = host.post("/table/deal", data={"csrf": csrf}, headers=JSON)
    assert r.status_code == 409 and "Nobody sits at the table" in r.json()["message"]
    ann, acsrf = player_client(night_app, night_store, "Ann")
    ann.post("/table/claim", data={"csrf": acsrf, "seat": "N"}, headers=JSON)
    time.sleep(0.5)
    assert table.state is None  # a person sat down; still the host deals
    page = ann.get("/part/table-phone").text
    assert "Waiting for the deal" in page and "dealt when the host deals" in page
    assert host.post("/table/deal", data={"csrf": csrf}, headers=JSON).status_code == 200
    # Ann leaves before she has made a decision: the computers play the hand alone
    ann.post("/table/leave", data={"csrf": acsrf}, headers=JSON)
    wait_for(lambda: table.state.is_terminal())
    assert "computers played this hand alone: it is not put on the sheet" in table.news
    assert night_store.sheet()[0].entries == []
    r = host.post("/table/close", data={"csrf": csrf}, headers=JSON)
    assert r.json()["message"] == ("The table is closed. No hand played at this table went on "
                                   "the sheet.")


def test_closing_says_what_went_on_the_sheet(night_app: Any, night_store: NightStore) -> None:
    host, csrf = host_client(night_app, night_store)
    table, phones = _seat_four(night_app, night_store, host, csrf)
    while not table.state.is_terminal():
        _tap(table, phones, lambda phase, legal: legal[0])
    assert len(night_store.sheet()[0].entries) == 1
    host.post("/table/deal", data={"csrf": csrf}, headers=JSON)
    _tap(table, phones, lambda phase, legal: legal[0])
    r = host.post("/table/close", data={"csrf": csrf}, headers=JSON)
    assert r.json()["message"] == ("The table is closed. 1 hand played at this table is on the "
                                   "sheet. The hand in play was not finished: it is on no "
                                   "sheet.")
    assert night_store.saved_table() is None  # closed: a restart does not open it again


def test_the_table_and_its_hand_survive_a_crash(night_app: Any, night_store: NightStore,
                                                tmp_path: Any) -> None:
    host, csrf = host_client(night_app, night_store)
    table, phones = _seat_four(night_app, night_store, host, csrf)
    bidder = _to_the_exchange(table, phones)
    _tap(table, phones, lambda phase, legal: legal[0])  # the discard, face down
    history = list(table.state.history)
    hands = {s: table.state.hand(s) for s in Seat}
    ids = {s: table.seats[s].player_id for s in Seat}
    # the server dies: nothing but the file is left (the table is not closed by the host)
    table.close()
    store = NightStore(night_store.path)
    try:
        app = create_app(store, NightConfig(BASE, "test"))
        again = app.state.night.table
        assert again is not None and list(again.state.history) == history
        assert {s: again.state.hand(s) for s in Seat} == hands
        assert {s: again.seats[s].player_id for s in Seat} == ids
        assert again.state.to_act == table.state.partner_of_bidder
        assert "restarted" in again.news and again.version > table.version
        # the partner's phone goes on from the same card: its cookie is still its player
        partner = again.state.partner_of_bidder
        phone = TestClient(app, base_url=BASE)
        phone.cookies.update(phones[partner][0].cookies)
        page = phone.get("/part/table-phone").text
        assert f"Send one card to your partner {bidder.word}" in page
        card = again.state.hand(partner)[0]
        r = phone.post("/table/play", data={"csrf": phones[partner][1], "action": str(card)},
                       headers=JSON)
        assert r.status_code == 200, r.text
        assert card in again.state.hand(bidder)
        # the coach still has every decision of the hand, with the state before it
        assert [d.action for d in again.decisions] == [*history, card]
        again.close()
    finally:
        store.close()


def test_a_seated_player_sees_that_a_question_is_open(night_app: Any, night_store: NightStore,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    host, csrf = host_client(night_app, night_store)
    _, phones = _seat_four(night_app, night_store, host, csrf)
    phone = phones[Seat.N][0]
    before = phone.get("/part/table-phone").text
    assert "A question is open" not in before
    host.post("/quiz/ask", data={"csrf": csrf, "kind": "tricks"}, headers=JSON)
    after = phone.get("/part/table-phone").text
    assert "A question is open: answer it on the <b>Quiz</b> tab" in after
    # its drawing is a new state of the part, so a phone that had the table drawn redraws it
    state = 'data-state="'
    assert before.split(state)[1].split('"')[0] != after.split(state)[1].split('"')[0]
    projector = host.get("/part/projector").text
    assert "proj-question" in projector and "proj-table" not in projector
    r = host.post("/quiz/close", data={"csrf": csrf}, headers=JSON)
    assert r.json()["message"] == "Question 1 is closed: the answers are on the screen."
    # the room sees the answer and the leaderboard before the table comes back
    projector = host.get("/part/projector").text
    assert "The answer:" in projector and "Leaderboard" in projector
    assert "proj-table" not in projector and "data-redraw-in" in projector
    assert "A question is open" not in phone.get("/part/table-phone").text
    # the rules behind the answer by their titles; their ids only in the rule ids view
    named = re.compile(r'class="rule-name">([^<]*)<')
    titles = named.findall(projector)
    assert titles and "<code>" not in projector
    monkeypatch.setenv(RULE_IDS_ENV, "1")
    ids = named.findall(host.get("/part/projector").text)
    assert [get_rule(i).title for i in ids] == [html.unescape(t) for t in titles]


def test_the_projector_goes_back_to_the_table_after_the_answer(
        night_app: Any, night_store: NightStore, monkeypatch: pytest.MonkeyPatch) -> None:
    import pepper_tutor.apps.night.parts as parts

    host, csrf = host_client(night_app, night_store)
    _open(night_app, host, csrf)
    host.post("/quiz/ask", data={"csrf": csrf, "kind": "tricks"}, headers=JSON)
    host.post("/quiz/close", data={"csrf": csrf}, headers=JSON)
    later = time.time() + parts.RESULTS_SHOWN + 1
    monkeypatch.setattr(parts.time, "time", lambda: later)
    projector = host.get("/part/projector").text
    assert "proj-table" in projector and "The answer:" not in projector


def test_closing_an_old_question_says_so(night_app: Any, night_store: NightStore) -> None:
    host, csrf = host_client(night_app, night_store)
    host.post("/quiz/ask", data={"csrf": csrf, "kind": "tricks"}, headers=JSON)
    host.post("/quiz/ask", data={"csrf": csrf, "kind": "tricks"}, headers=JSON)
    r = host.post("/quiz/close", data={"csrf": csrf, "question": "1"}, headers=JSON)
    assert r.status_code == 409
    assert r.json()["message"] == ("Question 1 was closed already; question 2 is on the "
                                   "screen, open.")
    assert night_store.question().is_open  # the question on the screen stays open
    r = host.post("/quiz/close", data={"csrf": csrf, "question": "2"}, headers=JSON)
    assert r.json()["message"] == "Question 2 is closed: the answers are on the screen."
    r = host.post("/quiz/close", data={"csrf": csrf, "question": "2"}, headers=JSON)
    assert r.status_code == 409 and r.json()["message"] == "No question is open."


def test_an_unknown_preset_is_refused(night_app: Any, night_store: NightStore) -> None:
    host, csrf = host_client(night_app, night_store)
    r = host.post("/sheet/new", data={"csrf": csrf, "version": "0", "preset": "nope"},
                  headers=JSON)
    assert r.status_code == 400
    assert "no rule set called 'nope'" in r.json()["message"]
    assert "standard, simple, cutthroat" in r.json()["message"]
    assert len(night_store.matches()) == 1  # nothing started


def test_tied_players_share_a_rank_and_the_top_five_keeps_ties(night_app: Any,
                                                               night_store: NightStore) -> None:
    from pepper_tutor.apps.night.views import ranked

    board = [("Ann", 3, 3), ("Bo", 2, 3), ("Cy", 2, 3), ("Di", 1, 3), ("Ed", 0, 3),
             ("Flo", 0, 3), ("Gus", 0, 3)]
    got = [(r["name"], r["rank"]) for r in ranked(board, 5)]
    assert got == [("Ann", 1), ("Bo", 2), ("Cy", 2), ("Di", 4), ("Ed", 5), ("Flo", 5),
                   ("Gus", 5)]
    assert [r["name"] for r in ranked(board, 2)] == ["Ann", "Bo", "Cy"]
    # on the projector: one number for the tied, and no tied player cut
    host, csrf = host_client(night_app, night_store)
    for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo"):
        player_client(night_app, night_store, name)
    host.post("/quiz/ask", data={"csrf": csrf, "kind": "tricks"}, headers=JSON)
    host.post("/quiz/close", data={"csrf": csrf}, headers=JSON)
    shown = host.get("/part/projector").text
    assert shown.count('<li value="1">') == 6  # nobody answered: all six tied, all shown


def test_the_sheet_says_the_truth_after_a_level_extra_hand(night_store: NightStore) -> None:
    from pepper_tutor.apps.night.views import sheet_view
    from pepper_tutor.engine.rules import get_ruleset

    night_store.new_match(0, get_ruleset("standard", target=8), Seat.W)
    v = 1
    for hand in (("N", "3", "H", 3), ("E", "2", "S", 4), (None, None, None, None),
                 ("N", "3", "C", 3)):  # as the browser's tie case: NS 8, EW 8
        bidder, bid, trump, tricks = hand
        night_store.add_hand(v, "host", bidder, bid, trump, bidder and "partner",
                             bidder and "play", tricks, None)
        v += 1
    view = sheet_view(*night_store.sheet())
    assert view["totals"] == {"NS": 8, "EW": 8}
    assert view["overtime"] and not view["still_level"]  # both reached it on one hand
    night_store.add_hand(v, "host", None, None, None, None, None, None, None)  # thrown in
    view = sheet_view(*night_store.sheet())
    assert view["overtime"] and view["still_level"]  # the extra hand left them level


def test_a_tap_on_a_table_the_host_replaced_changes_nothing(night_app: Any,
                                                            night_store: NightStore) -> None:
    """A phone's tap that set out before the host opened a new table: refused, and the old
    table writes nothing over the new one in the night's file."""
    host, csrf = host_client(night_app, night_store)
    old, _ = _seat_four(night_app, night_store, host, csrf)
    new = _open(night_app, host, csrf, level="expert")
    pid = old.seats[old.state.to_act].player_id
    with pytest.raises(Exception, match="the host closed that table"):
        old.act(pid, action_value(old.state.legal_actions()[0]))
    old.claim(pid, "Nia", Seat.N)  # (a request already inside the old table)
    assert night_store.saved_table()["level"] == "expert" and new.state is None
