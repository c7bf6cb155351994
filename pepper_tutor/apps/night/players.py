"""Players: joining with the room code and a name; the host making one a scorekeeper,
renaming or removing one, and rotating the room code."""

from __future__ import annotations

import secrets
import sqlite3

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from .auth import need_host
from .middleware import form_id, form_of
from .responses import done, page, refused, wants_json, write_failed
from .state import PLAYER_COOKIE, night_of
from .store import NightError, WrongRejoin

__all__ = ["join", "set_scorekeeper", "rename_player", "remove_player", "rotate_code",
           "new_rejoin_code"]


def join(request: Request) -> Response:
    form = form_of(request)
    night = night_of(request)
    address = request.client.host if request.client else "?"
    code = form.get("code", "").strip().upper()
    name = form.get("name", "")
    rejoin = form.get("rejoin", "").strip().upper()

    def again(error: str, status: int) -> Response:
        if wants_json(request):
            return JSONResponse({"ok": False, "message": error}, status)
        return page(request, "join.html", {"code": code[:8], "name": name[:40],
                                           "rejoin": rejoin[:8], "error": error}, status)

    # The lockout is looked at before the code: once locked out, the right code is refused
    # too until the minute is over, or guessing would go on at the same speed.
    if night.limits.blocked(f"code:{address}", night.config.wrong_code_limit):
        return again("Too many wrong room codes or rejoin codes from this device: wait a "
                     "minute and try again.", 429)
    if not night.limits.allow(f"join:{address}", night.config.join_limit):
        return again("Too many joins from this device: wait a minute and try again.", 429)
    if not night.limits.allow("join:room", night.config.room_join_limit):
        return again("Too many people are joining right now: wait a minute and try again.",
                     429)
    if not secrets.compare_digest(code.encode(), night.room_code.encode()):
        night.limits.note(f"code:{address}")
        return again("That is not tonight's room code: it is the five letters and digits "
                     "on the big screen.", 403)
    # Wrong rejoin codes lock out the device that typed them, not the name: a lockout by
    # name could be set off by anyone in the room, and would then refuse the player's own
    # code, even a fresh one from the host, for a minute. Phones at many addresses sharing
    # out the guessing of one player's code are held by the room's limit above: at most
    # room_join_limit tries a minute (600) against 20**6 codes is weeks, not a night.
    try:
        player = night.store.rejoin(name, rejoin) if rejoin else night.store.join(name)
    except WrongRejoin as err:
        night.limits.note(f"code:{address}")
        return again(str(err)[:1].upper() + str(err)[1:] + ".", 403)
    except NightError as err:
        return again(str(err)[:1].upper() + str(err)[1:] + ".", 400)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("players")  # the host's and the projector's list, not the phones
    if wants_json(request):
        response: Response = JSONResponse({"ok": True, "message": f"Welcome, {player.name}",
                                           "player": player.id})
    else:
        response = RedirectResponse("/play", 303)
    response.set_cookie(PLAYER_COOKIE, player.token, httponly=True, samesite="strict",
                        max_age=7 * 24 * 3600)
    return response


def _player_id(form: dict[str, str]) -> int:
    return form_id(form, "player", "player")


def set_scorekeeper(request: Request) -> Response:
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    try:
        player = night.store.set_scorekeeper(_player_id(form), form.get("on") == "1")
    except NightError:
        return done(request, "No such player.", 404)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("players")
    night.events.publish("roles")  # that phone's score entry appears or goes
    role = "is now a scorekeeper" if player.scorekeeper else "is no longer a scorekeeper"
    return done(request, f"{player.name} {role}.")


def new_rejoin_code(request: Request) -> Response:
    """The host lets a player's new phone in: a fresh rejoin code, said to the host only."""
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    pid = _player_id(form)
    try:
        name = next((p.name for p in night.store.players() if p.id == pid), None)
        if name is None:
            return done(request, "No such player.", 404)
        code = night.store.new_rejoin_code(pid)
    except NightError:
        return done(request, "No such player.", 404)
    except sqlite3.Error as err:
        return write_failed(request, err)
    return done(request, f"{name}'s new phone can join with their name and the rejoin code "
                         f"{code} (it works once; their old phone is then left out).",
                code=code)


def rename_player(request: Request) -> Response:
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    pid = _player_id(form)
    try:
        before = next((p.name for p in night.store.players() if p.id == pid), None)
        player = night.store.rename_player(pid, form.get("name", ""))
    except NightError as err:
        status = 404 if "no such" in str(err) else 400
        return refused(request, err, status)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("players")
    night.events.publish("roles")
    return done(request, f"{before} is now called {player.name}.")


def remove_player(request: Request) -> Response:
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    try:
        player = night.store.remove_player(_player_id(form))
    except NightError:
        return done(request, "No such player.", 404)
    except sqlite3.Error as err:
        return write_failed(request, err)
    if night.table is not None and night.table.seat_of(player.id) is not None:
        night.table.leave(player.id)
    for part in ("players", "roles", "quiz"):
        night.events.publish(part)
    return done(request, f"{player.name} was removed from the night.")


def rotate_code(request: Request) -> Response:
    form_of(request)
    need_host(request)
    night = night_of(request)
    try:
        code = night.rotate_code()
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("players")
    night.events.publish("room")
    return done(request, f"The new room code is {code}: the old one no longer lets anyone "
                         "join. Everyone already in stays in.", code=code)
