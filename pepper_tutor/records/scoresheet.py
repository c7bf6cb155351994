"""A score sheet for a whole match, as a host keeps it at the table.

Each hand is entered as the table reports it (dealer, bidder, bid, trumps, exchange or
partner, play or surrender, the bidders' tricks); the engine's scoring tables give the
points, with the rule applied, and the end-of-game rule decides the winner, the tie case
included. Impossible entries are refused with the reason. Game night keeps the entries in
its SQLite file (:mod:`pepper_tutor.apps.night.store`); the JSON form here is its export and
import.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.cards import NotationError
from ..engine.match import Match
from ..engine.rules import RuleSet, get_ruleset
from ..engine.scoring import GameStatus, HandScore, score_hand
from ..engine.seats import Seat

__all__ = ["HandEntry", "ScoreSheet", "EntryError", "SheetError"]

FORMAT = "pepper-scoresheet/1"


class EntryError(ValueError):
    """A hand the rules do not allow, with the reason."""


class SheetError(ValueError):
    """A sheet file that cannot be read."""


@dataclass(frozen=True)
class HandEntry:
    """What the table reports about one hand. ``bid`` is ``None`` for a thrown-in hand;
    ``tricks`` maps each side to its tricks (empty after a surrender or a throw-in)."""

    dealer: Seat
    bidder: Seat | None = None
    bid: Bid | None = None
    trump: Trump | None = None
    mode: Mode | None = None
    defense: Defense | None = None
    tricks: dict[str, int] = field(default_factory=dict)

    @property
    def thrown_in(self) -> bool:
        return self.bid is None

    def to_json(self) -> dict[str, Any]:
        return {"dealer": str(self.dealer),
                "bidder": None if self.bidder is None else str(self.bidder),
                "bid": None if self.bid is None else str(self.bid),
                "trump": None if self.trump is None else str(self.trump),
                "mode": None if self.mode is None else str(self.mode),
                "defense": None if self.defense is None else str(self.defense),
                "tricks": dict(self.tricks)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HandEntry:
        def opt(key: str, parse: Any) -> Any:
            return None if data.get(key) is None else parse(data[key])

        return cls(Seat.parse(data["dealer"]), opt("bidder", Seat.parse), opt("bid", Bid.parse),
                   opt("trump", Trump.parse), opt("mode", Mode.parse),
                   opt("defense", Defense.parse),
                   {str(k): int(v) for k, v in (data.get("tricks") or {}).items()})


@dataclass(frozen=True)
class ScoredHand:
    number: int
    entry: HandEntry
    score: HandScore | None
    totals: dict[str, int]
    status: GameStatus


class ScoreSheet:
    """The hands of one match and everything that follows from them."""

    def __init__(self, rules: RuleSet | str = "standard", first_dealer: Seat | str = Seat.W,
                 event: str = ""):
        self.rules = get_ruleset(rules)
        self.first_dealer = Seat.parse(first_dealer)
        self.entries: list[HandEntry] = []
        self.event = event

    # ---- what follows from the entries ----------------------------------------------------

    def scored(self) -> list[ScoredHand]:
        """Every hand with its points and the match as it stood after it, replayed through
        :class:`~pepper_tutor.engine.match.Match` so the deal and end-of-game rules live in one
        place."""
        match = Match(self.rules, self.first_dealer)
        out = []
        for entry in self.entries:
            score = None if entry.thrown_in else self._score(entry)
            result = match.add_points(score.points if score else None)
            out.append(ScoredHand(result.number, entry, score, result.totals, result.status))
        return out

    @property
    def totals(self) -> dict[str, int]:
        hands = self.scored()
        return hands[-1].totals if hands else {s: 0 for s in self.rules.sides}

    @property
    def status(self) -> GameStatus:
        hands = self.scored()
        return hands[-1].status if hands else GameStatus(False, None, False, "game.target")

    @property
    def winner(self) -> str | None:
        return self.status.winner

    @property
    def next_dealer(self) -> Seat:
        dealer = self.first_dealer
        for _ in self.entries:  # the deal passes left after every hand, thrown in or not
            dealer = dealer.next(self.rules.players)
        return dealer

    def _score(self, entry: HandEntry) -> HandScore:
        assert entry.bid is not None and entry.bidder is not None
        side = self.rules.side_of(entry.bidder)
        surrendered = entry.defense is Defense.SURRENDER
        tricks = {s: 0 for s in self.rules.sides} if surrendered else entry.tricks
        return score_hand(self.rules, entry.bid, side, tricks, surrendered)

    # ---- entering hands ---------------------------------------------------------------------

    def check(self, entry: HandEntry) -> None:
        """Raise :class:`EntryError` with the reason if the rules do not allow this hand."""
        rules = self.rules
        if self.winner is not None:
            raise EntryError(f"the match is over: {self.winner} won")
        if entry.dealer is not self.next_dealer:
            raise EntryError(f"it is {self.next_dealer.word}'s deal, not {entry.dealer.word}'s")
        if entry.thrown_in:
            if entry.bidder is not None:
                raise EntryError(f"{entry.bidder.word} is given as the bidder with no bid: "
                                 "choose the bid they won with, or leave the bidder empty "
                                 "when everyone passed")
            if rules.dealer_must_bid:
                raise EntryError("this table sticks the dealer, so a hand cannot be thrown in")
            return
        if entry.bidder is None or entry.bidder >= rules.players:
            raise EntryError("say who won the bid")
        assert entry.bid is not None
        if entry.bid not in rules.ladder:
            ladder = ", ".join(b.display for b in rules.ladder)
            raise EntryError(f"{entry.bid.display} is not a bid at this table (the bids are "
                             f"{ladder})")
        if entry.trump is None:
            raise EntryError("say what the bidder named: a trump suit or no trump")
        alone_by_bid = entry.bid is Bid.BIG_PEPPER
        if not rules.has_exchange or alone_by_bid:
            if entry.mode is not None:
                why = ("big pepper is always played alone" if alone_by_bid
                       else "cutthroat has no exchange")
                raise EntryError(f"leave exchange/partner empty: {why}")
        elif entry.mode is None:
            raise EntryError("say whether the bidder took the exchange or played with partner")
        if not rules.has_surrender:
            if entry.defense is Defense.SURRENDER:
                raise EntryError("cutthroat has no surrender")
        elif entry.defense is None:
            raise EntryError("say whether the defenders played or surrendered")
        elif (entry.defense is Defense.SURRENDER and rules.dirty_clubs
              and entry.trump is Trump.C):
            raise EntryError("dirty clubs: with clubs trumps the defenders may not surrender")
        if entry.defense is Defense.SURRENDER:
            return
        if set(entry.tricks) != set(rules.sides):
            raise EntryError(f"give the tricks of {', '.join(rules.sides)}")
        for side, n in entry.tricks.items():
            if not 0 <= n <= 6:
                raise EntryError(f"{side} cannot take {n} tricks: a hand has 6")
        if sum(entry.tricks.values()) != 6:
            raise EntryError(f"the tricks add up to {sum(entry.tricks.values())}, not 6")

    def add(self, entry: HandEntry) -> ScoredHand:
        self.check(entry)
        self.entries.append(entry)
        return self.scored()[-1]

    def add_simple(self, bidder: Seat | str | None, bid: Bid | str | int | None,
                   trump: Trump | str | None = None, mode: Mode | str | None = None,
                   defense: Defense | str | None = None,
                   bidder_tricks: int | None = None,
                   tricks: dict[str, int] | None = None) -> ScoredHand:
        """Enter a hand from plain values; two sides can give just the bidders' tricks."""
        try:
            b = None if bid is None or bid in ("", "none") else Bid.parse(bid)
            if b is Bid.PASS:
                b = None
            seat = Seat.parse(bidder) if bidder else None
            t = None if b is None or not trump else Trump.parse(trump)
            m = None if b is None or not mode else Mode.parse(mode)
            d = None if b is None or not defense else Defense.parse(defense)
        except NotationError as err:
            raise EntryError(str(err)) from None
        counted = dict(tricks or {})
        if b is not None and seat is not None and bidder_tricks is not None and not counted:
            side = self.rules.side_of(seat)
            others = [s for s in self.rules.sides if s != side]
            if len(others) != 1:
                raise EntryError("with more than two sides give every side's tricks")
            if not 0 <= bidder_tricks <= 6:
                raise EntryError(f"the bidders cannot take {bidder_tricks} tricks: a hand has 6")
            counted = {side: bidder_tricks, others[0]: 6 - bidder_tricks}
        if d is Defense.SURRENDER or b is None:
            counted = {}
        return self.add(HandEntry(self.next_dealer, seat, b, t, m, d, counted))

    def undo(self) -> HandEntry:
        if not self.entries:
            raise EntryError("there is no hand to undo")
        entry = self.entries.pop()
        return entry

    # ---- as data -----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "rules": self.rules.to_mapping(), "event": self.event,
                "first_dealer": str(self.first_dealer),
                "hands": [e.to_json() for e in self.entries]}

    @classmethod
    def from_json(cls, data: Any, path: Path | None = None) -> ScoreSheet:
        """A sheet from its JSON form, every hand checked again (SheetError says which)."""
        where = path or "sheet"
        try:
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise ValueError(f"not a {FORMAT} file")
            sheet = cls(data["rules"], data["first_dealer"], data.get("event", ""))
            for number, raw in enumerate(data["hands"], 1):
                entry = HandEntry.from_json(raw)
                try:
                    sheet.check(entry)
                except EntryError as err:
                    raise ValueError(f"hand {number}: {err}") from None
                sheet.entries.append(entry)
        except (ValueError, KeyError, TypeError, AttributeError) as err:
            raise SheetError(f"{where}: {err}") from None
        return sheet

    def to_csv(self) -> str:
        out = io.StringIO()
        sides = list(self.rules.sides)
        writer = csv.writer(out)
        writer.writerow(["hand", "dealer", "bidder", "bid", "trump", "mode", "defense",
                         *[f"tricks {s}" for s in sides], *[f"points {s}" for s in sides],
                         *[f"total {s}" for s in sides], "rules applied"])
        for h in self.scored():
            e = h.entry
            pts = h.score.points if h.score else {}
            applied = "; ".join(sorted(set(h.score.rules.values()))) if h.score else "bid.all-pass"
            writer.writerow([h.number, e.dealer, e.bidder or "", e.bid or "pass", e.trump or "",
                             e.mode or "", e.defense or "",
                             *[e.tricks.get(s, "") for s in sides],
                             *[pts.get(s, 0) for s in sides], *[h.totals[s] for s in sides],
                             applied])
        return out.getvalue()

    def to_records(self) -> list[str]:
        """Each hand as a partial ``pepper-hand/1`` record (the cards were not written down)."""
        from .hand_record import Entry, HandRecord, dump_record

        texts = []
        n = self.rules.players
        for h in self.scored():
            e = h.entry
            record = HandRecord(rules=self.rules, dealer=e.dealer, deal={},
                                meta={"event": self.event or "game night", "hand": h.number})
            calls: list[Entry[Bid]] = []
            if e.bid is None or e.bidder is None:
                calls = [Entry(Bid.PASS) for _ in range(n)]
            else:
                order = [Seat((e.dealer + 1 + i) % n) for i in range(n)]
                calls = [Entry(e.bid if s is e.bidder else Bid.PASS) for s in order]
                record.trump = Entry(e.trump) if e.trump is not None else None
                record.mode = Entry(e.mode) if e.mode is not None else None
                record.defense = Entry(e.defense) if e.defense is not None else None
            record.auction = calls
            record.extras = {"x-score-sheet": {
                "tricks": dict(e.tricks), "points": dict(h.score.points) if h.score else {},
                "totals": dict(h.totals)}}
            texts.append(dump_record(record))
        return texts

