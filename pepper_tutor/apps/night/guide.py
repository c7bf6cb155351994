"""Game night's guide on the projector: after a hand at the night's table, the host opens
its Game Guide in large print on the projector's screen and steps through it with the room
(the arrow keys, or a clicker that sends them).

``/guide`` is the newest hand played at the table, ``/guide/N`` hand N of the current match:
the hand's ``pepper-hand/1`` record, kept on the sheet, through the same guide as
everywhere else. The night's policy runs no inline script, so the page loads the viewer from
``/guide/viewer.js`` and ``/guide/viewer.css``; its steps are data in the page.
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from ...records.hand_record import parse_record
from ...render.guide import build_guide
from ...render.guide_html import guide_page, viewer_asset
from .auth import need_host
from .state import night_of

__all__ = ["guide_latest", "guide_hand", "guide_asset"]


def guide_latest(request: Request) -> Response:
    """The newest hand played at the table: its guide, at ``/guide/N``."""
    need_host(request)
    played = night_of(request).store.played_records()
    if not played:
        raise HTTPException(404, "No hand of this match was played at the night's table yet: "
                                 "a guide needs every card, which only the table keeps.")
    return RedirectResponse(f"/guide/{max(played)}", 303)


def guide_hand(request: Request) -> Response:
    """Hand N of the current match, as a guide in large print for the projector."""
    need_host(request)
    number = request.path_params["number"]
    text = night_of(request).store.played_records().get(number)
    if text is None:
        raise HTTPException(404, f"Hand {number} of this match was not played at the "
                                 "night's table, so its cards were not kept: no guide.")
    record = parse_record(text, f"hand {number}")
    record.meta = {**record.meta, "event": f"Game night, hand {number}"}  # the room's title
    guide = build_guide(record)
    return HTMLResponse(guide_page(guide, big=True, assets="/guide/"))


def guide_asset(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in ("viewer.js", "viewer.css"):
        raise HTTPException(404, "No such file.")
    kind = "text/javascript" if name.endswith(".js") else "text/css"
    return Response(viewer_asset(name), media_type=f"{kind}; charset=utf-8")
