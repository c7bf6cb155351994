"""The night's ASGI middleware: a cap on request bodies, the server's own timing, and the
checks every posted form passes before its endpoint sees it (same origin, CSRF token)."""

from __future__ import annotations

import secrets
import time
from urllib.parse import parse_qsl, urlsplit

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .state import CSRF_COOKIE

__all__ = ["BodyLimit", "ServerTiming", "CheckedForm", "form_of", "MAX_BODY"]

MAX_BODY = 256 * 1024  # a pasted sheet or hand record fits; anything bigger is refused


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes (413), whatever Content-Length says."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY):
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await PlainTextResponse("That request is too large for game night.",
                                    413)(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise HTTPException(413, "That request is too large for game night.")
            return message

        await self.app(scope, limited, send)


class ServerTiming:
    """Add ``Server-Timing: app;dur=MS`` to every response: how long the server itself took,
    apart from the network and the client (the load test reports both)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                took = (time.perf_counter() - start) * 1000
                message["headers"] = [*message.get("headers", []),
                                      (b"server-timing", f"app;dur={took:.2f}".encode())]
            await send(message)

        await self.app(scope, receive, timed)


class CheckedForm:
    """Route middleware for every POST: the same-origin check, then the form is read and its
    CSRF token (double-submit: the form's or the ``X-CSRF-Token`` header's, against the
    cookie's) checked; the endpoint finds the form in ``request.state.form`` (:func:`form_of`).

    It runs inside the app's exception handling, so a refusal is the same 4xx page or JSON
    as an endpoint's."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        request.state.form = await _checked_form(request)
        await self.app(scope, receive, send)


async def _checked_form(request: Request) -> dict[str, str]:
    origin = request.headers.get("origin")
    if origin and urlsplit(origin).netloc != request.headers.get("host"):
        raise HTTPException(403, "That form came from another site.")
    if request.headers.get("sec-fetch-site") == "cross-site":
        raise HTTPException(403, "That form came from another site.")
    kind = request.headers.get("content-type", "").split(";")[0].strip()
    if kind != "application/x-www-form-urlencoded":
        raise HTTPException(415, "Send the form as application/x-www-form-urlencoded.")
    body = await request.body()
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False,
                          max_num_fields=64)
    except (UnicodeDecodeError, ValueError):
        raise HTTPException(400, "That form could not be read.") from None
    form = dict(pairs)
    sent = form.get("csrf") or request.headers.get("x-csrf-token", "")
    cookie = request.cookies.get(CSRF_COOKIE, "")
    if not cookie or not sent or not secrets.compare_digest(sent, cookie):
        raise HTTPException(403, "This page is out of date (no valid form token): reload "
                                 "it and try again.")
    return form


def form_of(request: Request) -> dict[str, str]:
    """The posted form, as :class:`CheckedForm` read and checked it."""
    form: dict[str, str] = request.state.form
    return form
