"""Game night's guide on the projector: after a hand at the night's table, the host opens its
guide (``/guide``) in large print and steps through it with the room."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from pepper_tutor.records.annotate import annotate
from pepper_tutor.records.hand_record import parse_record

from .night_clients import JSON, host_client, player_client
from .test_night_browser import night, screens  # noqa: F401  (the browser test's fixtures)


def _played_hand(app: Any, store: Any) -> Any:
    """The host opens the table, Ann sits North and plays her turns with her first legal
    choice, the host deals, and the hand goes to the sheet (a hand the computers play alone
    would not)."""
    from pepper_tutor.apps.night.table import action_value
    from pepper_tutor.engine.seats import Seat

    host, hcsrf = host_client(app, store)
    r = host.post("/table/open", data={"csrf": hcsrf, "level": "beginner"}, headers=JSON)
    assert r.status_code == 200, r.text
    table = app.state.night.table
    table.pause = 0.0
    ann, acsrf = player_client(app, store, "Ann")
    assert ann.post("/table/claim", data={"csrf": acsrf, "seat": "N"},
                    headers=JSON).status_code == 200
    assert host.post("/table/deal", data={"csrf": hcsrf}, headers=JSON).status_code == 200
    deadline = time.monotonic() + 120
    while not store.played_records():
        assert time.monotonic() < deadline, "the hand did not finish"
        with table.lock:
            state = table.state
            turn = state is not None and not state.is_terminal() and state.to_act is Seat.N
            action = action_value(state.legal_actions()[0]) if turn else None
        if action is not None:
            ann.post("/table/play", data={"csrf": acsrf, "action": action}, headers=JSON)
        time.sleep(0.05)
    return host


def test_the_host_opens_the_last_hands_guide(night_app: Any, night_store: Any) -> None:
    host, _ = host_client(night_app, night_store)
    r = host.get("/guide", follow_redirects=False)
    assert r.status_code == 404 and "only the table keeps" in r.text
    host = _played_hand(night_app, night_store)
    r = host.get("/guide", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/guide/1"
    page = host.get("/guide/1")
    assert page.status_code == 200
    assert "<script src=\"/guide/viewer.js\"></script>" in page.text
    assert not re.search(r"<script>", page.text), "the night's policy runs no inline script"
    data = json.loads(re.search(r'id="pg-data">(.*?)</script>', page.text, re.S).group(1))
    assert data["big"] is True
    record = parse_record(night_store.played_records()[1])
    expected = annotate(record)
    winners = [s["winner"] for s in data["steps"] if s["kind"] == "card" and s["winner"]]
    assert winners == [str(t.winner) for t in expected.tricks]
    for name in ("viewer.js", "viewer.css"):
        assert host.get(f"/guide/{name}").status_code == 200
    assert host.get("/guide/2").status_code == 404
    assert host.get("/guide/nothing.js").status_code == 404
    # a player may not open it: the host puts it on the projector
    phone, _ = player_client(night_app, night_store, "Bea")
    assert phone.get("/guide/1").status_code in (401, 403)




@pytest.mark.browser
@pytest.mark.slow
def test_the_projector_guide_after_a_game_night_hand(screens: Any) -> None:  # noqa: F811
    from playwright.sync_api import expect

    from .conftest import ARTIFACTS
    from .test_night_browser import tap_turn

    host = screens.host()
    phone = screens.phone("Ann")
    host.click("[data-tab=table]")
    host.click("button.open-table-button")
    phone.click("[data-tab=table]")
    phone.click("button[data-claim=S]")
    expect(phone.locator(".you")).to_contain_text("Waiting for the deal")
    host.locator(".table-host .deal-button").click()
    link = host.locator(".table-host a.guide-link")
    for _ in range(600):  # Ann plays her turns; three computer players the rest
        if link.count():
            break
        if not tap_turn(phone):
            phone.wait_for_timeout(200)
    expect(link).to_be_visible()
    with host.context.expect_page() as opened:
        link.click()
    room = opened.value
    room.on("pageerror", lambda e: screens.errors.append(str(e)))
    room.set_viewport_size({"width": 1280, "height": 720})
    room.wait_for_selector("#pg[data-ready=true]")
    assert "pg-big" in room.locator("#pg").get_attribute("class")
    assert room.locator("#pg-step-title").inner_text().endswith("deals.")
    steps = int(re.search(r"of (\d+)", room.locator("#pg-count").inner_text()).group(1))
    for n in range(2, steps + 1):
        room.keyboard.press("ArrowRight")
        expect(room.locator("#pg-count")).to_have_text(f"Step {n} of {steps}")
    assert room.locator("#pg-step-title").inner_text().startswith(("The score", "Everyone"))
    box = room.locator("#pg-step-title").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 720
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    room.keyboard.press("Home")
    room.keyboard.press("ArrowDown")
    room.keyboard.press("ArrowDown")
    room.screenshot(path=str(ARTIFACTS / "guide-night-projector-1280x720.png"))
