"""What this Python may start: threads and processes, which a browser tab's Python cannot.

In Pyodide (the "Play and learn" page, ``sys.platform == "emscripten"``) starting a thread
raises ``RuntimeError`` and ``multiprocessing`` cannot make a process. The few places that
start either ask here first and take their single-threaded route when the answer is no;
everything they compute comes out the same, only later.
"""

from __future__ import annotations

import sys

__all__ = ["in_browser", "can_start_threads", "can_start_processes"]


def in_browser() -> bool:
    """True in a browser tab's Python (Pyodide, Emscripten)."""
    return sys.platform == "emscripten"


def can_start_threads() -> bool:
    return not in_browser()


def can_start_processes() -> bool:
    return not in_browser()
