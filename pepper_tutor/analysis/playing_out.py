"""Two choices at one decision, played out to the end by players: a valuation the advice did
not make.

The advice values every option by double-dummy play of the rest of the hand, corrected by a
measured calibration. Where the two disagree with real play (a contract with partner that
double-dummy play makes by perfect teamwork, say), only playing the hand out shows it: this
module plays a position on from two actions over the same deals, with the same players,
and pairs the side's points. The deals are the position's own cards and then fresh deals of
the cards its seat cannot see, consistent with what the seat has seen and weighted by what
the calls say (:func:`~.inference.deal_for_view`); every later decision is made by players
of a level of :data:`LADDER`. Every deal and player is seeded from a name and the deal's
index, so the figures are the same wherever they are computed.

The puzzle miner keeps a puzzle only when its answer, played out so, scores at least as much
as the tempting answer; ``python -m pepper_tutor.bench playouts`` re-checks the shipped bank.
"""

from __future__ import annotations

import hashlib
import math
import random
import statistics
from dataclasses import dataclass

from ..engine.state import Action, HandState
from .ceiling import AllSeeing, CeilingPlayer
from .inference import deal_for_view
from .players import Player, make_player, play_hand
from .table_tips import TableTipsPlayer
from .view import view_of

__all__ = ["LADDER", "ladder_player", "side_points", "deal_seed", "PlayedOut", "play_out"]

# Every level a match can seat, weakest first: the computer players a learner meets, the
# reference player of table tips (.table_tips), which shares no code with the analysis, and
# the all-seeing ceiling (.ceiling), which no person can be.
LADDER = ("beginner", "reference", "club", "expert", "ceiling")

_Z95 = 1.959963984540054


def ladder_player(level: str, seed: int) -> Player:
    """A player of any level of :data:`LADDER` (the computer players' levels through
    :func:`~.players.make_player`)."""
    if level == "reference":
        return TableTipsPlayer()
    if level == "ceiling":
        return CeilingPlayer()
    return make_player(level, seed)


def side_points(state: HandState, seat: int) -> int:
    """The points of ``seat``'s side less the other side's, for a hand played out."""
    points = state.score.points if state.score is not None else {}
    ours = state.rules.side_of(seat)
    return sum(v if side == ours else -v for side, v in points.items())


def deal_seed(name: str, index: int) -> int:
    """The seed of deal ``index`` of the valuation called ``name``."""
    return int.from_bytes(hashlib.sha256(f"{name}/{index}".encode()).digest()[:8], "big")


@dataclass(frozen=True)
class PlayedOut:
    """The first action's points less the second's for the seat's side, a deal each."""

    diffs: tuple[float, ...]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.diffs)

    @property
    def half_width(self) -> float:
        """The 95% interval's half-width of the mean (paired over the deals)."""
        if len(self.diffs) < 2:
            return math.inf
        return _Z95 * statistics.stdev(self.diffs) / math.sqrt(len(self.diffs))

    @property
    def contradicted(self) -> bool:
        """The second action did clearly better: the paired interval lies below zero."""
        return self.mean + self.half_width < 0


def play_out(position: HandState, first: Action, second: Action, deals: int, name: str,
             level: str = "expert") -> PlayedOut:
    """``position`` played on from ``first`` and from ``second`` over ``deals`` deals (the
    position's own cards, then deals of what its seat cannot see that follow the calls) by
    players of ``level``; seeded from ``name``."""
    if level not in LADDER:
        raise ValueError(f"level must be one of {', '.join(LADDER)}, not {level!r}")
    if position.to_act is None:
        raise ValueError(f"there is no decision to play out: the hand is {position.phase}")
    seat = int(position.to_act)
    view = view_of(position, seat)
    diffs = []
    for index in range(deals):
        seed = deal_seed(name, index)
        start = position if index == 0 else deal_for_view(view, random.Random(seed),
                                                           auction=True)
        scored = []
        for action in (first, second):
            state = start.copy()
            state.apply(action)
            players = [ladder_player(level, seed + k) for k in range(state.rules.players)]
            for player in players:
                if isinstance(player, AllSeeing):
                    player.see(state)
            play_hand(state, players)
            scored.append(side_points(state, seat))
        diffs.append(float(scored[0] - scored[1]))
    return PlayedOut(tuple(diffs))
