"""The game-night web app: a Starlette app over one night's SQLite file.

Who may do what:

- the **host** holds a long random token (in the host's link; kept in a cookie after the first
  visit) and runs the quiz, the players and the sheet; the projector is a host page;
- a **player** joins with the room code and a name, and answers the quiz from a phone; a host
  may make a player **scorekeeper**, who may also enter and take back hands;
- nobody else gets past the join page.

Every state-changing request is a POST carrying the page's CSRF token (double-submit cookie,
plus a same-origin check); bodies are capped; bad input gets a 4xx with a message, never a
traceback. Pages are rendered on the server with autoescaping; ``static/night.js`` (ours, no
CDN) posts forms and refreshes the parts of a page that a server-sent event names.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import secrets
import sqlite3
import time
import zipfile
from collections import defaultdict, deque
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ...engine.rules import PRESETS, RuleSetError
from ...engine.seats import Seat
from ...records.annotate import annotate
from ...records.hand_record import parse_record
from ...records.scoresheet import EntryError, ScoreSheet, SheetError
from ...records.yamlpos import LoadError
from ...render.annotation import to_html as annotation_html
from ...render.steps_html import feedback_html, step_html
from .events import PARTS, Broadcaster
from .store import NIGHT_KINDS, NightError, NightStore, Player, StaleSheet
from .views import (
    TRUMP_CHOICES,
    answer_label,
    projector_cells,
    results,
    rules_from_form,
    ruling_html,
    search_html,
    sheet_view,
    trump_line,
)

__all__ = ["create_app", "NightConfig", "MAX_BODY"]

HERE = Path(__file__).parent
MAX_BODY = 256 * 1024  # a pasted sheet or hand record fits; anything bigger is refused
HOST_COOKIE, PLAYER_COOKIE, CSRF_COOKIE = "pt_host", "pt_player", "pt_csrf"
TIMERS = (0, 15, 20, 30, 45, 60)


class NightConfig:
    """What the pages need to know about where they are served."""

    def __init__(self, join_base: str, name: str, join_limit: int = 30,
                 wrong_code_limit: int = 8):
        self.join_base = join_base.rstrip("/")
        self.name = name
        self.join_limit = join_limit  # joins per address per minute
        self.wrong_code_limit = wrong_code_limit  # wrong room codes per address per minute

    def join_url(self, code: str) -> str:
        return f"{self.join_base}/join?code={code}"


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


class RateLimit:
    """At most ``n`` events per key in a sliding minute."""

    def __init__(self) -> None:
        self.seen: dict[str, deque[float]] = defaultdict(deque)

    def allow(self, key: str, n: int) -> bool:
        now = time.monotonic()
        times = self.seen[key]
        while times and times[0] < now - 60:
            times.popleft()
        if len(times) >= n:
            return False
        times.append(now)
        return True


def create_app(store: NightStore, config: NightConfig) -> Starlette:
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.globals.update(quiz_kinds=NIGHT_KINDS, presets=PRESETS, timers=TIMERS,
                                 trump_choices=TRUMP_CHOICES, night=config,
                                 answer_label=answer_label, step_html=step_html)
    events = Broadcaster()
    limits = RateLimit()
    # The question on the screen, judged and drawn once rather than once per phone; and the
    # sheet, drawn once per version.
    current: dict[str, Any] = {}
    sheet_cache: dict[int, str] = {}

    def step_of(q: Any) -> Any:
        if current.get("id") != q.id:
            step = q.step()
            current.clear()
            current.update(id=q.id, step=step, situation=step_html(step, 48))
        return current["step"]

    # ---- who is asking ----------------------------------------------------------------

    def is_host(request: Request) -> bool:
        token = request.cookies.get(HOST_COOKIE, "")
        return bool(token) and secrets.compare_digest(token, store.host_token)

    def player_of(request: Request) -> Player | None:
        token = request.cookies.get(PLAYER_COOKIE, "")
        return store.player_by_token(token) if token else None

    def need_host(request: Request) -> None:
        if not is_host(request):
            raise HTTPException(403, "Only the host can do that (open the host's link).")

    def need_member(request: Request) -> Player | None:
        if is_host(request):
            return None
        player = player_of(request)
        if player is None:
            raise HTTPException(403, "Join the night first: open the join page and type the "
                                     "room code.")
        return player

    def need_scorer(request: Request) -> str:
        """Who is entering: the host, or a player the host made scorekeeper."""
        if is_host(request):
            return "host"
        player = player_of(request)
        if player is None or not player.scorekeeper:
            raise HTTPException(403, "Only the host or a scorekeeper can change the sheet.")
        return player.name

    def csrf_token(request: Request) -> tuple[str, bool]:
        token = request.cookies.get(CSRF_COOKIE, "")
        if len(token) >= 32:
            return token, False
        return secrets.token_urlsafe(32), True

    def page(request: Request, name: str, context: dict[str, Any], status: int = 200) -> Response:
        token, fresh = csrf_token(request)
        context.update(csrf=token, request=request)
        response = templates.TemplateResponse(request, name, context, status_code=status)
        response.headers["Cache-Control"] = "no-store"
        if fresh:
            response.set_cookie(CSRF_COOKIE, token, httponly=True, samesite="strict")
        return response

    async def form_of(request: Request) -> dict[str, str]:
        """The posted form, after the CSRF and same-origin checks."""
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

    def done(request: Request, message: str, status: int = 200, **extra: Any) -> Response:
        """The answer to a POST: JSON for the page's script, else back to the page."""
        if "application/json" in request.headers.get("accept", ""):
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
        return done(request, "The night's file could not be written (is the disk full?): "
                             f"nothing was changed. ({err})", 503)

    # ---- pages --------------------------------------------------------------------------

    async def home(request: Request) -> Response:
        if is_host(request):
            return RedirectResponse("/host", 303)
        if player_of(request) is not None:
            return RedirectResponse("/play", 303)
        return page(request, "join.html", {"code": request.query_params.get("code", "")[:8],
                                           "name": "", "error": ""})

    async def host_link(request: Request) -> Response:
        token = request.path_params["token"]
        if not secrets.compare_digest(token, store.host_token):
            raise HTTPException(403, "That is not this night's host link.")
        response = RedirectResponse("/host", 303)
        response.set_cookie(HOST_COOKIE, token, httponly=True, samesite="strict")
        return response

    async def host(request: Request) -> Response:
        need_host(request)
        return page(request, "host.html", {"room": store.room_code,
                                           "join_url": config.join_url(store.room_code),
                                           "qr": qr_svg(config.join_url(store.room_code))})

    async def projector(request: Request) -> Response:
        need_host(request)
        return page(request, "projector.html", {})

    async def play(request: Request) -> Response:
        player = player_of(request)
        if player is None:
            return RedirectResponse("/", 303)
        return page(request, "play.html", {"player": player})

    async def join(request: Request) -> Response:
        form = await form_of(request)
        address = request.client.host if request.client else "?"
        code = form.get("code", "").strip().upper()
        name = form.get("name", "")

        def again(error: str, status: int) -> Response:
            if "application/json" in request.headers.get("accept", ""):
                return JSONResponse({"ok": False, "message": error}, status)
            return page(request, "join.html", {"code": code[:8], "name": name[:40],
                                               "error": error}, status)

        if not limits.allow(f"join:{address}", config.join_limit):
            return again("Too many joins from this device: wait a minute and try again.", 429)
        if not secrets.compare_digest(code.encode(), store.room_code.encode()):
            if not limits.allow(f"code:{address}", config.wrong_code_limit):
                return again("Too many wrong room codes: wait a minute and try again.", 429)
            return again("That is not tonight's room code: it is the five letters and digits "
                         "on the big screen.", 403)
        try:
            player = store.join(name)
        except NightError as err:
            return again(str(err)[:1].upper() + str(err)[1:] + ".", 400)
        except sqlite3.Error as err:
            return write_failed(request, err)
        events.publish("players")
        if "application/json" in request.headers.get("accept", ""):
            response: Response = JSONResponse({"ok": True, "message": f"Welcome, {player.name}",
                                               "player": player.id})
        else:
            response = RedirectResponse("/play", 303)
        response.set_cookie(PLAYER_COOKIE, player.token, httponly=True, samesite="strict",
                            max_age=7 * 24 * 3600)
        return response

    # ---- parts of pages (refreshed live) -------------------------------------------------

    def sheet_context() -> dict[str, Any]:
        sheet, version = store.sheet()
        return {"sheet": sheet_view(sheet, version)}

    def quiz_context(request: Request, player: Player | None) -> dict[str, Any]:
        q = store.question()
        ctx: dict[str, Any] = {"q": q}
        if q is None:
            return ctx
        step = step_of(q)
        answers = store.answers(q.id)
        ctx.update(step=step, answered=len(answers), players=len(store.players()),
                   remaining=(max(0, int(q.closes - time.time())) if q.closes and q.is_open
                              else None))
        if not q.is_open:
            ctx["results"] = results(q, step, answers)
            ctx["board"] = store.leaderboard()[:8]
        if player is not None:
            mine = store.answer_of(player.id, q.id)
            ctx["mine"] = mine
            if mine is not None and not q.is_open:
                ctx["feedback"] = feedback_html(step.judge(mine["answer"]))
            ctx["situation"] = current["situation"]
            ctx["options"] = step.options()
        return ctx

    async def part(request: Request) -> Response:
        name = request.path_params["name"]
        host_ok = is_host(request)
        player = None if host_ok else player_of(request)
        if not host_ok and player is None:
            raise HTTPException(403, "Join the night first.")
        ctx: dict[str, Any] = {"player": player, "is_host": host_ok}
        if name == "sheet":
            # The same for everyone: drawn once per version, not once per phone.
            version = store.sheet_version()
            if version not in sheet_cache:
                ctx.update(sheet_context())
                sheet_cache.clear()
                sheet_cache[ctx["sheet"]["version"]] = templates.get_template(
                    "_sheet.html").render(ctx)
                version = ctx["sheet"]["version"]
            return HTMLResponse(sheet_cache[version], headers={"Cache-Control": "no-store"})
        elif name == "entry":
            ctx["can_enter"] = host_ok or (player is not None and player.scorekeeper)
            if not ctx["can_enter"]:
                return HTMLResponse("", headers={"Cache-Control": "no-store"})
            ctx.update(sheet_context())
        elif name == "quiz-phone":
            if player is None:
                raise HTTPException(404, "The phone's quiz is for players.")
            ctx.update(quiz_context(request, player))
        elif name in ("projector", "quiz-host", "players"):
            need_host(request)
            ctx.update(quiz_context(request, None))
            ctx["all_players"] = store.players()
            ctx["board"] = store.leaderboard()
            ctx["room"] = store.room_code
            ctx["join_url"] = config.join_url(store.room_code)
            if name == "projector":
                ctx["qr"] = qr_svg(config.join_url(store.room_code))
                if ctx.get("step") is not None:
                    first, span, rest = projector_cells(ctx["step"])
                    ctx.update(first=first, span=span, rest=rest,
                               trump_line=trump_line(ctx["step"]))
        elif name == "board":
            ctx["board"] = store.leaderboard()
        else:
            raise HTTPException(404, "No such part of the page.")
        return page(request, f"_{name}.html", ctx)

    async def stream(request: Request) -> Response:
        if not is_host(request) and player_of(request) is None:
            raise HTTPException(403, "Join the night first.")
        asked = request.query_params.get("parts")
        wanted = (frozenset(asked.split(",")) & frozenset(PARTS) if asked is not None
                  else frozenset(PARTS))
        return StreamingResponse(events.stream(wanted), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store",
                                          "X-Accel-Buffering": "no"})

    # ---- the quiz ---------------------------------------------------------------------

    async def quiz_ask(request: Request) -> Response:
        form = await form_of(request)
        need_host(request)
        try:
            seconds = int(form.get("seconds") or 0)
            if seconds < 0 or seconds > 600:
                raise ValueError
        except ValueError:
            return done(request, "The timer is a number of seconds (0 for none).", 400)
        try:
            q = store.ask(form.get("kind", ""), form.get("level", "hard") != "easy",
                          form.get("preset", "standard"), seconds or None)
        except (NightError, RuleSetError) as err:
            return refused(request, err)
        except sqlite3.Error as err:
            return write_failed(request, err)
        events.publish("quiz")
        return done(request, f"Question {q.id} is on the screen.")

    async def quiz_close(request: Request) -> Response:
        form = await form_of(request)
        need_host(request)
        q = store.question()
        if q is None or not q.is_open:
            return done(request, "No question is open.", 409)
        try:
            qid = int(form.get("question", q.id))
            store.close_question(qid)
        except ValueError:
            return done(request, "No such question.", 400)
        except sqlite3.Error as err:
            return write_failed(request, err)
        events.publish("quiz")
        return done(request, "Closed: the answers are on the screen.")

    async def quiz_answer(request: Request) -> Response:
        form = await form_of(request)
        player = player_of(request)
        if player is None:
            raise HTTPException(403, "Only players answer the quiz (join with the room code).")
        try:
            qid = int(form.get("question", ""))
        except ValueError:
            return done(request, "Which question? Reload the page.", 400)
        raw = form.get("answer", "")
        if len(raw) > 200:
            return done(request, "That answer is too long.", 400)
        try:
            store.answer(player, qid, raw)
        except NightError as err:
            status = 409 if "closed" in str(err) or "already" in str(err) else 400
            return refused(request, err, status)
        except sqlite3.Error as err:
            return write_failed(request, err)
        events.publish("answers")
        return done(request, "Your answer is in. Watch the big screen!")

    # ---- the sheet ----------------------------------------------------------------------

    def version_of(form: dict[str, str]) -> int:
        try:
            return int(form.get("version", ""))
        except ValueError:
            raise HTTPException(400, "The form has no sheet version: reload the page.") from None

    def stale(request: Request, err: StaleSheet) -> Response:
        sheet, version = store.sheet()
        # The form keeps what was typed, so the page's script redraws only its heading.
        view = sheet_view(sheet, version)
        return done(request, str(err)[:1].upper() + str(err)[1:] + ".", 409, version=version,
                    next_hand=None if view["winner"] else len(view["rows"]) + 1,
                    next_dealer=view["next_dealer"])

    async def sheet_add(request: Request) -> Response:
        form = await form_of(request)
        by = need_scorer(request)
        seen = version_of(form)
        try:
            tricks: dict[str, int] | None = None
            bidder_tricks: int | None = None
            raw = form.get("tricks", "").strip()
            if raw:
                bidder_tricks = int(raw)
            per_side = {k[7:]: v.strip() for k, v in form.items()
                        if k.startswith("tricks_") and v.strip()}
            if per_side:
                tricks = {side: int(v) for side, v in per_side.items()}
        except ValueError:
            return done(request, "Not added: tricks are whole numbers from 0 to 6.", 400)
        try:
            hand = store.add_hand(seen, by, form.get("bidder") or None, form.get("bid") or None,
                                  form.get("trump") or None, form.get("mode") or None,
                                  form.get("defense") or None, bidder_tricks, tricks)
        except StaleSheet as err:
            return stale(request, err)
        except EntryError as err:
            return done(request, f"Not added: {err}.", 400)
        except sqlite3.Error as err:
            return write_failed(request, err)
        events.publish("sheet")
        pts = hand.score.points if hand.score else {}
        what = ", ".join(f"{s} {p:+d}" for s, p in pts.items()) or "thrown in"
        return done(request, f"Hand {hand.number} added: {what}.", reset=True)

    async def sheet_undo(request: Request) -> Response:
        form = await form_of(request)
        need_scorer(request)
        try:
            number = store.undo_hand(version_of(form))
        except StaleSheet as err:
            return stale(request, err)
        except EntryError as err:
            return refused(request, err)
        except sqlite3.Error as err:
            return write_failed(request, err)
        events.publish("sheet")
        return done(request, f"Hand {number} was taken back.")

    async def sheet_new(request: Request) -> Response:
        form = await form_of(request)
        need_host(request)
        try:
            rules = rules_from_form(form)
            first = Seat.parse(form.get("first_dealer") or "W")
            if first >= rules.players:
                raise RuleSetError(f"{first.word} does not sit at a {rules.players}-player table")
            store.new_match(version_of(form), rules, first, form.get("event", "")[:80])
        except StaleSheet as err:
            return stale(request, err)
        except (RuleSetError, ValueError) as err:
            return refused(request, err)
        except sqlite3.Error as err:
            return write_failed(request, err)
        events.publish("sheet")
        return done(request, f"New match: {rules.summary().splitlines()[0]}.", reset=True)

    async def sheet_import(request: Request) -> Response:
        form = await form_of(request)
        need_host(request)
        text = form.get("sheet_json", "")
        try:
            data = json.loads(text)
            if not isinstance(data, dict):
                raise ValueError("not a score sheet (a JSON object was expected)")
            sheet = ScoreSheet.from_json(data, Path(form.get("filename") or "imported sheet"))
            store.new_match(version_of(form), sheet.rules, sheet.first_dealer, sheet.event,
                            sheet.entries)
        except StaleSheet as err:
            return stale(request, err)
        except (ValueError, SheetError, EntryError, RuleSetError) as err:
            return done(request, f"Not imported: {err}", 400)
        except sqlite3.Error as err:
            return write_failed(request, err)
        events.publish("sheet")
        return done(request, f"Imported {len(sheet.entries)} hands as a new match.",
                    reset=True)

    async def export_csv(request: Request) -> Response:
        need_member(request)
        sheet, _ = store.sheet()
        return Response(sheet.to_csv(), media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition":
                                 'attachment; filename="pepper-scores.csv"'})

    async def export_records(request: Request) -> Response:
        need_member(request)
        sheet, _ = store.sheet()
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
            for i, text in enumerate(sheet.to_records(), 1):
                zf.writestr(f"hand-{i:02d}.yaml", text)
        return Response(buffer.getvalue(), media_type="application/zip",
                        headers={"Content-Disposition":
                                 'attachment; filename="pepper-hands.zip"'})

    # ---- players ----------------------------------------------------------------------

    async def set_scorekeeper(request: Request) -> Response:
        form = await form_of(request)
        need_host(request)
        try:
            player = store.set_scorekeeper(int(form.get("player", "")), form.get("on") == "1")
        except ValueError:
            return done(request, "No such player.", 404)
        except sqlite3.Error as err:
            return write_failed(request, err)
        events.publish("players")
        role = "is now a scorekeeper" if player.scorekeeper else "is no longer a scorekeeper"
        return done(request, f"{player.name} {role}.")

    # ---- rulings and the annotator (nothing is stored) --------------------------------------

    async def ruling(request: Request) -> Response:
        form = await form_of(request)
        need_member(request)
        if form.get("words") is not None and form.get("search"):
            out = search_html(form.get("words", "")[:100])
        else:
            out = ruling_html(form.get("trump", "H"), form.get("trick", "")[:80],
                              form.get("hand", "")[:80])
        return JSONResponse({"ok": True, "html": out})

    async def annotate_record(request: Request) -> Response:
        form = await form_of(request)
        need_member(request)
        try:
            record = parse_record(form.get("record", ""), "pasted record")
        except LoadError as err:
            from html import escape

            out = "".join(f'<div class="pepper-fb wrong">{escape(str(p))}</div>'
                          for p in err.problems)
            return JSONResponse({"ok": False, "html": out, "message": "The record has "
                                 "problems: see below."}, 400)
        return JSONResponse({"ok": True, "html": annotation_html(annotate(record),
                                                                 standalone=False)})

    # ---- errors -------------------------------------------------------------------------

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

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        events.bind(asyncio.get_running_loop())

        async def timers() -> None:  # close questions whose timer ran out
            while True:
                await asyncio.sleep(0.5)
                try:
                    if store.close_expired():
                        events.publish("quiz")
                except sqlite3.Error:
                    pass

        task = asyncio.create_task(timers())
        try:
            yield
        finally:
            task.cancel()
            events.close()

    routes = [
        Route("/", home),
        Route("/join", home, methods=["GET"]),
        Route("/join", join, methods=["POST"]),
        Route("/h/{token}", host_link),
        Route("/host", host),
        Route("/projector", projector),
        Route("/play", play),
        Route("/part/{name}", part),
        Route("/events", stream),
        Route("/quiz/ask", quiz_ask, methods=["POST"]),
        Route("/quiz/close", quiz_close, methods=["POST"]),
        Route("/quiz/answer", quiz_answer, methods=["POST"]),
        Route("/sheet/add", sheet_add, methods=["POST"]),
        Route("/sheet/undo", sheet_undo, methods=["POST"]),
        Route("/sheet/new", sheet_new, methods=["POST"]),
        Route("/sheet/import", sheet_import, methods=["POST"]),
        Route("/sheet.csv", export_csv),
        Route("/hands.zip", export_records),
        Route("/players/scorekeeper", set_scorekeeper, methods=["POST"]),
        Route("/ruling", ruling, methods=["POST"]),
        Route("/annotate", annotate_record, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(ServerTiming), Middleware(BodyLimit)],
                    exception_handlers={HTTPException: http_error, 500: server_error},
                    lifespan=lifespan)
    app.state.store = store
    app.state.events = events
    return app


def qr_svg(url: str) -> str:
    """The join link as an inline SVG QR code (dark on white, no external request)."""
    import segno

    return str(segno.make(url, error="m").svg_inline(scale=6, border=2, omitsize=True))

