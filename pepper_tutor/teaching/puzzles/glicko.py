"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), for learner and puzzle.

A first attempt at a puzzle is a game between the learner and the puzzle, as lichess rates
its puzzles (lila's ``PuzzleFinisher``): solved, the learner wins; missed, the puzzle wins;
both ratings move, each by the other's rating and deviation. One rating period is one game.
``tau``, the system constant that limits how fast the volatility changes, is 0.75 as lila
uses (Glickman's worked example uses 0.5; ``tests/test_puzzles_glicko.py`` checks it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["TAU", "SCALE", "Rating", "update", "game", "expected", "toward"]

TAU = 0.75
SCALE = 173.7178  # Glicko-2's ratio between the Glicko scale and its own
_EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    """A rating on the Glicko scale, its deviation (RD) and volatility."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06

    def __str__(self) -> str:
        return f"{self.rating:.0f} ± {2 * self.deviation:.0f}"


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected(player: Rating, opponent: Rating) -> float:
    """The chance ``player`` beats ``opponent`` by their ratings."""
    return _e((player.rating - 1500) / SCALE, (opponent.rating - 1500) / SCALE,
              opponent.deviation / SCALE)


def update(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU
           ) -> Rating:
    """``player`` after one rating period of ``games``: (opponent, score) with score 1 for a
    win, 0 for a loss, 0.5 for a draw. No games: only the deviation grows (step 6)."""
    mu = (player.rating - 1500) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        return Rating(player.rating, min(350.0, math.sqrt(phi * phi + sigma * sigma) * SCALE),
                      sigma)
    v_inv = 0.0
    delta_sum = 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - 1500) / SCALE
        phi_j = opponent.deviation / SCALE
        e = _e(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inv += g * g * e * (1 - e)
        delta_sum += g * (score - e)
    v = 1.0 / v_inv
    delta = v * delta_sum
    sigma_new = _volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return Rating(SCALE * mu_new + 1500, SCALE * phi_new, sigma_new)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5: the new volatility by the Illinois algorithm, as the paper gives it."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def game(learner: Rating, puzzle: Rating, solved: bool, tau: float = TAU
         ) -> tuple[Rating, Rating]:
    """Both ratings after one first attempt: the learner wins when ``solved``."""
    score = 1.0 if solved else 0.0
    return update(learner, [(puzzle, score)], tau), update(puzzle, [(learner, 1 - score)], tau)


def toward(before: Rating, after: Rating, weight: float) -> Rating:
    """``before`` moved ``weight`` of the way to ``after`` (rating, deviation and volatility
    alike, as lila's ``Glicko.average``): how a game that tells less counts for less."""
    if weight >= 1:
        return after
    if weight <= 0:
        return before
    return Rating(*(b + weight * (a - b) for b, a in (
        (before.rating, after.rating), (before.deviation, after.deviation),
        (before.volatility, after.volatility))))
