"""What the night's app shares between requests, kept on ``app.state.night``.

One :class:`Night` per app: the store, where the pages are served, the templates, the event
broadcaster, the join limits, two caches (the question on the screen, the sheet as drawn) and
the card table once the host opens one.
Endpoints run in worker threads, so everything here that changes is safe to share between
them.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from markupsafe import Markup
from starlette.requests import HTTPConnection
from starlette.templating import Jinja2Templates

from ...engine.rules import PRESETS
from ...render.plain import strip_controls
from .events import Broadcaster
from .puzzle_round import puzzle_themes
from .store import ASK_KINDS, NightStore, Question
from .table import GRACE, Table
from .views import TRUMP_CHOICES, answer_label, quiz_html, ranked

__all__ = ["Night", "NightConfig", "RateLimit", "QuestionCache", "SheetCache", "night_of",
           "HOST_COOKIE", "PLAYER_COOKIE", "CSRF_COOKIE", "TIMERS"]

HERE = Path(__file__).parent
HOST_COOKIE, PLAYER_COOKIE, CSRF_COOKIE = "pt_host", "pt_player", "pt_csrf"
TIMERS = (0, 15, 20, 30, 45, 60)


class NightConfig:
    """What the pages need to know about where they are served."""

    def __init__(self, join_base: str, name: str, join_limit: int = 30,
                 wrong_code_limit: int = 8, room_join_limit: int = 600,
                 grace: float = GRACE):
        self.join_base = join_base.rstrip("/")
        self.name = name
        self.join_limit = join_limit  # joins per address per minute
        self.wrong_code_limit = wrong_code_limit  # wrong room codes per address per minute
        # Joins per minute for the whole room: phones behind one Wi-Fi router (or a script
        # with many addresses) cannot fill the night with names.
        self.room_join_limit = room_join_limit
        self.grace = grace  # seconds a sleeping phone keeps its seat at the table

    @property
    def host_name(self) -> str:
        """The ``Host`` every request must carry: the one in the links the server printed
        (anything else is a DNS-rebinding page or a mistyped address)."""
        return urlsplit(self.join_base).netloc.lower()

    def join_url(self, code: str) -> str:
        return f"{self.join_base}/join?code={code}"


class RateLimit:
    """At most ``n`` events per key in a sliding minute."""

    def __init__(self) -> None:
        self.seen: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self.seen[key]
        while times and times[0] < now - 60:
            times.popleft()
        return times

    def allow(self, key: str, n: int) -> bool:
        """Count one event; False (and not counted) once ``n`` were seen this minute."""
        now = time.monotonic()
        with self._lock:
            times = self._recent(key, now)
            if len(times) >= n:
                return False
            times.append(now)
            return True

    def blocked(self, key: str, n: int) -> bool:
        """Whether ``n`` events were seen this minute, without counting one: a lockout that
        is checked before the guess, so that the right guess is refused too until it ends."""
        with self._lock:
            return len(self._recent(key, time.monotonic())) >= n

    def note(self, key: str) -> None:
        with self._lock:
            self._recent(key, time.monotonic()).append(time.monotonic())


class QuestionCache:
    """The question on the screen, judged and drawn once rather than once per phone."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._drawn: tuple[int, Any, str] | None = None

    def get(self, q: Question) -> tuple[Any, str]:
        """The question's step and its situation drawn as HTML."""
        with self._lock:
            drawn = self._drawn
            if drawn is None or drawn[0] != q.id:
                step = q.step()
                drawn = self._drawn = (q.id, step, quiz_html(step, 48))
        return drawn[1], drawn[2]


class SheetCache:
    """The sheet part, the same for everyone: drawn once per version, not once per phone.

    Once also when every phone asks at the same moment (they all hear of the new hand
    together): the first ask draws it in a worker thread, and the others wait for that
    drawing instead of each drawing the sheet again."""

    def __init__(self) -> None:
        self._drawn: tuple[int, str] | None = None  # replaced whole, so threads see one pair
        self._drawing: tuple[int, asyncio.Future[str]] | None = None  # on the event loop only

    def get(self, version: int) -> str | None:
        drawn = self._drawn
        return drawn[1] if drawn is not None and drawn[0] == version else None

    def put(self, version: int, html: str) -> None:
        self._drawn = (version, html)

    async def draw_once(self, version: int, draw: Callable[[], Awaitable[str]]) -> str:
        """The sheet at ``version``: from memory, from the drawing under way, or drawn now."""
        html = self.get(version)
        if html is not None:
            return html
        drawing = self._drawing
        if drawing is None or drawing[0] != version or drawing[1].done():  # (or failed)
            drawing = self._drawing = (version, asyncio.ensure_future(draw()))
        # shielded: a phone that hangs up does not cancel the drawing the others wait for
        return await asyncio.shield(drawing[1])


def _plain_value(value: object) -> object:
    if isinstance(value, str) and not isinstance(value, Markup):
        return strip_controls(value)
    return value


def _templates(config: NightConfig) -> Jinja2Templates:
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    # Every {{ value }} a page shows loses its controls and invisible formatting characters
    # before autoescaping (names and notes come from phones and files); HTML the program
    # made itself (Markup) is left as it is.
    templates.env.finalize = _plain_value
    templates.env.globals.update(quiz_kinds=ASK_KINDS, presets=PRESETS, timers=TIMERS,
                                 puzzle_themes=puzzle_themes(),
                                 trump_choices=TRUMP_CHOICES, night=config,
                                 answer_label=answer_label, step_html=quiz_html, ranked=ranked)
    return templates


@dataclass
class Night:
    """Everything the endpoints share. The host token never changes in a night's file, so it
    is read once; the room code changes only when the host rotates it (:meth:`rotate_code`)."""

    store: NightStore
    config: NightConfig
    host_token: str
    room_code: str
    templates: Jinja2Templates
    events: Broadcaster = field(default_factory=Broadcaster)
    limits: RateLimit = field(default_factory=RateLimit)
    on_screen: QuestionCache = field(default_factory=QuestionCache)
    drawn_sheet: SheetCache = field(default_factory=SheetCache)
    table: Table | None = None  # the card table, once the host opens one

    @classmethod
    def open(cls, store: NightStore, config: NightConfig) -> Night:
        """The night of the file: with the card table it held, if one was open (after a
        crash, the hand goes on where it was)."""
        night = cls(store, config, store.host_token, store.room_code, _templates(config))
        try:
            night.table = Table.saved(store, night.events.publish, config.grace)
        except (KeyError, TypeError, ValueError):  # a table this server cannot read back
            store.save_table(None)
            store.warning = "the card table in the night's file could not be read back: " \
                            "the host opens a new one"
        return night

    def rotate_code(self) -> str:
        """A new room code (the old one no longer lets anyone join); players stay in."""
        self.room_code = self.store.rotate_room_code()
        return self.room_code


def night_of(conn: HTTPConnection) -> Night:
    """The night of the app serving this request."""
    night = conn.app.state.night
    assert isinstance(night, Night)
    return night
