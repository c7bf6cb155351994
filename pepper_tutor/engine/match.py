"""A match: hands played one after another until a side wins by the end-of-game rule.

The deal passes to the left after every hand, a thrown-in hand included. A thrown-in hand
scores nothing and decides nothing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from .cards import wrong_type
from .rules import RuleSet, get_ruleset
from .scoring import GameStatus, game_status
from .seats import Seat
from .state import HandState

__all__ = ["HandResult", "Match"]


@dataclass(frozen=True)
class HandResult:
    number: int
    dealer: Seat
    points: dict[str, int]
    totals: dict[str, int]
    thrown_in: bool
    status: GameStatus


class Match:
    """Running totals, whose deal it is, and the winner once there is one."""

    def __init__(self, rules: RuleSet | str = "standard", first_dealer: Seat | str = Seat.W,
                 totals: dict[str, int] | None = None):
        self.rules = get_ruleset(rules)
        self.dealer = Seat.parse(first_dealer)
        if self.dealer >= self.rules.players:
            raise ValueError(f"seat {self.dealer} is not at a {self.rules.players}-player table")
        self.totals = {side: 0 for side in self.rules.sides}
        if totals is not None and not isinstance(totals, dict):
            raise wrong_type(totals, "totals: a dict of sides to points")
        if totals:
            for side, value in totals.items():
                if type(value) is not int:
                    raise wrong_type(value, f"a whole number of points for {side!r}")
            unknown = set(totals) - set(self.totals)
            if unknown:
                raise ValueError(f"no side {', '.join(sorted(unknown))} in {self.rules.name}")
            self.totals.update(totals)
        self.overtime = False
        self.winner: str | None = None
        self.results: list[HandResult] = []

    @property
    def over(self) -> bool:
        return self.winner is not None

    def new_hand(self, rng: random.Random | int | None = None) -> HandState:
        """Deal the next hand, by the seat whose turn it is to deal."""
        if self.over:
            raise ValueError(f"the match is over: {self.winner} won")
        return HandState.deal(self.rules, self.dealer, rng)

    def record(self, hand: HandState) -> HandResult:
        """Add a finished hand's points, pass the deal on and apply the end-of-game rule."""
        if not isinstance(hand, HandState):
            raise wrong_type(hand, "a HandState")
        if not hand.is_terminal():
            raise ValueError(f"the hand is not finished (it is at the {hand.phase} step)")
        if hand.dealer != self.dealer:
            raise ValueError(f"this hand was dealt by {hand.dealer}, but it is "
                             f"{self.dealer}'s deal")
        score = hand.score
        return self.add_points(score.points if score else None)

    def add_points(self, points: dict[str, int] | None) -> HandResult:
        """Record a hand by its points; ``None`` for a thrown-in hand."""
        if self.over:
            raise ValueError(f"the match is over: {self.winner} won")
        if points is not None:
            if not isinstance(points, Mapping):
                raise wrong_type(points, "points: a mapping of sides to whole numbers, or None")
            for side, value in points.items():
                if side not in self.totals:
                    raise ValueError(f"{side!r} is not a side of {self.rules.name} "
                                     f"({', '.join(self.totals)})")
                if type(value) is not int:
                    raise wrong_type(value, f"a whole number of points for {side}")
        dealer = self.dealer
        self.dealer = dealer.next(self.rules.players)
        thrown_in = points is None
        if points is not None:
            for side, value in points.items():
                self.totals[side] += value
            status = game_status(self.rules, self.totals, self.overtime)
            self.overtime = status.overtime
            self.winner = status.winner
        else:
            status = GameStatus(False, None, self.overtime, "bid.all-pass")
        result = HandResult(len(self.results) + 1, dealer, dict(points or {}),
                            dict(self.totals), thrown_in, status)
        self.results.append(result)
        return result

    def __repr__(self) -> str:
        return (f"<Match {self.rules.name} totals={self.totals} dealer={self.dealer}"
                f" winner={self.winner}>")
