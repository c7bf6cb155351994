"""Issue 27's edges: bad command-line values refused before anything happens (exit 2, no
traceback, the host's secret link never printed), and analysis workers that end with their
parent whatever ends it."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, home: Path, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PEPPER_TUTOR_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "pepper_tutor", *args], capture_output=True,
                          text=True, timeout=timeout, env=env)


def refused(proc: subprocess.CompletedProcess[str], message: str) -> None:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    assert "/h/" not in proc.stdout and "Host" not in proc.stdout  # no secret link printed
    errors = [line for line in proc.stderr.splitlines() if "error" in line or "pepper-tutor:"
              in line]
    assert len(errors) == 1 and message in errors[0], proc.stderr


@pytest.mark.parametrize("args,message", [
    (["--port", "70000"], "a port is from 1 to 65535, not 70,000"),
    (["--port", "0"], "a port is from 1 to 65535"),
    (["--port", "eighty"], "expected a whole number"),
    (["--lan", "--address", "not an address"], "expected an IP address or a host name"),
    (["--lan", "--address", "no-such-host.invalid"], "no host of that name"),
    (["--name", "x" * 300], "at most 64 characters, not 300"),
    (["--name", "..."], "cannot name a night"),
])
def test_night_refuses_bad_values_before_printing_anything(tmp_path: Path, args: list[str],
                                                           message: str) -> None:
    pytest.importorskip("uvicorn")
    refused(run("night", *args, home=tmp_path), message)
    assert not (tmp_path / "nights").exists() or not list((tmp_path / "nights").iterdir())


def test_night_on_a_port_in_use_is_one_line_and_no_link(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = run("night", "--port", str(port), home=tmp_path)
    refused(proc, f"port {port} is in use by another program")


def test_night_path_refuses_a_name_too_long_for_a_file() -> None:
    from pepper_tutor.apps.night import night_path

    with pytest.raises(ValueError, match="at most 64 characters"):
        night_path("n" * 300)


@pytest.mark.parametrize("args,message", [
    (["--samples", "1" + "0" * 30], "--samples: must be from 1 to 10,000"),
    (["--samples", "0"], "--samples: must be from 1 to 10,000, not 0"),
    (["--samples", "10^30"], "--samples: expected a whole number"),
    (["--auto", "--hands", "1" + "0" * 12], "--hands: must be from 1 to 10,000"),
    (["--auto", "--hands", "0"], "--hands: must be from 1 to 10,000, not 0"),
])
def test_play_caps_its_counts_like_analyse(tmp_path: Path, args: list[str], message: str
                                           ) -> None:
    refused(run("play", *args, home=tmp_path, timeout=20), message)


# ---- workers end with their parent -------------------------------------------------------


def _position(tmp_path: Path) -> Path:
    import yaml

    record = yaml.safe_load((ROOT / "pepper_tutor" / "data" / "hands" / "exchange-made.yaml")
                            .read_text())
    position = {k: record[k] for k in ("format", "rules", "dealer", "deal")}
    position["auction"] = ["pass"]
    path = tmp_path / "position.yaml"
    path.write_text(yaml.safe_dump(position))
    return path


def _start_analysis(tmp_path: Path) -> tuple[subprocess.Popen[bytes], set[int]]:
    """``analyse --workers 2`` on many samples, once both workers are at work."""
    from tests.test_analysis_interrupt import _children

    proc = subprocess.Popen([sys.executable, "-m", "pepper_tutor", "analyse",
                             str(_position(tmp_path)), "--samples", "10000", "--workers", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"},
                            start_new_session=True)
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline and len(workers) < 2:
        time.sleep(0.2)
        workers = _children(proc.pid)
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
    assert len(workers) >= 2, "the worker processes never started"
    time.sleep(0.5)
    return proc, _children(proc.pid)


def _gone_within(pids: set[int], seconds: float) -> list[int]:
    from tests.test_analysis_interrupt import _alive

    end = time.monotonic() + seconds
    while time.monotonic() < end and any(_alive(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if _alive(p)]


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table in /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL],
                         ids=["SIGTERM", "SIGHUP", "SIGKILL"])
def test_the_workers_end_when_the_parent_does(tmp_path: Path, signum: int) -> None:
    proc, children = _start_analysis(tmp_path)
    try:
        os.kill(proc.pid, signum)  # the parent alone: nothing tells the workers but it
        proc.wait(timeout=10)
        left = _gone_within(children, 3.0)
        assert not left, f"still running 3 s after {signal.Signals(signum).name}: {left}"
        # SIGTERM and SIGHUP: a clean exit with the shell's status; SIGKILL: killed.
        assert proc.returncode == (128 + signum if signum != signal.SIGKILL else -signum)
        if signum != signal.SIGKILL:
            assert b"Traceback" not in (proc.stderr.read() if proc.stderr else b"")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)  # whatever the test left of the group
