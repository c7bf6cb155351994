"""Ctrl-C during ``pepper-tutor analyse --workers 2`` stops every process at once.

The analysis runs in its own process group, as a shell runs a command; the test waits
until the worker processes exist, sends SIGINT (to the whole group, as a terminal does,
or to the main process alone) and checks the exit status, the one-line message, and that
no process of the run is left after 2 seconds.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

HANDS = Path(__file__).resolve().parents[1] / "pepper_tutor" / "data" / "hands"


def _children(pid: int) -> set[int]:
    """Every live descendant of ``pid``, read from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if fields[0] != "Z":
                parents[int(entry.name)] = int(fields[1])
    out: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, pp in parents.items() if pp in frontier} - out
        out |= frontier
    return out


def _signals_at_default() -> None:
    """In the child, before it runs: Ctrl-C and the hang-up at their defaults, whatever the
    test run inherited (``nohup`` ignores SIGHUP, a shell's background job SIGINT, and the
    analysis keeps a signal it finds ignored, as a program under ``nohup`` should)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table in /proc")
@pytest.mark.parametrize("to_group", [True, False], ids=["group", "main-only"])
def test_ctrl_c_stops_the_workers_at_once(tmp_path, to_group):
    record = yaml.safe_load((HANDS / "exchange-made.yaml").read_text())
    position = {k: record[k] for k in ("format", "rules", "dealer", "deal")}
    position["auction"] = ["pass"]
    path = tmp_path / "position.yaml"
    path.write_text(yaml.safe_dump(position))
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "pepper_tutor", "analyse", str(path),
                             "--samples", "10000", "--workers", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            start_new_session=True, preexec_fn=_signals_at_default)
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.2)
            workers = _children(proc.pid)
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        assert len(workers) >= 2, "the worker processes never started"
        time.sleep(1.0)  # let them get to work
        everyone = _children(proc.pid) | {proc.pid}
        if to_group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.kill(proc.pid, signal.SIGINT)
        sent = time.monotonic()
        proc.wait(timeout=10)
        while time.monotonic() - sent < 2 and any(_alive(p) for p in everyone):
            time.sleep(0.05)
        left = [p for p in everyone if _alive(p)]
        assert not left, f"still running 2 s after Ctrl-C: {left}"
        assert proc.returncode == 130
        err = proc.stderr.read().decode() if proc.stderr else ""
        lines = [line for line in err.splitlines() if line.strip()]
        assert lines == ["pepper-tutor: analysis stopped (Ctrl-C); no advice given"], err
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _held_by_another_thread(future: object) -> bool:
    """Whether ``future``'s lock is held (tried from a thread of its own, as the pool's
    thread would take it to hand back a result)."""
    import threading

    took: list[bool] = []

    def probe() -> None:
        lock = future._condition  # type: ignore[attr-defined]
        got = lock.acquire(timeout=1.0)
        took.append(got)
        if got:
            lock.release()

    thread = threading.Thread(target=probe)
    thread.start()
    thread.join()
    return not took[0]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT],
                         ids=["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_signal_during_the_wait_stops_it_and_leaves_no_lock_held(signum: int) -> None:
    """The stopping signal comes while the parent waits on many futures (the wait takes their
    locks one by one, where a signal once left some held and the pool's thread hung at exit):
    it ends the wait with the shell's status, and every future can still be finished."""
    import threading
    from concurrent.futures import Future

    from pepper_tutor.analysis.workers import stopping_on_signals, wait_first

    futures: list[Future[int]] = [Future() for _ in range(200)]
    sender = threading.Timer(0.3, os.kill, (os.getpid(), signum))
    # The signal at its default for the test, whatever the run inherited (nohup ignores
    # SIGHUP, a background job SIGINT): stopping_on_signals keeps an ignored signal ignored.
    default = signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL
    inherited = signal.signal(signum, default)
    try:
        with stopping_on_signals():
            sender.start()
            with pytest.raises((SystemExit, KeyboardInterrupt)) as stopped:
                wait_first(futures)
        sender.join()
    finally:
        signal.signal(signum, inherited)
    if signum == signal.SIGINT:
        assert stopped.type is KeyboardInterrupt
    else:
        assert stopped.type is SystemExit and stopped.value.code == 128 + signum
    assert not any(_held_by_another_thread(f) for f in futures)
    futures[0].set_result(1)  # what the pool's thread does: it must not block


def test_the_wait_returns_what_is_done() -> None:
    from concurrent.futures import Future

    from pepper_tutor.analysis.workers import wait_first

    waiting: Future[int] = Future()
    done: Future[int] = Future()
    done.set_result(3)
    assert wait_first([waiting, done]) == {done}


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads /proc")
def test_a_process_started_for_the_pool_begins_deaf_to_ctrl_c() -> None:
    """Ctrl-C to the whole terminal while a worker is still importing must not print its
    traceback: a process started inside starting_workers begins with Ctrl-C held back, and
    this process has it back as before once the block ends."""
    from pepper_tutor.analysis.workers import starting_workers

    def held(status: str) -> bool:
        mask = next(line for line in status.splitlines() if line.startswith("SigBlk:"))
        return bool(int(mask.split()[1], 16) & (1 << (signal.SIGINT - 1)))

    with starting_workers():
        child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                                 stdin=subprocess.PIPE)
    try:
        assert held(Path(f"/proc/{child.pid}/status").read_text())
        assert not held(Path("/proc/self/status").read_text())
    finally:
        child.communicate(b"")


_WRITTEN: Any = None  # an Event the forked worker inherits (one cannot be sent to it)


def _write_half_a_result_then_wait() -> None:
    """A pool's task that does what a worker does when it is stopped halfway through
    handing back a big result: the result's length and its first bytes are in the pipe, the
    rest never comes (the worker waits, as one does for the reader to drain the pipe)."""
    import struct

    frame = sys._getframe()
    while "result_queue" not in frame.f_locals:  # concurrent.futures' _process_worker
        frame = frame.f_back
        assert frame is not None
    writer = frame.f_locals["result_queue"]._writer
    os.write(writer.fileno(), struct.pack("!i", 1 << 20) + b"\x80\x04" + b"x" * 100)
    _WRITTEN.set()
    time.sleep(600)


def _nothing() -> None:
    return None


@pytest.mark.skipif("fork" not in __import__("multiprocessing").get_all_start_methods(),
                    reason="the task reaches its worker's queue through a forked process")
def test_stopping_a_pool_whose_worker_was_halfway_through_a_result_ends_its_thread() -> None:
    """The pool's own thread, left reading the rest of a result its worker will never
    write, ends once the pool is stopped (before, it read for ever, and the process waited
    for it at exit: `analyse --workers 2` then hung after Ctrl-C)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from pepper_tutor.analysis.workers import start_worker, stop_now

    global _WRITTEN
    context = multiprocessing.get_context("fork")
    _WRITTEN = written = context.Event()
    pool = ProcessPoolExecutor(1, mp_context=context, initializer=start_worker,
                               initargs=(os.getpid(),))
    pool.submit(_nothing).result(timeout=120)
    pool.submit(_write_half_a_result_then_wait)
    assert written.wait(timeout=120), "the task never ran"
    thread = pool._executor_manager_thread  # type: ignore[attr-defined]
    reader = pool._result_queue  # type: ignore[attr-defined]
    assert thread is not None and thread.is_alive()
    try:
        stop_now(pool)
        # already over: the interpreter's exit, waking it through a pipe it is closing,
        # would print a traceback (see stop_now)
        assert not thread.is_alive(), "the pool's thread still reads a result nobody writes"
    finally:
        if thread.is_alive():  # so that a failure does not hang the test run at exit too
            reader._writer.close()
            thread.join()
