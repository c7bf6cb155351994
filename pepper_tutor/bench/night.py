"""Load test of game night on loopback: phones joining and answering while hands are entered,
the host's page and the projector open, and a table of four phones playing.

``python -m pepper_tutor.bench.night [--phones 200] [--duration 60]`` starts the server in a
child process on 127.0.0.1 (never any other address), joins the phones (each with its own
cookies and its own server-sent-events stream, as a real phone has), and for the given time
asks a question every few seconds, which every phone answers when its stream says so, while
a scorekeeper enters hands, the host's page and the projector redraw what each event names,
and four more phones play hands at the table. It stops by itself, then checks that every
acknowledged answer and hand is in the night's file once and prints the answer latency, how
long a new question took to reach every phone, the host page's update time, the server's
memory and its CPU, and how much of a core the simulated phones took and how long either side
waited for a core (on a shared machine the latencies are the server's only where both are low).
The phones speak plain HTTP through :mod:`.loopback`, which costs far less than a full client.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
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

from .loopback import Device

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
    reach_ms: list[float] = field(default_factory=list)  # a new question to every phone
    host_ms: list[float] = field(default_factory=list)  # an event to the host's part redrawn
    projector_ms: list[float] = field(default_factory=list)
    table_hands: int = 0  # hands the table of four phones finished and put on the sheet
    table_plays: int = 0
    errors: list[str] = field(default_factory=list)
    rss_kib: int = 0
    peak_kib: int = 0
    cpu: float = 0.0  # the server's CPU time over the run's wall time (1.0: one core)
    cpu_s: float = 0.0  # the server's CPU seconds over the run
    # On a shared machine the figures are only the server's when the load generator kept up
    # and neither side stood waiting for a core: both are measured, per second of the run.
    client_cpu: float = 0.0  # the simulated phones' own CPU (this process)
    server_waited: float = 0.0  # seconds the server's threads were ready but not running
    client_waited: float = 0.0

    @property
    def lost(self) -> int:
        return (self.answers_acked - self.answers_stored) + (self.hands_acked - self.hands_stored)

    def line(self) -> str:
        ms = sorted(self.answer_ms) or [0.0]
        own = sorted(self.server_ms) or [0.0]
        reach = sorted(self.reach_ms) or [0.0]
        host = sorted(self.host_ms) or [0.0]
        proj = sorted(self.projector_ms) or [0.0]
        return (f"night load: {self.phones} phones for {self.seconds:.0f} s, "
                f"{self.questions} question{'' if self.questions == 1 else 's'}, "
                f"{self.answers_acked} answers and "
                f"{self.hands_acked} hands acknowledged, {self.refused} refused (closed), "
                f"{self.lost} lost; answer latency p50 {_pct(ms, 50):.1f} ms, p95 "
                f"{_pct(ms, 95):.1f} ms, max {ms[-1]:.1f} ms (in the server: p50 "
                f"{_pct(own, 50):.1f} ms, p95 {_pct(own, 95):.1f} ms); a new question on "
                f"every phone p50 {_pct(reach, 50):.0f} ms, p95 {_pct(reach, 95):.0f} ms; "
                f"host page updates p50 {_pct(host, 50):.0f} ms, p95 {_pct(host, 95):.0f} ms, "
                f"projector p95 {_pct(proj, 95):.0f} ms; table: {self.table_hands} hands, "
                f"{self.table_plays} taps; server memory {self.rss_kib / 1024:.0f} MiB "
                f"(peak {self.peak_kib / 1024:.0f} MiB), CPU {self.cpu * 100:.0f}% of a core, "
                f"{self.cpu_s:.1f} s "
                f"(the phones' own {self.client_cpu * 100:.0f}%); waiting for a core: "
                f"server {self.server_waited * 100:.0f}%, phones {self.client_waited * 100:.0f}%")


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
    app = create_app(store, NightConfig(f"http://{HOST}:{port}", "load", join_limit=10_000,
                                        room_join_limit=10_000))
    # Through the one writer: the load test reads these as soon as room-code exists, so each
    # must appear whole.
    write_text(home / "host-token", store.host_token)
    write_text(home / "room-code", store.room_code)
    uvicorn.run(app, host=HOST, port=port, log_level="warning", access_log=False,
                timeout_graceful_shutdown=2, timeout_keep_alive=KEEP_ALIVE)


async def _load(port: int, home: Path, phones: int, duration: float,
                result: LoadResult) -> None:
    def client() -> Device:
        return Device(port)

    token = (home / "host-token").read_text()
    code = (home / "room-code").read_text()
    host = client()
    await host.get(f"/h/{token}", follow=True)
    host_csrf = host.cookies["pt_csrf"]
    stop = asyncio.Event()
    listening: list[int] = []
    rng = random.Random(7)
    asked: dict[str, float] = {}
    in_flight = [0]  # answers sent and not yet acknowledged: waited for before the end
    reached: dict[str, list[float]] = {}

    async def phone(i: int) -> None:
        async with client() as c:
            await c.get("/")
            csrf = c.cookies["pt_csrf"]
            r = await c.post("/join", {"csrf": csrf, "code": code, "name": f"phone {i}"}, JSON)
            if r.status != 200:
                result.errors.append(f"join {i}: {r.status} {r.text[:80]}")
                return
            seen: set[str] = set()
            async with contextlib.aclosing(c.lines("/events?parts=quiz,sheet")) as events:
                async for line in events:
                    if line.startswith("retry"):  # the stream is open: the phone listens
                        listening.append(i)
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
                    if q.group(1) in asked:  # how long the question took to reach it
                        reached.setdefault(q.group(1), []).append(
                            (time.perf_counter() - asked[q.group(1)]) * 1000)
                    await asyncio.sleep(rng.random() * 1.5)  # people read, then tap
                    start = time.perf_counter()
                    in_flight[0] += 1
                    try:
                        r = await c.post("/quiz/answer", {
                            "csrf": csrf, "question": q.group(1), "answer": rng.choice(cards)},
                            JSON)
                    finally:
                        in_flight[0] -= 1
                    took = (time.perf_counter() - start) * 1000
                    if r.status == 200:
                        result.answer_ms.append(took)
                        timing = re.search(r"dur=([\d.]+)", r.headers.get("server-timing", ""))
                        if timing:
                            result.server_ms.append(float(timing.group(1)))
                        result.answers_acked += 1
                    elif r.status == 409:
                        result.refused += 1  # the question closed first: refused, not lost
                    else:
                        result.errors.append(f"answer: {r.status} {r.text[:80]}")

    async def scorekeeper() -> None:
        async with client() as c:
            await c.get("/")
            csrf = c.cookies["pt_csrf"]
            r = await c.post("/join", {"csrf": csrf, "code": code, "name": "keeper"}, JSON)
            player = json.loads(r.text)["player"]
            await host.post("/players/scorekeeper",
                            {"csrf": host_csrf, "player": str(player), "on": "1"}, JSON)
            while not stop.is_set():
                page = (await c.get("/part/sheet")).text
                found = re.search(r'data-sheet-version="(\d+)"', page)
                version = found.group(1) if found else "0"
                in_flight[0] += 1
                try:
                    r = await c.post("/sheet/add", {
                        "csrf": csrf, "version": version, "bidder": "N", "bid": "3",
                        "trump": "H", "mode": "partner", "defense": "play", "tricks": "3"},
                        JSON)
                finally:
                    in_flight[0] -= 1
                if r.status == 200:
                    result.hands_acked += 1
                elif "match is over" in r.text:
                    await host.post("/sheet/new", {
                        "csrf": host_csrf, "version": version, "preset": "standard"}, JSON)
                elif r.status != 409:
                    result.errors.append(f"hand: {r.status} {r.text[:80]}")
                await asyncio.sleep(2.0)

    # every seat kept for the table's four phones: the first hand is dealt as the last sits
    r = await host.post("/table/open", {"csrf": host_csrf, "level": "beginner",
                                        **{f"people_{seat}": "1" for seat in "NESW"}}, JSON)
    if r.status != 200:
        result.errors.append(f"table: {r.status} {r.text[:80]}")
    tasks = [asyncio.create_task(phone(i)) for i in range(phones)]
    tasks.append(asyncio.create_task(scorekeeper()))
    tasks.append(asyncio.create_task(_screen(client(), token, HOST_PARTS, result.host_ms,
                                             stop)))
    tasks.append(asyncio.create_task(_screen(client(), token, PROJECTOR_PARTS,
                                             result.projector_ms, stop)))
    tasks += [asyncio.create_task(_table_phone(client(), code, seat, result, stop))
              for seat in "NESW"]
    joined_by = time.monotonic() + 60
    while len(listening) < phones and time.monotonic() < joined_by:
        await asyncio.sleep(0.2)  # everyone joined and listening
    await asyncio.sleep(0.5)
    end = time.monotonic() + duration
    kinds = ("tricks",)
    while time.monotonic() + 4.0 <= end:
        start = time.perf_counter()
        try:
            r = await host.post("/quiz/ask", {
                "csrf": host_csrf, "kind": kinds[result.questions % len(kinds)]}, JSON)
        except (OSError, asyncio.IncompleteReadError) as err:  # dropped: ask again next round
            result.errors.append(f"ask: {err!r}")
            continue
        if r.status == 200:
            result.questions += 1
            found = re.search(r"Question (\d+)", json.loads(r.text).get("message", ""))
            if found:
                asked[found.group(1)] = start
        await asyncio.sleep(4.0)
    await asyncio.sleep(2.5)  # the last answers come in
    await host.post("/quiz/close", {"csrf": host_csrf}, JSON)
    stop.set()
    await asyncio.sleep(1.0)
    settle = time.monotonic() + 30  # an answer stored but not yet acknowledged is not lost
    while in_flight[0] and time.monotonic() < settle:
        await asyncio.sleep(0.1)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await host.aclose()
    # a question reached the room when it reached its last phone
    result.reach_ms = [max(times) for times in reached.values()]


# What the host's page and the projector redraw on each event (as host.html and
# projector.html say).
HOST_PARTS: dict[str, tuple[str, ...]] = {
    "quiz": ("quiz-host", "players"), "answers": ("quiz-host",),
    "players": ("quiz-host", "players"), "sheet": ("sheet", "entry", "matches"),
    "table": ("table-host",), "room": ("room", "room-code")}
PROJECTOR_PARTS: dict[str, tuple[str, ...]] = {"quiz": ("projector",), "answers": ("projector",),
                   "players": ("projector",), "room": ("projector",), "table": ("projector",)}


async def _screen(c: Device, token: str, parts: dict[str, tuple[str, ...]],
                  took: list[float], stop: asyncio.Event) -> None:
    """A host screen kept open: on each event it redraws the parts the event names, and how
    long from the event to the last of them drawn is noted."""
    async with c:
        await c.get(f"/h/{token}", follow=True)
        stream = c.lines("/events?parts=" + ",".join(parts))
        async with contextlib.aclosing(stream) as events:
            async for line in events:
                if stop.is_set():
                    break
                if not line.startswith("event: "):
                    continue
                start = time.perf_counter()
                for name in parts.get(line[7:], ()):
                    await c.get(f"/part/{name}")
                took.append((time.perf_counter() - start) * 1000)


async def _table_phone(c: Device, code: str, seat: str, result: LoadResult,
                       stop: asyncio.Event) -> None:
    """A phone at the table: it sits, and on its turn taps its first choice (a card the
    rules refuse is followed by the next); after a hand it deals the next."""
    async with c:
        await c.get("/")
        csrf = c.cookies["pt_csrf"]
        await c.post("/join", {"csrf": csrf, "code": code, "name": f"table {seat}"}, JSON)
        await c.post("/table/claim", {"csrf": csrf, "seat": seat}, JSON)
        async with contextlib.aclosing(c.lines("/events?parts=table")) as events:
            async for line in events:
                if stop.is_set():
                    break
                # the stream's start and its keepalives too: a real phone looks at the
                # table when it opens it, and every few seconds (the table's heartbeat)
                if line != "event: table" and not line.startswith(("retry", ": keepalive")):
                    continue
                page = (await c.get("/part/table-phone")).text
                if 'class="after-hand"' in page and seat == "N":
                    r = await c.post("/table/deal", {"csrf": csrf}, JSON)
                    result.table_hands += r.status == 200
                    continue
                if 'class="your-turn"' not in page:
                    continue
                choices = re.findall(r'name="action" value="([^"]+)"', page)
                choices.sort(key=lambda a: a == "bid:pass")  # bid if it may: cards get played
                for action in choices:
                    r = await c.post("/table/play", {"csrf": csrf, "action": action}, JSON)
                    if r.status == 200:
                        result.table_plays += 1
                        break
                    if r.status >= 500:
                        result.errors.append(f"table play: {r.status} {r.text[:80]}")
                        break


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
            cpu, wall = _cpu(proc.pid), time.monotonic()
            own, ran = time.process_time(), _sched(proc.pid)
            _run_apart(asyncio.wait_for(
                _load(port, home, phones, duration, result),
                duration + 90))
            wall = time.monotonic() - wall
            result.cpu_s = _cpu(proc.pid) - cpu
            result.cpu = result.cpu_s / wall
            result.client_cpu = (time.process_time() - own) / wall
            ended = _sched(proc.pid)
            result.server_waited = (ended[0] - ran[0]) / wall
            result.client_waited = (ended[1] - ran[1]) / wall
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
        result.hands_stored = db.execute("SELECT COUNT(*) FROM hands WHERE entered_by != "
                                         "'table'").fetchone()[0]
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


def _cpu(pid: int) -> float:
    """Seconds of CPU a process has used (user and system), from /proc (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _sched(server: int) -> tuple[float, float]:
    """Seconds the server's threads and this process's threads have spent ready to run but
    waiting for a core (Linux ``schedstat``; 0 where it is not kept). A thread that ended
    takes its share with it, so this is a floor."""
    def waited(pid: int) -> float:
        total = 0
        for task in Path(f"/proc/{pid}/task").glob("*"):
            with contextlib.suppress(OSError, IndexError, ValueError):  # a thread just ended
                total += int((task / "schedstat").read_text().split()[1])
        return total / 1e9
    return waited(server), waited(os.getpid())


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex((HOST, port)) == 0


def bench_night_load(seconds: float) -> str:
    return run_load(200, max(10.0, seconds * 5)).line()


def benches() -> list[Any]:
    return [bench_night_load]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m pepper_tutor.bench.night",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    from ..apps.commands import counted

    parser.add_argument("--phones", type=counted(1, 2000), default=200)
    parser.add_argument("--duration", type=counted(1, 3600), default=60.0,
                        help="seconds of questions (1 to 3,600)")
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
