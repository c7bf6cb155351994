"""Tournament night in the night's store: every result and undo written in its transaction,
so reopening the file (or kill -9 at any moment) finds the tournament as it was left."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from pepper_tutor.apps.night.store import NightError, NightStore
from pepper_tutor.records.bracket import Bracket
from pepper_tutor.records.movement import Movement
from pepper_tutor.records.teams import EnteredTwice, WrongWinner, draw_teams
from pepper_tutor.records.tournament import Tournament


def players(n: int) -> list[str]:
    return [f"Player {i}" for i in range(n)]


def next_result(t: Tournament, rng: random.Random) -> tuple[str, int, tuple[int, int]]:
    """A valid result for one of the games that can be played now."""
    if isinstance(t, Bracket):
        game = rng.choice(t.ready())
        a, b = game.teams
        assert a is not None and b is not None
        teams = (a, b)
        gid = game.id
    else:
        table = rng.choice([g for g in t.plan()[t.current - 1].tables if g.result is None])
        teams, gid = table.teams, table.id
    winner = rng.randrange(2)
    high, low = rng.randint(31, 40), rng.randint(-10, 30)
    return gid, teams[winner], ((high, low) if winner == 0 else (low, high))


@pytest.mark.parametrize("start", [
    Bracket(draw_teams(players(14), 3), seed=3),
    Movement(draw_teams(players(10), 4), rounds=4, minutes=30, move="winners", seed=4),
    Movement(draw_teams(players(12), 5), rounds=3, minutes=20, move="all", seed=5),
], ids=["bracket of 7", "winners move, 5 teams", "all move, 6 teams"])
def test_reopened_after_every_step_the_tournament_is_as_it_was_left(
        tmp_path: Path, start: Tournament) -> None:
    path = tmp_path / "night.sqlite"
    store = NightStore(path)
    assert store.tournament() is None
    store.start_tournament(start)
    rng = random.Random(1)
    expected = start
    steps = 0
    while not expected.over:
        if steps % 5 == 4:  # now and then the host takes the last result back
            expected = expected.undo()
            assert store.undo_result() == expected
        else:
            game, winner, scores = next_result(expected, rng)
            expected = expected.record(game, winner, scores)
            assert store.record_result(game, winner, scores) == expected
        steps += 1
        # The old store is not closed: as after a crash, the file alone has to hold it.
        store = NightStore(path)
        assert store.warning is None
        assert store.tournament() == expected
    assert steps > 10


def test_the_store_refuses_as_the_tournament_does_and_writes_nothing(tmp_path: Path) -> None:
    store = NightStore(tmp_path / "night.sqlite")
    with pytest.raises(NightError, match="no tournament has been started"):
        store.record_result("W1-1", 0)
    store.start_tournament(Bracket(draw_teams(players(8), 1)))
    store.record_result("W1-1", 0, (31, 3))
    kept = store.tournament()
    with pytest.raises(EnteredTwice):
        store.record_result("W1-1", 3)
    with pytest.raises(WrongWinner):
        store.record_result("W1-2", 0)
    assert NightStore(store.path).tournament() == kept
    with pytest.raises(NightError, match=r"a tournament is under way \(1 result entered\)"):
        store.start_tournament(Bracket(draw_teams(players(8), 2)))
    store.start_tournament(Bracket(draw_teams(players(8), 2)), replace=True)
    assert store.tournament() == Bracket(draw_teams(players(8), 2))
    store.end_tournament()
    assert store.tournament() is None


def _enter_forever(path: str, acked: Any) -> None:
    store = NightStore(Path(path))
    rng = random.Random(os.getpid())
    while True:
        t = store.tournament()
        assert t is not None
        if t.over or (rng.random() < 0.2 and t.results):
            t = store.undo_result()
        else:
            t = store.record_result(*next_result(t, rng))
        acked.value = len(t.results)  # the server would answer the host now


def test_kill_9_while_results_are_entered_loses_nothing_and_leaves_a_tournament(
        tmp_path: Path) -> None:
    path = tmp_path / "night.sqlite"
    NightStore(path).start_tournament(Bracket(draw_teams(players(16), 9)))
    ctx = multiprocessing.get_context("fork")  # forked: no import time, so kills land in work
    rng = random.Random(34)
    moved = 0
    last = NightStore(path).tournament()
    for _ in range(10):
        acked = ctx.Value("i", len(last.results) if last else 0)
        child = ctx.Process(target=_enter_forever, args=(str(path), acked))
        child.start()
        time.sleep(rng.uniform(0.05, 0.3))
        os.kill(child.pid or 0, signal.SIGKILL)
        child.join(10)
        assert child.exitcode == -signal.SIGKILL
        store = NightStore(path)
        assert store.warning is None
        con = sqlite3.connect(path)
        assert con.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        con.close()
        now = store.tournament()  # read whole and every result checked again
        assert isinstance(now, Bracket)
        # Every change acknowledged is there; at most the one in flight when the kill came
        # was committed without being acknowledged.
        assert len(now.results) - acked.value in (-1, 0, 1)
        moved += now != last
        last = now
        store.close()
    assert moved >= 5  # the kills landed among results, not only before the first
