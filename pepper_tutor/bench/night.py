"""Load test of game night on loopback: phones joining and answering while hands are entered.

``python -m pepper_tutor.bench.night [--phones 50] [--duration 60]`` starts the server in a
child process on 127.0.0.1 (never any other address), joins the phones (each with its own
cookies and its own server-sent-events stream, as a real phone has), and for the given time
asks a question every few seconds, which every phone answers when its stream says so, while
a scorekeeper enters hands. It stops by itself, then checks that every acknowledged answer
and hand is in the night's file and prints the answer latency and the server's memory.
Needs ``httpx`` (a development dependency).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["run_load", "LoadResult", "benches"]

HOST = "127.0.0.1"
JSON = {"Accept": "application/json"}


@dataclass
class LoadResult:
    phones: int
    seconds: float
    questions: int = 0
    answer_ms: list[float] = field(default_factory=list)
    server_ms: list[float] = field(default_factory=list)  # the server's own share
    answers_acked: int = 0
    answers_stored: int = 0
    hands_acked: int = 0
    hands_stored: int = 0
    refused: int = 0
    errors: list[str] = field(default_factory=list)
    rss_kib: int = 0
    peak_kib: int = 0

    @property
    def lost(self) -> int:
        return (self.answers_acked - self.answers_stored) + (self.hands_acked - self.hands_stored)

    def line(self) -> str:
        ms = sorted(self.answer_ms) or [0.0]
        own = sorted(self.server_ms) or [0.0]
        return (f"night load: {self.phones} phones for {self.seconds:.0f} s, "
                f"{self.questions} question{'' if self.questions == 1 else 's'}, "
                f"{self.answers_acked} answers and "
                f"{self.hands_acked} hands acknowledged, {self.refused} refused (closed), "
                f"{self.lost} lost; answer latency p50 {_pct(ms, 50):.1f} ms, p95 "
                f"{_pct(ms, 95):.1f} ms, max {ms[-1]:.1f} ms (in the server: p50 "
                f"{_pct(own, 50):.1f} ms, p95 {_pct(own, 95):.1f} ms); server memory "
                f"{self.rss_kib / 1024:.0f} MiB (peak {self.peak_kib / 1024:.0f} MiB)")


def _pct(ordered: list[float], p: int) -> float:
    if p == 50:
        return float(statistics.median(ordered))
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _memory(pid: int) -> tuple[int, int]:
    """(resident, peak resident) KiB of a process, from /proc (Linux)."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0, 0
    found = dict(re.findall(r"^(VmRSS|VmHWM):\s+(\d+) kB", text, re.M))
    return int(found.get("VmRSS", 0)), int(found.get("VmHWM", 0))


def serve(port: int, home: Path) -> None:
    """The server as ``pepper-tutor night`` runs it, with joins not limited per address:
    on loopback every simulated phone has the same address."""
    import uvicorn

    from ..apps.night import KEEP_ALIVE, night_path
    from ..apps.night.server import NightConfig, create_app
    from ..apps.night.store import NightStore
    from ..files.writing import write_text

    os.environ["PEPPER_TUTOR_HOME"] = str(home)
    store = NightStore(night_path("load"))
    app = create_app(store, NightConfig(f"http://{HOST}:{port}", "load", join_limit=10_000))
    # Through the one writer: the load test reads these as soon as room-code exists, so each
    # must appear whole.
    write_text(home / "host-token", store.host_token)
    write_text(home / "room-code", store.room_code)
    uvicorn.run(app, host=HOST, port=port, log_level="warning", access_log=False,
                timeout_graceful_shutdown=2, timeout_keep_alive=KEEP_ALIVE)


async def _load(base: str, home: Path, phones: int, duration: float,
                result: LoadResult) -> None:
    import httpx

    limits = httpx.Limits(max_connections=4, max_keepalive_connections=4)
    timeout = httpx.Timeout(30.0)

    def client() -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout)

    token = (home / "host-token").read_text()
    code = (home / "room-code").read_text()
    host = client()
    await host.get(f"/h/{token}", follow_redirects=True)
    host_csrf = host.cookies["pt_csrf"]
    stop = asyncio.Event()
    listening: list[int] = []
    rng = random.Random(7)

    async def phone(i: int) -> None:
        async with client() as c:
            await c.get("/")
            csrf = c.cookies["pt_csrf"]
            r = await c.post("/join", data={"csrf": csrf, "code": code, "name": f"phone {i}"},
                             headers=JSON)
            if r.status_code != 200:
                result.errors.append(f"join {i}: {r.status_code} {r.text[:80]}")
                return
            seen: set[str] = set()
            async with c.stream("GET", "/events?parts=quiz,sheet") as events:
                listening.append(i)
                async for line in events.aiter_lines():
                    if stop.is_set():
                        break
                    if line == "event: sheet":  # a phone's page redraws its sheet
                        await c.get("/part/sheet")
                        await c.get("/part/entry")
                        continue
                    if line != "event: quiz":
                        continue
                    page = (await c.get("/part/quiz-phone")).text
                    q = re.search(r'name="question" value="(\d+)"', page)
                    cards = re.findall(r'name="answer" value="(\w+)"', page)
                    if not q or not cards or q.group(1) in seen:
                        continue
                    seen.add(q.group(1))
                    await asyncio.sleep(rng.random() * 1.5)  # people read, then tap
                    start = time.perf_counter()
                    r = await c.post("/quiz/answer", headers=JSON, data={
                        "csrf": csrf, "question": q.group(1), "answer": rng.choice(cards)})
                    took = (time.perf_counter() - start) * 1000
                    if r.status_code == 200:
                        result.answer_ms.append(took)
                        timing = re.search(r"dur=([\d.]+)", r.headers.get("server-timing", ""))
                        if timing:
                            result.server_ms.append(float(timing.group(1)))
                        result.answers_acked += 1
                    elif r.status_code == 409:
                        result.refused += 1  # the question closed first: refused, not lost
                    else:
                        result.errors.append(f"answer: {r.status_code} {r.text[:80]}")

    async def scorekeeper() -> None:
        async with client() as c:
            await c.get("/")
            csrf = c.cookies["pt_csrf"]
            r = await c.post("/join", data={"csrf": csrf, "code": code, "name": "keeper"},
                             headers=JSON)
            player = r.json()["player"]
            await host.post("/players/scorekeeper", headers=JSON,
                            data={"csrf": host_csrf, "player": str(player), "on": "1"})
            while not stop.is_set():
                page = (await c.get("/part/sheet")).text
                found = re.search(r'data-sheet-version="(\d+)"', page)
                version = found.group(1) if found else "0"
                r = await c.post("/sheet/add", headers=JSON, data={
                    "csrf": csrf, "version": version, "bidder": "N", "bid": "3",
                    "trump": "H", "mode": "partner", "defense": "play", "tricks": "3"})
                if r.status_code == 200:
                    result.hands_acked += 1
                elif "match is over" in r.text:
                    await host.post("/sheet/new", headers=JSON, data={
                        "csrf": host_csrf, "version": version, "preset": "standard"})
                elif r.status_code != 409:
                    result.errors.append(f"hand: {r.status_code} {r.text[:80]}")
                await asyncio.sleep(2.0)

    tasks = [asyncio.create_task(phone(i)) for i in range(phones)]
    tasks.append(asyncio.create_task(scorekeeper()))
    joined_by = time.monotonic() + 60
    while len(listening) < phones and time.monotonic() < joined_by:
        await asyncio.sleep(0.2)  # everyone joined and listening
    await asyncio.sleep(0.5)
    end = time.monotonic() + duration
    kinds = ("tricks",)
    while time.monotonic() + 4.0 <= end:
        try:
            r = await host.post("/quiz/ask", headers=JSON, data={
                "csrf": host_csrf, "kind": kinds[result.questions % len(kinds)]})
        except httpx.TransportError as err:  # a dropped connection: ask again next round
            result.errors.append(f"ask: {err!r}")
            continue
        if r.status_code == 200:
            result.questions += 1
        await asyncio.sleep(4.0)
    await asyncio.sleep(2.5)  # the last answers come in
    await host.post("/quiz/close", headers=JSON, data={"csrf": host_csrf})
    stop.set()
    await asyncio.sleep(1.0)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await host.aclose()


def run_load(phones: int = 50, duration: float = 60.0) -> LoadResult:
    """Run the whole load test; it stops by itself after ``duration`` seconds plus start-up."""
    result = LoadResult(phones, duration)
    with tempfile.TemporaryDirectory(prefix="pepper-night-load-") as tmp:
        home = Path(tmp)
        port = _free_port()
        # The server's output, streamed as it runs (not a whole file to replace), in the
        # load test's own temporary folder.
        log = (home / "server.log").open("w")
        proc = subprocess.Popen([sys.executable, "-m", "pepper_tutor.bench.night", "--serve",
                                 str(port), "--home", str(home)],
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            deadline = time.monotonic() + 30
            while not (home / "room-code").exists() or not _listening(port):
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the game-night server did not start: "
                                       + (home / "server.log").read_text()[-2000:])
                time.sleep(0.1)
            _run_apart(asyncio.wait_for(
                _load(f"http://{HOST}:{port}", home, phones, duration, result),
                duration + 60))
            result.rss_kib, result.peak_kib = _memory(proc.pid)
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)  # what Ctrl-C sends
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            log.close()
        from ..files.database import connect

        db = connect(home / "nights" / "load.sqlite")
        result.answers_stored = db.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
        result.hands_stored = db.execute("SELECT COUNT(*) FROM hands").fetchone()[0]
        db.close()
    return result


def _run_apart(coro: Any) -> None:
    """Run the phones in a thread of their own, with their own event loop: the caller may
    already be inside one (a test session that drives a browser)."""
    failed: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(coro)
        except BaseException as err:  # handed back to the caller below
            failed.append(err)

    worker = threading.Thread(target=target, name="night-load")
    worker.start()
    worker.join()
    if failed:
        raise failed[0]


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex((HOST, port)) == 0


def bench_night_load(seconds: float) -> str:
    return run_load(50, max(10.0, seconds * 5)).line()


def benches() -> list[Any]:
    return [bench_night_load]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m pepper_tutor.bench.night",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--phones", type=int, default=50)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of questions")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--home", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.serve, args.home)
        return
    result = run_load(args.phones, args.duration)
    print(result.line())
    for error in result.errors[:10]:
        print("  error:", error)


if __name__ == "__main__":
    main()
