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

How it is built: the :data:`routes` below name endpoints in :mod:`.pages`, :mod:`.players`,
:mod:`.parts`, :mod:`.quiz`, :mod:`.sheet` and :mod:`.tools`; who is asking is settled by
authentication middleware (:mod:`.auth`), every POST's form is checked by route middleware
(:mod:`.middleware`), and what the endpoints share is one :class:`~.state.Night` on
``app.state.night``. Every endpoint that reads or writes the file is a plain function, which
Starlette runs in its worker threads: the night's file is SQLite, fsynced on every change to
the sheet, and a write must not hold up the event loop that keeps every page's event stream
open. The store is one connection behind one lock, so the threads take turns at the file. Only
the event stream and the parts answered from memory (:mod:`.parts`) stay on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio.to_thread
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from .auth import NightAuth
from .guide import guide_asset, guide_hand, guide_latest
from .middleware import MAX_BODY, BodyLimit, CheckedForm, HostCheck, ServerTiming
from .pages import home, host, host_link, play, projector
from .parts import part, stream
from .players import (
    join,
    new_rejoin_code,
    remove_player,
    rename_player,
    rotate_code,
    set_scorekeeper,
)
from .quiz import quiz_answer, quiz_ask, quiz_close, quiz_more_time, quiz_untimed
from .responses import http_error, server_error
from .seats import (
    table_back,
    table_claim,
    table_close,
    table_deal,
    table_grade,
    table_leave,
    table_open,
    table_play,
    table_say,
)
from .sheet import (
    export_csv,
    export_records,
    match_undo,
    sheet_add,
    sheet_import,
    sheet_new,
    sheet_undo,
)
from .state import HERE, Night, NightConfig
from .store import NightStore
from .tools import annotate_record, ruling
from .tournament import (
    tournament_clock,
    tournament_end,
    tournament_result,
    tournament_sheet,
    tournament_start,
    tournament_table,
    tournament_undo,
)

__all__ = ["create_app", "NightConfig", "MAX_BODY", "routes"]

TIMER_SWEEP = 0.5  # seconds between looks for a question whose timer ran out
# Worker threads for the endpoints (Starlette's default is 40). Changes take turns at the file
# anyway and a read takes a fraction of a millisecond; 40 threads woken by 200 phones at once
# only fought over one interpreter lock and the machine's cores (under load from other jobs,
# answer p95 about 1.2 times as long with 40 as with a handful).
WORKER_THREADS = 8


def post(path: str, endpoint: Callable[..., Any]) -> Route:
    """A form's route: the form is read and checked (origin, CSRF) before the endpoint runs."""
    return Route(path, endpoint, methods=["POST"], middleware=[Middleware(CheckedForm)])


routes: list[BaseRoute] = [
    Route("/", home),
    Route("/join", home, methods=["GET"]),
    post("/join", join),
    Route("/h/{token}", host_link),
    Route("/host", host),
    Route("/projector", projector),
    Route("/guide", guide_latest),
    Route("/guide/{number:int}", guide_hand),
    Route("/guide/{name:str}", guide_asset),
    Route("/play", play),
    Route("/part/{name}", part),
    Route("/events", stream),
    post("/quiz/ask", quiz_ask),
    post("/quiz/close", quiz_close),
    post("/quiz/answer", quiz_answer),
    post("/quiz/more-time", quiz_more_time),
    post("/quiz/untimed", quiz_untimed),
    post("/sheet/add", sheet_add),
    post("/sheet/undo", sheet_undo),
    post("/sheet/new", sheet_new),
    post("/sheet/undo-match", match_undo),
    post("/sheet/import", sheet_import),
    Route("/sheet.csv", export_csv),
    Route("/hands.zip", export_records),
    post("/players/scorekeeper", set_scorekeeper),
    post("/players/rename", rename_player),
    post("/players/remove", remove_player),
    post("/players/rejoin-code", new_rejoin_code),
    post("/room/rotate", rotate_code),
    post("/table/open", table_open),
    post("/table/close", table_close),
    post("/table/claim", table_claim),
    post("/table/leave", table_leave),
    post("/table/play", table_play),
    post("/table/say", table_say),
    post("/table/back", table_back),
    post("/table/deal", table_deal),
    post("/table/grade", table_grade),
    post("/ruling", ruling),
    post("/annotate", annotate_record),
    post("/tournament/start", tournament_start),
    post("/tournament/result", tournament_result),
    post("/tournament/undo", tournament_undo),
    post("/tournament/table", tournament_table),
    post("/tournament/sheet", tournament_sheet),
    post("/tournament/clock", tournament_clock),
    post("/tournament/end", tournament_end),
    Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
]



def middleware(config: NightConfig) -> list[Middleware]:
    return [Middleware(ServerTiming), Middleware(HostCheck, allowed=config.host_name),
            Middleware(BodyLimit), Middleware(AuthenticationMiddleware, backend=NightAuth())]


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Bind the broadcaster to the loop, size the worker threads, and close questions whose
    timer ran out."""
    night: Night = app.state.night
    night.events.bind(asyncio.get_running_loop())
    anyio.to_thread.current_default_thread_limiter().total_tokens = WORKER_THREADS

    async def timers() -> None:
        while True:
            await asyncio.sleep(TIMER_SWEEP)
            try:
                if await run_in_threadpool(night.store.close_expired):
                    night.events.publish("quiz")
            except sqlite3.Error:
                pass

    task = asyncio.create_task(timers())
    try:
        yield
    finally:
        task.cancel()
        night.events.close()
        if night.table is not None:
            night.table.close()
        with contextlib.suppress(asyncio.CancelledError):
            await task  # a sweep under way finishes before the store can be closed


def create_app(store: NightStore, config: NightConfig) -> Starlette:
    app = Starlette(routes=routes, middleware=middleware(config),
                    exception_handlers={HTTPException: http_error, 500: server_error},
                    lifespan=lifespan)
    night = Night.open(store, config)
    app.state.night = night
    app.state.store = store
    app.state.events = night.events
    return app
