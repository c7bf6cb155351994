"""What players say during a hand: bids, the trump named, the way of playing, the defense.

Each is an immutable enum whose ``str`` is the canonical notation (``4``, ``LP``, ``NT``,
``exchange``, ``surrender``) and whose ``parse`` also accepts the words people use.
"""

from __future__ import annotations

import re
from enum import Enum, IntEnum

from .cards import NotationError, Suit, wrong_type

__all__ = ["Bid", "Defense", "Mode", "SuitedBidError", "Trump"]


class SuitedBidError(NotationError):
    """A bid said with a suit ("5 hearts"): Pepper bids are a number of tricks only."""


class Trump(IntEnum):
    """A trump suit, or no trump. The first four values equal :class:`Suit`'s."""

    C = 0
    D = 1
    H = 2
    S = 3
    NT = 4

    def __str__(self) -> str:
        return self.name

    def __bool__(self) -> bool:
        return True  # N, clubs and the nine are values like any other, never "false"

    @property
    def suit(self) -> Suit | None:
        return None if self is Trump.NT else Suit(self.value)

    @property
    def word(self) -> str:
        return "no trump" if self is Trump.NT else Suit(self.value).plural

    @property
    def display(self) -> str:
        return "NT" if self is Trump.NT else Suit(self.value).symbol

    @classmethod
    def from_suit(cls, suit: Suit) -> Trump:
        if type(suit) is not Suit:
            raise wrong_type(suit, "a Suit")
        return Trump(int(suit))

    @classmethod
    def parse(cls, text: str | Trump | Suit) -> Trump:
        if isinstance(text, Trump):
            return text
        if isinstance(text, Suit):
            return Trump(int(text))
        if not isinstance(text, str):  # a Seat's or a Bid's text would read as a suit
            raise wrong_type(text, "a trump (C, D, H, S or NT)")
        key = text.strip().lower().replace("_", "-").replace(" ", "-")
        if key in ("nt", "no-trump", "no-trumps", "notrump", "notrumps", "none"):
            return Trump.NT
        try:
            return Trump(int(Suit.parse(key)))
        except NotationError:
            raise NotationError(
                f"{text!r} is not a trump (expected C, D, H, S, NT or a suit name)"
            ) from None


class Bid(IntEnum):
    """A call in the auction, in ladder order. ``PASS`` is the call that is not a bid."""

    PASS = 0
    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    LITTLE_PEPPER = 7
    BIG_PEPPER = 8

    def __str__(self) -> str:
        return _BID_TEXT[self]

    @property
    def display(self) -> str:
        return _BID_WORDS[self]

    @property
    def is_pepper(self) -> bool:
        return self >= Bid.LITTLE_PEPPER

    @property
    def tricks(self) -> int:
        """Tricks the bid contracts to take: the number, or all six for either pepper."""
        return 6 if self.is_pepper else int(self)

    @classmethod
    def parse(cls, text: str | int | Bid) -> Bid:
        if isinstance(text, Bid):
            return text
        if type(text) is int:  # a plain number; a Trump or a Seat is not a bid
            if 1 <= text <= 6:
                return Bid(text)
            raise NotationError(f"{text!r} is not a bid (expected pass, 1-6, LP or BP)")
        if not isinstance(text, str):
            raise wrong_type(text, "a bid (pass, 1-6, LP or BP)")
        key = text.strip().lower().replace("_", " ").replace("-", " ")
        key = " ".join(key.split())
        key = key[4:] if key.startswith("bid ") else key
        if key in _BID_ALIASES:
            return _BID_ALIASES[key]
        suited = _SUITED_BID.fullmatch(key)
        if suited and suited.group(1) in _BID_ALIASES:
            bid = _BID_ALIASES[suited.group(1)]
            raise SuitedBidError(
                f"{text!r} is not a bid: a Pepper bid is a number of tricks with no suit "
                f"(bid.ladder); whoever wins the auction names trumps after the last call "
                f"(declare.trump). Bid {bid.display}, and name the suit if your bid wins")
        raise NotationError(f"{text!r} is not a bid (expected pass, 1-6, LP or BP)")


# "5 hearts", "bid 4 in spades", "6 no trump": a suit said with a bid, as in bridge.
_SUITED_BID = re.compile(r"(.+?) (?:in )?(?:no trumps?|nt|notrumps?|clubs?|diamonds?|"
                         r"hearts?|spades?|[♣♦♥♠cdhs])")

_BID_TEXT = ["pass", "1", "2", "3", "4", "5", "6", "LP", "BP"]
_BID_WORDS = ["pass", "1", "2", "3", "4", "5", "6", "little pepper", "big pepper"]
_BID_ALIASES: dict[str, Bid] = {"p": Bid.PASS, "pass": Bid.PASS, "lp": Bid.LITTLE_PEPPER,
                                "little pepper": Bid.LITTLE_PEPPER, "little": Bid.LITTLE_PEPPER,
                                "bp": Bid.BIG_PEPPER, "big pepper": Bid.BIG_PEPPER,
                                "big": Bid.BIG_PEPPER}
for _i, _w in enumerate(("one", "two", "three", "four", "five", "six"), start=1):
    _BID_ALIASES[str(_i)] = Bid(_i)
    _BID_ALIASES[_w] = Bid(_i)


class Mode(Enum):
    """How the high bidder plays a bid below big pepper."""

    EXCHANGE = "exchange"
    PARTNER = "partner"

    def __str__(self) -> str:
        return self.value

    @property
    def display(self) -> str:
        return "exchange and play alone" if self is Mode.EXCHANGE else "play with partner"

    @classmethod
    def parse(cls, text: str | Mode) -> Mode:
        if isinstance(text, Mode):
            return text
        if not isinstance(text, str):
            raise wrong_type(text, "a way of playing (exchange or partner)")
        key = text.strip().lower().replace("_", "-").replace(" ", "-")
        if key in ("exchange", "x", "swap", "alone"):
            return Mode.EXCHANGE
        if key in ("partner", "with-partner", "p"):
            return Mode.PARTNER
        raise NotationError(f"{text!r} is not a way of playing (expected exchange or partner)")


class Defense(Enum):
    """The defenders' joint decision once the contract is known."""

    PLAY = "play"
    SURRENDER = "surrender"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str | Defense) -> Defense:
        if isinstance(text, Defense):
            return text
        if not isinstance(text, str):
            raise wrong_type(text, "a defence (play or surrender)")
        key = text.strip().lower()
        for d in Defense:
            if key == d.value:
                return d
        raise NotationError(f"{text!r} is not a defence (expected play or surrender)")
