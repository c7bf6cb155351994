"""A night's state in one SQLite file: players, matches, hands, quiz questions and answers,
the card table and the tournament.

Every change is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``) in WAL mode, so a change
the server has acknowledged survives a crash or ``kill -9`` (changes to the sheet are also
fsynced, ``synchronous=FULL``, so they survive a power cut), and a change that fails (disk full,
a refusal) leaves nothing behind. The score sheet carries
a version that every change to it bumps: an entry made on an older view is refused
(:class:`StaleSheet`), so two people entering the same hand cannot enter it twice.

The connection settings, the transaction and the damaged-file policy are the SQLite
foundation's (:mod:`pepper_tutor.files.database`): a night's file that is damaged or someone
else's is renamed aside (``NAME.sqlite.damaged-TIMESTAMP-XXXX``) and a new night started, and
:attr:`NightStore.warning` says so. A busy, full, read-only or newer file is not damage: the
night does not start (:class:`NightError`, naming the file) and the file is left as it is.

The rules of the sheet are :class:`~pepper_tutor.records.scoresheet.ScoreSheet`'s, and those of
a tournament :mod:`pepper_tutor.records.tournament`'s; this module only keeps what was entered
(a tournament is written whole at every change, in the change's transaction).
"""

from __future__ import annotations

import functools
import json
import random
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...engine.rules import RuleSet, get_ruleset
from ...engine.seats import Seat
from ...files.database import Schema, connect, open_store, transaction
from ...records.scoresheet import EntryError, HandEntry, ScoredHand, ScoreSheet
from ...records.tournament import Tournament, tournament_from_json
from ...rulebook.feedback import AnswerError
from ...teaching.drills.quiz import JUDGEMENT_KINDS, QUIZ_KINDS, make_question
from ...teaching.puzzles.themes import THEMES
from ...teaching.questions.steps import Step
from .names import name_key
from .puzzle_round import PUZZLE_KIND, pick_puzzle, puzzle_step

# The drills a room answers together: every kind but the judgement drills, which take the
# analysis seconds to deal (a room should not wait on a position) and ask for a choice the
# room would argue about rather than a rule.
NIGHT_KINDS = tuple(k for k in QUIZ_KINDS if k not in JUDGEMENT_KINDS)
# What the host can ask: the drills, and a puzzle of the shipped set (:mod:`.puzzle_round`),
# whose positions were analysed when the set was made.
ASK_KINDS = (*NIGHT_KINDS, PUZZLE_KIND)

__all__ = ["NIGHT_KINDS", "ASK_KINDS", "NightStore", "StaleSheet", "WrongRejoin", "Player",
           "Question", "MatchInfo", "NightError", "ROOM_ALPHABET", "REJOIN_LENGTH", "clean_name"]

# Letters and digits that cannot be mistaken for one another when read off a wall.
ROOM_ALPHABET = "ACDEFHJKMNPRTWXY3479"
NAME_MAX = 24
# A rejoin code is guessed against one name, under the wrong-code lockout: 20**6 (64 million)
# codes at a few guesses a minute last far longer than a night.
REJOIN_LENGTH = 6
# Seconds a player (or the host) adds to a timed question with "more time".
MORE_TIME = 30
# Seconds a change waits for another's lock: a phone's request should fail in seconds, not hang.
BUSY_TIMEOUT = 5.0

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    token TEXT NOT NULL UNIQUE,
    scorekeeper INTEGER NOT NULL DEFAULT 0,
    joined REAL NOT NULL);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    rules TEXT NOT NULL,
    first_dealer TEXT NOT NULL,
    event TEXT NOT NULL DEFAULT '',
    started REAL NOT NULL);
CREATE TABLE IF NOT EXISTS hands (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    entry TEXT NOT NULL,
    entered_by TEXT NOT NULL,
    at REAL NOT NULL,
    UNIQUE (match_id, number));
CREATE TABLE IF NOT EXISTS questions (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    hard INTEGER NOT NULL,
    preset TEXT NOT NULL,
    seed INTEGER NOT NULL,
    opened REAL NOT NULL,
    closes REAL,
    closed REAL);
CREATE TABLE IF NOT EXISTS answers (
    question_id INTEGER NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    answer TEXT NOT NULL,
    key TEXT NOT NULL,
    correct INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (question_id, player_id));
CREATE TABLE IF NOT EXISTS question_puzzles (
    question_id INTEGER PRIMARY KEY REFERENCES questions(id) ON DELETE CASCADE,
    puzzle TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS daily_deals (
    id INTEGER PRIMARY KEY,
    day TEXT NOT NULL,
    deal INTEGER NOT NULL,
    seats TEXT NOT NULL,
    net INTEGER NOT NULL,
    par INTEGER NOT NULL,
    contract TEXT NOT NULL,
    record TEXT NOT NULL,
    at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS rejoin_codes (
    player_id INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
    code TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS card_table (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tournament (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS more_time (
    question_id INTEGER NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
    player_id INTEGER REFERENCES players(id) ON DELETE CASCADE,
    seconds INTEGER NOT NULL,
    at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS untimed (
    player_id INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE);
"""
# question_puzzles, daily_deals, rejoin_codes, card_table, tournament, more_time and untimed
# are made when a
# night's file is opened, so they are not among the tables every file of the store has: a
# night's file from before they came is still a night's file.
STORE = Schema(frozenset({"meta", "players", "matches", "hands", "questions", "answers"}),
               SCHEMA)


class NightError(ValueError):
    """A request the night cannot carry out, with the reason to show (a 4xx, never a 500)."""


class StaleSheet(NightError):
    """The sheet changed since the view the entry was made on."""


class WrongRejoin(NightError):
    """A rejoin with a name nobody has, or with a code that is not that player's: a guess,
    counted to the wrong-code lockout."""


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    token: str
    scorekeeper: bool


@dataclass(frozen=True)
class MatchInfo:
    id: int
    started: float
    event: str
    hands: int


@dataclass(frozen=True)
class Question:
    id: int
    kind: str
    hard: bool
    preset: str
    seed: int
    opened: float
    closes: float | None
    closed: float | None
    puzzle: str | None = None  # a puzzle question's puzzle, by its id in the shipped set

    @property
    def is_open(self) -> bool:
        return self.closed is None

    def step(self) -> Step[Any]:
        """The question itself, regenerated from its seed (a puzzle from the shipped set):
        the same position after a restart."""
        if self.kind == PUZZLE_KIND:
            if self.puzzle is None:
                raise NightError("this puzzle question names no puzzle")
            try:
                return puzzle_step(self.puzzle)
            except KeyError:
                raise NightError(f"puzzle {self.puzzle} is no longer in the shipped set: "
                                 "ask another question") from None
        return _step(self.kind, self.hard, self.preset, self.seed, self.id)


@lru_cache(maxsize=8)
def _step(kind: str, hard: bool, preset: str, seed: int, number: int) -> Step[Any]:
    # Fifty phones answer the same question: deal it once, not once per answer.
    return make_question(kind, random.Random(seed), number, get_ruleset(preset), hard)


def _changes_players(method: Callable[..., Player]) -> Callable[..., Player]:
    """A change to a player: the memory of who is who is dropped once it is written."""
    @functools.wraps(method)
    def changed(self: NightStore, *args: Any) -> Player:
        try:
            return method(self, *args)
        finally:
            self._players = None
    return changed


class NightStore:
    """The night's SQLite file. Thread-safe: one connection for changes behind one lock, short
    transactions; reads on connections of their own.

    Reads do not take the writers' lock: in WAL mode a reader sees the last commit and never
    waits for a writer (nor for its fsync). With one lock for everything, 200 phones asking for
    the new question queued on it behind each other and behind every answer being written,
    and a thread that held it while the busy machine gave its core to another job held up all
    the others (8 ms of waiting for 0.1 ms of reading)."""

    def __init__(self, path: Path):
        self.path = path
        self.warning: str | None = None  # a damaged file set aside on opening
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._players: dict[str, Player] | None = None  # by token (:meth:`cached_player`)
        self._last_tournament: tuple[str, Tournament] | None = None  # its text and value
        opening = open_store(path, STORE, timeout=BUSY_TIMEOUT)
        for why, aside in opening.set_aside:
            self.warning = (f"the night's file was damaged ({why}); it is kept as {aside} and "
                            "a new night was started")
        if not opening.ready:
            raise NightError(f"the night cannot start: {opening.problem}; the file was left "
                             "as it is")
        self._db = connect(path, timeout=BUSY_TIMEOUT, synchronous="FULL")
        self._db.row_factory = sqlite3.Row
        # Idle read connections; one is taken for each read and put back (as many as reads
        # ever ran at once: the worker threads and the event loop).
        self._spare: list[sqlite3.Connection] = []
        self._readers: list[sqlite3.Connection] = []  # every one, to close
        self._readers_lock = threading.Lock()  # not the writers': a read never waits on it
        with self._tx() as db:
            self._init_meta(db)
            # The sheet's version in memory too: every phone's sheet part asks for it, and
            # this store is the file's only writer (a change bumps both, file first).
            self._sheet_version = int(db.execute(
                "SELECT value FROM meta WHERE key = 'sheet_version'").fetchone()[0])

    def close(self) -> None:
        with self._lock, self._readers_lock:
            for reader in self._readers:
                reader.close()
            self._readers.clear()
            self._spare.clear()
            self._db.close()

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """A read connection of this thread's own while the block runs."""
        try:
            con = self._spare.pop()  # atomic: two threads never get the same one
        except IndexError:
            con = connect(self.path, timeout=BUSY_TIMEOUT)
            con.row_factory = sqlite3.Row
            with self._readers_lock:
                self._readers.append(con)
        try:
            yield con
        finally:
            if con.in_transaction:  # a read that failed half way leaves no snapshot open
                con.execute("ROLLBACK")
            self._spare.append(con)

    @contextmanager
    def _tx(self, durable: bool = True) -> Iterator[sqlite3.Connection]:
        """One transaction: everything in the block is written, or nothing is.

        Every commit is in the WAL file before it returns, so it survives the server being
        killed. ``durable`` also waits for the disk (fsync), so it survives a power cut too:
        the sheet's changes are; a quiz answer or a join (two hundred in a minute, each
        holding up every other change while the disk is waited for) is not worth 5-10 ms."""
        with self._lock:
            self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            with transaction(self._db) as db:
                yield db

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._reading() as db:
            return db.execute(sql, args).fetchall()

    def _init_meta(self, db: sqlite3.Connection) -> None:
        have = {r["key"] for r in db.execute("SELECT key FROM meta")}
        fresh = {"host_token": secrets.token_urlsafe(24),
                 "room_code": _code(5),
                 "secret": secrets.token_hex(32),
                 "sheet_version": "0",
                 "created": str(time.time())}
        for key, value in fresh.items():
            if key not in have:
                db.execute("INSERT INTO meta VALUES (?, ?)", (key, value))
        if db.execute("SELECT COUNT(*) FROM matches").fetchone()[0] == 0:
            db.execute("INSERT INTO matches (rules, first_dealer, event, started) "
                       "VALUES (?, ?, ?, ?)",
                       (json.dumps(get_ruleset("standard").to_mapping()), "W", "", time.time()))

    def meta(self, key: str) -> str:
        return str(self._read("SELECT value FROM meta WHERE key = ?", (key,))[0]["value"])

    @property
    def host_token(self) -> str:
        return self.meta("host_token")

    @property
    def room_code(self) -> str:
        return self.meta("room_code")

    def rotate_room_code(self) -> str:
        """A fresh room code, never the one it replaces."""
        old = self.room_code
        code = old
        while code == old:
            code = _code(5)
        with self._tx() as db:
            db.execute("UPDATE meta SET value = ? WHERE key = 'room_code'", (code,))
        return code

    # ---- players ------------------------------------------------------------------------

    @_changes_players
    def join(self, name: str) -> Player:
        clean = clean_name(name)
        token = secrets.token_urlsafe(24)
        # Not waited onto the disk: in WAL mode it survives the server being killed; a
        # power cut could lose it, and the phone joins again, as with its answers.
        with self._tx(durable=False) as db:
            taken = _named(db, clean)
            if taken is not None:
                raise NightError(f"someone here is already called {taken['name']}: pick "
                                 "another name, or, if that is you on a new phone, type "
                                 "your rejoin code (on your old phone under your name, or "
                                 "ask the host)")
            cur = db.execute("INSERT INTO players (name, token, joined) VALUES (?, ?, ?)",
                             (clean, token, time.time()))
            pid = int(cur.lastrowid or 0)
        return Player(pid, clean, token, False)

    def rejoin_code(self, player_id: int) -> str:
        """The code that lets the player's next phone in under their name (made the first
        time it is asked for: players who joined before codes came have one too)."""
        rows = self._read("SELECT code FROM rejoin_codes WHERE player_id = ?", (player_id,))
        if rows:
            return str(rows[0]["code"])
        with self._tx() as db:
            # Two pages asking at once get the same code: the first one written stays.
            db.execute("INSERT OR IGNORE INTO rejoin_codes SELECT id, ? FROM players "
                       "WHERE id = ?", (_code(REJOIN_LENGTH), player_id))
            row = db.execute("SELECT code FROM rejoin_codes WHERE player_id = ?",
                             (player_id,)).fetchone()
        if row is None:
            raise NightError("no such player")
        return str(row["code"])

    def new_rejoin_code(self, player_id: int) -> str:
        """A fresh rejoin code for the player (the host's "let a new phone in"): the one
        shown on their old phone no longer works."""
        code = _code(REJOIN_LENGTH)
        with self._tx() as db:
            cur = db.execute("INSERT OR REPLACE INTO rejoin_codes SELECT id, ? FROM players "
                             "WHERE id = ?", (code, player_id))
            if cur.rowcount != 1:
                raise NightError("no such player")
        return code

    @_changes_players
    def rejoin(self, name: str, code: str) -> Player:
        """The player called ``name`` on a new phone, if ``code`` is their rejoin code: the
        same player (answers, seat, role) with a new cookie token, so the old phone is out,
        and a new code, so the one typed works once."""
        clean = clean_name(name)
        token = secrets.token_urlsafe(24)
        with self._tx() as db:
            named = _named(db, clean)
            row = None if named is None else db.execute(
                "SELECT p.*, r.code FROM players p LEFT JOIN rejoin_codes r "
                "ON r.player_id = p.id WHERE p.id = ?", (named["id"],)).fetchone()
            if row is None:
                raise WrongRejoin(f"nobody here is called {clean}: to join for the first "
                                  "time, leave the rejoin code empty")
            if row["code"] is None or not secrets.compare_digest(
                    code.strip().upper().encode(), str(row["code"]).encode()):
                raise WrongRejoin(f"that is not {row['name']}'s rejoin code: it is on their "
                                  "old phone under the name, or the host can give a new one")
            db.execute("UPDATE players SET token = ? WHERE id = ?", (token, row["id"]))
            db.execute("UPDATE rejoin_codes SET code = ? WHERE player_id = ?",
                       (_code(REJOIN_LENGTH), row["id"]))
        return Player(int(row["id"]), str(row["name"]), token, bool(row["scorekeeper"]))

    def player_by_token(self, token: str) -> Player | None:
        rows = self._read("SELECT * FROM players WHERE token = ?", (token,))
        return _player(rows[0]) if rows else None

    def cached_player(self, token: str) -> Player | None:
        """:meth:`player_by_token` from memory: every request asks who is asking, and a
        read of the file for it (in a worker thread) doubled an answer's time under load.
        The cache is filled from the file and dropped whole on every change to a player."""
        cache = self._players
        if cache is None:
            cache = self._players = {p.token: p for p in self.players()}
        found = cache.get(token)
        if found is None:  # a token unknown a moment ago may have just joined
            found = self.player_by_token(token)
            if found is not None:
                cache[token] = found
        return found

    def players(self) -> list[Player]:
        return [_player(r) for r in self._read("SELECT * FROM players ORDER BY joined")]

    @_changes_players
    def rename_player(self, player_id: int, name: str) -> Player:
        clean = clean_name(name)
        with self._tx() as db:
            taken = _named(db, clean)
            if taken is not None and taken["id"] != player_id:
                raise NightError(f"someone here is already called {taken['name']}: pick "
                                 "another name")
            cur = db.execute("UPDATE players SET name = ? WHERE id = ?", (clean, player_id))
            if cur.rowcount != 1:
                raise NightError("no such player")
            row = db.execute("SELECT * FROM players WHERE id = ?", (player_id,)).fetchone()
        return _player(row)

    @_changes_players
    def remove_player(self, player_id: int) -> Player:
        """Take a player out of the night, with their answers (their phone must join again)."""
        with self._tx() as db:
            row = db.execute("SELECT * FROM players WHERE id = ?", (player_id,)).fetchone()
            if row is None:
                raise NightError("no such player")
            db.execute("DELETE FROM players WHERE id = ?", (player_id,))
        return _player(row)

    @_changes_players
    def set_scorekeeper(self, player_id: int, on: bool) -> Player:
        with self._tx() as db:
            cur = db.execute("UPDATE players SET scorekeeper = ? WHERE id = ?",
                             (int(on), player_id))
            if cur.rowcount != 1:
                raise NightError("no such player")
            row = db.execute("SELECT * FROM players WHERE id = ?", (player_id,)).fetchone()
        return _player(row)

    # ---- the score sheet ----------------------------------------------------------------

    def sheet_version(self) -> int:
        """The sheet's version, from memory (no lock, no file: see :meth:`_sheet_change`)."""
        return self._sheet_version

    def _sheet_from(self, db: sqlite3.Connection,
                    match_id: int | None = None) -> tuple[ScoreSheet, int]:
        match = (db.execute("SELECT * FROM matches ORDER BY id DESC LIMIT 1").fetchone()
                 if match_id is None else
                 db.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone())
        if match is None:
            raise NightError("no such match")
        sheet = ScoreSheet(get_ruleset(json.loads(match["rules"])), match["first_dealer"],
                           match["event"])
        for row in db.execute("SELECT entry FROM hands WHERE match_id = ? ORDER BY number",
                              (match["id"],)):
            sheet.entries.append(HandEntry.from_json(json.loads(row["entry"])))
        return sheet, int(match["id"])

    def sheet(self, match_id: int | None = None) -> tuple[ScoreSheet, int]:
        """The current match's sheet (or match ``match_id``'s) and the version it was read at
        (one consistent read)."""
        with self._reading() as db:
            db.execute("BEGIN")  # one snapshot for the hands and the version
            try:
                sheet, _ = self._sheet_from(db, match_id)
                version = int(db.execute(
                    "SELECT value FROM meta WHERE key = 'sheet_version'").fetchone()[0])
            finally:
                db.execute("COMMIT")
        return sheet, version

    @contextmanager
    def _sheet_change(self, seen: int) -> Iterator[tuple[sqlite3.Connection, ScoreSheet, int]]:
        """A change to the sheet made on the view at version ``seen``: refused if stale, and
        once made, the sheet is at version ``seen + 1`` (the screen that made it is told so)."""
        with self._lock:
            with self._tx() as db:
                version = int(db.execute(
                    "SELECT value FROM meta WHERE key = 'sheet_version'").fetchone()[0])
                if seen != version:
                    raise StaleSheet("the sheet changed while you were looking at it "
                                     "(someone else entered or took back a hand): check the "
                                     "fresh sheet, then press Add again if your hand is still "
                                     "missing")
                sheet, match_id = self._sheet_from(db)
                yield db, sheet, match_id
                db.execute("UPDATE meta SET value = ? WHERE key = 'sheet_version'",
                           (str(version + 1),))
            # Committed (a failed commit raised above): memory follows the file, still under
            # the lock, so no change can come between.
            self._sheet_version = version + 1

    def add_hand(self, seen: int, by: str, bidder: str | None, bid: str | None,
                 trump: str | None, mode: str | None, defense: str | None,
                 bidder_tricks: int | None, tricks: dict[str, int] | None) -> ScoredHand:
        with self._sheet_change(seen) as (db, sheet, match_id):
            hand = sheet.add_simple(bidder, bid, trump, mode, defense, bidder_tricks, tricks)
            db.execute("INSERT INTO hands (match_id, number, entry, entered_by, at) "
                       "VALUES (?, ?, ?, ?, ?)",
                       (match_id, hand.number, json.dumps(hand.entry.to_json()), by,
                        time.time()))
        return hand

    def add_played(self, entry: HandEntry, record: str, by: str) -> ScoredHand:
        """A hand played at the night's table, with its ``pepper-hand/1`` record: the table
        is the sheet's own witness, so it goes on whatever version the sheet is at."""
        with self._sheet_change(self.sheet_version()) as (db, sheet, match_id):
            hand = sheet.add(entry)
            db.execute("INSERT INTO hands (match_id, number, entry, entered_by, at) "
                       "VALUES (?, ?, ?, ?, ?)",
                       (match_id, hand.number, json.dumps({**entry.to_json(), "record": record}),
                        by, time.time()))
        return hand

    def played_records(self, match_id: int | None = None) -> dict[int, str]:
        """The records of the match's hands played at the table, by hand number."""
        with self._reading() as db:
            _, mid = self._sheet_from(db, match_id)
        rows = self._read("SELECT number, entry FROM hands WHERE match_id = ?", (mid,))
        found = {int(r["number"]): json.loads(r["entry"]).get("record") for r in rows}
        return {n: text for n, text in found.items() if text}

    def undo_hand(self, seen: int) -> int:
        with self._sheet_change(seen) as (db, sheet, match_id):
            if not sheet.entries:
                raise EntryError("there is no hand to undo")
            number = len(sheet.entries)
            db.execute("DELETE FROM hands WHERE match_id = ? AND number = ?",
                       (match_id, number))
        return number

    def new_match(self, seen: int, rules: RuleSet, first_dealer: Seat, event: str = "",
                  entries: list[HandEntry] | None = None) -> None:
        """Start a new match (the old one stays in the file); ``entries`` imports a sheet."""
        with self._sheet_change(seen) as (db, _old, _id):
            sheet = ScoreSheet(rules, first_dealer, event)
            for entry in entries or []:
                sheet.check(entry)
                sheet.entries.append(entry)
            cur = db.execute("INSERT INTO matches (rules, first_dealer, event, started) "
                             "VALUES (?, ?, ?, ?)", (json.dumps(rules.to_mapping()),
                                                     str(first_dealer), event, time.time()))
            for number, entry in enumerate(sheet.entries, 1):
                db.execute("INSERT INTO hands (match_id, number, entry, entered_by, at) "
                           "VALUES (?, ?, ?, ?, ?)", (cur.lastrowid, number,
                                                      json.dumps(entry.to_json()), "import",
                                                      time.time()))

    def matches(self) -> list[MatchInfo]:
        """Every match of the night, the newest (the current one) first."""
        rows = self._read("SELECT m.id, m.started, m.event, COUNT(h.id) AS n FROM matches m "
                          "LEFT JOIN hands h ON h.match_id = m.id GROUP BY m.id "
                          "ORDER BY m.id DESC")
        return [MatchInfo(int(r["id"]), float(r["started"]), str(r["event"]), int(r["n"]))
                for r in rows]

    def undo_new_match(self, seen: int) -> int:
        """Take back the newest match if no hand was entered in it: the one before it is the
        current match again, as it was. Returns the number of the match taken back."""
        with self._sheet_change(seen) as (db, sheet, match_id):
            if db.execute("SELECT COUNT(*) FROM matches").fetchone()[0] < 2:
                raise NightError("there is no earlier match to go back to")
            if sheet.entries:
                one = len(sheet.entries) == 1
                raise NightError(f"{len(sheet.entries)} hand{'' if one else 's'} "
                                 f"{'was' if one else 'were'} entered in the new match: take "
                                 f"{'it' if one else 'them'} back first")
            db.execute("DELETE FROM matches WHERE id = ?", (match_id,))
        return match_id

    # ---- the daily deal -----------------------------------------------------------------

    def add_daily(self, day: str, deal: int, seats: dict[str, str], net: int, par: int,
                  contract: str, record: str) -> bool:
        """A daily deal played at the night's table: who sat where (``seats``: seat to name,
        people only), North-South's net points and par, and the hand's record.
        Each deal is kept once: a deal already on the board is not written again (False)."""
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO daily_deals (day, deal, seats, net, par, contract, record, at) "
                "SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM daily_deals "
                "WHERE day = ? AND deal = ?)",
                (day, deal, json.dumps(seats), net, par, contract, record, time.time(), day,
                 deal))
        return cur.rowcount == 1

    def daily_deals(self, day: str) -> list[dict[str, Any]]:
        """The day's deals played tonight, in the order played, each once (a night's file
        from before each deal was kept once may hold a deal twice: the first counts)."""
        rows = self._read("SELECT * FROM daily_deals WHERE id IN (SELECT MIN(id) FROM "
                          "daily_deals WHERE day = ? GROUP BY deal) ORDER BY id", (day,))
        return [{"deal": int(r["deal"]), "seats": json.loads(r["seats"]), "net": int(r["net"]),
                 "par": int(r["par"]), "contract": str(r["contract"])} for r in rows]

    # ---- the card table -----------------------------------------------------------------

    def save_table(self, data: dict[str, Any] | None) -> None:
        """The card table as it is now (its seats, the hand in play), or None once it is
        closed. Written at every change, not waited onto the disk: in WAL mode it survives
        the server being killed, and a table changes every second while it plays."""
        with self._tx(durable=False) as db:
            if data is None:
                db.execute("DELETE FROM card_table")
            else:
                db.execute("INSERT OR REPLACE INTO card_table VALUES (1, ?)",
                           (json.dumps(data),))

    def saved_table(self) -> dict[str, Any] | None:
        rows = self._read("SELECT data FROM card_table")
        if not rows:
            return None
        found = json.loads(rows[0]["data"])
        return found if isinstance(found, dict) else None

    # ---- tournament night ---------------------------------------------------------------

    def start_tournament(self, tournament: Tournament, replace: bool = False) -> None:
        """Keep this tournament as the night's (its teams, plan and any results). One that
        has results already is replaced only when ``replace`` says so."""
        with self._tx() as db:
            old = self._tournament_in(db)
            if old is not None and old.results and not replace:
                n = len(old.results)
                raise NightError(f"a tournament is under way ({n} result{'' if n == 1 else 's'} "
                                 "entered): end it before starting another")
            self._keep_tournament(db, tournament)
            db.execute("DELETE FROM meta WHERE key = 'tournament_notes'")

    def tournament(self) -> Tournament | None:
        """The night's tournament as it was last written, or None."""
        rows = self._read("SELECT data FROM tournament")
        return self._parsed_tournament(str(rows[0]["data"])) if rows else None

    def record_result(self, game: str, winner: int,
                      scores: tuple[int, int] | None = None) -> Tournament:
        """Enter a game's result: read, checked (a
        :class:`~pepper_tutor.records.teams.TournamentError` says why not) and written in one
        transaction, so two hosts entering the same game cannot both enter it."""
        with self._tx() as db:
            changed = self._running(db).record(game, winner, scores)
            self._keep_tournament(db, changed)
        return changed

    def undo_result(self) -> Tournament:
        """Take back the last result entered."""
        with self._tx() as db:
            changed = self._running(db).undo()
            self._keep_tournament(db, changed)
        return changed

    def end_tournament(self) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM tournament")
            db.execute("DELETE FROM meta WHERE key = 'tournament_notes'")

    def tournament_notes(self) -> dict[str, Any]:
        """What the night keeps beside its tournament (the round clock, the game played at
        the app's table): gone with the tournament it was kept for."""
        rows = self._read("SELECT value FROM meta WHERE key = 'tournament_notes'")
        found = json.loads(rows[0]["value"]) if rows else {}
        return found if isinstance(found, dict) else {}

    def note_tournament(self, key: str, value: Any) -> None:
        """Keep ``value`` (JSON) under ``key`` beside the tournament that is running (None
        forgets it)."""
        with self._tx() as db:
            self._running(db)
            row = db.execute("SELECT value FROM meta WHERE key = 'tournament_notes'").fetchone()
            notes = json.loads(row["value"]) if row is not None else {}
            if value is None:
                notes.pop(key, None)
            else:
                notes[key] = value
            db.execute("INSERT OR REPLACE INTO meta VALUES ('tournament_notes', ?)",
                       (json.dumps(notes),))

    def _running(self, db: sqlite3.Connection) -> Tournament:
        found = self._tournament_in(db)
        if found is None:
            raise NightError("no tournament has been started tonight")
        return found

    def _tournament_in(self, db: sqlite3.Connection) -> Tournament | None:
        row = db.execute("SELECT data FROM tournament").fetchone()
        return None if row is None else self._parsed_tournament(str(row["data"]))

    def _keep_tournament(self, db: sqlite3.Connection, tournament: Tournament) -> None:
        text = json.dumps(tournament.to_json())
        db.execute("INSERT OR REPLACE INTO tournament VALUES (1, ?)", (text,))
        self._last_tournament = (text, tournament)  # the value is immutable: shared safely

    def _parsed_tournament(self, text: str) -> Tournament:
        """The tournament this text holds. Reading one checks every result again, which for
        a long movement (64 teams, 30 rounds) takes a second: the one last written or read
        is kept, so a result costs one step, not the night's replay."""
        last = self._last_tournament
        if last is not None and last[0] == text:
            return last[1]
        found = tournament_from_json(json.loads(text))
        self._last_tournament = (text, found)
        return found

    # ---- the quiz ---------------------------------------------------------------------

    def ask(self, kind: str, hard: bool, preset: str, seconds: int | None,
            theme: str | None = None) -> Question:
        """Close any open question and put a new one on the projector. A puzzle is drawn
        from the shipped set, of ``theme`` if one is given, and plays by its own rules."""
        if kind not in ASK_KINDS:
            raise NightError(f"no quiz {kind!r} (the drills are {', '.join(ASK_KINDS)})")
        if theme is not None and theme not in THEMES:
            raise NightError(f"no puzzle theme {theme[:40]!r}")
        seed = secrets.randbits(48)
        puzzle = None
        if kind == PUZZLE_KIND:
            asked = {str(r["puzzle"]) for r in self._read("SELECT puzzle FROM question_puzzles")}
            found = pick_puzzle(seed, theme, hard, asked)
            if found is None:
                raise NightError("every puzzle of that theme was asked tonight (or the set has "
                                 "none): pick another theme")
            puzzle, preset = found.id, str(found.data["rules"])
        get_ruleset(preset)  # refuse an unknown rule set before anything is written
        now = time.time()
        closes = now + seconds if seconds else None
        with self._tx() as db:
            db.execute("UPDATE questions SET closed = ? WHERE closed IS NULL", (now,))
            cur = db.execute("INSERT INTO questions (kind, hard, preset, seed, opened, closes) "
                             "VALUES (?, ?, ?, ?, ?, ?)", (kind, int(hard), preset, seed, now,
                                                           closes))
            qid = int(cur.lastrowid or 0)
            if puzzle is not None:
                db.execute("INSERT INTO question_puzzles VALUES (?, ?)", (qid, puzzle))
        q = self.question(qid)
        assert q is not None
        return q

    def question(self, qid: int | None = None) -> Question | None:
        """A question by id, or the latest one (open or closed)."""
        picked = ("SELECT q.*, p.puzzle FROM questions q LEFT JOIN question_puzzles p "
                  "ON p.question_id = q.id ")
        rows = (self._read(picked + "WHERE q.id = ?", (qid,)) if qid is not None
                else self._read(picked + "ORDER BY q.id DESC LIMIT 1"))
        return _question(rows[0]) if rows else None

    def close_question(self, qid: int) -> bool:
        """Close it now; False if it was closed already."""
        with self._tx() as db:
            cur = db.execute("UPDATE questions SET closed = ? WHERE id = ? AND closed IS NULL",
                             (time.time(), qid))
        return cur.rowcount == 1

    def more_time(self, qid: int, player_id: int | None, seconds: int = MORE_TIME) -> float:
        """Give the open question ``seconds`` more, for the whole room (its answer is shown to
        everyone when it closes, so nobody may answer after that); ``player_id`` asked (None:
        the host). Kept in the night's file: the results say who asked. Returns the new
        closing time."""
        with self._tx() as db:
            row = db.execute("SELECT closed, closes FROM questions WHERE id = ?",
                             (qid,)).fetchone()
            if row is None or row["closed"] is not None:
                raise NightError("this question is closed: answers are no longer taken")
            if row["closes"] is None:
                raise NightError("this question has no time limit: take your time")
            now = time.time()
            closes = max(float(row["closes"]), now) + seconds
            db.execute("UPDATE questions SET closes = ? WHERE id = ?", (closes, qid))
            db.execute("INSERT INTO more_time VALUES (?, ?, ?, ?)", (qid, player_id, seconds,
                                                                     now))
        return closes

    def time_asked(self, qid: int) -> list[tuple[str, int]]:
        """Who asked for more time on the question (the host as "the host"), and how much."""
        rows = self._read("SELECT p.name, m.seconds FROM more_time m LEFT JOIN players p "
                          "ON p.id = m.player_id WHERE m.question_id = ? ORDER BY m.at", (qid,))
        return [(str(r["name"] or "the host"), int(r["seconds"])) for r in rows]

    def set_untimed(self, player_id: int, on: bool) -> None:
        """A player for whom a question's timer does not run out: a timed question waits
        for their answer (or for the host to close it)."""
        with self._tx() as db:
            if on:
                db.execute("INSERT OR IGNORE INTO untimed VALUES (?)", (player_id,))
            else:
                db.execute("DELETE FROM untimed WHERE player_id = ?", (player_id,))

    def untimed(self) -> set[int]:
        return {int(r["player_id"]) for r in self._read("SELECT player_id FROM untimed")}

    def waiting_for(self, qid: int) -> list[str]:
        """The players without a time limit who have not answered the question yet."""
        rows = self._read("SELECT p.name FROM untimed u JOIN players p ON p.id = u.player_id "
                          "WHERE NOT EXISTS (SELECT 1 FROM answers a WHERE a.question_id = ? "
                          "AND a.player_id = u.player_id) ORDER BY p.name COLLATE NOCASE",
                          (qid,))
        return [str(r["name"]) for r in rows]

    def close_expired(self) -> bool:
        """Close a question whose timer ran out, unless a player without a time limit has
        not answered it yet; True if one was closed."""
        now = time.time()
        due = ("closed IS NULL AND closes IS NOT NULL AND closes <= ? AND NOT EXISTS ("
               "SELECT 1 FROM untimed u WHERE NOT EXISTS (SELECT 1 FROM answers a WHERE "
               "a.question_id = questions.id AND a.player_id = u.player_id))")
        if not self._read(f"SELECT 1 FROM questions WHERE {due}", (now,)):
            return False  # the usual case, asked twice a second: no write, no fsync
        with self._tx() as db:
            # Closed when its time ran out, or at the last answer of a player it waited for.
            cur = db.execute("UPDATE questions SET closed = MAX(closes, (SELECT COALESCE("
                             "MAX(at), 0) FROM answers a WHERE a.question_id = questions.id)) "
                             f"WHERE {due}", (now,))
        return cur.rowcount > 0

    def answer(self, player: Player, qid: int, raw: str) -> bool:
        """Record a player's one answer to the open question; returns whether it is right."""
        q = self.question(qid)
        if q is None:
            raise NightError("no such question")
        step = q.step()
        try:
            parsed = step.parse(raw)
        except AnswerError as err:
            raise NightError(str(err)) from None
        correct = step.is_right(parsed)
        try:
            with self._tx(durable=False) as db:
                row = db.execute("SELECT closed, closes FROM questions WHERE id = ?",
                                 (qid,)).fetchone()
                now = time.time()
                late = row["closes"] is not None and row["closes"] <= now
                if late and db.execute("SELECT 1 FROM untimed WHERE player_id = ?",
                                       (player.id,)).fetchone():
                    late = False  # the timer does not run out for this player
                if row["closed"] is not None or late:
                    raise NightError("this question is closed: answers are no longer taken")
                db.execute("INSERT INTO answers VALUES (?, ?, ?, ?, ?, ?)",
                           (qid, player.id, raw, step.key(parsed), int(correct), now))
        except sqlite3.IntegrityError:
            raise NightError("you have already answered this question") from None
        return correct

    def answers(self, qid: int) -> list[sqlite3.Row]:
        return self._read("SELECT a.*, p.name FROM answers a JOIN players p "
                          "ON p.id = a.player_id WHERE question_id = ? ORDER BY a.at", (qid,))

    def answer_of(self, player_id: int, qid: int) -> sqlite3.Row | None:
        rows = self._read("SELECT * FROM answers WHERE question_id = ? AND player_id = ?",
                          (qid, player_id))
        return rows[0] if rows else None

    def leaderboard(self) -> list[tuple[str, int, int]]:
        """(name, right, answered) over the night's closed questions, best first; players
        with as many right answers are tied (:func:`.views.ranked` gives them one rank) and
        listed by name."""
        done = "q.closed IS NOT NULL"
        rows = self._read(
            f"SELECT p.name, SUM(CASE WHEN {done} AND a.correct THEN 1 ELSE 0 END) AS nright, "
            f"SUM(CASE WHEN {done} THEN 1 ELSE 0 END) AS nanswered "
            "FROM players p LEFT JOIN answers a ON a.player_id = p.id "
            "LEFT JOIN questions q ON q.id = a.question_id "
            "GROUP BY p.id ORDER BY nright DESC, p.name COLLATE NOCASE")
        return [(r["name"], int(r["nright"]), int(r["nanswered"])) for r in rows]

    def counts(self) -> dict[str, int]:
        """Rows per table (for the load test's lost-nothing check)."""
        return {t: int(self._read(f"SELECT COUNT(*) AS n FROM {t}")[0]["n"])
                for t in ("players", "matches", "hands", "questions", "answers")}


def clean_name(name: str) -> str:
    """A player's name as shown: spaces collapsed, checked (NightError says why not)."""
    clean = " ".join(name.split())
    if not clean:
        raise NightError("type a name to show on the leaderboard")
    if len(clean) > NAME_MAX:
        raise NightError(f"a name of at most {NAME_MAX} characters, please")
    if any(not ch.isprintable() for ch in clean):
        raise NightError("a name of letters, digits and spaces, please")
    return clean


def _named(db: sqlite3.Connection, name: str) -> sqlite3.Row | None:
    """The player whose name reads as ``name`` (:func:`.names.name_key`: the same letters
    whatever their case, accents or look-alike script), if there is one. A night has at most
    a few hundred players: they are compared here rather than by a column of keys, which
    would not be in the files of nights from before."""
    key = name_key(name)
    return next((r for r in db.execute("SELECT id, name FROM players")
                 if name_key(r["name"]) == key), None)


def _code(length: int) -> str:
    return "".join(secrets.choice(ROOM_ALPHABET) for _ in range(length))


def _player(row: sqlite3.Row) -> Player:
    return Player(int(row["id"]), str(row["name"]), str(row["token"]), bool(row["scorekeeper"]))


def _question(row: sqlite3.Row) -> Question:
    return Question(int(row["id"]), str(row["kind"]), bool(row["hard"]), str(row["preset"]),
                    int(row["seed"]), float(row["opened"]), row["closes"], row["closed"],
                    row["puzzle"])
