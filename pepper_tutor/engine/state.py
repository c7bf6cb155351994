"""One hand of Pepper as a state machine: deal, auction, declare, exchange, defence, play.

The state offers the small API of game engines such as OpenSpiel: :attr:`HandState.phase`,
:attr:`HandState.to_act`, :meth:`legal_actions`, :meth:`apply` (the fast path: it trusts the
caller), :meth:`check` (the explaining path: it returns a
:class:`~pepper_tutor.rulebook.verdicts.Verdict`) and :meth:`is_terminal`. Actions are the
natural values of each phase: a :class:`Bid` in the auction, a :class:`Trump`, a
:class:`Mode`, a :class:`Card` to discard, send or play, a :class:`Defense`.

Internally cards are indices 0..23 and seats ints, which keeps random playouts fast.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from .calls import Bid, Defense, Mode, Trump
from .cards import DECK, Card, CardLike
from .ranking import EFFECTIVE_SUIT, winner_of
from .rules import RuleSet, get_ruleset
from .scoring import HandScore, score_hand
from .seats import Seat

if TYPE_CHECKING:
    from ..rulebook.verdict import Verdict

__all__ = ["Action", "HandState", "IllegalActionError", "Phase", "Trick"]

Action = Bid | Trump | Mode | Defense | Card


class IllegalActionError(ValueError):
    """Raised by :meth:`HandState.play_checked` for an action the rules do not allow."""


class Phase(Enum):
    AUCTION = "auction"
    DECLARE_TRUMP = "declare-trump"
    DECLARE_MODE = "declare-mode"
    DISCARD = "discard"  # the bidder discards one card before the exchange
    SEND = "send"  # the partner hands one card to the bidder
    DEFENSE = "defense"
    PLAY = "play"
    SCORED = "scored"
    THROWN_IN = "thrown-in"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Trick:
    """A finished trick: who led, the cards with their seats in play order, who won."""

    number: int
    leader: Seat
    cards: tuple[Card, ...]
    seats: tuple[Seat, ...]
    winner: Seat
    winning_index: int

    def _repr_html_(self) -> str:
        from ..render.cards_html import trick_html  # imported on demand: notebooks only

        return trick_html(self.cards, None, self.seats, self.winning_index)


class HandState:
    """The state of one hand. Build one with :meth:`deal` or :meth:`from_hands`."""

    __slots__ = (
        "_dealt",
        "_hands",
        "_high_bid",
        "_high_bidder",
        "_leader",
        "_out",
        "_passed",
        "_score",
        "_to_act",
        "_trick",
        "_trick_seats",
        "_tricks",
        "_trump",
        "_undealt",
        "_won",
        "calls",
        "dealer",
        "defense",
        "discard",
        "history",
        "mode",
        "phase",
        "players",
        "rules",
        "sent",
    )

    def __init__(self, rules: RuleSet, dealer: Seat, hands: Sequence[Sequence[int]]):
        self.rules = rules
        self.dealer = Seat(dealer)
        self.players = rules.players
        self._dealt = tuple(tuple(h) for h in hands)
        self._hands: list[list[int]] = [list(h) for h in hands]
        dealt = {c for h in hands for c in h}
        self._undealt = tuple(c for c in range(24) if c not in dealt)
        self.phase = Phase.AUCTION
        self._to_act = (self.dealer + 1) % self.players
        self.calls: list[tuple[Seat, Bid]] = []
        self._high_bid = Bid.PASS
        self._high_bidder = -1
        self._passed = [False] * self.players
        self._trump = -1
        self.mode: Mode | None = None
        self.discard: Card | None = None
        self.sent: Card | None = None
        self.defense: Defense | None = None
        self._out = -1  # the seat that sits out, if any
        self._trick: list[int] = []
        self._trick_seats: list[int] = []
        self._leader = -1
        self._tricks: list[Trick] = []
        self._won = [0] * self.players
        self.history: list[Action] = []
        self._score: HandScore | None = None

    # ---- construction -------------------------------------------------------------------

    @classmethod
    def deal(cls, rules: RuleSet | str = "standard", dealer: Seat | str = Seat.W,
             rng: random.Random | int | None = None) -> HandState:
        """Shuffle and deal six cards to each player; with fewer than four, the rest stay out."""
        rules = get_ruleset(rules)
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        deck = list(range(24))
        rng.shuffle(deck)
        n = rules.players
        return cls(rules, Seat.parse(dealer), [sorted(deck[6 * i:6 * i + 6]) for i in range(n)])

    @classmethod
    def from_hands(cls, hands: Mapping[Any, Sequence[CardLike]],
                   rules: RuleSet | str = "standard", dealer: Seat | str = Seat.W) -> HandState:
        """A hand from a known deal; checks six distinct cards for each seat in play."""
        rules = get_ruleset(rules)
        by_seat = {Seat.parse(k): [Card.parse(c) for c in v] for k, v in hands.items()}
        expected = {Seat(i) for i in range(rules.players)}
        if set(by_seat) != expected:
            raise ValueError(f"the deal must give hands to {', '.join(map(str, sorted(expected)))}"
                             f", not {', '.join(map(str, sorted(by_seat)))}")
        seen: dict[Card, Seat] = {}
        for seat in sorted(by_seat):
            cards = by_seat[seat]
            if len(cards) != 6:
                raise ValueError(f"{seat} holds {len(cards)} cards; every hand has 6")
            for c in cards:
                if c in seen:
                    raise ValueError(f"{c} is dealt to both {seen[c]} and {seat}")
                seen[c] = seat
        return cls(rules, Seat.parse(dealer),
                   [[c.index for c in by_seat[Seat(i)]] for i in range(rules.players)])

    def copy(self) -> HandState:
        """A cheap independent copy (lists are copied, immutable values shared)."""
        other = object.__new__(HandState)
        for name in HandState.__slots__:
            setattr(other, name, getattr(self, name))
        other._hands = [list(h) for h in self._hands]
        other.calls = list(self.calls)
        other._passed = list(self._passed)
        other._trick = list(self._trick)
        other._trick_seats = list(self._trick_seats)
        other._tricks = list(self._tricks)
        other._won = list(self._won)
        other.history = list(self.history)
        return other

    def undo(self) -> Action:
        """Take back the last action and return it (replays the rest: simple and safe)."""
        if not self.history:
            raise IndexError("nothing to undo: no action has been taken this hand")
        last = self.history[-1]
        fresh = HandState(self.rules, self.dealer, self._dealt)
        for action in self.history[:-1]:
            fresh.apply(action)
        for name in HandState.__slots__:
            setattr(self, name, getattr(fresh, name))
        return last

    # ---- what can be seen -----------------------------------------------------------------

    @property
    def to_act(self) -> Seat | None:
        """The seat whose decision it is, or ``None`` once the hand is over."""
        return None if self.is_terminal() else Seat(self._to_act)

    def is_terminal(self) -> bool:
        return self.phase is Phase.SCORED or self.phase is Phase.THROWN_IN

    def hand(self, seat: Seat | str) -> list[Card]:
        """The cards a seat holds now."""
        return [DECK[c] for c in self._hands[Seat.parse(seat)]]

    def dealt(self, seat: Seat | str) -> list[Card]:
        """The six cards the seat was dealt."""
        return [DECK[c] for c in self._dealt[Seat.parse(seat)]]

    @property
    def undealt(self) -> list[Card]:
        return [DECK[c] for c in self._undealt]

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(Seat(i) for i in range(self.players))

    @property
    def active_seats(self) -> tuple[Seat, ...]:
        """Seats that play cards this hand (the partner of a lone bidder sits out)."""
        return tuple(Seat(i) for i in range(self.players) if i != self._out)

    @property
    def sitting_out(self) -> Seat | None:
        return None if self._out < 0 else Seat(self._out)

    @property
    def high_bid(self) -> Bid:
        return self._high_bid

    @property
    def bidder(self) -> Seat | None:
        return None if self._high_bidder < 0 else Seat(self._high_bidder)

    @property
    def trump(self) -> Trump | None:
        return None if self._trump < 0 else Trump(self._trump)

    @property
    def partner_of_bidder(self) -> Seat | None:
        if self._high_bidder < 0 or not self.rules.partnerships:
            return None
        return Seat(self._high_bidder).partner

    @property
    def current_trick(self) -> list[tuple[Seat, Card]]:
        return [(Seat(s), DECK[c]) for s, c in zip(self._trick_seats, self._trick, strict=True)]

    @property
    def leader(self) -> Seat | None:
        return None if self._leader < 0 else Seat(self._leader)

    @property
    def led_card(self) -> Card | None:
        return DECK[self._trick[0]] if self._trick else None

    @property
    def tricks(self) -> list[Trick]:
        """Finished tricks, in order."""
        return list(self._tricks)

    def tricks_won(self) -> dict[str, int]:
        """Tricks taken so far by each side (team or seat)."""
        won = {side: 0 for side in self.rules.sides}
        for seat in range(self.players):
            won[self.rules.side_of(seat)] += self._won[seat]
        return won

    def tricks_won_by_seat(self) -> dict[Seat, int]:
        return {Seat(i): self._won[i] for i in range(self.players)}

    @property
    def score(self) -> HandScore | None:
        """Points for every side once the hand is scored (a thrown-in hand scores nothing)."""
        return self._score

    def _repr_html_(self) -> str:
        from ..render.state_html import hand_state_html  # imported on demand: notebooks only

        return hand_state_html(self)

    def __repr__(self) -> str:
        return (f"<HandState {self.rules.name} dealer={self.dealer} phase={self.phase}"
                f" to_act={self.to_act}>")

    # ---- the rules of each phase ----------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase is Phase.PLAY:
            hand = self._hands[self._to_act]
            if self._trick:
                suits = EFFECTIVE_SUIT[self._trump]
                led = suits[self._trick[0]]
                follow = [DECK[c] for c in hand if suits[c] == led]
                if follow:
                    return list(follow)
            return [DECK[c] for c in hand]
        if phase is Phase.AUCTION:
            return list(self._legal_calls())
        if phase is Phase.DECLARE_TRUMP:
            return list(Trump)
        if phase is Phase.DECLARE_MODE:
            return [Mode.EXCHANGE, Mode.PARTNER]
        if phase is Phase.DISCARD or phase is Phase.SEND:
            return [DECK[c] for c in self._hands[self._to_act]]
        if phase is Phase.DEFENSE:
            return [Defense.PLAY] if self.surrender_forbidden() else [Defense.PLAY,
                                                                        Defense.SURRENDER]
        return []

    def _legal_calls(self) -> list[Bid]:
        ladder = self.rules.ladder
        bids = [b for b in ladder if b > self._high_bid]
        if self.dealer_must_bid_now():
            return bids
        return [Bid.PASS, *bids]

    def dealer_must_bid_now(self) -> bool:
        """True when the rules stick the dealer and everyone before the dealer has passed."""
        return (self.rules.dealer_must_bid and self._to_act == self.dealer
                and self._high_bidder < 0 and self.phase is Phase.AUCTION)

    def surrender_forbidden(self) -> bool:
        return self.rules.dirty_clubs and self._trump == Trump.C

    def apply(self, action: Action) -> None:
        """Take an action without checking it (the fast path). Use :meth:`check` first when
        the action comes from a person."""
        self.history.append(action)
        phase = self.phase
        if phase is Phase.PLAY:
            self._play(action.index)  # type: ignore[union-attr]
        elif phase is Phase.AUCTION:
            self._call(Bid(action))  # type: ignore[arg-type]
        elif phase is Phase.DECLARE_TRUMP:
            self._declare_trump(Trump(action))  # type: ignore[arg-type]
        elif phase is Phase.DECLARE_MODE:
            self._declare_mode(action)  # type: ignore[arg-type]
        elif phase is Phase.DISCARD:
            card = action.index  # type: ignore[union-attr]
            self._hands[self._to_act].remove(card)
            self.discard = DECK[card]
            self.phase = Phase.SEND
            self._to_act = (self._high_bidder + 2) % 4
        elif phase is Phase.SEND:
            card = action.index  # type: ignore[union-attr]
            self._hands[self._to_act].remove(card)
            self._hands[self._high_bidder].append(card)
            self.sent = DECK[card]
            self._out = self._to_act
            self._to_defense()
        elif phase is Phase.DEFENSE:
            self.defense = action  # type: ignore[assignment]
            if action is Defense.SURRENDER:
                self._finish()
            else:
                self._start_play()
        else:
            self.history.pop()
            raise IllegalActionError(f"the hand is over ({self.phase}); no action can be taken")

    def check(self, action: Action | str | int, seat: Seat | str | None = None,
              second_person: bool = True) -> Verdict:
        """Whether ``action`` (by ``seat``, default the seat to act) is allowed, and why.

        Never raises for a bad action: the verdict says what is wrong, quotes the rule and
        lists the legal alternatives."""
        from ..rulebook.verdicts import check_action  # explanations sit above the engine

        return check_action(self, action, seat, second_person)

    def play_checked(self, action: Action | str | int, seat: Seat | str | None = None) -> Verdict:
        """Check, then apply if legal; raises :class:`IllegalActionError` with the
        explanation otherwise."""
        verdict = self.check(action, seat)
        if not verdict.legal or verdict.action is None:
            raise IllegalActionError(verdict.explanation)
        self.apply(verdict.action)
        return verdict

    # ---- transitions ----------------------------------------------------------------------

    def _call(self, bid: Bid) -> None:
        seat = self._to_act
        self.calls.append((Seat(seat), bid))
        n = self.players
        if bid is Bid.PASS:
            self._passed[seat] = True
        else:
            self._high_bid, self._high_bidder = bid, seat
        if not self.rules.open_auction:
            if len(self.calls) == n:
                self._end_auction()
            else:
                self._to_act = (seat + 1) % n
            return
        # Open auction: round and round; a pass is final; ends when all others have passed.
        active = [s for s in range(n) if not self._passed[s]]
        if not active or (
                self._high_bidder >= 0 and active == [self._high_bidder]):
            self._end_auction()
            return
        nxt = (seat + 1) % n
        while self._passed[nxt]:
            nxt = (nxt + 1) % n
        self._to_act = nxt

    def _end_auction(self) -> None:
        if self._high_bidder < 0:
            self.phase = Phase.THROWN_IN
            self._score = None
            return
        self.phase = Phase.DECLARE_TRUMP
        self._to_act = self._high_bidder

    def _declare_trump(self, trump: Trump) -> None:
        self._trump = int(trump)
        if not self.rules.has_exchange:
            self._start_play()
        elif self._high_bid is Bid.BIG_PEPPER:
            self._out = (self._high_bidder + 2) % 4
            self._to_defense()
        else:
            self.phase = Phase.DECLARE_MODE

    def _declare_mode(self, mode: Mode) -> None:
        self.mode = mode
        if mode is Mode.EXCHANGE:
            self.phase = Phase.DISCARD
        else:
            self._to_defense()

    def _to_defense(self) -> None:
        self.phase = Phase.DEFENSE
        self._to_act = (self._high_bidder + 1) % 4  # the defender on the bidder's left speaks

    def _start_play(self) -> None:
        self.phase = Phase.PLAY
        self._leader = self._to_act = self._high_bidder

    def _next_seat(self, seat: int) -> int:
        nxt = (seat + 1) % self.players
        return (nxt + 1) % self.players if nxt == self._out else nxt

    def _play(self, card: int) -> None:
        seat = self._to_act
        self._hands[seat].remove(card)
        trick = self._trick
        trick.append(card)
        self._trick_seats.append(seat)
        size = self.players - (self._out >= 0)
        if len(trick) < size:
            self._to_act = self._next_seat(seat)
            return
        best = winner_of(trick, self._trump)
        winner = self._trick_seats[best]
        self._won[winner] += 1
        self._tricks.append(Trick(len(self._tricks) + 1, Seat(self._leader),
                                  tuple(DECK[c] for c in trick),
                                  tuple(Seat(s) for s in self._trick_seats),
                                  Seat(winner), best))
        self._trick = []
        self._trick_seats = []
        if len(self._tricks) == 6:
            self._finish()
        else:
            self._leader = self._to_act = winner

    def _finish(self) -> None:
        self.phase = Phase.SCORED
        surrendered = self.defense is Defense.SURRENDER
        self._score = score_hand(self.rules, self._high_bid,
                                 self.rules.side_of(self._high_bidder),
                                 self.tricks_won(), surrendered)

    # ---- fast random completion -------------------------------------------------------------

    def playout(self, rng: random.Random) -> None:
        """Finish the play phase with uniformly random legal cards (for search and benchmarks).

        Works on the raw indices; the result is the same as repeated :meth:`apply` calls."""
        if self.phase is not Phase.PLAY:
            raise IllegalActionError(f"playout starts in the play phase, not {self.phase}")
        suits = EFFECTIVE_SUIT[self._trump]
        rand = rng.random
        hands = self._hands
        while self.phase is Phase.PLAY:
            hand = hands[self._to_act]
            if self._trick:
                led = suits[self._trick[0]]
                options = [c for c in hand if suits[c] == led] or hand
            else:
                options = hand
            card = options[int(rand() * len(options))]
            self.history.append(DECK[card])
            self._play(card)
