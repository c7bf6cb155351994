"""One hand of Pepper as a state machine: deal, auction, declare, exchange, defense, play.

The state offers the small API of game engines such as OpenSpiel: :attr:`HandState.phase`,
:attr:`HandState.to_act`, :meth:`legal_actions`, :meth:`apply` (the fast path: it trusts the
caller), :meth:`check` (the explaining path: it returns a
:class:`~pepper_tutor.rulebook.verdicts.Verdict`) and :meth:`is_terminal`. Actions are the
natural values of each phase: a :class:`Bid` in the auction, a :class:`Trump`, a
:class:`Mode`, a :class:`Card` to discard, send or play, a :class:`Defense`.

Internally cards are indices 0..23 and seats ints, which keeps random playouts fast. The
layers above read the state only through its public accessors: the Card and Seat values
above, and for the analysis :meth:`HandState.snapshot`, the same facts in indices as a
frozen :class:`Snapshot` (a test checks that nothing outside the engine reads a private
attribute).
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, NamedTuple

from .calls import Bid, Defense, Mode, Trump
from .cards import DECK, Card, CardLike, iterable_arg, wrong_type
from .ranking import EFFECTIVE_SUIT, TRICK_POWER, trump_code
from .rules import RuleSet, get_ruleset
from .scoring import HandScore, score_hand
from .seats import Seat

if TYPE_CHECKING:
    from ..rulebook.verdict import Verdict

__all__ = ["Action", "HandState", "IllegalActionError", "NothingToUndoError", "Phase",
           "Snapshot", "Trick"]

Action = Bid | Trump | Mode | Defense | Card


class IllegalActionError(ValueError):
    """Raised by :meth:`HandState.play_checked` for an action the rules do not allow, and by
    :meth:`HandState.apply` for an action of the wrong kind for the phase (a string, a Trump
    in the auction) or a card the seat does not hold."""


class NothingToUndoError(IllegalActionError, IndexError):
    """:meth:`HandState.undo` with no action taken (an IndexError too, as it always was)."""


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


# Module-level names for the values the fast path uses on every call (a global is cheaper
# than an attribute of the enum class, a tuple item cheaper than an enum call).
_AUCTION = Phase.AUCTION
_DECLARE_TRUMP = Phase.DECLARE_TRUMP
_DECLARE_MODE = Phase.DECLARE_MODE
_DISCARD = Phase.DISCARD
_SEND = Phase.SEND
_DEFENSE = Phase.DEFENSE
_PLAY = Phase.PLAY
_SCORED = Phase.SCORED
_THROWN_IN = Phase.THROWN_IN
_TRUMPS = tuple(Trump)
_EXCHANGE = Mode.EXCHANGE
_PARTNER = Mode.PARTNER
_DEFEND = Defense.PLAY
_SURRENDER = Defense.SURRENDER
_SEATS = tuple(Seat)
_PASS = Bid.PASS
_BIG_PEPPER = Bid.BIG_PEPPER


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


class Snapshot(NamedTuple):
    """The facts of a hand at one moment in the analysis's terms: card indices 0..23 and seat
    numbers, -1 for one not there (yet). :meth:`HandState.snapshot` takes one; the analysis
    and the search read the state through it (nothing above the engine reads a private
    attribute), and holding only tuples it cannot change the state it came from. A named
    tuple: the solver takes one for every position it sets up, and a frozen dataclass
    costs about three times as much to build."""

    to_act: int  # the seat whose decision it is, -1 once the hand is over
    bidder: int  # the high bidder, -1 before a bid
    trump: int  # the Trump named (0-4: clubs, diamonds, hearts, spades, no trump), -1 before
    code: int  # its ranking code (engine.ranking.trump_code: the table's left-bower switch)
    out: int  # the seat sitting out this hand, -1 for none
    hands: tuple[tuple[int, ...], ...]  # the cards each seat holds now, in the state's order
    trick: tuple[tuple[int, int], ...]  # the current trick so far: (seat, card) in play order
    won: tuple[int, ...]  # tricks taken by each seat so far


class HandState:
    """The state of one hand. Build one with :meth:`deal` or :meth:`from_hands`."""

    __slots__ = (
        "_code",
        "_dealt",
        "_hands",
        "_held",
        "_high_bid",
        "_high_bidder",
        "_in_deck_order",
        "_leader",
        "_next",
        "_out",
        "_passed",
        "_score",
        "_size",
        "_suits",
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
        "passed",
        "phase",
        "players",
        "rules",
    )

    def __init__(self, rules: RuleSet, dealer: Seat, hands: Sequence[Sequence[int]]):
        """A hand from card indices (0..23) in seat order: the analysis's way in. Checked,
        as every public way in is: six distinct cards for each seat at the table."""
        if type(rules) is not RuleSet:
            raise wrong_type(rules, "a RuleSet (get_ruleset makes one)")
        own = [list(iterable_arg(h, "a hand of card indices"))
               for h in iterable_arg(hands, "hands (one list of card indices a seat)")]
        if len(own) != rules.players:
            raise ValueError(f"{len(own)} hands given for {rules.players} players")
        seen: set[int] = set()
        for hand in own:
            for c in hand:
                if type(c) is not int or not 0 <= c < 24:
                    raise wrong_type(c, "a card index from 0 to 23") if type(c) is not int \
                        else ValueError(f"{c} is not a card index (expected 0 to 23)")
            if len(hand) != 6 or len(set(hand)) != 6 or seen.intersection(hand):
                raise ValueError("every seat holds six cards, and no card is dealt twice")
            seen.update(hand)
        self._setup(rules, _check_dealer(Seat.parse(dealer), rules),
                    own, all(h == sorted(h) for h in own))

    def _setup(self, rules: RuleSet, dealer: Seat, hands: list[list[int]],
               in_deck_order: bool) -> None:
        """Fill a fresh state from checked values; ``hands`` becomes the state's own (every
        random hand starts here, so nothing is checked or copied twice)."""
        self.rules = rules
        self.dealer = dealer
        n = self.players = rules.players
        self._dealt = tuple(map(tuple, hands))
        self._hands = hands
        self._held: list[int] = []  # in the play phase, the hands as 24-bit masks
        # Whether every hand lists its cards in deck order (dealt hands do; a deal given
        # by hand may not), so legal_actions can read them from tables.
        self._in_deck_order = in_deck_order
        self._undealt = () if n == 4 else tuple(sorted(_ALL_CARDS.difference(*hands)))
        self.phase = _AUCTION
        self._to_act = (dealer + 1) % n
        self.calls: list[tuple[Seat, Bid]] = []
        self._high_bid = _PASS
        self._high_bidder = -1
        self._passed = [False] * n
        self._trump = -1  # the Trump named (0-4), -1 before
        self._code = -1  # its ranking-table code: says whether the left bower is promoted
        self._suits: list[int] = []  # EFFECTIVE_SUIT[_code], set with the trump
        self.mode: Mode | None = None
        self.discard: Card | None = None
        self.passed: Card | None = None
        self.defense: Defense | None = None
        self._out = -1  # the seat that sits out, if any
        self._trick: list[int] = []
        self._trick_seats: list[int] = []
        self._leader = -1
        self._size = 0  # seats that play a card to each trick
        self._next: tuple[int, ...] = ()  # the next seat to play after each seat
        # Finished tricks as raw (leader, cards, seats, winner, winning index): the
        # Trick values are built when asked for, off the fast path.
        self._tricks: list[tuple[int, Sequence[int], Sequence[int], int, int]] = []
        self._won = [0] * n
        self.history: list[Action] = []
        self._score: HandScore | None = None

    # ---- construction -------------------------------------------------------------------

    @classmethod
    def deal(cls, rules: RuleSet | str = "standard", dealer: Seat | str | None = None,
             rng: random.Random | int | None = None) -> HandState:
        """Shuffle and deal six cards to each player; with fewer than four, the rest stay out.
        The dealer defaults to the last seat at the table (West with four players), so the
        first call is North's."""
        if type(rules) is not RuleSet:
            rules = get_ruleset(rules)
        seat = _check_dealer(dealer if type(dealer) is Seat else _default_dealer(dealer, rules),
                             rules)
        if not isinstance(rng, random.Random):
            rng = random.Random(_seed(rng))
        deck = list(range(24))
        if type(rng) is random.Random:
            _shuffle(deck, rng.getrandbits)
        else:
            rng.shuffle(deck)
        hands = [deck[0:6], deck[6:12], deck[12:18], deck[18:24]][:rules.players]
        for hand in hands:
            hand.sort()
        state = object.__new__(cls)
        state._setup(rules, seat, hands, True)
        return state

    @classmethod
    def from_hands(cls, hands: Mapping[Any, Sequence[CardLike]],
                   rules: RuleSet | str = "standard", dealer: Seat | str | None = None
                   ) -> HandState:
        """A hand from a known deal; checks six distinct cards for each seat in play. The
        dealer defaults to the last seat at the table, as for :meth:`deal`."""
        rules = get_ruleset(rules)
        seat_dealing = _check_dealer(_default_dealer(dealer, rules), rules)
        if not isinstance(hands, Mapping):
            raise wrong_type(hands, "a mapping of seats to their cards")
        by_seat = {Seat.parse(k): [Card.parse(c) for c in iterable_arg(v, "a hand of cards")]
                   for k, v in hands.items()}
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
        return cls(rules, seat_dealing,
                   [[c.index for c in by_seat[Seat(i)]] for i in range(rules.players)])

    def copy(self) -> HandState:
        """A cheap independent copy (lists are copied, immutable values shared)."""
        other = object.__new__(HandState)
        # Spelled out rather than looped over __slots__: copies are the first step of every
        # playout, and this is several times quicker (a test checks no slot is missed).
        other._code = self._code
        other._dealt = self._dealt
        other._high_bid = self._high_bid
        other._high_bidder = self._high_bidder
        other._in_deck_order = self._in_deck_order
        other._leader = self._leader
        other._next = self._next
        other._out = self._out
        other._score = self._score
        other._size = self._size
        other._suits = self._suits
        other._to_act = self._to_act
        other._trump = self._trump
        other._undealt = self._undealt
        other.dealer = self.dealer
        other.defense = self.defense
        other.discard = self.discard
        other.mode = self.mode
        other.phase = self.phase
        other.players = self.players
        other.rules = self.rules
        other.passed = self.passed
        other._hands = [h[:] for h in self._hands]
        other._held = self._held[:]
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
            raise NothingToUndoError("nothing to undo: no action has been taken this hand")
        last = self.history[-1]
        fresh = HandState(self.rules, self.dealer, self._dealt)
        for action in self.history[:-1]:
            fresh.apply(action)
        for name in HandState.__slots__:
            setattr(self, name, getattr(fresh, name))
        return last

    # ---- what can be seen -----------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        """The facts the analysis reads, as card indices and seat numbers (:class:`Snapshot`).
        Cheap: a few tuples of what the state holds, no Card or Seat values built."""
        phase = self.phase
        return Snapshot(-1 if phase is _SCORED or phase is _THROWN_IN else self._to_act,
                        self._high_bidder, self._trump, self._code, self._out,
                        tuple(map(tuple, self._hands)),
                        tuple(zip(self._trick_seats, self._trick, strict=True)),
                        tuple(self._won))

    @property
    def to_act(self) -> Seat | None:
        """The seat whose decision it is, or ``None`` once the hand is over."""
        return None if self.is_terminal() else _SEATS[self._to_act]

    def is_terminal(self) -> bool:
        phase = self.phase
        return phase is _SCORED or phase is _THROWN_IN

    def hand(self, seat: Seat | str) -> list[Card]:
        """The cards a seat holds now."""
        return [DECK[c] for c in self._hands[self._seat_at_table(seat)]]

    def dealt(self, seat: Seat | str) -> list[Card]:
        """The six cards the seat was dealt."""
        return [DECK[c] for c in self._dealt[self._seat_at_table(seat)]]

    def _seat_at_table(self, seat: Seat | str) -> Seat:
        found = seat if type(seat) is Seat else Seat.parse(seat)
        if found >= self.players:
            raise ValueError(f"{found.word} does not sit at this {self.players}-player table")
        return found

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
        return [Trick(number, _SEATS[leader], tuple(DECK[c] for c in cards),
                      tuple(_SEATS[s] for s in seats), _SEATS[winner], best)
                for number, (leader, cards, seats, winner, best)
                in enumerate(self._tricks, start=1)]

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
        if self._score is None and self.phase is _SCORED:
            # Worked out when first asked for: random playouts finish many hands that are
            # never scored.
            self._score = score_hand(self.rules, self._high_bid,
                                     self.rules.side_of(self._high_bidder), self.tricks_won(),
                                     self.defense is _SURRENDER)
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
        if phase is _PLAY:
            if self._in_deck_order:  # the tables list cards in deck order
                mask = self._held[self._to_act]
                if self._trick:
                    suit = self._suits[self._trick[0]]
                    in_suit = mask & _SUIT_MASKS[self._code][suit]
                    if in_suit:
                        return list(_FOLLOW_CARDS[self._code][suit][in_suit])
                low, high = _CARD_HALVES
                return list(low[mask & 4095] + high[mask >> 12])
            hand = self._hands[self._to_act]
            if self._trick:
                suits = self._suits
                led = suits[self._trick[0]]
                follow: list[Action] = [DECK[c] for c in hand if suits[c] == led]
                if follow:
                    return follow
            return [DECK[c] for c in hand]
        if phase is _AUCTION:
            return self._legal_calls()  # type: ignore[return-value]
        if phase is _DECLARE_TRUMP:
            return list(_TRUMPS)
        if phase is _DECLARE_MODE:
            return [_EXCHANGE, _PARTNER]
        if phase is _DISCARD or phase is _SEND:
            return [DECK[c] for c in self._hands[self._to_act]]
        if phase is _DEFENSE:
            return [_DEFEND] if self.surrender_forbidden() else [_DEFEND,
                                                                        _SURRENDER]
        return []

    def _legal_calls(self) -> list[Bid]:
        rules = self.rules
        bids = rules.bids_above[self._high_bid]
        # dealer_must_bid_now(), spelled out: this runs on every call of every auction.
        if rules.dealer_must_bid and self._to_act == self.dealer and self._high_bidder < 0:
            return list(rules.dealer_bids)
        return [_PASS, *bids]

    def dealer_must_bid_now(self) -> bool:
        """True when the rules stick the dealer and everyone before the dealer has passed."""
        return (self.rules.dealer_must_bid and self._to_act == self.dealer
                and self._high_bidder < 0 and self.phase is _AUCTION)

    def surrender_forbidden(self) -> bool:
        """Whether the defenders must play: dirty clubs, or a dumped dealer's contract."""
        return not self.rules.may_surrender(self._trump, self.dealer_dumped())

    def dealer_dumped(self) -> bool:
        """Whether the high bid is the dealer's after everyone else passed: the dealer the
        dumped-dealer rule forces to bid (whichever rules are played)."""
        return (self._high_bidder == self.dealer and not self.rules.open_auction
                and all(b is _PASS for _, b in self.calls[:-1]))

    def apply(self, action: Action) -> None:
        """Take an action without checking it (the fast path). Use :meth:`check` first when
        the action comes from a person.

        It takes only actions, and refuses one of the wrong kind for the phase (a string, a
        plain number, a Trump in the auction: :meth:`check` reads text), a card the seat
        does not hold and any action once the hand is over (:class:`IllegalActionError`),
        leaving the state and its history untouched. Those checks are identity tests of the
        action's type, nothing more."""
        phase = self.phase
        if phase is _PLAY:
            # The play, inlined (it is most of a hand's actions).
            if type(action) is not Card:
                raise self._wrong_kind(action)
            card = action.index
            seat = self._to_act
            try:
                self._hands[seat].remove(card)
            except ValueError:
                raise self._not_held(action) from None
            self._held[seat] ^= 1 << card
            trick = self._trick
            trick.append(card)
            seats = self._trick_seats
            seats.append(seat)
            self.history.append(action)
            if len(trick) < self._size:
                self._to_act = self._next[seat]
            else:
                self._end_trick()
            return
        kind = type(action)
        # Only actions: a plain number is refused like a Trump in the auction (a Bid, a Trump
        # or a Seat is an int too), so the history holds only Bids, Trumps, Modes, Cards
        # and Defenses, what a record and the verdicts read back.
        if phase is _AUCTION:
            if kind is not Bid:
                raise self._wrong_kind(action)
            self._call(action)  # type: ignore[arg-type]
        elif phase is _DECLARE_TRUMP:
            if kind is not Trump:
                raise self._wrong_kind(action)
            self._declare_trump(action)  # type: ignore[arg-type]
        elif phase is _DECLARE_MODE:
            if kind is not Mode:
                raise self._wrong_kind(action)
            self._declare_mode(action)  # type: ignore[arg-type]
        elif phase is _DISCARD:
            if kind is not Card:
                raise self._wrong_kind(action)
            card = action.index  # type: ignore[union-attr]
            if card not in self._hands[self._to_act]:
                raise self._not_held(action)
            self._hands[self._to_act].remove(card)
            self.discard = DECK[card]
            self.phase = _SEND
            self._to_act = (self._high_bidder + 2) % 4
        elif phase is _SEND:
            if kind is not Card:
                raise self._wrong_kind(action)
            card = action.index  # type: ignore[union-attr]
            if card not in self._hands[self._to_act]:
                raise self._not_held(action)
            self._hands[self._to_act].remove(card)
            insort(self._hands[self._high_bidder], card)  # hands stay in deck order
            self.passed = DECK[card]
            self._out = self._to_act
            self._to_defense()
        elif phase is _DEFENSE:
            if kind is not Defense:
                raise self._wrong_kind(action)
            self.defense = action  # type: ignore[assignment]
            if action is _SURRENDER:
                self._finish()
            else:
                self._start_play()
        else:
            raise IllegalActionError(f"the hand is over ({self.phase}); no action can be taken")
        self.history.append(action)

    def _wrong_kind(self, action: object) -> IllegalActionError:
        needs = {_AUCTION: "a Bid", _DECLARE_TRUMP: "a Trump", _DECLARE_MODE: "a Mode",
                 _DISCARD: "a Card", _SEND: "a Card", _DEFENSE: "a Defense",
                 _PLAY: "a Card"}[self.phase]
        shown = repr(action)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        return IllegalActionError(f"{shown} is not an action of the {self.phase} phase, which "
                                  f"takes {needs} (apply takes values; check reads text); "
                                  "nothing was applied")

    def _not_held(self, action: object) -> IllegalActionError:
        seat = _SEATS[self._to_act]
        shown = action.display if isinstance(action, Card) else repr(action)
        held = " ".join(c.display for c in self.hand(seat))
        return IllegalActionError(f"{seat.word} does not hold the {shown} ({seat.word} holds "
                                  f"{held}); nothing was applied")

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
        self.calls.append((_SEATS[seat], bid))
        n = self.players
        if bid is _PASS:
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
            self.phase = _THROWN_IN
            self._score = None
            return
        self.phase = _DECLARE_TRUMP
        self._to_act = self._high_bidder

    def _declare_trump(self, trump: Trump) -> None:
        self._trump = int(trump)
        self._code = trump_code(trump, self.rules.left_bower)
        self._suits = EFFECTIVE_SUIT[self._code]
        if not self.rules.has_exchange:
            self._start_play()
        elif self._high_bid is _BIG_PEPPER:
            self._out = (self._high_bidder + 2) % 4
            self._to_defense()
        else:
            self.phase = _DECLARE_MODE

    def _declare_mode(self, mode: Mode) -> None:
        self.mode = mode
        if mode is _EXCHANGE:
            self.phase = _DISCARD
        else:
            self._to_defense()

    def _to_defense(self) -> None:
        self.phase = _DEFENSE
        self._to_act = (self._high_bidder + 1) % 4  # the defender on the bidder's left speaks

    def _start_play(self) -> None:
        self.phase = _PLAY
        self._leader = self._to_act = self.rules.first_leader(self._high_bidder, self._trump)
        self._next, order = _play_order(self.players, self._out)
        self._size = len(order[self._leader])
        self._held = [_mask_of(hand) for hand in self._hands]
        if not _CARDS_OF_MASK:
            _build_option_tables()

    def _end_trick(self) -> None:
        trick = self._trick
        seats = self._trick_seats
        row = TRICK_POWER[self._code][self._suits[trick[0]]]
        best, best_power = 0, -1
        for pos, c in enumerate(trick):
            if row[c] > best_power:
                best, best_power = pos, row[c]
        winner = seats[best]
        self._won[winner] += 1
        tricks = self._tricks
        # The lists themselves are kept (the state starts new ones): never changed again.
        tricks.append((self._leader, trick, seats, winner, best))
        self._trick = []
        self._trick_seats = []
        if len(tricks) == 6:
            self._finish()
        else:
            self._leader = self._to_act = winner

    def _finish(self) -> None:
        self.phase = _SCORED
        self._score = None  # worked out on first use: see the score property

    # ---- fast random completion -------------------------------------------------------------

    def playout(self, rng: random.Random) -> None:
        """Finish the play phase with uniformly random legal cards (for search and benchmarks).

        The same cards and the same result as repeated :meth:`apply` calls choosing
        ``options[int(rng.random() * len(options))]`` from :meth:`legal_actions` whenever the
        hands are in deck order (dealt hands always are: the card passed in the exchange is put
        in its place), but as one loop over locals on 24-bit hand masks, where a seat's options
        (its cards of the suit led, or all its cards) are table lookups in deck order. The
        state is written back once, at the end."""
        self._play_randomly(rng, True)
        self._finish()

    def random_tricks(self, rng: random.Random) -> list[int]:
        """Tricks each seat would hold at the end of a random playout from here, leaving this
        state untouched: :meth:`playout`'s cards and result without its bookkeeping (no copy,
        no history), the fast path for sampling searches."""
        return self._play_randomly(rng, False)

    def _play_randomly(self, rng: random.Random, record: bool) -> list[int]:
        if not isinstance(rng, random.Random):
            raise wrong_type(rng, "a random.Random")
        if self.phase is not _PLAY:
            raise IllegalActionError(f"a playout starts in the play phase, not {self.phase}")
        low, high = _CARDS_OF_MASK
        suits = self._suits
        power = TRICK_POWER[self._code]
        follow_masks = _SUIT_MASKS[self._code]
        follow_options = _FOLLOW_OPTIONS[self._code]
        rand = rng.random
        tricks = self._tricks
        count = len(tricks)
        won = self._won if record else list(self._won)
        order = _play_order(self.players, self._out)[1]
        held = self._held if record else self._held[:]
        leader = self._leader
        seats = order[leader]
        cards = list(self._trick)
        played: list[int] = []  # every card of the tricks this playout finishes, in order
        done = fresh = len(cards)  # cards of this trick already played (and in the history)
        if done:
            led = suits[cards[0]]
            row = power[led]
            best_power = max(row[c] for c in cards)
            winner = seats[[row[c] for c in cards].index(best_power)]
        while True:
            if not done:
                mask = held[leader]
                options = low[mask & 4095] + high[mask >> 12]
                card = options[int(rand() * len(options))]
                held[leader] = mask ^ (1 << card)
                led = suits[card]
                row = power[led]
                cards = [card]
                best_power = row[card]
                winner = leader
                done = 1
            follow = follow_masks[led]
            following = follow_options[led]
            for seat in seats[done:]:
                mask = held[seat]
                if mask & follow:
                    options = following[mask & follow]
                else:
                    options = low[mask & 4095] + high[mask >> 12]
                card = options[int(rand() * len(options))]
                held[seat] = mask ^ (1 << card)
                cards.append(card)
                if row[card] > best_power:
                    best_power = row[card]
                    winner = seat
            won[winner] += 1
            count += 1
            if record:
                played += cards
                tricks.append((leader, tuple(cards), seats, winner, seats.index(winner)))
            if count == 6:
                break
            leader = winner
            seats = order[leader]
            done = 0
        if record:
            for seat in seats:
                self._hands[seat] = []
            self.history += [DECK[c] for c in played[fresh:]]
            self._trick, self._trick_seats = [], []
            self._to_act, self._leader = seats[-1], leader
        return won


# Tables of a seat's options in deck order (the order of legal_actions), built on the first
# playout: for each 12-bit half of a hand mask, the cards it holds (0-11 in the low half,
# 12-23 in the high); for each ranking-table code and effective suit, the cards of that suit
# in any mask of them.
# The same tables with Card values (_CARD_HALVES, _FOLLOW_CARDS) serve legal_actions.
_CARDS_OF_MASK: list[list[tuple[int, ...]]] = []
_CARD_HALVES: list[list[tuple[Card, ...]]] = []
_FOLLOW_OPTIONS: list[list[dict[int, tuple[int, ...]]]] = []
_FOLLOW_CARDS: list[list[dict[int, tuple[Card, ...]]]] = []
# For each ranking-table code, the mask of each effective suit's cards.
_SUIT_MASKS = [[sum(1 << c for c in range(24) if row[c] == suit) for suit in range(4)]
               for row in EFFECTIVE_SUIT]


def _build_option_tables() -> list[list[tuple[int, ...]]]:
    # Each mask's cards are those of the mask without its highest bit, then that bit's card.
    low: list[tuple[int, ...]] = [()]
    for mask in range(1, 4096):
        top = mask.bit_length() - 1
        low.append(low[mask ^ (1 << top)] + (top,))
    high = [tuple(c + 12 for c in cards) for cards in low]
    for suit_masks in _SUIT_MASKS:
        by_suit = []
        for suit_mask in suit_masks:
            options: dict[int, tuple[int, ...]] = {}
            subset = suit_mask
            while subset:  # every non-empty subset of the suit's cards
                options[subset] = low[subset & 4095] + high[subset >> 12]
                subset = (subset - 1) & suit_mask
            by_suit.append(options)
        _FOLLOW_OPTIONS.append(by_suit)
        _FOLLOW_CARDS.append([{mask: tuple(DECK[c] for c in cards)
                               for mask, cards in options.items()} for options in by_suit])
    _CARD_HALVES[:] = [[tuple(DECK[c] for c in cards) for cards in half] for half in (low, high)]
    _CARDS_OF_MASK[:] = [low, high]
    return _CARDS_OF_MASK


_PLAY_ORDERS: dict[tuple[int, int], tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]] = {}


def _play_order(players: int, out: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """For a table of ``players`` with seat ``out`` sitting out (-1: nobody): the next seat
    to play after each seat, and the seats in play order from each leader (memoised: a
    handful of tables)."""
    key = (players, out)
    found = _PLAY_ORDERS.get(key)
    if found is None:
        seats = [s for s in range(players) if s != out]
        following = [-1] * players
        for i, s in enumerate(seats):
            following[s] = seats[(i + 1) % len(seats)]
        order: list[tuple[int, ...]] = []
        for lead in range(players):
            ring = [lead]
            while lead != out and len(ring) < len(seats):
                ring.append(following[ring[-1]])
            order.append(tuple(ring) if lead != out else ())
        found = _PLAY_ORDERS[key] = (tuple(following), tuple(order))
    return found


_ALL_CARDS = frozenset(range(24))
# (i, bits of i + 1) for random.shuffle's loop over a 24-card deck, highest i first.
_SHUFFLE_STEPS = tuple((i, (i + 1).bit_length()) for i in reversed(range(1, 24)))


def _shuffle(deck: list[int], getrandbits: Callable[[int], int]) -> None:
    """``random.Random.shuffle`` of the deck, inlined: the same draws from the generator, so
    the same deal for the same seed, without a Python call per card."""
    for i, bits in _SHUFFLE_STEPS:
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]


def _mask_of(cards: Sequence[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def _default_dealer(dealer: Seat | str | None, rules: RuleSet) -> Seat:
    return _SEATS[rules.players - 1] if dealer is None else Seat.parse(dealer)


def _check_dealer(dealer: Seat, rules: RuleSet) -> Seat:
    if dealer >= rules.players:
        seats = ", ".join(s.name for s in _SEATS[:rules.players])
        raise ValueError(f"the dealer must sit at the table: {dealer} is not one of the "
                         f"{rules.players} seats in play ({seats})")
    return dealer


def _seed(rng: object) -> int | float | str | bytes | bytearray | None:
    """A seed ``random.Random`` takes (None, a number, text or bytes), else a refusal."""
    if rng is None or isinstance(rng, (int, float, str, bytes, bytearray)):
        return rng
    raise wrong_type(rng, "a random.Random or a seed (a number or text)")
