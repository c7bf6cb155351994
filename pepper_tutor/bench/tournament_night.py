"""Benchmark of tournament night: how long the host waits for a result to be entered in the
night's store (checked, written and fsynced), and for a tournament to be read back when the
night's file is opened again, for a large bracket and a short and a very long movement; and
how long the screens take to draw it half way through (the host's tab, the projector and a
phone: each result redraws every one of them)."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ..apps.night.store import NightStore
from ..records.bracket import Bracket
from ..records.movement import Movement
from ..records.teams import draw_teams
from ..records.tournament import Tournament, tournament_from_json

__all__ = ["benches", "bench_tournament_results", "bench_tournament_screens", "SHAPES"]


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def _players(teams: int) -> list[str]:
    return [f"Player {i}" for i in range(2 * teams)]


#: What is measured: a bracket of 64 teams (127 or 128 games), the 55+ Games' movement (16
#: teams, 8 rounds) and a very long one (64 teams, 30 rounds: 960 results).
SHAPES: dict[str, Callable[[], Tournament]] = {
    "bracket 64": lambda: Bracket(draw_teams(_players(64), 1)),
    "movement 16x8": lambda: Movement(draw_teams(_players(16), 1), 8, 30),
    "movement 64x30": lambda: Movement(draw_teams(_players(64), 1), 30, 30),
}


def _one_night(start: Tournament, rng: random.Random) -> tuple[list[float], float]:
    """Enter a whole tournament; the ms of each result and of reading it back afresh."""
    with tempfile.TemporaryDirectory() as home:
        store = NightStore(Path(home) / "night.sqlite")
        store.start_tournament(start)
        times: list[float] = []
        t = start
        while not t.over:
            if isinstance(t, Bracket):
                game = rng.choice(t.ready())
                a, b = game.teams
                assert a is not None and b is not None
                args: tuple[str, int, tuple[int, int] | None] = (game.id, (a, b)[rng.randrange(2)],
                                                                 None)
            else:
                table = rng.choice([g for g in t.plan()[t.current - 1].tables
                                    if g.result is None])
                args = (table.id, table.teams[0], (31, rng.randint(0, 30)))
            t0 = time.perf_counter()
            t = store.record_result(*args)
            times.append((time.perf_counter() - t0) * 1000)
        store.close()
        t0 = time.perf_counter()
        again = NightStore(Path(home) / "night.sqlite")
        assert again.tournament() == t
        reopen = (time.perf_counter() - t0) * 1000
        again.close()
    return times, reopen


def bench_tournament_results(seconds: float) -> str:
    """Each shape run whole at least once, and again while ``seconds`` last."""
    rng = random.Random(5)
    parts = []
    for name, make in SHAPES.items():
        times: list[float] = []
        reopens: list[float] = []
        start = time.perf_counter()
        while not reopens or time.perf_counter() - start < seconds / len(SHAPES):
            some, reopen = _one_night(make(), rng)
            times += some
            reopens.append(reopen)
        parts.append(f"{name}: {statistics.median(times):.1f} ms a result (p95 "
                     f"{_p95(times):.1f}), reopened {statistics.median(reopens):.0f} ms")
    return "tournament night: " + "; ".join(parts)


def _half_way(start: Tournament, rng: random.Random) -> Tournament:
    """``start`` with about half its results entered (winners and scores at random)."""
    t = start
    total = 2 * len(t.teams) - 2 if isinstance(t, Bracket) else t.rounds * t.table_count
    while len(t.results) < total // 2:
        if isinstance(t, Bracket):
            game = rng.choice(t.ready())
            a, b = game.teams
            assert a is not None and b is not None
            t = t.record(game.id, (a, b)[rng.randrange(2)])
        else:
            table = rng.choice([g for g in t.plan()[t.current - 1].tables if g.result is None])
            t = t.record(table.id, table.teams[0], (31, rng.randint(0, 30)))
    return t


def bench_tournament_screens(seconds: float) -> str:
    """Each shape half way through, drawn as the host's tab, the projector and a phone."""
    from ..apps.night.state import Night, NightConfig
    from ..apps.night.tournament import phone_view, shown
    from ..apps.night.tournament_views import last_result
    from ..render.tournament import plan_text

    rng = random.Random(5)
    parts = []
    with tempfile.TemporaryDirectory() as home:
        store = NightStore(Path(home) / "night.sqlite")
        templates = Night.open(store, NightConfig("http://127.0.0.1:8866", "bench")).templates

        def draw(name: str, ctx: dict[str, object]) -> None:
            templates.get_template(name).render({**ctx, "csrf": "x" * 43})

        screens: dict[str, Callable[[Tournament], None]] = {
            "host": lambda t: draw("_tournament-host.html", {
                **shown(t, {}), "plan": plan_text(t), "last": last_result(t),
                "at_table": None, "players": [], "moves": ()}),
            "projector": lambda t: draw("_tournament-projector.html", shown(t, {})),
            "phone": lambda t: draw("_tournament-phone.html",
                                    phone_view(t, t.teams[0].players[0], {})),
        }
        for name, make in SHAPES.items():
            text = _half_way(make(), rng).to_json()
            figures = []
            for screen, drawn in screens.items():
                times: list[float] = []
                start = time.perf_counter()
                while len(times) < 3 or time.perf_counter() - start < seconds / 9:
                    # A value read afresh, nothing worked out yet: the first screen drawn
                    # after a result meets it so (the others share what it worked out).
                    fresh = tournament_from_json(text)
                    t0 = time.perf_counter()
                    drawn(fresh)
                    times.append((time.perf_counter() - t0) * 1000)
                figures.append(f"{screen} {statistics.median(times):.0f} ms")
            parts.append(f"{name}: " + ", ".join(figures))
        store.close()
    return "tournament night's screens half way: " + "; ".join(parts)


def benches() -> list[Callable[[float], str]]:
    return [bench_tournament_results, bench_tournament_screens]
