"""The miner: the same puzzles from the same seed on any executor and worker count, each
position once, every puzzle's record stopping at its decision."""

from __future__ import annotations

import pytest

from pepper_tutor.teaching.puzzles.miner import mine, mine_hand, tasks_for
from pepper_tutor.teaching.puzzles.puzzle import Puzzle
from pepper_tutor.teaching.puzzles.validation import kind_of

# Small deal counts: this checks the plumbing, not the puzzles (those are checked in
# tests/test_puzzles_bank.py at the shipped counts).
CHEAP = {"samples": 24, "screen": 8, "kinds": ("play", "defense"), "levels": ("beginner",)}


@pytest.mark.slow
def test_the_local_pool_and_a_two_worker_local_cluster_mine_the_same_puzzles() -> None:
    pytest.importorskip("distributed")
    tasks = tasks_for(200, "executor-test", **CHEAP)
    pool = mine(tasks)  # the default executor: the standard library's pool
    cluster = mine(tasks, "dask-local:2", window=8)
    assert pool.hands == cluster.hands == 200
    assert pool.puzzles, "two hundred hands give some puzzle even at these counts"
    assert [p["id"] for p in pool.puzzles] == [p["id"] for p in cluster.puzzles]
    assert pool.puzzles == cluster.puzzles
    assert len({p["id"] for p in pool.puzzles}) == len(pool.puzzles)
    assert (pool.decisions, pool.candidates) == (cluster.decisions, cluster.candidates)


def test_a_hand_mined_twice_gives_the_same_puzzles_and_each_stops_at_its_decision() -> None:
    found = []
    for task in tasks_for(6, "miner-test", **CHEAP):
        once, again = mine_hand(task), mine_hand(task)
        assert once.puzzles == again.puzzles
        found += once.puzzles
    for data in found:
        puzzle = Puzzle.from_json(data)
        state = puzzle.position()
        assert kind_of(state) == puzzle.kind and state.to_act == puzzle.seat
        legal = {str(a) for a in state.legal_actions()}
        assert set(puzzle.answers) <= legal and puzzle.tempting in legal
        assert puzzle.tempting not in puzzle.answers


def test_a_hand_from_the_history_is_read_back_decision_by_decision() -> None:
    from importlib import resources

    from pepper_tutor.teaching.puzzles.miner import HandTask

    text = resources.files("pepper_tutor").joinpath("data", "hands", "set-bid.yaml").read_text()
    task = HandTask("history", 0, record=text, **CHEAP)
    result = mine_hand(task)
    assert result.decisions > 0  # its play decisions with three or more cards were looked at
    again = mine_hand(task)
    assert again.puzzles == result.puzzles
    assert all(p["made"]["from"] == "history" for p in result.puzzles)


def test_mine_from_an_empty_history_says_so(tmp_path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    from pepper_tutor.apps.cli import main

    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path))
    assert main(["puzzles", "mine", "--from-history", "--out", str(tmp_path / "p.json")]) == 2
    assert "holds no hands yet" in capsys.readouterr().err
