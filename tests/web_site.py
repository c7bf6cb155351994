"""The Play and learn page and the notebooks' JupyterLite site, for browser tests and the
browser bench: built from this tree (the runtime, the wheels and the JupyterLite tools come
from the builds' caches after the first time) and served on a free loopback port by a small
static server, in a thread of the test process."""

from __future__ import annotations

import functools
import gzip
import http.server
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".whl": "application/zip", ".zip": "application/zip",
         ".css": "text/css", ".html": "text/html; charset=utf-8",
         ".ipynb": "application/json"}


def build_page(out: Path) -> Path:
    """``web/build.py --out out``; a failed build fails with its own message."""
    done = subprocess.run([sys.executable, str(ROOT / "web" / "build.py"), "--out", str(out)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"web/build.py failed:\n{done.stderr[-3000:]}")
    return out


def build_lite(out: Path) -> Path:
    """``web/lite.py --out out`` (it finds the Python 3.12+ its tools need, or says so)."""
    done = subprocess.run([sys.executable, str(ROOT / "web" / "lite.py"), "--out", str(out)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"web/lite.py failed:\n{done.stderr[-3000:]}")
    return out


def gzipped(site: Path, urls: list[str]) -> tuple[int, int]:
    """The bytes of the files of ``site`` these addresses fetched, as stored and gzipped (as a
    static host serves them); each file counted once."""
    raw = packed = 0
    for u in set(urls):
        path = site / urlparse(u).path.lstrip("/")
        if path.is_dir():
            path = path / "index.html"
        if path.is_file():
            data = path.read_bytes()
            raw += len(data)
            packed += len(gzip.compress(data, 6))
    return raw, packed


class _Quiet(http.server.SimpleHTTPRequestHandler):
    # the base class's own attribute, extended
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,  # noqa: RUF012
                      **TYPES}

    def log_message(self, format: str, *args: object) -> None:
        pass

    def end_headers(self) -> None:
        # Like a static host: the browser revalidates, the service worker keeps its copy.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()


@contextmanager
def serve(folder: Path, prefix: str = "try") -> Iterator[str]:
    """Serve ``folder`` at ``http://127.0.0.1:PORT/<prefix>/``; yields that address."""
    site = folder.parent
    if folder.name != prefix:
        raise ValueError(f"{folder} must be named {prefix}")
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/{prefix}/"
    finally:
        server.shutdown()
        server.server_close()
