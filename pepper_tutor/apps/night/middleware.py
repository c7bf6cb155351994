"""The night's ASGI middleware: the ``Host`` check and the page policy, a cap on request
bodies, the server's own timing, and the checks every posted form passes before its endpoint
sees it (same origin, CSRF token); and reading a number from a form."""

from __future__ import annotations

import secrets
import time
from urllib.parse import parse_qsl, urlsplit

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .state import CSRF_COOKIE

ID_MAX = 2**63 - 1  # the largest row id SQLite stores (a signed 64-bit integer)

__all__ = ["BodyLimit", "ServerTiming", "HostCheck", "CheckedForm", "form_of", "form_int",
           "form_id", "ID_MAX", "MAX_BODY", "CSP"]

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


# What a page may load and run: its own script, style sheet and server, nothing else. Inline
# styles stay allowed (the card pictures carry their own <style>); no inline script, no frame.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")


class HostCheck:
    """Serve only requests for the address the server printed (``Host`` header), and put the
    Content-Security-Policy on every answer.

    A web page elsewhere can point its own host name at 127.0.0.1 or the laptop's address
    (DNS rebinding) and then read this server as if it were its own site; it cannot make the
    browser send this server's ``Host``, so such a request is refused here."""

    def __init__(self, app: ASGIApp, allowed: str):
        self.app, self.allowed = app, allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = dict(scope["headers"]).get(b"host", b"").decode("latin-1").lower()
        if host != self.allowed:
            await PlainTextResponse(f"This game night is served at http://{self.allowed}/ "
                                    "only: open that address.", 421)(scope, receive, send)
            return

        async def with_policy(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []),
                                      (b"content-security-policy", CSP.encode()),
                                      (b"x-content-type-options", b"nosniff"),
                                      (b"referrer-policy", b"same-origin")]
            await send(message)

        await self.app(scope, receive, with_policy)


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


def form_int(form: dict[str, str], key: str, low: int, high: int, what: str,
             default: int | None = None) -> int:
    """A whole number from the form, from ``low`` to ``high``: a 400 in words otherwise (an
    id beyond what the file can hold, a negative count, a word). ``default`` for a field
    left out or empty."""
    raw = form.get(key, "").strip()
    if not raw and default is not None:
        return default
    if not raw.lstrip("-").isdigit():
        raise HTTPException(400, f"{what} is a whole number from {low:,} to {high:,}"
                                 + (f", not {raw[:20]!r}" if raw else "") + ".")
    # A 100,000-digit number is refused by its length: int() would refuse it with an error.
    if len(raw) > 20 or not low <= int(raw) <= high:
        shown = raw[:20] + ("…" if len(raw) > 20 else "")
        raise HTTPException(400, f"{what} is a whole number from {low:,} to {high:,}, not "
                                 f"{shown}.")
    return int(raw)


def form_id(form: dict[str, str], key: str, what: str, default: int | None = None) -> int:
    """A row's id from the form: anything that is not one (a word, 0, a number beyond the
    64 bits the file holds) is no such row, a 404 like an id that is not there."""
    raw = form.get(key, "").strip()
    if not raw and default is not None:
        return default
    if not raw.isdigit() or len(raw) > 19 or not 1 <= int(raw) <= ID_MAX:
        raise HTTPException(404, f"No such {what}.")
    return int(raw)


def form_of(request: Request) -> dict[str, str]:
    """The posted form, as :class:`CheckedForm` read and checked it."""
    form: dict[str, str] = request.state.form
    return form
