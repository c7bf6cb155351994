"""Hand records in the ``pepper-hand/1`` format: load, validate, replay, write back.

A record is what a table writes down about one hand: the deal, the calls, trumps, the
exchange, the defense and the tricks, with optional notes, glyphs and rule ids on any call
or card. Loading checks the record's shape and replays it through the engine; every problem
is reported at once with the file, line and column. A revoke is *not* a load problem: real
hands contain them, and the annotator reports them as findings. :class:`Replay` is the one
walk of a record through the engine: the reader's checks, :func:`record_to_state` and the
annotator all use it.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.cards import Card, NotationError
from ..engine.rules import RuleSet, get_ruleset
from ..engine.seats import Seat
from ..files.yamlpos import (
    KeyPath,
    LoadError,
    Problem,
    ProblemCollector,
    load_located,
    read_file,
)

if TYPE_CHECKING:
    from ..engine.state import Action, HandState, Trick

__all__ = ["FORMAT", "GLYPHS", "Entry", "HandRecord", "load_record", "parse_record",
           "dump_record", "record_from_state", "record_to_state", "placeholder_deal",
           "RulesCollector", "Replay", "Step", "TrickEnd", "Stop",
           "LoadError", "Problem"]

FORMAT = "pepper-hand/1"
GLYPHS = ("!", "?", "!!", "??", "!?", "?!")
TOP_KEYS = ("format", "rules", "meta", "dealer", "deal", "auction", "trump", "mode",
            "exchange", "defense", "tricks", "result", "score_before")
ENTRY_KEYS = ("note", "glyph", "rule")

T = TypeVar("T")


@dataclass(frozen=True)
class Entry(Generic[T]):
    """A call or card of the record, with the note, glyph and rule id written beside it."""

    value: T
    note: str | None = None
    glyph: str | None = None
    rule: str | None = None
    line: int = 0

    def to_yaml(self, key: str) -> Any:
        text = _scalar_out(self.value)
        if self.note is None and self.glyph is None and self.rule is None:
            return text
        out: dict[str, Any] = {key: text}
        for name in ENTRY_KEYS:
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        return out


def _scalar_out(value: object) -> Any:
    if isinstance(value, Bid):
        return int(value) if 1 <= value <= 6 else str(value)
    return str(value)


@dataclass
class HandRecord:
    """One hand as written down. Build with :func:`load_record` or :func:`parse_record`."""

    rules: RuleSet
    dealer: Seat
    deal: dict[Seat, list[Card]]
    auction: list[Entry[Bid]] = field(default_factory=list)
    trump: Entry[Trump] | None = None
    mode: Entry[Mode] | None = None
    discard: Entry[Card] | None = None
    passed: Entry[Card] | None = None
    defense: Entry[Defense] | None = None
    tricks: list[list[Entry[Card]]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    score_before: dict[str, int] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    extras: dict[str, Any] = field(default_factory=dict)
    file: str = "<record>"


def load_record(path: str | Path) -> HandRecord:
    """Read and validate a record file. Raises :class:`LoadError` listing every problem."""
    return parse_record(*read_file(path))


def parse_record(text: bytes | str, file: str = "<record>") -> HandRecord:
    """Parse and validate record text; see :func:`load_record`."""
    doc = load_located(text, file)
    return _Reader(doc).read()


class RulesCollector(ProblemCollector):
    """A located reader that also reads a ``rules:`` value (records and lesson files both
    name their rule set the same way)."""

    def ruleset(self, path: KeyPath, raw: Any) -> RuleSet | None:
        """The RuleSet a ``rules:`` value names (a preset or a mapping of switches), each
        switch checked for its type where it is written (``target: true`` is no number)."""
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            self.bad(path, "rules is empty; expected a preset name such as standard, or a "
                           "mapping of switches")
            return None
        if not isinstance(raw, dict | str):
            self.bad(path, "rules must be a preset name or a mapping of switches")
            return None
        before = len(self.problems)
        if isinstance(raw, dict):
            kinds = {f.name: str(f.type) for f in fields(RuleSet)}
            for key, value in raw.items():
                kind = kinds.get(key)
                if kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
                    self.bad((*path, key), f"{key} must be a whole number, not {value!r}")
                elif kind == "bool" and not isinstance(value, bool):
                    self.bad((*path, key), f"{key} must be true or false, not {value!r}")
                elif kind == "str" and not isinstance(value, str):
                    self.bad((*path, key), f"{key} must be a word, not {value!r}")
        if len(self.problems) > before:
            return None
        try:
            return get_ruleset(raw)
        except (ValueError, TypeError) as err:
            self.bad(path, str(err))
            return None


class _Reader(RulesCollector):

    # ---- shape -------------------------------------------------------------------------

    def read(self) -> HandRecord:
        data = self.doc.data
        if not isinstance(data, dict):
            raise LoadError([self.doc.problem((), "expected a mapping of keys such as format, "
                                                  "rules, dealer, deal, auction")])
        for key in data:
            if key not in TOP_KEYS and not str(key).startswith("x-"):
                self.bad((key,), f"unknown key {key!r} (expected one of {', '.join(TOP_KEYS)}"
                                 ", or a key starting with x-)")
        if data.get("format") != FORMAT:
            self.bad(("format",) if "format" in data else (),
                     f"format must be {FORMAT}, not {data.get('format')!r}")
        rules = self._rules(data)
        dealer = self._seat(data.get("dealer"), ("dealer",), rules) if "dealer" in data else None
        if dealer is None and "dealer" not in data:
            self.bad((), "the dealer is missing (expected dealer: N, E, S or W)")
        deal = self._deal(data["deal"], rules) if "deal" in data else {}
        if not deal and ("tricks" in data or "exchange" in data):
            self.bad(("tricks",) if "tricks" in data else ("exchange",),
                     "the cards cannot be checked without the deal (add deal: {N: [...], ...})")
        record = HandRecord(rules=rules, dealer=dealer if dealer is not None else Seat.W,
                            deal=deal,
                            meta=self._meta(data, rules),
                            extras={k: v for k, v in data.items() if str(k).startswith("x-")},
                            file=self.doc.file)
        record.auction = self._list(data, "auction", Bid.parse, "call",
                                    "a call: pass, 1-6, LP or BP")
        if "trump" in data:
            record.trump = self._entry(data["trump"], ("trump",), Trump.parse, "trump",
                                       "C, D, H, S or NT")
        if "mode" in data:
            record.mode = self._entry(data["mode"], ("mode",), Mode.parse, "mode",
                                      "exchange or partner")
        if "exchange" in data:
            self._exchange(data["exchange"], record)
        if "defense" in data:
            record.defense = self._entry(data["defense"], ("defense",), Defense.parse,
                                         "defense", "play or surrender")
        record.tricks = self._tricks(data.get("tricks"))
        record.result = self._mapping(data, "result") or None
        before = self._mapping(data, "score_before")
        if before:
            record.score_before = self._points(before, ("score_before",), rules)
            self._not_over(record.score_before, rules)
        self.fail_if_any()
        self._check_cards(record)
        self.fail_if_any()
        self._replay(record)
        self.fail_if_any()
        return record

    def _rules(self, data: dict[str, Any]) -> RuleSet:
        rules: RuleSet | None = self.ruleset(("rules",), data.get("rules", "standard"))
        return rules if rules is not None else get_ruleset("standard")

    def _meta(self, data: dict[str, Any], rules: RuleSet) -> dict[str, Any]:
        meta = self._mapping(data, "meta")
        players = meta.get("players")
        if players is not None and not isinstance(players, dict):
            self.bad(("meta", "players"), "players must map seats to names, such as "
                                          "{N: Ann, E: Bo}")
        elif players is not None:
            named: dict[Seat, Any] = {}
            for key, name in players.items():
                # a seat at this table, once: anything else is a name no seat shows
                seat = self._seat(key, ("meta", "players", key), rules)
                if seat is not None and seat in named:
                    self.bad(("meta", "players", key), f"{seat} is named twice")
                elif seat is not None:
                    named[seat] = key
                self.word(("meta", "players", key), name, "a player's name")
        for key in ("event", "date"):
            if key in meta:
                self.note(("meta", key), meta[key])
        return meta

    def _mapping(self, data: dict[str, Any], key: str) -> dict[str, Any]:
        value = data.get(key)
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.bad((key,), f"{key} must be a mapping")
            return {}
        return value

    def _seat(self, raw: Any, path: tuple[str | int, ...], rules: RuleSet) -> Seat | None:
        word = self.word(path, raw, "a seat: N, E, S or W")
        if word is None:
            return None
        try:
            seat = Seat.parse(word)
        except NotationError as err:
            self.bad(path, str(err))
            return None
        if seat >= rules.players:
            self.bad(path, f"{seat} is not at a {rules.players}-player table")
            return None
        return seat

    def _deal(self, raw: Any, rules: RuleSet) -> dict[Seat, list[Card]]:
        deal: dict[Seat, list[Card]] = {}
        if not isinstance(raw, dict):
            self.bad(("deal",) if raw is not None else (),
                     "the deal is missing or not a mapping (expected deal: {N: [six cards], ...})")
            return deal
        seen: dict[Card, tuple[Seat, tuple[str | int, ...]]] = {}
        for key, cards in raw.items():
            seat = self._seat(key, ("deal", key), rules)
            if seat is None:
                continue
            if not isinstance(cards, list):
                self.bad(("deal", key), f"{seat}'s hand must be a list of six cards")
                continue
            hand = []
            for i, item in enumerate(cards):
                word = self.word(("deal", key, i), item, "a card such as JD")
                if word is None:
                    continue
                try:
                    card = Card.parse(word)
                except NotationError as err:
                    self.bad(("deal", key, i), f"{err} in {seat}'s hand")
                    continue
                if card in seen:
                    self.bad(("deal", key, i), f"{card} is dealt twice (to {seen[card][0]} "
                                               f"and to {seat})")
                    continue
                seen[card] = (seat, ("deal", key, i))
                hand.append(card)
            if len(cards) != 6:
                self.bad(("deal", key), f"{seat} is dealt {len(cards)} cards; every hand has 6")
            deal[seat] = hand
        for i in range(rules.players):
            if Seat(i) not in deal and not any(str(k).upper() == Seat(i).name for k in raw):
                self.bad(("deal",), f"the deal has no hand for {Seat(i)}")
        return deal

    def _entry(self, raw: Any, path: tuple[str | int, ...], parse: Any, key: str,
               expected: str) -> Any:
        note = glyph = rule = None
        if isinstance(raw, dict):
            if key not in raw and key in ("trump", "mode", "defense") and "call" in raw:
                key = "call"  # DESIGN: "any call or card may be a mapping with call/card"
            for k in raw:
                if k not in (key, *ENTRY_KEYS) and not str(k).startswith("x-"):
                    self.bad((*path, k), f"unknown key {k!r} (expected {key}, note, glyph, rule)")
            if key not in raw:
                self.bad(path, f"this mapping needs a {key!r} key")
                return None
            note = self.note((*path, "note"), raw.get("note"))
            glyph, rule = raw.get("glyph"), raw.get("rule")
            if glyph is not None and glyph not in GLYPHS:
                self.bad((*path, "glyph"), f"glyph {glyph!r} is not one of {' '.join(GLYPHS)}")
            if rule is not None:
                from ..rulebook.book import get_rulebook

                if str(rule) not in get_rulebook():
                    self.bad((*path, "rule"), f"no rule {rule!r} in the rulebook")
            value_path: tuple[str | int, ...] = (*path, key)
            raw = raw[key]
        else:
            value_path = path
        word = self.word(value_path, raw, expected)
        if word is None:
            return None
        try:
            value = parse(raw if isinstance(raw, int) and not isinstance(raw, bool) else word)
        except NotationError as err:
            self.bad(value_path, str(err))
            return None
        line = self.doc.where(value_path)[0]
        return Entry(value, note, glyph, str(rule) if rule is not None else None, line)

    def _list(self, data: dict[str, Any], key: str, parse: Any, item_key: str,
              expected: str) -> list[Any]:
        raw = data.get(key)
        if raw is None:
            return []
        if not isinstance(raw, list):
            self.bad((key,), f"{key} must be a list")
            return []
        out = []
        for i, item in enumerate(raw):
            entry = self._entry(item, (key, i), parse, item_key, expected)
            if entry is not None:
                out.append(entry)
        return out

    def _exchange(self, raw: Any, record: HandRecord) -> None:
        if not isinstance(raw, dict):
            self.bad(("exchange",), "exchange must be a mapping {discard: CARD, passed: CARD}")
            return
        for k in raw:
            if k not in ("discard", "passed") and not str(k).startswith("x-"):
                self.bad(("exchange", k), f"unknown key {k!r} (expected discard and passed)")
        for k in ("discard", "passed"):
            if k not in raw:
                self.bad(("exchange",), f"the exchange needs {k}: CARD")
                continue
            entry = self._entry(raw[k], ("exchange", k), Card.parse, "card", "a card")
            setattr(record, k, entry)

    def _tricks(self, raw: Any) -> list[list[Entry[Card]]]:
        if raw is None:
            return []
        if not isinstance(raw, list):
            self.bad(("tricks",), "tricks must be a list of tricks, each a list of cards")
            return []
        tricks = []
        for t, trick in enumerate(raw):
            if not isinstance(trick, list):
                self.bad(("tricks", t), f"trick {t + 1} must be a list of cards")
                continue
            entries = []
            for i, item in enumerate(trick):
                entry = self._entry(item, ("tricks", t, i), Card.parse, "card", "a card")
                if entry is not None:
                    entries.append(entry)
            tricks.append(entries)
        return tricks

    def _points(self, raw: dict[str, Any], path: tuple[str | int, ...],
                rules: RuleSet) -> dict[str, int]:
        out = {}
        for side, value in raw.items():
            if side not in rules.sides:
                self.bad((*path, side), f"{side!r} is not a side here (expected "
                                        f"{', '.join(rules.sides)})")
            elif not isinstance(value, int) or isinstance(value, bool):
                self.bad((*path, side), f"expected a whole number of points, not {value!r}")
            else:
                out[side] = value
        return out

    def _not_over(self, before: dict[str, int], rules: RuleSet) -> None:
        """A hand is played only while the game is on: one side at or past the target
        before it means the game was already won (two or more there is the overtime hand,
        which is played)."""
        reached = [side for side, points in before.items() if points >= rules.target]
        if len(reached) == 1:
            side = reached[0]
            self.bad(("score_before", side), f"{side} has {before[side]} points before this "
                                             f"hand, at or past the target of {rules.target}: "
                                             "the game was already over")

    # ---- cards that cannot be where the record puts them --------------------------------

    def _check_cards(self, record: HandRecord) -> None:
        owner = {c: s for s, hand in record.deal.items() for c in hand}
        played: dict[Card, int] = {}
        size = _trick_size(record)
        for t, trick in enumerate(record.tricks):
            last = t == len(record.tricks) - 1
            if len(trick) > size or (len(trick) < size and not (last and record.result is None)):
                self.bad(("tricks", t), f"trick {t + 1} has {len(trick)} cards; expected {size}"
                         + (" (only the last trick of a record without a result may be "
                            "unfinished)" if len(trick) < size else ""))
            for i, entry in enumerate(trick):
                card = entry.value
                if card not in owner:
                    self.bad(("tricks", t, i), f"{card} was not dealt to anyone, so it cannot "
                                               "be played")
                elif card in played:
                    self.bad(("tricks", t, i), f"{card} is played twice (trick {played[card]} "
                                               f"and trick {t + 1})")
                played.setdefault(card, t + 1)


    # ---- what the rules do not allow: the replay's steps and where it stops ---------------

    def _replay(self, record: HandRecord) -> None:
        replay = Replay(record)
        for step in replay:
            if isinstance(step, Step) and step.entry is not None \
                    and not self._allowed(step, replay.state, record):
                return
        if replay.stop is not None:
            self._stopped(replay.stop, record)
        else:
            self._check_result(replay.state, record)

    def _allowed(self, step: Step, state: HandState, record: HandRecord) -> bool:
        key = step.where[0]
        if key in ("trump", "mode"):
            return True  # any trump may be named, and either way of playing chosen
        if key == "tricks":
            return self._playable(step, state, record)
        verdict = state.check(step.action)
        if verdict.legal:
            return True
        assert step.entry is not None
        self.bad(step.where, (f"{step.seat}'s call {step.entry.value.display}: "
                              if key == "auction" else "") + verdict.facts[0])
        return False

    def _playable(self, step: Step, state: HandState, record: HandRecord) -> bool:
        card, seat, (_, t, i) = step.action, step.seat, step.where
        if record.discard is not None and card is record.discard.value:
            self.bad(step.where, f"{card} was discarded in the exchange and is out of play")
            return False
        if card not in state.hand(seat):
            holder = next((s for s in state.seats if card in state.hand(s)), None)
            who = (f"{holder} holds it" if holder is not None and holder != seat
                   else "it is not in any hand that plays")
            first = state.leader.word if state.leader is not None else "the bidder"
            self.bad(step.where, f"{card}: it is {seat}'s turn to play, but {who}"
                     + (" (cards are listed in playing order, starting with the leader)"
                        if i or t else f" ({first} leads the first trick)"))
            return False
        return True  # a revoke is a finding for the annotator, not an error

    def _stopped(self, stop: Stop, record: HandRecord) -> None:
        key = stop.where[0]
        if stop.kind == "missing":
            path, why, later = _MISSING[key]
            self._stop_if_more(path, why, later)
        elif stop.kind == "extra" and key == "mode":
            why = ("big pepper is played alone with no exchange"
                   if record.rules.has_exchange else "cutthroat has no exchange")
            self.bad(stop.where, f"mode must be left out: {why}")
        elif stop.kind == "extra":
            self.bad(stop.where, _EXTRA[key])
        elif stop.where == ("auction",):
            self._stop_if_more(("auction",), "everyone passed, so the hand was thrown in",
                               "trump")
        elif stop.where == ("tricks", 0):
            self.bad(("tricks",), "the defenders surrendered, so no tricks are played")
        # cards after the hand's end: the card checks have said what there is to say

    def _stop_if_more(self, path: tuple[str | int, ...], why: str, later: str) -> None:
        data = self.doc.data
        keys = ("trump", "mode", "exchange", "defense", "tricks", "result")
        for key in keys[keys.index(later):]:
            if data.get(key):
                self.bad((key,), f"{why}, so the record cannot go on to {key}")
                return

    def _check_result(self, state: HandState, record: HandRecord) -> None:
        result = record.result
        if not result:
            return
        for k in result:
            if k not in ("tricks", "score"):
                self.bad(("result", k), f"unknown key {k!r} (expected tricks, score)")
        if not state.is_terminal():
            self.bad(("result",), "the record gives a result, but the hand is not finished")
            return
        computed = {"tricks": state.tricks_won(),
                    "score": state.score.points if state.score else
                    {s: 0 for s in state.rules.sides}}
        for key in ("tricks", "score"):
            stated = result.get(key)
            if stated is None:
                continue
            if not isinstance(stated, dict):
                self.bad(("result", key), f"result.{key} must map each side to a number")
                continue
            for side in sorted(set(stated) | set(computed[key]), key=str):
                value = stated.get(side)
                if side in stated and type(value) is not int:
                    # true == 1 in Python: a yes/no is no count of points or tricks.
                    self.bad(("result", key, side), f"result.{key}.{side} must be a "
                             f"whole number, not {value!r}")
                elif value != computed[key].get(side):
                    self.bad(("result", key, side) if side in stated else ("result", key),
                             f"result.{key}.{side}: the record says {stated.get(side)}, "
                             f"the rules give {computed[key].get(side)}")


# The reader's words where the replay stops: the record stops at a missing key (path, why,
# the first key that may not follow it), or gives a key the hand does not take.
_MISSING: dict[str | int, tuple[tuple[str | int, ...], str, str]] = {
    "auction": (("auction",), "the auction is unfinished", "trump"),
    "trump": ((), "trumps are not named", "mode"),
    "mode": ((), "the bidder's choice (mode: exchange or partner) is missing", "exchange"),
    "exchange": ((), "the exchange (discard and passed) is missing", "defense"),
    "defense": ((), "the defenders' decision (defense: play or surrender) is missing",
                "tricks"),
}
_EXTRA: dict[str | int, str] = {
    "auction": "the auction is already over: every player has had their call",
    "exchange": "there is no exchange in this hand (only after mode: exchange)",
    "defense": "defense must be left out: cutthroat has no surrender",
}


def record_to_state(record: HandRecord) -> HandState:
    """The hand as far as a validated record goes (revokes included, as played)."""
    return Replay(record).to_end()


def placeholder_deal(rules: RuleSet) -> dict[Seat, list[Card]]:
    """A record may leave out the deal (a score sheet's hand, a hand still being entered).
    Calls, trumps and the defense do not depend on the cards, so any deal replays them."""
    from ..engine.cards import DECK

    return {Seat(i): list(DECK[6 * i:6 * i + 6]) for i in range(rules.players)}


def _trick_size(record: HandRecord) -> int:
    rules = record.rules
    alone = (record.mode is not None and record.mode.value is Mode.EXCHANGE) or (
        rules.has_exchange and any(e.value is Bid.BIG_PEPPER for e in record.auction))
    return rules.players - (1 if alone else 0)


# ---- the replay ------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One action of the record, met just before the replay applies it to the hand."""

    where: tuple[str | int, ...]  # its place in the record: ("auction", 2), ("trump",),
    #                               ("exchange", "passed"), ("tricks", 0, 1) (from 0)
    entry: Entry[Any] | None  # None: an exchanged card, which a record without the deal lacks
    seat: Seat  # who takes it
    action: Action


@dataclass(frozen=True)
class TrickEnd:
    """The record's trick ``index`` (from 0) is replayed: who led it, and the trick as the
    hand finished it (None while the record leaves it unfinished)."""

    index: int
    leader: Seat
    trick: Trick | None


@dataclass(frozen=True)
class Stop:
    """Where the record and the hand part ways before the record's end.

    ``missing``: the hand waits at ``where`` (``auction``, ``trump``, ``mode``, ``exchange``,
    ``defense``) for what the record leaves out, so the record stops there. ``extra``: the
    record gives at ``where`` what this hand does not take (a call after the auction's end; a
    mode, exchange or defense where the hand has none). ``over``: the hand is over at
    ``where``, ``("auction",)`` when everyone passed or ``("tricks", t)`` when the defenders
    surrendered or every trick is played, and the record may go on."""

    kind: Literal["missing", "extra", "over"]
    where: tuple[str | int, ...]


class Replay:
    """The one replay of a record through the engine's :class:`HandState`: the reader's
    checks, :func:`record_to_state` and the annotator all walk a record with it.

    Iterating gives the record's actions in order, each as a :class:`Step` met just before
    it is applied to :attr:`state` (so a consumer sees the hand as the player did: it may
    check the action or grade it), and a :class:`TrickEnd` after each of the record's tricks.
    Leaving the loop early leaves that step unapplied. When the walk ends by itself,
    :attr:`stop` says where the record and the hand parted ways (None: at the record's end).

    Without the deal the exchanged cards are unknown: the replay discards and passes any two
    (steps with no entry) to keep going. A revoke is applied as played."""

    def __init__(self, record: HandRecord):
        from ..engine.state import HandState

        self.record = record
        self.state = HandState.from_hands(dict(record.deal) or placeholder_deal(record.rules),
                                          record.rules, record.dealer)
        self.stop: Stop | None = None
        self._walked = False

    def __iter__(self) -> Iterator[Step | TrickEnd]:
        if self._walked:
            raise RuntimeError("a replay walks its record once; make a new Replay")
        self._walked = True
        self.stop = yield from self._walk()

    def to_end(self) -> HandState:
        """Walk the whole record; the hand as far as it goes."""
        for _ in self:
            pass
        return self.state

    def _walk(self) -> Generator[Step | TrickEnd, None, Stop | None]:
        from ..engine.state import Phase

        record, state = self.record, self.state
        for i, call in enumerate(record.auction):
            if state.phase is not Phase.AUCTION:
                return Stop("extra", ("auction", i))
            yield from self._take(("auction", i), call)
        if state.phase is Phase.AUCTION:
            return Stop("missing", ("auction",))
        if state.phase is Phase.THROWN_IN:
            return Stop("over", ("auction",))
        if record.trump is None:
            return Stop("missing", ("trump",))
        yield from self._take(("trump",), record.trump)
        if state.phase is Phase.DECLARE_MODE:
            if record.mode is None:
                return Stop("missing", ("mode",))
            yield from self._take(("mode",), record.mode)
        elif record.mode is not None:
            return Stop("extra", ("mode",))
        if state.phase is Phase.DISCARD and not record.deal and record.discard is None:
            for key in ("discard", "passed"):  # unknown cards: any two keep the replay going
                yield from self._take(("exchange", key), None)
        if state.phase is Phase.DISCARD:
            if record.discard is None or record.passed is None:
                return Stop("missing", ("exchange",))
            yield from self._take(("exchange", "discard"), record.discard)
            yield from self._take(("exchange", "passed"), record.passed)
        elif record.discard is not None or record.passed is not None:
            return Stop("extra", ("exchange",))
        if state.phase is Phase.DEFENSE:
            if record.defense is None:
                return Stop("missing", ("defense",))
            yield from self._take(("defense",), record.defense)
        elif record.defense is not None:
            return Stop("extra", ("defense",))
        for t, trick in enumerate(record.tricks):
            leader = state.to_act
            if leader is None:
                return Stop("over", ("tricks", t))
            for i, card in enumerate(trick):
                if state.to_act is None:
                    return Stop("over", ("tricks", t, i))
                yield from self._take(("tricks", t, i), card)
            yield TrickEnd(t, leader, state.tricks[t] if len(state.tricks) > t else None)
        return None

    def _take(self, where: tuple[str | int, ...],
              entry: Entry[Any] | None) -> Iterator[Step]:
        """Meet the step (the consumer looks at the hand before it), then apply it."""
        seat = self.state.to_act
        assert seat is not None, where  # before the play's end a seat is always to act
        action = entry.value if entry is not None else self.state.hand(seat)[0]
        yield Step(where, entry, seat, action)
        self.state.apply(action)


# ---- writing ---------------------------------------------------------------------------


def dump_record(record: HandRecord) -> str:
    """Canonical YAML for a record: cards in canonical notation, notes and glyphs kept."""
    import yaml

    out: dict[str, Any] = {"format": FORMAT, "rules": record.rules.to_mapping()}
    if record.meta:
        out["meta"] = record.meta
    out["dealer"] = str(record.dealer)
    if record.deal:
        out["deal"] = {str(s): [str(c) for c in record.deal[s]] for s in sorted(record.deal)}
    if record.auction:
        out["auction"] = [e.to_yaml("call") for e in record.auction]
    if record.trump is not None:
        out["trump"] = record.trump.to_yaml("call")
    if record.mode is not None:
        out["mode"] = record.mode.to_yaml("call")
    if record.discard is not None and record.passed is not None:
        out["exchange"] = {"discard": record.discard.to_yaml("card"),
                           "passed": record.passed.to_yaml("card")}
    if record.defense is not None:
        out["defense"] = record.defense.to_yaml("call")
    if record.tricks:
        out["tricks"] = [[e.to_yaml("card") for e in trick] for trick in record.tricks]
    if record.result:
        out["result"] = record.result
    if record.score_before:
        out["score_before"] = record.score_before
    out.update(record.extras)
    return yaml.safe_dump(out, sort_keys=False, allow_unicode=True, default_flow_style=None,
                          width=100)


def record_from_state(state: Any, meta: dict[str, Any] | None = None,
                      with_result: bool = True) -> HandRecord:
    """The record of a hand played in the engine (finished or not)."""
    from ..engine.state import HandState

    assert isinstance(state, HandState)
    record = HandRecord(rules=state.rules, dealer=state.dealer,
                        deal={s: state.dealt(s) for s in state.seats}, meta=dict(meta or {}))
    record.auction = [Entry(b) for _, b in state.calls]
    if state.trump is not None:
        record.trump = Entry(state.trump)
    if state.mode is not None:
        record.mode = Entry(state.mode)
    if state.discard is not None and state.passed is not None:
        record.discard, record.passed = Entry(state.discard), Entry(state.passed)
    if state.defense is not None:
        record.defense = Entry(state.defense)
    record.tricks = [[Entry(c) for c in t.cards] for t in state.tricks]
    if state.current_trick:
        record.tricks.append([Entry(c) for _, c in state.current_trick])
    if with_result and state.is_terminal() and state.score is not None:
        record.result = {"tricks": state.tricks_won(), "score": dict(state.score.points)}
    return record
