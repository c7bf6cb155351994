"""The daily deal at game night: the table deals the day's deals with the day's computer
players, and the room's results go on the daily board against par."""

from __future__ import annotations

import random
import re
import time
from datetime import date
from typing import Any

from starlette.testclient import TestClient

from pepper_tutor.apps.night.store import NightStore
from pepper_tutor.engine.seats import Seat
from pepper_tutor.teaching.practice.daily import DAILY_DEALS, daily_par, daily_state

from .night_clients import JSON, host_client, player_client, wait_for


def _open_daily(night_app: Any, host: TestClient, csrf: str) -> Any:
    r = host.post("/table/open", data={"csrf": csrf, "level": "beginner", "daily": "1"},
                  headers=JSON)
    assert r.status_code == 200 and "daily deal" in r.json()["message"], r.text
    table = night_app.state.night.table
    table.pause = 0.0
    return table


def _play_as_the_days_computer(table: Any, phone: tuple[TestClient, str], seat: Seat,
                               index: int) -> None:
    """The phone at ``seat`` plays deal ``index`` to its end, deciding as the day's own
    computer player at that seat would (from 0-0, as at everyone's table)."""
    from pepper_tutor.analysis.view import view_of
    from pepper_tutor.apps.night.table import action_value
    from pepper_tutor.teaching.practice.daily import daily_bots

    bot = daily_bots(date.today(), index, None)[seat]
    client, csrf = phone
    while not table.state.is_terminal():
        with table.lock:
            mine = table.state.to_act == seat
            seen = view_of(table.state, seat, {"NS": 0, "EW": 0}) if mine else None
        if seen is None:
            time.sleep(0.01)
            continue
        r = client.post("/table/play", data={"csrf": csrf,
                                             "action": action_value(bot.decide(seen))},
                        headers=JSON)
        assert r.status_code == 200, r.text


def test_the_days_deals_in_order_with_the_days_computer_players(night_app: Any,
                                                                 night_store: NightStore
                                                                 ) -> None:
    host, csrf = host_client(night_app, night_store)
    table = _open_daily(night_app, host, csrf)
    today = date.today()
    assert table.level == "club" and table.rules.name == "standard"  # the day's, not asked
    # nothing is dealt for computers alone
    r = host.post("/table/deal", data={"csrf": csrf}, headers=JSON)
    assert r.status_code == 409 and "Nobody sits" in r.json()["message"]
    assert table.state is None and night_store.daily_deals(today.isoformat()) == []
    ann = player_client(night_app, night_store, "Ann")
    ann[0].post("/table/claim", data={"csrf": ann[1], "seat": "S"}, headers=JSON)
    for i in range(DAILY_DEALS):
        assert host.post("/table/deal", data={"csrf": csrf}, headers=JSON).status_code == 200
        assert {s: table.state.dealt(s) for s in Seat} == {
            s: daily_state(today, i).dealt(s) for s in Seat}  # the day's deal, in order
        _play_as_the_days_computer(table, ann, Seat.S, i)
        wait_for(lambda n=i + 1: len(night_store.daily_deals(today.isoformat())) == n, 60.0)
    played = night_store.daily_deals(today.isoformat())
    assert [d["deal"] for d in played] == [1, 2, 3, 4]
    # Ann decided as the day's computer player would, and the others are the day's own:
    # the result is par
    assert [d["net"] for d in played] == [d["par"] for d in played] == list(daily_par(today))
    assert night_store.sheet()[0].entries == []  # not on the match's sheet
    r = host.post("/table/deal", data={"csrf": csrf}, headers=JSON)
    assert r.status_code == 409 and "all played" in r.json()["message"]
    shown = host.get("/part/projector").text
    assert f"The daily deal, {today.isoformat()}" in shown
    assert len(re.findall(r'<tr><td class="n">\d</td>', shown)) == DAILY_DEALS


def test_each_daily_deal_is_dealt_once_whatever_reopens_it(night_app: Any,
                                                           night_store: NightStore) -> None:
    from pepper_tutor.apps.night.table import Table

    host, csrf = host_client(night_app, night_store)
    table = _open_daily(night_app, host, csrf)
    today = date.today()
    ann = player_client(night_app, night_store, "Ann")
    ann[0].post("/table/claim", data={"csrf": ann[1], "seat": "S"}, headers=JSON)
    host.post("/table/deal", data={"csrf": csrf}, headers=JSON)
    # Ann leaves at once: the computers play deal 1 alone, and it does not count
    ann[0].post("/table/leave", data={"csrf": ann[1]}, headers=JSON)
    wait_for(lambda: table.state.is_terminal(), 60.0)
    assert "it is dealt again" in table.news
    assert night_store.daily_deals(today.isoformat()) == []
    ann[0].post("/table/claim", data={"csrf": ann[1], "seat": "S"}, headers=JSON)
    host.post("/table/deal", data={"csrf": csrf}, headers=JSON)
    assert table.state.dealt(Seat.S) == daily_state(today, 0).dealt(Seat.S)  # deal 1 again
    _play_as_the_days_computer(table, ann, Seat.S, 0)
    wait_for(lambda: night_store.daily_deals(today.isoformat()), 60.0)
    r = host.post("/table/close", data={"csrf": csrf}, headers=JSON)
    assert r.json()["message"] == (f"The table is closed. 1 of the {today.isoformat()} deals "
                                   "is on the daily board.")
    # opened again, and after a restart: deal 2, never deal 1 again
    table = _open_daily(night_app, host, csrf)
    assert table.daily_deal == 2
    ann[0].post("/table/claim", data={"csrf": ann[1], "seat": "S"}, headers=JSON)
    host.post("/table/deal", data={"csrf": csrf}, headers=JSON)
    assert table.state.dealt(Seat.S) == daily_state(today, 1).dealt(Seat.S)
    table.close()
    again = Table.saved(night_store, lambda part: None)
    assert again is not None and again.daily_deal == 2
    assert again.state.dealt(Seat.S) == daily_state(today, 1).dealt(Seat.S)
    again.close()
    # a deal already on the board is not written again, nor listed or ranked twice
    assert not night_store.add_daily(today.isoformat(), 1, {"S": "Ann"}, 0, 0, "x", "")
    assert [d["deal"] for d in night_store.daily_deals(today.isoformat())] == [1]


def test_the_rooms_results_are_ranked_against_par_on_the_projector(night_app: Any,
                                                                   night_store: NightStore) -> None:
    from pepper_tutor.analysis.view import view_of

    host, csrf = host_client(night_app, night_store)
    table = _open_daily(night_app, host, csrf)
    ann, acsrf = player_client(night_app, night_store, "Ann")
    r = ann.post("/table/claim", data={"csrf": acsrf, "seat": "S"}, headers=JSON)
    assert r.status_code == 200, r.text
    bo, bcsrf = player_client(night_app, night_store, "Bo")
    bo.post("/table/claim", data={"csrf": bcsrf, "seat": "E"}, headers=JSON)
    assert ann.post("/table/deal", data={"csrf": acsrf}, headers=JSON).status_code == 200
    phones = {Seat.S: (ann, acsrf), Seat.E: (bo, bcsrf)}
    rng = random.Random(5)
    kinds = {"auction": "bid:", "declare-trump": "trump:", "declare-mode": "mode:",
             "defense": "defense:"}
    while not table.state.is_terminal():
        with table.lock:
            seat = table.state.to_act
            seen = view_of(table.state, seat) if seat in phones else None
            phase = table.state.phase.value
        if seen is None:
            time.sleep(0.01)
            continue
        client, c = phones[seat]
        action = rng.choice(list(seen.legal))
        r = client.post("/table/play", data={"csrf": c, "action": f"{kinds.get(phase, '')}"
                                                                  f"{action}"}, headers=JSON)
        assert r.status_code == 200, r.text
    played = wait_for(lambda: night_store.daily_deals(date.today().isoformat()), 60.0)
    assert played[0]["seats"] == {"E": "Bo", "S": "Ann"}
    net, par = played[0]["net"], played[0]["par"]
    shown = host.get("/part/projector").text
    ranked = re.findall(r'<span class="who">([^<]+)</span> <span class="score">([+-]\d+) '
                        r"against par", shown)
    expected = sorted([("Ann", net - par), ("Bo", par - net)], key=lambda x: -x[1])
    assert [(n, int(v)) for n, v in ranked] == expected
    assert "Daily deal 1 of 4" in ann.get("/part/table-phone").text
