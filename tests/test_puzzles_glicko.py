"""Glicko-2 against the worked example of Glickman's paper, and the rating of one attempt."""

from __future__ import annotations

import pytest

from pepper_tutor.teaching.puzzles.glicko import TAU, Rating, expected, game, update


def test_the_papers_worked_example() -> None:
    # "Example of the Glicko-2 system" (Glickman): a 1500 player, RD 200, volatility 0.06,
    # beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300), with tau 0.5.
    # The paper rounds as it goes and prints 1464.06, 151.52 and 0.05999; unrounded the
    # steps give 1464.0507 (within 0.01 of the paper's figure).
    after = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
                                              (Rating(1700, 300), 0.0)], tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_lila_uses_tau_three_quarters() -> None:
    assert TAU == 0.75


def test_a_solve_moves_the_learner_up_and_the_puzzle_down_by_the_odds() -> None:
    learner, puzzle = Rating(1500, 200, 0.06), Rating(1700, 100, 0.06)
    won, beaten = game(learner, puzzle, solved=True)
    lost, held = game(learner, puzzle, solved=False)
    assert won.rating > learner.rating > lost.rating
    assert beaten.rating < puzzle.rating < held.rating
    # beating a stronger puzzle is worth more than losing to it costs
    assert won.rating - learner.rating > learner.rating - lost.rating
    assert won.deviation < learner.deviation and lost.deviation < learner.deviation
    assert expected(learner, puzzle) < 0.5 < expected(puzzle, learner)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    idle = update(Rating(1600, 100, 0.06), [])
    assert idle.rating == 1600 and idle.deviation > 100


def test_a_new_puzzles_rating_comes_from_its_margin_and_options() -> None:
    from pepper_tutor.teaching.puzzles.puzzle import seed_rating

    assert seed_rating(1.0, 3) == 1500.0
    assert seed_rating(2.0, 3) == 1300.0  # a clearer answer is easier
    assert seed_rating(1.0, 6) == 1650.0  # more ways to go wrong is harder
    assert 600.0 <= seed_rating(40.0, 2) < seed_rating(1.0, 2) < seed_rating(1.0, 12) <= 2400.0


def test_a_game_that_tells_less_moves_the_ratings_part_of_the_way() -> None:
    from pepper_tutor.teaching.puzzles.glicko import toward

    before, after = Rating(1500, 300, 0.06), Rating(1600, 200, 0.07)
    assert toward(before, after, 1.0) == after and toward(before, after, 0.0) == before
    quarter = toward(before, after, 0.25)
    assert (round(quarter.rating, 6), round(quarter.deviation, 6),
            round(quarter.volatility, 6)) == \
        (1525.0, 275.0, 0.0625)
