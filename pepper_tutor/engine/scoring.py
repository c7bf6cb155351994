"""A hand's points by the tables of RULES-SPEC, and the end-of-game rule.

Scoring works on sides (teams ``NS``/``EW``, or seats in cutthroat) and says which rule
gave each side its points, so a score sheet or an annotation can show the rule applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .calls import Bid
from .cards import wrong_type
from .rules import RuleSet

__all__ = ["GameStatus", "HandScore", "bid_value", "game_status", "score_hand"]


@dataclass(frozen=True)
class HandScore:
    points: dict[str, int]
    made: bool | None  # None when the defenders surrendered
    rules: dict[str, str]  # side -> rule id that gave its points
    reasons: dict[str, str]  # side -> one line a person can read


def bid_value(rules: RuleSet, bid: Bid) -> int:
    """Points a bid is worth when made or conceded: the number, or the pepper's stake."""
    if bid is Bid.LITTLE_PEPPER:
        return 7 if rules.scoring == "standard" else 6
    if bid is Bid.BIG_PEPPER:
        return 14 if rules.scoring == "standard" else 12
    return int(bid)


def score_hand(rules: RuleSet, bid: Bid, bidder_side: str, tricks: Mapping[str, int],
               surrendered: bool = False) -> HandScore:
    """Points for every side. ``tricks`` maps each side to the tricks it took (all 0 after
    a surrender)."""
    if type(rules) is not RuleSet:
        raise wrong_type(rules, "a RuleSet")
    if type(bid) is not Bid or bid is Bid.PASS:
        raise wrong_type(bid, "a bid (a Bid other than pass)")
    if bidder_side not in rules.sides:
        raise ValueError(f"{bidder_side!r} is not a side of {rules.name} "
                         f"({', '.join(rules.sides)})")
    _check_points(rules, tricks, "tricks")
    points: dict[str, int] = {}
    rule: dict[str, str] = {}
    why: dict[str, str] = {}
    value = bid_value(rules, bid)
    others = [s for s in rules.sides if s != bidder_side]
    if surrendered:
        points[bidder_side], rule[bidder_side] = value, "score.surrender"
        why[bidder_side] = f"the defenders surrendered, so the bidders score the bid's {value}"
        for side in others:
            points[side], rule[side] = 0, "score.surrender"
            why[side] = "defenders who surrender score nothing"
        return HandScore(points, None, rule, why)

    t = tricks.get(bidder_side, 0)
    made = t >= bid.tricks
    took = f"took {t} trick{'s' if t != 1 else ''}"
    needed = f"bid {bid.display}"
    if rules.scoring == "standard":
        if bid.is_pepper:
            points[bidder_side] = value if made else -value
            rule[bidder_side] = "score.pepper"
        elif made and rules.score_what_you_get:
            points[bidder_side], rule[bidder_side] = t, "variant.score-what-you-get"
        else:
            points[bidder_side] = value if made else -value
            rule[bidder_side] = "score.bid"
    elif rules.preset == "simple":
        missed = 12 if bid is Bid.BIG_PEPPER else 6
        points[bidder_side] = (value if bid.is_pepper else t) if made else -missed
        rule[bidder_side] = "preset.simple"
    else:
        points[bidder_side] = (value if bid.is_pepper else t) if made else -value
        rule[bidder_side] = "cutthroat.score"
    why[bidder_side] = (f"{needed} and {took}: " + ("made" if made else "set")
                        + f", {points[bidder_side]:+d}")

    defenders_tricks = sum(tricks.get(s, 0) for s in others)
    for side in others:
        d = tricks.get(side, 0)
        if rules.scoring == "standard":
            if defenders_tricks >= 1:
                points[side] = value if bid.is_pepper else d
                rule[side] = "score.pepper" if bid.is_pepper else "score.defenders"
                why[side] = (f"the defenders took a trick against {bid.display}: "
                             f"{points[side]:+d}" if bid.is_pepper else
                             f"the defenders took {d}, one point a trick: {points[side]:+d}")
            else:
                points[side], rule[side] = -value, ("score.pepper" if bid.is_pepper
                                                    else "score.sweep")
                why[side] = (f"the defenders played and took nothing, so they lose the bid's "
                             f"{value}: {points[side]:+d}")
        else:
            points[side] = d
            rule[side] = "preset.simple" if rules.preset == "simple" else "cutthroat.score"
            why[side] = f"took {d}: one point a trick, {d:+d}"
    return HandScore(points, made, rule, why)


@dataclass(frozen=True)
class GameStatus:
    over: bool
    winner: str | None
    overtime: bool  # sides tied for reaching the target: the next hand decides
    rule: str


def game_status(rules: RuleSet, totals: Mapping[str, int], overtime: bool = False) -> GameStatus:
    """Whether the game is over after a hand that left these totals.

    ``overtime`` says an earlier hand left two or more sides at or above the target, so this
    hand was the extra one: the highest total now wins, and an exact tie plays on.
    """
    if type(rules) is not RuleSet:
        raise wrong_type(rules, "a RuleSet")
    _check_points(rules, totals, "totals")
    if not totals:
        raise ValueError("totals must give each side's points")
    if overtime:
        best = max(totals.values())
        leaders = [s for s, v in totals.items() if v == best]
        if len(leaders) == 1:
            return GameStatus(True, leaders[0], False, "game.tie")
        return GameStatus(False, None, True, "game.tie")
    reached = [s for s, v in totals.items() if v >= rules.target]
    if len(reached) == 1:
        return GameStatus(True, reached[0], False, "game.target")
    if len(reached) > 1:
        return GameStatus(False, None, True, "game.tie")
    return GameStatus(False, None, False, "game.target")


def _check_points(rules: RuleSet, points: object, what: str) -> None:
    """``points`` maps sides of ``rules`` to whole numbers, else a ValueError (the public
    entry points are checked; the engine calls them with its own values)."""
    if not isinstance(points, Mapping):
        raise wrong_type(points, f"{what}: a mapping of sides ({', '.join(rules.sides)}) to "
                                 "whole numbers")
    for side, value in points.items():
        if not isinstance(side, str) or side not in rules.sides:
            raise ValueError(f"{side!r} is not a side of {rules.name} "
                             f"({', '.join(rules.sides)})")
        if type(value) is not int:
            raise wrong_type(value, f"a whole number of {what} for {side}")
