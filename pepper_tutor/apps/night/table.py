"""The night's card table: phones as seats, computer players in the empty ones.

The host opens a :class:`Table` for the current match (its rules are the sheet's). Each phone
may claim a seat; every seat nobody claims is played by a computer player
(:func:`pepper_tutor.analysis.players.make_player`, at the level the host picked), and so is
the seat of a phone that has not been seen for the grace period (asleep, out of Wi-Fi) until
its player taps "take my seat back". The hand itself is the engine's
:class:`~pepper_tutor.engine.state.HandState`; what a phone is shown of it is its seat's
:func:`~pepper_tutor.analysis.view.view_of`. A finished hand goes on the night's sheet with
its ``pepper-hand/1`` record (:meth:`~.store.NightStore.add_played`).

Nothing is played before people are there: a hand is dealt when the host (or a player at the
table) deals, or by itself once every seat the host kept for people (``people``) is taken;
never with nobody seated. A hand in which no person made a decision (everyone left, or was
away, while the computers played it) goes on no sheet and no board.

Face down is face down: the bidder's discard and the card the partner sends are said to the
room as "a card, face down"; only the seat's own view (and the hand's record, afterwards)
holds them.

With the daily deal (``daily``: a date) the table deals that date's deals
(:mod:`pepper_tutor.teaching.practice.daily`) in order, each with the day's own computer
players from 0-0, so the room plays what everyone plays at the practice table that day. A
daily deal does not go on the match's sheet: it goes on the night's daily board
(:meth:`~.store.NightStore.add_daily`), North-South's net points beside par. The board is the
room's record of which deals were played: a table opened again (or after a restart) deals the
first deal not on it, and each deal is on it once.

The table is kept in the night's file as it changes (:meth:`~.store.NightStore.save_table`):
its rules, seats, the deal and every decision of the hand in play. After a crash the server
opens it again (:meth:`Table.saved`) and the hand goes on from the same card.

Computer players think in a thread of the table's own, never on the event loop nor in a
request: a request only changes the table under its lock and wakes that thread. Each change
bumps :attr:`Table.version`, and a computer's decision is applied only if nothing changed
while it thought.
"""

from __future__ import annotations

import contextlib
import copy
import random
import re
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
from ...engine.cards import Card, NotationError, spoken_cards
from ...engine.rules import RuleSet, get_ruleset
from ...engine.seats import Seat
from ...engine.state import Action, HandState, Phase
from ...records.hand_record import dump_record, record_from_state
from ...records.scoresheet import EntryError, HandEntry
from ...render.spoken import action_words, choices_words, event_words
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

__all__ = ["Table", "Decision", "GRACE", "PAUSE", "SAID_KEPT", "parse_action", "action_value",
           "said"]

GRACE = 60.0  # seconds a phone that is not seen keeps its seat before a computer plays it
PAUSE = 0.7  # seconds between computer plays, so that people can follow the cards
# The table's last events kept for the phones' live region: a phone that was redrawn a few
# events late (it asks at most four times a second) still says each one, once.
SAID_KEPT = 40


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
                 daily: date | None = None, people: frozenset[Seat] = frozenset(),
                 saved: dict[str, Any] | None = None):
        if level not in LEVELS:
            raise NightError(f"no level {level!r} (the levels are {', '.join(LEVELS)})")
        self.daily = daily
        # The daily plays by the day's own rules and players, whatever the match plays.
        if saved is not None:
            self.rules: RuleSet = get_ruleset(saved["rules"])
        elif daily is not None:
            self.rules = get_ruleset(DAILY_RULES)
        else:
            self.rules = store.sheet()[0].rules
        self.par: tuple[int, ...] = daily_par(daily) if daily is not None else ()
        if daily is not None:
            level = DAILY_LEVEL
        self.store, self.level, self.publish = store, level, publish
        self.grace, self.pause = grace, pause
        self.seed = secrets.randbits(32) if seed is None else seed
        self.people = frozenset(s for s in people if s < self.rules.players)
        self.seats = {Seat(i): SeatInfo() for i in range(self.rules.players)}
        self.computers: dict[Seat, Player] = self._match_players()
        self.lock = threading.RLock()
        self.wake = threading.Condition(self.lock)
        self.version = 0
        self.hands_played = 0
        self.entered = 0  # hands this table put on the sheet
        self.deal_index = 0  # the daily deal on the table (from 0)
        self.state: HandState | None = None  # None until the first deal
        self.decisions: list[Decision] = []
        self.last: tuple[HandState, list[Decision]] | None = None  # the hand just finished
        self.news = ""  # what the table says about the last change ("North took the trick")
        # Every event said, numbered from 1 (``said_count``): the last SAID_KEPT of them.
        self.said: list[str] = []
        self.said_count = 0
        self.key = secrets.token_hex(4)  # this table, opened now: its events are numbered anew
        self.grades: dict[tuple[int, Seat], list[Any] | None] = {}
        self.closed = False
        # The card each player's confirm option holds: (the table's version then, the card).
        self.pending: dict[int, tuple[int, str]] = {}
        if saved is not None:
            self._restore(saved)
        self._save()
        self._thread = threading.Thread(target=self._drive, name="night-table", daemon=True)
        self._thread.start()

    def _match_players(self) -> dict[Seat, Player]:
        return {s: make_player(self.level, random.Random(self.seed * 8 + int(s)))
                for s in self.seats}

    # ---- kept in the night's file -------------------------------------------------------

    @classmethod
    def saved(cls, store: NightStore, publish: Callable[[str], None],
              grace: float = GRACE) -> Table | None:
        """The table the night's file holds (after a restart), or None if none was open."""
        data = store.saved_table()
        if data is None:
            return None
        day = date.fromisoformat(data["daily"]) if data.get("daily") else None
        return cls(store, str(data["level"]), publish, grace, seed=int(data["seed"]),
                   daily=day, people=frozenset(Seat.parse(s) for s in data["people"]),
                   saved=data)

    def _snapshot(self) -> dict[str, Any]:
        hand = None
        if self.state is not None:
            hand = {"dealer": str(self.state.dealer),
                    "hands": {str(s): " ".join(map(str, self.state.dealt(s)))
                              for s in self.seats},
                    "actions": [[str(d.seat), action_value(d.action), d.by_computer]
                                for d in self.decisions]}
        return {"rules": self.rules.to_mapping(), "level": self.level, "seed": self.seed,
                "daily": self.daily.isoformat() if self.daily is not None else None,
                "people": sorted(map(str, self.people)), "version": self.version,
                "hands_played": self.hands_played, "deal_index": self.deal_index,
                "entered": self.entered,
                "news": self.news, "hand": hand,
                "seats": {str(s): [i.player_id, i.name, i.away] for s, i in self.seats.items()
                          if i.player_id is not None}}

    def _save(self) -> None:
        """Keep the table in the night's file (under the table's lock: the file holds what
        the screens are shown). A write that fails leaves the table playing; a table
        closed (or replaced by a new one) writes nothing more."""
        if self.closed:
            return
        with contextlib.suppress(sqlite3.Error):
            self.store.save_table(self._snapshot())

    def _restore(self, data: dict[str, Any]) -> None:
        self.version = int(data["version"]) + 1  # no screen mistakes it for what it drew
        self.hands_played, self.deal_index = int(data["hands_played"]), int(data["deal_index"])
        self.entered = int(data["entered"])
        for code, (pid, name, away) in data["seats"].items():
            self.seats[Seat.parse(code)] = SeatInfo(int(pid), str(name), bool(away))
        if self.daily is not None:
            self.computers = daily_bots(self.daily, self.deal_index, None)
        hand = data.get("hand")
        if hand is not None:
            state = HandState.from_hands({s: c.split() for s, c in hand["hands"].items()},
                                         self.rules, hand["dealer"])
            for seat, value, by_computer in hand["actions"]:
                action = parse_action(value)
                self.decisions.append(Decision(Seat.parse(seat), state.copy(), action,
                                               bool(by_computer)))
                state.apply(action)
            self.state = state
            if state.is_terminal():
                self.last = (state, list(self.decisions))
        self.news = (f"{data['news']} (The server was restarted: the table goes on where it "
                     "was.)" if data.get("news") else "")
        if self.news:
            self._say(self.news)

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
            if self.state is None and self.people and all(self.human(s) for s in self.people):
                try:
                    self._deal()  # every seat kept for people is taken: the first hand is on
                except NightError as err:
                    self._changed(f"No hand was dealt: {err}.")

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
        """Deal the next hand, the dealer the sheet's next dealer (the daily's next deal).
        Refused while nobody sits at the table: computers alone play for no one."""
        with self.lock:
            if not any(self.human(s) for s in self.seats):
                raise NightError("nobody sits at the table yet: a hand is dealt once someone "
                                 "has taken a seat on their phone")
            self._deal()

    def _deal(self) -> None:
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
        # The first deal the room has not played: the board in the file says which.
        index = len(self.store.daily_deals(day.isoformat()))
        if index >= DAILY_DEALS:
            raise NightError(f"the {day.isoformat()} deals are all played: the host opens a "
                             "table without the daily deal to play on")
        self.deal_index = index
        self.state = daily_state(day, index)
        self.computers = daily_bots(day, index, None)  # fresh for each deal, as everyone's
        self.decisions = []
        self._changed(f"Daily deal {index + 1} of {DAILY_DEALS}: {self.state.dealer.word} "
                      "deals.")

    @property
    def daily_deal(self) -> int | None:
        """The daily deal on the table (from 1; the one just finished until the next is
        dealt; before the first deal, the one it will be), or None."""
        if self.daily is None:
            return None
        if self.state is None:
            return len(self.store.daily_deals(self.daily.isoformat())) + 1
        return self.deal_index + 1

    def act(self, player_id: int, raw: str, confirm: bool = False) -> Action | None:
        """The phone's decision, a tap's value or typed words ("jack of diamonds", "pass",
        "hearts"); NightError with the reason if it is not the seat's to make. With
        ``confirm`` (the player's option) a card counts only when it comes a second time
        with nothing changed at the table between: the first time it is only held (None)."""
        with self.lock:
            seat, action = self._checked(player_id, raw)
            if confirm and isinstance(action, Card) and \
                    self.pending.get(player_id) != (self.version, str(action)):
                self.pending[player_id] = (self.version, str(action))
                return None
            self.pending.pop(player_id, None)
            self._apply(seat, action, by_computer=False)
            return action

    def held(self, player_id: int) -> str | None:
        """The card the player's confirm option holds, while nothing changed at the table."""
        with self.lock:
            version, value = self.pending.get(player_id, (-1, ""))
            return value if version == self.version else None

    def _checked(self, player_id: int, raw: str) -> tuple[Seat, Action]:
        with self.lock:
            if self.closed:  # a tap that set out before the host closed or reopened it
                raise NightError("the host closed that table: look at the Table tab again")
            state = self.state
            seat = self.seat_of(player_id)
            if seat is None:
                raise NightError("you are watching: claim a seat to play")
            if self.seats[seat].away:
                raise NightError("a computer player has your seat: tap “Take my seat back” "
                                 "first")
            if state is None:
                raise NightError("no hand is dealt yet: the host deals")
            if state.is_terminal():
                raise NightError("the hand is over: deal the next one")
            if state.to_act != seat:
                who = state.to_act.word if state.to_act is not None else "nobody"
                raise NightError(f"it is {who}'s turn, not yours")
            if ":" in raw:  # a tap's value
                try:
                    verdict = state.check(parse_action(raw), seat)
                except (NotationError, ValueError):
                    raise NightError(f"{raw[:20]!r} is no card or call") from None
            else:
                verdict = state.check(typed_action(state, raw), seat)
            if not verdict.legal or verdict.action is None:
                refused = " ".join(verdict.facts)
                if verdict.alternatives:
                    refused += f" You may: {choices_words(verdict.alternatives)}."
                raise NightError(refused)
            return seat, verdict.action

    def _apply(self, seat: Seat, action: Action, by_computer: bool) -> None:
        state = self.state
        assert state is not None
        before = state.copy()
        self.decisions.append(Decision(seat, before, action, by_computer))
        state.apply(action)
        news = event_words(before, seat, action, state)
        if state.is_terminal():
            news += " " + self._finish(state)
        self._changed(news)

    def _finish(self, state: HandState) -> str:
        """Put the finished hand on the sheet with its record; say how it scored. A hand no
        person played a decision of goes nowhere."""
        people = any(not d.by_computer for d in self.decisions)
        self.last = (state, list(self.decisions))
        if self.daily is not None:
            if not people:
                return ("Nobody played this deal (the computers had every seat): it is not on "
                        "the daily board, and it is dealt again.")
            self.hands_played += 1
            return self._finish_daily(self.daily, state)
        self.hands_played += 1
        if not people:
            return "The computers played this hand alone: it is not put on the sheet."
        entry = entry_of(state)
        sheet, _ = self.store.sheet()
        number = len(sheet.entries) + 1
        record = record_from_state(state, {"event": "game night table", "hand": number})
        try:
            hand = self.store.add_played(entry, dump_record(record), "table")
        except (EntryError, NightError) as err:
            return f"Not put on the sheet: {err}."
        except sqlite3.Error:
            return "Not put on the sheet: the night's file could not be written."
        self.publish("sheet")
        self.entered += 1
        pts = hand.score.points if hand.score else {}
        what = ", ".join(f"{s} {p:+d}" for s, p in pts.items()) or "thrown in"
        return f"Hand {hand.number} is on the sheet: {what}."

    def _finish_daily(self, day: date, state: HandState) -> str:
        number = self.deal_index + 1
        record = record_from_state(state, {"event": f"daily deal {day.isoformat()}",
                                           "hand": number})
        net, par = net_points(state, "NS"), self.par[number - 1]
        seats = {str(s): info.name for s, info in self.seats.items() if self.human(s)}
        try:
            kept = self.store.add_daily(day.isoformat(), number, seats, net, par,
                                        _contract_words(state), dump_record(record))
        except sqlite3.Error:
            return "Not put on the daily board: the night's file could not be written."
        if not kept:
            return f"Daily deal {number} was on the board already: it counts once."
        return (f"Daily deal {number} is on the board: North-South {net:+d} net points, par "
                f"{par:+d}.")

    def _changed(self, news: str, say: bool = True) -> None:
        self.version += 1
        self.news = news
        if say:
            self._say(news)
        self._save()
        self.wake.notify_all()
        self.publish("table")

    def _say(self, news: str) -> None:
        self.said_count += 1
        self.said = [*self.said[-(SAID_KEPT - 1):], news]

    def said_since(self, count: int) -> list[tuple[int, str]]:
        """The events after the ``count``-th, numbered (as many as are kept)."""
        first = self.said_count - len(self.said) + 1
        return [(first + i, text) for i, text in enumerate(self.said) if first + i > count]

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

    def close(self, forget: bool = False) -> None:
        """Stop the computer players; ``forget``: the host closed the table, so the night's
        file no longer holds it (a server that stops keeps it, to open it again)."""
        with self.lock:
            self.closed = True
            self.wake.notify_all()
            if forget:
                self.store.save_table(None)

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
        from ...teaching.practice.coach import CoachFigures, coach_decision

        figures = CoachFigures()  # the seat's run of calls read one set of deals, solved once
        verdicts = [coach_decision(d.before, d.action, figures=figures) for d in mine]
        with self.lock:
            self.grades[key] = verdicts
            self._changed(self.news, say=False)


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


def action_value(action: Action) -> str:
    """An action as a tap's value (:func:`parse_action` reads it back)."""
    for kind, cls in (("bid", Bid), ("trump", Trump), ("mode", Mode), ("defense", Defense)):
        if isinstance(action, cls):
            return f"{kind}:{action}"
    return str(action)


def said(state: HandState, seat: Seat, action: Action) -> str:
    """What the room is told of ``seat``'s ``action`` (before it is applied to ``state``):
    a card put aside or passed in the exchange is face down, so the room hears only that it
    was."""
    return action_words(state, seat, action)


CARD_PHASES = (Phase.PLAY, Phase.DISCARD, Phase.SEND)
_BOWER = re.compile(r"\b(right|left) bower\b", re.IGNORECASE)


def typed_action(state: HandState, text: str) -> str:
    """What a player typed, as the engine's checker reads it: a card in notation or spelled
    ("JD", "jd", "the jack of diamonds", "the left bower" once trumps are a suit), a call,
    a trump, a way of playing or a defence as the terminal table takes them."""
    text = " ".join(text.split())
    if state.phase not in CARD_PHASES:
        return text
    words = spoken_cards(text).split()
    with contextlib.suppress(NotationError):
        return str(Card.parse(words[0])) if words else text
    bower = _BOWER.search(text)
    trump = state.trump
    if bower and trump is not None and trump.suit is not None:
        suit = trump.suit if bower.group(1).lower() == "right" else trump.suit.sister
        return f"J{suit.letter}"
    return text


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

