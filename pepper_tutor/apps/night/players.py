"""Players: joining with the room code and a name, and the host making one a scorekeeper."""

from __future__ import annotations

import secrets
import sqlite3

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from .auth import need_host
from .middleware import form_of
from .responses import done, page, wants_json, write_failed
from .state import PLAYER_COOKIE, night_of
from .store import NightError

__all__ = ["join", "set_scorekeeper"]


def join(request: Request) -> Response:
    form = form_of(request)
    night = night_of(request)
    address = request.client.host if request.client else "?"
    code = form.get("code", "").strip().upper()
    name = form.get("name", "")

    def again(error: str, status: int) -> Response:
        if wants_json(request):
            return JSONResponse({"ok": False, "message": error}, status)
        return page(request, "join.html", {"code": code[:8], "name": name[:40],
                                           "error": error}, status)

    if not night.limits.allow(f"join:{address}", night.config.join_limit):
        return again("Too many joins from this device: wait a minute and try again.", 429)
    if not secrets.compare_digest(code.encode(), night.room_code.encode()):
        if not night.limits.allow(f"code:{address}", night.config.wrong_code_limit):
            return again("Too many wrong room codes: wait a minute and try again.", 429)
        return again("That is not tonight's room code: it is the five letters and digits "
                     "on the big screen.", 403)
    try:
        player = night.store.join(name)
    except NightError as err:
        return again(str(err)[:1].upper() + str(err)[1:] + ".", 400)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("players")
    if wants_json(request):
        response: Response = JSONResponse({"ok": True, "message": f"Welcome, {player.name}",
                                           "player": player.id})
    else:
        response = RedirectResponse("/play", 303)
    response.set_cookie(PLAYER_COOKIE, player.token, httponly=True, samesite="strict",
                        max_age=7 * 24 * 3600)
    return response


def set_scorekeeper(request: Request) -> Response:
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    try:
        player = night.store.set_scorekeeper(int(form.get("player", "")), form.get("on") == "1")
    except ValueError:
        return done(request, "No such player.", 404)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("players")
    role = "is now a scorekeeper" if player.scorekeeper else "is no longer a scorekeeper"
    return done(request, f"{player.name} {role}.")
