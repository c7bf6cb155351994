"""Game night's test clients: the host's browser and a player's phone, on a Starlette
TestClient. The night's ``night_store`` and ``night_app`` fixtures are in conftest.py."""

from __future__ import annotations

import time
from typing import Any

from starlette.testclient import TestClient

from pepper_tutor.apps.night.store import NightStore

BASE = "http://127.0.0.1:8866"
JSON = {"Accept": "application/json"}


def host_client(app: Any, store: NightStore) -> tuple[TestClient, str]:
    """The host, signed in through the host link; with its CSRF token."""
    client = TestClient(app, base_url=BASE)
    client.get(f"/h/{store.host_token}", follow_redirects=True)
    return client, client.cookies["pt_csrf"]


def player_client(app: Any, store: NightStore, name: str) -> tuple[TestClient, str]:
    """A phone that joined the room as ``name``; with its CSRF token."""
    client = TestClient(app, base_url=BASE)
    client.get("/")
    csrf = client.cookies["pt_csrf"]
    r = client.post("/join", data={"csrf": csrf, "code": store.room_code, "name": name},
                    headers=JSON)
    assert r.status_code == 200, r.text
    return client, csrf


def wait_for(check: Any, seconds: float = 30.0) -> Any:
    """``check()``'s first true value within ``seconds`` (the table's threads play on)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError("the table never got there")
