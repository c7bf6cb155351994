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


def test_an_answer_is_classed_as_a_guess_would_name_it() -> None:
    from pepper_tutor.engine.calls import Trump
    from pepper_tutor.teaching.puzzles.classes import class_of, guessed
    from tests.test_puzzles_themes import position

    lead = position(Trump.H, [])  # North leads, holding the right bower J♥
    assert class_of("play", lead, ["JH"]) == "the highest card"
    assert class_of("play", lead, ["AS"]) == "another card"
    assert guessed("play", lead, ["JH"]) and not guessed("play", lead, ["AS"])
    follow = position(Trump.H, ["9C"])  # East follows with Q♣, K♣ or A♣
    assert class_of("play", follow, ["AC"]) == "the highest card"
    assert class_of("discard", follow, ["QC"]) == "the lowest card"
    assert guessed("bid", lead, ["4"])  # no guess names a bid: only slips are mined


@pytest.mark.slow
def test_the_miner_adds_the_positions_whose_answer_the_guess_misses(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A position is mined when the player slipped, and also when its answer is not the
    class its kind's guess names, slip or not: the beginner follows low and takes partner,
    so mining slips alone made the highest card and the exchange the answers."""
    from pepper_tutor.teaching.puzzles import miner
    from pepper_tutor.teaching.puzzles.classes import guessed

    tasks = tasks_for(60, "aim-test", **CHEAP)
    aimed = [p for t in tasks for p in mine_hand(t).puzzles]
    monkeypatch.setattr(miner, "guessed", lambda *_: True)  # slips only, as before
    slips = [p for t in tasks for p in mine_hand(t).puzzles]
    assert {p["id"] for p in slips} <= {p["id"] for p in aimed}
    added = [Puzzle.from_json(p) for p in aimed if p not in slips]
    assert added, "sixty hands give a rare answer that no slip found"
    missed = [p for p in added if not guessed(p.kind, p.position(), p.answers)]
    # (the aim reads the first look's answer; the validated answer agrees nearly always)
    assert len(missed) >= 0.9 * len(added), [(p.id, p.answers) for p in added]


def test_a_puzzle_whose_answer_loses_when_played_out_is_refuted_not_kept(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Each validated puzzle is played out from its answer and its tempting answer by
    expert players; the figures are stored with it, and where the answer scored less the
    puzzle is refuted (kept apart, never shipped), whatever the advice said."""
    from pepper_tutor.analysis.playing_out import PlayedOut
    from pepper_tutor.teaching.puzzles import miner

    tasks = tasks_for(60, "aim-test", **CHEAP)
    results = [mine_hand(t) for t in tasks]
    kept = [p for r in results for p in r.puzzles]
    assert kept, "sixty hands give some puzzle"
    for p in kept:
        figures = p["played_out"]
        assert figures["level"] == "expert" and figures["deals"] == miner.PLAYED_OUT_DEALS
        assert figures["gain"] >= 0 and figures["half"] >= 0
    for p in (p for r in results for p in r.refuted):
        assert p["played_out"]["gain"] < 0
    monkeypatch.setattr(miner, "play_out", lambda *_a, **_k: PlayedOut((-2.0, -1.0, 0.0)))
    again = [mine_hand(t) for t in tasks]
    assert not any(r.puzzles for r in again)
    refuted = [p["id"] for r in again for p in r.refuted]
    assert {p["id"] for p in kept} <= set(refuted)
    assert all(p["played_out"]["gain"] == -1.0 for r in again for p in r.refuted)
