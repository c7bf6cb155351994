"""An exact double-dummy solver for the play phase: every hand visible, best play by all.

Given a position (the cards each seat still holds, the cards already in the current trick,
who plays next, the trump and who sits out) and the side being maximised (the bidding team,
or one seat in cutthroat), :func:`solve` returns the most tricks that side takes from here
when everyone plays perfectly, the other seats together minimising, and the value of each
legal card for the player to move. The annotator grades cards by it ("this card costs a
trick") and :mod:`pepper_tutor.advice` solves sampled deals with it.

How it stays fast in pure Python:

- Hands are 24-bit masks (card index ``suit * 6 + rank``), so a whole position is a few ints.
- The search asks null-window questions ("does the side take at least ``n`` more
  tricks?"), which prune harder than a full-window search, and answers each fail-soft: with
  a bound, not just yes or no. The exact value takes two or three such searches (MTD(f)),
  sharing one transposition table.
- The table holds a lower and an upper bound on the tricks still to come, at trick
  boundaries only. Its key is rank-relative: per suit, who holds the cards still in play
  from the top down, and who leads. Which low cards are gone does not matter, so positions
  reached by different tricks share entries, and an entry holds for any deal with the same
  trump, seats and side: the annotator passes one :class:`TranspositionTable` through a
  hand, the advice one through its sampled deals.
- Equivalent cards are merged: two cards of one effective suit held by one player, with no
  card between them in trick rank held by anyone else or lying in the current trick, win
  and lose exactly the same tricks, so only one is searched and the other copies its value.
- Cheap bounds settle many positions unsearched: a seat's trumps above every trump of the
  other side each win a trick; a leader whom no one can ruff cashes its trumps and the top
  run of each suit; the last trick plays itself.
- Moves are ordered so that cut-offs come early: strong leads first; a follower tries the
  cheapest card that beats the trick, then its lowest card; a partner already winning plays
  low.

Bowers are never re-derived here: effective suits and trick ranks come from
:data:`pepper_tutor.ranking.EFFECTIVE_SUIT` and :data:`pepper_tutor.ranking.TRICK_RANK`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import DECK, Card, CardLike
from .ranking import EFFECTIVE_SUIT, TRICK_RANK
from .seats import Seat

if TYPE_CHECKING:
    from .state import HandState

__all__ = [
    "Position",
    "CardValue",
    "Solution",
    "TranspositionTable",
    "solve",
    "takes_at_least",
    "position_from_state",
    "solve_state",
    "bidding_side",
]

NO_TRUMP = 4


# ---- tables derived once from the ranking tables ------------------------------------------


def _power_table(trump: int) -> list[list[int]]:
    """``power[led][card]``: how strongly a card bids for a trick led in suit ``led``.

    Trumps beat every card of the suit led, which beats every other card (-1: cannot win).
    Only comparisons matter, so a trump's trick rank is lifted above any plain rank."""
    suits, ranks = EFFECTIVE_SUIT[trump], TRICK_RANK[trump]
    table = []
    for led in range(4):
        row = []
        for c in range(24):
            s = suits[c]
            row.append(ranks[c] + 10 if s == trump else ranks[c] if s == led else -1)
        table.append(row)
    return table


def _suit_masks(trump: int) -> list[int]:
    masks = [0, 0, 0, 0]
    for c in range(24):
        masks[EFFECTIVE_SUIT[trump][c]] |= 1 << c
    return masks


def _suit_orders(trump: int) -> list[tuple[tuple[int, int], ...]]:
    """Per effective suit, ``(card, bit)`` pairs from the highest trick rank down."""
    orders = []
    for s in range(4):
        cards = [c for c in range(24) if EFFECTIVE_SUIT[trump][c] == s]
        cards.sort(key=lambda c: -TRICK_RANK[trump][c])
        orders.append(tuple((c, 1 << c) for c in cards))
    return orders


_POWER = [_power_table(t) for t in range(5)]
_SUIT_MASKS = [_suit_masks(t) for t in range(5)]
_ORDERS = [_suit_orders(t) for t in range(5)]
# A card's strength on its own (its power when it leads): trumps above everything else.
_STRENGTH = [[_POWER[t][EFFECTIVE_SUIT[t][c]][c] for c in range(24)] for t in range(5)]


# ---- the public values ---------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A play-phase position with every hand visible.

    ``hands`` has one entry per seat (``players`` of them), each the card indices that seat
    still holds; the seat that sits out (``out``) must hold nothing here. ``trick`` lists the
    ``(seat, card)`` pairs already played to the current trick, in play order. ``to_play``
    is the seat whose turn it is; ``trump`` is 0-3 for a suit or 4 for no trump; ``side``
    is the set of seats whose tricks are counted (maximised); everyone else minimises.
    """

    hands: tuple[tuple[int, ...], ...]
    trick: tuple[tuple[int, int], ...]
    to_play: int
    trump: int
    side: frozenset[int]
    players: int = 4
    out: int | None = None

    def __post_init__(self) -> None:
        problem = self._problem()
        if problem:
            raise ValueError(f"not a valid play position: {problem}")

    def _problem(self) -> str | None:
        if self.players not in (2, 3, 4) or len(self.hands) != self.players:
            return f"{len(self.hands)} hands for {self.players} players"
        if not 0 <= self.trump <= NO_TRUMP:
            return f"trump {self.trump} is not 0-3 or 4 (no trump)"
        if self.out is not None and (self.players != 4 or not 0 <= self.out < 4):
            return f"seat {self.out} cannot sit out with {self.players} players"
        active = self.active_seats
        if self.out is not None and self.hands[self.out]:
            return f"seat {self.out} sits out but holds cards"
        cards = [c for h in self.hands for c in h] + [c for _, c in self.trick]
        if len(set(cards)) != len(cards) or not all(0 <= c < 24 for c in cards):
            return "a card is repeated or is not an index 0..23"
        if not self.side or not self.side <= set(range(self.players)):
            return f"the maximised side {sorted(self.side)} is not a set of seats in play"
        if self.to_play not in active:
            return f"seat {self.to_play} is not in play"
        played = [s for s, _ in self.trick]
        if len(played) >= len(active) or len(set(played)) != len(played):
            return "the current trick is full or has a seat twice"
        seat = self.to_play
        for s in reversed(played):  # the trick must run clockwise up to the seat to play
            seat = active[(active.index(seat) - 1) % len(active)]
            if s != seat:
                return "the current trick's seats are not in turn before the seat to play"
        left = len(self.hands[self.to_play])
        for s in active:
            expected = left - (1 if s in played else 0)
            if len(self.hands[s]) != expected:
                return f"seat {s} holds {len(self.hands[s])} cards, expected {expected}"
        return None

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats that play cards, clockwise from seat 0."""
        return tuple(s for s in range(self.players) if s != self.out)

    @property
    def tricks_left(self) -> int:
        """Tricks still to finish, the current one included."""
        return len(self.hands[self.to_play])

    @classmethod
    def from_cards(cls, hands: Sequence[Iterable[CardLike | int]], to_play: Seat | str | int,
                   trump: int | str, side: Iterable[Seat | str | int],
                   trick: Iterable[tuple[Seat | str | int, CardLike | int]] = (),
                   out: Seat | str | int | None = None) -> Position:
        """A position from card text (``"JH"``), cards or indices, and seat names.

        >>> p = Position.from_cards([["JH"], ["9S"], ["AH"], ["TC"]], "N", "H", "NS")
        >>> solve(p).tricks
        1
        """
        from .calls import Trump

        def idx(card: CardLike | int) -> int:
            return card if isinstance(card, int) else Card.parse(card).index

        def seat(s: Seat | str | int) -> int:
            return int(Seat.parse(s))

        if isinstance(side, str) and side.upper() in ("NS", "EW"):
            side = list(side.upper())
        return cls(hands=tuple(tuple(idx(c) for c in h) for h in hands),
                   trick=tuple((seat(s), idx(c)) for s, c in trick),
                   to_play=seat(to_play),
                   trump=trump if isinstance(trump, int) else int(Trump.parse(trump)),
                   side=frozenset(seat(s) for s in side), players=len(hands),
                   out=None if out is None else seat(out))


@dataclass(frozen=True)
class CardValue:
    """One legal card and the tricks the maximised side takes if it is played (then best
    play by all). ``cost`` is what the card gives away, seen from the player to move."""

    card: Card
    tricks: int
    cost: int


@dataclass(frozen=True)
class Solution:
    """The double-dummy result of a position.

    ``tricks`` counts the maximised side's tricks from here (the current trick included);
    ``won_before`` is what the side had already taken when the position comes from a
    :class:`~pepper_tutor.state.HandState` (0 otherwise), so ``total`` is its final count.
    ``values`` holds each legal card of the player to move, best first (empty when
    ``card_values=False`` was asked for, or when no card is left).
    """

    tricks: int
    to_play: Seat
    maximising: bool  # the player to move belongs to the maximised side
    side: tuple[Seat, ...]
    values: tuple[CardValue, ...]
    won_before: int = 0

    @property
    def total(self) -> int:
        return self.won_before + self.tricks

    @property
    def best_cards(self) -> tuple[Card, ...]:
        return tuple(v.card for v in self.values if v.cost == 0)

    def value(self, card: CardLike) -> int:
        """Tricks for the side from here if ``card`` is played next; KeyError if not legal."""
        return self._of(card).tricks

    def cost(self, card: CardLike) -> int:
        """Tricks the player to move gives away by playing ``card`` rather than a best card."""
        return self._of(card).cost

    def _of(self, card: CardLike) -> CardValue:
        c = Card.parse(card)
        for v in self.values:
            if v.card is c:
                return v
        raise KeyError(f"{c} is not a legal card here (or card values were not computed)")

    def __str__(self) -> str:
        who = "+".join(str(s) for s in self.side)
        head = (f"{who} take {self.tricks} more trick{'s' if self.tricks != 1 else ''}"
                f" with best play ({self.total} in all); {self.to_play} to play")
        if not self.values:
            return head
        parts = [f"{v.card.display} {v.tricks}" + (f" (costs {v.cost})" if v.cost else "")
                 for v in self.values]
        return head + ": " + ", ".join(parts)


class TranspositionTable:
    """Bounds on the tricks still to come at trick boundaries, shared between searches.

    Keys are rank-relative (per suit, who holds the cards still in play, from the top down,
    and who leads), so an entry holds for any deal with the same trump, seats in play and
    maximised side: one table may serve every position of a hand (the annotator) and every
    sampled deal of an advice run. :meth:`prepare` clears it when that context changes, and
    when it grows past ``max_entries``.
    """

    __slots__ = ("_context", "lower", "max_entries", "upper")

    def __init__(self, max_entries: int = 2_000_000) -> None:
        self.lower: dict[int, int] = {}
        self.upper: dict[int, int] = {}
        self.max_entries = max_entries
        self._context: tuple[int, int, int | None, frozenset[int]] | None = None

    def __len__(self) -> int:
        return len(self.lower.keys() | self.upper.keys())

    def clear(self) -> None:
        self.lower.clear()
        self.upper.clear()
        self._context = None

    def prepare(self, position: Position) -> None:
        """Keep the entries if they hold for this position; else start afresh."""
        context = (position.trump, position.players, position.out, position.side)
        if (context != self._context
                or len(self.lower) + len(self.upper) > self.max_entries):
            self.clear()
            self._context = context


# ---- the search ------------------------------------------------------------------------------

_Search = Callable[[int, int, int, int, int, int, int], int]

# Runs of equivalent cards within one suit depend only on which of the suit's cards are
# still in play and which of them the player may play, so they are memoised for good:
# per trump, at most 3**7 keys for the seven-card trump suit.
_RUNS: list[dict[int, tuple[int, ...]]] = [{} for _ in range(5)]


def _runs(trump: int, suit: int, cand: int, present: int) -> tuple[int, ...]:
    """The highest card of each run of ``cand`` in ``suit``, from the top down.

    A run ends where a card still in play (``present``: held by anyone, or lying in the
    current trick) is not ours: such a card separates what the two cards can win."""
    reps = []
    prev = False  # was the last card still in play one of ours?
    for c, b in _ORDERS[trump][suit]:
        if present & b:
            if cand & b:
                if not prev:
                    reps.append(c)
                prev = True
            else:
                prev = False
    return tuple(reps)


# Top runs (for the cashing bound) depend on the same two masks: memoised alike.
_TOPS: list[dict[int, int]] = [{} for _ in range(5)]


def _top_run(trump: int, suit: int, mine: int, present: int) -> int:
    """How many of the highest cards of ``suit`` still in play are ``mine``, in a row."""
    run = 0
    for _, b in _ORDERS[trump][suit]:
        if present & b:
            if not mine & b:
                break
            run += 1
    return run


def _searcher(position: Position, table: TranspositionTable) -> tuple[_Search, list[int]]:
    """Build the search for one position; returns it and the live hand masks.

    ``search(seat, pos, led, win_power, win_seat, trick_mask, need)`` is a null-window,
    fail-soft test of "does the maximised side take at least ``need`` tricks from here?",
    with ``seat`` to play the ``pos``-th card of the current trick (led suit ``led``, best
    power so far ``win_power`` by ``win_seat``, its cards ``trick_mask``). It returns a bound
    ``g``: if ``g >= need`` the side takes at least ``g``, else at most ``g``. A bound
    tighter than yes/no is free to compute and makes the table and the root converge faster.

    It is two mutually recursive closures, ``lead`` at trick boundaries and ``follow`` within
    a trick; everything they touch is a local, because attribute look-ups would cost more
    than the search itself.
    """
    trump = position.trump
    suit_of = EFFECTIVE_SUIT[trump]
    masks = _SUIT_MASKS[trump]
    power = _POWER[trump]
    strength = _STRENGTH[trump]
    orders = _ORDERS[trump]
    memo = _RUNS[trump]
    tops = _TOPS[trump]
    active = position.active_seats
    size = len(active)
    nxt = [0, 0, 0, 0]
    for i, s in enumerate(active):
        nxt[s] = active[(i + 1) % size]
    ours = [1 if s in position.side else 0 for s in range(4)]
    hands = [0, 0, 0, 0]
    owner = [-1] * 24
    for s, hand in enumerate(position.hands):
        for c in hand:
            hands[s] |= 1 << c
            owner[c] = s
    lower, upper = table.lower, table.upper
    trumps_down = orders[trump] if trump != NO_TRUMP else ()
    trump_mask = masks[trump] if trump != NO_TRUMP else 0
    suits = [(s, masks[s]) for s in range(4)]
    plain = [(s, m) for s, m in suits if s != trump]
    # Facts that depend only on the cards left (each card has one owner in a search), so
    # they are worked out once per set of cards: the rank-relative key, and the sure tricks
    # from top trumps. Each suit's share is memoised too, as most card sets share suits.
    facts: dict[int, tuple[int, int, int]] = {}
    codes: dict[int, int] = {}
    sures: dict[int, tuple[int, int]] = {}

    def suit_code(cards: int, suit: int) -> int:
        """The owners of a suit's cards still in play, from the top down, in base 5."""
        code = 0
        for c, b in orders[suit]:
            if cards & b:
                code = code * 5 + 1 + owner[c]
        return code

    def sure_tricks(trumps: int) -> tuple[int, int]:
        """Sure tricks: a trump above every trump of the other side wins its trick for its
        side whenever it is played (only a partner's could beat it), and a seat plays one
        card a trick, so a seat with k such trumps is worth k tricks to its side. Returns
        that side (1: ours) and the most such trumps one seat holds."""
        top = -1
        count = [0, 0, 0, 0]
        for c, b in trumps_down:
            if trumps & b:
                o = owner[c]
                if top < 0:
                    top = ours[o]
                elif ours[o] != top:
                    break
                count[o] += 1
        return top, max(count)

    def describe(rem: int) -> tuple[int, int, int]:
        # The key is rank-relative: per suit, the owners of the cards still in play from
        # the top down. Which low cards are gone does not matter, only who holds what
        # relative to the rest, so positions reached by different tricks share entries.
        key = 0
        for s, m in suits:
            x = rem & m
            code = codes.get(x)
            if code is None:
                code = codes[x] = suit_code(x, s)
            key = key << 17 | code  # 5**7 < 2**17: up to seven cards a suit
        x = rem & trump_mask
        sure = sures.get(x)
        if sure is None:
            sure = sures[x] = sure_tricks(x)
        return key << 2, sure[0], sure[1]

    def runs(cand: int, present: int, suit: int) -> tuple[int, ...]:
        key = (present & masks[suit]) << 24 | cand
        reps = memo.get(key)
        if reps is None:
            reps = memo[key] = _runs(trump, suit, cand, present)
        return reps

    def lead(seat: int, need: int) -> int:
        """At a trick boundary, with 0 < need <= tricks left: see :func:`_searcher`."""
        hand = hands[seat]
        left = hand.bit_count()
        if left == 1:
            # The last trick plays itself (every seat has one card): no table needed.
            w, best, s = seat, -1, seat
            row = power[suit_of[hand.bit_length() - 1]]
            for _ in range(size):
                p = row[hands[s].bit_length() - 1]
                if p > best:
                    best, w = p, s
                s = nxt[s]
            return ours[w]
        rem = hands[0] | hands[1] | hands[2] | hands[3]
        fact = facts.get(rem)
        if fact is None:
            fact = facts[rem] = describe(rem)
        key = fact[0] | seat
        lo = lower.get(key, 0)
        if lo >= need:
            return lo
        hi = upper.get(key, left)
        if hi < need:
            return hi
        sure = fact[2]
        if sure:
            if fact[1]:
                if sure >= need:
                    lower[key] = sure
                    return sure
            elif left - sure < need:
                upper[key] = left - sure
                return left - sure
        if not (rem ^ hand) & trump_mask:
            # No one else holds a trump, so no one can ruff: the leader cashes every trump
            # and the top run of each plain suit, keeping the lead throughout.
            cash = (hand & trump_mask).bit_count()
            for s, m in plain:
                if hand & m:
                    top_key = (rem & m) << 24 | (hand & m)
                    run = tops.get(top_key)
                    if run is None:
                        run = tops[top_key] = _top_run(trump, s, hand & m, rem)
                    cash += run
            if ours[seat]:
                if cash >= need:
                    lower[key] = cash
                    return cash
            elif left - cash < need:
                upper[key] = left - cash
                return left - cash
        reps: list[int] = []
        for s, m in suits:
            if hand & m:
                reps += runs(hand & m, rem, s)
        if len(reps) > 1:
            reps.sort(key=strength.__getitem__, reverse=True)  # strong leads first
        after = nxt[seat]
        if ours[seat]:
            g = 0
            for c in reps:
                b = 1 << c
                hands[seat] = hand ^ b
                led = suit_of[c]
                v = follow(after, 1, led, power[led][c], seat, b, need)
                if v >= need:
                    hands[seat] = hand
                    lower[key] = v
                    return v
                if v > g:
                    g = v
            hands[seat] = hand
            upper[key] = g
            return g
        g = left
        for c in reps:
            b = 1 << c
            hands[seat] = hand ^ b
            led = suit_of[c]
            v = follow(after, 1, led, power[led][c], seat, b, need)
            if v < need:
                hands[seat] = hand
                upper[key] = v
                return v
            if v < g:
                g = v
        hands[seat] = hand
        lower[key] = g
        return g

    def follow(seat: int, pos: int, led: int, win_power: int, win_seat: int, trick_mask: int,
               need: int) -> int:
        """Within a trick: ``seat`` plays the ``pos``-th card."""
        hand = hands[seat]
        row = power[led]
        cand = hand & masks[led]
        if cand:
            if not cand & (cand - 1):
                reps: tuple[int, ...] | list[int] = (cand.bit_length() - 1,)  # forced
            else:
                present = (hands[0] | hands[1] | hands[2] | hands[3] | trick_mask) & masks[led]
                reps = memo.get(present << 24 | cand) or runs(cand, present, led)
                if len(reps) > 1:
                    # One suit, highest first. Partner winning: play low. Else the cheapest
                    # card that wins, then the lowest of the rest: the cards that win are a
                    # prefix, so both orders are slices.
                    if ours[win_seat] == ours[seat]:
                        reps = reps[::-1]
                    else:
                        k = 0
                        while k < len(reps) and row[reps[k]] > win_power:
                            k += 1
                        reps = reps[k - 1::-1] + reps[:k - 1:-1] if k else reps[::-1]
        else:
            present = hands[0] | hands[1] | hands[2] | hands[3] | trick_mask
            reps = []
            for s, m in suits:
                if hand & m:
                    reps += runs(hand & m, present, s)
            if len(reps) > 1:
                if ours[win_seat] == ours[seat]:
                    reps.sort(key=strength.__getitem__)
                else:  # a ruff that wins, cheapest first, then the lowest discard
                    reps.sort(key=lambda c: row[c] - 40 if row[c] > win_power else strength[c])
        maximising = ours[seat]
        g = -1 if maximising else 99
        if pos + 1 == size:
            # Last to play: each card ends the trick. Children whose answer the trick count
            # alone settles are not searched at all.
            rest = hand.bit_count() - 1
            for c in reps:
                w = seat if row[c] > win_power else win_seat
                won = ours[w]
                still = need - won
                if still <= 0:
                    v = won  # a lower bound, and enough
                elif still > rest:
                    v = won + rest  # an upper bound, and not enough
                else:
                    hands[seat] = hand ^ (1 << c)
                    v = won + lead(w, still)
                    hands[seat] = hand
                if maximising:
                    if v >= need:
                        return v
                    if v > g:
                        g = v
                else:
                    if v < need:
                        return v
                    if v < g:
                        g = v
            return g
        after = nxt[seat]
        for c in reps:
            b = 1 << c
            hands[seat] = hand ^ b
            p = row[c]
            if p > win_power:
                v = follow(after, pos + 1, led, p, seat, trick_mask | b, need)
            else:
                v = follow(after, pos + 1, led, win_power, win_seat, trick_mask | b, need)
            if maximising:
                if v >= need:
                    hands[seat] = hand
                    return v
                if v > g:
                    g = v
            else:
                if v < need:
                    hands[seat] = hand
                    return v
                if v < g:
                    g = v
        hands[seat] = hand
        return g

    def search(seat: int, pos: int, led: int, win_power: int, win_seat: int, trick_mask: int,
               need: int) -> int:
        if pos:
            return follow(seat, pos, led, win_power, win_seat, trick_mask, need)
        if need <= 0:
            return 0
        left = hands[seat].bit_count()
        if need > left:
            return left
        return lead(seat, need)

    return search, hands


class _Root:
    """The root of a search: the current trick's state and the player to move's options."""

    def __init__(self, position: Position, table: TranspositionTable) -> None:
        table.prepare(position)
        self.position = position
        self.search, self.hands = _searcher(position, table)
        trump = position.trump
        self.seat = position.to_play
        self.pos = len(position.trick)
        self.trick_mask = 0
        self.led = 0
        self.win_power, self.win_seat = -1, 0
        if position.trick:
            self.led = EFFECTIVE_SUIT[trump][position.trick[0][1]]
            row = _POWER[trump][self.led]
            for s, c in position.trick:
                self.trick_mask |= 1 << c
                if row[c] > self.win_power:
                    self.win_power, self.win_seat = row[c], s
        self.left = len(position.hands[self.seat])
        self.size = len(position.active_seats)
        self.ours = [1 if s in position.side else 0 for s in range(4)]

    def test(self, need: int) -> int:
        return self.search(self.seat, self.pos, self.led, self.win_power, self.win_seat,
                           self.trick_mask, need)

    def after(self, card: int) -> Callable[[int], int]:
        """The search for the position after the player to move plays ``card``."""
        seat, hands, search = self.seat, self.hands, self.search
        trump = self.position.trump
        if self.pos == 0:
            led = EFFECTIVE_SUIT[trump][card]
            w_power, w_seat = _POWER[trump][led][card], seat
        else:
            led = self.led
            p = _POWER[trump][led][card]
            w_power, w_seat = (p, seat) if p > self.win_power else (self.win_power,
                                                                   self.win_seat)
        last = self.pos + 1 == self.size
        active = self.position.active_seats
        nxt_seat = active[(active.index(seat) + 1) % self.size]
        bit = 1 << card
        won = self.ours[w_seat]

        def test(need: int) -> int:
            hands[seat] ^= bit
            try:
                if last:
                    return won + search(w_seat, 0, 0, -1, 0, 0, need - won)
                return search(nxt_seat, self.pos + 1, led, w_power, w_seat,
                              self.trick_mask | bit, need)
            finally:
                hands[seat] ^= bit

        return test

    @staticmethod
    def converge(test: Callable[[int], int], lo: int, hi: int, guess: int) -> int:
        """The exact value in ``[lo, hi]`` by null-window tests (MTD(f)): each test's
        fail-soft bound moves ``lo`` up or ``hi`` down until they meet."""
        g = guess
        while lo < hi:
            need = g + 1 if g == lo else g
            g = test(need)
            if g >= need:
                lo = g
            else:
                hi = g
        return lo

    def legal(self) -> list[int]:
        hand = self.hands[self.seat]
        if self.pos:
            follow = hand & _SUIT_MASKS[self.position.trump][self.led]
            hand = follow or hand
        return [c for c in range(24) if hand >> c & 1]

    def groups(self, legal: list[int]) -> list[list[int]]:
        """Legal cards grouped into runs of equivalent cards (see the module docstring)."""
        trump = self.position.trump
        present = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3] | self.trick_mask
        mine = sum(1 << c for c in legal)
        out: list[list[int]] = []
        for s in range(4):
            run: list[int] = []
            for c, b in _ORDERS[trump][s]:
                if not present & b:
                    continue
                if mine & b:
                    run.append(c)
                elif run:
                    out.append(run)
                    run = []
            if run:
                out.append(run)
        return out


def solve(position: Position, table: TranspositionTable | None = None,
          card_values: bool = True) -> Solution:
    """The most tricks ``position.side`` takes from here, and each legal card's value.

    Pass the same ``table`` to solve successive positions of one hand, or many deals of one
    kind, faster (it clears itself when a position does not fit it). ``card_values=False``
    returns the value alone, saving the one or two searches each card group needs.
    """
    table = table if table is not None else TranspositionTable()
    root = _Root(position, table)
    side = tuple(Seat(s) for s in sorted(position.side))
    to_play = Seat(position.to_play)
    maximising = bool(root.ours[root.seat])
    if root.left == 0:
        return Solution(0, to_play, maximising, side, ())
    best = root.converge(root.test, 0, root.left, (root.left + 1) // 2)
    values: list[CardValue] = []
    if card_values:
        for group in root.groups(root.legal()):
            # A card is at best as good as the best play, and most cards are: start there.
            if maximising:
                v = root.converge(root.after(group[0]), 0, best, best)
            else:
                v = root.converge(root.after(group[0]), best, root.left, best)
            cost = best - v if maximising else v - best
            values.extend(CardValue(DECK[c], v, cost) for c in group)
        values.sort(key=lambda cv: (cv.cost, -_STRENGTH[position.trump][cv.card.index]))
    return Solution(best, to_play, maximising, side, tuple(values))


def takes_at_least(position: Position, tricks: int,
                   table: TranspositionTable | None = None) -> bool:
    """Whether ``position.side`` takes at least ``tricks`` more tricks with best play.

    One null-window search: cheaper than :func:`solve` when only a threshold matters (does
    the bidder take all six for a pepper?)."""
    table = table if table is not None else TranspositionTable()
    return _Root(position, table).test(tricks) >= tricks


# ---- reading a HandState -----------------------------------------------------------------


def position_from_state(state: HandState, side_seats: Collection[Seat | int] | None = None
                        ) -> Position:
    """The position of a :class:`~pepper_tutor.state.HandState` in the play phase.

    ``side_seats`` defaults to the bidding side: the bidder and, in partnerships, the partner
    (who may be sitting out: only seats in play count)."""
    from .state import Phase

    if state.phase is not Phase.PLAY:
        raise ValueError(f"the solver needs a hand in the play phase, not {state.phase}")
    out = state._out if state._out >= 0 else None
    if side_seats is None:
        side_seats = bidding_side(state)
    hands = tuple(() if s == out else tuple(state._hands[s]) for s in range(state.players))
    return Position(hands=hands,
                    trick=tuple(zip(state._trick_seats, state._trick, strict=True)),
                    to_play=state._to_act, trump=state._trump,
                    side=frozenset(int(s) for s in side_seats), players=state.players,
                    out=out)


def bidding_side(state: HandState) -> tuple[Seat, ...]:
    """The bidder and, in partnerships, the partner."""
    if state.bidder is None:
        raise ValueError("no one has bid yet")
    partner = state.partner_of_bidder
    return (state.bidder,) if partner is None else tuple(sorted((state.bidder, partner)))


def solve_state(state: HandState, side_seats: Collection[Seat | int] | None = None,
                table: TranspositionTable | None = None, card_values: bool = True) -> Solution:
    """:func:`solve` for a hand in the play phase; ``won_before`` counts the side's tricks
    already taken, so ``solution.total`` is its final count with best play."""
    position = position_from_state(state, side_seats)
    solution = solve(position, table, card_values)
    won = sum(state._won[s] for s in position.side)
    return Solution(solution.tricks, solution.to_play, solution.maximising, solution.side,
                    solution.values, won)
