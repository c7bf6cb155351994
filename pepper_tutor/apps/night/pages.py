"""The pages: the join page, the host's link, the host's screen, the projector, a phone's."""

from __future__ import annotations

import secrets
import sqlite3

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from .auth import is_host, need_host, player_of
from .responses import page, qr_svg
from .state import HOST_COOKIE, night_of
from .store import NightError

__all__ = ["home", "host_link", "host", "projector", "play"]


def home(request: Request) -> Response:
    if is_host(request):
        return RedirectResponse("/host", 303)
    if player_of(request) is not None:
        return RedirectResponse("/play", 303)
    return page(request, "join.html", {"code": request.query_params.get("code", "")[:8],
                                       "name": "", "error": ""})


def host_link(request: Request) -> Response:
    token = request.path_params["token"]
    if not secrets.compare_digest(token, night_of(request).host_token):
        raise HTTPException(403, "That is not this night's host link.")
    response = RedirectResponse("/host", 303)
    response.set_cookie(HOST_COOKIE, token, httponly=True, samesite="strict")
    return response


def host(request: Request) -> Response:
    need_host(request)
    night = night_of(request)
    join_url = night.config.join_url(night.room_code)
    return page(request, "host.html", {"room": night.room_code, "join_url": join_url,
                                       "qr": qr_svg(join_url)})


def projector(request: Request) -> Response:
    need_host(request)
    return page(request, "projector.html", {})


def play(request: Request) -> Response:
    player = player_of(request)
    if player is None:
        return RedirectResponse("/", 303)
    # The table hears from the phone at least three times within the grace period.
    night = night_of(request)
    poll = max(1.0, min(10.0, night.config.grace / 3))
    try:
        rejoin: str | None = night.store.rejoin_code(player.id)
    except (NightError, sqlite3.Error):
        rejoin = None  # a full disk: the page without the code, rather than no page
    return page(request, "play.html", {"player": player, "poll": f"{poll:g}",
                                       "rejoin": rejoin})
