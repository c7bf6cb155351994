"""The daily deal: the same deals for everyone on a date, against the same computer players.

A date's deals (:data:`DAILY_DEALS` of them, standard rules, dealt by West, North, East and
South in turn) come from a seed made of the date alone, so everyone who plays the 2 December
deal holds the same cards. The computer players are the same too: each seat of each deal is
a new :data:`DAILY_LEVEL` player seeded from the date, the deal and the seat, and each deal
starts at 0-0 (nobody's earlier deals change how the computer players bid). Given the same
decisions, the computer players make the same ones back.

The result of a deal is the **net points** of the learner's side (its points less the other
side's), against **par**: what the computer players make of the same deal with one of them,
seeded as the learner's seat, in the learner's chair. :class:`DailyTable` is the practice
table that plays the day's deals once each (no take-backs: a daily is played as it falls).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from datetime import date
from pathlib import Path

from ...engine.match import HandResult, Match
from ...engine.rules import RuleSet, get_ruleset
from ...engine.seats import Seat
from ...engine.state import HandState
from ..learner.store import LearnerStore
from .daily_board import DailyBoard
from .players import Player, bot_decide, make_bot
from .table import Decision, PracticeTable

__all__ = ["DAILY_DEALS", "DAILY_LEVEL", "DAILY_RULES", "DAILY_SEAT", "day_seed",
           "daily_state", "daily_bots", "net_points", "daily_par", "DailyMatch", "DailyTable"]

DAILY_DEALS = 4
DAILY_LEVEL = "club"
DAILY_RULES = "standard"
DAILY_SEAT = Seat.S


def day_seed(day: date) -> int:
    """The date's seed: the same on every computer (no clock, no machine in it)."""
    digest = hashlib.sha256(f"pepper-tutor daily {day.isoformat()}".encode()).hexdigest()
    return int(digest[:12], 16)


def _rules() -> RuleSet:
    return get_ruleset(DAILY_RULES)


def _dealer(index: int) -> Seat:
    # The deal passes to the left as in a match: West deals the first.
    players = _rules().players
    return Seat((players - 1 + index) % players)


def daily_state(day: date, index: int) -> HandState:
    """Deal ``index`` (from 0) of the date, before anyone has called."""
    if not 0 <= index < DAILY_DEALS:
        raise ValueError(f"a day has deals 1 to {DAILY_DEALS}, not {index + 1}")
    return HandState.deal(_rules(), _dealer(index),
                          random.Random(f"{day_seed(day)}:{index}:deal"))


def _bot(day: date, index: int, seat: Seat) -> Player:
    seed = random.Random(f"{day_seed(day)}:{index}:{seat}:player").randrange(2**31)
    return make_bot(DAILY_LEVEL, seed)


def daily_bots(day: date, index: int, learner: Seat | None = DAILY_SEAT) -> dict[Seat, Player]:
    """Fresh computer players for deal ``index`` at every seat but ``learner``'s (None: at
    every seat, as par is played)."""
    return {s: _bot(day, index, s) for s in (Seat(i) for i in range(_rules().players))
            if s != learner}


def net_points(state: HandState, side: str) -> int:
    """The side's points less the other sides' (0 for a hand thrown in)."""
    points = state.score.points if state.score is not None else {}
    return sum(v if s == side else -v for s, v in points.items())


def _zero() -> dict[str, int]:
    return {side: 0 for side in _rules().sides}


def play_out(state: HandState, bots: Mapping[Seat, Player]) -> HandState:
    """The computer players play the hand to its end (from 0-0)."""
    scores = _zero()
    while not state.is_terminal():
        seat = state.to_act
        assert seat is not None
        state.apply(bot_decide(bots[seat], state, seat, scores))
    return state


def daily_par(day: date, seat: Seat = DAILY_SEAT) -> tuple[int, ...]:
    """Par for each of the date's deals: the net points of ``seat``'s side when the computer
    players play all four seats."""
    side = _rules().side_of(seat)
    return tuple(net_points(play_out(daily_state(day, i), daily_bots(day, i, None)), side)
                 for i in range(DAILY_DEALS))


class DailyMatch(Match):
    """The day's deals as a match: it ends after the last deal, not at the target (every
    player of the day plays all the deals); ``before``: the deals played in an earlier
    session."""

    def __init__(self, first_dealer: Seat, before: int = 0) -> None:
        super().__init__(_rules(), first_dealer)
        self.before = before

    @property
    def over(self) -> bool:
        return self.before + len(self.results) >= DAILY_DEALS

    def add_points(self, points: dict[str, int] | None) -> HandResult:
        result = super().add_points(points)
        self.winner, self.overtime = None, False  # no deal ends the day early
        return result


class DailyTable(PracticeTable):
    """The practice table dealing the date's deals, from deal ``start`` (from 0: a day
    already begun goes on where it stopped). The learner sits South against
    :data:`DAILY_LEVEL` players; :attr:`played` holds each finished deal's ``(index, net,
    par)``, each also kept on ``board`` when one is given, and :attr:`results` those of the
    day's earlier session too."""

    def __init__(self, day: date, *, start: int = 0, board: DailyBoard | None = None,
                 coach: bool = False, coach_samples: int = 60,
                 save_dir: Path | str | None = None, store: LearnerStore | None = None) -> None:
        if not 0 <= start < DAILY_DEALS:
            raise ValueError(f"the {day.isoformat()} deals are all played")
        self.day = day
        self.start = start
        self.board = board
        self.par = daily_par(day)
        self.played: list[tuple[int, int, int]] = []
        self.earlier = [(r.deal - 1, r.net, r.par) for r in board.deals(day)
                        if r.deal <= start] if board is not None else []
        super().__init__(DAILY_RULES, DAILY_SEAT, DAILY_LEVEL, coach=coach,
                         coach_samples=coach_samples, save_dir=save_dir, history=False,
                         store=store)
        self.match = DailyMatch(_dealer(start), before=start)
        self.hands_before = start  # a day begun earlier numbers its deals on

    @property
    def results(self) -> list[tuple[int, int, int]]:
        """The day's deals finished so far, ``(index, net, par)``, this session's and those
        of an earlier one kept on the board."""
        return [*self.earlier, *self.played]

    @property
    def index(self) -> int:
        """The deal in play, from 0."""
        return self.start + self.hand_number - 1

    def new_hand(self) -> list[Decision]:
        self.hand_number += 1
        self.score_before = _zero()  # each deal from 0-0, as at everyone's table
        self.state = daily_state(self.day, self.index)
        self.bots = daily_bots(self.day, self.index, self.seat)
        self.decisions = []
        self._hinted = set()
        return self.play_bots()

    def finish_hand(self) -> HandResult:
        result = super().finish_hand()
        net, par = net_points(self.state, self.learner_side), self.par[self.index]
        self.played.append((self.index, net, par))
        if self.board is not None:
            self.board.add(self.day, self.index + 1, net, par, self.contract_text())
        return result

    def take_back(self) -> Decision:
        raise ValueError("the daily deal is played as it falls: no taking back (replay it "
                         "at the practice table with pepper-tutor play)")

    def replay_from(self, number: int) -> Decision:
        return self.take_back()
