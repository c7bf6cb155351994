"""The parts of pages that a server-sent event names, drawn again on the server, and the event
stream itself."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

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
from .store import Player
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
        ctx.update(answered=len(answers), players=len(store.players()))
        if not q.is_open:
            ctx["results"] = results(q, step, answers)
            ctx["board"] = store.leaderboard()[:8]
    else:
        mine = store.answer_of(player.id, q.id)
        ctx["mine"] = mine
        if mine is not None and not q.is_open:
            ctx["feedback"] = feedback_html(step.judge(mine["answer"]))
        ctx["situation"] = situation
        ctx["options"] = step.options()
    return ctx


def _sheet(request: Request, night: Night, ctx: dict[str, Any]) -> Response:
    # The same for everyone: drawn once per version, not once per phone.
    html = night.drawn_sheet.get(night.store.sheet_version())
    if html is None:
        ctx.update(sheet_context(night))
        html = night.templates.get_template("_sheet.html").render(ctx)
        night.drawn_sheet.put(ctx["sheet"]["version"], html)
    return HTMLResponse(html, headers=NO_STORE)


def _entry(request: Request, night: Night, ctx: dict[str, Any]) -> Response:
    player = ctx["player"]
    ctx["can_enter"] = ctx["is_host"] or (player is not None and player.scorekeeper)
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
    ctx["board"] = night.store.leaderboard()
    ctx["room"] = night.room_code
    ctx["join_url"] = night.config.join_url(night.room_code)
    if name == "projector":
        ctx["qr"] = qr_svg(ctx["join_url"])
        ctx["table"] = table_view(night, None)
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
    "sheet": _sheet, "entry": _entry, "quiz-phone": _quiz_phone, "projector": _host_part,
    "quiz-host": _host_part, "players": _host_part, "board": _board, "room": _room,
    "room-code": _room_code, "matches": _matches, "table-phone": _table_phone,
    "table-host": _table_host}


def part(request: Request) -> Response:
    name = request.path_params["name"]
    host_ok = is_host(request)
    player = None if host_ok else player_of(request)
    if not host_ok and player is None:
        raise HTTPException(403, "Join the night first.")
    draw = DRAWN.get(name)
    if draw is None:
        raise HTTPException(404, "No such part of the page.")
    return draw(request, night_of(request), {"player": player, "is_host": host_ok})


async def stream(request: Request) -> Response:
    """The page's server-sent events (``?parts=`` names the parts it shows). The only
    coroutine endpoint: it awaits the broadcaster and touches no file."""
    if not is_host(request) and player_of(request) is None:
        raise HTTPException(403, "Join the night first.")
    asked = request.query_params.get("parts")
    wanted = (frozenset(asked.split(",")) & frozenset(PARTS) if asked is not None
              else frozenset(PARTS))
    return StreamingResponse(night_of(request).events.stream(wanted),
                             media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
