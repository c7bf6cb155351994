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

from .night_clients import JSON, host_client, player_client


def _wait(check: Any, seconds: float = 60.0) -> Any:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError("the table never got there")


def _open_daily(night_app: Any, host: TestClient, csrf: str) -> Any:
    r = host.post("/table/open", data={"csrf": csrf, "level": "beginner", "daily": "1"},
                  headers=JSON)
    assert r.status_code == 200 and "daily deal" in r.json()["message"], r.text
    table = night_app.state.night.table
    table.pause = 0.0
    return table


def test_computer_players_at_every_seat_make_par_on_each_daily_deal(night_app: Any,
                                                                     night_store: NightStore
                                                                     ) -> None:
    host, csrf = host_client(night_app, night_store)
    table = _open_daily(night_app, host, csrf)
    today = date.today()
    assert table.level == "club" and table.rules.name == "standard"  # the day's, not asked
    for i in range(DAILY_DEALS):
        assert {s: table.state.dealt(s) for s in Seat} == {
            s: daily_state(today, i).dealt(s) for s in Seat}  # the day's deal, in order
        _wait(lambda: table.state.is_terminal())
        # the deal is on the board once it is in the file (the table's thread writes it
        # after the last card; a read does not wait for a write under way)
        _wait(lambda n=i + 1: len(night_store.daily_deals(today.isoformat())) == n)
        if i + 1 < DAILY_DEALS:
            r = host.post("/table/deal", data={"csrf": csrf}, headers=JSON)
            assert r.status_code == 200, r.text
    played = night_store.daily_deals(today.isoformat())
    assert [d["deal"] for d in played] == [1, 2, 3, 4]
    # the same computer players as the practice table's: their result is par
    assert [d["net"] for d in played] == [d["par"] for d in played] == list(daily_par(today))
    assert night_store.sheet()[0].entries == []  # not on the match's sheet
    r = host.post("/table/deal", data={"csrf": csrf}, headers=JSON)
    assert r.status_code == 409 and "all played" in r.json()["message"]
    shown = host.get("/part/projector").text
    assert f"The daily deal, {today.isoformat()}" in shown
    assert len(re.findall(r'<tr><td class="n">\d</td>', shown)) == DAILY_DEALS


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
    played = _wait(lambda: night_store.daily_deals(date.today().isoformat()))
    assert played[0]["seats"] == {"E": "Bo", "S": "Ann"}
    net, par = played[0]["net"], played[0]["par"]
    shown = host.get("/part/projector").text
    ranked = re.findall(r'<span class="who">([^<]+)</span> <span class="score">([+-]\d+) '
                        r"against par", shown)
    expected = sorted([("Ann", net - par), ("Bo", par - net)], key=lambda x: -x[1])
    assert [(n, int(v)) for n, v in ranked] == expected
    assert "Daily deal 1 of 4" in ann.get("/part/table-phone").text
