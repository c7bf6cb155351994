"""The executor seam of batch work: one name for the standard pool or a Dask cluster, results
in task order whatever the workers, a killed worker's task run again once, and a stop that
ends the workers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pepper_tutor.analysis.executors import (
    ExecutorError,
    ExecutorSpec,
    open_executor,
    parse_executor,
    run_indexed,
)


def test_executor_names() -> None:
    assert parse_executor(None) == ExecutorSpec("local")
    assert parse_executor("local:3") == ExecutorSpec("local", 3)
    assert parse_executor("dask-local:2") == ExecutorSpec("dask-local", 2)
    assert parse_executor("dask://10.0.0.5:8786") == ExecutorSpec("dask",
                                                                  address="10.0.0.5:8786")
    assert str(parse_executor("dask://sched:8786")) == "dask://sched:8786"
    for bad in ("ray", "local:0", "local:x", "dask://nohost", "dask-local:-1"):
        with pytest.raises(ExecutorError, match="--executor"):
            parse_executor(bad)


def square_later(n: int) -> int:
    time.sleep(0.05 * ((7 * n) % 3))  # finish out of order
    return n * n


def die_once(task: tuple[str, int]) -> tuple[int, int]:
    """Kills its own worker the first time it meets index 2 (a marker file says so)."""
    folder, n = task
    marker = Path(folder) / f"died-{n}"
    if n == 2 and not marker.exists():
        marker.write_text(str(os.getpid()))
        os.kill(os.getpid(), signal.SIGKILL)
    return n, os.getpid()


def test_results_come_back_in_task_order_on_the_local_pool() -> None:
    seen: list[int] = []
    with open_executor("local:2") as executors:
        out = run_indexed(executors, square_later, list(range(9)),
                          lambda i, _r: seen.append(i), window=3)
    assert out == [n * n for n in range(9)]
    assert sorted(seen) == list(range(9))


def test_a_killed_local_worker_loses_and_doubles_nothing(tmp_path: Path) -> None:
    calls: list[int] = []
    with open_executor("local:2") as executors:
        out = run_indexed(executors, die_once, [(str(tmp_path), n) for n in range(6)],
                          lambda i, _r: calls.append(i))
    assert [n for n, _pid in out] == list(range(6))
    assert sorted(calls) == list(range(6))  # each index reported once
    assert (tmp_path / "died-2").exists()


@pytest.mark.slow
def test_a_dask_local_cluster_gives_the_same_and_survives_a_killed_worker(
        tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    calls: list[int] = []
    with open_executor("dask-local:2") as executors:
        squares = run_indexed(executors, square_later, list(range(9)))
        out = run_indexed(executors, die_once, [(str(tmp_path), n) for n in range(6)],
                          lambda i, _r: calls.append(i))
    assert squares == [n * n for n in range(9)]
    assert [n for n, _pid in out] == list(range(6))
    assert sorted(calls) == list(range(6))
    assert (tmp_path / "died-2").exists()


def test_sigterm_ends_the_job_and_its_workers_at_once(tmp_path: Path) -> None:
    script = tmp_path / "job.py"
    script.write_text(textwrap.dedent("""
        import os, sys, time
        from pepper_tutor.analysis.executors import open_executor, run_indexed

        def spin(n):
            # one write of a whole line (atomic on a pipe): print() writes the number and the
            # newline apart, and two workers' writes could interleave ("12" "34" "\\n" "\\n")
            sys.stdout.write(f"{os.getpid()}\\n")
            sys.stdout.flush()
            end = time.time() + 60
            while time.time() < end:
                pass

        if __name__ == "__main__":
            with open_executor("local:2") as executors:
                run_indexed(executors, spin, list(range(4)))
    """))
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    job = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                           env=env)
    assert job.stdout is not None
    workers = {int(job.stdout.readline()) for _ in range(2)}  # both workers are spinning
    job.send_signal(signal.SIGTERM)
    assert job.wait(timeout=15) == 128 + signal.SIGTERM
    deadline = time.time() + 5
    while time.time() < deadline and any(_alive(p) for p in workers):
        time.sleep(0.1)
    assert not any(_alive(p) for p in workers)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/stat")
    return not (status.exists() and status.read_text().split()[2] == "Z")
