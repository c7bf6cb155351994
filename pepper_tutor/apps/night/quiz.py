"""The room's quiz: the host puts a question on the screen and closes it; phones answer."""

from __future__ import annotations

import sqlite3

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ...engine.rules import RuleSetError
from .auth import need_host, player_of
from .middleware import form_of
from .responses import done, refused, write_failed
from .state import night_of
from .store import NightError

__all__ = ["quiz_ask", "quiz_close", "quiz_answer"]


def quiz_ask(request: Request) -> Response:
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    try:
        seconds = int(form.get("seconds") or 0)
        if seconds < 0 or seconds > 600:
            raise ValueError
    except ValueError:
        return done(request, "The timer is a number of seconds (0 for none).", 400)
    try:
        q = night.store.ask(form.get("kind", ""), form.get("level", "hard") != "easy",
                            form.get("preset", "standard"), seconds or None)
    except (NightError, RuleSetError) as err:
        return refused(request, err)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("quiz")
    return done(request, f"Question {q.id} is on the screen.")


def quiz_close(request: Request) -> Response:
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    q = night.store.question()
    if q is None or not q.is_open:
        return done(request, "No question is open.", 409)
    try:
        qid = int(form.get("question", q.id))
        night.store.close_question(qid)
    except ValueError:
        return done(request, "No such question.", 400)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("quiz")
    return done(request, "Closed: the answers are on the screen.")


def quiz_answer(request: Request) -> Response:
    form = form_of(request)
    player = player_of(request)
    if player is None:
        raise HTTPException(403, "Only players answer the quiz (join with the room code).")
    night = night_of(request)
    try:
        qid = int(form.get("question", ""))
    except ValueError:
        return done(request, "Which question? Reload the page.", 400)
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
