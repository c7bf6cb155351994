"""Live updates: every open page holds a server-sent-events stream and is told what changed.

An event names a part of the night (``sheet``, ``quiz``, ``players``); the page fetches that
part again as server-rendered HTML. Changes are published from the endpoints, which Starlette
runs in its worker threads (see :mod:`.server`), so publishing hands the event to the event
loop thread-safely; the stream itself runs on the loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

__all__ = ["Broadcaster", "PARTS"]

PARTS = ("sheet", "quiz", "players", "answers")
KEEPALIVE = 15.0  # seconds between comments that keep proxies and phones from hanging up


class Broadcaster:
    def __init__(self) -> None:
        self._queues: dict[asyncio.Queue[str], frozenset[str]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
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
        for queue, wanted in list(self._queues.items()):
            if not part or part in wanted:
                loop.call_soon_threadsafe(queue.put_nowait, part)

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
