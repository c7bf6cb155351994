"""The night's card table: phones as seats, computer players in the empty ones.

The host opens a :class:`Table` for the current match (its rules are the sheet's). Each phone
may claim a seat; every seat nobody claims is played by a computer player
(:func:`pepper_tutor.analysis.players.make_player`, at the level the host picked), and so is
the seat of a phone that has not been seen for the grace period (asleep, out of Wi-Fi) until
its player taps "take my seat back". The hand itself is the engine's
:class:`~pepper_tutor.engine.state.HandState`; what a phone is shown of it is its seat's
:func:`~pepper_tutor.analysis.view.view_of`. A finished hand goes on the night's sheet with
its ``pepper-hand/1`` record (:meth:`~.store.NightStore.add_played`).

With the daily deal (``daily``: a date) the table deals that date's deals
(:mod:`pepper_tutor.teaching.practice.daily`) in order, each with the day's own computer
players from 0-0, so the room plays what everyone plays at the practice table that day. A
daily deal does not go on the match's sheet: it goes on the night's daily board
(:meth:`~.store.NightStore.add_daily`), North-South's net points beside par.

Computer players think in a thread of the table's own, never on the event loop nor in a
request: a request only changes the table under its lock and wakes that thread. Each change
bumps :attr:`Table.version`, and a computer's decision is applied only if nothing changed
while it thought.
"""

from __future__ import annotations

import copy
import random
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ...analysis.players import LEVELS, Player, make_player
from ...analysis.view import SeatView, view_of
from ...engine.calls import Bid, Defense, Mode, Trump
from ...engine.cards import Card, NotationError
from ...engine.rules import RuleSet, get_ruleset
from ...engine.seats import Seat
from ...engine.state import Action, HandState
from ...records.hand_record import dump_record, record_from_state
from ...records.scoresheet import EntryError, HandEntry
from ...teaching.practice.daily import (
    DAILY_DEALS,
    DAILY_LEVEL,
    DAILY_RULES,
    daily_bots,
    daily_par,
    daily_state,
    net_points,
)
from .store import NightError, NightStore

__all__ = ["Table", "Decision", "GRACE", "PAUSE", "parse_action"]

GRACE = 60.0  # seconds a phone that is not seen keeps its seat before a computer plays it
PAUSE = 0.7  # seconds between computer plays, so that people can follow the cards


@dataclass(frozen=True)
class Decision:
    """One decision of the hand, with the state just before it (for the coach)."""

    seat: Seat
    before: HandState
    action: Action
    by_computer: bool


@dataclass
class SeatInfo:
    player_id: int | None = None  # the phone that claimed it, if any
    name: str = ""
    away: bool = False  # its phone was not seen for the grace period: a computer plays it
    seen: float = field(default_factory=time.monotonic)


class Table:
    """One table: its seats, the hand in play, the computer players and their thread."""

    def __init__(self, store: NightStore, level: str, publish: Callable[[str], None],
                 grace: float = GRACE, pause: float = PAUSE, seed: int | None = None,
                 daily: date | None = None):
        if level not in LEVELS:
            raise NightError(f"no level {level!r} (the levels are {', '.join(LEVELS)})")
        sheet, _ = store.sheet()
        self.daily = daily
        # The daily plays by the day's own rules and players, whatever the match plays.
        self.rules: RuleSet = get_ruleset(DAILY_RULES) if daily is not None else sheet.rules
        self.par: tuple[int, ...] = daily_par(daily) if daily is not None else ()
        if daily is not None:
            level = DAILY_LEVEL
        self.store, self.level, self.publish = store, level, publish
        self.grace, self.pause = grace, pause
        self.seed = secrets.randbits(32) if seed is None else seed
        self.seats = {Seat(i): SeatInfo() for i in range(self.rules.players)}
        self.computers: dict[Seat, Player] = {
            s: make_player(level, random.Random(self.seed * 8 + int(s))) for s in self.seats}
        self.lock = threading.RLock()
        self.wake = threading.Condition(self.lock)
        self.version = 0
        self.hands_played = 0
        self.state: HandState | None = None
        self.decisions: list[Decision] = []
        self.last: tuple[HandState, list[Decision]] | None = None  # the hand just finished
        self.news = ""  # what the table says about the last change ("North took the trick")
        self.grades: dict[tuple[int, Seat], list[Any] | None] = {}
        self.closed = False
        self.deal()
        self._thread = threading.Thread(target=self._drive, name="night-table", daemon=True)
        self._thread.start()

    # ---- seats ------------------------------------------------------------------------

    def seat_of(self, player_id: int) -> Seat | None:
        return next((s for s, info in self.seats.items() if info.player_id == player_id), None)

    def claim(self, player_id: int, name: str, seat: Seat) -> None:
        with self.lock:
            if seat not in self.seats:
                raise NightError(f"{seat.word} has no seat at a {self.rules.players}-player "
                                 "table")
            info = self.seats[seat]
            if info.player_id not in (None, player_id):
                raise NightError(f"{info.name} sits {seat.word}: pick an empty seat")
            mine = self.seat_of(player_id)
            if mine is not None and mine != seat:
                self.seats[mine] = SeatInfo()
            self.seats[seat] = SeatInfo(player_id, name)
            self._changed(f"{name} sits {seat.word}.")

    def leave(self, player_id: int) -> Seat:
        with self.lock:
            seat = self.seat_of(player_id)
            if seat is None:
                raise NightError("you have no seat at the table")
            name = self.seats[seat].name
            self.seats[seat] = SeatInfo()
            self._changed(f"{name} left {seat.word}: a computer player sits there now.")
            return seat

    def seen(self, player_id: int) -> None:
        """The player's phone asked for the table: it is awake (its seat is not taken back
        from the computer until the player says so)."""
        with self.lock:
            seat = self.seat_of(player_id)
            if seat is not None:
                self.seats[seat].seen = time.monotonic()

    def back(self, player_id: int) -> Seat:
        with self.lock:
            seat = self.seat_of(player_id)
            if seat is None:
                raise NightError("you have no seat at the table: claim one")
            info = self.seats[seat]
            info.away, info.seen = False, time.monotonic()
            self._changed(f"{info.name} is back in {seat.word}'s seat.")
            return seat

    def human(self, seat: Seat) -> bool:
        info = self.seats[seat]
        return info.player_id is not None and not info.away

    # ---- the hand -----------------------------------------------------------------------

    def deal(self) -> None:
        """Deal the next hand, the dealer the sheet's next dealer (the daily's next deal)."""
        with self.lock:
            if self.state is not None and not self.state.is_terminal():
                raise NightError("the hand is still being played")
            if self.daily is not None:
                self._deal_daily(self.daily)
                return
            sheet, _ = self.store.sheet()
            if sheet.rules != self.rules:
                raise NightError("the sheet has a new match with other rules: the host "
                                 "opens the table again")
            if sheet.status.winner is not None:
                raise NightError(f"the match is over ({sheet.status.winner} won): the host "
                                 "starts a new match")
            rng = random.Random(self.seed * 1000 + self.hands_played)
            self.state = HandState.deal(self.rules, sheet.next_dealer, rng)
            self.decisions = []
            self._changed(f"New hand: {sheet.next_dealer.word} deals.")

    def _deal_daily(self, day: date) -> None:
        index = self.hands_played
        if index >= DAILY_DEALS:
            raise NightError(f"the {day.isoformat()} deals are all played: the host opens a "
                             "table without the daily deal to play on")
        self.state = daily_state(day, index)
        self.computers = daily_bots(day, index, None)  # fresh for each deal, as everyone's
        self.decisions = []
        self._changed(f"Daily deal {index + 1} of {DAILY_DEALS}: {self.state.dealer.word} "
                      "deals.")

    @property
    def daily_deal(self) -> int | None:
        """The daily deal on the table (from 1; the one just finished until the next is
        dealt), or None."""
        if self.daily is None:
            return None
        finished = self.state is not None and self.state.is_terminal()
        return self.hands_played if finished else self.hands_played + 1

    def act(self, player_id: int, raw: str) -> Action:
        """The phone's decision; NightError with the rule if it is not the seat's to make."""
        with self.lock:
            state = self.state
            seat = self.seat_of(player_id)
            if seat is None:
                raise NightError("you are watching: claim a seat to play")
            if self.seats[seat].away:
                raise NightError("a computer player has your seat: tap “Take my seat back” "
                                 "first")
            if state is None or state.is_terminal():
                raise NightError("the hand is over: deal the next one")
            if state.to_act != seat:
                who = state.to_act.word if state.to_act is not None else "nobody"
                raise NightError(f"it is {who}'s turn, not yours")
            try:
                action = parse_action(raw)
            except (NotationError, ValueError):
                raise NightError(f"{raw[:20]!r} is no card or call") from None
            verdict = state.check(action, seat)
            if not verdict.legal or verdict.action is None:
                raise NightError(verdict.explanation)
            self._apply(seat, verdict.action, by_computer=False)
            return verdict.action

    def _apply(self, seat: Seat, action: Action, by_computer: bool) -> None:
        state = self.state
        assert state is not None
        self.decisions.append(Decision(seat, state.copy(), action, by_computer))
        tricks = len(state.tricks)
        state.apply(action)
        news = f"{seat.word}: {_words(action)}."
        if len(state.tricks) > tricks:
            news += f" {state.tricks[-1].winner.word} takes the trick."
        if state.is_terminal():
            news += " " + self._finish(state)
        self._changed(news)

    def _finish(self, state: HandState) -> str:
        """Put the finished hand on the sheet with its record; say how it scored."""
        self.hands_played += 1
        self.last = (state, list(self.decisions))
        if self.daily is not None:
            return self._finish_daily(self.daily, state)
        entry = entry_of(state)
        sheet, _ = self.store.sheet()
        number = len(sheet.entries) + 1
        record = record_from_state(state, {"event": "game night table", "hand": number})
        try:
            hand = self.store.add_played(entry, dump_record(record), "table")
        except (EntryError, NightError) as err:
            return f"Not put on the sheet: {err}."
        self.publish("sheet")
        pts = hand.score.points if hand.score else {}
        what = ", ".join(f"{s} {p:+d}" for s, p in pts.items()) or "thrown in"
        return f"Hand {hand.number} is on the sheet: {what}."

    def _finish_daily(self, day: date, state: HandState) -> str:
        number = self.hands_played
        record = record_from_state(state, {"event": f"daily deal {day.isoformat()}",
                                           "hand": number})
        net, par = net_points(state, "NS"), self.par[number - 1]
        seats = {str(s): info.name for s, info in self.seats.items() if self.human(s)}
        try:
            self.store.add_daily(day.isoformat(), number, seats, net, par,
                                 _contract_words(state), dump_record(record))
        except sqlite3.Error:
            return "Not put on the daily board: the night's file could not be written."
        return (f"Daily deal {number} is on the board: North-South {net:+d} net points, par "
                f"{par:+d}.")

    def _changed(self, news: str) -> None:
        self.version += 1
        self.news = news
        self.wake.notify_all()
        self.publish("table")

    # ---- the computer players' thread -----------------------------------------------------

    def _due(self) -> tuple[Seat, SeatView, int] | None:
        """The computer's turn, if it is one: (seat, its view, the version it was taken at).
        A seat whose phone was not seen for the grace period is handed to the computer."""
        now = time.monotonic()
        for seat, info in self.seats.items():
            if info.player_id is not None and not info.away and now - info.seen > self.grace:
                info.away = True
                self._changed(f"{info.name} is away: a computer player takes {seat.word}'s "
                              "seat until they are back.")
        state = self.state
        if state is None or state.is_terminal() or state.to_act is None:
            return None
        seat = state.to_act
        if self.human(seat):
            return None
        # A daily deal is played from 0-0, as everyone's is.
        scores = ({side: 0 for side in self.rules.sides} if self.daily is not None
                  else self.store.sheet()[0].totals)
        return seat, view_of(state, seat, scores), self.version

    def _drive(self) -> None:
        while True:
            with self.lock:
                if self.closed:
                    return
                due = self._due()
                if due is None:
                    self.wake.wait(0.5)
                    continue
            time.sleep(self.pause)
            seat, view, version = due
            # A decision thrown away (the table changed meanwhile) must not use up the
            # player's chances: it decides on a copy, kept only with the decision, so the
            # daily's computer players answer as they do at everyone's table.
            player = copy.deepcopy(self.computers[seat])
            action = player.decide(view)  # off the lock: it may take seconds
            with self.lock:
                if self.closed:
                    return
                if self.version == version:
                    self.computers[seat] = player
                    self._apply(seat, action, by_computer=True)

    def close(self) -> None:
        with self.lock:
            self.closed = True
            self.wake.notify_all()

    # ---- the coach, after the hand --------------------------------------------------------

    def grade(self, player_id: int) -> None:
        """Start grading the seat's own decisions of the hand just finished (in a thread;
        the table part shows them when they are ready)."""
        with self.lock:
            seat = self.seat_of(player_id)
            if seat is None or self.last is None:
                raise NightError("no hand of yours to grade yet")
            key = (self.hands_played, seat)
            if key in self.grades:
                return
            mine = [d for d in self.last[1] if d.seat == seat and not d.by_computer]
            self.grades[key] = None
        threading.Thread(target=self._grade, args=(key, mine), daemon=True).start()

    def _grade(self, key: tuple[int, Seat], mine: list[Decision]) -> None:
        from ...teaching.practice.coach import coach_decision

        verdicts = [coach_decision(d.before, d.action) for d in mine]
        with self.lock:
            self.grades[key] = verdicts
            self._changed(self.news)


def entry_of(state: HandState) -> HandEntry:
    """What the sheet keeps of a finished hand."""
    if state.bidder is None:
        return HandEntry(state.dealer)
    tricks = {} if state.defense is Defense.SURRENDER else state.tricks_won()
    return HandEntry(state.dealer, state.bidder, state.high_bid, state.trump, state.mode,
                     state.defense, tricks)


def _contract_words(state: HandState) -> str:
    if state.bidder is None:
        return "all passed"
    words = f"{state.bidder.word} {state.high_bid.display}"
    if state.trump is not None:
        words += f" in {state.trump.word}"
    return words


def parse_action(raw: str) -> Action:
    """A tap's value: a card (``JH``), a bid (``bid:3``), trumps (``trump:H``), a way of
    playing (``mode:exchange``) or a defence (``defense:play``)."""
    kind, _, value = raw.partition(":")
    if not value:
        return Card.parse(raw)
    parsers: dict[str, Callable[[str], Action]] = {
        "bid": Bid.parse, "trump": Trump.parse, "mode": Mode.parse, "defense": Defense.parse}
    if kind not in parsers:
        raise ValueError(raw)
    return parsers[kind](value)


def _words(action: Action) -> str:
    from ...rulebook.verdict import action_text

    return action_text(action)
