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
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".whl": "application/zip", ".zip": "application/zip",
         ".css": "text/css", ".html": "text/html; charset=utf-8",
         ".ipynb": "application/json"}
LITE_START = 300_000  # ms: a first kernel start (runtime, IPython, the wheels) on a loaded machine
# The JupyterLite app's current notebook has a kernel that is idle (exposeAppInBrowser).
LITE_KERNEL_IDLE_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.status === 'idle';
}"""


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


def lite_kernel_idle(page: Any, errors: list[str]) -> None:
    """Wait for the JupyterLite notebook's kernel to be idle; a kernel that failed to start
    (an uncaught error on the page) fails at once, with its words."""
    deadline = time.monotonic() + LITE_START / 1000
    while not page.evaluate(f"({LITE_KERNEL_IDLE_JS})()"):
        assert not errors, f"the kernel did not start: {errors[:2]}"
        assert time.monotonic() < deadline, "the kernel did not start in time"
        page.wait_for_timeout(500)


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
