"""A very small HTTP/1.1 client for the load tests on loopback: one simulated device with its
own cookies, one keep-alive connection for its requests and one per event stream.

Why not httpx: with 200 simulated phones on a two-core machine the load test measured its own
client. Each httpx client builds a TLS context it never uses, and every request under asyncio
looks for ``sniffio`` on the whole import path when it is not installed; together they cost
the phones' process about a core, so a phone waited on its own event loop and the server was
blamed for it. This client parses a status line, the headers and a body (by length or in
chunks) and nothing else: it speaks to our own server on 127.0.0.1, never to anything else.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass
from urllib.parse import urlencode

__all__ = ["Device", "Reply", "LOOPBACK"]

LOOPBACK = "127.0.0.1"
REDIRECTS = (301, 302, 303, 307, 308)


@dataclass(frozen=True)
class Reply:
    status: int
    headers: dict[str, str]  # names in lower case; a repeated header's last value
    text: str


class _Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer

    def close(self) -> None:
        self.writer.close()


class Device:
    """A phone or a laptop: cookies kept as a browser keeps them for one site (the path and
    expiry are not looked at: the night sets its cookies for the whole site)."""

    def __init__(self, port: int, host: str = LOOPBACK):
        if host != LOOPBACK:
            raise ValueError("the load test speaks to its own server on loopback only")
        self.host, self.port = host, port
        self.cookies: dict[str, str] = {}
        self._idle: _Connection | None = None  # the keep-alive connection between requests
        self._streams: set[_Connection] = set()

    async def _connect(self) -> _Connection:
        reader, writer = await asyncio.open_connection(self.host, self.port, limit=1 << 20)
        return _Connection(reader, writer)

    def _head(self, method: str, path: str, extra: dict[str, str], length: int | None) -> bytes:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        lines += [f"{k}: {v}" for k, v in extra.items()]
        if length is not None:
            lines.append(f"Content-Length: {length}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    async def _read_head(self, conn: _Connection) -> tuple[int, dict[str, str]]:
        raw = await conn.reader.readuntil(b"\r\n\r\n")
        status_line, *lines = raw.decode("latin-1").split("\r\n")
        status = int(status_line.split(" ", 2)[1])
        headers: dict[str, str] = {}
        for line in lines:
            if not line:
                continue
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            headers[name] = value
            if name == "set-cookie":
                pair = value.split(";", 1)[0]
                key, _, val = pair.partition("=")
                if val:
                    self.cookies[key.strip()] = val.strip()
                else:
                    self.cookies.pop(key.strip(), None)
        return status, headers

    async def request(self, method: str, path: str, form: dict[str, str] | None = None,
                      headers: dict[str, str] | None = None, follow: bool = False) -> Reply:
        """One request on the device's keep-alive connection (a fresh one if it has none)."""
        extra = dict(headers or {})
        body = b""
        if form is not None:
            body = urlencode(form).encode()
            extra["Content-Type"] = "application/x-www-form-urlencoded"
        conn, self._idle = self._idle, None
        reused = conn is not None
        if conn is None:
            conn = await self._connect()
        try:
            conn.writer.write(self._head(method, path, extra,
                                         len(body) if form is not None else None) + body)
            status, got = await self._read_head(conn)
            if "content-length" in got:
                data = await conn.reader.readexactly(int(got["content-length"]))
            elif got.get("transfer-encoding", "").lower() == "chunked":
                data = b"".join([chunk async for chunk in _chunks(conn.reader)])
            else:  # the body runs to the end of the connection
                data = await conn.reader.read()
                got["connection"] = "close"
        except (asyncio.IncompleteReadError, ConnectionError) as err:
            conn.close()
            # A kept-alive connection the server had just closed: a GET is asked again on a
            # fresh one; a POST is not (it may have been carried out).
            if reused and method == "GET" and not getattr(err, "partial", b""):
                return await self.request(method, path, form, headers, follow)
            raise
        except BaseException:
            conn.close()
            raise
        if got.get("connection", "").lower() == "close":
            conn.close()
        else:
            self._idle = conn
        reply = Reply(status, got, data.decode("utf-8", "replace"))
        if follow and status in REDIRECTS and "location" in got:
            return await self.request("GET", got["location"], headers=headers, follow=True)
        return reply

    async def get(self, path: str, follow: bool = False) -> Reply:
        return await self.request("GET", path, follow=follow)

    async def post(self, path: str, form: dict[str, str],
                   headers: dict[str, str] | None = None) -> Reply:
        return await self.request("POST", path, form, headers)

    async def lines(self, path: str) -> AsyncGenerator[str, None]:
        """A server-sent-events stream on a connection of its own, line by line, read as the
        server sends it (an event is not parsed until someone looks at it)."""
        conn = await self._connect()
        self._streams.add(conn)
        try:
            conn.writer.write(self._head("GET", path, {"Accept": "text/event-stream"}, None))
            status, _ = await self._read_head(conn)
            if status != 200:
                raise ConnectionError(f"the event stream answered {status}")
            pending = b""
            async for chunk in _chunks(conn.reader):
                pending += chunk
                *done, pending = pending.split(b"\n")
                for line in done:
                    yield line.rstrip(b"\r").decode("utf-8", "replace")
        finally:
            self._streams.discard(conn)
            conn.close()

    async def aclose(self) -> None:
        for conn in [*self._streams, *([self._idle] if self._idle else [])]:
            conn.close()
        self._streams.clear()
        self._idle = None

    async def __aenter__(self) -> Device:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


async def _chunks(reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
    """The chunks of a ``Transfer-Encoding: chunked`` body, as they arrive."""
    while True:
        size_line = await reader.readuntil(b"\r\n")
        size = int(size_line.split(b";", 1)[0].strip(), 16)
        if size == 0:
            await reader.readuntil(b"\r\n")  # no trailers from our server: the empty line
            return
        data = await reader.readexactly(size)
        await reader.readexactly(2)
        yield data
