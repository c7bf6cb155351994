"""How the night answers: pages with their CSRF cookie, the answer to a POST (JSON for the
page's script, else a redirect back), refusals, and the error pages."""

from __future__ import annotations

import secrets
import sqlite3
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response

from ...files.database import fault
from .state import CSRF_COOKIE, night_of

__all__ = ["page", "done", "refused", "write_failed", "wants_json", "http_error",
           "server_error", "qr_svg"]


def wants_json(request: Request) -> bool:
    return "application/json" in request.headers.get("accept", "")


def csrf_token(request: Request) -> tuple[str, bool]:
    """The page's CSRF token, and whether it is new (and so must be set as the cookie)."""
    token = request.cookies.get(CSRF_COOKIE, "")
    if len(token) >= 32:
        return token, False
    return secrets.token_urlsafe(32), True


def page(request: Request, name: str, context: dict[str, Any], status: int = 200) -> Response:
    token, fresh = csrf_token(request)
    context.update(csrf=token, request=request)
    response = night_of(request).templates.TemplateResponse(request, name, context,
                                                            status_code=status)
    response.headers["Cache-Control"] = "no-store"
    if fresh:
        response.set_cookie(CSRF_COOKIE, token, httponly=True, samesite="strict")
    return response


def done(request: Request, message: str, status: int = 200, **extra: Any) -> Response:
    """The answer to a POST: JSON for the page's script, else back to the page."""
    if wants_json(request):
        return JSONResponse({"ok": status < 400, "message": message, **extra}, status)
    if status >= 400:
        return page(request, "message.html", {"title": "Not done", "message": message},
                    status)
    back = request.headers.get("referer") or "/"
    path = urlsplit(back).path or "/"
    return RedirectResponse(path, 303)


def refused(request: Request, err: Exception, status: int = 400) -> Response:
    return done(request, str(err)[:1].upper() + str(err)[1:], status)


def write_failed(request: Request, err: sqlite3.Error) -> Response:
    # Said to a phone: why, in words, without the host's folders.
    why = {"busy": "another program on the host's computer is using it",
           "full": "the host's disk is full", "read_only": "it is read-only",
           "io": "the disk would not read or write it"}.get(fault(err) or "", str(err))
    return done(request, f"The night's file could not be written ({why}): nothing was "
                         "changed. Try again in a moment.", 503)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    accept = request.headers.get("accept", "")
    if ("application/json" in accept or request.method == "POST") and "text/html" not in accept:
        return JSONResponse({"ok": False, "message": exc.detail}, exc.status_code)
    return page(request, "message.html", {"title": "Not here", "message": exc.detail},
                exc.status_code)


async def server_error(request: Request, exc: Exception) -> Response:
    return PlainTextResponse("Something went wrong on the game-night server; nothing was "
                             "changed. Reload the page.", 500)


@lru_cache(maxsize=4)
def qr_svg(url: str) -> str:
    """The join link as an inline SVG QR code (dark on white, no external request). Made once
    per link: the projector redraws on every batch of answers, and a code took 30 ms."""
    import segno

    return str(segno.make(url, error="m").svg_inline(scale=6, border=2, omitsize=True))
