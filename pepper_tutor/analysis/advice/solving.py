"""The sampling core's work: solving each deal double-dummy, here or in a pool of worker processes.

Deals are drawn one at a time as they are solved and in the same order whatever
``workers`` (the number of processes that solve them; 1: in this process); what each deal
showed is added to the running counts and dropped, so the report does not depend on
``workers`` (but for bid advice's ``drop_worse``, which works in one process). Ctrl-C stops
worker processes at once (:mod:`pepper_tutor.analysis.workers`). ``until_clear=True`` stops
sampling as soon as the best option is better than every other at 95% (paired over the same
deals), checked every 10 deals after the first 30; bid advice by default (``drop_worse``)
stops solving a trump and way of playing once every bid in it is shown worse than the best,
looking every 10 deals from the 10th, and goes on with the others for every deal. A drop is
a test repeated at every look, so its 95% is shared out over the looks (:data:`DROP_Z`):
tested at 95% each time, a better option was now and then dropped on ten unlucky deals, and
the coach then graded against a best that was not (Best over one seed's deals, a Mistake
over another's).
"""

from __future__ import annotations

import math
import multiprocessing
import os
import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from typing import Any, TypeVar

from ...files.runtime import can_start_processes
from ..solver import Position, TranspositionTable, tricks_of
from ..workers import start_worker, starting_workers, stop_now, stopping_on_signals, wait_first
from .sampling import Progress
from .tally import Outcome, TalliedOption, Tally, _z, is_clear

_R = TypeVar("_R")
_Tables = dict[Hashable, TranspositionTable]
_Work = Callable[[Any, list[list[int]], _Tables], _R]
_WORKER_TABLES: _Tables = {}  # per worker process: tables live across its chunks

_FIRST_LOOK = 30  # samples before stopping early is considered
_LOOK_EVERY = 10
_FIRST_DROP = 10  # samples before bid advice drops an option shown worse
# The normal point a drop is tested at: 95% shared out (Bonferroni) over the looks of a
# grading's 200 deals, 10 to 190 (19), so that over a whole race a better option is dropped
# about 2.5% of the time at most. Options far worse on every deal still go at the 10th.
DROP_Z = _z(1 + (200 - _FIRST_DROP) // _LOOK_EVERY)


def _work_chunk(work: _Work[_R], context: Any, deals: list[list[list[int]]]) -> list[_R]:
    return [_solve_one(work, context, deal, _WORKER_TABLES) for deal in deals]


def _solve_one(work: _Work[_R], context: Any, deal: list[list[int]], tables: _Tables) -> _R:
    """``work`` on one deal, its tables emptied after. Entries carried from one deal to the
    next hardly ever answer a search there (paired timings: no faster), and emptying
    them keeps memory flat in the number of deals."""
    try:
        return work(context, deal, tables)
    finally:
        for table in tables.values():
            table.clear()


def _looks(done: int) -> bool:
    return done >= _FIRST_LOOK and (done - _FIRST_LOOK) % _LOOK_EVERY == 0


def _drops(done: int) -> bool:
    return done >= _FIRST_DROP and done % _LOOK_EVERY == 0


def _solve_all(work: _Work[_R], context: Any, deals: Iterable[list[list[int]]], total: int,
               workers: int, progress: Progress | None, tally: Tally,
               row: Callable[[_R], Sequence[Outcome]],
               choices: Sequence[TalliedOption] | None = None,
               prune: Callable[[Tally], None] | None = None,
               record: Callable[[list[list[int]], _R], None] | None = None) -> None:
    """``work(context, deal, tables)`` for every deal, its ``row`` of trick counts added to
    ``tally`` (the answers themselves are not kept, but by ``record(deal, answer)``, called
    here in this process), with progress reports.

    The tables (one per kind of position, see :class:`TranspositionTable`) serve the
    options of one deal and are emptied before the next. With ``choices`` it stops as soon
    as the best of them is clear at 95%; ``prune(tally)`` may stop solving options in
    ``context`` (both in this process only).
    With ``workers > 1`` the deals are cut into chunks solved by that many processes, a few
    chunks in flight at a time; the tally is the same, since the solver is deterministic,
    the deals fixed and counts do not depend on the order they are added in. Where no
    process can be started (a browser tab) the deals are solved here, one after another."""
    if workers <= 1 or total < 2 * workers or not can_start_processes():
        tables: _Tables = {}
        for deal in deals:
            result = _solve_one(work, context, deal, tables)
            if record is not None:
                record(deal, result)
            tally.add(row(result))
            done = tally.deals
            if progress is not None:
                progress(done, total)
            if prune is not None and done < total and _drops(done):
                prune(tally)
            if choices is not None and _looks(done) and is_clear(tally, choices):
                break
        return
    _solve_in_workers(work, context, deals, total, workers, progress, tally, row, record)


def _solve_in_workers(work: _Work[_R], context: Any, deals: Iterable[list[list[int]]],
                      total: int, workers: int, progress: Progress | None, tally: Tally,
                      row: Callable[[_R], Sequence[Outcome]],
                      record: Callable[[list[list[int]], _R], None] | None) -> None:
    size = max(1, math.ceil(total / (8 * workers)))  # small chunks: a smooth progress bar
    # fork is quick, but unsafe in a process that runs threads (a notebook's kernel).
    method = ("fork" if "fork" in multiprocessing.get_all_start_methods()
              and threading.active_count() == 1 else "spawn")
    source = iter(deals)
    # The workers end with this process whatever ends it (see analysis/workers.py).
    with stopping_on_signals():
        _run_pool(work, context, source, size, total, workers, method, progress, tally, row,
                  record)


def _run_pool(work: _Work[_R], context: Any, source: Iterator[list[list[int]]], size: int,
              total: int, workers: int, method: str, progress: Progress | None,
              tally: Tally, row: Callable[[_R], Sequence[Outcome]],
              record: Callable[[list[list[int]], _R], None] | None) -> None:
    with starting_workers():
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method),
                                   initializer=start_worker, initargs=(os.getpid(),))
    try:
        chunks: dict[Future[list[_R]], list[list[list[int]]]] = {}  # each future's deals
        exhausted = False
        while chunks or not exhausted:
            while not exhausted and len(chunks) < 2 * workers:
                chunk = list(islice(source, size))
                if not chunk:
                    exhausted = True
                    break
                with starting_workers():
                    chunks[pool.submit(_work_chunk, work, context, chunk)] = chunk
            if not chunks:
                break
            finished = wait_first(chunks)
            for future in finished:
                for deal, result in zip(chunks.pop(future), future.result(), strict=True):
                    if record is not None:
                        record(deal, result)
                    tally.add(row(result))
                if progress is not None:
                    progress(tally.deals, total)
    except BaseException:
        stop_now(pool)
        raise
    pool.shutdown(wait=True)


_TABLE_ENTRIES = 300_000  # per kind of position: bounds memory however many samples


def _table(tables: _Tables, name: Hashable) -> TranspositionTable:
    table = tables.get(name)
    if table is None:
        table = tables[name] = TranspositionTable(_TABLE_ENTRIES)
    return table


def _tricks(position: Position, tables: _Tables, name: Hashable) -> int:
    return tricks_of(position, _table(tables, name))

