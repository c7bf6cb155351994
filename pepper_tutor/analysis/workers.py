"""The life of a pool's worker processes: they end when their parent ends, for any reason.

A worker of :class:`concurrent.futures.ProcessPoolExecutor` outlives its parent if the parent
dies without shutting the pool down: SIGTERM and SIGHUP end a Python process at once by
default (no ``finally`` runs), and a crash or SIGKILL runs nothing at all. Left alone, the
workers would go on solving deals nobody waits for, and keep the resource tracker alive.

Two guards, both needed:

- :func:`start_worker`, the pool's initializer, makes each worker watch its parent: on Linux
  the kernel sends it SIGKILL when the parent dies (``prctl(PR_SET_PDEATHSIG)``); elsewhere a
  daemon thread polls the parent's pid. It also leaves Ctrl-C to the parent, which stops the
  pool at once.
- :func:`stopping_on_signals`, around the parent's use of the pool, turns SIGTERM and SIGHUP
  into :class:`SystemExit` with status 128 + the signal's number, the shell's convention, so
  the parent's ``except BaseException`` stops the workers and the process ends as it would
  have, only cleanly.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Executor
from types import FrameType

__all__ = ["STOPPING_SIGNALS", "start_worker", "stopping_on_signals", "stop_now"]

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
_POLL_SECONDS = 0.5

STOPPING_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def start_worker(parent: int) -> None:
    """The pool's initializer: ``parent`` is the pid of the process that made the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits the parent's handlers: under stopping_on_signals SIGTERM
    # would raise SystemExit inside the task, which the pool hands back as the task's
    # result, and the worker would go on; terminate() must end it.
    for signum in STOPPING_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)
    if not _die_with_parent_linux():
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True,
                         name="pepper-watch-parent").start()
    # The parent may have died between the fork and the prctl: then the kernel never sends
    # the signal, and this process already has another parent.
    if os.getppid() != parent:
        os._exit(1)


def _die_with_parent_linux() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_POLL_SECONDS)
    os._exit(1)


def _exit_on_signal(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


@contextlib.contextmanager
def stopping_on_signals() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP raise :class:`SystemExit` (128 + the signal) in the
    main thread instead of ending the process on the spot. Only signals left at their default
    are taken over (a program's own handler is kept), and only from the main thread (the only
    one Python lets set handlers); the old handlers come back on the way out."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    taken: list[tuple[signal.Signals, object]] = []
    for signum in STOPPING_SIGNALS:
        if signal.getsignal(signum) is signal.SIG_DFL:
            taken.append((signum, signal.signal(signum, _exit_on_signal)))
    try:
        yield
    finally:
        for signum, old in taken:
            signal.signal(signum, old)  # type: ignore[arg-type]


def stop_now(pool: Executor) -> None:
    """End a local process pool's workers at once (Ctrl-C, SIGTERM): queued work is
    dropped, running work killed."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    # A chunk of work bigger than the pipe's buffer may still be half written to the killed
    # workers' queue, whose reading end this process also holds: joining that queue's feeder
    # thread at exit would then wait for ever (a parent sent SIGTERM hung so once). Nothing
    # will read it again, so it is not waited for.
    call_queue = getattr(pool, "_call_queue", None)
    if call_queue is not None:
        call_queue.cancel_join_thread()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join(1.0)
