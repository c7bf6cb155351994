"""The parts of pages that a server-sent event names, drawn again on the server, and the event
stream itself.

The sheet, the same for everyone, is drawn once per version in a worker thread and then
answered on the event loop from memory; a part that is empty for this phone (the score entry
of a player who does not keep score) is answered on the loop, and so is the phone's question
(two reads that wait for no writer, the question already dealt and drawn when it was asked:
a fraction of a millisecond, where a hop to a worker thread and back cost 100 ms or more on a
busy machine with 200 phones asking at once). Every other part is drawn in a worker thread.
An event names a part to every open phone at once: 200 phones asking for the sheet after each
hand were 400 requests in the worker threads, and a phone's answer waited in line behind
them."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse

from ...analysis.players import LEVELS
from ...render.steps_html import feedback_html
from .auth import is_host, need_host, player_of
from .events import PARTS
from .puzzle_round import PuzzleStep
from .responses import page, qr_svg
from .seats import table_view
from .state import Night, night_of
from .store import Player, Question
from .tournament import host_part as tournament_host
from .tournament import phone_part as tournament_phone
from .tournament import projector_part as tournament_projector
from .views import match_rows, projector_cells, results, sheet_view, trump_line

__all__ = ["part", "stream"]

NO_STORE = {"Cache-Control": "no-store"}


def sheet_context(night: Night) -> dict[str, Any]:
    sheet, version = night.store.sheet()
    return {"sheet": sheet_view(sheet, version)}


def quiz_context(night: Night, player: Player | None) -> dict[str, Any]:
    store = night.store
    q = store.question()
    ctx: dict[str, Any] = {"q": q}
    if q is None:
        return ctx
    step, situation = night.on_screen.get(q)
    ctx.update(step=step, remaining=(max(0, int(q.closes - time.time()))
                                     if q.closes and q.is_open else None))
    if player is None:
        # The room's count and results are the host's and the projector's: 200 phones
        # reading every answer and the leaderboard on each question made a question's
        # arrival cost the square of the room.
        answers = store.answers(q.id)
        ctx.update(answered=len(answers), players=len(store.players()),
                   time_asked=store.time_asked(q.id),
                   waiting=store.waiting_for(q.id) if q.is_open and q.closes else [])
        if not q.is_open:
            ctx["results"] = results(q, step, answers)
            ctx["board"] = store.leaderboard()[:8]
    else:
        mine = store.answer_of(player.id, q.id)
        ctx["mine"] = mine
        ctx["untimed"] = player.id in store.untimed()
        if mine is not None and not q.is_open:
            ctx["feedback"] = feedback_html(step.judge(mine["answer"]))
        ctx["situation"] = situation
        ctx["options"] = step.options()
    return ctx


# Seconds the projector shows a closed question's answer and leaderboard before it goes back
# to the card table (with no table open the results stay until the next question).
RESULTS_SHOWN = 25


def results_left(q: Question | None) -> int:
    """Seconds the closed question's results are still to be shown over the table (0: the
    table is back)."""
    if q is None or q.closed is None:
        return 0
    return max(0, math.ceil(q.closed + RESULTS_SHOWN - time.time()))


def _on_loop(request: Request, night: Night, ctx: dict[str, Any], name: str) -> Response | None:
    """The part drawn on the event loop, if it is one of the quick ones."""
    if name == "entry" and not _can_enter(ctx):
        return HTMLResponse("", headers=NO_STORE)
    if name == "quiz-phone":
        return _quiz_phone(request, night, ctx)
    return None


async def _sheet_once(night: Night, ctx: dict[str, Any]) -> Response:
    def draw() -> str:
        ctx.update(sheet_context(night))
        html = night.templates.get_template("_sheet.html").render(ctx)
        night.drawn_sheet.put(ctx["sheet"]["version"], html)
        return html

    async def drawn() -> str:
        return await run_in_threadpool(draw)

    html = await night.drawn_sheet.draw_once(night.store.sheet_version(), drawn)
    return HTMLResponse(html, headers=NO_STORE)


def _can_enter(ctx: dict[str, Any]) -> bool:
    player = ctx["player"]
    return bool(ctx["is_host"] or (player is not None and player.scorekeeper))


def _entry(request: Request, night: Night, ctx: dict[str, Any]) -> Response:
    ctx["can_enter"] = _can_enter(ctx)
    if not ctx["can_enter"]:
        return HTMLResponse("", headers=NO_STORE)
    ctx.update(sheet_context(night))
    return page(request, "_entry.html", ctx)


def _quiz_phone(request: Request, night: Night, ctx: dict[str, Any]) -> Response:
    if ctx["player"] is None:
        raise HTTPException(404, "The phone's quiz is for players.")
    ctx.update(quiz_context(night, ctx["player"]))
    return page(request, "_quiz-phone.html", ctx)


def _host_part(request: Request, night: Night, ctx: dict[str, Any]) -> Response:
    """The projector, the host's quiz controls and the list of players."""
    name = request.path_params["name"]
    need_host(request)
    ctx.update(quiz_context(night, None))
    ctx["all_players"] = night.store.players()
    ctx["untimed"] = night.store.untimed()
    ctx["board"] = night.store.leaderboard()
    ctx["room"] = night.room_code
    ctx["join_url"] = night.config.join_url(night.room_code)
    if name == "projector":
        # A tournament has the screen while no question (or its answer) is on it.
        if not (ctx.get("q") is not None and (ctx["q"].is_open or results_left(ctx["q"]))):
            shown = tournament_projector(request, night, ctx)
            if shown is not None:
                return shown
        ctx["qr"] = qr_svg(ctx["join_url"])
        ctx["table"] = table_view(night, None)
        ctx["showing_results"] = results_left(ctx.get("q"))
        # the tournament comes back when the answer has been shown, as the table does
        ctx["then_tournament"] = night.store.tournament() is not None
        if ctx.get("step") is not None:
            first, span, rest = projector_cells(ctx["step"])
            ctx.update(first=first, span=span, rest=rest, trump_line=trump_line(ctx["step"]),
                       facts=(ctx["step"].facts() if isinstance(ctx["step"], PuzzleStep)
                              else []))
    return page(request, f"_{name}.html", ctx)


def _room(request: Request, night: Night, ctx: dict[str, Any]) -> Response:
    """The room code and the join link with its QR code (they change when rotated)."""
    need_host(request)
    ctx["room"] = night.room_code
    ctx["join_url"] = night.config.join_url(night.room_code)
    ctx["qr"] = qr_svg(ctx["join_url"])
    return page(request, "_room.html", ctx)


def _room_code(request: Request, night: Night, ctx: dict[str, Any]) -> Response:
    need_host(request)
    return HTMLResponse(f'<b class="room-code">{night.room_code}</b>', headers=NO_STORE)


def _matches(request: Request, night: Night, ctx: dict[str, Any]) -> Response:
    """Every match of the night, each with its downloads; the newest can be taken back."""
    need_host(request)
    ctx["matches"] = match_rows(night.store)
    ctx["version"] = night.store.sheet_version()
    return page(request, "_matches.html", ctx)


def _table_phone(request: Request, night: Night, ctx: dict[str, Any]) -> Response:
    player = ctx["player"]
    if player is None:
        raise HTTPException(404, "The phone's table is for players.")
    if night.table is not None:
        night.table.seen(player.id)  # the phone is awake: its seat stays its own
    ctx["table"] = table_view(night, player.id)
    return page(request, "_table-phone.html", ctx)


def _table_host(request: Request, night: Night, ctx: dict[str, Any]) -> Response:
    need_host(request)
    ctx["table"] = table_view(night, None)
    ctx["levels"] = LEVELS
    return page(request, "_table-host.html", ctx)


def _board(request: Request, night: Night, ctx: dict[str, Any]) -> Response:
    ctx["board"] = night.store.leaderboard()
    return page(request, "_board.html", ctx)


DRAWN: dict[str, Callable[[Request, Night, dict[str, Any]], Response]] = {
    "entry": _entry, "quiz-phone": _quiz_phone, "projector": _host_part,
    "quiz-host": _host_part, "players": _host_part, "board": _board, "room": _room,
    "room-code": _room_code, "matches": _matches, "table-phone": _table_phone,
    "table-host": _table_host, "tournament-host": tournament_host,
    "tournament-phone": tournament_phone}


async def part(request: Request) -> Response:
    name = request.path_params["name"]
    host_ok = is_host(request)
    player = None if host_ok else player_of(request)
    if not host_ok and player is None:
        raise HTTPException(403, "Join the night first.")
    night = night_of(request)
    ctx: dict[str, Any] = {"player": player, "is_host": host_ok}
    if name == "sheet":
        return await _sheet_once(night, ctx)
    draw = DRAWN.get(name)
    if draw is None:
        raise HTTPException(404, "No such part of the page.")
    fast = _on_loop(request, night, ctx, name)
    return fast if fast is not None else await run_in_threadpool(draw, request, night, ctx)


async def stream(request: Request) -> Response:
    """The page's server-sent events (``?parts=`` names the parts it shows): it awaits the
    broadcaster and touches no file."""
    if not is_host(request) and player_of(request) is None:
        raise HTTPException(403, "Join the night first.")
    asked = request.query_params.get("parts")
    wanted = (frozenset(asked.split(",")) & frozenset(PARTS) if asked is not None
              else frozenset(PARTS))
    return StreamingResponse(night_of(request).events.stream(wanted),
                             media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
