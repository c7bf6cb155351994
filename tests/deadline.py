"""Running a piece of work with a deadline in a test: what can hang (SQLite opening a FIFO)
runs in a thread of its own, so a regression fails the test instead of hanging the suite."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def in_time(work: Callable[[], T], seconds: float = 20) -> T:
    """``work()``'s result, or what it raised; an ``AssertionError`` when it is still running
    after ``seconds`` (the thread is a daemon: it does not hold the test run)."""
    out: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            out.append(work())
        except BaseException as err:  # raised again in the test's own thread
            failed.append(err)
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"still waiting after {seconds} s: it hangs"
    if failed:
        raise failed[0]
    return out[0]
