"""The puzzles played out (``bench playouts``): a valuation of the bank's answers the bank did
not make, paired, seeded, the same wherever it runs."""

from __future__ import annotations

from pepper_tutor.bench.playouts import Playout, PlayoutTask, playout, sample, summary
from pepper_tutor.teaching.puzzles.bank import bank_puzzles


def test_a_puzzle_is_played_out_the_same_every_time_one_figure_a_deal() -> None:
    puzzle = next(p for p in bank_puzzles() if p.kind == "play")
    task = PlayoutTask(puzzle.id, deals=3, level="reference", seed=4)
    first, again = playout(task), playout(task)
    assert first == again
    assert first.puzzle == puzzle.id and first.kind == "play"
    assert len(first.diffs) == 3
    assert all(d == int(d) for d in first.diffs)  # whole points of one hand, paired
    other_seed = playout(PlayoutTask(puzzle.id, deals=3, level="reference", seed=5))
    assert other_seed.diffs[0] == first.diffs[0]  # deal 0 is the puzzle's own cards


def test_the_summary_counts_what_held_and_what_the_playouts_contradict() -> None:
    rows = [Playout((2.0, 4.0, 3.0), "a", "play"),  # held
            Playout((0.0, 0.0, 0.0), "b", "play"),  # a tie holds
            Playout((-5.0, -6.0, -5.5, -4.0), "c", "play")]  # clearly worse
    s = summary(rows)
    assert s["puzzles"] == 3
    assert s["held"] == 2 / 3
    assert s["contradicted"] == 1
    assert s["low"] < s["mean"] < s["high"]
    assert not rows[0].contradicted and not rows[1].contradicted and rows[2].contradicted


def test_the_sample_is_a_lottery_on_the_ids_the_same_every_time() -> None:
    puzzles = bank_puzzles()
    chosen = sample(puzzles, 0.2)
    assert chosen == sample(list(reversed(puzzles)), 0.2)[::-1]
    assert 0.15 * len(puzzles) < len(chosen) < 0.25 * len(puzzles)
    assert {p.id for p in sample(puzzles, 0.1)} <= {p.id for p in chosen}
