"""Live updates: every open page holds a server-sent-events stream and is told what changed.

An event names a part of the night (``sheet``, ``quiz``, ``players``, ...); the page fetches
that part again as server-rendered HTML. Changes are published from the endpoints, which
Starlette runs in its worker threads (see :mod:`.server`), so publishing hands the event to
the event loop thread-safely; the stream itself runs on the loop.

Events are batched: a part is announced at once if it was not announced in the last
:data:`BATCH` seconds, else once at the end of that window however many changes came in. A
burst of 200 answers or joins so costs each screen a few redraws a second, not 200, while a
new question (the first change in a while) still goes out at once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

__all__ = ["Broadcaster", "PARTS", "BATCH"]

PARTS = ("sheet", "quiz", "players", "answers", "roles", "room", "table", "tournament")
KEEPALIVE = 15.0  # seconds between comments that keep proxies and phones from hanging up
BATCH = 0.25  # seconds: at most four announcements of one part a second


class Broadcaster:
    def __init__(self, batch: float = BATCH) -> None:
        self._queues: dict[asyncio.Queue[str], frozenset[str]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self.batch = batch
        self._last: dict[str, float] = {}  # when each part was last announced (loop time)
        self._due: set[str] = set()  # parts with an announcement waiting for its window
        self.sent = 0  # announcements handed to streams (the load test reports it)
        self.closing = False

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    @property
    def listeners(self) -> int:
        return len(self._queues)

    def publish(self, part: str) -> None:
        """Tell every open page that ``part`` changed (callable from any thread)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop closed between the look and now
            loop.call_soon_threadsafe(self._schedule, part)

    def _schedule(self, part: str) -> None:
        # On the loop: announce now, or once when the part's window ends.
        assert self._loop is not None
        if not part:
            self._send(part)
            return
        if part in self._due:
            return  # already waiting: this change rides along
        wait = self._last.get(part, -1e9) + self.batch - self._loop.time()
        if wait <= 0:
            self._send(part)
        else:
            self._due.add(part)
            self._loop.call_later(wait, self._flush, part)

    def _flush(self, part: str) -> None:
        self._due.discard(part)
        self._send(part)

    def _send(self, part: str) -> None:
        if self._loop is not None and part:
            self._last[part] = self._loop.time()
        for queue, wanted in list(self._queues.items()):
            if not part or part in wanted:
                queue.put_nowait(part)
                self.sent += 1

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        self.closing = True
        self.publish("")

    async def stream(self, wanted: frozenset[str] = frozenset(PARTS)) -> AsyncIterator[str]:
        """The events of the parts a page shows (a phone does not need every answer)."""
        queue: asyncio.Queue[str] = asyncio.Queue()
        self._queues[queue] = wanted
        try:
            yield "retry: 1000\n\n"
            while not self.closing:
                try:
                    part = await asyncio.wait_for(queue.get(), KEEPALIVE)
                except TimeoutError:
                    yield ": keepalive\n\n"
                    continue
                if not part:
                    break
                yield f"event: {part}\ndata: {part}\n\n"
        finally:
            self._queues.pop(queue, None)
