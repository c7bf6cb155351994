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
                            start_new_session=True)
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
