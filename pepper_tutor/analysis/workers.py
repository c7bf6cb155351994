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

The parent waits for its workers with :func:`wait_first`, never with ``wait`` itself: an
exception raised by a signal handler inside ``concurrent.futures.wait`` can leave some of the
futures' locks held (they are taken one by one, before the ``with`` that would free them), and
the pool's own thread, which must take them to hand back a result, then waits for ever, and
the process with it at exit (Ctrl-C's KeyboardInterrupt alike). Inside :func:`wait_first` a
signal is only noted, and raised as the same exception once the wait has let go of the locks.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Collection, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from types import FrameType
from typing import Any

__all__ = ["STOPPING_SIGNALS", "start_worker", "stopping_on_signals", "stop_now", "wait_first",
           "starting_workers"]

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
_POLL_SECONDS = 0.5
# How long a stopping signal that arrives during wait_first can wait to be acted on.
_WAIT_TICK = 0.1

STOPPING_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def start_worker(parent: int) -> None:
    """The pool's initializer: ``parent`` is the pid of the process that made the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # held back since birth (starting_workers)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
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


@contextlib.contextmanager
def starting_workers() -> Iterator[None]:
    """Around whatever may start a process (making a pool, handing it work): Ctrl-C is held
    back in this thread meanwhile, and a process started inside begins with it held back too
    (the signal mask survives fork and exec), until :func:`start_worker` ignores it. Without
    this a Ctrl-C to the whole terminal while a worker (or multiprocessing's resource tracker)
    is still importing prints that process's traceback. A Ctrl-C held back here is acted on as
    soon as the block ends; nothing is lost."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


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


class _Stop:
    """The stopping signal that came while the main thread was inside :func:`wait_first`."""

    waiting = False
    signum: int | None = None


def _stopped(signum: int) -> BaseException:
    """What a signal ends the work with: Ctrl-C as Python's own interrupt, the others as
    the shell's exit status."""
    if signum == signal.SIGINT:
        return KeyboardInterrupt()
    return SystemExit(128 + signum)


def _stop_on_signal(signum: int, frame: FrameType | None) -> None:
    if _Stop.waiting:
        _Stop.signum = signum  # wait_first raises it once out of concurrent.futures.wait
        return
    raise _stopped(signum)


def wait_first(futures: Collection[Future[Any]]) -> set[Future[Any]]:
    """The futures done once at least one is (``wait(..., FIRST_COMPLETED)``), where Ctrl-C
    or a stopping signal ends the wait (with KeyboardInterrupt, or SystemExit as
    :func:`stopping_on_signals` says) without leaving a future's lock held (see the module's
    notes)."""
    _Stop.waiting = True
    try:
        while True:
            done, _ = wait(futures, timeout=_WAIT_TICK, return_when=FIRST_COMPLETED)
            if _Stop.signum is not None:
                signum, _Stop.signum = _Stop.signum, None
                raise _stopped(signum)
            if done:
                return done
    finally:
        _Stop.waiting = False


@contextlib.contextmanager
def stopping_on_signals() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP raise :class:`SystemExit` (128 + the signal) in the
    main thread instead of ending the process on the spot, and Ctrl-C its KeyboardInterrupt
    as always, only never inside :func:`wait_first`'s hold on the futures. Only signals left
    at their default are taken over (a program's own handler is kept), and only from the main
    thread (the only one Python lets set handlers); the old handlers come back on the way
    out."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    taken: list[tuple[signal.Signals, object]] = []
    for signum in STOPPING_SIGNALS:
        if signal.getsignal(signum) is signal.SIG_DFL:
            taken.append((signum, signal.signal(signum, _stop_on_signal)))
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        taken.append((signal.SIGINT, signal.signal(signal.SIGINT, _stop_on_signal)))
    try:
        yield
    finally:
        for signum, old in taken:
            signal.signal(signum, old)  # type: ignore[arg-type]


def stop_now(pool: Executor) -> None:
    """End a local process pool's workers at once (Ctrl-C, SIGTERM): queued work is
    dropped, running work killed."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    # shutdown() forgets these
    result_queue = getattr(pool, "_result_queue", None)
    thread = getattr(pool, "_executor_manager_thread", None)
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
    # A result bigger than a pipe's buffer (a chunk of deals' results is about 200 kB) is
    # written in parts, each waiting for the pool's own thread to read the last: a worker
    # killed between parts leaves that thread reading the rest of a message for ever, and
    # this process waiting for it at exit (a Ctrl-C hung so). This process never writes
    # there, so closing its end leaves no writer: the read ends at once and the thread ends.
    writer = getattr(result_queue, "_writer", None)
    if writer is not None:
        writer.close()
    # The pool's thread then closes its own pipes. The interpreter's exit writes to one of
    # them to wake that thread, without a lock: a close landing between its check and its
    # write printed an ignored exception's traceback under the one-line message (a loaded
    # CI met it). It has nothing left to wait for, so it is waited for here.
    if isinstance(thread, threading.Thread) and thread is not threading.current_thread():
        thread.join(5.0)
