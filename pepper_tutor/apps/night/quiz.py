"""The room's quiz: the host puts a question (a drill or a puzzle) on the screen and closes it;
phones answer."""

from __future__ import annotations

import sqlite3

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ...engine.rules import RuleSetError
from .auth import is_host, need_host, player_of
from .middleware import form_id, form_int, form_of
from .responses import done, refused, write_failed
from .state import night_of
from .store import MORE_TIME, NightError

__all__ = ["quiz_ask", "quiz_close", "quiz_answer", "quiz_more_time", "quiz_untimed"]


def quiz_ask(request: Request) -> Response:
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    seconds = form_int(form, "seconds", 0, 600, "The timer (in seconds, 0 for none)",
                       default=0)
    theme = form.get("theme", "").strip()
    try:
        q = night.store.ask(form.get("kind", ""), form.get("level", "hard") != "easy",
                            form.get("preset", "standard"), seconds or None,
                            theme=None if theme in ("", "any") else theme)
    except (NightError, RuleSetError) as err:
        return refused(request, err)
    except sqlite3.Error as err:
        return write_failed(request, err)
    # Dealt and drawn here, in the worker thread, before any phone hears of it: the phones'
    # question part is drawn on the event loop (see .parts).
    night.on_screen.get(q)
    night.events.publish("quiz")
    return done(request, f"Question {q.id} is on the screen.")


def quiz_close(request: Request) -> Response:
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    asked = form_id(form, "question", "question", default=0) or None
    q = night.store.question()
    if asked is not None and (q is None or asked != q.id):
        # A Close pressed on a screen that still showed an older question: that one was
        # closed when the next was asked, and the question now on the screen stays open.
        now = "" if q is None or not q.is_open else f"; question {q.id} is on the screen, open"
        return done(request, f"Question {asked} was closed already{now}.", 409)
    if q is None or not q.is_open:
        return done(request, "No question is open.", 409)
    try:
        closed = night.store.close_question(q.id)
    except sqlite3.Error as err:
        return write_failed(request, err)
    if not closed:  # its timer ran out a moment ago
        return done(request, f"Question {q.id} was closed already (its time ran out): the "
                             "answers are on the screen.", 409)
    night.events.publish("quiz")
    return done(request, f"Question {q.id} is closed: the answers are on the screen.")


def quiz_answer(request: Request) -> Response:
    form = form_of(request)
    player = player_of(request)
    if player is None:
        raise HTTPException(403, "Only players answer the quiz (join with the room code).")
    night = night_of(request)
    qid = form_id(form, "question", "question")
    raw = form.get("answer", "")
    if len(raw) > 200:
        return done(request, "That answer is too long.", 400)
    try:
        night.store.answer(player, qid, raw)
    except NightError as err:
        status = 409 if "closed" in str(err) or "already" in str(err) else 400
        return refused(request, err, status)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("answers")
    return done(request, "Your answer is in. Watch the big screen!")


def quiz_more_time(request: Request) -> Response:
    """More time on the open question, asked by a player or by the host (for a player): the
    whole room gets it, and the results say who asked."""
    form = form_of(request)
    player = player_of(request)
    if player is None and not is_host(request):
        raise HTTPException(403, "Only players and the host ask for more time.")
    night = night_of(request)
    qid = form_id(form, "question", "question")
    try:
        night.store.more_time(qid, player.id if player is not None else None)
    except NightError as err:
        return refused(request, err, 409)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("quiz")
    return done(request, f"{MORE_TIME} seconds more, for everyone.")


def quiz_untimed(request: Request) -> Response:
    """A player's own setting (or the host's for a player): no time limit on questions. A
    timed question then waits for their answer, or for the host to close it."""
    form = form_of(request)
    on = form.get("on") == "1"
    night = night_of(request)
    player = player_of(request)
    if is_host(request) and form.get("player"):
        who = form_id(form, "player", "player")
        named = next((p for p in night.store.players() if p.id == who), None)
        if named is None:
            raise HTTPException(404, "No such player.")
        name = named.name
    elif player is not None:
        who, name = player.id, "you"
    else:
        raise HTTPException(403, "Only players and the host change a player's time limit.")
    try:
        night.store.set_untimed(who, on)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("quiz")
    night.events.publish("players")
    if on:
        return done(request, f"No time limit for {name}: a timed question waits for "
                             f"{'your' if name == 'you' else 'their'} answer (the host can "
                             "still close it).")
    return done(request, f"Questions are timed for {name} again, as for everyone.")
