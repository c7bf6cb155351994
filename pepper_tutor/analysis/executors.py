"""Where batch work runs: one name for a :class:`concurrent.futures.Executor`.

Batch jobs (mining puzzles, the tournament, the screened drills' build) hand out
independent tasks, each seeded from the job's seed and its index, and merge the results in
index order, so the output is the same for any number of workers on any executor. The
executor is named by one text, the ``--executor`` option of such commands:

- ``local`` (the default), ``local:N``: the standard library's process pool on this machine
  (N processes, at most the machine's CPUs, which the job says when it cuts N; default the
  CPUs), its workers guarded by
  :mod:`~pepper_tutor.analysis.workers` so they end with this process;
- ``dask-local:N``: a Dask ``LocalCluster`` of N single-threaded worker processes on this
  machine (N at most its CPUs, as for ``local``);
- ``dask://HOST:PORT``: a Dask scheduler someone already runs (``tcp://`` is accepted too).

Dask is an optional extra (``pip install 'pepper-tutor[cluster]'``), imported only when a
``dask`` executor is asked for; ``Client.get_executor()`` is an ``Executor``, so the same
:func:`run_indexed` drives either.

:func:`run_indexed` runs ``fn(task)`` for every task and returns the results in task order.
A task whose worker dies is run again: the standard pool breaks when one of its processes
is killed, so the unfinished tasks go to a fresh pool (Dask's scheduler reschedules them
itself); a result is kept once per index, so nothing is lost and nothing doubled. Ctrl-C
(or SIGTERM) stops the workers at once.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from .workers import start_worker, starting_workers, stop_now, stopping_on_signals, wait_first

__all__ = ["DEFAULT_EXECUTOR", "ExecutorSpec", "parse_executor", "open_executor",
           "run_indexed", "ExecutorError", "cpus"]

DEFAULT_EXECUTOR = "local"
RESTARTS = 3  # fresh pools after a killed worker before the job gives up

T = TypeVar("T")
R = TypeVar("R")


class ExecutorError(ValueError):
    """An ``--executor`` text that names no executor, or one that cannot be had here."""


@dataclass(frozen=True)
class ExecutorSpec:
    """A parsed ``--executor``: ``kind`` is ``local``, ``dask-local`` or ``dask``."""

    kind: str
    workers: int | None = None  # local and dask-local; None: the machine's cores
    address: str | None = None  # dask: the scheduler's address

    def __str__(self) -> str:
        if self.kind == "dask":
            return f"dask://{self.address}"
        return self.kind + (f":{self.workers}" if self.workers is not None else "")

    @property
    def size(self) -> int:
        """How many workers run on this machine: the count asked for, at most its CPUs
        (more processes than CPUs only wait on each other); a remote scheduler's count is
        not known ahead."""
        return min(self.workers or cpus(), cpus())

    @property
    def capped(self) -> str | None:
        """The one line saying the count asked for was cut to the CPUs, or None."""
        if self.kind == "dask" or self.workers is None or self.workers <= self.size:
            return None
        return (f"--executor {self}: this machine has {self.size} CPU"
                f"{'s' if self.size != 1 else ''}, so {self.size} worker"
                f"{'s' if self.size != 1 else ''} run, not {self.workers:,}")


_LOCAL = re.compile(r"(local|dask-local)(?::([0-9]{1,9}))?")
_DASK = re.compile(r"(?:dask|tcp)://([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])"
                   r":([0-9]{1,5})")
_EXPECTED = ("expected local, local:N, dask-local:N or dask://HOST:PORT (N a whole number "
             "of workers, 1 or more)")


def parse_executor(text: str | None) -> ExecutorSpec:
    """``local``, ``local:N``, ``dask-local:N`` or ``dask://HOST:PORT``, exactly: an empty
    text, a bare ``local:``, a count below 1, a sign, spaces or anything after the count is
    refused (:class:`ExecutorError`), never read as the default. ``None`` is the default."""
    if text is None:
        return ExecutorSpec(DEFAULT_EXECUTOR)
    if not isinstance(text, str):
        raise ExecutorError(f"--executor {text!r}: {_EXPECTED}"[:200])
    shown = text if len(text) <= 60 else text[:57] + "..."
    if not (shown.isprintable() and shown.strip() == shown and shown):
        shown = repr(shown)  # an empty text, spaces, control characters: shown as they are
    dask = _DASK.fullmatch(text)
    if dask is not None:
        if not 1 <= int(dask[2]) <= 65535:
            raise ExecutorError(f"--executor {shown}: a port is from 1 to 65535")
        return ExecutorSpec("dask", address=f"{dask[1]}:{int(dask[2])}")
    local = _LOCAL.fullmatch(text)
    if local is None:
        raise ExecutorError(f"--executor {shown}: {_EXPECTED}")
    if local[2] is None:
        return ExecutorSpec(local[1])
    if int(local[2]) < 1:
        raise ExecutorError(f"--executor {shown}: the worker count must be 1 or more")
    return ExecutorSpec(local[1], int(local[2]))


def cpus() -> int:
    """The CPUs this process may run on (its affinity where the system says it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _local_pool(workers: int) -> ProcessPoolExecutor:
    # fork is quick, but unsafe in a process that runs threads (a notebook's kernel, rich's
    # live display).
    method = ("fork" if "fork" in multiprocessing.get_all_start_methods()
              and threading.active_count() == 1 else "spawn")
    with starting_workers():
        return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method),
                                   initializer=start_worker, initargs=(os.getpid(),))


def _dask() -> Any:
    try:
        import distributed
    except ImportError as err:
        raise ExecutorError("a dask executor needs Dask: pip install 'pepper-tutor[cluster]'"
                            ) from err
    return distributed


@contextlib.contextmanager
def open_executor(spec: ExecutorSpec | str | None) -> Iterator[Callable[[], Executor]]:
    """A factory of executors for ``spec``, valid inside the block; called again after a
    killed worker broke a local pool, it gives a fresh one. Everything it made is shut
    down on the way out (at once when leaving on an error or Ctrl-C)."""
    spec = spec if isinstance(spec, ExecutorSpec) else parse_executor(spec)
    if spec.capped:  # said once, where the job starts
        print(f"pepper-tutor: {spec.capped}", file=sys.stderr)
    made: list[Executor] = []
    closers: list[Callable[[], None]] = []
    if spec.kind == "local":
        def factory() -> Executor:
            pool = _local_pool(spec.size)
            made.append(pool)
            return pool
    else:
        distributed = _dask()
        if spec.kind == "dask-local":
            cluster = distributed.LocalCluster(n_workers=spec.size, threads_per_worker=1,
                                               processes=True, dashboard_address=None,
                                               host="127.0.0.1")
            client = distributed.Client(cluster)
            closers += [cluster.close, client.close]
        else:
            try:
                client = distributed.Client(f"tcp://{spec.address}", timeout=10)
            except OSError as err:
                raise ExecutorError(f"--executor {spec}: no Dask scheduler answers there "
                                    f"({err})") from err
            closers.append(client.close)
        executor = client.get_executor(pure=False)

        def factory() -> Executor:
            return executor  # type: ignore[no-any-return]
    ok = False
    try:
        with stopping_on_signals():
            yield factory
        ok = True
    finally:
        for pool in made:
            if ok:
                pool.shutdown(wait=True)
            else:
                stop_now(pool)
        for close in reversed(closers):
            with contextlib.suppress(Exception):
                close()


def run_indexed(executors: Callable[[], Executor], fn: Callable[[T], R], tasks: Sequence[T],
                done: Callable[[int, R], None] | None = None,
                window: int | None = None) -> list[R]:
    """``[fn(t) for t in tasks]``, run on the executors' workers; ``done(index, result)``
    is called in this process as each task finishes (in any order), for a progress bar.
    At most ``window`` tasks are handed out at once (default: all), so a stop drops little
    work. A task whose worker was killed runs again on a fresh pool (up to
    :data:`RESTARTS` times); each index's result is kept once."""
    results: dict[int, R] = {}
    left = list(range(len(tasks)))
    executor = executors()
    restarts = 0
    while left:
        try:
            _run_some(executor, fn, tasks, left, results, done, window)
        except BrokenProcessPool:
            restarts += 1
            if restarts > RESTARTS:
                raise
            executor = executors()
        left = [i for i in range(len(tasks)) if i not in results]
    return [results[i] for i in range(len(tasks))]


def _run_some(executor: Executor, fn: Callable[[T], R], tasks: Sequence[T], left: list[int],
              results: dict[int, R], done: Callable[[int, R], None] | None,
              window: int | None) -> None:
    queue = iter(left)
    pending: dict[Future[R], int] = {}
    limit = window or len(left)
    exhausted = False
    while pending or not exhausted:
        while not exhausted and len(pending) < limit:
            index = next(queue, None)
            if index is None:
                exhausted = True
                break
            with starting_workers():
                pending[executor.submit(fn, tasks[index])] = index
        if not pending:
            break
        finished = wait_first(list(pending))
        broken: BaseException | None = None
        for future in finished:
            index = pending.pop(future)
            try:
                result = future.result()
            except BrokenProcessPool as err:
                broken = err
                continue
            if index not in results:  # a task run twice (a retry) is kept once
                results[index] = result
                if done is not None:
                    done(index, result)
        if broken is not None:
            for future in pending:
                future.cancel()
            raise broken
