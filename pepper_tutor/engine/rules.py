"""Rule sets: the four presets and the switches a table can turn on.

>>> get_ruleset("standard", dirty_clubs=True).dirty_clubs
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cached_property
from typing import Any

from .calls import Bid

__all__ = ["DUMPED_MINIMUM", "PRESETS", "SWITCHES", "RuleSet", "RuleSetError", "get_ruleset"]

PRESETS = ("standard", "simple", "cutthroat", "lions-club")
SWITCHES = ("players", "minimum_bid", "all_pass", "score_what_you_get", "dirty_clubs",
            "partnerships", "target", "left_bower", "nt_lead", "dumped_dealer", "signals")
ALL_PASS_CHOICES = ("redeal", "dealer_must_bid")
MINIMUM_BIDS = (1, 3, 4)
NT_LEADS = ("bidder", "left_of_bidder")
SIGNAL_CHOICES = ("none", "lions")
DUMPED_MINIMUM = 3
"""The least a dumped dealer may bid (the Lions Club sheet): above any lower table minimum."""

# How each preset is named in a sentence; the rest capitalise their own name.
_TITLES = {"lions-club": "Lions Club"}


class RuleSetError(ValueError):
    """An unknown preset or switch, or switches that do not fit together."""


@dataclass(frozen=True)
class RuleSet:
    """Everything about the rules that can differ from table to table. Immutable."""

    preset: str = "standard"
    players: int = 4
    target: int = 42
    top_numeric_bid: int = 6
    minimum_bid: int = 1
    all_pass: str = "redeal"
    score_what_you_get: bool = False
    dirty_clubs: bool = False
    partnerships: bool = True
    left_bower: bool = True
    nt_lead: str = "bidder"  # who leads the first trick at no trump
    dumped_dealer: bool = False  # all pass: the dealer must bid 3 or more, and no surrender
    signals: str = "none"  # the bidding agreement: "lions", a 2 shows an ace, a 3 two jacks

    def __post_init__(self) -> None:
        # Every rule set is checked where it is made, whoever makes it (get_ruleset,
        # dataclasses.replace, the constructor): an impossible one is refused here, not
        # by a crash in the deal after it.
        _validated(self)

    # Derived values are cached (a frozen dataclass keeps them in its __dict__): the auction
    # asks for the ladder on every call, and a random hand makes dozens of calls.
    @cached_property
    def ladder(self) -> tuple[Bid, ...]:
        """The bids allowed, lowest first."""
        numeric = tuple(Bid(n) for n in range(self.minimum_bid, self.top_numeric_bid + 1))
        return (*numeric, Bid.LITTLE_PEPPER, Bid.BIG_PEPPER)

    @cached_property
    def bids_above(self) -> tuple[tuple[Bid, ...], ...]:
        """``bids_above[standing]``: the bids of the ladder that top the standing bid."""
        return tuple(tuple(b for b in self.ladder if b > standing) for standing in Bid)

    @cached_property
    def open_auction(self) -> bool:
        """Cutthroat bids round and round until all others pass; the others bid once."""
        return self.preset == "cutthroat"

    @cached_property
    def has_exchange(self) -> bool:
        return self.preset != "cutthroat"

    @cached_property
    def has_surrender(self) -> bool:
        return self.preset != "cutthroat"

    @cached_property
    def dealer_must_bid(self) -> bool:
        """Whether a dealer whom everyone passed to must bid: stuck, or dumped."""
        return self.all_pass == "dealer_must_bid" or self.dumped_dealer

    @cached_property
    def dealer_minimum(self) -> Bid:
        """The least a dealer who must bid may bid: the table's lowest bid, or a dumped
        dealer's 3."""
        if self.dumped_dealer:
            return Bid(max(self.minimum_bid, DUMPED_MINIMUM))
        return self.ladder[0]

    @cached_property
    def dealer_bids(self) -> tuple[Bid, ...]:
        """The calls of a dealer who must bid (no pass among them)."""
        return tuple(b for b in self.ladder if b >= self.dealer_minimum)

    @cached_property
    def scoring(self) -> str:
        """Which scoring table the preset keeps: the Lions Club plays the standard one."""
        return "standard" if self.preset == "lions-club" else self.preset

    @property
    def title(self) -> str:
        """The preset's name in a sentence: ``Standard``, ``Lions Club``."""
        return _TITLES.get(self.preset, self.preset.capitalize())

    def may_surrender(self, trump: int, dumped: bool = False) -> bool:
        """Whether the defenders may give up a contract in ``trump`` (0-3, or 4 for no
        trump); ``dumped``: the contract is a dumped dealer's."""
        if not self.has_surrender or (self.dirty_clubs and trump == 0):
            return False
        return not (dumped and self.dumped_dealer)

    def first_leader(self, bidder: int, trump: int) -> int:
        """The seat that leads the first trick of a contract in ``trump`` (0-3, or 4 for no
        trump): the bidder, or at no trump, where the table says so, the bidder's left (an
        opponent, who never sits out)."""
        if trump == 4 and self.nt_lead == "left_of_bidder":
            return (bidder + 1) % self.players
        return bidder

    @property
    def signals_on(self) -> bool:
        return self.signals != "none"

    @property
    def sides(self) -> tuple[str, ...]:
        """Who scores: teams ``NS``/``EW`` or, each for themselves, the seats."""
        if self.partnerships:
            return ("NS", "EW")
        return tuple("NESW"[: self.players])

    def side_of(self, seat: int) -> str:
        if self.partnerships:
            return "NS" if seat % 2 == 0 else "EW"
        return "NESW"[seat]

    @property
    def name(self) -> str:
        """``standard`` or ``standard+dirty_clubs+minimum_bid=3``: short and unambiguous."""
        base = RuleSet.preset_defaults(self.preset)
        parts = [self.preset]
        for f in fields(self):
            if f.name in ("preset", "top_numeric_bid"):
                continue
            value = getattr(self, f.name)
            if value != base[f.name]:
                parts.append(f.name if value is True else f"{f.name}={value}")
        return "+".join(parts)

    def to_mapping(self) -> str | dict[str, Any]:
        """The ``rules:`` value of a hand record: a preset name, or a mapping with switches."""
        base = RuleSet.preset_defaults(self.preset)
        changed = {f.name: getattr(self, f.name) for f in fields(self)
                   if f.name not in ("preset", "top_numeric_bid")
                   and getattr(self, f.name) != base[f.name]}
        return self.preset if not changed else {"preset": self.preset, **changed}

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """Rulebook ids of the preset and of each switch that is on."""
        ids = [f"preset.{self.preset}"]
        if self.minimum_bid > 1:
            ids.append("variant.minimum-bid")
        if self.all_pass == "dealer_must_bid":
            ids.append("variant.dealer-must-bid")
        if self.score_what_you_get:
            ids.append("variant.score-what-you-get")
        if self.dirty_clubs:
            ids.append("variant.dirty-clubs")
        if self.preset == "cutthroat" and self.partnerships:
            ids.append("variant.partnerships")
        if not self.left_bower or self.preset == "cutthroat":
            ids.append("variant.left-bower")
        if self.nt_lead != "bidder":
            ids.append("variant.nt-lead")
        if self.dumped_dealer:
            ids.append("variant.dumped-dealer")
        if self.signals_on:
            ids.append("variant.bid-signals")
        return tuple(ids)

    def summary(self) -> str:
        """A few lines a person can read at the table."""
        ladder = ", ".join(b.display for b in self.ladder)
        who = ("four players in two partnerships (NS against EW)" if self.partnerships
               else f"{self.players} players, each for themselves")
        lines = [
            f"{self.title} Pepper: {who}; game to {self.target}.",
            f"Bids: {ladder}; " + ("the auction goes round until all others pass."
                                   if self.open_auction else "each player bids once."),
        ]
        if self.dumped_dealer:
            lines.append(f"If all before the dealer pass, the dealer is dumped: the dealer "
                         f"must bid at least {self.dealer_minimum.display}, and the opponents "
                         "may not surrender that hand.")
        elif self.dealer_must_bid:
            lines.append(f"If all before the dealer pass, the dealer must bid at least "
                         f"{self.minimum_bid}.")
        else:
            lines.append("If everyone passes, the hand is thrown in and the next dealer deals.")
        lines.append("Trumps rank right bower, left bower, A, K, Q, 10, 9." if self.left_bower
                     else "Trumps rank jack, A, K, Q, 10, 9: no left bower, the other jack of "
                          "the colour stays in its own suit.")
        if self.has_exchange:
            lines.append("The bidder may swap one card with partner and play alone, or play "
                         "with partner; big pepper is played alone with no swap.")
            but = [w for w, on in (("when clubs are trumps (dirty clubs)", self.dirty_clubs),
                                   ("against a dumped dealer", self.dumped_dealer)) if on]
            lines.append("The defenders may surrender"
                         + (", except " + " or ".join(but) + "." if but else "."))
        else:
            lines.append("No exchange and no surrender: the bidder names trumps and everyone "
                         "plays.")
        if self.nt_lead == "left_of_bidder":
            lines.append("In no trump the player on the bidder's left leads the first trick.")
        if self.signals == "lions":
            lines.append("Bid signals: a 2 bid shows an ace, a 3 bid a red jack and a black "
                         "jack; no other signal is allowed.")
        if self.scoring == "standard":
            lines.append("Scoring: the bid if made, minus the bid if not; defenders score their "
                         "tricks, or lose the bid if swept; peppers are worth 7 and 14."
                         + (" Bidders who make a numeric bid score every trick taken."
                            if self.score_what_you_get else ""))
        elif self.preset == "simple":
            lines.append("Scoring: one point a trick when the bid is made (peppers 6 and 12); "
                         "a missed bid costs 6 (big pepper 12); defenders score their tricks.")
        else:
            lines.append("Scoring: the bidder scores tricks taken if the bid is made, else "
                         "loses the bid (peppers 6 and 12); everyone else scores their tricks.")
        return "\n".join(lines)

    @staticmethod
    def preset_defaults(preset: str) -> dict[str, Any]:
        base = {f.name: f.default for f in fields(RuleSet)}
        base["preset"] = preset
        if preset in ("simple", "cutthroat"):
            base["target"] = 30
            base["top_numeric_bid"] = 5
        if preset == "cutthroat":
            base["players"] = 3
            base["partnerships"] = False
            base["left_bower"] = False  # the 2-4 player seed promotes only the jack of trumps
        if preset == "lions-club":  # the La Porte City (Iowa) Lions Club tournament sheet
            base["target"] = 31
            base["nt_lead"] = "left_of_bidder"
            base["dumped_dealer"] = True
            base["signals"] = "lions"
        return base


def get_ruleset(preset: str | RuleSet | Mapping[str, Any] = "standard",
                **switches: Any) -> RuleSet:
    """A rule set by preset name, with switches as keywords.

    ``get_ruleset("standard", minimum_bid=3, all_pass="dealer_must_bid")``;
    ``get_ruleset("cutthroat", players=4, partnerships=True)``. A mapping such as a hand
    record's ``{preset: standard, dirty_clubs: true}`` is accepted too.
    """
    if isinstance(preset, RuleSet):
        if not switches:
            return preset  # checked when it was made (RuleSet.__post_init__)
        # Every path is checked: switches on a rule set once skipped validation (players=7
        # crashed the deal after it).
        kept = {f.name: getattr(preset, f.name) for f in fields(RuleSet)
                if f.name not in ("preset", "top_numeric_bid")}
        if switches.get("partnerships") and "players" not in switches:
            kept["players"] = 4  # as below
        if "dealer_must_bid" in switches:
            del kept["all_pass"]  # the switch says it
        return get_ruleset(preset.preset, **{**kept, **switches})
    if isinstance(preset, Mapping):
        mapping = dict(preset)
        for key in mapping:
            if not isinstance(key, str):
                raise RuleSetError(f"{key!r} is not a switch (expected one of "
                                   f"{', '.join(SWITCHES)})")
        name = mapping.pop("preset", "standard")
        if not isinstance(name, str):
            raise RuleSetError(f"{name!r} is not a preset (expected one of "
                               f"{', '.join(PRESETS)})")
        return get_ruleset(name, **{**mapping, **switches})  # a keyword overrides the mapping
    if not isinstance(preset, str):
        raise RuleSetError(f"{preset!r} is not a preset (expected one of {', '.join(PRESETS)})")
    name = preset.strip().lower()
    if name not in PRESETS:
        raise RuleSetError(f"{preset!r} is not a preset (expected one of {', '.join(PRESETS)})")
    if switches.pop("dealer_must_bid", False):
        switches.setdefault("all_pass", "dealer_must_bid")
    values = RuleSet.preset_defaults(name)
    if switches.get("partnerships") and "players" not in switches:
        values["players"] = 4  # pairs need four: saying so twice would be busywork
    for key, value in switches.items():
        if key not in SWITCHES:
            raise RuleSetError(f"{key!r} is not a switch (expected one of {', '.join(SWITCHES)})")
        values[key] = value
    return RuleSet(**values)  # checked by RuleSet.__post_init__


def _validated(rules: RuleSet) -> RuleSet:
    def need(ok: bool, message: str) -> None:
        if not ok:
            raise RuleSetError(message)

    for flag in ("score_what_you_get", "dirty_clubs", "partnerships", "left_bower",
                 "dumped_dealer"):
        need(isinstance(getattr(rules, flag), bool), f"{flag} must be true or false")
    need(rules.preset in PRESETS,
         f"{rules.preset!r} is not a preset (expected one of {', '.join(PRESETS)})")
    need(type(rules.players) is int, f"players must be a number, not {rules.players!r}")
    need(type(rules.top_numeric_bid) is int and rules.top_numeric_bid in (5, 6),
         f"top_numeric_bid must be 5 or 6, not {rules.top_numeric_bid!r}")
    need(type(rules.target) is int and rules.target > 0,
         f"target must be a positive number of points, not {rules.target!r}")
    # The seed sticks the dealer with "three or four"; 1 is the table without a minimum.
    need(type(rules.minimum_bid) is int and rules.minimum_bid in MINIMUM_BIDS,
         f"minimum_bid must be 1, 3 or 4, not {rules.minimum_bid!r}")
    need(isinstance(rules.all_pass, str) and rules.all_pass in ALL_PASS_CHOICES,
         f"all_pass must be redeal or dealer_must_bid, not {rules.all_pass!r}")
    need(isinstance(rules.nt_lead, str) and rules.nt_lead in NT_LEADS,
         f"nt_lead must be bidder or left_of_bidder, not {rules.nt_lead!r}")
    need(isinstance(rules.signals, str) and rules.signals in SIGNAL_CHOICES,
         f"signals must be none or lions, not {rules.signals!r}")
    need(not (rules.dumped_dealer and rules.all_pass == "dealer_must_bid"),
         "dumped_dealer already makes the dealer bid when all pass: leave all_pass as redeal")
    need(not rules.signals_on or rules.partnerships,
         "signals are a partnership agreement: with each player for themselves there is no "
         "partner to tell")
    if rules.preset == "cutthroat":
        need(rules.players in (2, 3, 4),
             f"cutthroat is played by 2, 3 or 4 players, not {rules.players!r}")
        need(not rules.partnerships or rules.players == 4,
             "partnerships need four players")
        need(not rules.dirty_clubs, "dirty_clubs does nothing in cutthroat: no one may "
                                    "surrender there")
        need(not rules.dumped_dealer, "dumped_dealer belongs to the one-round auction: in "
                                      "cutthroat the bidding goes round and no one surrenders")
    else:
        need(rules.players == 4, f"{rules.preset} is a four-player game, not {rules.players}")
        need(rules.partnerships, f"{rules.preset} is always played in partnerships")
    if rules.scoring != "standard":
        need(not rules.score_what_you_get,
             f"score_what_you_get belongs to standard: {rules.preset} already scores "
             "every trick taken")
    return rules
