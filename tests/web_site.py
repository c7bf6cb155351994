"""The Play and learn page for browser tests and the browser bench: built from this tree (the
runtime and the wheels come from the build's cache after the first time) and served on a
free loopback port by a small static server, in a thread of the test process."""

from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".whl": "application/zip", ".zip": "application/zip",
         ".css": "text/css", ".html": "text/html; charset=utf-8"}


def build_page(out: Path) -> Path:
    """``web/build.py --out out``; a failed build fails with its own message."""
    done = subprocess.run([sys.executable, str(ROOT / "web" / "build.py"), "--out", str(out)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"web/build.py failed:\n{done.stderr[-3000:]}")
    return out


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
